"""plan: write a plan that reaches the goal from the current state.

The answer is read step by step (:mod:`acpgen.nl.plan_steps`) and executed on the grounded task
(:func:`acpgen.proofs.plans.judge`). Score 1 when every step names an action of the task, executes
in turn and the goal holds after the last one; 0 otherwise. Every score row also carries
``valid``, ``reaches_goal``, ``optimal`` (the plan's cost equals the record's proven optimal cost;
None when that cost is unknown), ``cost``, ``optimal_cost`` (the record's stored one; for a plan no longer
than acp's LM-cut bound of the state, its length; searched for by the planners only under ``--recheck``
and by ``optplan``, whose score needs it) and, for reward shaping, ``steps`` (steps
written), ``prefix`` (steps that execute from the start), ``goal_fraction`` (share of the goal's literals true after
them), ``failure`` (the first failure in words) and ``failure_class`` (unreadable_step,
not_executable, goal_not_reached, extra_steps; None for a plan without extra steps).

Records store an optimal plan (``answer``) and its cost (``optimal_cost``): found on the explored
state space (descending h*) or by Fast Downward's optimal search (A* with LM-cut), and re-proven by
the verification route: the lifted interpreter executes the plan, and the optimal cost is decided
again by the lifted interpreter's own exploration (small spaces), else by A* with CEGAR (or, where that
does not finish within a quarter of the budget, A* with LM-cut again). `acp validate`
(``external_validators``) also asks unified-planning's validator where it is installed and can read
the domain. Costs are plan lengths: acp's domains have unit action costs.

**No plan exists.** A record about a state from which no plan reaches the goal has ``"solvable": false``
(absent on every other record), ``"answer": null`` and no ``optimal_cost``; its question is the same. An answer
may say that no plan exists (:func:`acpgen.nl.plan_steps.read_plan`, the one reading rule: the answer's final
statement, a plan or that statement, counts). On such a record that answer scores 1 and a plan scores 0, every
partial-credit measure (``prefix``, ``goal_fraction``) 0 too, its reason naming the first step that fails or a
goal literal false at the end. On a record from whose state a plan exists "no plan exists" scores 0, the reason
saying how a plan is known: the record's stored plan, else one found (:func:`plan_exists`). Every score row of
plan and optplan says what the answer said, ``says_no_plan`` (True or False). Where answers are re-proven (a
record acp did not prove, ``--recheck``) that no plan exists is proven by two procedures
(:func:`acpgen.proofs.unsolvable.prove_unsolvable`); an answer whose verdict needs a proof that did not
finish is ``undecided``, never a silent 0. `acp validate` re-proves an unsolvable record the same way.
"""

from __future__ import annotations

import random
from typing import Any

from acpgen.config import QAConfig
from acpgen.nl.plan_steps import NO_PLAN_ANSWER, NoPlan, read_plan
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import split_canonical
from acpgen.proofs.plans import PlanRun, Step, execute, judge, lifted_verdict, unified_planning_verdict
from acpgen.proofs.unsolvable import Unsolvable, prove_unsolvable
from acpgen.schema import is_unsolvable
from acpgen.tasks.base import (
    OK,
    SCORED,
    UNDECIDED,
    UNPROVEN,
    WRONG,
    ActionCase,
    Check,
    QAItem,
    RecordContext,
    Task,
    Verdict,
    goal_ahead,
    lowered,
)

#: what an lm-eval prompt asks a plan answer to look like (the cost-optimal variant shares it)
PLAN_INSTRUCTION = (
    "Write the plan as one action per line, each in parentheses like (name arg1 arg2), in the order they "
    "are applied. Give only the plan."
)


def _best_cost(ctx: RecordContext, run: PlanRun, search: bool) -> tuple[int | None, str]:
    """The optimal cost from the record's state (None when unknown, with why): the stored ``optimal_cost`` (not
    under ``--recheck``); for an answer that is a plan, its length when acp's LM-cut bound of the state proves it
    optimal, else, with ``search``, the planners' optimum."""
    stored = ctx.record.get("optimal_cost")
    if stored not in (None, "") and not ctx.recheck:
        return int(stored), ""
    if not run.is_plan:
        return None, ""
    if ctx.oracle.cost_at_least(ctx.oracle.state, run.length):
        return run.length, ""
    if not search:
        return None, "the record stores no optimal cost (optplan, or --recheck, searches for it)"
    decision = ctx.oracle.optimal_cost()
    if not decision.decided:
        return None, f"optimal cost undecided: {decision.detail}"
    if decision.cost is None:
        return None, "no plan exists from the state"
    return decision.cost, ""


def plan_details(ctx: RecordContext, run: PlanRun, search: bool = True) -> tuple[dict[str, Any], str]:
    """The score row's fields for a judged plan, and why ``optimal`` is None when it is.

    Optimality is a property of a plan: an answer that is no plan is not optimal, and its row carries
    ``optimal_cost`` only when the record stores it. A plan no longer than acp's LM-cut lower bound of the
    state is optimal without a search (the plan proves the upper bound, the estimate the lower one); else
    the optimal cost is the record's stored one or, with ``search``, the planners'."""
    best, why = _best_cost(ctx, run, search)
    cost = run.length if run.valid else None
    optimal = None if best is None and run.is_plan else (run.is_plan and best is not None and run.length <= best)
    details: dict[str, Any] = {
        "valid": run.valid,
        "reaches_goal": run.reaches_goal,
        "optimal": optimal,
        "says_no_plan": False,
    }
    # the measures (None only for the flags: undecided); a value that does not exist is left out
    measures = {
        "cost": cost,
        "optimal_cost": best,
        "steps": run.length,
        "prefix": run.prefix,
        "goal_fraction": round(run.goal_fraction, 4),
        "failure": None if run.failure is None else run.message,
        "failure_class": None if run.failure is None else run.failure.value,
    }
    return details | {k: v for k, v in measures.items() if v is not None}, why


def _proof(ctx: RecordContext) -> Unsolvable:
    """Whether no plan exists from the record's state, by two procedures (:func:`prove_unsolvable`), asked once
    per record and, when they settle nothing, once more with the planners' budget times ``retry_factor``."""
    proof = ctx.memo.get("unsolvable")
    if not isinstance(proof, Unsolvable):
        limits, factor = ctx.options.limits, ctx.options.retry_factor
        proof = prove_unsolvable(ctx.task, ctx.planners, limits=limits)
        if not proof.proven and not proof.solvable and factor > 1:
            proof = prove_unsolvable(ctx.task, ctx.planners, limits=limits.scaled(factor))
        ctx.memo["unsolvable"] = proof
    return proof


#: the procedures of :func:`prove_unsolvable` that can find a plan, in words
_FOUND_BY = {
    "explored": "acp's exploration of the reachable states",
    "lifted": "the lifted interpreter's exploration",
    "planner": "Fast Downward's search",
    "astar": "Fast Downward's A*",
}


def _found(proof: Unsolvable) -> str:
    """Why a task proven solvable has a plan: the procedure that found one."""
    name = proof.by[0] if proof.by else "a search"
    return f"a plan exists: {_FOUND_BY.get(name, name)} found one"


def _stored_steps(plan: list[str]) -> list[Step]:
    steps = []
    for text in lowered(plan):
        try:
            name, args = split_canonical(text)
        except IndexError:
            steps.append(Step(text, None))
            continue
        steps.append(Step(text, name, tuple(args)))
    return steps


def plan_exists(ctx: RecordContext) -> tuple[bool | None, str]:
    """Whether a plan reaches the goal from the record's state (None: undecided), and how that is known.

    Trusted (a record acp proved, not under ``--recheck``): ``"solvable": false`` says none exists, a stored
    plan that one does. Re-proven: the stored plan is executed (a plan proves that one exists), else acp's oracle
    looks for a plan (a record that does not say it is unsolvable), else :func:`prove_unsolvable` proves that none
    exists by two procedures or finds one."""
    record, stored = ctx.record, ctx.record.get("answer")
    if is_unsolvable(record):
        if not ctx.recheck:
            return False, "no plan exists from the state"
    elif isinstance(stored, list) and stored:
        known = f"a plan exists: the record's stored plan has {len(stored)} steps"
        if not ctx.recheck or judge(ctx.task, _stored_steps(stored)).is_plan:
            return True, known
    if not is_unsolvable(record):
        decision = ctx.oracle.goal_reachable()
        if decision.value:
            return True, f"a plan exists: the goal is reachable from the state ({decision.method})"
    proof = _proof(ctx)
    if proof.solvable:
        return True, _found(proof)
    if proof.proven:
        return False, f"no plan exists from the state (proven: {proof.summary})"
    return None, f"whether a plan exists is undecided: {proof.summary}"


def score_no_plan(ctx: RecordContext) -> Verdict:
    """The answer "no plan exists": 1 when no plan reaches the goal from the record's state (:func:`plan_exists`),
    0 when one does, undecided when that is not known."""
    exists, why = plan_exists(ctx)
    details = {"says_no_plan": True}
    if exists is None:
        return Verdict(0.0, UNDECIDED, why, details)
    if exists:
        return Verdict(0.0, SCORED, why, details)
    return Verdict(1.0, SCORED, f"correct: {why}", details)


def _false_goal_literal(task: GroundTask, steps: list[Step], prefix: int) -> str | None:
    """The first goal literal false after the ``prefix`` steps of a plan that execute."""
    state = task.init
    for number, step in enumerate(steps[:prefix], 1):
        state, _, _ = execute(task, state, step, number)
    missing = task.goal_pos & ~state
    if missing:
        return task.atoms.atoms(missing & -missing)[0]
    present = task.goal_neg & state
    return f"(not {task.atoms.atoms(present & -present)[0]})" if present else None


def score_plan_without_goal(ctx: RecordContext, answer: list[Step], run: PlanRun) -> Verdict | None:
    """A plan offered on a record that says no plan exists (``"solvable": false``): score 0, every partial-credit
    measure 0 (a plan for a goal no plan reaches earns nothing), the reason naming its first failure (a step, or
    a goal literal false at the end); undecided when re-proving cannot settle that no plan exists. None when a plan
    is known to exist after all (the plan itself, or a proof that found one): the answer is scored as on any record."""
    if run.is_plan:
        return None
    exists, why = plan_exists(ctx)
    if exists:
        return None
    details, _ = plan_details(ctx, run, search=False)
    details |= {"prefix": 0, "goal_fraction": 0.0}
    reason = run.message
    if run.valid:  # every step executes: the goal does not hold after the last one
        literal = _false_goal_literal(ctx.task, answer, run.prefix)
        reason += f": {literal} is false" if literal else ""
    return Verdict(0.0, UNDECIDED if exists is None else SCORED, f"{reason}; {why}", details)


def check_unsolvable(ctx: RecordContext) -> Check:
    """Re-prove a record that says no plan exists: it stores no plan and no optimal cost, and two procedures prove
    that no plan reaches the goal (:func:`prove_unsolvable`)."""
    if ctx.record.get("answer") is not None or ctx.record.get("optimal_cost") not in (None, ""):
        return Check(WRONG, "a record that says no plan exists stores no plan and no optimal cost")
    proof = _proof(ctx)
    if proof.solvable:
        return Check(WRONG, _found(proof))
    if not proof.proven:
        return Check(UNPROVEN, proof.summary)
    return Check(OK)


def check_stored_plan(ctx: RecordContext, plan: list[str]) -> Check:
    """Re-prove a stored plan and its optimal cost by the routes that did not produce them."""
    lifted = lifted_verdict(ctx.lifted, plan)
    if not (lifted.executes and lifted.reaches_goal):
        where = f"step {lifted.first_failure + 1} does not execute" if lifted.first_failure is not None else ""
        return Check(WRONG, f"the lifted interpreter rejects the stored plan: {where or 'the goal does not hold'}")
    external = (
        unified_planning_verdict(ctx.record["PDDL_domain"], ctx.record["PDDL_problem"], plan)
        if ctx.options.external_validators
        else None
    )
    if external is not None and not external.reaches_goal:
        return Check(WRONG, "unified-planning's validator rejects the stored plan")
    decision = ctx.oracle.optimal_cost()
    if not decision.decided:
        return Check(UNPROVEN, f"optimal cost: {decision.detail}")
    stored = ctx.record.get("optimal_cost")
    if decision.cost != len(plan) or (stored not in (None, "") and int(stored) != decision.cost):
        return Check(WRONG, f"optimal cost is {decision.cost}; stored plan has {len(plan)} steps, stored cost {stored}")
    return Check(OK)


def generate_plan(ctx: RecordContext) -> dict[str, Any] | None:
    """An optimal plan of at least two steps from the record's state and its cost, or None."""
    if ctx.task.is_goal(ctx.task.init):
        return None
    decision, plan = ctx.oracle.optimal_plan()
    if not decision.decided or plan is None or len(plan) < 2:
        return None
    return {"answer": plan, "optimal_cost": len(plan)}


class PlanGeneration(Task):
    name = "plan"
    gen_group = "plan_generation_gen"
    family = "plan"
    description = "a plan that reaches the goal (partial credit: executable prefix, goal share)"
    context_parts = ("goal", "actions")
    instruction = PLAN_INSTRUCTION
    unsolvable_formats = ("gen",)

    def accepts(self, state: dict[str, Any]) -> bool:
        return goal_ahead(state)

    def parse(self, response: str) -> list[Step]:
        """The plan's steps, or :class:`~acpgen.nl.plan_steps.NoPlan` (the answer says none exists)."""
        return read_plan(response)

    def read(self, ctx: RecordContext, response: str) -> list[Step]:
        return read_plan(response, ctx.reader)

    def score(self, ctx: RecordContext, answer: list[Step]) -> Verdict:
        if isinstance(answer, NoPlan):
            return score_no_plan(ctx)
        run = judge(ctx.task, answer)
        if is_unsolvable(ctx.record):
            verdict = score_plan_without_goal(ctx, answer, run)
            if verdict is not None:
                return verdict
        details, _ = plan_details(ctx, run, search=ctx.options.recheck)  # validity needs no optimum
        return Verdict(1.0 if run.is_plan else 0.0, SCORED, run.message, details)

    def validate(self, ctx: RecordContext) -> Check:
        if is_unsolvable(ctx.record):
            return check_unsolvable(ctx)
        return check_stored_plan(ctx, lowered(ctx.answer))

    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        return generate_plan(ctx)

    def generate_unsolvable(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        """The stored fields of a question about a state from which no plan reaches the goal (the qa stage asks
        it for such states, once they are proven so): no plan, no optimal cost."""
        return {"answer": None, "solvable": False}

    def to_responses(self, record: dict[str, Any]) -> list[str]:
        if is_unsolvable(record):
            return [NO_PLAN_ANSWER]
        return ["\n".join(record["answer"])]

    def export_answer(self, answer: Any, case: ActionCase) -> Any:
        return None if answer is None else [case(a) for a in answer]


TASK = PlanGeneration()
