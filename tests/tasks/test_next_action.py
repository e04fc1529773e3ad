"""nexta (acpgen.tasks.next_action): stored non-optimal actions and inapplicable actions score 0."""

from __future__ import annotations

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
