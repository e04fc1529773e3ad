"""just (acpgen.tasks.justification): near misses and the strict mode (one action or two consecutive)."""

from __future__ import annotations

from conftest import dev_records
from reference_answers import verdict

from acpgen.pddl.semantics import is_plan
from acpgen.tasks import RecordContext
from acpgen.tasks.base import plan_from_question


def test_just_near_misses_and_strict_mode():
    record = next(r for r in dev_records("just") if str(r["id"]) == "-1219355986766168268")
    plan = plan_from_question(record["question"])
    ctx = RecordContext(record)
    assert verdict("just", record, " ".join(plan)).score == 0  # not shorter
    # Find two non-adjacent consecutive pairs whose joint removal still leaves a plan.
    pairs = [i for i in range(len(plan) - 1) if is_plan(ctx.task, ctx.task.init, plan[:i] + plan[i + 2 :])]
    joint = next(
        (
            plan[:i] + plan[i + 2 : j] + plan[j + 2 :]
            for i in pairs
            for j in pairs
            if j > i + 1 and is_plan(ctx.task, ctx.task.init, plan[:i] + plan[i + 2 : j] + plan[j + 2 :])
        ),
        None,
    )
    assert joint is not None
    assert verdict("just", record, " ".join(joint)).score == 1  # the paper's relaxed check
    assert verdict("just", record, " ".join(joint), strict_just=True).score == 0
    single = plan[: pairs[0]] + plan[pairs[0] + 2 :]
    assert verdict("just", record, " ".join(single), strict_just=True).score == 1
    assert verdict("just", record, " ".join(single).upper()).score == 1  # case-insensitive
    broken = plan[1:]
    if not is_plan(ctx.task, ctx.task.init, broken):
        assert verdict("just", record, " ".join(broken)).score == 0
