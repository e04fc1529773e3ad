"""val: the 0-based index of the first inapplicable action of a sequence.

Score 1 when the index equals the stored one (``--recheck``: the index obtained by executing the
sequence, taken from the structured field ``plan`` or parsed from the question's quoted actions).
"""

from __future__ import annotations

from acpgen.answers import parse_index
from acpgen.pddl.semantics import execute
from acpgen.tasks.base import (
    OK,
    WRONG,
    Check,
    on_plan_before_goal,
    record_plan,
    RecordContext,
    Task,
    Verdict,
)


def first_inapplicable(ctx: RecordContext) -> int | None:
    """Index of the first inapplicable (or unknown) action of the record's sequence; None if all apply."""
    return execute(ctx.task, ctx.task.init, record_plan(ctx.record)).failed_at


def score(ctx: RecordContext, answer: int | None) -> Verdict:
    if ctx.options.recheck:
        expected = first_inapplicable(ctx)
    else:
        expected = None if int(ctx.answer) < 0 else int(ctx.answer)
    if answer == expected:
        return Verdict.correct()
    return Verdict.wrong(f"expected {expected}, got {answer}")


def validate(ctx: RecordContext) -> Check:
    expected = first_inapplicable(ctx)
    stored = None if int(ctx.answer) < 0 else int(ctx.answer)
    return Check(OK) if expected == stored else Check(WRONG, f"first inapplicable action is {expected}, stored {stored}")


def generate(ctx: RecordContext, item, rng, settings) -> dict | None:
    """Replace one action of a plan from the state by an action inapplicable at that point."""
    if not item.suffix or len(item.suffix) < 2:
        return None
    index = rng.randrange(len(item.suffix))
    run = execute(ctx.task, ctx.task.init, item.suffix[:index])
    candidates = [a.name for a in ctx.task.actions if not a.applicable(run.state)]
    if run.failed_at is not None or not candidates:
        return None
    plan = item.suffix[:index] + [rng.choice(candidates)] + item.suffix[index + 1:]
    return {"plan": plan, "answer": index}


def to_responses(record: dict) -> list[str]:
    return [str(record["answer"])]


TASK = Task("val", "validation_gen", "index of the first inapplicable action",
            parse_index, score, to_responses, validate, generate, accepts=on_plan_before_goal)
