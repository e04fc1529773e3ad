"""grippers: robots with a left and a right gripper carry balls between rooms.

Sizes: ``robots`` (>= 1), ``rooms`` (>= 2) and ``balls`` (>= 1). Objects are ``robot1 ..``,
the grippers ``left{i}`` / ``right{i}`` of robot ``i``, ``room1 ..`` and ``ball1 ..`` (all
1-based); the name is ``gripper-{robots}-{rooms}-{balls}``. As in the public multi-robot
generator, every robot's room, every ball's start room and every ball's goal room are
independent uniform draws (a ball's goal may be its start room); both grippers of every robot
start free. Robot ``i`` only has ``free``/``carry`` facts with its own grippers, since the
domain has no static ownership predicate: a gripper with no ``free`` fact is never usable.
The goal lists ``ball1, ball2, ...`` in numeric order.

Solvable by construction: ``move`` takes a robot from any room to any room, and a robot with
a free gripper can pick up any ball in its room and drop it anywhere. Goals that already all
hold at the start are redrawn (an empty plan is useless for the questions), which is why at
least two rooms are needed.
"""

from __future__ import annotations

import random

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Names, Objects, Pattern, all_at, of_type


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    n_robot, n_room, n_ball = size["robots"], size["rooms"], size["balls"]
    if n_robot < 1 or n_ball < 1:
        raise ValueError("grippers needs at least one robot and one ball")
    if n_room < 2:
        raise ValueError("grippers needs at least two rooms (with one room every goal holds at the start)")
    robots = [f"robot{i}" for i in range(1, n_robot + 1)]
    rooms = [f"room{i}" for i in range(1, n_room + 1)]
    balls = [f"ball{i}" for i in range(1, n_ball + 1)]

    objects = {r: "robot" for r in robots} | {x: "room" for x in rooms} | {b: "ball" for b in balls}
    init = []
    for i, robot in enumerate(robots, start=1):
        objects |= {f"left{i}": "gripper", f"right{i}": "gripper"}
        init += [f"(at-robby {robot} {rng.choice(rooms)})", f"(free {robot} left{i})", f"(free {robot} right{i})"]
    start = {b: rng.choice(rooms) for b in balls}
    init += [f"(at {b} {x})" for b, x in start.items()]
    while True:
        goal = {b: rng.choice(rooms) for b in balls}
        if goal != start:
            break
    goal_atoms = tuple(f"(at {b} {goal[b]})" for b in balls)
    return ProblemSpec(f"gripper-{n_robot}-{n_room}-{n_ball}", objects, tuple(init), goal_atoms)


# ----- abstract descriptions of initial states and goals (text to PDDL) --------------------------
def _grippers_start_facts(objects: Objects, room: str) -> frozenset[str] | None:
    robots = of_type(objects, "robot")
    if len(robots) != 1:
        return None
    hands = [f"(free {robots[0]} {g})" for g in of_type(objects, "gripper")]
    return frozenset(
        [f"(at-robby {robots[0]} {room})", *hands, *(f"(at {b} {room})" for b in of_type(objects, "ball"))]
    )


def _grippers_start(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names] | None:
    room = rng.choice(of_type(objects, "room"))
    facts = _grippers_start_facts(objects, room)
    return None if facts is None else (facts, {"room": room})


def _grippers_start_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    at = [f[1:-1].split()[2] for f in facts if f.startswith("(at-robby ")]
    if len(at) != 1:
        return None
    return {"room": at[0]} if facts == _grippers_start_facts(objects, at[0]) else None


PATTERNS = (
    Pattern(
        "all-in-start",
        "init",
        "the robot is in room {room} with every gripper free, and every ball is in room {room}",
        _grippers_start,
        _grippers_start_read,
    ),
    Pattern("all-in", "goal", "every ball is in room {room}", *all_at("ball", "room", "room")),
)


GENERATOR = Generator(
    domain="grippers",
    parameters=("robots", "rooms", "balls"),
    make=make,
    check_solvable=False,
    example_sizes=(
        {"robots": 1, "rooms": 2, "balls": 4},
        {"robots": 1, "rooms": 5, "balls": 4},
        {"robots": 2, "rooms": 3, "balls": 5},
    ),
    patterns=PATTERNS,
)
