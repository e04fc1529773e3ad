"""Abstract descriptions of initial states and goals that a domain's generator can produce.

A :class:`Pattern` is one English summary of the fluent facts of an initial state ("every block
is on the table") or of a goal ("all blocks are stacked in a single tower"), with the two
directions the text-to-PDDL task needs:

* ``build(objects, rng)``: the facts of one instance and the object names its text mentions;
* ``read(objects, facts)``: the inverse — the names when ``facts`` are exactly an instance of the
  pattern, else None (the description reads back into its pattern).

A pattern whose text names no object (``{...}`` placeholders) is a *placeholder* pattern: any
assignment of objects that fits the description is correct.
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
    build: Build
    read: Read

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


BLOCKSWORLD = (
    Pattern("table", "init", "every block is on the table and clear, and the hand is empty", _bw_table, _bw_table_read),
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


FERRY = (
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
GRIPPERS = (Pattern("all-in", "goal", "every ball is in room {room}", *_all_at("ball", "room", "room")),)


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
