"""land (acpgen.tasks.landmarks): reference answers "None" that are provably wrong, with a proof written
in the test (every achiever of a goal atom adds the witness); the landmarks and non-landmarks of a two-car
ferry state, by hand (tests/tasks/hand_ferry.py)."""

from __future__ import annotations

import random

import hand_ferry
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


# ----- by hand on a two-car ferry (tests/tasks/hand_ferry.py) -----------------------------------
# Of the 12 propositions, 6 are trivial: (at c0 l0), (at c1 l1), (at-ferry l0), (empty-ferry) hold now and
# (at c0 l1), (at c1 l0) are the goal. Of the other 6:
# - (on c0) and (on c1) are landmarks: only debark puts a car somewhere, and it needs the car aboard;
# - (at-ferry l1) is a landmark: c0 can only be debarked at l1 with the ferry there;
# - (at c0 l2), (at c1 l2), (at-ferry l2) never hold (the ferry never reaches the island), so no plan
#   passes through them: not landmarks.
HAND_LANDMARKS = {"yes": ["(at-ferry l1)", "(on c0)", "(on c1)"], "no": ["(at c0 l2)", "(at c1 l2)", "(at-ferry l2)"]}
TRIVIAL = ["(at c0 l0)", "(at c1 l1)", "(at-ferry l0)", "(empty-ferry)", "(at c0 l1)", "(at c1 l0)"]


def test_land_generation_and_scoring_by_hand_on_the_ferry():
    from acpgen.config import QAConfig
    from acpgen.tasks import TASKS
    from acpgen.tasks.base import OK, WRONG, QAItem

    ctx = RecordContext(hand_ferry.record(None))
    fields = TASKS["land"].generate(ctx, QAItem({}, None), random.Random(0), QAConfig())
    assert {k: sorted(v) for k, v in fields["answer"].items()} == HAND_LANDMARKS
    rec = hand_ferry.record(HAND_LANDMARKS)
    assert TASKS["land"].validate(RecordContext(rec)).verdict == OK
    swapped = hand_ferry.record({"yes": HAND_LANDMARKS["yes"][1:], "no": [*HAND_LANDMARKS["no"], "(at-ferry l1)"]})
    assert TASKS["land"].validate(RecordContext(swapped)).verdict == WRONG
    for atom in HAND_LANDMARKS["yes"]:
        assert verdict("land", rec, atom).score == 1, atom
    for atom in HAND_LANDMARKS["no"]:
        assert verdict("land", rec, atom).score == 0, atom
    for atom in TRIVIAL:
        assert verdict("land", rec, atom).reason.startswith("trivial"), atom
    assert verdict("land", rec, "None").score == 0
