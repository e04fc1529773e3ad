"""Reader of the reference prose of the grippers domain (PDDL domain ``gripper-strips``).

A reference context reads, after the domain description::

    There are 1 robot, 3 rooms, and 4 balls, numbered consecutively.
    Currently, the robot robot1 is at room2, left gripper is free, and right gripper is carrying the ball ball4.
                                    | ... is at room1 and both grippers are free.
    Additionally, ball2 is at room1, ball1 and ball3 are at room3.
    The goal is to reach a state where the following facts hold: Ball ball3 is in room room2,
    Ball ball1 is at room1 location, ...

Objects are robots ``robot1 .. robotN``, rooms ``room1 .. roomM``, balls ``ball1 .. ballK`` and the
grippers ``left<i>``, ``right<i>`` of robot ``robot<i>``. The domain has no static facts.
"""

from __future__ import annotations

import re

from acpgen.nl.reference.base import (
    LIST_SEPARATOR,
    ReadError,
    Reading,
    atom,
    begin,
    names,
)

PDDL_NAME = "gripper-strips"

# The first words of every context of this domain (how a context is recognised).
OPENING = "This is a grippers domain"
_SIZES = re.compile(r"There are (\d+) robots?, (\d+) rooms?, and (\d+) balls?, numbered consecutively\.")
_ROBOT = re.compile(r"Currently, the robot (\S+) is at ([^\s,.]+)(?: and both grippers (are free)|, ([^.]*))\.")
_GRIPPER = re.compile(r"(left|right) gripper is (?:(free)|carrying the ball (\S+))")
_BALLS = re.compile(r"Additionally, ([^.]*)\.")
_BALL_GROUP = re.compile(r"(.+?) (?:is|are) at ([^\s,]+)(?:, (?:and )?|$)")
_GOAL_FACT = re.compile(r"Ball (\S+) (?:is at (\S+) location|is in room (\S+))")


def _check(objects: dict[str, str], name: str, kind: str) -> str:
    """``name``, which must be one of the context's objects of type ``kind``."""
    if objects.get(name) != kind:
        raise ReadError(f"grippers context names {name!r} which is not one of its {kind}s")
    return name


def _objects(text: str) -> tuple[int, dict[str, str]]:
    """The number of robots and the objects of 'There are N robot, M rooms, and K balls, ...'."""
    sizes = _SIZES.search(text)
    if not sizes:
        raise ReadError("grippers context without 'There are N robot, M rooms, and K balls, numbered consecutively.'")
    n_robots, n_rooms, n_balls = (int(g) for g in sizes.groups())
    objects: dict[str, str] = {}
    for i in range(1, n_robots + 1):
        objects[f"robot{i}"] = "robot"
        objects[f"left{i}"] = "gripper"
        objects[f"right{i}"] = "gripper"
    objects.update({f"room{i}": "room" for i in range(1, n_rooms + 1)})
    objects.update({f"ball{i}": "ball" for i in range(1, n_balls + 1)})
    return n_robots, objects


def _grippers(robot: re.Match[str], name: str, objects: dict[str, str]) -> set[str]:
    """The facts of a robot's two grippers, each free or carrying a ball."""
    suffix = name[len("robot") :]
    if robot.group(3):
        return {atom("free", name, f"left{suffix}"), atom("free", name, f"right{suffix}")}
    facts, sides = set(), set()
    for part in LIST_SEPARATOR.split(robot.group(4).strip()):
        match = _GRIPPER.fullmatch(part.strip())
        if not match:
            raise ReadError(f"grippers context: cannot read gripper state {part.strip()!r}")
        side, free, ball = match.groups()
        sides.add(side)
        gripper = _check(objects, f"{side}{suffix}", "gripper")
        if free:
            facts.add(atom("free", name, gripper))
        else:
            facts.add(atom("carry", name, _check(objects, ball, "ball"), gripper))
    if sides != {"left", "right"}:
        raise ReadError(f"grippers context does not state both grippers of {name}: {robot.group(0)!r}")
    return facts


def _robots(text: str, n_robots: int, objects: dict[str, str]) -> set[str]:
    """Where each robot is and what its grippers hold ('Currently, the robot ... is at ...')."""
    robots = list(_ROBOT.finditer(text))
    if len(robots) != n_robots:
        raise ReadError(
            f"grippers context describes {len(robots)} robots with 'Currently, the robot ... is at ...' "
            f"but says there are {n_robots}"
        )
    init: set[str] = set()
    for robot in robots:
        name = _check(objects, robot.group(1), "robot")
        init.add(atom("at-robby", name, _check(objects, robot.group(2), "room")))
        init |= _grippers(robot, name, objects)
    return init


def _balls(text: str, objects: dict[str, str]) -> set[str]:
    """The balls' rooms of 'Additionally, b1 and b2 are at room1, b3 is at room2.'"""
    balls = _BALLS.search(text)
    init: set[str] = set()
    if balls:
        groups = balls.group(1).strip()
        pos = 0
        while pos < len(groups):
            match = _BALL_GROUP.match(groups, pos)
            if not match:
                raise ReadError(f"grippers context: cannot read ball positions {groups[pos:]!r}")
            room = _check(objects, match.group(2), "room")
            for ball in names(match.group(1)):
                init.add(atom("at", _check(objects, ball, "ball"), room))
            pos = match.end()
    return init


def _goal(goal_text: str, objects: dict[str, str]) -> tuple[str, ...]:
    facts = []
    for part in LIST_SEPARATOR.split(goal_text.strip()):
        match = _GOAL_FACT.fullmatch(part.strip())
        if not match:
            raise ReadError(f"grippers context: cannot read goal fact {part.strip()!r}")
        ball, room_a, room_b = match.groups()
        facts.append(atom("at", _check(objects, ball, "ball"), _check(objects, room_a or room_b, "room")))
    return tuple(facts)


def read(context: str) -> Reading:
    text, goal_text = begin(context, OPENING, "grippers")
    n_robots, objects = _objects(text)
    init = _robots(text, n_robots, objects) | _balls(text, objects)
    goal = _goal(goal_text, objects) if goal_text is not None else None
    return Reading(objects=objects, init=frozenset(init), goal=goal)
