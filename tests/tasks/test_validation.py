"""val (acpgen.tasks.validation): near misses; the first inapplicable index agrees with the reference."""

from __future__ import annotations

import pytest
from conftest import dev_records
from reference_answers import verdict

from acpgen.tasks import RecordContext


def test_val_near_misses():
    record = dev_records("val")[0]
    assert verdict("val", record, str(record["answer"])).score == 1
    assert verdict("val", record, str(record["answer"] + 1)).score == 0
    assert verdict("val", record, str(record["answer"]), recheck=True).score == 1


@pytest.mark.parametrize("record", dev_records("val"), ids=lambda r: str(r["id"]))
def test_val_index_agrees_with_the_reference(record):
    from acpgen.tasks.validation import first_inapplicable

    assert first_inapplicable(RecordContext(record)) == record["answer"]
