"""Honest exits and repairable runs: stamps decide what a rerun redoes, shortfalls exit non-zero,
`--force` redoes a stage, a check that raises is an `error`, the manifest records provenance."""

from __future__ import annotations

import json
import platform
import shutil
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import FIXTURES, GEN_TASKS, dev_records

from acpgen.cli import cli
from acpgen.config import load_config
from acpgen.evaluation.scoring import PlannerSetup
from acpgen.evaluation.validate import check_record, validate_records
from acpgen.generation.benchmark import Assembly, Checks, write_manifest
from acpgen.nl.template import TEMPLATES_DIR
from acpgen.tasks import TASKS, ScoreOptions

DOMAINS = ("ferry", "grippers")
# The CI pipeline (2 domains) with open-ended questions only, 2 per task, 2 problems per domain.
RAW = yaml.safe_load((FIXTURES / "pipeline" / "ci.yaml").read_text())
RAW["qa"].update(formats=["gen"], questions_per_task=2, tasks=list(GEN_TASKS))  # the 8 ACPBench tasks
for _name in DOMAINS:
    RAW["domains"][_name]["problems"] = 2
del RAW["dataset"]


def write_config(folder: Path, name: str = "config.yaml", **qa) -> Path:
    raw = json.loads(json.dumps(RAW))
    raw["qa"].update(qa)
    path = folder / name
    path.write_text(yaml.safe_dump(raw))
    return path


def generate(config: Path, out: Path, *extra: str, domains=DOMAINS):
    args = ["generate", "--config", str(config), "--out", str(out)]
    for name in domains:
        args += ["--domain", name]
    return CliRunner().invoke(cli, [*args, *extra], catch_exceptions=False)


def mtimes(root: Path, pattern: str) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_mtime_ns for p in sorted(root.glob(pattern))}


def contents(root: Path, pattern: str) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.glob(pattern))}


@pytest.fixture(scope="module")
def complete(tmp_path_factory) -> Path:
    """A finished run of both domains (every qa file has its 2 questions)."""
    root = tmp_path_factory.mktemp("complete")
    result = generate(write_config(root), root / "out")
    assert result.exit_code == 0, result.output
    return root / "out"


def upstream(out: Path) -> dict[str, int]:
    """Modification times of ferry's problems, plans and per-problem states files."""
    return {k: v for stage in ("problems", "plans", "states") for k, v in mtimes(out, f"ferry/{stage}/*").items()}


def copy_run(complete: Path, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    shutil.copytree(complete, out)  # copies keep their modification times
    return out


def test_a_short_qa_file_is_written_and_named_fails_a_strict_run_and_a_larger_budget_repairs_only_it(
    complete, tmp_path
):
    out = copy_run(complete, tmp_path)
    stamps = {d: json.loads((out / d / "stamps/qa.json").read_text()) for d in DOMAINS}
    # With 2 candidate states per task, val falls short in both domains (states off a plan are skipped);
    # every other task finds its 2 questions within the first 2 candidates.
    assert {d: sorted(k for k, v in s.items() if v["tried"] > 2) for d, s in stamps.items()} == {
        "ferry": ["val.jsonl"],
        "grippers": ["val.jsonl"],
    }
    before = mtimes(out, "*/qa/*.jsonl")

    # fewer questions than asked for: written, named, and the run succeeds (a level may give no more)
    short = generate(write_config(tmp_path, "short.yaml", candidates_per_task=2), out)
    assert short.exit_code == 0, short.output
    assert "ferry: qa: 1 new, 7 already done, 0 failed, 1 short" in short.output
    recorded = json.loads((out / "ferry/stamps/qa.json").read_text())["val.jsonl"]
    got = recorded["got"]
    assert (recorded["wanted"], recorded["tried"]) == (2, 2) and got < 2
    assert f"short: val gen: {got} of 2 questions from the first 2 of" in short.output
    assert "raise qa.candidates_per_task" in short.output
    last = short.output.strip().splitlines()[-1]
    assert last.startswith("fewer records than asked for: ferry qa (1 short), grippers qa (1 short)"), last
    assert "raise qa.candidates_per_task" in recorded["shortfall"]
    assert len((out / "ferry/qa/val.jsonl").read_text().splitlines()) == got

    # --strict fails the run on it, as acp dataset does
    again = generate(write_config(tmp_path, "short.yaml", candidates_per_task=2), out, "--strict")
    assert again.exit_code == 1, again.output
    assert "ferry: qa: 0 new, 8 already done, 0 failed, 1 short" in again.output  # the same budget cannot do better
    assert again.output.strip().splitlines()[-1].startswith("fell short: ferry qa (1 short), grippers qa (1 short)")

    repaired = generate(write_config(tmp_path, "big.yaml"), out)
    assert repaired.exit_code == 0, repaired.output
    assert "ferry: qa: 1 new, 7 already done, 0 failed" in repaired.output
    assert "grippers: export: 1 new, 7 already done" in repaired.output
    after = mtimes(out, "*/qa/*.jsonl")
    assert {k for k in after if after[k] != before[k]} == {"ferry/qa/val.jsonl", "grippers/qa/val.jsonl"}
    # The repaired files are exactly what an uninterrupted run with the larger budget wrote.
    assert contents(out, "*/qa/*.jsonl") == contents(complete, "*/qa/*.jsonl")
    assert contents(out, "*/*.gen.jsonl") == contents(complete, "*/*.gen.jsonl")


def test_states_that_cannot_give_more_are_recorded_and_fail_only_a_strict_run(tmp_path):
    raw = json.loads(json.dumps(RAW))
    raw["domains"] = {"ferry": {"problems": 1, "sizes": [{"locations": 2, "cars": 1}]}}
    raw["states"]["max_per_problem"] = 3
    raw["qa"]["questions_per_task"] = 4
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(raw))
    first = generate(config, tmp_path / "out", "--stage", "qa", domains=["ferry"])
    assert first.exit_code == 0, first.output
    assert "short: app gen: 3 of 4 questions: all 3 candidate states tried" in first.output
    assert first.output.strip().splitlines()[-1].startswith("fewer records than asked for: ferry qa (")
    entry = json.loads((tmp_path / "out/ferry/stamps/qa.json").read_text())["app.jsonl"]
    assert (entry["wanted"], entry["got"], entry["tried"], entry["candidates"]) == (4, 3, 3, 3)
    assert "cannot give more" in entry["shortfall"]
    rerun = generate(config, tmp_path / "out", "--stage", "qa", "--strict", domains=["ferry"])
    assert rerun.exit_code == 1, rerun.output
    assert "ferry: qa: 0 new, 8 already done" in rerun.output
    assert "short: app gen: 3 of 4 questions: all 3 candidate states tried" in rerun.output
    assert "(unchanged since the last run)" in rerun.output
    assert rerun.output.strip().splitlines()[-1].startswith("fell short: ferry qa (")


def test_force_qa_redoes_the_qa_files_and_force_export_only_the_exports(complete, tmp_path):
    out = copy_run(complete, tmp_path)
    config = write_config(tmp_path)
    before = {"qa": mtimes(out, "ferry/qa/*.jsonl"), "export": mtimes(out, "ferry/*.gen.jsonl")}
    before["upstream"] = upstream(out)

    forced = generate(config, out, "--force", "qa", domains=["ferry"])
    assert forced.exit_code == 0, forced.output
    assert "ferry: qa: 8 new, 0 already done" in forced.output
    assert "ferry: problems: 0 new" in forced.output and "ferry: plans: 0 new" in forced.output
    qa_after = mtimes(out, "ferry/qa/*.jsonl")
    assert len(qa_after) == 8 and all(qa_after[k] != before["qa"][k] for k in qa_after)
    assert upstream(out) == before["upstream"]
    # The qa files came out the same, so their exports are current: nothing to redo downstream.
    assert contents(out, "ferry/qa/*.jsonl") == contents(complete, "ferry/qa/*.jsonl")
    assert "ferry: export: 0 new, 8 already done" in forced.output

    exported = generate(config, out, "--force", "export", domains=["ferry"])
    assert exported.exit_code == 0, exported.output
    assert "ferry: qa: 0 new, 8 already done" in exported.output
    assert "ferry: export: 8 new, 0 already done" in exported.output
    export_after = mtimes(out, "ferry/*.gen.jsonl")
    assert all(export_after[k] != before["export"][k] for k in export_after)
    assert mtimes(out, "ferry/qa/*.jsonl") == qa_after and upstream(out) == before["upstream"]
    assert contents(out, "ferry/*.gen.jsonl") == contents(complete, "ferry/*.gen.jsonl")


def test_an_edited_or_unstamped_file_is_made_again(complete, tmp_path):
    out = copy_run(complete, tmp_path)
    config = write_config(tmp_path)
    (out / "ferry/qa/app.jsonl").write_text("")  # changed by hand: its digest no longer matches
    (out / "grippers/stamps/export.json").unlink()  # as written by an acp without stamps
    result = generate(config, out)
    assert result.exit_code == 0, result.output
    assert "ferry: qa: 1 new, 7 already done" in result.output
    assert "ferry: export: 0 new, 8 already done" in result.output  # app.jsonl was made again, the same
    assert "grippers: qa: 0 new, 8 already done" in result.output
    assert "grippers: export: 8 new, 0 already done" in result.output
    assert contents(out, "*/qa/*.jsonl") == contents(complete, "*/qa/*.jsonl")


def test_a_changed_template_redoes_the_export_of_its_domain_only(complete, tmp_path, monkeypatch):
    out = copy_run(complete, tmp_path)
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES_DIR, templates)
    monkeypatch.setenv("ACP_TEMPLATES_DIR", str(templates))
    config = write_config(tmp_path)
    same = generate(config, out)  # a copy of the same templates: nothing to redo
    assert same.exit_code == 0, same.output
    assert "ferry: export: 0 new, 8 already done" in same.output

    ferry = templates / "ferry.yaml"
    data = yaml.safe_load(ferry.read_text())
    data["description"] = "This is an edited ferry domain. " + data["description"]
    ferry.write_text(yaml.safe_dump(data, sort_keys=False))
    before = mtimes(out, "*/*.gen.jsonl")
    edited = generate(config, out)
    assert edited.exit_code == 0, edited.output
    assert "ferry: export: 8 new, 0 already done" in edited.output
    assert "grippers: export: 0 new, 8 already done" in edited.output
    assert "ferry: qa: 0 new, 8 already done" in edited.output  # the template's text is not a qa input
    after = mtimes(out, "*/*.gen.jsonl")
    assert {k for k in after if after[k] != before[k]} == {f"ferry/{t}.gen.jsonl" for t in GEN_TASKS}
    record = json.loads((out / "ferry/app.gen.jsonl").read_text().splitlines()[0])
    assert "This is an edited ferry domain." in record["context"]


@pytest.mark.parametrize("exception", [RuntimeError("checker bug"), KeyError("missing")])
def test_a_check_that_raises_is_an_error_not_a_wrong_answer(monkeypatch, tmp_path, exception):
    def broken(ctx):
        raise exception

    monkeypatch.setattr(TASKS["app"], "validate", broken)
    record = dev_records("app")[0]
    result = check_record("app", record, ScoreOptions())
    assert result.verdict == "error"
    assert f"check raised {type(exception).__name__}: {exception}" in result.reason
    assert "test_exits.py" in result.reason  # where it was raised

    path = tmp_path / "app.gen.json"
    path.write_text(json.dumps(dev_records("app")[:2] + dev_records("prog")[:1]))
    cli_result = CliRunner().invoke(cli, ["validate", str(path), "--json"])
    assert cli_result.exit_code == 1
    verdicts = [json.loads(line)["verdict"] for line in cli_result.output.splitlines() if line.startswith("{")]
    assert sorted(verdicts) == ["error", "error", "ok"]
    assert "3 records: 1 ok, 0 wrong, 0 unproven, 2 errors" in cli_result.output


def test_validate_in_workers_reports_errors_too(tmp_path):
    """An exception inside a worker process is an error verdict there as well (no monkeypatching
    reaches the workers, so the record itself makes the check raise: an app answer that is no list)."""
    record = json.loads(json.dumps(dev_records("app")[0]))
    record["answer"] = 7
    items = [("app", record), ("app", dev_records("app")[1])]
    results = validate_records(items, ScoreOptions(), PlannerSetup(), jobs=2, progress=False)
    assert [r.verdict for r in results] == ["error", "ok"]
    assert results[0].reason.startswith("check raised TypeError")


def test_manifest_records_config_hash_seed_and_versions(tmp_path):
    config = load_config(FIXTURES / "pipeline" / "ci.yaml")
    checks = Checks(0, {}, [], 0, 0, 0)
    manifests = []
    for n, variant in enumerate((config, config, config.with_overrides(seed=5))):
        write_manifest(tmp_path / str(n), variant, ["ferry"], Assembly(), checks, {}, ["ferry qa: val gen: short"])
        manifests.append(json.loads((tmp_path / str(n) / "manifest.json").read_text()))
    first, same, reseeded = manifests
    assert first["config_sha256"] == same["config_sha256"] != reseeded["config_sha256"]
    assert len(first["config_sha256"]) == 64 and (first["seed"], reseeded["seed"]) == (3, 5)
    assert first["stage_failures"] == ["ferry qa: val gen: short"]
    versions = first["versions"]
    assert versions["python"] == platform.python_version()
    for name in ("tarski", "kstar-planner", "up-fast-downward", "fast-downward-translate", "forbiditerative"):
        assert versions[name] == metadata.version(name)
    assert versions["acpgen"] == metadata.version("acpgen")
    assert first["code_version"] == reseeded["code_version"]
