"""prog (acpgen.tasks.progression): near misses score 0; the effects of some applicable action are the
reference answer on every dev record."""

from __future__ import annotations

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
