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
from acpgen.generators.patterns import Names, Objects, Pattern, all_at, by_number, of_type, single_value


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


def _grippers_one_robot(objects: Objects) -> str | None:
    """The only robot (the initial-state patterns say "the robot": with several, which grippers are whose
    would need saying too)."""
    robots = of_type(objects, "robot")
    return robots[0] if len(robots) == 1 else None


def _grippers_robot_room(facts: frozenset[str]) -> str | None:
    rooms = [f[1:-1].split()[2] for f in facts if f.startswith("(at-robby ")]
    return rooms[0] if len(rooms) == 1 else None


def _grippers_dealt_facts(objects: Objects, room: str) -> frozenset[str] | None:
    robot, rooms = _grippers_one_robot(objects), by_number(of_type(objects, "room"))
    if robot is None:
        return None
    balls = [f"(at {b} {rooms[i % len(rooms)]})" for i, b in enumerate(by_number(of_type(objects, "ball")))]
    return frozenset(
        [f"(at-robby {robot} {room})", *(f"(free {robot} {g})" for g in of_type(objects, "gripper")), *balls]
    )


def _grippers_dealt(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names] | None:
    room = rng.choice(of_type(objects, "room"))
    facts = _grippers_dealt_facts(objects, room)
    return None if facts is None else (facts, {"room": room})


def _grippers_dealt_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    room = _grippers_robot_room(facts)
    return {"room": room} if room is not None and facts == _grippers_dealt_facts(objects, room) else None


def _grippers_holding_facts(objects: Objects, room: str, ball: str, gripper: str) -> frozenset[str] | None:
    robot = _grippers_one_robot(objects)
    if robot is None:
        return None
    free = [f"(free {robot} {g})" for g in of_type(objects, "gripper") if g != gripper]
    rest = [f"(at {b} {room})" for b in of_type(objects, "ball") if b != ball]
    return frozenset([f"(at-robby {robot} {room})", f"(carry {robot} {ball} {gripper})", *free, *rest])


def _grippers_holding(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names] | None:
    if not of_type(objects, "gripper") or not of_type(objects, "ball"):
        return None
    room, ball = rng.choice(of_type(objects, "room")), rng.choice(of_type(objects, "ball"))
    gripper = rng.choice(of_type(objects, "gripper"))
    facts = _grippers_holding_facts(objects, room, ball, gripper)
    return None if facts is None else (facts, {"room": room, "ball": ball, "gripper": gripper})


def _grippers_holding_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    room = _grippers_robot_room(facts)
    carried = [f[1:-1].split()[2:] for f in facts if f.startswith("(carry ")]
    if room is None or len(carried) != 1 or objects.get(carried[0][0]) != "ball":
        return None
    (ball, gripper) = carried[0]
    names = {"room": room, "ball": ball, "gripper": gripper}
    return names if facts == _grippers_holding_facts(objects, room, ball, gripper) else None


def _grippers_apart_facts(objects: Objects, room: str, dest: str) -> frozenset[str] | None:
    robot = _grippers_one_robot(objects)
    if robot is None or room == dest:
        return None
    hands = [f"(free {robot} {g})" for g in of_type(objects, "gripper")]
    return frozenset([f"(at-robby {robot} {room})", *hands, *(f"(at {b} {dest})" for b in of_type(objects, "ball"))])


def _grippers_apart(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names] | None:
    room, dest = rng.sample(of_type(objects, "room"), 2)
    facts = _grippers_apart_facts(objects, room, dest)
    return None if facts is None else (facts, {"room": room, "dest": dest})


def _grippers_apart_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    room = _grippers_robot_room(facts)
    dest = single_value(frozenset(f for f in facts if f.startswith("(at ")), "at", of_type(objects, "ball"))
    if room is None or dest is None:
        return None
    return {"room": room, "dest": dest} if facts == _grippers_apart_facts(objects, room, dest) else None


def _grippers_evenly(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names] | None:
    balls, rooms = of_type(objects, "ball"), of_type(objects, "room")
    if not balls or len(rooms) < 2:
        return None
    rng.shuffle(balls)
    rng.shuffle(rooms)
    return frozenset(f"(at {b} {rooms[i % len(rooms)]})" for i, b in enumerate(balls)), {}


def _grippers_evenly_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    """Every ball in one room, and no two rooms' numbers of balls differ by more than one."""
    where = [f[1:-1].split()[1:] for f in facts]
    balls, rooms = of_type(objects, "ball"), of_type(objects, "room")
    if any(not f.startswith("(at ") for f in facts) or sorted(b for b, _ in where) != balls or len(rooms) < 2:
        return None
    counts = [sum(1 for _, r in where if r == room) for room in rooms]
    if sum(counts) != len(balls):  # a ball in something other than a room
        return None
    return {} if max(counts) - min(counts) <= 1 else None


def _grippers_robots_room(given: frozenset[str], robot: str) -> str | None:
    return next((f[1:-1].split()[2] for f in given if f.startswith(f"(at-robby {robot} ")), None)


def _grippers_to_robot_facts(objects: Objects, given: frozenset[str], robot: str) -> frozenset[str] | None:
    room = _grippers_robots_room(given, robot)
    return None if room is None else frozenset(f"(at {b} {room})" for b in of_type(objects, "ball"))


def _grippers_to_robot(
    objects: Objects, rng: random.Random, given: frozenset[str]
) -> tuple[frozenset[str], Names] | None:
    robots = of_type(objects, "robot")
    facts = _grippers_to_robot_facts(objects, given, rng.choice(robots)) if robots else None
    if not facts:
        return None
    names = _grippers_to_robot_read(objects, facts, given)  # the first robot in that room names it
    return None if names is None else (facts, names)


def _grippers_to_robot_read(objects: Objects, facts: frozenset[str], given: frozenset[str]) -> Names | None:
    for robot in of_type(objects, "robot"):
        if facts and facts == _grippers_to_robot_facts(objects, given, robot):
            return {"robot": robot}
    return None


def _grippers_hands(given: frozenset[str]) -> list[tuple[str, str]]:
    """(robot, gripper) for every gripper of a robot (each has a ``free`` or a ``carry`` fact)."""
    hands = {tuple(f[1:-1].split()[1:]) for f in given if f.startswith("(free ")}
    hands |= {(r, g) for r, _, g in (f[1:-1].split()[1:] for f in given if f.startswith("(carry "))}
    return sorted(hands)  # type: ignore[arg-type]


def _grippers_full(objects: Objects, rng: random.Random, given: frozenset[str]) -> tuple[frozenset[str], Names] | None:
    hands, balls = _grippers_hands(given), of_type(objects, "ball")
    if not hands or len(balls) < len(hands):
        return None
    chosen = rng.sample(balls, len(hands))
    return frozenset(f"(carry {r} {b} {g})" for (r, g), b in zip(hands, chosen)), {}


def _grippers_full_read(objects: Objects, facts: frozenset[str], given: frozenset[str]) -> Names | None:
    """Each gripper of each robot carries a ball, no ball in two grippers."""
    carried = [f[1:-1].split()[1:] for f in facts if f.startswith("(carry ")]
    balls = [b for _, b, _ in carried]
    if len(carried) != len(facts) or len(set(balls)) != len(balls) or not carried:
        return None
    if any(objects.get(b) != "ball" for b in balls):
        return None
    return {} if sorted((r, g) for r, _, g in carried) == _grippers_hands(given) else None


PATTERNS = (
    Pattern(
        "all-in-start",
        "init",
        "the robot is in room {room} with every gripper free, and every ball is in room {room}",
        _grippers_start,
        _grippers_start_read,
    ),
    Pattern(
        "dealt",
        "init",
        "the robot is in room {room} with every gripper free, and the balls are dealt out over the rooms in the"
        " order of their numbers: the first ball in the first room, the second in the second, and so on, starting"
        " again at the first room after the last",
        _grippers_dealt,
        _grippers_dealt_read,
    ),
    Pattern(
        "holding",
        "init",
        "the robot is in room {room} carrying ball {ball} in gripper {gripper}, its other grippers are free,"
        " and every other ball is in room {room}",
        _grippers_holding,
        _grippers_holding_read,
    ),
    Pattern(
        "apart",
        "init",
        "the robot is in room {room} with every gripper free, and every ball is in room {dest}",
        _grippers_apart,
        _grippers_apart_read,
    ),
    Pattern("all-in", "goal", "every ball is in room {room}", *all_at("ball", "room", "room")),
    Pattern(
        "evenly",
        "goal",
        "the balls are spread evenly over the rooms: no two rooms hold numbers of balls that differ by more"
        " than one (which balls go where does not matter)",
        _grippers_evenly,
        _grippers_evenly_read,
    ),
    Pattern(
        "to-robot",
        "goal",
        "every ball is in the room where robot {robot} is now",
        _grippers_to_robot,
        _grippers_to_robot_read,
        uses_facts=True,
    ),
    Pattern(
        "hands-full",
        "goal",
        "every gripper of every robot carries a ball (any ball)",
        _grippers_full,
        _grippers_full_read,
        uses_facts=True,
    ),
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
