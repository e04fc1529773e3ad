"""val: the 0-based index of the first inapplicable action of a sequence.

Score 1 when the index equals the stored one (``--recheck``: the index obtained by executing the
sequence, taken from the structured field ``plan`` or parsed from the question's quoted actions).
"""

from __future__ import annotations

from acpgen.answers import parse_index
from acpgen.oracle import Decision
from acpgen.pddl.semantics import execute, is_plan
from acpgen.tasks.base import (
    OK,
    WRONG,
    Check,
    RecordContext,
    Task,
    Verdict,
    on_plan_before_goal,
    record_plan,
)
from acpgen.tasks.choice import ChoiceSpec, Claims, rollout, wrong_action


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
    return (
        Check(OK) if expected == stored else Check(WRONG, f"first inapplicable action is {expected}, stored {stored}")
    )


def generate(ctx: RecordContext, item, rng, settings) -> dict | None:
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


def to_responses(record: dict) -> list[str]:
    return [str(record["answer"])]


# ----- boolean and multiple-choice formats -----------------------------------------------------
# The four verdicts on an action sequence, in the fixed order of the multiple-choice options.
VERDICTS = ("invalid", "inapplicable", "not_goal", "plan")
PROPERTIES = {"valid": ("inapplicable", "not_goal", "plan"), "applicable": ("not_goal", "plan"), "plan": ("plan",)}


def verdict_of(ctx: RecordContext, sequence: list) -> str:
    """invalid: a step names no action of the domain; inapplicable: a step cannot be applied;
    not_goal: every step applies but the goal does not hold at the end; plan: it reaches the goal."""
    if any(isinstance(step, dict) or ctx.task.action(step.lower()) is None for step in sequence):
        return "invalid"
    run = execute(ctx.task, ctx.task.init, [s.lower() for s in sequence])
    if not run.applicable:
        return "inapplicable"
    return "plan" if ctx.task.is_goal(run.state) else "not_goal"


def _sequences(ctx: RecordContext, item, rng) -> dict[str, list]:
    """One sequence per verdict, built from the stored plan as the paper describes."""
    task, plan = ctx.task, list(item.suffix or [])
    if len(plan) < 2 or not is_plan(task, task.init, plan):
        return {}
    out: dict[str, list] = {"plan": plan}
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
        out["invalid"] = plan[:index] + [wrong] + plan[index + 1 :]
    return out


def claims(ctx: RecordContext, item, rng, settings) -> Claims | None:
    alternatives = []
    for verdict, sequence in _sequences(ctx, item, rng).items():
        fixed = [({"verdict": v}, v == verdict) for v in VERDICTS]
        true = [{"property": p} for p, holds in PROPERTIES.items() if verdict in holds]
        false = [{"property": p} for p, holds in PROPERTIES.items() if verdict not in holds]
        alternatives.append(Claims(true, false, fixed=fixed, shared={"sequence": sequence}))
    return Claims(alternatives=alternatives) if alternatives else None


def decide(ctx: RecordContext, claim: dict) -> Decision:
    verdict = verdict_of(ctx, ctx.record["sequence"])
    if "verdict" in claim:
        return Decision(claim["verdict"] == verdict, "simulator")
    return Decision(verdict in PROPERTIES[claim["property"]], "simulator")


def words(describer, record: dict, claim: dict) -> dict:
    steps = [
        describer.wrong_action(s["wrong"], s["args"]) if isinstance(s, dict) else describer.action(s)
        for s in record["sequence"]
    ]
    return {"plan": ", ".join(steps)}


def variant(claim: dict) -> str:
    return claim.get("property", "")


CHOICE = ChoiceSpec("validation_bool", "validation_mcq", claims, decide, words, variant)

TASK = Task(
    "val",
    "validation_gen",
    "index of the first inapplicable action",
    parse_index,
    score,
    to_responses,
    validate,
    generate,
    accepts=on_plan_before_goal,
    choice=CHOICE,
)
