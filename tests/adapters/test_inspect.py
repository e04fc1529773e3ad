"""The Inspect AI tasks (acpgen.adapters.inspect_tasks), run end to end by the real inspect-ai package.

The model is Inspect's own ``mockllm/model`` with outputs chosen per prompt. Its fixed default text
cannot be used offline: mockllm then counts tokens with tiktoken, which downloads its encoding.
An output given with its token usage skips that count and is otherwise handled the same way.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from acpgen.adapters import inspect_tasks
from acpgen.errors import DataError
from acpgen.tasks import TASKS, Verdict

DEV = FIXTURES / "acpbench-dev"
TASK_FILE = Path(inspect_tasks.__file__).resolve()
MOCK_DEFAULT = "Default output from mockllm/model"  # the text mockllm answers when given no outputs


def mock_model(answer_for):
    """mockllm/model answering ``answer_for(prompt)`` to every prompt."""

    def output(messages: list[ChatMessage], tools, tool_choice, config) -> ModelOutput:
        result = ModelOutput.from_content(model="mockllm", content=answer_for(messages[-1].text))
        result.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return result

    return get_model("mockllm/model", custom_outputs=output)


def run(spec: str, dataset: Path | str, answer_for, tmp_path: Path, limit: int | None = None, **args) -> EvalLog:
    logs = inspect_eval(
        spec,
        task_args={"dataset": str(dataset), **args},
        model=mock_model(answer_for),
        limit=limit,
        display="none",
        log_dir=str(tmp_path / "logs"),
    )
    assert len(logs) == 1
    log = logs[0]
    assert log.status == "success", log.error
    return log


def metrics(log: EvalLog) -> dict[str, float]:
    (scores,) = log.results.scores
    return {name: m.value for name, m in scores.metrics.items()}


def records(name: str) -> list[dict]:
    return json.loads((DEV / f"{name}.json").read_text())


def record_of(prompt: str, candidates: list[dict]) -> dict:
    """The record whose context and question the prompt shows (exactly one)."""
    found = [r for r in candidates if r["context"].strip() in prompt and r["question"].strip() in prompt]
    assert len(found) == 1, prompt[:200]
    return found[0]


def stored_answer(record: dict, fmt: str) -> str:
    """The record's stored answer in words a model could use, written here from the raw reference fields."""
    if fmt == "bool":
        return f"The answer is {record['answer']}."
    if fmt == "mcq":
        return f"So the correct option is ({record['answer']})."
    return "The applicable actions are " + ", ".join(record["answer"]) + "."  # app gen: a list of actions


def test_one_task_per_task_and_format_of_the_registry():
    # Every registered task in gen, and in bool and mcq when it has those formats.
    expected = set()
    for name, task in TASKS.items():
        expected |= {f"acp_{name}_{fmt}" for fmt in (("gen", "bool", "mcq") if task.choice is not None else ("gen",))}
    assert set(inspect_tasks.TASK_FUNCTIONS) == expected
    for name in expected:
        assert callable(getattr(inspect_tasks, name))
    # The ACPBench family is exactly the tasks of the reference dev folder (one file per task and format,
    # app.gen.json, app.bool.json, ...): 8 gen tasks, 7 of them with bool and mcq.
    reference = {"acp_{}_{}".format(*path.name.split(".")[:2]) for path in DEV.glob("*.json")}
    assert len(reference) == 22
    acpbench = {n for n in expected if TASKS[n.split("_", 1)[1].rsplit("_", 1)[0]].family == "acpbench"}
    assert acpbench == reference


def test_mockllm_default_text_is_a_parse_error_scored_by_acp(tmp_path):
    log = run(f"{TASK_FILE}@acp_app_gen", DEV / "app.gen.json", lambda prompt: MOCK_DEFAULT, tmp_path, limit=2)
    assert log.eval.task == "acp_app_gen"
    assert len(log.samples) == 2
    dev_ids = [str(r["id"]) for r in records("app.gen")[:2]]
    assert sorted(str(s.id) for s in log.samples) == sorted(dev_ids)
    for sample in log.samples:
        assert sample.output.completion == MOCK_DEFAULT
        (score,) = sample.scores.values()
        assert score.value == 0.0
        assert score.metadata["status"] == "parse_error"
        assert score.metadata["reason"].startswith("parse_error:")
    assert metrics(log) == {"accuracy": 0.0, "stderr": 0.0, "parse_error": 1.0}


@pytest.mark.parametrize("fmt", ["gen", "bool", "mcq"])
def test_stored_answers_score_one(fmt, tmp_path):
    candidates = records(f"app.{fmt}")
    log = run(
        f"{TASK_FILE}@acp_app_{fmt}",
        DEV / f"app.{fmt}.json",
        lambda prompt: stored_answer(record_of(prompt, candidates), fmt),
        tmp_path,
        limit=3,
    )
    assert len(log.samples) == 3
    for sample in log.samples:
        (score,) = sample.scores.values()
        assert (score.value, score.metadata["status"]) == (1.0, "scored"), score
    assert metrics(log)["accuracy"] == 1.0
    assert log.results.scores[0].scored_samples == 3


# Run as a user would, from a folder of their own: Inspect names the tasks of an installed package
# "acpgen/..." unless an acpgen.egg-info on sys.path (the source checkout as cwd) hides the install.
REGISTERED_NAME_RUN = """
import json, sys
from inspect_ai import eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

records = json.load(open("data/app.gen.json"))

def output(messages, tools, tool_choice, config):
    prompt = messages[-1].text
    (record,) = [r for r in records if r["context"].strip() in prompt]
    result = ModelOutput.from_content(model="mockllm", content=" ".join(record["answer"]))
    result.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return result

(log,) = eval("acpgen/acp_app_gen", task_args={"dataset": "data/app.gen.json"}, limit=2, display="none",
              model=get_model("mockllm/model", custom_outputs=output), log_dir="logs")
scores = [next(iter(s.scores.values())) for s in log.samples]
print(json.dumps({"task": log.eval.task, "status": log.status, "values": [s.value for s in scores],
                  "statuses": [s.metadata["status"] for s in scores],
                  "accuracy": log.results.scores[0].metrics["accuracy"].value}))
"""


def test_registered_name_from_the_entry_point_reads_a_relative_path(tmp_path):
    (tmp_path / "data").mkdir()
    shutil.copy(DEV / "app.gen.json", tmp_path / "data" / "app.gen.json")
    done = subprocess.run(
        [sys.executable, "-c", REGISTERED_NAME_RUN], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {
        "task": "acpgen/acp_app_gen",
        "status": "success",
        "values": [1.0, 1.0],
        "statuses": ["scored", "scored"],
        "accuracy": 1.0,
    }


def test_wrong_answers_score_zero_with_acps_reason(tmp_path):
    # "Yes" for every app.bool question: right exactly where the stored answer is yes.
    candidates = records("app.bool")[:6]
    dataset = tmp_path / "app.bool.json"
    dataset.write_text(json.dumps(candidates))
    log = run(f"{TASK_FILE}@acp_app_bool", dataset, lambda prompt: "Yes", tmp_path)
    values = {str(s.id): next(iter(s.scores.values())).value for s in log.samples}
    assert values == {str(r["id"]): float(r["answer"] == "yes") for r in candidates}
    assert 0 < metrics(log)["accuracy"] < 1
    assert metrics(log)["accuracy"] == pytest.approx(sum(values.values()) / len(values))
    assert metrics(log)["parse_error"] == 0.0


def test_undecided_answers_are_left_out_of_accuracy_not_scored_zero(tmp_path):
    # A record whose PDDL cannot be read leaves acp undecided: Inspect must not count it as a 0.
    candidates = records("app.gen")[:3]
    broken = dict(candidates[0], PDDL_problem=candidates[0]["PDDL_problem"].replace("(:init", "(:innit", 1))
    dataset = tmp_path / "app.gen.json"
    dataset.write_text(json.dumps([broken, *candidates[1:]]))
    log = run(
        f"{TASK_FILE}@acp_app_gen",
        dataset,
        lambda prompt: stored_answer(record_of(prompt, candidates), "gen"),
        tmp_path,
    )
    by_id = {str(s.id): next(iter(s.scores.values())) for s in log.samples}
    undecided = by_id[str(broken["id"])]
    assert math.isnan(undecided.value)
    assert undecided.metadata["status"] == "undecided"
    assert "record PDDL error" in undecided.metadata["reason"]
    assert [s.value for i, s in by_id.items() if i != str(broken["id"])] == [1.0, 1.0]
    (scores,) = log.results.scores
    assert (scores.scored_samples, scores.unscored_samples) == (2, 1)
    assert metrics(log)["accuracy"] == 1.0


def test_generic_task_takes_task_and_format(tmp_path):
    candidates = records("reach.mcq")
    log = run(
        f"{TASK_FILE}@acp",
        DEV,
        lambda prompt: stored_answer(record_of(prompt, candidates), "mcq"),
        tmp_path,
        limit=2,
        task="reach",
        format="mcq",
    )
    assert [s.metadata["kind"] for s in log.samples] == ["reach.mcq", "reach.mcq"]
    assert {str(s.id) for s in log.samples} == {str(r["id"]) for r in candidates[:2]}
    assert metrics(log)["accuracy"] == 1.0


def test_to_score_keeps_status_and_reason():
    assert inspect_tasks.to_score(Verdict.correct()).value == 1.0
    wrong = inspect_tasks.to_score(Verdict.wrong("unknown_action: (fly a b)"))
    assert (wrong.value, wrong.metadata) == (0.0, {"status": "scored", "reason": "unknown_action: (fly a b)"})
    undecided = inspect_tasks.to_score(Verdict.undecided("planner timeout"))
    assert math.isnan(undecided.value)
    assert undecided.metadata == {"status": "undecided", "reason": "planner timeout"}


def test_prompt_ends_with_the_tasks_instruction():
    record = records("app.gen")[0]
    text = inspect_tasks.prompt(record, "app", "gen")
    assert text.startswith(record["context"].strip())
    assert record["question"] in text
    assert text.endswith("Give only the actions.")
    assert inspect_tasks.prompt(records("app.mcq")[0], "app", "mcq").endswith("(A, B, C or D).")


def test_dataset_errors_name_the_path_and_the_fix(tmp_path):
    with pytest.raises(DataError, match=r"no such file or folder.*absolute path"):
        inspect_tasks.load_samples(tmp_path / "missing", "app", "gen")
    with pytest.raises(DataError, match=r"no reach\.mcq records.*app \(40\)"):
        inspect_tasks.load_samples(DEV / "app.gen.json", "reach", "mcq")
    with pytest.raises(DataError, match="task nexta has no bool format"):
        inspect_tasks.load_samples(DEV, "nexta", "bool")
