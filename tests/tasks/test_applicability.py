"""app (acpgen.tasks.applicability): near misses score 0; generation reproduces the reference answers;
the applicable actions of every state along a two-car ferry plan, listed by hand (tests/tasks/hand_ferry.py)."""

from __future__ import annotations

import random

import hand_ferry
import pytest
from conftest import dev_records
from reference_answers import verdict

from acpgen.tasks import TASKS, RecordContext


# ----- near misses ---------------------------------------------------------------------------
def test_app_near_misses():
    record = dev_records("app")[0]
    gold = [a.lower() for a in record["answer"]]
    assert verdict("app", record, " ".join(gold)).score == 1
    assert verdict("app", record, " ".join(gold[1:])).score == 0
    ctx = RecordContext(record)
    inapplicable = next(a.name for a in ctx.task.actions if not a.applicable(ctx.task.init))
    assert verdict("app", record, " ".join(gold + [inapplicable])).score == 0
    unknown = verdict("app", record, " ".join(gold + ["(teleport c0 l9)"]))
    assert unknown.score == 0 and unknown.reason.startswith("unknown_action")


# ----- the task modules on the reference states ------------------------------------------------
@pytest.mark.parametrize("record", dev_records("app"), ids=lambda r: str(r["id"]))
def test_app_generation_reproduces_the_reference_answer(record):
    from acpgen.config import QAConfig
    from acpgen.tasks.base import QAItem

    fields = TASKS["app"].generate(RecordContext(record), QAItem({}, None), None, QAConfig())
    assert fields["answer"] == sorted(a.lower() for a in record["answer"])


# ----- by hand on a two-car ferry (tests/tasks/hand_ferry.py) -----------------------------------
@pytest.mark.parametrize("state", range(len(hand_ferry.STATES)))
def test_app_answers_by_hand_along_the_ferry_plan(state):
    from acpgen.config import QAConfig
    from acpgen.tasks.base import OK, WRONG, QAItem

    expected = hand_ferry.APPLICABLE[state]
    rec = hand_ferry.record(expected, hand_ferry.problem(state))
    fields = TASKS["app"].generate(RecordContext(rec), QAItem({}, None), random.Random(0), QAConfig())
    assert fields == {"answer": expected}
    assert TASKS["app"].validate(RecordContext(rec)).verdict == OK
    assert TASKS["app"].validate(RecordContext(hand_ferry.record(expected[1:], rec["PDDL_problem"]))).verdict == WRONG
    assert verdict("app", rec, " ".join(reversed(expected))).score == 1  # a set: order is free
    assert verdict("app", rec, " ".join(expected[1:])).score == 0  # one missing
    # never applicable here: nothing sails to or boards at the island l2
    assert verdict("app", rec, " ".join([*expected, "(sail l0 l2)"])).score == 0
    assert verdict("app", rec, " ".join([*expected, "(board c0 l2)"])).score == 0


def test_app_scores_the_first_ferry_state_by_hand():
    rec = hand_ferry.record(["(board c0 l0)", "(sail l0 l1)"])
    # c1 is at l1 but the ferry is at l0; nothing is aboard to debark
    assert verdict("app", rec, "(board c0 l0) (sail l0 l1) (board c1 l1)").score == 0
    assert verdict("app", rec, "(board c0 l0) (sail l0 l1) (debark c0 l0)").score == 0
    assert verdict("app", rec, "(sail l0 l1)").score == 0
    assert verdict("app", rec, "(sail l0 l1), (board c0 l0)").score == 1
