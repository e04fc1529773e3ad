"""Abstract descriptions of initial states and goals that a domain's generator can produce.

A :class:`Pattern` is one English summary of the fluent facts of an initial state ("every block
is on the table") or of a goal ("all blocks are stacked in a single tower"), with the two
directions the text-to-PDDL task needs:

* ``build(objects, rng)``: the facts of one instance and the object names its text mentions;
* ``read(objects, facts)``: the inverse — the names when ``facts`` are exactly an instance of the
  pattern, else None (the description reads back into its pattern).

A pattern whose text names no object (``{...}`` placeholders) is a *placeholder* pattern: any
assignment of objects that fits the description is correct.

A pattern may depend on facts of the problem (``uses_facts``): its build and read then take a third
argument, the facts it may read: the static facts for an initial-state pattern (the grid, the cities),
all initial facts for a goal pattern ("every soil sample has been sent" reads which waypoints have one).
Its build may give None when the problem has nothing it could describe (no soil sample at all).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise

Objects = Mapping[str, str]  # object -> declared type
Names = dict[str, str]  # placeholder -> object name
Build = Callable[[Objects, random.Random], tuple[frozenset[str], Names]]  # facts and the names chosen
Read = Callable[[Objects, frozenset[str]], Names | None]  # the names, or None if the facts do not fit
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Pattern:
    """An abstract description of the fluent facts of an initial state (``part="init"``) or a goal."""

    name: str
    part: str  # "init" or "goal"
    text: str  # English; {placeholders} are object names chosen by ``build``
    build: Callable[..., tuple[frozenset[str], Names] | None]
    read: Callable[..., Names | None]
    uses_facts: bool = False  # build and read take the problem's facts as a third argument

    def make(
        self, objects: Objects, rng: random.Random, given: frozenset[str] = frozenset()
    ) -> tuple[frozenset[str], Names] | None:
        """An instance (its facts and the names its text needs), or None when the problem gives none."""
        return self.build(objects, rng, given) if self.uses_facts else self.build(objects, rng)

    def recognise(self, objects: Objects, facts: frozenset[str], given: frozenset[str] = frozenset()) -> Names | None:
        """The names when ``facts`` are exactly an instance of the pattern, else None."""
        return self.read(objects, facts, given) if self.uses_facts else self.read(objects, facts)

    @property
    def placeholder(self) -> bool:
        """The text names no object: any objects fitting the description are correct."""
        return _PLACEHOLDER.search(self.text) is None

    def fill(self, names: Names) -> str:
        return _PLACEHOLDER.sub(lambda m: names[m.group(1)], self.text)


def of_type(objects: Objects, type_name: str) -> list[str]:
    return sorted(o for o, t in objects.items() if t == type_name)


def _single_value(facts: frozenset[str], head: str, subjects: list[str]) -> str | None:
    """The one object V with ``(head s V)`` for every subject s, when the facts of ``head`` are exactly those."""
    values = {f.split()[2].rstrip(")") for f in facts if f.startswith(f"({head} ")}
    if len(values) != 1:
        return None
    value = values.pop()
    return (
        value
        if {f for f in facts if f.startswith(f"({head} ")} == {f"({head} {s} {value})" for s in subjects}
        else None
    )


# ----- blocksworld ------------------------------------------------------------------------------
def _bw_table(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    blocks = sorted(objects)
    return frozenset([*(f"(ontable {b})" for b in blocks), *(f"(clear {b})" for b in blocks), "(handempty)"]), {}


def _bw_table_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    return {} if facts == _bw_table(objects, random.Random(0))[0] else None


def _bw_tower(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    order = sorted(objects)
    rng.shuffle(order)
    return frozenset(f"(on {upper} {lower})" for lower, upper in pairwise(order)), {}


def _bw_tower_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    """One tower of all blocks: n-1 ``on`` facts, each block below at most one and above at most one, a chain."""
    pairs = [f[1:-1].split()[1:] for f in facts]
    if any(not f.startswith("(on ") for f in facts) or len(pairs) != len(objects) - 1:
        return None
    above = {lower: upper for upper, lower in pairs}
    below = {upper: lower for upper, lower in pairs}
    if len(above) != len(pairs) or len(below) != len(pairs):
        return None
    bottom = [b for b in objects if b not in below]
    if len(bottom) != 1:
        return None
    seen, block = 1, bottom[0]
    while block in above:
        block, seen = above[block], seen + 1
    return {} if seen == len(objects) else None


def _bw_holding(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    held = rng.choice(sorted(objects))
    return _bw_holding_facts(objects, held), {"block": held}


def _bw_holding_facts(objects: Objects, held: str) -> frozenset[str]:
    rest = [b for b in sorted(objects) if b != held]
    return frozenset([f"(holding {held})", *(f"(ontable {b})" for b in rest), *(f"(clear {b})" for b in rest)])


def _bw_holding_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    held = [f[1:-1].split()[1] for f in facts if f.startswith("(holding ")]
    if len(held) != 1 or held[0] not in objects:
        return None
    return {"block": held[0]} if facts == _bw_holding_facts(objects, held[0]) else None


def _bw_order_facts(order: list[str]) -> frozenset[str]:
    return frozenset(
        [f"(ontable {order[0]})", f"(clear {order[-1]})", "(handempty)"]
        + [f"(on {upper} {lower})" for lower, upper in pairwise(order)]
    )


def _bw_stacked(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    order = sorted(objects)
    rng.shuffle(order)
    return _bw_order_facts(order), {"order": ", ".join(order)}


def _bw_stacked_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    bottom = [f[1:-1].split()[1] for f in facts if f.startswith("(ontable ")]
    above = {f[1:-1].split()[2]: f[1:-1].split()[1] for f in facts if f.startswith("(on ")}
    if len(bottom) != 1:
        return None
    order = [bottom[0]]
    while order[-1] in above and len(order) <= len(objects):
        order.append(above[order[-1]])
    if sorted(order) != sorted(objects):
        return None
    return {"order": ", ".join(order)} if facts == _bw_order_facts(order) else None


BLOCKSWORLD = (
    Pattern("table", "init", "every block is on the table and clear, and the hand is empty", _bw_table, _bw_table_read),
    Pattern(
        "holding",
        "init",
        "the hand holds block {block}, and every other block is on the table and clear",
        _bw_holding,
        _bw_holding_read,
    ),
    Pattern(
        "stacked",
        "init",
        "all blocks form one tower, from the table up: {order}; the hand is empty",
        _bw_stacked,
        _bw_stacked_read,
    ),
    Pattern("tower", "goal", "all blocks are stacked in one single tower (in any order)", _bw_tower, _bw_tower_read),
)


# ----- ferry --------------------------------------------------------------------------------------
def _ferry_together(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    loc = rng.choice(of_type(objects, "location"))
    return _ferry_fixed(objects, loc), {"loc": loc}


def _ferry_together_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    ferry = [f for f in facts if f.startswith("(at-ferry ")]
    if len(ferry) != 1:
        return None
    names = {"loc": ferry[0][1:-1].split()[1]}
    return names if facts == _ferry_fixed(objects, names["loc"]) else None


def _ferry_fixed(objects: Objects, loc: str) -> frozenset[str]:
    return frozenset([*(f"(at {c} {loc})" for c in of_type(objects, "car")), f"(at-ferry {loc})", "(empty-ferry)"])


@dataclass(frozen=True)
class _AllAt:
    """Build and read a state where every object of type ``subject`` is ``(at _ p)`` for one object
    ``p`` of type ``place`` (the placeholder ``key`` names it). A class, not a closure: patterns
    travel to worker processes with the generators, so their functions must pickle."""

    subject: str
    place: str
    key: str

    def build(self, objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
        where = rng.choice(of_type(objects, self.place))
        return frozenset(f"(at {o} {where})" for o in of_type(objects, self.subject)), {self.key: where}

    def read(self, objects: Objects, facts: frozenset[str]) -> Names | None:
        where = _single_value(facts, "at", of_type(objects, self.subject))
        return {self.key: where} if where is not None and all(f.startswith("(at ") for f in facts) else None


def _all_at(subject: str, place: str, key: str) -> tuple[Build, Read]:
    rule = _AllAt(subject, place, key)
    return rule.build, rule.read


def _ferry_loaded_facts(objects: Objects, loc: str, car: str) -> frozenset[str]:
    others = [c for c in of_type(objects, "car") if c != car]
    return frozenset([f"(at-ferry {loc})", f"(on {car})", *(f"(at {c} {loc})" for c in others)])


def _ferry_loaded(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    loc, car = rng.choice(of_type(objects, "location")), rng.choice(of_type(objects, "car"))
    return _ferry_loaded_facts(objects, loc, car), {"loc": loc, "car": car}


def _ferry_loaded_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    ferry = [f[1:-1].split()[1] for f in facts if f.startswith("(at-ferry ")]
    aboard = [f[1:-1].split()[1] for f in facts if f.startswith("(on ")]
    if len(ferry) != 1 or len(aboard) != 1 or objects.get(aboard[0]) != "car":
        return None
    names = {"loc": ferry[0], "car": aboard[0]}
    return names if facts == _ferry_loaded_facts(objects, ferry[0], aboard[0]) else None


def _ferry_apart_facts(objects: Objects, loc: str, dest: str) -> frozenset[str]:
    cars = [f"(at {c} {dest})" for c in of_type(objects, "car")]
    return frozenset([f"(at-ferry {loc})", "(empty-ferry)", *cars])


def _ferry_apart(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    loc, dest = rng.sample(of_type(objects, "location"), 2)
    return _ferry_apart_facts(objects, loc, dest), {"loc": loc, "dest": dest}


def _ferry_apart_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    ferry = [f[1:-1].split()[1] for f in facts if f.startswith("(at-ferry ")]
    dest = _single_value(frozenset(f for f in facts if f.startswith("(at ")), "at", of_type(objects, "car"))
    if len(ferry) != 1 or dest is None or dest == ferry[0]:
        return None
    return {"loc": ferry[0], "dest": dest} if facts == _ferry_apart_facts(objects, ferry[0], dest) else None


FERRY = (
    Pattern(
        "loaded",
        "init",
        "the ferry is at location {loc} with car {car} on board, and every other car is at location {loc}",
        _ferry_loaded,
        _ferry_loaded_read,
    ),
    Pattern(
        "apart",
        "init",
        "the ferry is empty at location {loc}, and every car is at location {dest}",
        _ferry_apart,
        _ferry_apart_read,
    ),
    Pattern(
        "together",
        "init",
        "every car and the ferry are at location {loc}, and the ferry is empty",
        _ferry_together,
        _ferry_together_read,
    ),
    Pattern("all-at", "goal", "every car is at location {loc}", *_all_at("car", "location", "loc")),
)


# ----- grippers -----------------------------------------------------------------------------------
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


GRIPPERS = (
    Pattern(
        "all-in-start",
        "init",
        "the robot is in room {room} with every gripper free, and every ball is in room {room}",
        _grippers_start,
        _grippers_start_read,
    ),
    Pattern("all-in", "goal", "every ball is in room {room}", *_all_at("ball", "room", "room")),
)


# ----- visitall ------------------------------------------------------------------------------------
def _visitall_start(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    place = rng.choice(of_type(objects, "place"))
    return frozenset([f"(at-robot {place})", f"(visited {place})"]), {"place": place}


def _visitall_start_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    robot = [f for f in facts if f.startswith("(at-robot ")]
    if len(robot) != 1:
        return None
    place = robot[0][1:-1].split()[1]
    return {"place": place} if facts == {f"(at-robot {place})", f"(visited {place})"} else None


def _visitall_all(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    return frozenset(f"(visited {p})" for p in of_type(objects, "place")), {}


def _visitall_all_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    return {} if facts == _visitall_all(objects, random.Random(0))[0] else None


VISITALL = (
    Pattern(
        "start",
        "init",
        "the robot is at place {place}, and no place other than {place} has been visited",
        _visitall_start,
        _visitall_start_read,
    ),
    Pattern("all-visited", "goal", "every place has been visited", _visitall_all, _visitall_all_read),
)


# ----- building blocks for the other domains ------------------------------------------------------------------
def objects_of(objects: Objects, types: tuple[str, ...]) -> list[str]:
    """The objects declared with one of ``types``, sorted."""
    return sorted(o for o, t in objects.items() if t in types)


@dataclass(frozen=True)
class SameValue:
    """Every object of the ``subjects`` types is ``(pred s V)`` for one object ``V`` of the ``values`` types,
    named by the placeholder ``key`` ("every package is at location {loc}")."""

    pred: str
    subjects: tuple[str, ...]
    values: tuple[str, ...]
    key: str

    def build(self, objects: Objects, rng: random.Random, given: frozenset[str]) -> tuple[frozenset[str], Names] | None:
        subjects, values = objects_of(objects, self.subjects), objects_of(objects, self.values)
        if not subjects or not values:
            return None
        value = rng.choice(values)
        return frozenset(f"({self.pred} {s} {value})" for s in subjects), {self.key: value}

    def read(self, objects: Objects, facts: frozenset[str], given: frozenset[str]) -> Names | None:
        subjects = objects_of(objects, self.subjects)
        if not subjects or any(not f.startswith(f"({self.pred} ") for f in facts):
            return None
        value = _single_value(facts, self.pred, subjects)
        return {self.key: value} if value in objects_of(objects, self.values) else None


@dataclass(frozen=True)
class Each:
    """``(pred x)`` for every object ``x`` of the ``types``, or, with ``when``, for every one with
    ``(when x)`` among the given facts ("every soil sample has been sent"); no names."""

    pred: str
    types: tuple[str, ...]
    when: str = ""

    def facts(self, objects: Objects, given: frozenset[str]) -> frozenset[str]:
        chosen = [o for o in objects_of(objects, self.types) if not self.when or f"({self.when} {o})" in given]
        return frozenset(f"({self.pred} {o})" for o in chosen)

    def build(self, objects: Objects, rng: random.Random, given: frozenset[str]) -> tuple[frozenset[str], Names] | None:
        facts = self.facts(objects, given)
        return (facts, {}) if facts else None

    def read(self, objects: Objects, facts: frozenset[str], given: frozenset[str]) -> Names | None:
        return {} if facts and facts == self.facts(objects, given) else None


@dataclass(frozen=True)
class Passed:
    """Swap's permutations of the initial roles (read from the given facts ``(assigned agent role)``):
    ``rotate`` (each agent, in alphabetical order, gets the role of the next one, the last that of the
    first), ``reverse`` (the i-th agent gets the role of the i-th from the end) or ``pairs`` (the first and
    second agents swap, the third and fourth, ...; an odd last agent keeps its role)."""

    how: str

    def facts(self, given: frozenset[str]) -> frozenset[str] | None:
        held = dict(sorted(f[1:-1].split()[1:] for f in given if f.startswith("(assigned ")))
        agents = list(held)
        if len(agents) < 2:
            return None
        if self.how == "rotate":
            order = agents[1:] + agents[:1]
        elif self.how == "reverse":
            order = agents[::-1]
        else:
            order = [agents[i ^ 1] if (i ^ 1) < len(agents) else agents[i] for i in range(len(agents))]
        return frozenset(f"(assigned {a} {held[b]})" for a, b in zip(agents, order))

    def build(self, objects: Objects, rng: random.Random, given: frozenset[str]) -> tuple[frozenset[str], Names] | None:
        facts = self.facts(given)
        return None if facts is None else (facts, {})

    def read(self, objects: Objects, facts: frozenset[str], given: frozenset[str]) -> Names | None:
        return {} if facts and facts == self.facts(given) else None


def _same(pred: str, subjects: tuple[str, ...], values: tuple[str, ...], key: str) -> dict:
    rule = SameValue(pred, subjects, values, key)
    return {"build": rule.build, "read": rule.read, "uses_facts": True}


def _each(pred: str, types: tuple[str, ...], when: str = "") -> dict:
    rule = Each(pred, types, when)
    return {"build": rule.build, "read": rule.read, "uses_facts": True}


def _passed(how: str) -> dict:
    rule = Passed(how)
    return {"build": rule.build, "read": rule.read, "uses_facts": True}


LOGISTICS = (
    Pattern(
        "all-at",
        "goal",
        "every package is at location {loc}",
        **_same("at", ("package",), ("location", "airport"), "loc"),
    ),
    Pattern(
        "all-in-truck", "goal", "every package is in truck {truck}", **_same("in", ("package",), ("truck",), "truck")
    ),
    Pattern(
        "all-in-airplane",
        "goal",
        "every package is in airplane {plane}",
        **_same("in", ("package",), ("airplane",), "plane"),
    ),
)
DEPOTS = (
    Pattern(
        "all-at",
        "goal",
        "every crate is at place {place}",
        **_same("at", ("crate",), ("depot", "distributor"), "place"),
    ),
    Pattern("all-in-truck", "goal", "every crate is in truck {truck}", **_same("in", ("crate",), ("truck",), "truck")),
    Pattern("hoists-free", "goal", "every hoist is available", **_each("available", ("hoist",))),
)
GRID = (
    Pattern("all-at", "goal", "every key is at place {place}", **_same("at", ("key",), ("place",), "place")),
    Pattern("unlocked", "goal", "every place that is locked now is open", **_each("open", ("place",), "locked")),
)
FLOORTILE = (
    Pattern(
        "one-color",
        "goal",
        "every robot holds the color {color}",
        **_same("robot-has", ("robot",), ("color",), "color"),
    ),
)
ROVERS = (
    Pattern(
        "soil-sent",
        "goal",
        "the soil sample of every waypoint that has one has been analysed and communicated",
        **_each("communicated_soil_data", ("waypoint",), "at_soil_sample"),
    ),
    Pattern(
        "rock-sent",
        "goal",
        "the rock sample of every waypoint that has one has been analysed and communicated",
        **_each("communicated_rock_data", ("waypoint",), "at_rock_sample"),
    ),
    Pattern(
        "all-at", "goal", "every rover is at waypoint {waypoint}", **_same("at", ("rover",), ("waypoint",), "waypoint")
    ),
)
GOLDMINER = (
    Pattern(
        "soft-cleared", "goal", "every location with soft rock now is clear", **_each("clear", ("loc",), "soft-rock-at")
    ),
    Pattern(
        "hard-cleared", "goal", "every location with hard rock now is clear", **_each("clear", ("loc",), "hard-rock-at")
    ),
    Pattern("all-clear", "goal", "every location is clear", **_each("clear", ("loc",))),
)
SATELLITE = (
    Pattern(
        "all-pointing",
        "goal",
        "every satellite points at direction {direction}",
        **_same("pointing", ("satellite",), ("direction",), "direction"),
    ),
    Pattern("all-calibrated", "goal", "every instrument is calibrated", **_each("calibrated", ("instrument",))),
    Pattern(
        "all-imaged",
        "goal",
        "there is an image of every direction in mode {mode}",
        **_same("have_image", ("direction",), ("mode",), "mode"),
    ),
)
SWAP = (
    Pattern(
        "rotate",
        "goal",
        "each agent, in alphabetical order, holds the role the next agent holds now (the last agent the first one's)",
        **_passed("rotate"),
    ),
    Pattern(
        "reverse",
        "goal",
        "the agents, in alphabetical order, hold the roles they hold now in reverse order",
        **_passed("reverse"),
    ),
    Pattern(
        "pairs",
        "goal",
        "the agents, two by two in alphabetical order, swap the roles they hold now (an odd last one keeps its role)",
        **_passed("pairs"),
    ),
)
