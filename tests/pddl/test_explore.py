"""acpgen.pddl.explore: an exploration read off an earlier one of the same problem (another question's grounding,
its atoms numbered apart) must be the exploration that generating the successors gives: the same states in the
same order, the same successor lists, the same bound reached."""

from __future__ import annotations

import random
from collections import OrderedDict

import pytest
from conftest import generated_problem, random_walk
from ramification_problems import rules_of

import acpgen.pddl.explore as explore_module
from acpgen.config import load_config
from acpgen.pddl.explore import StateSpace, explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.ramifications import variant_domain, variant_problem
from acpgen.pddl.render import render_problem

BOUNDS = (1, 8, 300, 20000)


def _fields(space: StateSpace) -> tuple:
    return space.root, space.states, space.successors, space.index, space.complete


def _forget(monkeypatch) -> None:
    monkeypatch.setattr(explore_module, "_KNOWN", OrderedDict())


def _tasks(domain: str, variant: bool) -> tuple[GroundTask, list[str]]:
    """A generated problem (or its ramification variant, rules in the PDDL) and the texts of 8 of its states."""
    task = generated_problem(domain, 3)
    rng = random.Random(5)
    texts = [render_problem(task, random_walk(task, rng.randint(0, 10), rng)) for _ in range(8)]
    if not variant:
        return task, texts
    rules = rules_of(domain)
    domain_text = variant_domain(task.lifted, rules)
    own = [variant_problem(GroundTask.from_strings(task.lifted.domain_text, text), rules) for text in texts]
    origin = GroundTask.from_strings(domain_text, variant_problem(task, rules))
    assert origin.axioms is not None
    return origin, own


@pytest.mark.parametrize(
    ("domain", "variant"),
    [("ferry", False), ("blocksworld", False), ("goldminer", False), ("visitall", False), ("grippers", True)],
)
def test_an_exploration_read_off_an_earlier_one_is_the_one_explored(domain, variant, monkeypatch):
    problem, texts = _tasks(domain, variant)
    domain_text = problem.lifted.domain_text
    expected = {}
    for bound in BOUNDS:  # each state's exploration from its own grounding, with nothing to read off
        for n, text in enumerate(texts):
            _forget(monkeypatch)
            own = GroundTask.from_strings(domain_text, text)
            expected[bound, n] = _fields(explore(own, own.init, bound))
    generated = []
    real = GroundTask.successors
    monkeypatch.setattr(GroundTask, "successors", lambda self, state: generated.append(state) or real(self, state))
    read_off = 0
    for bound in BOUNDS:
        _forget(monkeypatch)
        explore(problem, problem.init, bound * 3)  # the problem's own grounding, a larger bound
        for n, text in enumerate(texts):
            own = GroundTask.from_strings(domain_text, text)
            generated.clear()
            space = explore(own, own.init, bound)
            assert _fields(space) == expected[bound, n], (domain, bound, n)
            assert space.task is own and space.states[0] == own.init
            read_off += not generated
    # read off whenever the states were expanded by an earlier exploration: in the reversible domains all of
    # them in the problem's complete exploration at least; goldminer's and visitall's states may lie beyond what
    # the problem's bounded exploration expanded, or need actions it lacks
    assert read_off >= (2 if domain in ("goldminer", "visitall") else len(texts)), (domain, read_off)


def test_another_goal_is_read_off_another_problem_is_not(monkeypatch):
    _forget(monkeypatch)
    task = generated_problem("ferry", 3)
    explore(task, task.init, 20000)
    state = random_walk(task, 4, random.Random(2))
    # the same states and actions with another goal: read off, the goal distances those of its own goal
    changed_goal = render_problem(task, state, goal=(task.init & ~task.static_mask, 0))
    other_goal = GroundTask.from_strings(task.lifted.domain_text, changed_goal)
    read = explore_module._read_off(other_goal, other_goal.init, 20000)
    assert read is not None
    _forget(monkeypatch)
    own = explore(other_goal, other_goal.init, 20000)
    assert _fields(read) == _fields(own) and read.goal_distances() == own.goal_distances()
    assert read.optimal_cost() != explore(task, state, 20000).optimal_cost()  # the goal changed what it asks
    # other objects: another problem
    other = generated_problem("ferry", 3, load_config().domain("ferry").sizes[1])
    assert other.lifted.objects != task.lifted.objects
    assert explore_module._read_off(other, other.init, 20000) is None
    # the same problem ground with fewer actions (a goldminer state after the gold is held cannot reach all
    # the actions of the initial state's grounding) is not read off either
    miner = generated_problem("goldminer", 3)
    explore(miner, miner.init, 20000)
    rng = random.Random(4)
    for _ in range(40):
        text = render_problem(miner, random_walk(miner, rng.randint(3, 12), rng))
        later = GroundTask.from_strings(miner.lifted.domain_text, text)
        if later.action_names != miner.action_names:
            assert explore_module._read_off(later, later.init, 20000) is None
            break
    else:
        pytest.fail("no goldminer state with fewer ground actions than the initial state's")
