"""reach (acpgen.tasks.reachability): reference answers "None" that are provably wrong (Fast Downward shows
the witness unreachable); atoms of the state and invalid atoms are rejected (reach and land)."""

from __future__ import annotations

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
