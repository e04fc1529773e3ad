"""reach (acpgen.tasks.reachability): reference answers "None" that are provably wrong (Fast Downward shows
the witness unreachable); atoms of the state and invalid atoms are rejected (reach and land); the unreachable
propositions of a two-car ferry with an island, and "None" without it, by hand (tests/tasks/hand_ferry.py)."""

from __future__ import annotations

import random

import hand_ferry
import pytest
from conftest import dev_records
from reference_answers import WRONG_REACH_NONE, by_id, verdict

from acpgen.pddl.encode import lifted_query
from acpgen.planners import Limits, Planners, Status
from acpgen.tasks import RecordContext


@pytest.mark.parametrize("rid", sorted(WRONG_REACH_NONE))
def test_reach_none_is_wrong_where_an_atom_is_unreachable(rid):
    record = by_id("reach")[rid]
    assert record["answer"] == []
    ctx = RecordContext(record)
    # Proof by Fast Downward: reaching the witness from the record's state is unsolvable.
    witness = WRONG_REACH_NONE[rid]
    query = lifted_query(ctx.task, ctx.task.init, 1 << ctx.task.atom_id(witness))
    assert Planners().solve(query.domain, query.problem, Limits(time=60)).status == Status.UNSOLVABLE
    assert verdict("reach", record, "None", trust_stored=True).score == 1  # trusting it, as the paper does
    assert verdict("reach", record, "None", recheck=True).score == 0
    assert verdict("reach", record, "None").score == 0  # exact by default: not acp's record, so re-proven
    assert verdict("reach", record, WRONG_REACH_NONE[rid], recheck=True).score == 1


def test_reach_and_land_reject_atoms_of_the_state_and_invalid_atoms():
    record = next(r for r in dev_records("reach") if r["answer"])
    ctx = RecordContext(record)
    held = next(a for a in ctx.task.state_atoms(ctx.task.init) if not ctx.task.is_static_atom(a))
    assert verdict("reach", record, held).score == 0  # it holds now, so it is reachable
    assert verdict("reach", record, held, recheck=True).score == 0
    assert verdict("reach", record, "(flying pig)").reason.startswith("unknown_atom")
    land = dev_records("land")[0]
    land_ctx = RecordContext(land)
    trivial = land_ctx.task.state_atoms(land_ctx.task.init)[0]
    assert verdict("land", land, trivial).score == 0
    assert verdict("land", land, land["answer"]["no"][0]).score == 0


# ----- by hand on a two-car ferry (tests/tasks/hand_ferry.py) -----------------------------------
# The propositions: (at c l) for 2 cars x 3 locations, (at-ferry l) for 3 locations, (empty-ferry), (on c0),
# (on c1). The ferry never reaches the island l2 (sail needs a not-eq fact, and none names l2), so no car
# is debarked there and both start elsewhere: (at-ferry l2), (at c0 l2) and (at c1 l2) never hold. Every
# other proposition holds in the state or after some step of the optimal plan (on c0, at-ferry l1,
# at c0 l1, on c1, at c1 l0), so it is reachable.
HAND_UNREACHABLE = ["(at c0 l2)", "(at c1 l2)", "(at-ferry l2)"]
HAND_REACHABLE = ["(at c0 l1)", "(at c1 l0)", "(at-ferry l1)", "(on c0)", "(on c1)", "(empty-ferry)"]


def _generate(pddl_problem: str) -> dict:
    from acpgen.config import QAConfig
    from acpgen.tasks import TASKS
    from acpgen.tasks.base import QAItem

    ctx = RecordContext(hand_ferry.record(None, pddl_problem))
    return TASKS["reach"].generate(ctx, QAItem({}, None), random.Random(0), QAConfig(reach_stored=5))


def test_reach_generation_and_scoring_by_hand_on_the_ferry_with_an_island():
    from acpgen.tasks import TASKS
    from acpgen.tasks.base import OK

    # all three unreachable atoms fit in the 5 stored; the reference writes them without parentheses
    assert _generate(hand_ferry.PROBLEM) == {"answer": [a[1:-1] for a in HAND_UNREACHABLE]}
    rec = hand_ferry.record([a[1:-1] for a in HAND_UNREACHABLE])
    assert TASKS["reach"].validate(RecordContext(rec)).verdict == OK
    for atom in HAND_UNREACHABLE:
        assert verdict("reach", rec, atom).score == 1, atom
    for atom in HAND_REACHABLE:
        assert verdict("reach", rec, atom).score == 0, atom
    assert verdict("reach", rec, "None").score == 0  # (at-ferry l2) is a witness
    # a static atom is not a proposition asked about, even one that never holds
    assert verdict("reach", rec, "(not-eq l0 l2)").reason.startswith("static_atom")


def test_reach_none_by_hand_on_the_ferry_without_the_island():
    from acpgen.tasks import TASKS
    from acpgen.tasks.base import OK

    mainland = hand_ferry.problem(island=False)
    assert _generate(mainland) == {"answer": []}  # every proposition is reachable
    rec = hand_ferry.record([], mainland)
    assert TASKS["reach"].validate(RecordContext(rec)).verdict == OK
    assert verdict("reach", rec, "None").score == 1
    for atom in HAND_REACHABLE:
        assert verdict("reach", rec, atom).score == 0, atom
