"""nexta (acpgen.tasks.next_action): stored non-optimal actions and inapplicable actions score 0; the actions that
decrease the optimal cost, and every successor's optimal cost, along a two-car ferry plan, by hand
(tests/tasks/hand_ferry.py)."""

from __future__ import annotations

import re

import hand_ferry
import pytest
from conftest import dev_records
from reference_answers import verdict

from acpgen.tasks import RecordContext


def test_nexta_near_misses():
    record = next(r for r in dev_records("nexta") if r["answer"]["no"])
    assert verdict("nexta", record, record["answer"]["no"][0]).score == 0
    assert verdict("nexta", record, record["answer"]["no"][0], recheck=True).score == 0
    ctx = RecordContext(record)
    inapplicable = next(a.name for a in ctx.task.actions if not a.applicable(ctx.task.init))
    assert verdict("nexta", record, inapplicable).reason == "not applicable"


# ----- by hand on a two-car ferry (tests/tasks/hand_ferry.py) -----------------------------------
# h* after k steps of the unique optimal plan is 6 - k. The optimal cost after each applicable action
# of each state, worked out by hand (a car must still be boarded, carried and debarked; the ferry holds one):
HAND_SUCCESSOR_COST = [
    {"(board c0 l0)": 5, "(sail l0 l1)": 6},  # the empty ferry at l1: fetch c1 first, then c0 (6)
    {"(sail l0 l1)": 4, "(debark c0 l0)": 6},  # debarking undoes the boarding
    {"(debark c0 l1)": 3, "(sail l1 l0)": 5},  # sailing back undoes the sail
    {"(board c1 l1)": 2, "(board c0 l1)": 4, "(sail l1 l0)": 4},  # c0 debarked again / the ferry back for c1
    {"(sail l1 l0)": 1, "(debark c1 l1)": 3},
    {"(debark c1 l0)": 0, "(sail l0 l1)": 2},  # sail back and debark
]


@pytest.mark.parametrize("state", range(len(hand_ferry.STATES)))
def test_nexta_by_hand_along_the_ferry_plan(state):
    import random

    from acpgen.config import QAConfig
    from acpgen.tasks import TASKS
    from acpgen.tasks.base import OK, WRONG, QAItem

    opt = 6 - state
    costs = HAND_SUCCESSOR_COST[state]
    assert sorted(costs) == hand_ferry.APPLICABLE[state]
    expected = {
        "yes": sorted(a for a, c in costs.items() if c < opt),
        "no": sorted(a for a, c in costs.items() if c >= opt),
        "maybe": [],
        "opt": str(opt),
    }
    assert expected["yes"] == [hand_ferry.OPTIMAL_PLAN[state]]
    pddl_problem = hand_ferry.problem(state)
    ctx = RecordContext(hand_ferry.record(None, pddl_problem))
    fields = TASKS["nexta"].generate(ctx, QAItem({}, None), random.Random(0), QAConfig())
    assert {k: sorted(v) if isinstance(v, list) else v for k, v in fields["answer"].items()} == expected
    rec = hand_ferry.record(expected, pddl_problem)
    assert TASKS["nexta"].validate(RecordContext(rec)).verdict == OK
    wrong_opt = hand_ferry.record({**expected, "opt": str(opt + 1)}, pddl_problem)
    assert TASKS["nexta"].validate(RecordContext(wrong_opt)).verdict == WRONG
    for action, cost in costs.items():  # re-proven: the reason names both optimal costs, or, for an action that
        # brings the goal no closer, that the successor's lower bound (acp's LM-cut) is already the state's cost or
        # the length of a plan from the state (at least its cost)
        result = verdict("nexta", rec, action)
        reason = result.reason.split(" (")[0]
        assert result.score == float(cost < opt), action
        planned = re.fullmatch(r"h\* at most (\d+)", reason)
        assert (
            reason == f"h* {opt} -> {cost}"
            or (cost >= opt and reason == f"h* {opt} -> at least {opt}")
            or (cost >= opt and planned is not None and int(planned.group(1)) >= opt)
        ), action
    assert verdict("nexta", rec, "(sail l0 l2)").reason == "not applicable"
