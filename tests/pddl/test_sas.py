"""Optimal costs from acp's own SAS encoding (acpgen/pddl/sas.py) against exhaustive exploration.

For a small problem of every domain the whole reachable state space is explored; breadth-first
goal distances give h* of every state independently of any planner. Fast Downward's A* on the SAS
task written from acp's grounding must find exactly that cost (or prove unsolvability) from
states spread over the space, and the encoding must refuse what it cannot answer exactly.
"""

from __future__ import annotations

import random

import pytest
from test_axioms import DOMAIN as AXIOM_DOMAIN
from test_axioms import PROBLEM as AXIOM_PROBLEM

from acpgen.generators import DOMAINS, get_generator
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.sas import sas_query
from acpgen.pddl.semantics import relaxed_reachable
from acpgen.planners import Limits, PlannerResult, Planners, Status
from acpgen.proofs.oracle import Method, Oracle


def _small_task(domain: str) -> GroundTask:
    generator = get_generator(domain)
    problem = generator.render(generator.generate(generator.example_sizes[0], random.Random(3)))
    return GroundTask.from_strings(generator._domain_text, problem, f"{domain} example")


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_sas_optimal_costs_are_the_explored_goal_distances(domain):
    task = _small_task(domain)
    space = explore(task, task.init, 20000)
    assert space.complete, f"{domain}: the example problem is too large to explore"
    covered = relaxed_reachable(task, task.init)[0]
    planners = Planners()
    rng = random.Random(5)
    states = [space.states[0], *rng.sample(space.states, min(6, len(space.states)))]
    costs = []
    for state in states:
        sas = sas_query(task, state, task.goal_pos, task.goal_neg, covered)
        assert sas is not None
        result = planners.optimal_sas(sas, Limits(time=30))
        expected = space.optimal_cost(state)
        if expected is None:
            assert result.status == Status.UNSOLVABLE, (domain, result.message)
        else:
            assert result.status == Status.SOLVED, (domain, result.message)
            assert len(result.plans[0]) == expected
            # the plan is a plan of the task: acp's own semantics execute it to a goal state
            reached = state
            for name in result.plans[0]:
                action = task.action(name)
                assert action is not None and action.applicable(reached), name
                reached = action.apply(reached)
            assert task.is_goal(reached)
        costs.append(expected)
    assert any(c is not None and c > 0 for c in costs)


def test_the_oracle_asks_the_sas_route_and_gets_the_explored_cost():
    task = _small_task("blocksworld")
    space = explore(task, task.init, 20000)
    calls = []
    planners = Planners()
    original = planners.optimal_sas

    def counted(sas, limits, check=False):
        calls.append(sas)
        return original(sas, limits, check)

    planners.optimal_sas = counted  # type: ignore[method-assign]
    oracle = Oracle(task, planners, max_states=1)  # too small to explore: the planner decides
    state = next(s for s in reversed(space.states) if space.optimal_cost(s))
    decision = oracle.optimal_cost(state)
    assert (decision.cost, decision.decided, decision.method) == (space.optimal_cost(state), True, Method.PLANNER)
    assert len(calls) == 1


def test_states_outside_the_grounding_and_tasks_with_rules_are_refused():
    task = _small_task("logistics")  # a truck cannot leave its city: some at-atoms are never reachable
    covered = relaxed_reachable(task, task.init)[0]
    bits_outside = [task.atom_id(a) for a in task.fluent_atoms() if not covered >> task.atom_id(a) & 1]
    assert bits_outside, "the example problem has no unreachable atom"
    assert sas_query(task, task.init | 1 << bits_outside[0], task.goal_pos, 0, covered) is None
    assert sas_query(task, task.init, task.goal_pos, 0, covered) is not None
    with_rules = GroundTask.from_strings(AXIOM_DOMAIN, AXIOM_PROBLEM)
    assert with_rules.axioms is not None
    assert sas_query(with_rules, with_rules.init, with_rules.goal_pos, 0, -1) is None


def test_a_second_opinion_asks_the_second_configuration_first_and_the_first_where_it_runs_out_of_time():
    task = _small_task("blocksworld")
    space = explore(task, task.init, 20000)
    state = next(s for s in reversed(space.states) if space.optimal_cost(s))
    asked: list[tuple[bool, float]] = []
    planners = Planners()
    original = planners.optimal_sas

    def second_times_out(sas, limits, check=False):
        asked.append((check, limits.time))
        return PlannerResult(Status.TIMEOUT, message="simulated") if check else original(sas, limits, check)

    planners.optimal_sas = second_times_out  # type: ignore[method-assign]
    oracle = Oracle(task, planners, max_states=1, limits=Limits(time=8.0), second_opinion=True)
    decision = oracle.optimal_cost(state)
    assert (decision.cost, decision.decided) == (space.optimal_cost(state), True)
    assert asked == [(True, 2.0), (False, 8.0)]  # a quarter of the budget for the second configuration
    asked.clear()

    def recorded(sas, limits, check=False):
        asked.append((check, limits.time))
        return original(sas, limits, check)

    planners.optimal_sas = recorded  # type: ignore[method-assign]
    fresh = Oracle(task, planners, max_states=1, limits=Limits(time=8.0), second_opinion=True)
    assert fresh.optimal_cost(state).cost == space.optimal_cost(state) and asked == [(True, 2.0)]


def _recording(planners: Planners, asked: list[bool], second_times_out: bool = False, wrong=None):
    """optimal_sas that records which configuration is asked (``check``: the second) and can make the second one
    run out of time or the first one return ``wrong(plan)`` instead of its plan."""
    original = planners.optimal_sas

    def answer(sas, limits, check=False):
        asked.append(check)
        if check and second_times_out:
            return PlannerResult(Status.TIMEOUT, message="simulated")
        result = original(sas, limits, check)
        if wrong is not None and not check and result.plans:
            return PlannerResult(result.status, plans=(wrong(result.plans[0]),), costs=result.costs)
        return result

    return answer


def test_once_the_second_configuration_ran_out_of_time_on_the_oracles_state_it_is_not_asked_about_others():
    task = _small_task("ferry")
    space = explore(task, task.init, 20000)
    state = next(s for s in space.states if (space.optimal_cost(s) or 0) >= 3 and len(task.successors(s)) >= 3)
    successors = [action.apply(state) for _, action in task.successors(state)]
    asked: list[bool] = []
    planners = Planners()
    planners.optimal_sas = _recording(planners, asked, second_times_out=True)  # type: ignore[method-assign]
    # a successor first: the second configuration is tried again for the next state
    oracle = Oracle(task, planners, max_states=1, search_states=0, second_opinion=True, state=state)
    assert oracle.optimal_cost(successors[0]).cost == space.optimal_cost(successors[0])
    assert asked == [True, False]
    asked.clear()
    assert oracle.optimal_cost().cost == space.optimal_cost(state)
    assert asked == [True, False]
    asked.clear()
    # then the oracle's own state ran out of time: the others go to the first configuration alone
    for successor in successors[1:]:
        assert oracle.optimal_cost(successor).cost == space.optimal_cost(successor)
    assert asked and not any(asked)


@pytest.mark.parametrize("domain", ["blocksworld", "ferry", "grippers"])
def test_a_second_opinion_proves_a_successor_as_close_as_its_bound_by_executing_the_first_configurations_plan(domain):
    task = _small_task(domain)
    space = explore(task, task.init, 20000)
    states = [s for s in space.states if (space.optimal_cost(s) or 0) >= 2][:6]
    closer = farther = 0
    for state in states:
        bound = space.optimal_cost(state)
        for _, action in task.successors(state):
            successor = action.apply(state)
            expected = space.optimal_cost(successor)
            asked: list[bool] = []
            planners = Planners()
            planners.optimal_sas = _recording(planners, asked)  # type: ignore[method-assign]
            oracle = Oracle(task, planners, max_states=1, search_states=0, second_opinion=True, state=state)
            decision = oracle.optimal_cost(successor, at_least=bound - 1)
            assert decision.decided and decision.cost == expected, (domain, decision)
            if expected == bound - 1:  # the first configuration's plan is the proof: the second is not asked
                assert decision.method == Method.PLAN and asked == [False]
                closer += 1
            else:  # a longer plan proves nothing: the second configuration decides
                assert decision.method == Method.PLANNER and asked == [False, True]
                farther += 1
    assert closer and farther, (closer, farther)


def test_a_plan_that_does_not_reach_the_goal_is_no_proof_of_a_successors_cost():
    task = _small_task("blocksworld")
    space = explore(task, task.init, 20000)
    state = next(s for s in space.states if (space.optimal_cost(s) or 0) >= 3)
    successor = next(
        a.apply(state)
        for _, a in task.successors(state)
        if space.optimal_cost(a.apply(state)) == space.optimal_cost(state) - 1
    )
    asked: list[bool] = []
    planners = Planners()
    # the first configuration's plan with its steps reversed: as long, but it does not apply or reach the goal
    planners.optimal_sas = _recording(planners, asked, wrong=lambda plan: tuple(reversed(plan)))  # type: ignore[method-assign]
    oracle = Oracle(task, planners, max_states=1, search_states=0, second_opinion=True, state=state)
    decision = oracle.optimal_cost(successor, at_least=space.optimal_cost(state) - 1)
    assert decision.cost == space.optimal_cost(successor) and decision.method == Method.PLANNER
    assert asked == [False, True]


@pytest.mark.parametrize("domain", ["blocksworld", "ferry", "floortile", "logistics"])
def test_a_query_written_over_a_body_kept_from_earlier_queries_is_the_query_written_afresh(domain):
    """The variables and operators are written once per task and set of mentioned atoms, for the many goals an
    oracle asks about: each query's text, written after many others over the same task, is the text written with
    nothing kept (goals of fluent and of static atoms, positive and negative, from states along walks)."""
    from acpgen.pddl import sas

    task = _small_task(domain)
    covered = relaxed_reachable(task, task.init)[0]
    rng = random.Random(11)
    atoms = [1 << i for i in range(len(task.atoms.names))]
    queries = []
    for _ in range(30):
        state = rng.choice(explore(task, task.init, 200).states)
        pos = sum(set(rng.sample(atoms, rng.randint(1, 3))))
        queries.append((state, pos, rng.choice([0, rng.choice(atoms)]) & ~pos))
    kept = [sas_query(task, state, pos, neg, covered) for state, pos, neg in queries]
    afresh = []
    for state, pos, neg in queries:
        sas._BODIES.clear()
        afresh.append(sas_query(task, state, pos, neg, covered))
    assert kept == afresh and sum(text is not None for text in kept) >= 10
