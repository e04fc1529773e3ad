"""Reading records (acpgen/evaluation/records.py): a record that lacks a field its task needs, or a file
that holds no records, is a one-line error naming the file and the line, before any scoring."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from acpgen.cli import cli
from acpgen.errors import DataError
from acpgen.evaluation.records import Dataset, Prediction, problem_of
from acpgen.evaluation.scoring import score_predictions
from acpgen.evaluation.validate import validate_records
from acpgen.planners import PlannerSetup
from acpgen.tasks import TASKS, ScoreOptions, missing_fields

DOMAIN = (
    "(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x) :precondition (p ?x) :effect (not (p ?x))))"
)
PROBLEM = "(define (problem t) (:domain d) (:objects o) (:init (p o)) (:goal (not (p o))))"


def rac_exec_record(**drop: bool) -> dict:
    record = {
        "id": 11,
        "uid": "d/s/rac_exec",
        "task": "rac_exec",
        "question": "?",
        "answer": ["(a o)"],
        "PDDL_domain": DOMAIN,
        "PDDL_problem": PROBLEM,
        "category": "executability",
        "variant": "first",
        "sequence": ["(a o)", "(a o)"],
    }
    return {k: v for k, v in record.items() if k not in drop}


def test_each_task_declares_the_fields_it_needs():
    assert missing_fields("rac_exec", rac_exec_record()) == []
    assert missing_fields("rac_exec", rac_exec_record(variant=True)) == ["variant"]
    effects = {**rac_exec_record(), "task": "rac_effects", "category": "effects", "variant": "added"}
    assert missing_fields("rac_effects", effects) == ["action"]  # the further action the question names
    assert missing_fields("app", {"answer": []}) == ["PDDL_domain", "PDDL_problem"]
    # val reads its plan from the structured field or from the reference question
    assert missing_fields("val", {"answer": 0, "PDDL_domain": "", "PDDL_problem": ""}) == ["question"]
    assert missing_fields("val", {"answer": 0, "PDDL_domain": "", "PDDL_problem": "", "plan": []}) == []
    assert missing_fields("app.bool", {"question": "?"}) == ["answer"]
    assert set(TASKS) >= {"app", "val", "rac_exec"}


def test_a_record_without_a_needed_field_is_named_with_its_file_and_line(tmp_path):
    records = tmp_path / "records.jsonl"
    records.write_text(json.dumps(rac_exec_record()) + "\n\n" + json.dumps(rac_exec_record(variant=True)) + "\n")
    with pytest.raises(DataError, match=r"records\.jsonl:3: rac_exec record 11 has no 'variant' field"):
        Dataset.load(records)
    predictions = tmp_path / "preds.jsonl"
    predictions.write_text(json.dumps({"id": 11, "response": "(a o)"}) + "\n")
    result = CliRunner().invoke(cli, ["score", str(predictions), "--dataset", str(records)])
    assert result.exit_code == 1
    assert "records.jsonl:3: rac_exec record 11 has no 'variant' field" in result.output
    assert "Traceback" not in result.output


def test_a_predictions_file_given_as_the_records_is_refused_in_one_line(tmp_path):
    predictions = tmp_path / "preds.jsonl"
    predictions.write_text(json.dumps({"id": 11, "response": "(a o)"}) + "\n")
    result = CliRunner().invoke(cli, ["score", str(predictions), "--dataset", str(predictions)])
    assert result.exit_code == 1
    assert "no records here: 1 object(s) without a known task" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_json_list_names_the_item(tmp_path):
    records = tmp_path / "records.json"
    records.write_text(json.dumps([rac_exec_record(), rac_exec_record(sequence=True)]))
    with pytest.raises(DataError, match=r"records\.json, item 2: rac_exec record 11 has no 'sequence' field"):
        Dataset.load(records)


def test_the_records_of_one_problem_share_its_key_whatever_their_state():
    """problem_of: reference records (the problem's initial state is the state asked about) of one problem have one
    key; another goal is another problem; acp's records are keyed by the names they carry."""
    other_state = PROBLEM.replace("(:init (p o))", "(:init )")
    other_goal = PROBLEM.replace("(:goal (not (p o)))", "(:goal (p o))")
    assert problem_of({"PDDL_domain": DOMAIN, "PDDL_problem": PROBLEM}) == problem_of(
        {"PDDL_domain": DOMAIN, "PDDL_problem": other_state}
    )
    assert problem_of({"PDDL_domain": DOMAIN, "PDDL_problem": PROBLEM}) != problem_of(
        {"PDDL_domain": DOMAIN, "PDDL_problem": other_goal}
    )
    assert problem_of({"domain": "ferry", "problem": "p1", "PDDL_problem": PROBLEM}) == ("ferry", "p1")


def two_problems_interleaved() -> list[dict]:
    """app records of two problems, two states each, in the order problem 1, 2, 1, 2 (ids 0, 2, 1, 3): the action
    applies in the first state of each, not in the second (whose stored answer, the empty set, is right)."""
    records = []
    for i, problem in enumerate([PROBLEM, PROBLEM.replace("(:goal (not (p o)))", "(:goal (and (not (p o)) (p o)))")]):
        for state, rid in (("(p o)", 2 * i), ("", 2 * i + 1)):
            text = problem.replace("(:init (p o))", f"(:init {state})")
            records.append(
                {"id": rid, "PDDL_domain": DOMAIN, "PDDL_problem": text, "answer": ["(a o)"] if state else []}
            )
    return [records[0], records[2], records[1], records[3]]


def test_scores_come_back_in_the_input_order_when_problems_are_taken_together():
    """score_predictions scores the records of one problem one after the other: the verdicts still follow the
    predictions' order (two problems interleaved; an applicable and an inapplicable action each)."""
    interleaved = two_problems_interleaved()
    predictions = [Prediction({"id": r["id"]}, "app", r, "(a o)") for r in interleaved]
    scored = score_predictions(predictions, ScoreOptions(recheck=True), progress=False)
    assert [s.prediction.record["id"] for s in scored] == [0, 2, 1, 3]
    assert [s.verdict.score for s in scored] == [1.0, 1.0, 0.0, 0.0]


def test_checks_come_back_in_the_input_order_when_problems_are_taken_together():
    """validate_records too: each record's check is reported at its place (one stored answer made wrong)."""
    interleaved = two_problems_interleaved()
    interleaved[2] = {**interleaved[2], "answer": ["(a o)"]}  # id 1: nothing applies in its state
    results = validate_records([("app", r) for r in interleaved], ScoreOptions(), PlannerSetup(), progress=False)
    assert [r.id for r in results] == [0, 2, 1, 3]
    assert [r.verdict for r in results] == ["ok", "ok", "wrong", "ok"]
