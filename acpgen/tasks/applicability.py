"""app: which ground actions are applicable in the state?

Score 1 when the set of answered actions equals the set of applicable actions (stored, or
recomputed under ``--recheck``); every answered name must be a type-correct ground action.
"""

from __future__ import annotations

from acpgen.answers import parse_action_list
from acpgen.oracle import Decision
from acpgen.tasks.base import (
    OK,
    WRONG,
    Check,
    RecordContext,
    Task,
    Verdict,
    lowered,
    unknown_actions,
)
from acpgen.tasks.choice import ChoiceSpec, Claims, random_actions


def applicable_names(ctx: RecordContext) -> set[str]:
    """Names of the actions applicable in the record's state."""
    return {a.name for a in ctx.task.applicable(ctx.task.init)}


def score(ctx: RecordContext, answer: list[str]) -> Verdict:
    unknown = unknown_actions(ctx.task, answer)
    if unknown:
        return Verdict.wrong(f"unknown_action: {unknown[0]}")
    expected = applicable_names(ctx) if ctx.options.recheck else set(lowered(ctx.answer))
    given = set(answer)
    if given == expected:
        return Verdict.correct()
    return Verdict.wrong(f"missing {len(expected - given)}, not applicable {len(given - expected)}")


def validate(ctx: RecordContext) -> Check:
    expected, stored = applicable_names(ctx), set(lowered(ctx.answer))
    if stored == expected:
        return Check(OK)
    return Check(WRONG, f"missing {sorted(expected - stored)[:3]}, not applicable {sorted(stored - expected)[:3]}")


def generate(ctx: RecordContext, item, rng, settings) -> dict | None:
    names = sorted(applicable_names(ctx))
    if not names or len(names) > settings.max_applicable:
        return None
    return {"answer": names}


def to_responses(record: dict) -> list[str]:
    return [" ".join(record["answer"])]


# ----- boolean and multiple-choice formats -----------------------------------------------------
def claims(ctx: RecordContext, item, rng, settings) -> Claims | None:
    """Applicable actions (true) and type-correct actions whose precondition fails (false)."""
    applicable = applicable_names(ctx)
    if not applicable:
        return None
    relaxed = [a.name for a in ctx.task.actions if a.name not in applicable]
    inapplicable = sorted(
        set(rng.sample(relaxed, min(20, len(relaxed))))
        | {n for n in random_actions(ctx.task, rng, 20) if n not in applicable}
    )
    return Claims([{"action": a} for a in sorted(applicable)], [{"action": a} for a in inapplicable])


def decide(ctx: RecordContext, claim: dict) -> Decision:
    action = ctx.task.action(claim["action"])
    if action is None:
        return Decision(None, "simulator", f"unknown action {claim['action']}")
    return Decision(action.applicable(ctx.task.init), "simulator")


def words(describer, record: dict, claim: dict) -> dict:
    return {"action": describer.action(claim["action"])}


CHOICE = ChoiceSpec("applicable_actions_bool", "applicable_actions_mc", claims, decide, words)

TASK = Task(
    "app",
    "applicable_actions_gen",
    "all applicable actions of a state",
    parse_action_list,
    score,
    to_responses,
    validate,
    generate,
    choice=CHOICE,
)
