"""just (acpgen.tasks.justification): near misses and the strict mode (one action or two consecutive); the
only valid removal of a padded two-car ferry plan, by hand (tests/tasks/hand_ferry.py)."""

from __future__ import annotations

import random

import hand_ferry
from conftest import dev_records
from reference_answers import verdict

from acpgen.pddl.semantics import is_plan
from acpgen.tasks import RecordContext
from acpgen.tasks.base import plan_from_question


def test_just_near_misses_and_strict_mode():
    record = next(r for r in dev_records("just") if str(r["id"]) == "-1219355986766168268")
    plan = plan_from_question(record["question"])
    ctx = RecordContext(record)
    assert verdict("just", record, " ".join(plan)).score == 0  # not shorter
    # Find two non-adjacent consecutive pairs whose joint removal still leaves a plan.
    pairs = [i for i in range(len(plan) - 1) if is_plan(ctx.task, ctx.task.init, plan[:i] + plan[i + 2 :])]
    joint = next(
        (
            plan[:i] + plan[i + 2 : j] + plan[j + 2 :]
            for i in pairs
            for j in pairs
            if j > i + 1 and is_plan(ctx.task, ctx.task.init, plan[:i] + plan[i + 2 : j] + plan[j + 2 :])
        ),
        None,
    )
    assert joint is not None
    assert verdict("just", record, " ".join(joint)).score == 1  # the paper's relaxed check
    assert verdict("just", record, " ".join(joint), strict_just=True).score == 0
    single = plan[: pairs[0]] + plan[pairs[0] + 2 :]
    assert verdict("just", record, " ".join(single), strict_just=True).score == 1
    assert verdict("just", record, " ".join(single).upper()).score == 1  # case-insensitive
    broken = plan[1:]
    if not is_plan(ctx.task, ctx.task.init, broken):
        assert verdict("just", record, " ".join(broken)).score == 0


# ----- by hand on a two-car ferry (tests/tasks/hand_ferry.py) -----------------------------------
# The optimal plan with a pointless round trip of the empty ferry in front. Removing that round trip (the
# first two actions) leaves the optimal plan. Nothing else can go: without only one of the two sails the
# ferry is on the wrong side for the next step; without any step of the optimal plan a later step fails
# or the goal is missed (the optimal plan is unique and has 6 actions, so no 6-action subsequence other
# than it is a plan, and a 7-action one would need one of those single removals).
PADDED = ["(sail l0 l1)", "(sail l1 l0)", *hand_ferry.OPTIMAL_PLAN]
HAND_REMOVALS = [["(sail l0 l1)", "(sail l1 l0)", "-1"]]  # reference form: a consecutive pair ends in "-1"


def test_just_generation_and_scoring_by_hand_on_the_ferry():
    from acpgen.config import QAConfig
    from acpgen.tasks import TASKS
    from acpgen.tasks.base import OK, WRONG, QAItem

    ctx = RecordContext(hand_ferry.record(None))
    fields = TASKS["just"].generate(ctx, QAItem({}, PADDED), random.Random(0), QAConfig())
    assert fields == {"plan": PADDED, "answer": HAND_REMOVALS}
    rec = hand_ferry.record(HAND_REMOVALS, plan=PADDED)
    assert TASKS["just"].validate(RecordContext(rec)).verdict == OK
    extra = hand_ferry.record([*HAND_REMOVALS, ["(sail l0 l1)", "1"]], plan=PADDED)
    assert TASKS["just"].validate(RecordContext(extra)).verdict == WRONG
    optimal = " ".join(hand_ferry.OPTIMAL_PLAN)
    assert verdict("just", rec, optimal).score == 1
    assert verdict("just", rec, optimal, strict_just=True).score == 1
    for i in range(len(PADDED)):  # every single removal
        assert verdict("just", rec, " ".join(PADDED[:i] + PADDED[i + 1 :])).score == 0, i
    for i in range(1, len(PADDED) - 1):  # every other consecutive pair
        assert verdict("just", rec, " ".join(PADDED[:i] + PADDED[i + 2 :])).score == 0, i
    assert verdict("just", rec, " ".join(PADDED)).score == 0  # not shorter
