"""areach (acpgen.tasks.action_reachability): near misses; a never-applicable action the record does not
store is accepted once proven."""

from __future__ import annotations

from conftest import dev_records
from reference_answers import verdict

from acpgen.tasks import RecordContext


def test_areach_near_misses():
    record = next(r for r in dev_records("areach") if r["answer"])
    ctx = RecordContext(record)
    applicable = ctx.task.applicable(ctx.task.init)[0].name
    assert verdict("areach", record, applicable).score == 0
    assert verdict("areach", record, applicable, recheck=True).score == 0
    assert verdict("areach", record, "(fly a b)").reason.startswith("unknown_action")


def test_areach_accepts_a_never_applicable_action_that_is_not_stored():
    # ferry: (sail l l) needs (not-eq l l), which never holds; only one example is stored.
    record = next(r for r in dev_records("areach") if "ferry" in r["PDDL_domain"] and r["answer"])
    others = [f"(sail {loc} {loc})" for loc in ("l0", "l1") if f"(sail {loc} {loc})" not in record["answer"]]
    assert others and verdict("areach", record, others[0]).score == 1
