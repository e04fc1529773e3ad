"""just: simplify a plan by removing one action or two consecutive actions.

The plan comes from the structured field ``plan`` or, for reference records, from the actions
quoted in the question (never from character offsets); comparison is case-insensitive. Default
(the paper): any proper subsequence of the plan that is still a plan scores 1. With
``strict_just`` only the removal of one action or of two consecutive actions is accepted.
"""

from __future__ import annotations

from acpgen.answers import parse_plan
from acpgen.oracle import Decision
from acpgen.pddl.semantics import is_plan
from acpgen.tasks.base import (
    OK,
    WRONG,
    Check,
    RecordContext,
    Task,
    Verdict,
    on_plan_before_goal,
    record_plan,
    unknown_actions,
)
from acpgen.tasks.choice import ChoiceSpec, Claims


def is_subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


def is_one_step_removal(short: list[str], long: list[str]) -> bool:
    """Whether ``short`` is ``long`` minus one action or minus two consecutive actions."""
    gap = len(long) - len(short)
    if gap not in (1, 2):
        return False
    return any(long[:i] + long[i + gap :] == short for i in range(len(long) - gap + 1))


def score(ctx: RecordContext, answer: list[str]) -> Verdict:
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


def valid_removals(task, plan: list[str]) -> list[list[str]]:
    """Every removal of one action or two consecutive actions that leaves a plan, in reference form.

    Singles first, in plan order, as ``[action, "k"]`` (k-th occurrence, 1-based); then pairs in
    plan order as ``[action1, action2, "-1"]``, one entry per position.
    """
    singles, pairs = [], []
    for i in range(len(plan)):
        if is_plan(task, task.init, plan[:i] + plan[i + 1 :]):
            singles.append([plan[i], str(plan[: i + 1].count(plan[i]))])
    for i in range(len(plan) - 1):
        if is_plan(task, task.init, plan[:i] + plan[i + 2 :]):
            pairs.append([plan[i], plan[i + 1], "-1"])
    return singles + pairs


def validate(ctx: RecordContext) -> Check:
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


def _redundant_insertion(task, plan: list[str], rng) -> list[str] | None:
    """The plan with a no-op action, or an action and one undoing it, inserted somewhere."""
    positions = list(range(len(plan) + 1))
    rng.shuffle(positions)
    for i in positions:
        state = task.init
        for name in plan[:i]:
            state = task.action(name).apply(state)
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


def generate(ctx: RecordContext, item, rng, settings) -> dict | None:
    """A plan from the state that can be shortened, with every valid one-step removal stored."""
    if not item.suffix:
        return None
    plan = list(item.suffix)
    removals = valid_removals(ctx.task, plan)
    if not removals:
        plan = _redundant_insertion(ctx.task, plan, rng)
        if plan is None:
            return None
        removals = valid_removals(ctx.task, plan)
    return {"plan": plan, "answer": removals} if removals else None


def _remove(plan: list[str], entry: list[str], used_pairs: dict) -> list[str]:
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


def to_responses(record: dict) -> list[str]:
    plan = record_plan(record)
    used: dict = {}
    return ["Simplified plan: " + " ".join(_remove(plan, entry, used)) for entry in record["answer"]]


# ----- boolean and multiple-choice formats -----------------------------------------------------
def claims(ctx: RecordContext, item, rng, settings) -> Claims | None:
    """Single actions and consecutive pairs of a plan that can (true) or cannot (false) be removed
    with the rest still a plan; the plan is the one of the generative question (redundant when the
    stored plan has no removable step)."""
    fields = generate(ctx, item, rng, settings)
    if fields is None:
        return None
    plan = fields["plan"]
    true, false = [], []
    for i in range(len(plan)):
        for remove in ([i], [i, i + 1]) if i + 1 < len(plan) else ([i],):
            rest = [a for k, a in enumerate(plan) if k not in remove]
            (true if is_plan(ctx.task, ctx.task.init, rest) else false).append({"remove": remove})
    return Claims(true, false, shared={"plan": plan})


def decide(ctx: RecordContext, claim: dict) -> Decision:
    plan = record_plan(ctx.record)
    if not is_plan(ctx.task, ctx.task.init, plan):
        return Decision(None, "simulator", "the record's plan is no plan")
    # "remove_any": every position of the named action(s): reference questions name no position
    removals = claim["remove_any"] if "remove_any" in claim else [claim["remove"]]
    outcomes = {
        is_plan(ctx.task, ctx.task.init, [a for k, a in enumerate(plan) if k not in remove]) for remove in removals
    }
    if len(outcomes) > 1:
        return Decision(None, "simulator", "the named action occurs several times, removable at some places only")
    return Decision(outcomes.pop(), "simulator")


def words(describer, record: dict, claim: dict) -> dict:
    plan = record["plan"]
    first = claim["remove"][0]
    out = {
        "plan": ", ".join(describer.action(a) for a in plan),
        "step": str(first + 1),
        "action": describer.action(plan[first]),
    }
    if len(claim["remove"]) == 2:
        out.update(next=str(first + 2), second=describer.action(plan[first + 1]))
    return out


def variant(claim: dict) -> str:
    return "pair" if len(claim["remove"]) == 2 else "single"


CHOICE = ChoiceSpec("action_justification_bool", "action_justification_mcq", claims, decide, words, variant)

TASK = Task(
    "just",
    "action_justification_gen",
    "a simplified plan",
    parse_plan,
    score,
    to_responses,
    validate,
    generate,
    accepts=on_plan_before_goal,
    choice=CHOICE,
)
