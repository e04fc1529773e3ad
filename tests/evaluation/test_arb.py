"""ActionReasoningBench's schema out and back: hand-made reasoning-about-actions records (answers derived by
hand on a 3-block problem) written as its rows, their columns checked by hand, the answer column scored
back (1), perturbed answers (0), and rows acp cannot judge refused."""

from __future__ import annotations

import json

import pytest

from acpgen.errors import DataError
from acpgen.evaluation import arb, peers
from acpgen.evaluation.records import Dataset, iter_predictions
from acpgen.evaluation.scoring import score_predictions
from acpgen.proofs.change.questions import record_types
from acpgen.tasks import TASKS, RecordContext, ScoreOptions
from acpgen.tasks.base import OK
from tests.tasks.test_rac import TYPES, UNSTACK_PUTDOWN, record

FLUENT_TYPES = record_types(TYPES)
# After (unstack a b), (put-down a) from "a on b, b and c on the table, a and c clear, hand empty": all three
# blocks on the table and clear, the hand empty.
RECORDS = [
    # the properties of b afterwards: b is clear and on the table (holding b, on x b, on b x all false)
    record("rac_fluent", "true", UNSTACK_PUTDOWN, ["(clear b)", "(ontable b)"], object="b", fluent_type="all"),
    # true fluents of the final state: 3 clear, 3 on the table, the hand empty
    record("rac_num", "true", UNSTACK_PUTDOWN, 7, fluent_type="all"),
    # executable afterwards: pick up any of the three blocks
    record("rac_exec", "executable", UNSTACK_PUTDOWN, ["(pick-up a)", "(pick-up b)", "(pick-up c)"]),
    # what (pick-up c) deletes, among the derived fluents: c clear and the hand empty
    record(
        "rac_effects",
        "deleted",
        UNSTACK_PUTDOWN,
        ["(clear c)", "(handempty)"],
        action="(pick-up c)",
        fluent_type="derived",
    ),
    # a yes/no question: after the sequence, the hand does not hold b
    {
        **record("rac_fluent", "holds", UNSTACK_PUTDOWN, "yes", object="b", fluent_type="self_derived"),
        "format": "bool",
        "claim": {"about": "holds", "value": "(not (holding b))"},
        "question": "Is it true that the hand is not holding block b?",
    },
]
for number, rec in enumerate(RECORDS):
    rec.update(id=10 + number, fluent_types=FLUENT_TYPES, problem="tiny", context="A domain. Currently, a is on b.")


@pytest.mark.parametrize("rec", RECORDS[:4], ids=lambda r: r["task"])
def test_the_hand_derived_answers_are_proven_by_the_second_route(rec):
    assert TASKS[rec["task"]].validate(RecordContext(rec)).verdict == OK


def test_columns_by_hand():
    rows = [arb.row_of(r) for r in RECORDS]
    expected = [
        ("fluent_tracking", "all_fluents", "pos", "free_answer", []),
        ("numerical_reasoning", "all_fluents", "pos", "free_answer", ["state_tracking"]),
        ("action_executability", "all_fluents", "pos_neg", "free_answer", []),
        ("effects", "derived_fluents", "neg", "free_answer", []),
        ("fluent_tracking", "persistent_fluents", "neg", "true_false_answer", []),
    ]
    for row, (category, fluent_type, sign, answer_type, subcategories) in zip(rows, expected):
        assert row["question_category"] == category and row["fluent_type"] == fluent_type
        assert row["fluent_sign_question"] == sign and row["answer_type"] == answer_type
        assert row["question_subcategories"] == subcategories
        assert row["plan_length"] == 2 and row["action_sequence"] == UNSTACK_PUTDOWN
        assert row["instance_id"] == "tiny" and row["initial_state_nl"] == "Currently, a is on b."
    assert rows[1]["answer"] == "7" and rows[4]["answer"] == "True"
    assert rows[0]["answer"].count(" and ") == 1 and "," not in rows[0]["answer"]  # two fluents: "x and y"
    assert rows[2]["answer"].count(", ") == 1 and rows[2]["answer"].count(" and ") >= 1  # three actions
    assert arb.join_words([]) == "None"


@pytest.fixture
def exported(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "test.gen.jsonl").write_text("".join(json.dumps(r) + "\n" for r in RECORDS if "format" not in r))
    (data / "test.bool.jsonl").write_text("".join(json.dumps(r) + "\n" for r in RECORDS if "format" in r))
    written = arb.write_rows(data, tmp_path / "rows")
    assert [p.name for p in written] == ["test.jsonl"]
    return written[0]


def _score(rows_path, tmp_path, responses: dict[str, str]):
    preds = tmp_path / "preds.jsonl"
    preds.write_text("".join(json.dumps({"id": rid, "response": text}) + "\n" for rid, text in responses.items()))
    dataset = Dataset.load(rows_path, foreign=peers.reader({}))
    return {
        s.prediction.line["id"]: s.verdict.score
        for s in score_predictions(list(iter_predictions(preds, dataset)), ScoreOptions(), progress=False)
    }


def test_the_answer_column_scores_one_and_perturbed_answers_zero(exported, tmp_path):
    rows = [json.loads(line) for line in exported.read_text().splitlines()]
    assert len(rows) == len(RECORDS)
    assert set(_score(exported, tmp_path, {r["question_id"]: r["answer"] for r in rows}).values()) == {1.0}
    by_id = {r["question_id"]: r["answer"] for r in rows}
    perturbed = {
        "10": by_id["10"].split(" and ")[0],  # one of the two properties of b
        "11": "8",  # one true fluent too many
        "12": by_id["12"].rsplit(" and ", 1)[0],  # two of the three actions
        "13": f"{by_id['13']} and c is on the table",  # deleted, but a base fluent
        "14": "False",
    }
    assert set(_score(exported, tmp_path, perturbed).values()) == {0.0}


def test_rows_acp_cannot_judge_are_refused(exported):
    row = json.loads(exported.read_text().splitlines()[0])
    with pytest.raises(DataError, match="column 'answer'"):
        arb.record_of({**row, "answer": "block b is clear"}, "row 1")
    with pytest.raises(DataError, match="hold no PDDL"):
        arb.record_of({k: v for k, v in row.items() if k != "acp"}, "row 1")
    with pytest.raises(DataError, match="not an open-ended or yes/no"):
        arb.row_of({**RECORDS[0], "format": "mcq"})
