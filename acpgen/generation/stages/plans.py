"""Stage 2, plans: OUT/D/problems/*.pddl -> OUT/D/plans/<problem>.json.

Top-quality plans (quality bound and plan-count bound from pipeline.yaml): read off the explored
state space when it has at most ``plans.explicit_states`` states (no planner process: the small
problems of levels 1-2), otherwise by K* top-quality planning within its work budget
(``plans.work``); a problem K* does not finish within it gets one optimal plan (A* with LM-cut), else
the diverse planner's first plan, each within the same budget, so that what a problem's plans are never
depends on the machine's speed (without a budget, diverse planning is the fallback, within a time limit).
Under ``plans.search: satisficing`` (level 5's default) a problem too large to explore gets one plan of any
length instead: the budgeted satisficing searches' first plan (no K*, no A*), else the diverse planner's.
Every plan is re-executed by acp's own core before it is kept. Problems whose plan file exists and whose
stamp (problem file, plans settings, planner backend and memory, PDDL domain, code) is unchanged
are skipped; a problem without any valid plan gets no file (a rerun tries again) and is reported.
"""

from __future__ import annotations

import dataclasses
import json
import math
from functools import partial
from pathlib import Path

from acpgen.artefacts import atomic_write_text
from acpgen.config import PlansConfig
from acpgen.generation.stages.base import StageContext, StageReport, StageWork, Unit
from acpgen.generation.stamps import digest_of, input_digests
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.semantics import is_plan
from acpgen.planners import Limits, PlannerResult, Status


def _valid(task: GroundTask, result: PlannerResult) -> list[list[str]]:
    plans = {tuple(p) for p in result.plans}
    return [list(p) for p in sorted(plans, key=lambda p: (len(p), p)) if is_plan(task, task.init, list(p))]


def explicit_plans(task: GroundTask, settings: PlansConfig) -> PlannerResult | None:
    """The top-quality plans of a problem whose reachable state space has at most
    ``settings.explicit_states`` states, read off the explored graph (every plan of cost at most
    ``quality_bound`` times the optimal cost, at most ``number_of_plans``, cheapest first and then in
    the order of their action names): the answer K* gives, up to which plans of equal cost are kept
    when there are more than asked for, without a planner process. None when the space is larger (or
    the plans too many to enumerate in a bounded search): K* then plans."""
    if settings.explicit_states < 1:
        return None
    space = explore(task, task.init, settings.explicit_states)
    if not space.complete:
        return None
    optimal = space.optimal_cost()
    if optimal is None:
        return PlannerResult(Status.UNSOLVABLE, message=f"no plan: all {len(space.states)} reachable states explored")
    found = space.top_quality_plans(math.floor(settings.quality_bound * optimal + 1e-9), settings.number_of_plans)
    if found is None:
        return None
    plans = tuple(tuple(task.actions[i].name for i in plan) for plan in found)
    return PlannerResult(Status.SOLVED, plans, tuple(len(plan) for plan in plans))


def plan_problem(ctx: StageContext, problem: Path) -> dict:
    """The plan record of one problem (``plans`` empty when no valid plan was found)."""
    settings = ctx.config.plans
    domain_text, problem_text = ctx.domain_text, problem.read_text()
    task = GroundTask.from_strings(domain_text, problem_text, str(problem))
    memory = ctx.config.planner.memory_mb
    result = explicit_plans(task, settings)
    if result is not None:
        method = "explicit-top-quality"
    elif settings.search == "satisficing":
        result, plans = _satisficing(ctx, task, problem_text)
        return _plan_record(problem, "satisficing", result, plans, complete=False)
    else:
        planners = ctx.require_planners()
        result = planners.top_quality(
            domain_text,
            problem_text,
            settings.quality_bound,
            k=settings.number_of_plans,
            limits=Limits(settings.time_limit, memory, settings.work),
        )
        method = "kstar-top-quality"
    plans = _valid(task, result)  # every plan re-executed by acp's core, whichever route found it
    complete = result.status == Status.SOLVED
    if not plans and method == "kstar-top-quality":  # an explored space that gives no plan has none
        method, result, plans, complete = _fallback(ctx, task, problem_text)
    return _plan_record(problem, method, result, plans, complete)


def _plan_record(problem: Path, method: str, result: PlannerResult, plans: list, complete: bool) -> dict:
    """The plan file's record; ``complete``: the first plan is optimal (top-quality plans of a finished search come
    in order of cost)."""
    return {
        "problem": problem.stem,
        "method": method,
        "status": result.status.value,
        "message": result.message if not plans else "",
        "optimal_cost": len(plans[0]) if plans and complete else None,
        "plans": [{"actions": p, "cost": len(p)} for p in plans],
    }


#: the work budget of the last resort, one plan of any length, in plans.work: blocksworld with 20 blocks takes the
#: diverse planner's first search 5.2 million (its plan: 108 steps), over a budget that keeps K* and A* short
SATISFICING_FACTOR = 4


def _satisficing(ctx: StageContext, task: GroundTask, problem_text: str) -> tuple[PlannerResult, list]:
    """(result, valid plans) under ``plans.search: satisficing``: the first plan of the satisficing searches
    (:data:`acpgen.planners.suite.SATISFICING_PORTFOLIO`, greedy best-first with FF, each within the work budget),
    else the last resort (:func:`_first_diverse_plan`)."""
    settings = ctx.config.plans
    limits = Limits(settings.time_limit, ctx.config.planner.memory_mb, settings.work)
    result = ctx.require_planners().satisficing(ctx.domain_text, problem_text, limits)
    plans = _valid(task, result)
    return (result, plans) if plans else _first_diverse_plan(ctx, task, problem_text, limits)


def _first_diverse_plan(
    ctx: StageContext, task: GroundTask, problem_text: str, limits: Limits
) -> tuple[PlannerResult, list]:
    """The last resort, (result, valid plans): the diverse planner's first plan (its red-black heuristic search, at
    ease where greedy searches meet dead ends, as on floortile) within :data:`SATISFICING_FACTOR` times the work
    budget (within ``limits`` without one)."""
    budget = limits if limits.work is None else limits.scaled(SATISFICING_FACTOR)
    result = ctx.require_planners().diverse(ctx.domain_text, problem_text, 1, budget)
    return result, _valid(task, result)


def _fallback(ctx: StageContext, task: GroundTask, problem_text: str) -> tuple[str, PlannerResult, list, bool]:
    """(method, result, valid plans, whether the first is optimal) for a problem K* gave no plan: with a work
    budget, one optimal plan (A* with LM-cut) within it, else the last resort (:func:`_first_diverse_plan`);
    without one, diverse planning within the time limit."""
    settings, memory, planners = ctx.config.plans, ctx.config.planner.memory_mb, ctx.require_planners()
    if settings.work is None:
        limits = Limits(settings.diverse_time_limit, memory)
        result = planners.diverse(ctx.domain_text, problem_text, settings.diverse_plans, limits)
        return "diverse", result, _valid(task, result), False
    limits = Limits(settings.time_limit, memory, settings.work)
    result = planners.optimal(ctx.domain_text, problem_text, limits)
    plans = _valid(task, result)
    if plans:
        return "optimal", result, plans, True
    result, plans = _first_diverse_plan(ctx, task, problem_text, limits)
    return "satisficing", result, plans, False


def stamp(ctx: StageContext, problem: Path) -> dict:
    """What the plan file of ``problem`` is made from."""
    planner = ctx.config.planner
    config = {
        "plans": dataclasses.asdict(ctx.config.plans),
        "planner": {"backend": planner.backend, "image": planner.image, "memory_mb": planner.memory_mb},
    }
    return {**ctx.base_stamp(), "config": digest_of(config), "inputs": input_digests(ctx.root, [problem])}


def prepare(ctx: StageContext) -> StageWork:
    """One unit per problem whose plan file is missing or stale."""
    work = StageWork(StageReport("plans", ctx.domain))
    report = work.report
    book = work.keep(ctx.stamp_book("plans"))
    made_from = {problem: stamp(ctx, problem) for problem in ctx.problem_files()}  # before any work

    def commit(problem: Path, record: dict) -> None:
        target = ctx.plans_dir / f"{problem.stem}.json"
        if not record["plans"]:
            report.failed.append(f"{problem.name}: no valid plan ({record['status']}: {record['message']})")
            target.unlink(missing_ok=True)  # a stale plan file must not stay
            return
        atomic_write_text(target, json.dumps(record, indent=1, sort_keys=True) + "\n", durable=False)
        book.record(target.name, target, made_from[problem])
        report.done += 1

    for problem in made_from:
        target = ctx.plans_dir / f"{problem.stem}.json"
        if book.fresh(target.name, target, made_from[problem]):
            report.skipped += 1
        else:
            work.units.append(
                Unit(
                    f"{ctx.domain}/plans/{problem.stem}", plan_problem, (ctx, problem), partial(commit, problem), target
                )
            )

    def finish() -> None:
        report.items = sum(len(json.loads(p.read_text())["plans"]) for p in sorted(ctx.plans_dir.glob("*.json")))

    work.finish = finish
    return work
