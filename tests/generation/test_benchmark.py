"""Export stage, `acp dataset` and `acp export lm-eval`: reference schema, splits, unique stable ids,
self-check, and lm-evaluation-harness loading the exported tasks with acp as the metric."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import FIXTURES, GEN_TASKS

from acpgen.adapters.lmeval import doc_to_target, process_results
from acpgen.cli import cli
from acpgen.config import load_config
from acpgen.errors import ConfigError
from acpgen.evaluation.records import Dataset
from acpgen.generation.benchmark import dev_quota
from acpgen.generation.stages.export import ActionCase
from acpgen.schema import REFERENCE_KEYS
from acpgen.tasks import TASKS

CI_CONFIG = FIXTURES / "pipeline" / "ci.yaml"


def ferry_only_config(tmp_path: Path, **dataset) -> Path:
    """The CI config reduced to ferry (one domain keeps the default test run short)."""
    raw = yaml.safe_load(CI_CONFIG.read_text())
    raw["domains"] = {"ferry": raw["domains"]["ferry"]}
    raw["qa"]["questions_per_task"] = 4
    raw["qa"]["formats"] = ["gen"]
    raw["qa"]["tasks"] = list(GEN_TASKS)  # the 8 ACPBench tasks
    raw["dataset"] = {"test_per_domain": 2, "dev_per_task": 2, **dataset}
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("dataset")
    config = ferry_only_config(root)
    result = CliRunner().invoke(
        cli,
        ["dataset", "--config", str(config), "--out", str(root / "ds"), "--work", str(root / "work"), "-j", "1"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    return root


def split_records(root: Path) -> dict[tuple[str, str], list[dict]]:
    out = {}
    for task in GEN_TASKS:
        for split in ("test", "dev"):
            path = root / "ds" / task / f"{split}.gen.jsonl"
            out[(split, task)] = [json.loads(line) for line in path.read_text().splitlines()]
    return out


def test_dev_quota_spreads_the_remainder_over_the_first_domains():
    assert dev_quota(["a", "b", "c"], 40) == {"a": 14, "b": 13, "c": 13}
    assert sum(dev_quota([f"d{i}" for i in range(13)], 40).values()) == 40


def test_too_few_questions_per_task_is_a_config_error(tmp_path):
    config = ferry_only_config(tmp_path, test_per_domain=4, dev_per_task=1)
    result = CliRunner().invoke(cli, ["dataset", "--config", str(config), "--out", str(tmp_path / "ds")])
    assert result.exit_code != 0
    assert "qa.questions_per_task is 4, but the dataset needs 5" in result.output


def test_splits_have_the_configured_sizes_and_reference_schema(built):
    records = split_records(built)
    for (split, task), items in records.items():
        assert len(items) == 2, (split, task)
        for record in items:
            assert tuple(record)[: len(REFERENCE_KEYS["gen"])] == REFERENCE_KEYS["gen"]
            assert record["group"] == TASKS[task].gen_group and record["task"] == task
            assert record["split"] == split
            assert record["context"].count(" \n") in (2, 3)
            assert "(:init" in record["PDDL_problem"] and record["PDDL_problem"].count("(:goal") == 1
            assert isinstance(record["id"], int) and -(2**63) <= record["id"] < 2**63


def test_ids_are_unique_across_the_whole_dataset(built):
    ids = [r["id"] for items in split_records(built).values() for r in items]
    assert len(ids) == len(set(ids))


def test_test_and_dev_ask_different_questions(built):
    records = split_records(built)
    for task in GEN_TASKS:
        test_ids = {r["uid"] for r in records[("test", task)]}
        assert not test_ids & {r["uid"] for r in records[("dev", task)]}


def test_reference_answer_formats(built):
    records = split_records(built)
    for record in records[("test", "reach")]:
        assert all(not atom.startswith("(") for atom in record["answer"])
    for record in records[("test", "val")]:
        assert isinstance(record["answer"], int)
        assert f'"{" ".join(record["plan"])}"' in record["question"]
    for record in records[("test", "nexta")]:
        assert record["answer"]["opt"].isdigit()
    for record in records[("test", "prog")]:
        assert record["action"] not in record["question"]  # named in words in the nl representation


def test_manifest_records_counts_checks_and_time(built):
    manifest = json.loads((built / "ds" / "manifest.json").read_text())
    assert manifest["checks"]["validate"] == {"ok": 4 * len(GEN_TASKS), "wrong": 0, "unproven": 0, "error": 0}
    assert manifest["stage_failures"] == [] and len(manifest["config_sha256"]) == 64
    assert manifest["checks"]["answers"] == manifest["checks"]["answers_scored_1"] > 0
    assert sum(manifest["counts"]["test"]["app"].values()) == 2
    assert manifest["seconds"]["total"] > 0


def test_rerun_resumes_and_gives_identical_bytes(built, tmp_path):
    before = {p: p.read_bytes() for p in sorted((built / "ds").rglob("*.gen.jsonl"))}
    config = ferry_only_config(tmp_path)
    result = CliRunner().invoke(
        cli,
        ["dataset", "--config", str(config), "--out", str(built / "ds"), "--work", str(built / "work"), "-j", "1"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert f"export: 0 new, {len(GEN_TASKS)} already done" in result.output
    assert {p: p.read_bytes() for p in sorted((built / "ds").rglob("*.gen.jsonl"))} == before


def test_representation_changes_only_the_context_and_question(built, tmp_path):
    work = tmp_path / "work"
    shutil.copytree(built / "work", work)
    config = ferry_only_config(tmp_path)
    result = CliRunner().invoke(
        cli,
        ["generate", "--domain", "ferry", "--config", str(config), "--out", str(work), "--representation", "pddl"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    nl = [json.loads(x) for x in (built / "work/ferry/prog.gen.jsonl").read_text().splitlines()]
    pddl = [json.loads(x) for x in (work / "ferry/prog.gen.jsonl").read_text().splitlines()]
    for a, b in zip(nl, pddl):
        assert b["representation"] == "pddl" and "```pddl" in b["context"] and "Currently," not in b["context"]
        assert b["action"] in b["question"]
        assert {k: v for k, v in a.items() if k not in ("context", "question", "representation")} == {
            k: v for k, v in b.items() if k not in ("context", "question", "representation")
        }


def test_bool_and_mcq_splits_are_written_and_checked(built, tmp_path):
    work = tmp_path / "work"
    shutil.copytree(built / "work", work)
    config = ferry_only_config(tmp_path)
    result = CliRunner().invoke(
        cli,
        [
            "dataset",
            "--config",
            str(config),
            "--out",
            str(tmp_path / "ds"),
            "--work",
            str(work),
            "--formats",
            "gen,bool,mcq",
            "-j",
            "1",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    for task in (t for t in GEN_TASKS if TASKS[t].choice):
        for fmt in ("bool", "mcq"):
            for split in ("test", "dev"):
                records = [
                    json.loads(x) for x in (tmp_path / "ds" / task / f"{split}.{fmt}.jsonl").read_text().splitlines()
                ]
                assert len(records) == 2 and all(r["format"] == fmt and r["split"] == split for r in records)
    assert not (tmp_path / "ds" / "nexta" / "test.bool.jsonl").exists()
    manifest = json.loads((tmp_path / "ds" / "manifest.json").read_text())
    ok = 4 * len(GEN_TASKS) + 2 * 7 * 4
    assert manifest["checks"]["validate"] == {"ok": ok, "wrong": 0, "unproven": 0, "error": 0}


def test_action_case_follows_the_domain():
    case = ActionCase("(define (domain l) (:action LOAD-TRUCK :parameters ()) (:action fly :parameters ()))")
    assert case("(load-truck p0 t0 l0)") == "(LOAD-TRUCK p0 t0 l0)"
    assert case("(fly a0)") == "(fly a0)"
    assert TASKS["just"].export_answer([["(load-truck p t l)", "1"]], case) == [["(LOAD-TRUCK p t l)", "1"]]
    assert TASKS["app"].export_answer(["(fly a0)", "(load-truck p t l)"], case) == ["(fly a0)", "(LOAD-TRUCK p t l)"]
    nexta = {"maybe": [], "no": ["(fly a0)"], "opt": "3", "yes": ["(load-truck p t l)"]}
    assert list(TASKS["nexta"].export_answer(nexta, case).items()) == [
        ("yes", ["(LOAD-TRUCK p t l)"]),
        ("no", ["(fly a0)"]),
        ("maybe", []),
        ("opt", "3"),
    ]
    assert list(TASKS["prog"].export_answer({"neg": ["(b)"], "pos": ["(a)"]}, case)) == ["pos", "neg"]


# ----- lm-evaluation-harness ---------------------------------------------------------------------------
def test_hooks_give_stored_answers_full_marks_and_prose_a_parse_error(built):
    records = split_records(built)
    for task in GEN_TASKS:
        for record in records[("test", task)]:
            # What the dataset loader hands over: every key of the split, absent ones as None.
            doc = {**{k: None for k in ("plan", "action")}, **record}
            assert process_results(doc, [doc_to_target(doc)]) == {"score": 1.0, "undecided": 0.0, "parse_error": 0.0}
        doc = records[("test", task)][0]
        if task != "val":
            assert process_results(doc, ["I am not sure."])["score"] == 0.0


def test_lm_eval_loads_the_exported_tasks(built, tmp_path):
    pytest.importorskip("lm_eval")
    out = tmp_path / "tasks"
    result = CliRunner().invoke(cli, ["export", "lm-eval", str(built / "ds"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    script = f"""
import json
from lm_eval.tasks import TaskManager, get_task_dict
manager = TaskManager(include_path={str(out)!r}, include_defaults=False)
tasks = get_task_dict(["acpgen_gen_2shot"], manager)
found = {{}}
def walk(d):
    for k, v in d.items():
        if isinstance(v, dict):
            walk(v)
        else:
            found[v.config.task] = v
walk(tasks)
report = {{}}
for name, task in sorted(found.items()):
    docs = list(task.test_docs())
    shots = list(task.fewshot_docs())
    prompt = task.fewshot_context(docs[0], num_fewshot=2)
    target = task.doc_to_target(docs[0])
    report[name] = {{"docs": len(docs), "shots": len(shots), "prompt": prompt, "target": target,
                    "result": task.process_results(docs[0], [target]),
                    "until": task.config.generation_kwargs["until"]}}
print(json.dumps(report))
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert sorted(report) == sorted(f"acpgen_{t}_gen" for t in GEN_TASKS)
    for name, item in report.items():
        assert item["docs"] == 2 and item["shots"] == 2
        assert item["prompt"].count("**Question**:") == 3 and item["prompt"].endswith("**Final Answer**:")
        assert item["result"]["score"] == 1.0, name
        assert "\n\n" in item["until"]


def test_acp_score_reads_lm_eval_samples(built, tmp_path):
    record = split_records(built)[("test", "app")][0]
    sample = {
        "doc_id": 0,
        "doc": {**record, "plan": None, "action": None},
        "target": str(record["answer"]),
        "resps": [[" ".join(record["answer"]) + "\n"]],
        "filtered_resps": [" ".join(record["answer"])],
    }
    path = tmp_path / "samples_acpgen_app_gen_x.jsonl"
    path.write_text(json.dumps(sample) + "\n")
    wrong = {**sample, "resps": [["I cannot tell."]]}
    other = tmp_path / "samples_acpgen_app_gen_y.jsonl"
    other.write_text(json.dumps(wrong) + "\n")
    result = CliRunner().invoke(cli, ["score", str(path), str(other), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["app"]["all"]["answers"] == 2 and summary["app"]["all"]["accuracy"] == 0.5


def test_export_requires_two_dev_records(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "test.gen.jsonl").write_text("{}\n")
    (tmp_path / "app" / "dev.gen.jsonl").write_text("{}\n")
    result = CliRunner().invoke(cli, ["export", "lm-eval", str(tmp_path)])
    assert result.exit_code != 0 and "needs at least 2 records" in result.output


def test_dataset_config_section_is_checked(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("dataset: {test_per_domain: 2, splits: 3}\n")
    with pytest.raises(ConfigError, match="unknown key"):
        load_config(path)


def test_exported_records_load_as_a_dataset(built):
    dataset = Dataset.load(built / "ds" / "app" / "test.gen.jsonl")
    assert len(dataset.records) == 2


def test_a_domain_left_out_of_a_task_gives_no_file_and_no_shortfall(tmp_path):
    """``domains.<d>.skip_tasks``: the domain makes no questions of the task, and the dataset takes that
    task's test and dev questions from the other domains without counting a shortfall."""
    raw = yaml.safe_load(CI_CONFIG.read_text())
    raw["qa"].update(questions_per_task=4, formats=["gen"], tasks=["app", "reach"])
    raw["dataset"] = {"test_per_domain": 2, "dev_per_task": 2}
    raw["domains"]["grippers"]["skip_tasks"] = ["reach"]
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(raw))
    args = ["dataset", "--config", str(config), "--out", str(tmp_path / "ds"), "--work", str(tmp_path / "work")]
    result = CliRunner().invoke(cli, [*args, "-j", "1"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "work" / "grippers" / "qa" / "reach.jsonl").exists()
    assert (tmp_path / "work" / "grippers" / "qa" / "app.jsonl").exists()
    domains = {}
    for task in ("app", "reach"):
        for split in ("test", "dev"):
            lines = (tmp_path / "ds" / task / f"{split}.gen.jsonl").read_text().splitlines()
            domains[(task, split)] = sorted(json.loads(line)["domain"] for line in lines)
    assert domains[("reach", "test")] == ["ferry", "ferry"] and domains[("reach", "dev")] == ["ferry", "ferry"]
    assert domains[("app", "test")] == ["ferry", "ferry", "grippers", "grippers"]
    raw["domains"]["grippers"]["skip_tasks"] = ["rech"]
    config.write_text(yaml.safe_dump(raw))
    result = CliRunner().invoke(cli, [*args, "-j", "1"])
    assert result.exit_code != 0 and "domains.grippers.skip_tasks: unknown task(s) rech" in result.output
