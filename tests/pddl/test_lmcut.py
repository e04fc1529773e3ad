"""acpgen.pddl.lmcut: acp's own LM-cut estimate is a lower bound on the optimal plan length, checked on every state
of small problems of the domains without derived predicates against the goal distances of their explored spaces."""

from __future__ import annotations

import pytest
from conftest import generated_problem

from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.lmcut import lmcut

SMALL = {
    "ferry": None,
    "blocksworld": None,
    "grippers": None,
    "logistics": None,
    "depots": None,
    "goldminer": None,  # dead ends: a gold bar destroyed
    "swap": None,
    "satellite": {"satellites": 1, "instruments": 2, "modes": 2, "targets": 2, "observations": 2},
    "rovers": {"rovers": 1, "waypoints": 3, "objectives": 1, "cameras": 1, "goals": 2},
    "visitall": {"x": 3, "y": 3, "holes": 0},
    "floortile": {"rows": 2, "columns": 2, "robots": 1},
}


@pytest.mark.parametrize("domain", list(SMALL))
def test_the_estimate_is_at_most_the_optimal_plan_length_of_every_state(domain):
    task = generated_problem(domain, 2, SMALL[domain])
    space = explore(task, task.init, 20000)
    assert space.complete, domain
    distances = space.goal_distances()
    step = max(1, len(space.states) // 1500)  # every state of the smaller spaces, 1,500 spread over the larger
    for state, distance in list(zip(space.states, distances))[::step]:
        value = lmcut(task, state)
        if distance < 0:  # no plan: any estimate is a lower bound; None only where the relaxation says so too
            continue
        assert value is not None and value <= distance, (domain, value, distance)
        # LM-cut's first cut alone is h^max (unit costs): at least the relaxed layers until the goal holds
        assert value >= _layers(task, state), (domain, value, distance)


def _layers(task: GroundTask, state: int) -> int:
    """h^max with unit costs, written out plainly: how many rounds of applying every action whose precondition (a
    disjunct, negative literals ignored) holds, delete effects ignored, until the goal's atoms hold."""
    reached, rounds = state, 0
    while task.goal_pos & ~reached:
        more = reached
        for action in task.actions:
            if any(reached & pos == pos for pos, _ in action.precondition):
                more |= action.add
        assert more != reached  # the goal is reachable from the states of a plan
        reached, rounds = more, rounds + 1
    return rounds


def test_no_estimate_where_the_goal_is_out_of_reach_of_the_relaxation():
    task = generated_problem("ferry", 2)
    text = task.lifted.domain_text
    problem = (
        "(define (problem p) (:domain ferry) (:objects l0 l1 - location c0 - car)"
        " (:init (at-ferry l0) (empty-ferry) (not-eq l0 l1) (not-eq l1 l0) (at c0 l0)) (:goal (at c0 l1)))"
    )
    reachable = GroundTask.from_strings(text, problem)
    assert lmcut(reachable, reachable.init) == 3  # board, sail, debark: h* is 3, and each is a landmark
    unreachable = GroundTask.from_strings(text, problem.replace("(not-eq l0 l1) (not-eq l1 l0) ", ""))
    assert lmcut(unreachable, unreachable.init) is None  # no sailing between the two locations


@pytest.mark.parametrize("domain", ["ferry", "swap", "logistics", "floortile"])
def test_an_estimate_asked_to_reach_a_bound_stops_there_and_the_task_s_relaxation_is_built_once(domain):
    task = generated_problem(domain, 2, SMALL[domain])
    space = explore(task, task.init, 20000)
    states = space.states[:: max(1, len(space.states) // 60)]
    # estimates of states in turn on one task (its relaxation built once) equal those of each state on a task
    # grounded afresh, whatever the order
    fresh = []
    for state in states:
        again = generated_problem(domain, 2, SMALL[domain])
        fresh.append(lmcut(again, again.atoms.mask(task.atoms.atoms(state))))
    assert [lmcut(task, state) for state in reversed(states)] == fresh[::-1]
    for state, full in zip(states, fresh):
        if full is None:
            continue
        for enough in range(full + 2):
            value = lmcut(task, state, enough)
            # at least the bound once the estimate reaches it, never more than the estimate: a lower bound still
            assert value is not None and value <= full and (value >= enough) == (full >= enough)
            assert value == full or value >= enough
