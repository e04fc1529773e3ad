"""acpgen.proofs.lifted_space (the verification's in-process second proof) against acp's grounded exploration
(acpgen.pddl.explore), two procedures that share only the parsed PDDL: on a small generated problem of every
built-in domain, both find the same reachable states, optimal costs, reachable atoms and actions, landmarks
and an optimal plan's length; and the Oracle decides with it where it would otherwise ask a planner."""

from __future__ import annotations

import pytest
from conftest import explored_problems

from acpgen.generators import DOMAINS
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import Literal, split_canonical
from acpgen.pddl.semantics import is_plan
from acpgen.planners import Planners
from acpgen.proofs.change.world import LiftedWorld
from acpgen.proofs.lifted_space import lifted_goal_reachable, lifted_space
from acpgen.proofs.oracle import Method, Oracle

LIMIT = 3000


class NoPlanners(Planners):
    """Planners that fail the test when asked: the lifted space must decide everything."""

    def __getattribute__(self, name):
        if name in ("solve", "optimal", "optimal_sas", "top_k", "landmarks"):
            raise AssertionError(f"a planner was asked ({name})")
        return super().__getattribute__(name)


# Sizes below the configured ones, for the domains whose smallest configured size has more than LIMIT states
SMALL = {
    "alfworld": {"receptacles": 4, "objects": 2, "goal": 0},
    "floortile": {"rows": 2, "columns": 2, "robots": 1},
    "goldminer": {"rows": 2, "cols": 3},
    "grid": {"x": 3, "y": 3, "shapes": 1, "keys": 1, "locks": 1, "goal_percent": 100},
    "logistics": {"cities": 2, "city_size": 2, "packages": 2, "airplanes": 1},
    "rovers": {"rovers": 1, "waypoints": 3, "objectives": 1, "cameras": 1, "goals": 2},
    "satellite": {"satellites": 1, "instruments": 1, "modes": 1, "targets": 3, "observations": 2},
}


@pytest.fixture(scope="module", params=sorted(DOMAINS))
def pair(request):
    domain = request.param
    for task, grounded in explored_problems(domain, 3, LIMIT, [SMALL[domain]] if domain in SMALL else None):
        if grounded.complete:
            lifted = lifted_space(task.lifted, task.atoms.atoms(task.init), LIMIT)
            assert lifted is not None, f"{domain}: the lifted interpreter finds more than {len(grounded.states)} states"
            return domain, task, grounded, lifted
    pytest.skip(f"{domain}: no configured size has at most {LIMIT} states")


def facts(task: GroundTask, state: int) -> frozenset[str]:
    return frozenset(task.atoms.atoms(state))


def test_both_explorations_reach_the_same_states_with_the_same_costs(pair):
    _, task, grounded, lifted = pair
    assert len(lifted.members) == len(grounded.states)
    distances = grounded.goal_distances()
    for position, state in enumerate(grounded.states):
        node = lifted.node_of(facts(task, state))
        assert node is not None
        assert lifted.optimal_cost(node) == (None if distances[position] < 0 else distances[position])


def test_both_find_the_same_reachable_atoms_and_actions(pair):
    _, task, grounded, lifted = pair
    assert set(task.atoms.atoms(grounded.reachable_atoms)) == set(lifted.atoms)
    applicable = {task.actions[i].name for i in grounded.reachable_action_indices()}
    assert applicable == set(lifted.actions)


def test_both_find_the_same_landmarks(pair):
    _, task, grounded, lifted = pair
    reachable = grounded.reachable_atoms
    for atom in task.atoms.atoms(reachable & ~task.static_mask)[:40]:
        bit = task.atoms.mask([atom])
        assert grounded.goal_reachable_avoiding(bit) == lifted.goal_reachable_avoiding(atom), atom


def test_the_lifted_optimal_plan_is_a_plan_of_the_optimal_cost(pair):
    _, task, grounded, lifted = pair
    plan = lifted.optimal_plan()
    if grounded.optimal_cost() is None:
        assert plan is None
    else:
        assert plan is not None and len(plan) == grounded.optimal_cost() and is_plan(task, task.init, plan)


def test_the_oracle_decides_by_the_lifted_space_without_planners(pair):
    domain, task, grounded, _ = pair
    oracle = Oracle(task, NoPlanners(), max_states=1, lifted_states=LIMIT)
    cost = oracle.optimal_cost()
    assert cost.decided and cost.cost == grounded.optimal_cost()
    assert cost.method in (Method.LIFTED, Method.STATIC, Method.RELAXED)
    assert oracle.goal_reachable().value == (grounded.optimal_cost() is not None)
    unreached = task.atoms.atoms(~grounded.reachable_atoms & ((1 << len(task.atoms.names)) - 1))
    for atom in unreached[:10]:
        assert oracle.atom_reachable(task.atoms.mask([atom])).value is False, (domain, atom)


def test_another_goal_of_the_problem_is_asked_on_the_states_expanded_for_the_first(pair, monkeypatch):
    # text to PDDL asks about a problem's state with another goal: the interpreter's graph of the problem serves
    # it without expanding a state again, and the costs are those to that goal (against the grounded exploration)
    _, task, grounded, _ = pair
    last = grounded.states[-1]  # the farthest state found: its fluent atoms as the goal
    other = task.with_goal(tuple(Literal(*split_canonical(a), True) for a in facts(task, last & ~task.static_mask)))
    expanded = []
    real = LiftedWorld.successors
    monkeypatch.setattr(LiftedWorld, "successors", lambda self, state: expanded.append(state) or real(self, state))
    lifted = lifted_space(other.lifted, task.atoms.atoms(task.init), LIMIT)
    assert lifted is not None and not expanded
    distances = explore(other, other.init, LIMIT).goal_distances()
    assert distances[grounded.index[last]] == 0
    for position, state in enumerate(grounded.states):
        expected = distances[position]
        assert lifted.optimal_cost(lifted.node_of(facts(task, state))) == (None if expected < 0 else expected)


def test_a_plan_exists_where_the_grounded_distances_say_so_by_the_goal_search_and_the_explored_space(pair):
    # whether the goal is reachable from a state, by the lifted interpreter's search that stops at the first goal
    # state and by a complete grounded space without its distances: as the grounded exploration's distances from
    # the problem's initial state say, for its states (dead ends too, where the domain has them)
    _, task, grounded, _ = pair
    distances = grounded.goal_distances()
    step = max(1, len(grounded.states) // 150)
    for position in range(0, len(grounded.states), step):
        state = grounded.states[position]
        expected = distances[position] >= 0
        assert lifted_goal_reachable(task.lifted, facts(task, state), LIMIT) is expected, position
        assert explore(task, state, LIMIT).goal_reachable() is expected, position
    far = next((p for p, d in enumerate(distances) if d >= 2), None)
    if far is not None:  # one state allowed and no goal among the start's successors: not decided
        assert lifted_goal_reachable(task.lifted, facts(task, grounded.states[far]), 1) is None


def test_the_lifted_space_is_given_within_its_bound_and_refused_past_it(pair):
    # as many states as the grounded exploration found: the space; one fewer allowed: None
    _, task, grounded, _ = pair
    start = task.atoms.atoms(task.init)
    size = len(grounded.states)
    assert lifted_space(task.lifted, start, size) is not None
    if size > 1:
        assert lifted_space(task.lifted, start, size - 1) is None
