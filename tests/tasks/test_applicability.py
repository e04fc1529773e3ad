"""app (acpgen.tasks.applicability): near misses score 0; generation reproduces the reference answers."""

from __future__ import annotations

import pytest
from conftest import dev_records
from reference_answers import verdict

from acpgen.tasks import TASKS, RecordContext


# ----- near misses ---------------------------------------------------------------------------
def test_app_near_misses():
    record = dev_records("app")[0]
    gold = [a.lower() for a in record["answer"]]
    assert verdict("app", record, " ".join(gold)).score == 1
    assert verdict("app", record, " ".join(gold[1:])).score == 0
    ctx = RecordContext(record)
    inapplicable = next(a.name for a in ctx.task.actions if not a.applicable(ctx.task.init))
    assert verdict("app", record, " ".join(gold + [inapplicable])).score == 0
    unknown = verdict("app", record, " ".join(gold + ["(teleport c0 l9)"]))
    assert unknown.score == 0 and unknown.reason.startswith("unknown_action")


# ----- the task modules on the reference states ------------------------------------------------
@pytest.mark.parametrize("record", dev_records("app"), ids=lambda r: str(r["id"]))
def test_app_generation_reproduces_the_reference_answer(record):
    from acpgen.config import QAConfig
    from acpgen.tasks.base import QAItem

    fields = TASKS["app"].generate(RecordContext(record), QAItem({}, None), None, QAConfig())
    assert fields["answer"] == sorted(a.lower() for a in record["answer"])
