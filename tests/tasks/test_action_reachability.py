"""areach (acpgen.tasks.action_reachability): near misses; a never-applicable action the record does not
store is accepted once proven; the 11 never-applicable actions of a two-car ferry with an island, by hand
(tests/tasks/hand_ferry.py)."""

from __future__ import annotations

import random

import hand_ferry
from conftest import dev_records
from reference_answers import verdict

from acpgen.tasks import RecordContext


def test_areach_near_misses():
    record = next(r for r in dev_records("areach") if r["answer"])
    ctx = RecordContext(record)
    applicable = ctx.task.applicable(ctx.task.init)[0].name
    assert verdict("areach", record, applicable).score == 0
    assert verdict("areach", record, applicable, recheck=True).score == 0
    assert verdict("areach", record, "(fly a b)").reason.startswith("unknown_action")


def test_areach_accepts_a_never_applicable_action_that_is_not_stored():
    # ferry: (sail l l) needs (not-eq l l), which never holds; only one example is stored.
    record = next(r for r in dev_records("areach") if "ferry" in r["PDDL_domain"] and r["answer"])
    others = [f"(sail {loc} {loc})" for loc in ("l0", "l1") if f"(sail {loc} {loc})" not in record["answer"]]
    assert others and verdict("areach", record, others[0]).score == 1


# ----- by hand on a two-car ferry (tests/tasks/hand_ferry.py) -----------------------------------
# The type-correct actions: sail over 3 x 3 location pairs, board and debark over 2 cars x 3 locations (21).
# Never applicable: the 7 sails other than (sail l0 l1) and (sail l1 l0) (no not-eq fact), and board and
# debark at the island l2, where the ferry never is (4): 11 actions.
HAND_NEVER_APPLICABLE = sorted(
    [f"(sail {a} {b})" for a in ("l0", "l1", "l2") for b in ("l0", "l1", "l2") if {a, b} != {"l0", "l1"}]
    + [f"({verb} {car} l2)" for verb in ("board", "debark") for car in ("c0", "c1")]
)
# The other 10 are applied on the way: the optimal plan applies six of them; (debark c0 l0) right after
# (board c0 l0); (board c0 l1) right after (debark c0 l1); (debark c1 l1) right after (board c1 l1);
# (board c1 l0) at the end of the plan.
HAND_REACHABLE = [*hand_ferry.OPTIMAL_PLAN, "(debark c0 l0)", "(board c0 l1)", "(debark c1 l1)", "(board c1 l0)"]


def test_areach_generation_and_scoring_by_hand_on_the_ferry():
    from acpgen.config import QAConfig
    from acpgen.tasks import TASKS
    from acpgen.tasks.base import OK, QAItem

    assert len(HAND_NEVER_APPLICABLE) == 11 and len(set(HAND_REACHABLE)) == 10
    ctx = RecordContext(hand_ferry.record(None))
    for seed in range(5):
        fields = TASKS["areach"].generate(ctx, QAItem({}, None), random.Random(seed), QAConfig(areach_stored=3))
        stored = fields["answer"]
        assert len(stored) == 3 and set(stored) <= set(HAND_NEVER_APPLICABLE), stored
    everything = TASKS["areach"].generate(ctx, QAItem({}, None), random.Random(0), QAConfig(areach_stored=20))
    assert everything == {"answer": HAND_NEVER_APPLICABLE}
    rec = hand_ferry.record(HAND_NEVER_APPLICABLE[:3])
    assert TASKS["areach"].validate(RecordContext(rec)).verdict == OK
    for action in HAND_NEVER_APPLICABLE:  # re-proven, stored or not
        assert verdict("areach", rec, action).score == 1, action
    for action in HAND_REACHABLE:
        assert verdict("areach", rec, action).score == 0, action
    assert verdict("areach", rec, "None").score == 0
