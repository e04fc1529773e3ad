"""Stages 1-3 of `acp generate`: determinism, resumability after a kill, valid plans, fallback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, GEN_TASKS, snapshot

from acpgen.cli import cli
from acpgen.config import load_config
from acpgen.data import DOMAINS_DIR
from acpgen.errors import ConfigError
from acpgen.generation.stages import StageContext, plans
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.semantics import execute, is_plan
from acpgen.planners import PlannerResult, Planners, Status

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


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("run-a")
    result = generate(out)
    assert "ferry: 4 problems" in result.output
    return out


def test_same_seed_gives_identical_bytes_and_another_seed_differs(reference_run, tmp_path):
    generate(tmp_path / "b")
    assert snapshot(tmp_path / "b") == snapshot(reference_run)
    generate(tmp_path / "c", "--seed", "8", "--stage", "problems")
    assert (tmp_path / "c" / "ferry/problems/p001.pddl").read_bytes() != (
        reference_run / "ferry/problems/p001.pddl"
    ).read_bytes()


def test_artefacts_do_not_depend_on_the_hash_seed(tmp_path):
    """Two processes with different PYTHONHASHSEED (set iteration order) write the same bytes."""
    snapshots = []
    for seed in ("1", "2"):
        out = tmp_path / f"hash-{seed}"
        run = subprocess.run(
            generate_command(out, FIXTURES / "pipeline" / "ci.yaml"),
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            timeout=600,
        )
        assert run.returncode == 0, run.stderr[-2000:]
        snapshots.append(snapshot(out))
    assert snapshots[0] == snapshots[1]
    assert any(name.endswith("reach.mcq.jsonl") for name in snapshots[0])


def test_stored_plans_are_valid_and_states_are_reached_by_their_paths(reference_run):
    root = reference_run / "ferry"
    domain = (DOMAINS_DIR / "ferry" / "domain.pddl").read_text()
    tasks = {}
    for plan_file in sorted((root / "plans").glob("*.json")):
        record = json.loads(plan_file.read_text())
        task = tasks[plan_file.stem] = GroundTask.from_strings(
            domain, (root / "problems" / f"{plan_file.stem}.pddl").read_text()
        )
        assert record["plans"] and all(is_plan(task, task.init, p["actions"]) for p in record["plans"])
        assert all(p["cost"] == len(p["actions"]) for p in record["plans"])
    states = [json.loads(line) for line in (root / "states.jsonl").read_text().splitlines()]
    assert len({s["id"] for s in states}) == len(states)
    for state in states:
        task = tasks[state["problem"]]
        run = execute(task, task.init, state["path"])
        assert run.applicable
        assert task.state_atoms(run.state & ~task.static_mask) == state["atoms"]
        assert state["applicable"] == len(task.applicable(run.state))
    keys = {(s["problem"], tuple(s["atoms"])) for s in states}
    assert len(keys) == len(states)  # de-duplicated per problem


def test_a_killed_run_resumes_to_the_same_artefacts(reference_run, tmp_path):
    out = tmp_path / "killed"
    command = generate_command(out, SMALL)
    scratch = tmp_path / "tmp"  # the planner folders a SIGKILL leaves behind stay inside the test's folder
    scratch.mkdir()
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    deadline = time.time() + 120
    while time.time() < deadline and not list((out / "ferry" / "plans").glob("*.json")):
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # the planner children too
    process.wait()
    # Whatever the kill left behind is complete: every finished file parses.
    root = out / "ferry"
    domain = (DOMAINS_DIR / "ferry" / "domain.pddl").read_text()
    for problem in (root / "problems").glob("*.pddl"):
        GroundTask.from_strings(domain, problem.read_text())
    assert all(json.loads(p.read_text())["plans"] for p in (root / "plans").glob("*.json"))
    generate(out)
    assert snapshot(out) == snapshot(reference_run)


def test_diverse_planning_is_the_fallback_when_kstar_finds_nothing(reference_run, tmp_path):
    class KstarTimesOut(Planners):
        def top_quality(self, *args, **kwargs):
            return PlannerResult(Status.TIMEOUT, message="simulated K* timeout")

    config = load_config(SMALL)
    ctx = StageContext("ferry", config, reference_run, KstarTimesOut())
    record = plans.plan_problem(ctx, reference_run / "ferry/problems/p002.pddl")
    assert record["method"] == "diverse" and record["plans"] and record["optimal_cost"] is None
    task = GroundTask.from_strings(ctx.domain_text, (reference_run / "ferry/problems/p002.pddl").read_text())
    assert all(is_plan(task, task.init, p["actions"]) for p in record["plans"])


def test_config_errors_name_the_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("seed: 1\nplans: {quality: 2}\n")
    with pytest.raises(ConfigError, match=r"unknown key.*quality"):
        load_config(bad)
    result = CliRunner().invoke(cli, ["generate", "--domain", "atlantis", "--config", str(SMALL)])
    assert result.exit_code == 1 and "unknown domain 'atlantis'" in result.output


def test_qa_questions_validate_and_their_answers_score_one(reference_run):
    from acpgen.evaluation.records import Dataset, Prediction, reference_predictions
    from acpgen.evaluation.scoring import score_predictions
    from acpgen.evaluation.validate import validate_records
    from acpgen.planners import PlannerSetup
    from acpgen.tasks import ScoreOptions

    qa = reference_run / "ferry" / "qa"
    counts = {t: len((qa / f"{t}.jsonl").read_text().splitlines()) for t in GEN_TASKS}
    assert counts == {t: 3 for t in GEN_TASKS}
    dataset = Dataset.load(qa)
    assert len(dataset.records) == 3 * len(GEN_TASKS)  # ids are unique across tasks
    items = [(task, record) for (task, _), record in sorted(dataset.records.items())]
    results = validate_records(items, ScoreOptions(), PlannerSetup(), progress=False)
    assert [r.verdict for r in results] == ["ok"] * 3 * len(GEN_TASKS)
    predictions = [
        Prediction(line, *dataset.resolve(line), line["response"]) for line in reference_predictions(dataset)
    ]
    for recheck in (False, True):
        scored = score_predictions(predictions, ScoreOptions(recheck=recheck), progress=False)
        assert [s.verdict.score for s in scored] == [1.0] * len(predictions)


def test_records_follow_the_wire_schema_and_round_trip(reference_run):
    """Exported records have the keys of GenRecord in its order, qa records only keys of QARecord,
    and both read back from JSON and write out again to the same bytes."""
    from acpgen.schema import GenRecord as Exported
    from acpgen.schema import QARecord, ReferenceGenRecord, keys

    root = reference_run / "ferry"
    exported = sorted(root.glob("*.gen.jsonl"))
    assert len(exported) == len(GEN_TASKS)  # the tasks small.yaml configures
    for path in exported:
        for line in path.read_text().splitlines():
            record = json.loads(line)
            order = [k for k in keys(Exported) if k in record]
            assert list(record) == order and set(keys(ReferenceGenRecord)) <= set(record), path.name
            assert json.dumps(record, ensure_ascii=False) == line
    for path in sorted((root / "qa").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            assert set(record) <= set(keys(QARecord)), (path.name, set(record) - set(keys(QARecord)))
            assert json.dumps(record, sort_keys=True, ensure_ascii=False) == line
