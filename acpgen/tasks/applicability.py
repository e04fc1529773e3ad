"""app: which ground actions are applicable in the state?

Score 1 when the set of answered actions equals the set of applicable actions (stored, or
recomputed under ``--recheck``); every answered name must be a type-correct ground action.
"""

from __future__ import annotations

import random
from typing import Any

from acpgen.config import QAConfig
from acpgen.nl.answers import parse_action_list
from acpgen.proofs.claims import ActionClaim, Claim, expect
from acpgen.proofs.oracle import Decision, Method
from acpgen.tasks.base import (
    OK,
    WRONG,
    ActionCase,
    Check,
    QAItem,
    RecordContext,
    Task,
    Verdict,
    Words,
    in_words,
    lowered,
    unknown_actions,
    worded_set,
)
from acpgen.tasks.choice import ChoiceFormats, Claims, Matcher, random_actions


def applicable_names(ctx: RecordContext) -> set[str]:
    """Names of the actions applicable in the record's state."""
    return {a.name for a in ctx.task.applicable(ctx.task.init)}


class ApplicabilityChoice(ChoiceFormats):
    bool_group = "applicable_actions_bool"
    mcq_group = "applicable_actions_mc"

    def claims(self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig) -> Claims | None:
        """Applicable actions (true) and type-correct actions whose precondition fails (false)."""
        applicable = applicable_names(ctx)
        if not applicable:
            return None
        relaxed = [a.name for a in ctx.task.actions if a.name not in applicable]
        inapplicable = sorted(
            set(rng.sample(relaxed, min(20, len(relaxed))))
            | {n for n in random_actions(ctx.task, rng, 20) if n not in applicable}
        )
        return Claims([ActionClaim(a) for a in sorted(applicable)], [ActionClaim(a) for a in inapplicable])

    def decide(self, ctx: RecordContext, claim: Claim) -> Decision:
        name = expect(claim, ActionClaim).action
        action = ctx.task.action(name)
        if action is None:
            return Decision(None, Method.SIMULATOR, f"unknown action {name}")
        return Decision(action.applicable(ctx.task.init), Method.SIMULATOR)

    def words(self, describer: Words, record: dict[str, Any], claim: Claim) -> dict[str, str]:
        return {"action": describer.action(expect(claim, ActionClaim).action)}

    def read_reference(
        self, fmt: str, question: str, options: list[str], match: Matcher
    ) -> tuple[list[Claim], dict[str, Any]]:
        texts = [match.quoted(r"applicable in this state: (.*)\?$", question)[0]] if fmt == "bool" else options
        return [ActionClaim(str(match.action(t))) for t in texts], {}


class Applicability(Task):
    name = "app"
    gen_group = "applicable_actions_gen"
    description = "all applicable actions of a state"
    context_parts = ("actions",)
    instruction = "Write every action in parentheses, like (name arg1 arg2). Give only the actions."
    choice = ApplicabilityChoice()

    def parse(self, response: str) -> list[str]:
        return parse_action_list(response)

    def read(self, ctx: RecordContext, response: str) -> list[str]:
        return in_words(parse_action_list, response, lambda section: worded_set(ctx, section, atoms=False))

    def score(self, ctx: RecordContext, answer: list[str]) -> Verdict:
        unknown = unknown_actions(ctx.task, answer)
        if unknown:
            return Verdict.wrong(f"unknown_action: {unknown[0]}")
        expected = applicable_names(ctx) if ctx.recheck else set(lowered(ctx.answer))
        given = set(answer)
        if given == expected:
            return Verdict.correct()
        return Verdict.wrong(f"missing {len(expected - given)}, not applicable {len(given - expected)}")

    def validate(self, ctx: RecordContext) -> Check:
        expected, stored = applicable_names(ctx), set(lowered(ctx.answer))
        if stored == expected:
            return Check(OK)
        return Check(WRONG, f"missing {sorted(expected - stored)[:3]}, not applicable {sorted(stored - expected)[:3]}")

    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        names = sorted(applicable_names(ctx))
        if not names or len(names) > settings.max_applicable:
            return None
        return {"answer": names}

    def to_responses(self, record: dict[str, Any]) -> list[str]:
        return [" ".join(record["answer"])]

    def export_answer(self, answer: Any, case: ActionCase) -> Any:
        return [case(a) for a in answer]

    def answer_elements(self, answer: Any) -> set[Any]:
        return set(answer)

    def stored_elements(self, record: dict[str, Any]) -> set[Any]:
        return set(lowered(record.get("answer") or []))


TASK = Applicability()
