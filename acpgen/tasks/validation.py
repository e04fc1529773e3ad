"""val: the 0-based index of the first inapplicable action of a sequence.

Score 1 when the index equals the stored one (``--recheck``: the index obtained by executing the
sequence, taken from the structured field ``plan`` or parsed from the question's quoted actions).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from acpgen.config import QAConfig
from acpgen.nl.answers import parse_index
from acpgen.pddl.semantics import execute, is_plan
from acpgen.proofs.claims import Claim, PropertyClaim, VerdictClaim, expect
from acpgen.proofs.oracle import Decision, Method
from acpgen.tasks.base import (
    OK,
    WRONG,
    Check,
    QAItem,
    RecordContext,
    Task,
    Verdict,
    Words,
    on_plan_before_goal,
    record_plan,
)
from acpgen.tasks.choice import ChoiceFormats, Claims, Matcher, rollout, wrong_action


def first_inapplicable(ctx: RecordContext) -> int | None:
    """Index of the first inapplicable (or unknown) action of the record's sequence; None if all apply."""
    return execute(ctx.task, ctx.task.init, record_plan(ctx.record)).failed_at


# ----- boolean and multiple-choice formats -----------------------------------------------------
# The four verdicts on an action sequence, in the fixed order of the multiple-choice options.
VERDICTS = ("invalid", "inapplicable", "not_goal", "plan")
# A step of a sequence: an action name, or a wrong-action object (a claims.WrongActionClaim as a dict).
Step = str | dict[str, Any]
PROPERTIES = {"valid": ("inapplicable", "not_goal", "plan"), "applicable": ("not_goal", "plan"), "plan": ("plan",)}


def verdict_of(ctx: RecordContext, sequence: Sequence[Step]) -> str:
    """invalid: a step names no action of the domain; inapplicable: a step cannot be applied;
    not_goal: every step applies but the goal does not hold at the end; plan: it reaches the goal."""
    if any(isinstance(step, dict) or ctx.task.action(step.lower()) is None for step in sequence):
        return "invalid"
    run = execute(ctx.task, ctx.task.init, [s.lower() for s in sequence if isinstance(s, str)])  # no dict is left
    if not run.applicable:
        return "inapplicable"
    return "plan" if ctx.task.is_goal(run.state) else "not_goal"


def _sequences(ctx: RecordContext, item: QAItem, rng: random.Random) -> dict[str, Sequence[Step]]:
    """One sequence per verdict, built from the stored plan as the paper describes."""
    task, plan = ctx.task, list(item.suffix or [])
    if len(plan) < 2 or not is_plan(task, task.init, plan):
        return {}
    out: dict[str, Sequence[Step]] = {"plan": plan}
    for _ in range(5):  # a plan prefix continued by a random rollout that misses the goal
        k = rng.randrange(1, len(plan))
        state = execute(task, task.init, plan[:k]).state
        steps = rollout(task, state, rng, rng.randint(0, 3))
        end = steps[-1][1] if steps else state
        if not task.is_goal(end):
            out["not_goal"] = plan[:k] + [name for name, _ in steps]
            break
    for index in range(len(plan) - 1, -1, -1):  # replace a step by an inapplicable action, latest first
        state = execute(task, task.init, plan[:index]).state
        candidates = [a.name for a in task.actions if not a.applicable(state)]
        if candidates:
            out["inapplicable"] = plan[:index] + [rng.choice(candidates)]
            break
    wrong = wrong_action(item, task, rng)
    if wrong is not None:
        index = rng.randrange(len(plan))
        out["invalid"] = [*plan[:index], wrong.to_dict(), *plan[index + 1 :]]
    return out


VAL_OPTIONS = {
    "the sequence is not valid": "invalid",
    "the sequence is not applicable": "inapplicable",
    "the sequence is applicable, but does not achieve the goal": "not_goal",
    "the sequence is a plan": "plan",
}  # the reference's multiple-choice options
VAL_PROPERTIES = {
    "a plan for the current state": "plan",
    "valid in this problem": "valid",
    "applicable in the current state": "applicable",
}  # the reference's boolean questions


class ValidationChoice(ChoiceFormats):
    bool_group = "validation_bool"
    mcq_group = "validation_mcq"
    goal_in_context = True
    bool_variants = tuple(PROPERTIES)

    def claims(self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig) -> Claims | None:
        alternatives = []
        for verdict, sequence in _sequences(ctx, item, rng).items():
            fixed: list[tuple[Claim, bool]] = [(VerdictClaim(v), v == verdict) for v in VERDICTS]
            true: list[Claim] = [PropertyClaim(p) for p, holds in PROPERTIES.items() if verdict in holds]
            false: list[Claim] = [PropertyClaim(p) for p, holds in PROPERTIES.items() if verdict not in holds]
            alternatives.append(Claims(true, false, fixed=fixed, shared={"sequence": sequence}))
        return Claims(alternatives=alternatives) if alternatives else None

    def decide(self, ctx: RecordContext, claim: Claim) -> Decision:
        verdict = verdict_of(ctx, ctx.record["sequence"])
        if isinstance(claim, VerdictClaim):
            return Decision(claim.verdict == verdict, Method.SIMULATOR)
        return Decision(verdict in PROPERTIES[expect(claim, PropertyClaim).property], Method.SIMULATOR)

    def words(self, describer: Words, record: dict[str, Any], claim: Claim) -> dict[str, str]:
        steps = [
            describer.wrong_action(s["wrong"], s["args"]) if isinstance(s, dict) else describer.action(s)
            for s in record["sequence"]
        ]
        return {"plan": ", ".join(steps)}

    def variant(self, claim: Claim) -> str:
        return claim.property if isinstance(claim, PropertyClaim) else ""

    def option_key(self, task: str, claim: Claim, variant: str) -> str:
        return f"mcq.option.{task}.{expect(claim, VerdictClaim).verdict}"

    def option_keys(self, task: str) -> list[str]:
        return [f"mcq.option.{task}.{v}" for v in VERDICTS]

    def read_reference(
        self, fmt: str, question: str, options: list[str], match: Matcher
    ) -> tuple[list[Claim], dict[str, Any]]:
        shared: dict[str, Any] = {}
        claims: list[Claim]
        if fmt == "bool":
            pattern = (
                r'sequence of actions "(.*)" (a plan for the current state|valid in this '
                r"problem|applicable in the current state)\?"
            )
            sequence, kind_text = match.quoted(pattern, question)
            claims = [PropertyClaim(VAL_PROPERTIES[kind_text])]
            shared["variant"] = VAL_PROPERTIES[kind_text]
        else:
            (sequence,) = match.quoted(r'sequence of actions "(.*)"\s+A\. ', question)
            claims = [VerdictClaim(VAL_OPTIONS[o.strip().rstrip(".").lower()]) for o in options]
        shared["sequence"] = match.plan(sequence, wrong_allowed=True)
        return claims, shared


class Validation(Task):
    name = "val"
    gen_group = "validation_gen"
    description = "index of the first inapplicable action"
    context_parts = ("goal", "actions")
    instruction = "Give only the position of that action."
    question_fields = ("plan",)
    choice = ValidationChoice()

    def required_fields(self, record: dict[str, Any]) -> tuple[str, ...]:
        # the plan: acp's structured field, or the sequence quoted in a reference question
        return super().required_fields(record) + (() if "plan" in record else ("question",))

    def accepts(self, state: dict[str, Any]) -> bool:
        return on_plan_before_goal(state)

    def parse(self, response: str) -> int | None:
        return parse_index(response)

    def score(self, ctx: RecordContext, answer: int | None) -> Verdict:
        if ctx.recheck:
            expected = first_inapplicable(ctx)
        else:
            expected = None if int(ctx.answer) < 0 else int(ctx.answer)
        if answer == expected:
            return Verdict.correct()
        return Verdict.wrong(f"expected {expected}, got {answer}")

    def validate(self, ctx: RecordContext) -> Check:
        expected = first_inapplicable(ctx)
        stored = None if int(ctx.answer) < 0 else int(ctx.answer)
        if expected == stored:
            return Check(OK)
        return Check(WRONG, f"first inapplicable action is {expected}, stored {stored}")

    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        """Replace one action of a plan from the state by an action inapplicable at that point."""
        if not item.suffix or len(item.suffix) < 2:
            return None
        index = rng.randrange(len(item.suffix))
        run = execute(ctx.task, ctx.task.init, item.suffix[:index])
        candidates = [a.name for a in ctx.task.actions if not a.applicable(run.state)]
        if run.failed_at is not None or not candidates:
            return None
        plan = item.suffix[:index] + [rng.choice(candidates)] + item.suffix[index + 1 :]
        return {"plan": plan, "answer": index}

    def to_responses(self, record: dict[str, Any]) -> list[str]:
        return [str(record["answer"])]


TASK = Validation()
