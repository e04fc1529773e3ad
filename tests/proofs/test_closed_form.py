"""Closed-form optimal costs (acpgen.proofs.closed_form) against breadth-first exploration, and what is recognised."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from acpgen.evaluation.records import Dataset
from acpgen.evaluation.scoring import score_answer
from acpgen.generators import domain_file, get_generator
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.proofs.closed_form import ferry_cost, ferry_shape, swap_cost, swap_shape
from acpgen.proofs.oracle import Method, Oracle
from acpgen.tasks import ScoreOptions

DEV = Path(__file__).parents[1] / "fixtures" / "acpbench-dev"
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
    assert second._formula is not None
    assert second.optimal_cost().method != Method.FORMULA


# ----- ferry ---------------------------------------------------------------------------------------------------
FERRY = domain_file("ferry").read_text()
FERRY_GEN = get_generator("ferry")


def ferry_problem(locations: int, cars: int, seed: int, partial: bool = False) -> str:
    spec = FERRY_GEN.generate({"locations": locations, "cars": cars}, random.Random(seed))
    text = FERRY_GEN.render(spec)
    if partial:  # a goal for some of the cars only
        head, _ = text.split("(:goal")
        text = f"{head}(:goal (and {' '.join(spec.goal[: max(1, cars - 1)])})))"
    return text


@pytest.mark.parametrize("locations,cars", [(1, 2), (2, 1), (2, 3), (2, 4), (3, 2), (3, 3), (4, 2)])
def test_ferry_cost_is_the_explored_optimum_in_every_state(locations, cars):
    """Every state of whole explored spaces (cars on board, at their goals or not, goals for all cars or some):
    the formula equals the breadth-first distance to the goal, computed without any knowledge of the domain."""
    checked = 0
    for seed in range(4):
        task = GroundTask.from_strings(FERRY, ferry_problem(locations, cars, seed, partial=seed % 2 == 1))
        shape = ferry_shape(task)
        assert shape is not None
        space = explore(task, task.init, 100_000)
        assert space.complete
        for state in space.states:
            assert ferry_cost(task, shape, state) == space.optimal_cost(state), task.state_atoms(state)
        checked += len(space.states)
    assert checked >= 4 * locations  # every ferry position at least


def test_ferry_cost_with_a_car_on_board_bound_elsewhere_by_hand():
    """Ferry at l0 with c0 aboard, bound for l1; c1 waits at l0 for l2 and c2 at l2 for l0. Carrying c0 first:
    debark 1 + its sail 1, then from l1 the legs l0->l2 and l2->l0 (boards and debarks 4, sails 2 + one empty sail
    to l0) = 9. Putting c0 down at l0 first: 7 boards and debarks, the legs l0->l2, l2->l0, l0->l1 in one trail
    from l0 (3 sails) = 10. The optimum is 9, and exploration agrees."""
    problem = (
        "(define (problem p) (:domain ferry) (:objects c0 c1 c2 - car l0 l1 l2 - location)"
        " (:init (on c0) (at c1 l0) (at c2 l2) (at-ferry l0)"
        f" {' '.join(f'(not-eq {a} {b})' for a in ('l0', 'l1', 'l2') for b in ('l0', 'l1', 'l2') if a != b)})"
        " (:goal (and (at c0 l1) (at c1 l2) (at c2 l0))))"
    )
    task = GroundTask.from_strings(FERRY, problem)
    shape = ferry_shape(task)
    assert shape is not None
    assert ferry_cost(task, shape, task.init) == 9
    assert explore(task, task.init, 100_000).optimal_cost(task.init) == 9


def renamed_ferry(text: str) -> str:
    for old, new in (
        ("at-ferry", "p1"), ("empty-ferry", "p2"), ("not-eq", "p3"), ("(at ", "(p4 "), ("(on ", "(p5 "),
        ("sail", "a1"), ("board", "a2"), ("debark", "a3"), ("car", "t1"), ("location", "t2"),
    ):  # fmt: skip
        text = text.replace(old, new)
    return text


def test_an_obfuscated_ferry_is_recognised():
    problem = ferry_problem(3, 3, 5)
    task = GroundTask.from_strings(FERRY, problem)
    twin = GroundTask.from_strings(renamed_ferry(FERRY), renamed_ferry(problem))
    shape = ferry_shape(twin)
    assert shape is not None and (shape.ferry_at, shape.car_at, shape.empty, shape.aboard) == ("p1", "p4", "p2", "p5")
    assert ferry_cost(twin, shape, twin.init) == explore(task, task.init, 100_000).optimal_cost(task.init)


@pytest.mark.parametrize(
    "old,new",
    [
        ("(at ?car ?loc) (at-ferry ?loc) (empty-ferry))", "(at ?car ?loc) (at-ferry ?loc))"),  # no capacity
        ("(and (at ?car ?loc) (empty-ferry) (not (on ?car)))", "(and (at ?car ?loc) (not (on ?car)))"),  # stays full
        ("(and (at-ferry ?to) (not (at-ferry ?from)))", "(and (at-ferry ?to))"),  # the ferry in two places
    ],
)
def test_a_changed_ferry_is_not_recognised(old, new):
    assert old in FERRY
    assert ferry_shape(GroundTask.from_strings(FERRY.replace(old, new, 1), ferry_problem(3, 2, 0))) is None


def test_ferry_without_every_crossing_or_with_other_goals_is_not_recognised():
    problem = ferry_problem(3, 2, 1)
    one_way = problem.replace("(not-eq l2 l0)", "")
    assert one_way != problem
    assert ferry_shape(GroundTask.from_strings(FERRY, one_way)) is None
    ferry_goal = problem.replace("(:goal (and", "(:goal (and (at-ferry l0)")
    assert ferry_shape(GroundTask.from_strings(FERRY, ferry_goal)) is None


def test_acpbench_ferry_next_actions_by_the_formula():
    """The reference dev records' ferry nexta questions (two to three locations, up to 50 cars): the formula gives
    the stored optimal cost (ACPBench's planner's), and re-proving every stored action gives the stored split (the
    large problems' actions that bring the goal closer by the formula, not by a search)."""
    records = [r for r in Dataset.load(DEV / "nexta.gen.json").records.values() if "domain ferry" in r["PDDL_domain"]]
    assert len(records) == 5
    for record in records:
        task = GroundTask.from_strings(record["PDDL_domain"], record["PDDL_problem"])
        shape = ferry_shape(task)
        assert shape is not None
        assert ferry_cost(task, shape, task.init) == int(record["answer"]["opt"])
        for expect, actions in ((1.0, record["answer"]["yes"]), (0.0, record["answer"]["no"])):
            for action in actions:
                verdict = score_answer(record, "nexta", action, ScoreOptions(recheck=True))
                assert verdict.score == expect, (action, verdict)
                if expect and len(shape.cars) > 10:
                    assert verdict.reason.endswith("(formula)"), verdict


def test_the_oracle_takes_only_the_formulas_it_is_given():
    """Given swap's formula only (as the qa stage gives it), the oracle searches a ferry state's cost; given both, the
    formula answers; both costs are the explored one."""
    task = GroundTask.from_strings(FERRY, ferry_problem(3, 5, 2))
    explored = explore(task, task.init, 100_000).optimal_cost(task.init)
    by_formula = Oracle(task, max_states=0).optimal_cost()
    searched = Oracle(task, max_states=0, formulas=("swap",)).optimal_cost()
    assert (by_formula.method, by_formula.cost) == (Method.FORMULA, explored)
    assert searched.method != Method.FORMULA and searched.cost == explored
