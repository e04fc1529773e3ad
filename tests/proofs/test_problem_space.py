"""acpgen.proofs.features.ProblemSpace: one exploration of a problem settles the size and the optimal plan length
of the states asked about in it. Each answer it gives must be the one an exploration of the state's own task
(rendered as the qa stage renders it) gives with the same bound; where it cannot tell, it says so."""

from __future__ import annotations

import random
from collections import OrderedDict

import pytest
from conftest import generated_problem, random_walk
from ramification_problems import rules_of

import acpgen.pddl.explore as explore_module
import acpgen.proofs.features as features_module
from acpgen.config import load_config
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.ramifications import variant_domain, variant_problem
from acpgen.pddl.render import render_problem
from acpgen.proofs.features import MAX_STATES, ProblemSpace, problem_space, state_features

DOMAINS = ("blocksworld", "ferry", "grippers", "logistics", "visitall")


def _problem(domain: str) -> tuple[str, GroundTask]:
    task = generated_problem(domain, 2)
    return task.lifted.domain_text, task


def _walked_states(task: GroundTask, count: int, rng: random.Random) -> list[int]:
    return [random_walk(task, rng.randint(0, 8), rng) for _ in range(count)]


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("bound", [8, 3000])  # smaller than every problem's space; holding the smaller ones
def test_what_the_problems_exploration_settles_is_what_exploring_the_state_gives(domain, bound):
    text, task = _problem(domain)
    problem = ProblemSpace(task, max_states=bound)
    assert problem.space.complete or bound == 8 or domain in ("logistics", "visitall"), domain
    settled = 0
    for state in _walked_states(task, 12, random.Random(7)):
        state_task = GroundTask.from_strings(text, render_problem(task, state))
        own = explore(state_task, state_task.init, bound)
        expected = (len(own.states), own.optimal_cost()) if own.complete else (None, None)
        known = problem.settle(state_task)
        if known is not None:
            settled += 1
            assert known == expected, (domain, bound)
            assert state_features(state_task, known=known) == state_features(state_task, max_states=bound)
    # every state is in a complete exploration; beyond the bound, a state that can return to the initial state
    # is settled: all of them in the reversible domains, few in visitall (a visited cell stays visited)
    assert settled >= (12 if problem.space.complete else 1 if domain == "visitall" else 10), (domain, bound, settled)


def test_a_task_of_another_problem_is_not_settled():
    text, task = _problem("ferry")
    other_text, other = _problem("grippers")
    assert ProblemSpace(task, max_states=3000).settle(other) is None
    assert other_text != text


@pytest.mark.parametrize("domain", ["ferry", "grippers", "blocksworld"])
def test_a_state_with_another_goal_is_settled_with_the_distance_to_that_goal(domain, monkeypatch):
    # text to PDDL asks about a problem's state with another goal: the same graph, the distances to its own goal
    monkeypatch.setattr(explore_module, "_STEPS", OrderedDict())  # each state's task explored afresh below
    text, task = _problem(domain)
    problem = ProblemSpace(task, max_states=3000)
    assert problem.space.complete, domain
    rng = random.Random(3)
    states = _walked_states(task, 10, rng)
    settled = 0
    for state, goal_state in zip(states, reversed(states)):
        changed = render_problem(task, state, goal=(goal_state & ~task.static_mask, 0))
        state_task = GroundTask.from_strings(text, changed)
        assert state_task.lifted.goal != task.lifted.goal or goal_state == task.init
        own = explore(state_task, state_task.init, 3000)
        monkeypatch.setattr(explore_module, "_STEPS", OrderedDict())
        known = problem.settle(state_task)
        assert known == (len(own.states), own.optimal_cost()), domain
        settled += known[1] is not None
    assert settled >= 5, (domain, settled)  # goals of walked states: most of them reachable from the others


@pytest.mark.parametrize("domain", ["ferry", "grippers", "blocksworld"])
def test_a_space_explored_from_a_state_of_a_ramification_variant_settles_the_variants_other_states(domain):
    # The qa stage explores a ramification variant (rules in the PDDL) once per problem, from the first state
    # asked about in it, and settles the other states of that problem in the variant on that exploration.
    text, task = _problem(domain)
    rules = rules_of(domain)
    variant_text = variant_domain(task.lifted, rules)

    def variant(state: int) -> GroundTask:
        return GroundTask.from_strings(
            variant_text, variant_problem(GroundTask.from_strings(text, render_problem(task, state)), rules)
        )

    origin, *others = (variant(state) for state in _walked_states(task, 10, random.Random(11)))
    assert origin.axioms is not None and origin.lifted.domain_text != task.lifted.domain_text
    problem = ProblemSpace(origin, max_states=3000)
    assert problem.space.complete
    for state_task in others:
        own = explore(state_task, state_task.init, 3000)
        assert problem.settle(state_task) == (len(own.states), own.optimal_cost()), domain


@pytest.mark.parametrize("domain", ["goldminer", "ferry", "blocksworld"])
def test_the_count_of_each_state_is_the_number_of_states_it_reaches(domain):
    # The count is shared by the states of a strongly connected component: asked in random order, states of the
    # complete space get the count a breadth-first search from each gives (in goldminer gold picked up and rocks
    # destroyed stay so, and most states reach fewer states than the initial one; in ferry and blocksworld every
    # action can be undone).
    _, task = _problem(domain)
    problem = ProblemSpace(task, max_states=MAX_STATES)
    assert problem.space.complete
    space = problem.space
    positions = list(range(len(space.states)))
    random.Random(5).shuffle(positions)
    counts = {at: space.reachable_size(space.states[at]) for at in positions[:300]}
    assert counts == {at: len(space.reachable_from(at)) for at in positions[:300]}
    assert len(set(counts.values())) > (1 if domain == "goldminer" else 0), domain


def test_one_exploration_per_problem_in_a_process():
    # problem_space keeps a problem's exploration for its other states (of any task of the run, with the problem's
    # goal or another), not for another problem: other objects are explored on their own.
    text, task = _problem("grippers")
    rng = random.Random(3)
    first = problem_space(task)
    for state in _walked_states(task, 4, rng):
        state_task = GroundTask.from_strings(text, render_problem(task, state))
        assert problem_space(state_task) is first
        own = explore(state_task, state_task.init, MAX_STATES)
        assert first.settle(state_task) == ((len(own.states), own.optimal_cost()) if own.complete else (None, None))
    changed = GroundTask.from_strings(text, render_problem(task, task.init, goal=(task.init & ~task.static_mask, 0)))
    assert problem_space(changed) is first
    bigger = generated_problem("grippers", 2, load_config().domain("grippers").sizes[1])
    assert bigger.lifted.objects != task.lifted.objects and problem_space(bigger) is not first


def test_keeping_the_explorations_does_not_make_the_lists_of_one_not_yet_listed(monkeypatch):
    # A space past the bound is known to be so before its states are listed (the lists are made when asked for).
    # Counting the states the kept explorations hold, to drop the oldest, must not list them: a bounded search of
    # MAX_STATES states for nothing.
    _, task = _problem("grippers")
    made: list[int] = []

    def search():
        made.append(1)
        return [task.init], [[]]

    lazy = explore_module.StateSpace(task, task.init, None, None, None, complete=False, search=search)
    kept = ProblemSpace.__new__(ProblemSpace)
    kept.space = lazy
    monkeypatch.setattr(features_module, "_SPACES", OrderedDict(other=kept))
    problem_space(task)
    assert lazy.held == 0 and not made
    assert lazy.states == [task.init] and lazy.held == 1 and made == [1]
