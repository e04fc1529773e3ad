"""land (acpgen.tasks.landmarks): reference answers "None" that are provably wrong, with a proof written
in the test (every achiever of a goal atom adds the witness)."""

from __future__ import annotations

import pytest
from reference_answers import WRONG_LAND_NONE, by_id, verdict

from acpgen.tasks import RecordContext


def _achievers(ctx: RecordContext, atom: str) -> list:
    """Every type-correct ground action that adds the atom (grounded independently of the oracle)."""
    bit = 1 << ctx.task.atom_id(atom)
    return [a for a in map(ctx.task.action, ctx.task.all_action_names()) if a.precondition and a.add & bit]


@pytest.mark.parametrize("rid", sorted(WRONG_LAND_NONE))
def test_land_none_is_wrong_where_a_landmark_exists(rid):
    record = by_id("land")[rid]
    assert record["answer"]["yes"] == []
    ctx = RecordContext(record)
    witness = WRONG_LAND_NONE[rid]
    cell = witness.split()[1].rstrip(")")
    goal_atom = f"(visited {cell})"
    # Proof: (visited cell) is a goal atom that is false now, and every action adding it also
    # adds the witness, so every plan passes through a state where the witness holds.
    assert ctx.task.goal_pos & (1 << ctx.task.atom_id(goal_atom))
    assert not ctx.task.init & (1 << ctx.task.atom_id(goal_atom))
    assert not ctx.task.init & (1 << ctx.task.atom_id(witness))
    achievers = _achievers(ctx, goal_atom)
    assert achievers and all(a.add & (1 << ctx.task.atom_id(witness)) for a in achievers)
    assert verdict("land", record, "None", trust_stored=True).score == 1
    assert verdict("land", record, "None", recheck=True).score == 0
    assert verdict("land", record, "None").score == 0  # exact by default for records acp did not prove
    # The reference lists the witness as a non-landmark: trusted under --trust-stored, overturned otherwise.
    assert witness in record["answer"]["no"]
    assert verdict("land", record, witness, trust_stored=True).score == 0
    assert verdict("land", record, witness).score == 1
