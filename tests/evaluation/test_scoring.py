"""acpgen.evaluation.scoring on the reference dev records: every stored answer scores 1 (trusted) or is
re-proven (recheck) except the provably wrong ones; unreadable answers are parse errors; planner
timeouts are undecided after one retry, never a silent 0."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from conftest import DEV, GEN_TASKS, dev_records
from reference_answers import WRONG_LAND_NONE, WRONG_REACH_NONE, verdict

import acpgen
from acpgen.cli import cli
from acpgen.evaluation.records import Dataset, Prediction, reference_predictions
from acpgen.evaluation.scoring import Scored, score_one, score_predictions
from acpgen.planners import LandmarkResult, Limits, PlannerResult, Status
from acpgen.tasks import PARSE_ERROR, SCORED, UNDECIDED, RecordContext, ScoreOptions, Verdict


def reference_lines() -> list[Prediction]:
    dataset = Dataset.load(DEV)
    out = []
    for line in reference_predictions(dataset):
        if "." in line["task"]:
            continue  # bool/mcq records: tests/tasks/test_choice.py
        task, record = dataset.resolve(line)
        out.append(Prediction(line, task, record, line["response"]))
    return out


def test_every_stored_answer_scores_one_when_stored_answers_are_trusted():
    results = score_predictions(reference_lines(), ScoreOptions(trust_stored=True), progress=False)
    assert {r.prediction.task for r in results} == set(GEN_TASKS)
    failures = [(r.prediction.task, r.prediction.record["id"], r.verdict) for r in results if r.verdict.score != 1]
    assert failures == []
    assert len(results) > 1000


@pytest.mark.slow
def test_recheck_proves_every_stored_answer_except_the_wrong_ones():
    results = score_predictions(reference_lines(), ScoreOptions(recheck=True), jobs=2, progress=False)
    failures = {(r.prediction.task, str(r.prediction.record["id"])) for r in results if r.verdict.score != 1}
    expected = {("reach", i) for i in WRONG_REACH_NONE} | {("land", i) for i in WRONG_LAND_NONE}
    assert failures == expected
    assert all(r.verdict.status == SCORED for r in results)


@pytest.mark.parametrize("task", GEN_TASKS)
def test_unparseable_responses_are_parse_errors(task):
    record = dev_records(task)[0]
    result = verdict(task, record, "I am not sure, it depends on the ((( situation")
    assert result.status == PARSE_ERROR and result.score == 0


# ----- planner failures are undecided, never a silent 0 -----------------------------------------
class TimeoutPlanners:
    """Stands in for the planner layer and times out on every call, recording the budgets."""

    def __init__(self):
        self.budgets: list[float] = []

    def _timeout(self, domain, problem, limits=Limits(), *args, **kwargs):
        self.budgets.append(limits.time)
        return PlannerResult(Status.TIMEOUT, message="simulated timeout")

    solve = optimal = _timeout

    def optimal_sas(self, sas, limits=Limits(), check=False):
        return self._timeout(sas, "", limits)

    def top_k(self, domain, problem, k, limits=Limits()):
        return self._timeout(domain, problem, limits)

    def landmarks(self, domain, problem, limits=Limits()):
        return LandmarkResult(Status.TIMEOUT, message="simulated timeout")


def test_planner_timeout_is_undecided_after_one_retry():
    record = next(r for r in dev_records("nexta") if r["answer"]["maybe"])
    planners = TimeoutPlanners()
    # no in-process search: its plan, as long as acp's LM-cut estimate, would settle the state's cost without them
    ctx = RecordContext(record, ScoreOptions(max_states=1, search_states=0, limits=Limits(time=2)), planners)
    result = score_one(ctx, "nexta", record["answer"]["maybe"][0])
    assert result.status == UNDECIDED and "timeout" in result.reason
    assert planners.budgets[:2] == [2, 8]  # retried once with a larger budget


def test_land_atom_needing_a_planner_is_undecided_when_planners_time_out():
    # A stored non-landmark of a record that validates: a true non-landmark, so with neither exploration
    # nor the in-process search no cheap test proves anything about it and --recheck must ask the planners.
    record = next(r for r in dev_records("land") if "ferry" in r["PDDL_domain"] and r["answer"]["no"])
    options = ScoreOptions(recheck=True, max_states=1, search_states=0, limits=Limits(time=1))
    ctx = RecordContext(record, options, TimeoutPlanners())
    assert score_one(ctx, "land", record["answer"]["no"][0]).status == UNDECIDED


def test_land_non_landmark_found_by_the_in_process_search_needs_no_planner():
    # The same atom with the search on: a plan that avoids it, found in-process, proves it no landmark,
    # so planners that only time out change nothing.
    record = next(r for r in dev_records("land") if "ferry" in r["PDDL_domain"] and r["answer"]["no"])
    ctx = RecordContext(record, ScoreOptions(recheck=True, max_states=1, limits=Limits(time=1)), TimeoutPlanners())
    verdict = score_one(ctx, "land", record["answer"]["no"][0])
    assert (verdict.status, verdict.score) == (SCORED, 0.0), verdict
    assert ctx.oracle.planner_calls == 0


def test_acp_score_search_states_chooses_whether_the_in_process_search_is_tried(tmp_path):
    # The same stored non-landmark, re-proven with exploration off: the default search proves it with a plan
    # avoiding the atom; with --search-states 0 the planners' plans do; the verdict is the same.
    record = next(r for r in dev_records("land") if "ferry" in r["PDDL_domain"] and r["answer"]["no"])
    records, predictions = tmp_path / "land.gen.json", tmp_path / "preds.jsonl"
    records.write_text(json.dumps([record]))
    predictions.write_text(json.dumps({"id": record["id"], "task": "land", "response": record["answer"]["no"][0]}))
    reasons = []
    for extra in ([], ["--search-states", "0"]):
        out = tmp_path / f"scored{len(extra)}.jsonl"
        args = ["score", str(predictions), "--dataset", str(records), "--recheck", "--max-states", "1", "-o", str(out)]
        result = CliRunner().invoke(cli, [*args, *extra])
        assert result.exit_code == 0, result.output
        [row] = [json.loads(line) for line in out.read_text().splitlines()]
        assert (row["status"], row["score"]) == ("scored", 0.0), row
        reasons.append(row["reason"])
    assert "search" in reasons[0] and "search" not in reasons[1], reasons


def test_score_rows_carry_the_records_obfuscation():
    """`acp score --output` rows say whether the record was obfuscated (none for a plain one), for
    prediction lines and for lm-eval sample lines alike."""
    plain = {"id": 1, "task": "app", "domain": "ferry"}
    mystery = dict(plain, obfuscation="mystery", renaming={"mode": "mystery"})
    verdict = Verdict.correct()

    def row(record: dict, line: dict) -> dict:
        return Scored(Prediction(line, "app", record, "(sail l0 l1)"), verdict, "ferry").output_line()

    assert row(plain, {"id": 1, "response": "(sail l0 l1)"})["obfuscation"] == "none"
    assert row(mystery, {"id": 1, "response": "(sail l0 l1)"})["obfuscation"] == "mystery"
    sample = row(mystery, {"doc": mystery, "resps": [["(sail l0 l1)"]], "doc_id": 0})
    assert (sample["obfuscation"], sample["id"], "doc" in sample) == ("mystery", 1, False)


def test_summary_columns_are_as_wide_as_their_text_and_count_the_readings_that_differ():
    from acpgen.evaluation.records import Prediction
    from acpgen.evaluation.scoring import Scored, Summary
    from acpgen.tasks import Verdict

    def scored(task: str, domain: str, details: dict) -> Scored:
        return Scored(Prediction({}, task, {}, ""), Verdict(1.0, Verdict.correct().status, "correct", details), domain)

    long = "mystery_blocksworld_zero_shot_3"  # a PlanBench config name: longer than any default width
    table = Summary.of(
        [scored("plan", long, {}), scored("rac_state", "ferry", {"strict_score": 0.0}), scored("optplan", long, {})]
    ).table()
    header, *rows = table.splitlines()
    assert header.split() == ["task", "ferry", long, "all"]
    # right-aligned: every cell of a row ends where its column's name ends in the header
    ends = {header.index(name) + len(name) for name in ("ferry", long, "all")}
    for line in rows[:4]:
        first = len(line.split()[0])
        cell_ends = {m.end() for m in re.finditer(r"\S+ \(\d+\)", line) if m.start() > first}
        assert cell_ends and cell_ends <= ends, (line, ends)
    assert "strict and lenient readings differ on 1 answers (plan 0, rac_state 1, optplan 0" not in table
    assert table.splitlines()[-1].startswith("strict and lenient readings differ on 1 answers (rac_state 1)")


def test_a_null_response_is_no_answer_everywhere(tmp_path):
    # {"response": null} in a predictions file and in an lm-eval samples file read as acpgen.score(record, None).
    record = dev_records("app")[0]
    expected = acpgen.score(record, None)
    assert (expected.status, expected.reason) == ("parse_error", "parse_error: no response")
    dataset = tmp_path / "app.gen.json"
    dataset.write_text(json.dumps([record]))
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text(json.dumps({"id": record["id"], "response": None}) + "\n")
    samples = tmp_path / "samples_app.jsonl"
    samples.write_text(json.dumps({"doc": record, "resps": [[None]]}) + "\n")
    for args in (["score", str(predictions), "--dataset", str(dataset)], ["score", str(samples)]):
        out = tmp_path / "scored.jsonl"
        result = CliRunner().invoke(cli, [*args, "-o", str(out)])
        assert result.exit_code == 0, result.output
        (row,) = [json.loads(line) for line in out.read_text().splitlines()]
        assert (row["status"], row["reason"], row["score"]) == (expected.status, expected.reason, 0.0)
