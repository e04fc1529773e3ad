"""prog (acpgen.tasks.progression): near misses score 0; the effects of some applicable action are the
reference answer on every dev record; the effects of both applicable actions of a two-car ferry state, read
off the domain by hand (tests/tasks/hand_ferry.py)."""

from __future__ import annotations

import random

import hand_ferry
import pytest
from conftest import dev_records
from reference_answers import verdict

from acpgen.tasks import RecordContext


def test_prog_near_misses():
    record = next(r for r in dev_records("prog") if r["answer"]["neg"])
    pos, neg = record["answer"]["pos"], record["answer"]["neg"]
    assert verdict("prog", record, f"[{', '.join(pos)}] [{', '.join(neg)}]").score == 1
    swapped = verdict("prog", record, f"[{', '.join(neg)}] [{', '.join(pos)}]")
    assert swapped.score == 0 and "swapped" in swapped.reason
    assert verdict("prog", record, f"[{', '.join(pos)}] [{', '.join(neg[1:])}]").score == 0
    assert verdict("prog", record, f"[{', '.join(pos)}, (no-such-pred x)] [{', '.join(neg)}]").reason.startswith(
        "unknown_atom"
    )


@pytest.mark.parametrize("record", dev_records("prog"), ids=lambda r: str(r["id"]))
def test_prog_effects_of_some_applicable_action_are_the_reference_answer(record):
    from acpgen.tasks.progression import effects

    ctx = RecordContext(record)
    stored = ({a.lower() for a in record["answer"]["pos"]}, {a.lower() for a in record["answer"]["neg"]})
    assert any(effects(ctx, a.name) == stored for a in ctx.task.applicable(ctx.task.init))


# ----- by hand on a two-car ferry (tests/tasks/hand_ferry.py) -----------------------------------
# In the first state (ferry empty at l0, c0 at l0, c1 at l1), read off the domain's effects:
# (board c0 l0) adds (on c0) and deletes (at c0 l0) and (empty-ferry);
# (sail l0 l1) adds (at-ferry l1) and deletes (at-ferry l0).
HAND_EFFECTS = {
    "(board c0 l0)": {"pos": ["(on c0)"], "neg": ["(at c0 l0)", "(empty-ferry)"]},
    "(sail l0 l1)": {"pos": ["(at-ferry l1)"], "neg": ["(at-ferry l0)"]},
}


def test_prog_generation_gives_the_effects_by_hand_for_either_applicable_action():
    from acpgen.config import QAConfig
    from acpgen.tasks import TASKS
    from acpgen.tasks.base import QAItem

    ctx = RecordContext(hand_ferry.record(None))
    seen = set()
    for seed in range(20):
        fields = TASKS["prog"].generate(ctx, QAItem({}, None), random.Random(seed), QAConfig())
        assert fields == {"action": fields["action"], "answer": HAND_EFFECTS[fields["action"]]}
        seen.add(fields["action"])
    assert seen == set(HAND_EFFECTS)  # both applicable actions change the state, so both are asked about


@pytest.mark.parametrize("action", sorted(HAND_EFFECTS))
def test_prog_scores_the_ferry_effects_by_hand(action):
    from acpgen.tasks import TASKS
    from acpgen.tasks.base import OK, WRONG

    pos, neg = HAND_EFFECTS[action]["pos"], HAND_EFFECTS[action]["neg"]
    rec = hand_ferry.record(HAND_EFFECTS[action], action=action)
    assert TASKS["prog"].validate(RecordContext(rec)).verdict == OK
    wrong = hand_ferry.record({"pos": pos, "neg": neg[1:]}, action=action)
    assert TASKS["prog"].validate(RecordContext(wrong)).verdict == WRONG
    assert verdict("prog", rec, f"[{', '.join(pos)}] [{', '.join(neg)}]").score == 1
    labelled = f"Positive effects: {' '.join(pos)}\nNegative effects: {' '.join(neg)}"
    assert verdict("prog", rec, labelled).score == 1
    assert "swapped" in verdict("prog", rec, f"[{', '.join(neg)}] [{', '.join(pos)}]").reason
    assert verdict("prog", rec, f"[{', '.join(pos)}] [{', '.join(neg[:-1])}]").score == 0
    (other,) = set(HAND_EFFECTS) - {action}
    theirs = HAND_EFFECTS[other]
    assert verdict("prog", rec, f"[{', '.join(theirs['pos'])}] [{', '.join(theirs['neg'])}]").score == 0
