"""The clock decides nothing: the same seed and config give the same bytes with the time limits a quarter or
twice as long (what a machine four times slower or twice as fast sees: the limits are only a safety net, every
search that shapes a record is bounded by its work), with one or two processes, and on a Dask LocalCluster.

The config (tests/fixtures/pipeline/determinism.yaml) plans satellite and floortile problems with one
satisficing plan each (level 5's plans stage) and asks next-action, landmark and reachability questions whose
answers need planner searches (reachability's in batches), with a work budget small enough to decide some of
them (searches that end over it are found in the planner cache with status ``budget``). CI runs it (`make
test-determinism`); it takes under a minute.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURES

CONFIG = FIXTURES / "pipeline" / "determinism.yaml"
LIMITS = (("planner", "time_limit"), ("plans", "time_limit"), ("qa", "planner_time_limit"))

pytestmark = pytest.mark.slow


def scaled(folder: Path, factor: float) -> Path:
    """The config with every time limit ``factor`` times as long."""
    config = yaml.safe_load(CONFIG.read_text())
    for section, key in LIMITS:
        config[section][key] *= factor
    path = folder / f"times-{factor:g}.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def generated(out: Path) -> dict[str, bytes]:
    """Every file a run wrote under OUT/<domain>/ (stamps aside: they hold the config's digest)."""
    return {
        str(path.relative_to(out)): path.read_bytes()
        for path in sorted(out.glob("*/**/*"))
        if path.is_file() and "stamps" not in path.parts and "planner-cache" not in path.parts
    }


def test_the_same_seed_gives_the_same_bytes_whatever_the_time_limits_and_the_processes(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "ACP_CACHE_DIR"}  # each run its own planner cache
    runs = {}
    for factor, jobs, executor in ((0.25, 1, "local"), (2.0, 2, "local"), (1.0, 2, "dask")):
        out = tmp_path / f"run-{factor:g}"
        command = ["generate", "--config", str(scaled(tmp_path, factor)), "--domain", "all", "--out", str(out)]
        done = subprocess.run(
            [sys.executable, "-m", "acpgen", *command, "-j", str(jobs), "--executor", executor],
            capture_output=True,
            text=True,
            env=env,
            timeout=900,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        runs[factor] = generated(out)
    slow, fast, dask = runs[0.25], runs[2.0], runs[1.0]
    assert slow.keys() == fast.keys() == dask.keys()
    assert [name for name in slow if slow[name] != fast[name]] == []
    assert [name for name in slow if slow[name] != dask[name]] == []  # a Dask LocalCluster of two workers
    # the records were made: next-action and landmark questions about both domains
    for domain in ("satellite", "floortile"):
        for task in ("nexta", "land", "reach"):
            assert (tmp_path / "run-0.25" / domain / f"{task}.gen.jsonl").read_text().strip()
        plans = (tmp_path / "run-0.25" / domain / "plans").glob("*.json")
        assert {json.loads(path.read_text())["method"] for path in plans} == {"satisficing"}
    # and the budget decided some searches: they ended over it, the same in both runs
    cache = tmp_path / "run-0.25" / "planner-cache"
    statuses = [json.loads(path.read_text()).get("status") for path in cache.rglob("*.json")]
    assert statuses.count("budget") > 0 and statuses.count("solved") > 0
