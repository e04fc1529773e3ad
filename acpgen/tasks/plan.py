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
"""

from __future__ import annotations

import random
from typing import Any

from acpgen.config import QAConfig
from acpgen.nl.plan_steps import read_steps
from acpgen.proofs.plans import PlanRun, Step, judge, lifted_verdict, unified_planning_verdict
from acpgen.tasks.base import (
    OK,
    SCORED,
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
    details: dict[str, Any] = {"valid": run.valid, "reaches_goal": run.reaches_goal, "optimal": optimal}
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

    def accepts(self, state: dict[str, Any]) -> bool:
        return goal_ahead(state)

    def parse(self, response: str) -> list[Step]:
        return read_steps(response)

    def read(self, ctx: RecordContext, response: str) -> list[Step]:
        return read_steps(response, ctx.reader)

    def score(self, ctx: RecordContext, answer: list[Step]) -> Verdict:
        run = judge(ctx.task, answer)
        details, _ = plan_details(ctx, run, search=ctx.options.recheck)  # validity needs no optimum
        return Verdict(1.0 if run.is_plan else 0.0, SCORED, run.message, details)

    def validate(self, ctx: RecordContext) -> Check:
        return check_stored_plan(ctx, lowered(ctx.answer))

    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        return generate_plan(ctx)

    def to_responses(self, record: dict[str, Any]) -> list[str]:
        return ["\n".join(record["answer"])]

    def export_answer(self, answer: Any, case: ActionCase) -> Any:
        return [case(a) for a in answer]


TASK = PlanGeneration()
