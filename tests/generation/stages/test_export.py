"""The export stage: records follow the wire schema and round-trip."""

from __future__ import annotations

import json

from conftest import GEN_TASKS


def test_records_follow_the_wire_schema_and_round_trip(reference_run):
    """Exported records have the keys of GenRecord in its order, qa records only keys of QARecord,
    and both read back from JSON and write out again to the same bytes."""
    from acpgen.schema import GenRecord as Exported
    from acpgen.schema import QARecord, ReferenceGenRecord, keys

    root = reference_run / "ferry"
    exported = sorted(root.glob("*.gen.jsonl"))
    assert len(exported) == len(GEN_TASKS)  # the tasks small.yaml configures
    for path in exported:
        for line in path.read_text().splitlines():
            record = json.loads(line)
            order = [k for k in keys(Exported) if k in record]
            assert list(record) == order and set(keys(ReferenceGenRecord)) <= set(record), path.name
            assert json.dumps(record, ensure_ascii=False) == line
    for path in sorted((root / "qa").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            assert set(record) <= set(keys(QARecord)), (path.name, set(record) - set(keys(QARecord)))
            assert json.dumps(record, sort_keys=True, ensure_ascii=False) == line
