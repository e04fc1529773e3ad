"""just: simplify a plan by removing one action or two consecutive actions.

The plan comes from the structured field ``plan`` or, for reference records, from the actions
quoted in the question (never from character offsets); comparison is case-insensitive. Default
(the paper): any proper subsequence of the plan that is still a plan scores 1. With
``strict_just`` only the removal of one action or of two consecutive actions is accepted.
"""

from __future__ import annotations

import random
from typing import Any

from acpgen.config import QAConfig
from acpgen.nl.answers import parse_plan
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.semantics import is_plan
from acpgen.proofs.claims import AnyRemovalClaim, Claim, RemovalClaim, expect
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
    known_action,
    on_plan_before_goal,
    record_plan,
    unknown_actions,
    worded_plan,
)
from acpgen.tasks.choice import ChoiceFormats, Claims, Matcher


def is_subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


def is_one_step_removal(short: list[str], long: list[str]) -> bool:
    """Whether ``short`` is ``long`` minus one action or minus two consecutive actions."""
    gap = len(long) - len(short)
    if gap not in (1, 2):
        return False
    return any(long[:i] + long[i + gap :] == short for i in range(len(long) - gap + 1))


def valid_removals(task: GroundTask, plan: list[str]) -> list[list[str]]:
    """Every removal of one action or two consecutive actions that leaves a plan, in reference form.

    Singles first, in plan order, as ``[action, "k"]`` (k-th occurrence, 1-based); then pairs in
    plan order as ``[action1, action2, "-1"]``, one entry per position.
    """
    singles: list[list[str]] = []
    pairs: list[list[str]] = []
    for i in range(len(plan)):
        if is_plan(task, task.init, plan[:i] + plan[i + 1 :]):
            singles.append([plan[i], str(plan[: i + 1].count(plan[i]))])
    for i in range(len(plan) - 1):
        if is_plan(task, task.init, plan[:i] + plan[i + 2 :]):
            pairs.append([plan[i], plan[i + 1], "-1"])
    return singles + pairs


def _redundant_insertion(task: GroundTask, plan: list[str], rng: random.Random) -> list[str] | None:
    """The plan with a no-op action, or an action and one undoing it, inserted somewhere."""
    positions = list(range(len(plan) + 1))
    rng.shuffle(positions)
    for i in positions:
        state = task.init
        for name in plan[:i]:
            state = known_action(task, name).apply(state)
        applicable = task.applicable(state)
        rng.shuffle(applicable)
        for first in applicable:
            after = first.apply(state)
            if after == state:
                return plan[:i] + [first.name] + plan[i:]
            for second in task.applicable(after):
                if second.apply(after) == state:
                    return plan[:i] + [first.name, second.name] + plan[i:]
    return None


def _remove(plan: list[str], entry: list[str], used_pairs: dict[tuple[str, str], int]) -> list[str]:
    if entry[-1] != "-1":
        action, occurrence = entry[0].lower(), int(entry[1])
        positions = [i for i, a in enumerate(plan) if a == action]
        i = positions[occurrence - 1]
        return plan[:i] + plan[i + 1 :]
    first, second = entry[0].lower(), entry[1].lower()
    starts = [i for i in range(len(plan) - 1) if plan[i] == first and plan[i + 1] == second]
    k = used_pairs.get((first, second), 0)
    used_pairs[(first, second)] = k + 1
    i = starts[min(k, len(starts) - 1)]
    return plan[:i] + plan[i + 2 :]


def removal_claims(ctx: RecordContext, plan: list[str]) -> tuple[list[Claim], list[Claim]]:
    """Single actions and consecutive pairs of the plan whose removal leaves a plan (true) or not (false)."""
    true: list[Claim] = []
    false: list[Claim] = []
    for i in range(len(plan)):
        for remove in ([i], [i, i + 1]) if i + 1 < len(plan) else ([i],):
            rest = [a for k, a in enumerate(plan) if k not in remove]
            (true if is_plan(ctx.task, ctx.task.init, rest) else false).append(RemovalClaim(remove))
    return true, false


class JustificationChoice(ChoiceFormats):
    bool_group = "action_justification_bool"
    mcq_group = "action_justification_mcq"
    goal_in_context = True
    bool_variants = ("single", "pair")
    mcq_variants = ("single", "pair")

    def claims(self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig) -> Claims | None:
        """Single actions and consecutive pairs of a plan that can (true) or cannot (false) be removed
        with the rest still a plan; the plan is the one of the generative question (redundant when the
        stored plan has no removable step)."""
        fields = TASK.generate(ctx, item, rng, settings)
        if fields is None:
            return None
        plan = fields["plan"]
        true, false = removal_claims(ctx, plan)
        return Claims(true, false, shared={"plan": plan})

    def decide(self, ctx: RecordContext, claim: Claim) -> Decision:
        plan = record_plan(ctx.record)
        if not is_plan(ctx.task, ctx.task.init, plan):
            return Decision(None, Method.SIMULATOR, "the record's plan is no plan")
        # reference questions name the action, not its position: every position of it is tried
        removals = claim.remove_any if isinstance(claim, AnyRemovalClaim) else [expect(claim, RemovalClaim).remove]
        outcomes = {
            is_plan(ctx.task, ctx.task.init, [a for k, a in enumerate(plan) if k not in remove]) for remove in removals
        }
        if len(outcomes) > 1:
            return Decision(
                None, Method.SIMULATOR, "the named action occurs several times, removable at some places only"
            )
        return Decision(outcomes.pop(), Method.SIMULATOR)

    def words(self, describer: Words, record: dict[str, Any], claim: Claim) -> dict[str, str]:
        plan = record["plan"]
        remove = expect(claim, RemovalClaim).remove
        first = remove[0]
        out = {
            "plan": ", ".join(describer.action(a) for a in plan),
            "step": str(first + 1),
            "action": describer.action(plan[first]),
        }
        if len(remove) == 2:
            out.update(next=str(first + 2), second=describer.action(plan[first + 1]))
        return out

    def variant(self, claim: Claim) -> str:
        return "pair" if len(expect(claim, RemovalClaim).remove) == 2 else "single"

    def read_reference(
        self, fmt: str, question: str, options: list[str], match: Matcher
    ) -> tuple[list[Claim], dict[str, Any]]:
        (plan_text,) = match.quoted(r'Given the plan: "(.*?)"; ', question)
        plan = match.plan(plan_text)
        texts = [match.quoted(r"still have a valid plan: (.*)\?$", question)[0]] if fmt == "bool" else options
        return [AnyRemovalClaim(match.removals(plan, text)) for text in texts], {"plan": plan}


class Justification(Task):
    name = "just"
    gen_group = "action_justification_gen"
    description = "a simplified plan"
    context_parts = ("actions", "goal")
    instruction = "Write every action in parentheses, like (name arg1 arg2). Give only the shortened sequence."
    question_fields = ("plan",)
    choice = JustificationChoice()

    def required_fields(self, record: dict[str, Any]) -> tuple[str, ...]:
        # the plan: acp's structured field, or the sequence quoted in a reference question
        return super().required_fields(record) + (() if "plan" in record else ("question",))

    def accepts(self, state: dict[str, Any]) -> bool:
        return on_plan_before_goal(state)

    def parse(self, response: str) -> list[str]:
        return parse_plan(response)

    def read(self, ctx: RecordContext, response: str) -> list[str]:
        return in_words(parse_plan, response, lambda section: worded_plan(ctx, section))

    def score(self, ctx: RecordContext, answer: list[str]) -> Verdict:
        if not answer:
            return Verdict.wrong("empty plan")
        unknown = unknown_actions(ctx.task, answer)
        if unknown:
            return Verdict.wrong(f"unknown_action: {unknown[0]}")
        plan = record_plan(ctx.record)
        if len(answer) >= len(plan):
            return Verdict.wrong("not shorter than the given plan")
        if ctx.options.strict_just:
            if not is_one_step_removal(answer, plan):
                return Verdict.wrong("not the removal of one action or two consecutive actions")
        elif not is_subsequence(answer, plan):
            return Verdict.wrong("not a subsequence of the given plan")
        if not is_plan(ctx.task, ctx.task.init, answer):
            return Verdict.wrong("not a plan")
        return Verdict.correct()

    def validate(self, ctx: RecordContext) -> Check:
        plan = record_plan(ctx.record)
        if not is_plan(ctx.task, ctx.task.init, plan):
            return Check(WRONG, "the given sequence is not a plan")
        expected = sorted(map(tuple, valid_removals(ctx.task, plan)))
        stored = sorted(tuple(e[:-1]) + (e[-1],) for e in ([x.lower() for x in entry] for entry in ctx.answer))
        if stored == expected:
            return Check(OK)
        extra = [e for e in stored if e not in expected]
        if extra:
            return Check(WRONG, f"stored removal {list(extra[0])} does not leave a plan")
        missing = [e for e in expected if e not in stored]
        return Check(WRONG, f"incomplete: valid removal {list(missing[0])} is not stored")

    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        """A plan from the state that can be shortened, with every valid one-step removal stored."""
        if not item.suffix:
            return None
        plan = list(item.suffix)
        removals = valid_removals(ctx.task, plan)
        if not removals:
            longer = _redundant_insertion(ctx.task, plan, rng)
            if longer is None:
                return None
            plan = longer
            removals = valid_removals(ctx.task, plan)
        return {"plan": plan, "answer": removals} if removals else None

    def to_responses(self, record: dict[str, Any]) -> list[str]:
        plan = record_plan(record)
        used: dict[tuple[str, str], int] = {}
        return ["Simplified plan: " + " ".join(_remove(plan, entry, used)) for entry in record["answer"]]

    def export_answer(self, answer: Any, case: ActionCase) -> Any:
        return [[case(x) for x in entry[:-1]] + [entry[-1]] for entry in answer]


TASK = Justification()
