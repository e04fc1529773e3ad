"""val (acpgen.tasks.validation): near misses; the first inapplicable index agrees with the reference; first
inapplicable indices of sequences in a two-car ferry, by hand (tests/tasks/hand_ferry.py)."""

from __future__ import annotations

import random

import hand_ferry
import pytest
from conftest import dev_records
from reference_answers import verdict

from acpgen.tasks import RecordContext


def test_val_near_misses():
    record = dev_records("val")[0]
    assert verdict("val", record, str(record["answer"])).score == 1
    assert verdict("val", record, str(record["answer"] + 1)).score == 0
    assert verdict("val", record, str(record["answer"]), recheck=True).score == 1


@pytest.mark.parametrize("record", dev_records("val"), ids=lambda r: str(r["id"]))
def test_val_index_agrees_with_the_reference(record):
    from acpgen.tasks.validation import first_inapplicable

    assert first_inapplicable(RecordContext(record)) == record["answer"]


# ----- by hand on a two-car ferry (tests/tasks/hand_ferry.py) -----------------------------------
# (board c0 l0) and (sail l0 l1) apply in the first state; then c0 is aboard, the ferry is not empty and
# (board c1 l1) cannot be applied: index 2. The optimal plan applies throughout: no index (None, "-1").
# (debark c0 l0) fails at once: nothing is aboard.
HAND_SEQUENCES = [
    (["(board c0 l0)", "(sail l0 l1)", "(board c1 l1)", "(sail l1 l0)"], 2),
    (hand_ferry.OPTIMAL_PLAN, -1),
    (["(debark c0 l0)", *hand_ferry.OPTIMAL_PLAN], 0),
    (["(sail l0 l1)", "(sail l0 l1)"], 1),  # the second sail starts where the ferry no longer is
]


@pytest.mark.parametrize("plan,index", HAND_SEQUENCES)
def test_val_scores_the_first_inapplicable_index_by_hand(plan, index):
    from acpgen.tasks import TASKS
    from acpgen.tasks.base import OK, WRONG

    rec = hand_ferry.record(index, plan=plan)
    assert TASKS["val"].validate(RecordContext(rec)).verdict == OK
    assert TASKS["val"].validate(RecordContext(hand_ferry.record(index + 1, plan=plan))).verdict == WRONG
    assert verdict("val", rec, "None" if index < 0 else str(index)).score == 1
    assert verdict("val", rec, str(index + 1)).score == 0
    if index > 0:
        assert verdict("val", rec, str(index - 1)).score == 0
    else:
        assert verdict("val", rec, "None" if index == 0 else "0").score == 0


def test_val_generation_breaks_the_ferry_plan_at_the_stored_index():
    from acpgen.config import QAConfig
    from acpgen.tasks import TASKS
    from acpgen.tasks.base import QAItem

    ctx = RecordContext(hand_ferry.record(None))
    for seed in range(10):
        fields = TASKS["val"].generate(ctx, QAItem({}, hand_ferry.OPTIMAL_PLAN), random.Random(seed), QAConfig())
        plan, index = fields["plan"], fields["answer"]
        # one step of the optimal plan replaced by an action that does not apply in the state the
        # plan's prefix reaches (the applicable actions along the plan are listed by hand)
        assert plan[:index] == hand_ferry.OPTIMAL_PLAN[:index]
        assert plan[index + 1 :] == hand_ferry.OPTIMAL_PLAN[index + 1 :]
        assert plan[index] not in hand_ferry.APPLICABLE[index]
