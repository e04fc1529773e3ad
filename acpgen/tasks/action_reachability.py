"""areach: a ground action that can never become applicable from the state, or None.

Like reach, for actions: an action is reachable when some reachable state satisfies its
precondition. Answers must name a type-correct ground action (any grounding, not only the
relaxed-reachable ones: those are exactly the typical correct answers).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from acpgen.config import QAConfig
from acpgen.nl.answers import parse_action_or_none
from acpgen.proofs.claims import ActionClaim, Claim, WrongActionClaim, expect
from acpgen.proofs.oracle import Decision, Method
from acpgen.tasks.base import (
    ActionCase,
    Check,
    QAItem,
    RecordContext,
    Task,
    Verdict,
    Words,
    check_each,
    find_witness,
    in_words,
    known_action,
    lowered,
    score_none,
)
from acpgen.tasks.choice import ChoiceFormats, Claims, Matcher, random_actions, rollout, wrong_action
from acpgen.tasks.reachability import mutex_groups


def some_unreachable_action(ctx: RecordContext) -> tuple[str | None, bool]:
    """An action proven never applicable, if any (name, decided)."""
    return find_witness(
        ctx.task.all_action_names(), lambda n: ctx.oracle.action_reachable(known_action(ctx.task, n)), False
    )


class ActionReachabilityChoice(ChoiceFormats):
    bool_group = "reachable_action_bool"
    mcq_group = "reachable_action_mc"

    def claims(self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig) -> Claims | None:
        """Actions applied on random walks from the state (true); actions whose precondition is
        unreachable in the delete relaxation or contains a mutex pair, and texts of the domain's
        deliberately wrong action templates (false)."""
        task, oracle = ctx.task, ctx.oracle
        true: list[Claim] = []
        for _ in range(6):
            steps = rollout(task, task.init, rng, rng.randint(2, 12))
            later = [name for name, _ in steps[1:]]
            if later:
                true.append(ActionClaim(rng.choice(later)))
        false: list[Claim] = []
        mutex_candidates = []
        pairs = {frozenset(p) for g in mutex_groups(ctx) for p in itertools.combinations(g, 2)}
        for name in random_actions(task, rng, 60):
            action = known_action(task, name)
            cheap = oracle.action_reachable(action, planner=False).value
            if cheap is False and len(false) < 8:
                false.append(ActionClaim(name))
            elif cheap is None and len(action.precondition) == 1:
                atoms = set(task.atoms.atoms(action.precondition[0][0]))
                if any(p <= atoms for p in pairs):
                    mutex_candidates.append(name)
        for name in mutex_candidates[:3]:
            if oracle.action_reachable(known_action(task, name)).value is False:
                false.append(ActionClaim(name))
        for _ in range(3):
            wrong = wrong_action(item, task, rng)
            if wrong is not None:
                false.append(wrong)
        return Claims(true, false)

    def decide(self, ctx: RecordContext, claim: Claim) -> Decision:
        if isinstance(claim, WrongActionClaim):
            # A wrong-action text names no action of the domain (checked when the text is written).
            return Decision(False, Method.STATIC, "not an action of the domain")
        action = ctx.task.action(expect(claim, ActionClaim).action)
        if action is None:
            return Decision(False, Method.STATIC, "not a type-correct action")
        return ctx.oracle.action_reachable(action)

    def words(self, describer: Words, record: dict[str, Any], claim: Claim) -> dict[str, str]:
        if isinstance(claim, WrongActionClaim):
            return {"action": describer.wrong_action(claim.wrong, claim.args or [])}
        return {"action": describer.action(expect(claim, ActionClaim).action)}

    def read_reference(
        self, fmt: str, question: str, options: list[str], match: Matcher
    ) -> tuple[list[Claim], dict[str, Any]]:
        texts = [match.quoted(r'the action "(.*)" can be applied\?', question)[0]] if fmt == "bool" else options
        claims: list[Claim] = []
        for text in texts:
            action = match.action(text, wrong_allowed=True)
            claims.append(action if isinstance(action, Claim) else ActionClaim(action))
        return claims, {}


class ActionReachability(Task):
    name = "areach"
    gen_group = "reachable_action_gen"
    description = "an action that can never become applicable"
    context_parts = ("actions",)
    instruction = "Write the action in parentheses, like (name arg1 arg2). Give one action, or None if there is none."
    choice = ActionReachabilityChoice()

    def parse(self, response: str) -> str | None:
        return parse_action_or_none(response)

    def read(self, ctx: RecordContext, response: str) -> str | None:
        return in_words(parse_action_or_none, response, lambda section: ctx.reader.first(section, atoms=False))

    def score(self, ctx: RecordContext, answer: str | None) -> Verdict:
        stored = set(lowered(ctx.answer))
        if answer is None:
            return score_none(
                ctx,
                not stored,
                lambda: some_unreachable_action(ctx),
                "is never applicable",
                "every action is reachable",
            )
        action = ctx.task.action(answer)
        if action is None:
            return Verdict.wrong(f"unknown_action: {answer}")
        if not ctx.recheck:
            if answer in stored:
                return Verdict.correct("stored unreachable action")
            if not stored:
                return Verdict.wrong("stored answer is None")
        decision = ctx.oracle.action_reachable(action)
        return Verdict.from_decision(decision, "reachable", "never applicable", expect=False)

    def validate(self, ctx: RecordContext) -> Check:
        return check_each(ctx, self.score, sorted(set(lowered(ctx.answer))) or [None])

    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        """A sample of proven never-applicable actions, or [] when every action is proven reachable."""
        names = list(itertools.islice(ctx.task.all_action_names(), settings.max_candidates + 1))
        complete = len(names) <= settings.max_candidates
        if not complete:
            names = rng.sample(names, settings.max_candidates)
        decide = {n: ctx.oracle.action_reachable(known_action(ctx.task, n), planner=False).value for n in names}
        unreachable = [n for n, v in decide.items() if v is False]
        if not unreachable:
            if not complete:
                return None
            for name in [n for n, v in decide.items() if v is None][: settings.max_planner_calls]:
                decide[name] = ctx.oracle.action_reachable(known_action(ctx.task, name)).value
            if any(v is None for v in decide.values()):
                return None
            unreachable = [n for n, v in decide.items() if v is False]
        return {"answer": sorted(rng.sample(unreachable, min(settings.areach_stored, len(unreachable))))}

    def to_responses(self, record: dict[str, Any]) -> list[str]:
        return list(record["answer"]) or ["None"]

    def export_answer(self, answer: Any, case: ActionCase) -> Any:
        return [case(a) for a in answer]


TASK = ActionReachability()
