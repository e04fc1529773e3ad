"""Projections onto a pattern of atoms (acpgen.pddl.projection): a pattern grown until the projection shows a goal
unreachable, on a domain written here; and soundness against exhaustive exploration on built-in problems — wherever
a projection says no goal state is reachable, no reachable state of the task satisfies the goal."""

from __future__ import annotations

import random

import pytest

from acpgen.config import load_config
from acpgen.generators import get_generator
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import Literal, bits, split_canonical
from acpgen.pddl.projection import grow_patterns, projected_goal_reachable

#: the key to the vault lies in the garden, and the hall's door, once behind the robot, opens only with the key that
#: lies in the vault: the robot never gets in, though every relaxation of its moves lets it in
LOCKED = """
(define (domain locked)
  (:requirements :strips :typing)
  (:types room key)
  (:predicates (robot-at ?r - room) (door-open ?r - room) (holding ?k - key) (key-at ?k - key ?r - room)
               (opens ?k - key ?r - room) (link ?from - room ?to - room))
  (:action walk :parameters (?from - room ?to - room)
    :precondition (and (link ?from ?to) (robot-at ?from) (door-open ?to))
    :effect (and (robot-at ?to) (not (robot-at ?from))))
  (:action unlock :parameters (?k - key ?r - room)
    :precondition (and (holding ?k) (opens ?k ?r))
    :effect (door-open ?r))
  (:action take :parameters (?k - key ?r - room)
    :precondition (and (robot-at ?r) (key-at ?k ?r))
    :effect (and (holding ?k) (not (key-at ?k ?r)))))
"""

LOCKED_PROBLEM = """
(define (problem inside) (:domain locked)
  (:objects hall garden vault - room k k2 - key)
  (:init (robot-at hall) (door-open garden) (link hall garden) (link garden hall) (link hall vault)
         (key-at k garden) (opens k vault) (key-at k2 vault) (opens k2 hall))
  (:goal (robot-at vault)))
"""


def growth(task: GroundTask, seeds: list[str], focused: bool) -> list[tuple[list[str], bool | None]]:
    """(the pattern's predicates, the projection's verdict) per pattern, up to the first that refutes the goal."""
    verdicts: list[tuple[list[str], bool | None]] = []
    for pattern in grow_patterns(task, seeds, focused):
        predicates = sorted({split_canonical(task.atoms.names[i])[0] for i in bits(pattern)})
        verdicts.append((predicates, projected_goal_reachable(task, pattern, 1000)))
        if verdicts[-1][1] is False:
            break
    return verdicts


def test_the_pattern_grows_until_the_projection_keeps_the_robot_out():
    task = GroundTask.from_strings(LOCKED, LOCKED_PROBLEM)
    space = explore(task, task.init, 1000)
    assert space.complete and not any(s & task.goal_pos == task.goal_pos for s in space.states)
    # focused on the vault: the robot's other places are not in the pattern, and holding a key names no vault
    assert growth(task, ["(robot-at vault)"], focused=True) == [
        (["robot-at"], True),  # the door's precondition dropped: the robot walks in
        (["door-open", "robot-at"], True),  # the key's precondition dropped: the door opens
    ]
    assert growth(task, ["(robot-at vault)"], focused=False) == [
        (["robot-at"], True),
        (["door-open", "robot-at"], True),
        (["door-open", "holding", "robot-at"], False),  # the key is in the garden, and from there no way back
    ]


def test_a_goal_the_initial_state_satisfies_is_reachable_and_a_bound_is_honoured():
    task = GroundTask.from_strings(LOCKED, LOCKED_PROBLEM.replace("(robot-at vault)", "(robot-at hall)"))
    assert projected_goal_reachable(task, task.init, 10) is True
    ferry = get_generator("ferry")
    spec = ferry.generate({"locations": 4, "cars": 3}, random.Random(2))
    big = GroundTask.from_strings(ferry._domain_text, ferry.render(spec))
    everything = (1 << len(big.atoms.names)) - 1
    assert projected_goal_reachable(big, everything & ~big.static_mask, 5) is None


#: problems small enough to explore whole: a level-1 size, or a smaller one where that is too large
SMALL = {
    "visitall": {"x": 3, "y": 3, "holes": 0},
    "grid": {"x": 3, "y": 3, "shapes": 1, "keys": 2, "locks": 2, "goal_percent": 100},
    "floortile": {"rows": 2, "columns": 2, "robots": 2},
}


@pytest.mark.parametrize(
    "domain", ["ferry", "grippers", "blocksworld", "visitall", "swap", "grid", "floortile", "depots"]
)
def test_a_projection_never_calls_a_reachable_goal_unreachable(domain):
    """Goals of two or three fluent atoms drawn at random; the truth is the task's whole reachable space."""
    generator = get_generator(domain)
    rng = random.Random(7)
    spec = generator.generate(SMALL.get(domain) or load_config().domain(domain).sizes[0], rng)
    task = GroundTask.from_strings(generator._domain_text, generator.render(spec))
    space = explore(task, task.init, 50_000)
    assert space.complete
    seen = 0
    for state in space.states:
        seen |= state
    fluent = sorted(i for i in bits(seen) if not task.static_mask >> i & 1)
    refuted = 0
    for _ in range(60):
        chosen = rng.sample(fluent, rng.choice((2, 3)))
        goal = tuple(Literal(*split_canonical(task.atoms.names[i])) for i in chosen)
        asked = task.with_goal(goal)
        reachable = any(s & asked.goal_pos == asked.goal_pos for s in space.states)
        for focused in (True, False):
            for pattern in grow_patterns(asked, [task.atoms.names[i] for i in chosen], focused):
                verdict = projected_goal_reachable(asked, pattern, 20_000)
                if reachable:
                    assert verdict is not False, (domain, goal, focused)
                refuted += verdict is False
    assert refuted  # the draws include goals no state holds, and projections see some of them
