"""Shared fixtures: the reference dev records (copied into tests/fixtures) and small helpers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from acpgen.tasks import TASKS

FIXTURES = Path(__file__).parent / "fixtures"
DEV = FIXTURES / "acpbench-dev"
#: the tasks of the reference ACPBench data (those with dev records in tests/fixtures); the RAC and
#: t2p tasks have their own tests
GEN_TASKS = tuple(t for t in TASKS if (DEV / f"{t}.gen.json").exists())


def snapshot(root: Path) -> dict[str, bytes]:
    """The artefacts of a run (not the planner cache, whose entries record how long each call took)."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.relative_to(root).parts[0] != "planner-cache"
    }


def dev_records(task: str) -> list[dict]:
    """The reference dev gen records of one task."""
    return json.loads((DEV / f"{task}.gen.json").read_text())


def record_param(task: str):
    """pytest params over one task's dev records, with readable ids."""
    return [pytest.param(r, id=f"{task}-{r['id']}") for r in dev_records(task)]


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    """Planner caches of tests live in the test's tmp dir, never in the user's cache."""
    monkeypatch.setenv("ACP_CACHE_DIR", str(tmp_path / "planner-cache"))
