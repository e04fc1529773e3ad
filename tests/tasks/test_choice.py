"""Boolean and multiple-choice formats (ACPBench): answer extraction, generation from proven claims,
balance, validation and scoring; reference dev bool/mcq gold answers score 1."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import DEV, FIXTURES

from acpgen.cli import cli
from acpgen.evaluation.records import Dataset, Prediction, reference_predictions
from acpgen.evaluation.scoring import score_predictions
from acpgen.evaluation.validate import check_record
from acpgen.nl.answers import ParseError, parse_choice, parse_yes_no
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.semantics import execute
from acpgen.planners.parse import sas_mutex_groups
from acpgen.tasks import CHOICE_GROUPS, TASKS, ScoreOptions
from acpgen.tasks.choice import LABELS

CI_CONFIG = FIXTURES / "pipeline" / "ci.yaml"


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Yes", "yes"),
        ("no.", "no"),
        ("**Final Answer**: No.", "no"),
        ("**Final Answer**: Yes", "yes"),
        # the reference filter takes the first yes/no word ("no car"): acp reads the final answer
        ("There is no car at l1, so the ferry can board. **Final Answer**: Yes.", "yes"),
        ("The answer is yes, because the ferry is at l0.", "yes"),
        ("True", "yes"),
        ("False.", "no"),
        ("No, the ferry is empty.", "no"),
        ("<think>maybe no</think> **Final Answer**: Yes.", "yes"),
    ],
)
def test_yes_no_extraction(text, expected):
    assert parse_yes_no(text) == expected


@pytest.mark.parametrize("text", ["I think it is not possible to say.", "", "Maybe."])
def test_yes_no_without_commitment_is_a_parse_error(text):
    with pytest.raises(ParseError):
        parse_yes_no(text)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("B", "B"),
        ("**Final Answer**: D.", "D"),
        ("(c)", "C"),
        # the reference filter takes the last capital A-D in the text: here "B"
        ("**Final Answer**: D. Note that option B is wrong.", "D"),
        ("The answer is (c)", "C"),
        ("C. sail from l0 to l1", "C"),
        ("Answer: A", "A"),
        ("The correct option is B because the car is at l1.", "B"),
        ("\\boxed{C}", "C"),
    ],
)
def test_choice_extraction(text, expected):
    assert parse_choice(text) == expected


def test_choice_from_the_option_text_and_errors():
    assert parse_choice("sail from l1 to l0", ["board c0", "sail from l1 to l0", "x", "y"]) == "B"
    for text in ("Car c8 is at location l1.", "I am not sure", "E"):
        with pytest.raises(ParseError):
            parse_choice(text)


def test_reference_dev_bool_and_mcq_gold_answers_score_1():
    dataset = Dataset.load(DEV)
    lines = [line for line in reference_predictions(dataset) if "." in line["task"]]
    assert len(lines) == 14 * 40
    predictions = [
        Prediction(line, line["task"], dataset.records[(line["task"], str(line["id"]))], line["response"])
        for line in lines
    ]
    scored = score_predictions(predictions, progress=False)
    assert all(s.verdict.score == 1.0 for s in scored)


# Reference just questions that name an action occurring several times in the plan, removable at
# some of its places and not at others: the question does not say which place it means.
AMBIGUOUS_JUST = {
    ("just.bool", -3627071012480285151),
    ("just.mcq", -6291797480617531591),
    ("just.mcq", 1187297714147458009),
    ("just.mcq", 3987370885247159070),
    ("just.mcq", 6627093291695246124),
}


def reference_choice_records():
    for path in sorted(DEV.glob("*.bool.json")) + sorted(DEV.glob("*.mcq.json")):
        task, fmt, _ = path.name.split(".")
        for record in json.loads(path.read_text()):
            yield f"{task}.{fmt}", record


def test_reference_bool_and_mcq_records_are_reproven_from_their_prose():
    """Three records of every file (the full set is a slow test): prose read into PDDL and claims."""
    seen: Counter = Counter()
    for kind, record in reference_choice_records():
        if seen[kind] == 3 or (kind, record["id"]) in AMBIGUOUS_JUST:
            continue
        seen[kind] += 1
        check = check_record(kind, record, ScoreOptions())
        assert check.verdict == "ok", (kind, record["id"], check.reason)
    assert len(seen) == 14


@pytest.mark.slow
def test_every_reference_bool_and_mcq_record_is_reproven_or_ambiguous():
    for kind, record in reference_choice_records():
        check = check_record(kind, record, ScoreOptions())
        if (kind, record["id"]) in AMBIGUOUS_JUST:
            assert check.verdict == "unproven" and "occurs several times" in check.reason
        else:
            assert check.verdict == "ok", (kind, record["id"], check.reason)


def test_a_wrong_reference_answer_is_caught():
    record = json.loads((DEV / "app.bool.json").read_text())[0]
    flipped = {**record, "answer": "no" if record["answer"] == "yes" else "yes"}
    assert check_record("app.bool", flipped, ScoreOptions()).verdict == "wrong"


def test_every_choice_group_is_known():
    groups = {r["group"] for f in DEV.glob("*.bool.json") for r in json.loads(f.read_text())}
    groups |= {r["group"] for f in DEV.glob("*.mcq.json") for r in json.loads(f.read_text())}
    # every reference group is known, and the known ACPBench groups are exactly the reference ones
    assert groups == {g for g, (task, _) in CHOICE_GROUPS.items() if TASKS[task].family == "acpbench"}


def test_translator_mutex_groups_are_parsed():
    sas = "\n".join(
        [
            "begin_variable",
            "var0",
            "-1",
            "3",
            "Atom at-ferry(l0)",
            "Atom at-ferry(l1)",
            "<none of those>",
            "end_variable",
            "begin_variable",
            "var1",
            "-1",
            "2",
            "Atom empty-ferry()",
            "NegatedAtom empty-ferry()",
            "end_variable",
            "begin_variable",
            "var2",
            "-1",
            "2",
            "Atom on(c0)",
            "NegatedAtom on(c0)",
            "end_variable",
            "1",
            "begin_mutex_group",
            "2",
            "1 0",
            "2 0",
            "end_mutex_group",
        ]
    )
    assert sas_mutex_groups(sas) == [("(at-ferry l0)", "(at-ferry l1)"), ("(empty-ferry)", "(on c0)")]


# ----- generated records ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("choice")
    raw = yaml.safe_load(CI_CONFIG.read_text())
    raw["qa"].update(formats=["bool", "mcq"], questions_per_task=4)
    config = root / "config.yaml"
    config.write_text(yaml.safe_dump(raw))
    result = CliRunner().invoke(
        cli,
        ["generate", "--domain", "all", "--config", str(config), "--out", str(root / "out")],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    return root / "out"


def records_of(root: Path, fmt: str) -> list[dict]:
    return [
        json.loads(line) for path in sorted(root.glob(f"*/*.{fmt}.jsonl")) for line in path.read_text().splitlines()
    ]


def test_choice_records_follow_the_reference_schema(generated):
    for fmt, keys in (
        ("bool", ("id", "group", "context", "question", "answer")),
        ("mcq", ("id", "group", "context", "question", "choices", "query", "answer")),
    ):
        records = records_of(generated, fmt)
        assert records
        for record in records:
            assert tuple(record)[: len(keys)] == keys
            assert CHOICE_GROUPS[record["group"]] == (record["task"], fmt)
            assert "\n" not in record["context"] and "available actions" not in record["context"]
            assert ("The goal is to reach" in record["context"]) == (record["task"] in ("val", "just", "land", "pver"))
            if fmt == "bool":
                assert record["answer"] in ("yes", "no")
            else:
                texts = record["choices"]["text"]
                assert record["choices"]["label"] == list(LABELS) and len(set(texts)) == 4
                assert record["question"].startswith(record["query"])
                assert all(f"{label}. {text}." in record["question"] for label, text in zip(LABELS, texts))


def test_every_stored_choice_is_reproven(generated):
    for fmt in ("bool", "mcq"):
        for record in records_of(generated, fmt):
            check = check_record(f"{record['task']}.{fmt}", record, ScoreOptions(max_states=1))
            assert check.verdict == "ok", (record["uid"], check)


def test_app_and_prog_truths_agree_with_a_plain_simulation(generated):
    """An independent route for the two tasks whose truth is a simulation: execute in GroundTask."""
    for record in records_of(generated, "bool"):
        if record["task"] not in ("app", "prog"):
            continue
        task = GroundTask.from_strings(record["PDDL_domain"], record["PDDL_problem"])
        if record["task"] == "app":
            truth = execute(task, task.init, [record["claim"]["action"]]).applicable
        else:
            after = execute(task, task.init, [record["action"]]).state
            truth = record["claim"]["fact"] in task.state_atoms(after)
        assert truth == (record["answer"] == "yes"), record["uid"]


def test_tampered_answers_are_caught(generated):
    record = next(r for r in records_of(generated, "bool") if r["task"] == "reach")
    flipped = {**record, "answer": "no" if record["answer"] == "yes" else "yes"}
    assert check_record("reach.bool", flipped, ScoreOptions()).verdict == "wrong"
    record = next(r for r in records_of(generated, "mcq") if r["task"] == "app")
    moved = {**record, "answer": LABELS[(LABELS.index(record["answer"]) + 1) % 4]}
    assert check_record("app.mcq", moved, ScoreOptions()).verdict == "wrong"


def test_answers_are_balanced(generated):
    for task in (t for t in TASKS if TASKS[t].choice):
        answers = Counter(r["answer"] for r in records_of(generated, "bool") if r["task"] == task)
        assert abs(answers["yes"] - answers["no"]) <= 2, (task, answers)
    positions = Counter(r["answer"] for r in records_of(generated, "mcq"))
    assert (
        len(positions) == 4
        and max(positions.values()) - min(positions.values()) <= len(records_of(generated, "mcq")) // 4
    )


def test_stored_choice_answers_score_1_and_wrong_ones_0(generated):
    dataset = Dataset.load(generated)
    lines = [line for line in reference_predictions(dataset) if "." in line["task"]]
    predictions = [
        Prediction(line, line["task"], dataset.records[(line["task"], str(line["id"]))], line["response"])
        for line in lines
    ]
    assert all(s.verdict.score == 1.0 for s in score_predictions(predictions, progress=False))
    wrong = [
        Prediction(
            p.line,
            p.task,
            p.record,
            "**Final Answer**: "
            + (
                ("No." if p.record["answer"] == "yes" else "Yes.")
                if p.task.endswith("bool")
                else LABELS[(LABELS.index(p.record["answer"]) + 1) % 4]
            ),
        )
        for p in predictions
    ]
    assert all(s.verdict.score == 0.0 for s in score_predictions(wrong, progress=False))
