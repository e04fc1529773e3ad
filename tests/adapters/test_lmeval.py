"""`acp export lm-eval` for every format (gen, bool, mcq) and representation (nl, pddl): the hooks on
reference and generated records, lm-eval's own TaskManager loading every written task and tag, and
an end-to-end `lm_eval --model dummy` run whose --log_samples files `acp score` reads."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import DEV, FIXTURES

from acpgen.adapters.lmeval import doc_to_target, export_lm_eval, process_results
from acpgen.cli import cli
from acpgen.errors import DataError
from acpgen.tasks import TASKS, task_formats

CI_CONFIG = FIXTURES / "pipeline" / "ci.yaml"
# The ACPBench tasks, written out here rather than read from the registry: exactly these carry the paper tags.
ACPBENCH_CHOICE = ("app", "prog", "reach", "areach", "val", "just", "land")
ACPBENCH_GEN = (*ACPBENCH_CHOICE, "nexta")
# The paper tag of each family and format (the reference groups ACPBench-Hard = gen, ACPBench = bool + mcq).
PAPER_TAGS = {
    "acpbench": {"gen": "acpgen_bench_hard", "bool": "acpgen_bench", "mcq": "acpgen_bench"},
    "rac": {"gen": "acpgen_rac", "bool": "acpgen_rac", "mcq": "acpgen_rac"},
    "t2p": {"gen": "acpgen_t2p"},
    "plan": {"gen": "acpgen_plan", "bool": "acpgen_plan", "mcq": "acpgen_plan"},
}
FORMAT_TAGS = {"gen": "acpgen_gen_2shot", "bool": "acpgen_bool_cot_2shot", "mcq": "acpgen_mcq_cot_2shot"}


def test_only_the_acpbench_tasks_are_in_the_acpbench_family():
    acpbench = {name for name, task in TASKS.items() if task.family == "acpbench"}
    assert acpbench == set(ACPBENCH_GEN)
    assert {name for name, task in TASKS.items() if task.choice is not None and task.family == "acpbench"} == set(
        ACPBENCH_CHOICE
    )
    assert {name for name, task in TASKS.items() if task.family == "rac"} == {
        "rac_fluent",
        "rac_state",
        "rac_exec",
        "rac_effects",
        "rac_num",
        "rac_comp",
    }


def expected_names(suffix: str = "") -> dict[str, set[str]]:
    """Tag -> task names: the format tag of each task and format, and its family's paper tag."""
    out: dict[str, set[str]] = {}
    for name, task in TASKS.items():
        formats = ("gen", "bool", "mcq") if task.choice is not None else ("gen",)
        for fmt in formats:
            task_name = f"acpgen_{name}_{fmt}{suffix}"
            for tag in (FORMAT_TAGS[fmt], PAPER_TAGS[task.family][fmt]):
                out.setdefault(f"{tag}{suffix}", set()).add(task_name)
    return out


def split_name(name: str) -> tuple[str, str]:
    """(task, format) of an lm-eval task name ``acpgen_<task>_<format>[_with_pddl]``."""
    stem = name.removeprefix("acpgen_").removesuffix("_with_pddl_nl").removesuffix("_with_pddl")
    task, fmt = stem.rsplit("_", 1)
    return task, fmt


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def datasets(tmp_path_factory) -> Path:
    """A tiny ferry dataset in gen, bool and mcq, built twice: nl contexts (ds-nl) and PDDL ones (ds-pddl)."""
    root = tmp_path_factory.mktemp("lmeval")
    raw = yaml.safe_load(CI_CONFIG.read_text())
    raw["domains"] = {"ferry": raw["domains"]["ferry"]}
    raw["qa"].update(questions_per_task=4, formats=["gen", "bool", "mcq"])
    raw["dataset"] = {"test_per_domain": 2, "dev_per_task": 2}
    config = root / "config.yaml"
    config.write_text(yaml.safe_dump(raw))
    for representation in ("nl", "pddl"):
        args = ["dataset", "--config", str(config), "--out", str(root / f"ds-{representation}")]
        args += ["--work", str(root / "work"), "--representation", representation, "-j", "1"]
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
    return root


# ----- hooks -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["bool", "mcq"])
def test_hooks_score_reference_choice_records_with_acps_readers(fmt):
    """The reference dev records (group names only, no acp fields): stored answer 1, another 0, prose a parse error."""
    for path in sorted(DEV.glob(f"*.{fmt}.json")):
        for record in json.loads(path.read_text()):
            target = doc_to_target(record)
            assert target.endswith(
                "**Final Answer**: "
                + (record["answer"].capitalize() + "." if fmt == "bool" else record["answer"] + ".")
            )
            assert process_results(record, [target]) == {"score": 1.0, "parse_error": 0.0}, (path, record["id"])
            gold = record["answer"].strip().upper() if fmt == "mcq" else record["answer"].strip().lower()
            wrong = {"yes": "No", "no": "Yes"}[gold] if fmt == "bool" else next(x for x in "ABCD" if x != gold)
            assert process_results(record, [f"Let me see. **Final Answer**: {wrong}."]) == {
                "score": 0.0,
                "parse_error": 0.0,
            }
            assert process_results(record, ["I would rather not say."]) == {"score": 0.0, "parse_error": 1.0}


def test_export_names_tasks_by_representation(datasets, tmp_path):
    for representation, suffix in (("nl", ""), ("pddl", "_with_pddl")):
        written = export_lm_eval(datasets / f"ds-{representation}", tmp_path / representation)
        names = {p.stem for p in written}
        assert names == set().union(*expected_names(suffix).values())
        for path in written:
            config = yaml.safe_load(path.read_text().replace("!function", ""))
            assert config["task"] == path.stem
            fmt = split_name(path.stem)[1]
            assert config["dataset_kwargs"]["data_files"]["test"].endswith(f"test.{fmt}.jsonl")
            assert {tag for tag, tasks in expected_names(suffix).items() if path.stem in tasks} == set(config["tag"])
            assert ("\n\n" in config["generation_kwargs"]["until"]) == (fmt == "gen")  # CoT may use paragraphs
        assert (tmp_path / representation / "acpgen_lm_eval_hooks.py").exists()


def test_export_refuses_a_folder_of_mixed_representations(datasets, tmp_path):
    mixed = tmp_path / "mixed"
    shutil.copytree(datasets / "ds-nl", mixed)
    shutil.copy(datasets / "ds-pddl" / "land" / "test.mcq.jsonl", mixed / "land" / "test.mcq.jsonl")
    with pytest.raises(DataError, match=r"land/test\.mcq\.jsonl: pddl.*one representation"):
        export_lm_eval(mixed, tmp_path / "out")
    shutil.copy(datasets / "ds-pddl" / "app" / "dev.bool.jsonl", mixed / "land" / "test.mcq.jsonl")
    with open(mixed / "land" / "test.mcq.jsonl", "a") as handle:
        handle.write((mixed / "land" / "dev.mcq.jsonl").read_text())
    with pytest.raises(DataError, match=r"test\.mcq\.jsonl: records of several representations"):
        export_lm_eval(mixed, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_export_requires_two_dev_records_per_format(datasets, tmp_path):
    short = tmp_path / "short"
    shutil.copytree(datasets / "ds-nl", short)
    path = short / "reach" / "dev.bool.jsonl"
    path.write_text(path.read_text().splitlines()[0] + "\n")
    result = CliRunner().invoke(cli, ["export", "lm-eval", str(short)])
    assert result.exit_code != 0 and "reach (bool)" in result.output and "needs at least 2 records" in result.output


# ----- lm-evaluation-harness ---------------------------------------------------------------------------
LOAD_SCRIPT = """
import json, sys
from lm_eval.tasks import TaskManager, get_task_dict
manager = TaskManager(include_path=sys.argv[1], include_defaults=False)  # our tasks only: seconds, not a minute
tags = sys.argv[2].split(",")
report = {"tags": {}, "tasks": {}}
def walk(d, found):
    for k, v in d.items():
        if isinstance(v, dict):
            walk(v, found)
        else:
            found[v.config.task] = v
for tag in tags:
    found = {}
    walk(get_task_dict([tag], manager), found)
    report["tags"][tag] = sorted(found)
    for name, task in found.items():
        docs, shots = list(task.test_docs()), list(task.fewshot_docs())
        report["tasks"][name] = {
            "docs": [{k: v for k, v in d.items() if k in ("id", "answer", "question", "context")} for d in docs],
            "shot_ids": [d["id"] for d in shots],
            "shot_targets": [task.doc_to_target(d) for d in shots],
            "prompt": task.fewshot_context(docs[0], num_fewshot=2),
            "target": task.doc_to_target(docs[0]),
            "right": task.process_results(docs[0], [task.doc_to_target(docs[0])]),
            "prose": task.process_results(docs[0], ["I would rather not say."]),
        }
print(json.dumps(report))
"""


def lm_eval_env(tmp_path: Path) -> dict[str, str]:
    """Offline, with the datasets cache in the test's folder."""
    return {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_DATASETS_CACHE": str(tmp_path / "hf")}


def test_lm_eval_task_manager_loads_every_task_of_every_format_and_representation(datasets, tmp_path):
    pytest.importorskip("lm_eval")
    out = tmp_path / "tasks"
    for representation in ("nl", "pddl"):  # both into one folder, as docs/integrations/lm-eval.md shows
        result = CliRunner().invoke(
            cli, ["export", "lm-eval", str(datasets / f"ds-{representation}"), "--out", str(out)]
        )
        assert result.exit_code == 0, result.output
    wanted = {**expected_names(), **expected_names("_with_pddl")}
    run = subprocess.run(
        [sys.executable, "-c", LOAD_SCRIPT, str(out), ",".join(wanted)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=lm_eval_env(tmp_path),
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert {tag: set(names) for tag, names in report["tags"].items()} == wanted
    assert len(report["tasks"]) == 2 * len(task_formats())
    for name, item in report["tasks"].items():
        task, fmt = split_name(name)
        ds = datasets / ("ds-pddl" if name.endswith("_with_pddl") else "ds-nl") / task
        test, dev = lines(ds / f"test.{fmt}.jsonl"), lines(ds / f"dev.{fmt}.jsonl")
        assert [d["id"] for d in item["docs"]] == [r["id"] for r in test], name
        assert item["shot_ids"] == [r["id"] for r in dev[:2]], name  # first_n: the dev records in order
        prompt = item["prompt"]
        assert prompt.count("**Question**:") == 3, name
        for record in (*dev[:2], test[0]):
            assert record["question"] in prompt and record["context"] in prompt, name
        if task != "t2p":  # t2p contexts hold the PDDL domain in every representation, its answers a problem
            assert ("```pddl" in prompt and "(:init" in prompt) == name.endswith("_with_pddl"), name
        assert item["right"]["score"] == 1.0 and item["right"]["parse_error"] == 0.0, name
        if fmt == "gen":
            assert prompt.endswith("**Final Answer**:") and set(item["right"]) == {"score", "parse_error", "undecided"}
            continue
        assert prompt.endswith("**Thoughts**:"), name
        assert item["prose"] == {"score": 0.0, "parse_error": 1.0}, name
        for record, target in zip((*dev[:2], test[0]), (*item["shot_targets"], item["target"])):
            answer = record["answer"].capitalize() if fmt == "bool" else record["answer"]
            assert target.endswith(f"**Final Answer**: {answer}."), name
            assert f"**Thoughts**: {target}" in prompt or record is test[0], name


@pytest.mark.slow
def test_lm_eval_dummy_run_over_bool_and_mcq_is_read_by_acp_score(datasets, tmp_path):
    """lm_eval --model dummy answers "lol": a parse error everywhere; the same samples with the stored
    answers as responses score 1 with `acp score` (which reads the bool/mcq docs of the sample files)."""
    pytest.importorskip("lm_eval")
    out = tmp_path / "tasks"
    for representation in ("nl", "pddl"):
        assert (
            CliRunner()
            .invoke(cli, ["export", "lm-eval", str(datasets / f"ds-{representation}"), "--out", str(out)])
            .exit_code
            == 0
        )
    lm_eval = Path(sys.executable).with_name("lm_eval")
    args = [str(lm_eval), "--model", "dummy", "--include_path", str(out), "--limit", "2", "--log_samples"]
    args += ["--tasks", "acpgen_bench,acpgen_val_mcq_with_pddl", "--output_path", str(tmp_path / "results")]
    run = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, env=lm_eval_env(tmp_path), timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    results = json.loads(next((tmp_path / "results").rglob("results_*.json")).read_text())["results"]
    names = expected_names()["acpgen_bench"] | {"acpgen_val_mcq_with_pddl"}
    assert names <= set(results)
    for name in names:
        assert results[name]["score,none"] == 0.0 and results[name]["parse_error,none"] == 1.0, name
    samples = sorted((tmp_path / "results").rglob("samples_acpgen_*.jsonl"))
    assert len(samples) == len(names)
    result = CliRunner().invoke(cli, ["score", *map(str, samples), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["all"]["all"]["answers"] == 2 * len(names) and summary["all"]["all"]["parse_errors"] == 2 * len(
        names
    )
    assert summary["val.mcq"]["all"]["answers"] == 4  # nl and pddl samples of val mcq
    # The same sample files with the stored answer as the response: every one scores 1.
    for path in samples:
        rows = [json.loads(x) for x in path.read_text().splitlines()]
        for row in rows:
            row["resps"] = [[doc_to_target(row["doc"])]]
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = CliRunner().invoke(cli, ["score", *map(str, samples), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["all"]["all"]["accuracy"] == 1.0 and summary["all"]["all"]["answers"] == 2 * len(names)
