"""Shared fixtures: the reference dev records (copied into tests/fixtures) and small helpers."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from acpgen.cli import cli
from acpgen.config import load_config
from acpgen.data import DOMAINS_DIR
from acpgen.generators import get_generator
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.proofs.change.world import LiftedWorld
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


def generated_problem(domain: str, seed: int, size: dict | None = None) -> GroundTask:
    """The task of a problem of a built-in domain made by its generator: of ``size``, else of the smallest
    configured size."""
    generator = get_generator(domain)
    problem = generator.render(
        generator.generate(dict(size or load_config().domain(domain).sizes[0]), random.Random(seed))
    )
    return GroundTask.from_strings((DOMAINS_DIR / domain / "domain.pddl").read_text(), problem)


def random_walk(task: GroundTask, steps: int, rng: random.Random) -> int:
    """The state after ``steps`` actions drawn with ``rng`` from the initial state (fewer at a dead end)."""
    state = task.init
    for _ in range(steps):
        options = task.successors(state)
        if not options:
            break
        state = rng.choice(options)[1].apply(state)
    return state


def explored_problems(domain: str, seed: int, limit: int, sizes: list[dict] | None = None) -> Iterator[tuple]:
    """(task, its exploration bounded at ``limit`` states) of a generated problem of a built-in domain per
    size, smallest first: ``sizes``, or the configured ones."""
    for size in sizes or load_config().domain(domain).sizes:
        task = generated_problem(domain, seed, size)
        yield task, explore(task, task.init, limit)


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


SMALL = FIXTURES / "pipeline" / "small.yaml"


def generate(out: Path, *extra: str):
    result = CliRunner().invoke(
        cli,
        ["generate", "--domain", "ferry", "--out", str(out), "--config", str(SMALL), *extra],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    return result


def generate_command(out: Path, config: Path) -> list[str]:
    """`acp generate` of ferry as a separate Python process."""
    return [sys.executable, "-m", "acpgen", "generate", "--domain", "ferry", "--out", str(out), "--config", str(config)]


@pytest.fixture(scope="session")
def reference_run(tmp_path_factory) -> Path:
    """One `acp generate` of ferry with tests/fixtures/pipeline/small.yaml, shared by the stage tests."""
    out = tmp_path_factory.mktemp("run-a")
    result = generate(out)
    assert "ferry: 4 problems" in result.output
    return out


# ----- records for the training environments (tests/training, tests/adapters) ----------------------
CI = FIXTURES / "pipeline" / "ci.yaml"
RL_TASKS = ("plan", "app", "rac_state")


@pytest.fixture(scope="session")
def rl_records(tmp_path_factory) -> dict[str, list[dict]]:
    """Three ferry records of plan (an optimal plan of 2 to 8 steps), app and rac_state, made with
    tests/fixtures/pipeline/ci.yaml into one cache folder (the stages before qa run once)."""
    import acpgen

    cache = tmp_path_factory.mktemp("rl-cache")
    made = {task: list(acpgen.generate("ferry", task, n=3, seed=5, config=CI, cache_dir=cache)) for task in RL_TASKS}
    # the plan records about problems no plan solves (tests/training/test_no_plan.py tests those) are left out
    return {task: [r for r in records if r.get("solvable", True)] for task, records in made.items()}


@pytest.fixture(scope="session")
def rl_split(rl_records, tmp_path_factory) -> Path:
    """The records of `rl_records` as a records folder (one JSONL file per task), a pre-built split."""
    folder = tmp_path_factory.mktemp("rl-split")
    for task, records in rl_records.items():
        (folder / f"{task}.gen.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder


@pytest.fixture(scope="session")
def sweep_records(tmp_path_factory) -> list[dict]:
    """plan records of every domain of the default configuration at levels 1 and 2, up to two per domain
    and level, from two problems per domain as `make bench-levels` makes them (the configured number
    where two give none: swap's level 2): the slow sweep of the multi-step episodes. A few minutes."""
    import dataclasses
    import warnings

    import acpgen
    from acpgen.config import load_config

    config = load_config(None)
    records = []
    for level in (1, 2):
        for domain, entry in config.domains.items():
            for problems in (2, entry.problems):
                smaller = dataclasses.replace(config, domains={domain: dataclasses.replace(entry, problems=problems)})
                cache = tmp_path_factory.mktemp(f"sweep-{domain}-{level}-{problems}")
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", acpgen.GenerationShortfall)
                    made = list(
                        acpgen.generate(domain, "plan", n=2, seed=1, level=level, config=smaller, cache_dir=cache)
                    )
                if made:
                    records += made
                    break
    return records


def lifted_run(record: dict, actions: list[str]) -> tuple[int, float]:
    """The executable prefix of ``actions`` and the goal progress it makes, by the separate lifted interpreter (no
    grounding, none of the scorer's code): of the goal's literals false in the record's state, the share true
    after the prefix."""
    lifted = GroundTask.from_strings(record["PDDL_domain"], record["PDDL_problem"]).lifted
    world = LiftedWorld(lifted, {})
    state = world.init
    executable = 0
    for action in actions:
        after = world.step(state, action.lower())
        if after is None:
            break
        state, executable = after, executable + 1
    goal = [(f"({' '.join((literal.predicate, *literal.args))})", literal.positive) for literal in lifted.goal]
    open_literals = [(atom, positive) for atom, positive in goal if (atom in world.init) != positive]
    return executable, sum((atom in state) == positive for atom, positive in open_literals) / len(open_literals)
