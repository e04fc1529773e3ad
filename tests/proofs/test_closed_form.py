"""Closed-form optimal costs (acpgen.proofs.closed_form) against breadth-first exploration, and what is recognised."""

from __future__ import annotations

import random

import pytest

from acpgen.generators import domain_file, get_generator
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.proofs.closed_form import swap_cost, swap_shape
from acpgen.proofs.oracle import Method, Oracle

SWAP = domain_file("swap").read_text()
GEN = get_generator("swap")


def swap_task(n: int, seed: int) -> GroundTask:
    return GroundTask.from_strings(SWAP, GEN.render(GEN.generate({"agents": n, "index": 0}, random.Random(seed))))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_swap_cost_is_the_explored_optimum_in_every_state(n):
    """Every state of whole explored spaces (n! states, up to 120): the formula equals the breadth-first distance
    to the goal, computed by exploration without any knowledge of the domain."""
    for seed in range(3):
        task = swap_task(n, seed)
        shape = swap_shape(task)
        assert shape is not None
        space = explore(task, task.init, 10_000)
        assert space.complete
        assert len(space.states) == [1, 1, 2, 6, 24, 120][n]
        for state in space.states:
            assert swap_cost(task, shape, state) == space.optimal_cost(state)


def test_swap_cost_on_a_larger_problem_by_hand():
    """Six agents whose roles form a 3-cycle, a 2-cycle and a fixed point: 6 - 3 = 3 swaps."""
    agents, roles = ["a", "b", "c", "d", "e", "f"], ["r1", "r2", "r3", "r4", "r5", "r6"]
    holds = dict(zip(agents, ["r2", "r3", "r1", "r5", "r4", "r6"]))
    problem = (
        "(define (problem p) (:domain swap) (:objects a b c d e f - agent r1 r2 r3 r4 r5 r6 - role)"
        f" (:init {' '.join(f'(assigned {a} {r})' for a, r in holds.items())})"
        f" (:goal (and {' '.join(f'(assigned {a} {r})' for a, r in zip(agents, roles))})))"
    )
    task = GroundTask.from_strings(SWAP, problem)
    shape = swap_shape(task)
    assert shape is not None
    assert swap_cost(task, shape, task.init) == 3
    assert explore(task, task.init, 1000).optimal_cost(task.init) == 3


def renamed(text: str) -> str:
    for old, new in (("assigned", "qzx"), ("swap", "op1"), ("agent", "t1"), ("role", "t2"), ("?a1", "?v")):
        text = text.replace(old, new)
    return text


def test_an_obfuscated_swap_is_recognised():
    task = swap_task(4, 1)
    twin = GroundTask.from_strings(
        renamed(SWAP), renamed(GEN.render(GEN.generate({"agents": 4, "index": 0}, random.Random(1))))
    )
    shape = swap_shape(twin)
    assert shape is not None and shape.predicate == "qzx"
    assert swap_cost(twin, shape, twin.init) == explore(task, task.init, 100).optimal_cost(task.init)


@pytest.mark.parametrize(
    "change",
    [
        ("(assigned ?a2 ?r2))", "(assigned ?a2 ?r2) (not (= ?a1 ?a2)))"),  # one more precondition
        ("(not (assigned ?a2 ?r2))", "(not (assigned ?a2 ?r2)) (assigned ?a1 ?r1)"),  # one more effect
        ("(assigned ?a1 ?r2) (assigned ?a2 ?r1)", "(assigned ?a1 ?r2) (assigned ?a2 ?r2)"),  # another effect
    ],
)
def test_a_changed_domain_is_not_recognised(change):
    old, new = change
    assert old in SWAP
    task = GroundTask.from_strings(
        SWAP.replace(old, new, 1), GEN.render(GEN.generate({"agents": 3, "index": 0}, random.Random(0)))
    )
    assert swap_shape(task) is None


def test_partial_goals_and_other_domains_are_not_recognised():
    problem = GEN.render(GEN.generate({"agents": 4, "index": 0}, random.Random(2)))
    head, goal = problem.split("(:goal")
    first_goal = goal[goal.index("(assigned") : goal.index(")", goal.index("(assigned")) + 1]
    partial = GroundTask.from_strings(SWAP, f"{head}(:goal (and {first_goal})))")
    assert len(partial.lifted.goal) == 1
    assert swap_shape(partial) is None
    blocks = get_generator("blocksworld")
    spec = blocks.generate({"blocks": 3}, random.Random(0))
    assert swap_shape(GroundTask.from_strings(domain_file("blocksworld").read_text(), blocks.render(spec))) is None


def test_a_state_outside_the_formula_gets_none():
    """An agent holding two roles (not a state of the problem, but a state acp may be asked about)."""
    task = swap_task(3, 0)
    shape = swap_shape(task)
    assert shape is not None
    extra = next(
        a for a in task.atoms.names if a.startswith("(assigned") and not task.init & (1 << task.atoms.index[a])
    )
    assert swap_cost(task, shape, task.init | 1 << task.atoms.index[extra]) is None


def test_the_oracle_uses_the_formula_for_a_first_opinion_only():
    task = swap_task(5, 3)
    first = Oracle(task, max_states=0).optimal_cost()
    assert first.method == Method.FORMULA
    assert first.cost == explore(task, task.init, 1000).optimal_cost(task.init)
    second = Oracle(task, max_states=0, second_opinion=True)
    assert second._swap is not None
    assert second.optimal_cost().method != Method.FORMULA
