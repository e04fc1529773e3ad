"""acpgen.pddl.mutexes: every claim checked against the whole reachable state space (explored here), on small
problems of several domains; and the facts the proofs must find, derived by hand on tiny problems."""

from __future__ import annotations

import itertools
import random

import pytest

from acpgen.config import load_config
from acpgen.data import DOMAINS_DIR
from acpgen.generators import get_generator
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import bits
from acpgen.pddl.mutexes import mutexes
from acpgen.pddl.render import render_problem

DOMAINS = ["blocksworld", "depots", "grippers", "ferry", "floortile", "visitall", "logistics", "goldminer"]


def _small_tasks():
    config = load_config(None)
    for name in DOMAINS:
        generator = get_generator(name)
        size = config.domains[name].sizes[0]
        for seed in range(2):
            text = generator.render(generator.generate(size, random.Random(f"mutexes/{name}/{seed}")))
            yield pytest.param(name, generator._domain_text, text, id=f"{name}-{seed}")


def _space(task: GroundTask) -> list[int]:
    space = explore(task, task.init, 30_000)
    if not space.complete:
        pytest.skip("state space too large to check by brute force")
    return space.states


@pytest.mark.parametrize("name,domain,problem", list(_small_tasks()))
def test_claims_hold_in_every_reachable_state(name, domain, problem):
    task = GroundTask.from_strings(domain, problem)
    found = mutexes(task)
    assert found is not None
    states = _space(task)
    # every pair of atoms that holds together in a reachable state is an h² pair
    for state in states:
        changing = state & found.changing
        assert changing & ~found.reachable == 0
        for i in bits(changing):
            assert changing & ~found.row(i) == 0, (name, task.atoms.atoms(1 << i))
    # the closure of the problem's goal: what the proofs claim implied is true in every reachable goal state,
    # and what they exclude is false in all of them
    goal_states = [s for s in states if task.is_goal(s)]
    if not goal_states:
        return
    always, ever = -1, 0
    for state in goal_states:
        always, ever = always & state, ever | state
    candidates = found.changing & ~task.goal_pos
    implied = found.implied(task.goal_pos, task.goal_neg, candidates)
    assert implied & ~always == 0, task.atoms.atoms(implied & ~always)
    excluded = found.excluded(task.goal_pos, task.goal_neg)
    assert excluded & ever == 0, task.atoms.atoms(excluded & ever)
    # goals of two atoms that no reachable state holds together are refused
    for a, b in itertools.combinations(list(bits(found.changing))[:40], 2):
        if not found.together(1 << a | 1 << b):
            assert not any(s >> a & 1 and s >> b & 1 for s in states)


def _h2_by_definition(task: GroundTask) -> tuple[set[int], set[frozenset[int]]]:
    """h²'s reachable atoms and pairs as Haslum and Geffner define them, on sets of atom numbers: start from the
    initial state's atoms and pairs; an action (one per precondition disjunct, negative preconditions ignored)
    whose precondition atoms are pairwise reached reaches its add atoms, the pairs among them, and each pair of an
    added atom with a reached atom it does not delete that is paired with every precondition atom."""
    changing = 0
    for action in task.actions:
        changing |= action.add | action.delete
    atoms = set(bits(task.init & changing))
    pairs = {frozenset((a, b)) for a in atoms for b in atoms}
    grown = True
    while grown:
        size = len(pairs)
        for action in task.actions:
            added, deleted = list(bits(action.add)), action.delete & ~action.add
            for pos, _ in action.precondition:
                pre = list(bits(pos & changing))
                if not all(frozenset((p, q)) in pairs for p in pre for q in pre):
                    continue
                atoms.update(added)
                pairs.update(frozenset((a, b)) for a in added for b in added)
                for x in list(atoms):
                    if not deleted >> x & 1 and all(frozenset((x, p)) in pairs for p in pre):
                        pairs.update(frozenset((a, x)) for a in added)
        grown = len(pairs) > size
    return atoms, pairs


@pytest.mark.parametrize("name,domain,problem", list(_small_tasks()))
def test_the_pairs_are_h2_by_its_definition(name, domain, problem):
    """The bit-parallel fixpoint (which stores each pair with the atom added and completes the other rows later)
    gives the pairs of the plain definition, from the initial state and from states along a random walk."""
    base = GroundTask.from_strings(domain, problem)
    rng, state = random.Random(name), base.init
    for _ in range(3):  # the initial state, then two states along a random walk (h² from each)
        task = GroundTask.from_strings(domain, render_problem(base, base.static_mask | state))
        found = mutexes(task)
        assert found is not None
        atoms, pairs = _h2_by_definition(task)
        assert found.reachable == sum(1 << a for a in atoms)
        for i in bits(found.changing):
            assert found.row(i) == sum(1 << j for j in bits(found.changing) if frozenset((i, j)) in pairs), (name, i)
        applicable = base.applicable(state)
        if not applicable:
            break
        state = rng.choice(applicable).apply(state)


def _task(domain: str, problem: str) -> GroundTask:
    return GroundTask.from_strings((DOMAINS_DIR / domain / "domain.pddl").read_text(), problem)


def test_a_placed_crate_frees_every_hoist_and_fixes_its_place():
    """Depots, derived by hand: with both crates on pallets in the goal, no hoist can be lifting one (each
    crate is on a pallet), so every hoist is available, the pallets without a crate are clear, and each
    crate is at its pallet's depot; which pallet a crate sits on is not implied."""
    problem = """(define (problem d) (:domain depots)
      (:objects depot0 depot1 - depot truck0 - truck pallet0 pallet1 pallet2 - pallet crate0 crate1 - crate
                hoist0 hoist1 - hoist)
      (:init (at pallet0 depot0) (at pallet1 depot1) (at pallet2 depot1) (at truck0 depot0)
             (at hoist0 depot0) (at hoist1 depot1) (available hoist0) (available hoist1)
             (at crate0 depot0) (on crate0 pallet0) (at crate1 depot1) (on crate1 pallet1)
             (clear crate0) (clear crate1) (clear pallet2))
      (:goal (and (on crate0 pallet2) (on crate1 pallet1))))"""
    task = _task("depots", problem)
    found = mutexes(task)
    implied = found.implied(task.goal_pos, task.goal_neg, found.changing & ~task.goal_pos)
    expected = {
        "(available hoist0)",
        "(available hoist1)",
        "(clear pallet0)",
        "(clear crate0)",
        "(clear crate1)",
        "(at crate0 depot1)",
        "(at crate1 depot1)",
    }
    assert set(task.atoms.atoms(implied)) == expected
    # and by brute force, these are exactly the closure's changing atoms beyond the goal
    always = -1
    for state in _space(task):
        if task.is_goal(state):
            always &= state
    assert set(task.atoms.atoms(always & found.changing & ~task.goal_pos)) == expected


def test_a_stack_three_high_is_beyond_the_pairs():
    """Blocksworld: c on b on a implies a on the table, but only through the three-block cycle a-on-c,
    which pairs of atoms cannot rule out; the proof does not claim it (the exploration settles it)."""
    problem = """(define (problem b) (:domain blocksworld-4ops) (:objects a b c)
      (:init (ontable a) (ontable b) (ontable c) (clear a) (clear b) (clear c) (handempty))
      (:goal (and (on c b) (on b a))))"""
    task = _task("blocksworld", problem)
    found = mutexes(task)
    implied = found.implied(task.goal_pos, task.goal_neg, found.changing & ~task.goal_pos)
    assert "(ontable a)" not in task.atoms.atoms(implied)
    assert "(handempty)" in task.atoms.atoms(implied)
