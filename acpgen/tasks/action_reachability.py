"""areach: a ground action that can never become applicable from the state, or None.

Like reach, for actions: an action is reachable when some reachable state satisfies its
precondition. Answers must name a type-correct ground action (any grounding, not only the
relaxed-reachable ones: those are exactly the typical correct answers).
"""

from __future__ import annotations

import itertools

from acpgen.answers import parse_action_or_none
from acpgen.tasks.base import Check, RecordContext, Task, Verdict, check_each, find_witness, lowered, score_none


def some_unreachable_action(ctx: RecordContext) -> tuple[str | None, bool]:
    """An action proven never applicable, if any (name, decided)."""
    return find_witness(ctx.task.all_action_names(), lambda n: ctx.oracle.action_reachable(ctx.task.action(n)), False)


def score(ctx: RecordContext, answer: str | None) -> Verdict:
    stored = set(lowered(ctx.answer))
    if answer is None:
        return score_none(ctx, not stored, lambda: some_unreachable_action(ctx), "is never applicable",
                          "every action is reachable")
    action = ctx.task.action(answer)
    if action is None:
        return Verdict.wrong(f"unknown_action: {answer}")
    if not ctx.options.recheck:
        if answer in stored:
            return Verdict.correct("stored unreachable action")
        if not stored:
            return Verdict.wrong("stored answer is None")
    decision = ctx.oracle.action_reachable(action)
    return Verdict.from_decision(decision, "reachable", "never applicable", expect=False)


def validate(ctx: RecordContext) -> Check:
    return check_each(ctx, score, sorted(set(lowered(ctx.answer))) or [None])


def generate(ctx: RecordContext, item, rng, settings) -> dict | None:
    """A sample of proven never-applicable actions, or [] when every action is proven reachable."""
    names = list(itertools.islice(ctx.task.all_action_names(), settings.max_candidates + 1))
    complete = len(names) <= settings.max_candidates
    if not complete:
        names = rng.sample(names, settings.max_candidates)
    decide = {n: ctx.oracle.action_reachable(ctx.task.action(n), planner=False).value for n in names}
    unreachable = [n for n, v in decide.items() if v is False]
    if not unreachable:
        if not complete:
            return None
        for name in [n for n, v in decide.items() if v is None][: settings.max_planner_calls]:
            decide[name] = ctx.oracle.action_reachable(ctx.task.action(name)).value
        if any(v is None for v in decide.values()):
            return None
        unreachable = [n for n, v in decide.items() if v is False]
    return {"answer": sorted(rng.sample(unreachable, min(settings.areach_stored, len(unreachable))))}


def to_responses(record: dict) -> list[str]:
    return list(record["answer"]) or ["None"]


TASK = Task("areach", "reachable_action_gen", "an action that can never become applicable",
            parse_action_or_none, score, to_responses, validate, generate)
