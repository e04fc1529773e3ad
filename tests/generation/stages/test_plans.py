"""The plans stage: top-quality plans read off a small explored state space are K*'s; K* plans the
larger problems within its work budget, and one optimal plan within the same budget is the
fallback when K* finishes nothing, else the diverse planner's first plan (all its plans without a budget)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from conftest import SMALL

from acpgen.config import PlansConfig, load_config
from acpgen.data import DOMAINS_DIR
from acpgen.generation.stages import StageContext, plans
from acpgen.generators import get_generator
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.semantics import is_plan
from acpgen.planners import PlannerResult, Planners, Status


class KstarOverBudget(Planners):
    """K* that never finishes within its budget; asked for the optimal plan, A* is over budget too when
    ``optimal_too``."""

    def __init__(self, optimal_too: bool = False) -> None:
        super().__init__()
        self.optimal_too = optimal_too
        self.limits: list = []

    def top_quality(self, *args, **kwargs):
        return PlannerResult(Status.BUDGET, message="simulated: K* over its budget")

    def optimal(self, domain, problem, limits, check=False):
        self.limits.append(limits)
        if self.optimal_too:
            return PlannerResult(Status.BUDGET, message="simulated: A* over its budget")
        return super().optimal(domain, problem, limits, check)

    def diverse(self, domain, problem, k, limits):
        self.limits.append(limits)
        assert k == 1  # its first plan: later iterations would end by the clock
        return super().diverse(domain, problem, k, limits)


@pytest.mark.parametrize("optimal_too", [False, True])
def test_a_problem_kstar_does_not_finish_gets_one_optimal_plan_else_one_plan_within_the_budget(
    reference_run, optimal_too
):
    config = load_config(SMALL)
    config = config.with_overrides(plans=dataclasses.replace(config.plans, explicit_states=0))  # always K*
    planners = KstarOverBudget(optimal_too)
    ctx = StageContext("ferry", config, reference_run, planners)
    problem = reference_run / "ferry/problems/p002.pddl"
    record = plans.plan_problem(ctx, problem)
    # A* within the budget, the diverse planner's first plan within 4 times it
    assert len(record["plans"]) == 1 and planners.limits[0].work == config.plans.work
    assert [limits.work for limits in planners.limits[1:]] == ([4 * config.plans.work] if optimal_too else [])
    task = GroundTask.from_strings(ctx.domain_text, problem.read_text())
    assert is_plan(task, task.init, record["plans"][0]["actions"])
    if optimal_too:  # the diverse planner's first plan: its cost is no proof of an optimum
        assert record["method"] == "satisficing" and record["optimal_cost"] is None
    else:  # Fast Downward's A* with LM-cut, independently: the optimal cost
        optimal = Planners().optimal(ctx.domain_text, problem.read_text())
        assert record["method"] == "optimal"
        assert record["optimal_cost"] == record["plans"][0]["cost"] == min(optimal.costs)


class OnlySatisficing(Planners):
    """Planners whose optimal and top-quality searches must not be asked; ``solve_fails``: the satisficing
    portfolio finds nothing either (the diverse planner's first plan is the last resort)."""

    def __init__(self, solve_fails: bool = False) -> None:
        super().__init__()
        self.solve_fails = solve_fails
        self.asked: list = []

    def top_quality(self, *args, **kwargs):
        raise AssertionError("K* asked under plans.search: satisficing")

    def optimal(self, *args, **kwargs):
        raise AssertionError("A* asked under plans.search: satisficing")

    def satisficing(self, domain, problem, limits):
        self.asked.append(("satisficing", limits.work, None))
        if self.solve_fails:
            return PlannerResult(Status.BUDGET, message="simulated: over its budget")
        return super().satisficing(domain, problem, limits)

    def diverse(self, domain, problem, k, limits):
        self.asked.append(("diverse", limits.work, k))
        return super().diverse(domain, problem, k, limits)


@pytest.mark.parametrize("solve_fails", [False, True])
def test_a_satisficing_search_gives_one_plan_without_k_star_or_a_star(reference_run, solve_fails):
    config = load_config(SMALL)
    settings = dataclasses.replace(config.plans, explicit_states=0, search="satisficing")
    planners = OnlySatisficing(solve_fails)
    ctx = StageContext("ferry", config.with_overrides(plans=settings), reference_run, planners)
    problem = reference_run / "ferry/problems/p002.pddl"
    record = plans.plan_problem(ctx, problem)
    budget = config.plans.work
    expected = [("satisficing", budget, None)] + ([("diverse", 4 * budget, 1)] if solve_fails else [])
    assert planners.asked == expected
    assert record["method"] == "satisficing" and record["optimal_cost"] is None and len(record["plans"]) == 1
    task = GroundTask.from_strings(ctx.domain_text, problem.read_text())
    assert is_plan(task, task.init, record["plans"][0]["actions"])  # executed by acp's core, apart from the planner


def test_without_a_budget_diverse_planning_is_the_fallback_when_kstar_finds_nothing(reference_run):
    class KstarTimesOut(Planners):
        def top_quality(self, *args, **kwargs):
            return PlannerResult(Status.TIMEOUT, message="simulated K* timeout")

    config = load_config(SMALL)
    config = config.with_overrides(plans=dataclasses.replace(config.plans, explicit_states=0, work=None))
    ctx = StageContext("ferry", config, reference_run, KstarTimesOut())
    record = plans.plan_problem(ctx, reference_run / "ferry/problems/p002.pddl")
    assert record["method"] == "diverse" and record["plans"] and record["optimal_cost"] is None
    task = GroundTask.from_strings(ctx.domain_text, (reference_run / "ferry/problems/p002.pddl").read_text())
    assert all(is_plan(task, task.init, p["actions"]) for p in record["plans"])


def test_small_problems_are_planned_without_a_planner(reference_run):
    class NoPlanner(Planners):
        def top_quality(self, *args, **kwargs):
            raise AssertionError("K* asked for a problem whose state space was explored")

    ctx = StageContext("ferry", load_config(SMALL), reference_run, NoPlanner())
    problem = reference_run / "ferry/problems/p001.pddl"
    record = plans.plan_problem(ctx, problem)
    assert record["method"] == "explicit-top-quality" and record["plans"]
    task = GroundTask.from_strings(ctx.domain_text, problem.read_text())
    costs = [p["cost"] for p in record["plans"]]
    optimal = Planners().optimal(ctx.domain_text, problem.read_text())  # Fast Downward's A*, independently
    assert costs == sorted(costs) and record["optimal_cost"] == min(optimal.costs)
    assert all(is_plan(task, task.init, p["actions"]) for p in record["plans"])


@pytest.mark.parametrize(
    "domain, size",
    [
        ("ferry", {"locations": 3, "cars": 2}),
        ("blocksworld", {"blocks": 4}),
        ("grippers", {"robots": 1, "rooms": 3, "balls": 2}),
        ("swap", {"agents": 3, "index": 4}),
    ],
)
def test_the_plans_read_off_the_state_space_are_the_plans_kstar_finds(domain, size):
    """Where every plan within the quality bound is asked for, the search on the explored graph and K*
    (another procedure, another program) must give the same set of plans."""
    domain_text = (DOMAINS_DIR / domain / "domain.pddl").read_text()
    for seed in (1, 2):
        generator = get_generator(domain)
        problem = generator.render(generator.generate(size, random.Random(seed)))
        task = GroundTask.from_strings(domain_text, problem)
        settings = PlansConfig(quality_bound=1.4, number_of_plans=10_000)
        explicit = plans.explicit_plans(task, settings)
        assert explicit is not None and explicit.plans
        kstar = Planners().top_quality(domain_text, problem, 1.4, k=10_000)
        assert kstar.status == Status.SOLVED
        assert len(kstar.plans) < 10_000  # all of them
        assert set(explicit.plans) == set(kstar.plans)
