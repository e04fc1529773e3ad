"""grid: keys and locks on an x-by-y grid of places (the IPC-1998 "grid" domain).

Sizes: ``x``, ``y`` (grid dimensions, >= 1 each, at least 2 places), ``shapes`` (number of
key/lock shapes, 1..9), ``keys`` and ``locks`` (count vectors with one decimal digit per shape,
right-aligned as in the public generator: with ``shapes=2``, ``keys=12`` means one key of
shape0 and two of shape1, ``keys=2`` means none of shape0 and two of shape1), and
``goal_percent`` (1..100: the chance that a key gets a goal location).

Drawing follows the public C generator: each lock on a distinct random place, each key on a
uniform place (possibly a locked one), each key's goal (with probability goal_percent) on a
uniform place, the robot on a uniform open place with an empty arm. The problem name is
``grid-x{X}-y{Y}-t{T}-k{K}-l{L}-p{P}`` and the goal lists keys by shape, then index.

Solvability: the public generator does not guarantee it (a key may lie behind its own lock, the
robot may be walled in). Unlocking is monotone and never hurts, so a task is solvable exactly
when the fixpoint "region the robot can reach -> keys lying there -> locks next to the region
that such a key opens -> larger region" contains every goal key and its goal place (or the key
already lies on its goal place). Draws that
fail this test, and draws whose goal already holds initially, are redrawn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Names, Objects, Pattern, each, of_type, same

MAX_DRAWS = 2000


def digit_vector(value: int, shapes: int, what: str) -> list[int]:
    """Counts per shape from the decimal digit vector (most significant digit = shape0)."""
    if value < 0 or value >= 10**shapes:
        raise ValueError(
            f"grid: {what}={value} must be a non-negative number with at most {shapes} digit(s), one per shape"
        )
    return [value // 10 ** (shapes - 1 - s) % 10 for s in range(shapes)]


def place(x: int, y: int) -> str:
    return f"f{x}-{y}f"


def neighbours(cell: tuple[int, int], width: int, height: int):
    x, y = cell
    for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
        if 0 <= nx < width and 0 <= ny < height:
            yield nx, ny


def solvable(width: int, height: int, robot, lock_shape: dict, key_at: dict, key_shape: dict, goals: dict) -> bool:
    """Exact solvability test by the monotone reachability fixpoint described in the module doc."""
    locked = dict(lock_shape)  # still-locked cell -> shape
    region: set = set()
    frontier = [robot]
    while True:
        while frontier:  # flood the open cells reachable from the region
            cell = frontier.pop()
            if cell in region or cell in locked:
                continue
            region.add(cell)
            frontier.extend(neighbours(cell, width, height))
        usable = {key_shape[k] for k, cell in key_at.items() if cell in region}
        openable = [
            c for c, s in locked.items() if s in usable and any(n in region for n in neighbours(c, width, height))
        ]
        if not openable:
            break
        for cell in openable:
            del locked[cell]
        frontier = openable
    return all(key_at[k] == cell or (key_at[k] in region and cell in region) for k, cell in goals.items())


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    width, height, shapes = size["x"], size["y"], size["shapes"]
    percent = size["goal_percent"]
    if width < 1 or height < 1 or width * height < 2:
        raise ValueError("grid needs x, y >= 1 and at least two places")
    if not 1 <= shapes <= 9:
        raise ValueError("grid: shapes must be between 1 and 9")
    if not 1 <= percent <= 100:
        raise ValueError("grid: goal_percent must be between 1 and 100")
    key_counts = digit_vector(size["keys"], shapes, "keys")
    lock_counts = digit_vector(size["locks"], shapes, "locks")
    if sum(key_counts) < 1:
        raise ValueError("grid needs at least one key")
    cells = [(x, y) for x in range(width) for y in range(height)]
    if sum(lock_counts) > len(cells) - 1:
        raise ValueError(f"grid: {sum(lock_counts)} locks leave no open place for the robot on a {width}x{height} grid")

    keys = [(f"key{s}-{j}", s) for s in range(shapes) for j in range(key_counts[s])]
    key_shape = dict(keys)
    for _ in range(MAX_DRAWS):
        lock_shape: dict = {}
        for s in range(shapes):
            for _ in range(lock_counts[s]):
                lock_shape[rng.choice([c for c in cells if c not in lock_shape])] = s
        key_at = {k: rng.choice(cells) for k, _ in keys}
        goals = {k: rng.choice(cells) for k, _ in keys if rng.randrange(100) < percent}
        robot = rng.choice([c for c in cells if c not in lock_shape])
        if not goals or all(key_at[k] == c for k, c in goals.items()):
            continue
        if solvable(width, height, robot, lock_shape, key_at, key_shape, goals):
            break
    else:
        raise ValueError(f"grid: no solvable problem found for size {size} in {MAX_DRAWS} draws")

    objects = {k: "key" for k, _ in keys} | {place(*c): "place" for c in cells}
    objects |= {f"shape{s}": "shape" for s in range(shapes)}
    init = ["(arm-empty)", f"(at-robot {place(*robot)})"]
    init += [f"(conn {place(*c)} {place(*n)})" for c in cells for n in neighbours(c, width, height)]
    init += [f"(open {place(*c)})" for c in cells if c not in lock_shape]
    for cell, s in lock_shape.items():
        init += [f"(locked {place(*cell)})", f"(lock-shape {place(*cell)} shape{s})"]
    init += [f"(key-shape {k} shape{s})" for k, s in keys]
    init += [f"(at {k} {place(*key_at[k])})" for k, _ in keys]
    goal = tuple(f"(at {k} {place(*goals[k])})" for k, _ in keys if k in goals)
    name = f"grid-x{width}-y{height}-t{shapes}-k{size['keys']}-l{size['locks']}-p{percent}"
    return ProblemSpec(name, objects, tuple(init), goal)


# ----- abstract descriptions of initial states and goals (text to PDDL) --------------------------
def _lock_places(given: frozenset[str]) -> set[str]:
    """The places with a lock (a ``lock-shape`` fact among the static facts)."""
    return {f[1:-1].split()[1] for f in given if f.startswith("(lock-shape ")}


@dataclass(frozen=True)
class _Start:
    """An initial state: the robot at ``{place}``, holding key ``{key}`` (``holding``) or with an empty arm, every
    other key at ``{keys}`` (the robot's place unless ``apart``), and every place with a lock locked (every place
    open, with ``opened``); the robot starts on a place without a lock."""

    holding: bool = False
    apart: bool = False
    opened: bool = False

    def facts(self, objects: Objects, given: frozenset[str], names: Names) -> frozenset[str]:
        locks = _lock_places(given)
        places = of_type(objects, "place")
        held = names.get("key")
        lying = names["keys"] if self.apart else names["place"]
        facts = {f"(at-robot {names['place']})", f"(holding {held})" if held else "(arm-empty)"}
        facts |= {f"(at {k} {lying})" for k in of_type(objects, "key") if k != held}
        facts |= {f"(open {p})" for p in places if self.opened or p not in locks}
        facts |= {f"(locked {p})" for p in places if not self.opened and p in locks}
        return frozenset(facts)

    def build(self, objects: Objects, rng: random.Random, given: frozenset[str]) -> tuple[frozenset[str], Names] | None:
        keys, places = of_type(objects, "key"), of_type(objects, "place")
        free = [p for p in places if p not in _lock_places(given)]
        if not keys or not free or (self.apart and len(places) < 2):
            return None
        names = {"place": rng.choice(free)}
        if self.holding:
            names["key"] = rng.choice(keys)
        if self.apart:
            names["keys"] = rng.choice([p for p in places if p != names["place"]])
        return self.facts(objects, given, names), names

    def read(self, objects: Objects, facts: frozenset[str], given: frozenset[str]) -> Names | None:
        robot = [f[1:-1].split()[1] for f in facts if f.startswith("(at-robot ")]
        held = [f[1:-1].split()[1] for f in facts if f.startswith("(holding ")]
        lying = {f[1:-1].split()[2] for f in facts if f.startswith("(at ")}
        if len(robot) != 1 or len(held) != self.holding or robot[0] in _lock_places(given):
            return None
        names = {"place": robot[0]} | ({"key": held[0]} if held else {})
        if self.apart:
            if len(lying) != 1 or lying == {robot[0]}:
                return None
            names["keys"] = lying.pop()
        if held and objects.get(held[0]) != "key":
            return None
        return names if facts == self.facts(objects, given, names) else None


def _grid_holding_facts(objects: Objects, key: str, place: str) -> frozenset[str]:
    return frozenset([f"(holding {key})", *(f"(at {k} {place})" for k in of_type(objects, "key") if k != key)])


def _grid_holding(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names] | None:
    keys, places = of_type(objects, "key"), of_type(objects, "place")
    if len(keys) < 2 or not places:  # with one key the text's place would name nothing
        return None
    key, place = rng.choice(keys), rng.choice(places)
    return _grid_holding_facts(objects, key, place), {"key": key, "place": place}


def _grid_holding_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    held = [f[1:-1].split()[1] for f in facts if f.startswith("(holding ")]
    lying = {f[1:-1].split()[2] for f in facts if f.startswith("(at ")}
    if len(held) != 1 or objects.get(held[0]) != "key" or len(lying) != 1:
        return None
    names = {"key": held[0], "place": lying.pop()}
    return names if facts == _grid_holding_facts(objects, names["key"], names["place"]) else None


_LOCKED, _HOLDING, _APART, _OPENED = _Start(), _Start(holding=True), _Start(apart=True), _Start(opened=True, apart=True)

PATTERNS = (
    Pattern(
        "keys-with-robot",
        "init",
        "the robot is at place {place} with an empty arm, every key is at place {place} too, and every place with"
        " a lock is locked",
        _LOCKED.build,
        _LOCKED.read,
        uses_facts=True,
    ),
    Pattern(
        "holding",
        "init",
        "the robot is at place {place} holding key {key}, every other key is at place {place} too, and every place"
        " with a lock is locked",
        _HOLDING.build,
        _HOLDING.read,
        uses_facts=True,
    ),
    Pattern(
        "keys-apart",
        "init",
        "the robot is at place {place} with an empty arm, every key is at place {keys}, and every place with a lock"
        " is locked",
        _APART.build,
        _APART.read,
        uses_facts=True,
    ),
    Pattern(
        "all-open",
        "init",
        "every place is open (every lock has been unlocked), the robot is at place {place} with an empty arm, and"
        " every key is at place {keys}",
        _OPENED.build,
        _OPENED.read,
        uses_facts=True,
    ),
    Pattern("all-at", "goal", "every key is at place {place}", **same("at", ("key",), ("place",), "place")),
    Pattern("unlocked", "goal", "every place that is locked now is open", **each("open", ("place",), "locked")),
    Pattern(
        "key-held",
        "goal",
        "the robot holds key {key}, and every other key is at place {place}",
        _grid_holding,
        _grid_holding_read,
    ),
)


GENERATOR = Generator(
    domain="grid",
    parameters=("x", "y", "shapes", "keys", "locks", "goal_percent"),
    make=make,
    check_solvable=False,
    example_sizes=(
        {"x": 3, "y": 3, "shapes": 1, "keys": 2, "locks": 2, "goal_percent": 100},
        {"x": 5, "y": 5, "shapes": 1, "keys": 3, "locks": 3, "goal_percent": 100},
        {"x": 5, "y": 5, "shapes": 2, "keys": 11, "locks": 12, "goal_percent": 100},
    ),
    patterns=PATTERNS,
)
