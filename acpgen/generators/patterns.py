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

This module holds the pattern type and the building blocks many domains share (every subject at one
value, a predicate over every object of a type); each domain declares its own patterns, as
``PATTERNS``, in its generator module.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import product

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
    # a goal relative to the initial state ("every tower of the start turned upside down"): its text names
    # no object, yet only the objects the initial state picks out are correct, so it is no placeholder
    relative: bool = False

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
        return not self.relative and _PLACEHOLDER.search(self.text) is None

    def fill(self, names: Names) -> str:
        return _PLACEHOLDER.sub(lambda m: names[m.group(1)], self.text)


def of_type(objects: Objects, type_name: str) -> list[str]:
    return sorted(o for o, t in objects.items() if t == type_name)


def by_number(names: list[str]) -> list[str]:
    """Names in the order of the numbers in them (``ball2`` before ``ball10``), then alphabetically."""
    return sorted(names, key=lambda n: ([int(d) for d in re.findall(r"\d+", n)], n))


def single_value(facts: frozenset[str], head: str, subjects: list[str]) -> str | None:
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


# ----- building blocks ---------------------------------------------------------------------------
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
        where = single_value(facts, "at", of_type(objects, self.subject))
        return {self.key: where} if where is not None and all(f.startswith("(at ") for f in facts) else None


def all_at(subject: str, place: str, key: str) -> tuple[Build, Read]:
    rule = _AllAt(subject, place, key)
    return rule.build, rule.read


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
        value = single_value(facts, self.pred, subjects)
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


def _arguments(rule: SameValue | Each | Passed | Fixed, relative: bool = False) -> dict:
    """A rule's build and read as a `Pattern`'s keyword arguments (rules that read the problem's facts)."""
    return {"build": rule.build, "read": rule.read, "uses_facts": True, "relative": relative}


def same(pred: str, subjects: tuple[str, ...], values: tuple[str, ...], key: str) -> dict:
    return _arguments(SameValue(pred, subjects, values, key))


def each(pred: str, types: tuple[str, ...], when: str = "") -> dict:
    """Pattern arguments of an `Each`; with ``when``, a goal about the objects the initial state picks out
    ("every location with soft rock now"): relative, no placeholder."""
    return _arguments(Each(pred, types, when), relative=bool(when))


def passed(how: str) -> dict:
    """Pattern arguments of a `Passed` (the roles held now, passed on): relative, no placeholder."""
    return _arguments(Passed(how), relative=True)


@dataclass(frozen=True)
class Fixed:
    """An instance fully determined by the objects its placeholders name: ``keys`` pairs each placeholder with
    the types of its candidate objects, and ``facts(objects, given, names)`` gives the instance's facts, or
    None when those names give none (a gold cell on the bomb supply). ``fits(objects, given, names)``, when
    set, narrows what ``build`` draws (the waypoints every rover can reach) without changing what the text
    means, so ``read`` accepts every instance the text describes. Build draws uniformly among the name
    choices that give facts; read tries every choice (the candidates are few: a problem's airports, places,
    waypoints or cells)."""

    keys: tuple[tuple[str, tuple[str, ...]], ...]
    facts: Callable[[Objects, frozenset[str], Names], frozenset[str] | None]
    fits: Callable[[Objects, frozenset[str], Names], bool] | None = None

    def _choices(self, objects: Objects) -> list[Names]:
        pools = [objects_of(objects, types) for _, types in self.keys]
        return [dict(zip((k for k, _ in self.keys), combo)) for combo in product(*pools)]

    def build(self, objects: Objects, rng: random.Random, given: frozenset[str]) -> tuple[frozenset[str], Names] | None:
        made = [
            (facts, names)
            for names in self._choices(objects)
            if (facts := self.facts(objects, given, names)) is not None
        ]
        preferred = [(f, n) for f, n in made if self.fits is None or self.fits(objects, given, n)]
        return rng.choice(preferred or made) if made else None

    def read(self, objects: Objects, facts: frozenset[str], given: frozenset[str]) -> Names | None:
        return next((n for n in self._choices(objects) if self.facts(objects, given, n) == facts), None)


def fixed(
    keys: tuple[tuple[str, tuple[str, ...]], ...],
    facts: Callable[[Objects, frozenset[str], Names], frozenset[str] | None],
    fits: Callable[[Objects, frozenset[str], Names], bool] | None = None,
) -> dict:
    return _arguments(Fixed(keys, facts, fits))


def args_of(given: frozenset[str], head: str) -> list[tuple[str, ...]]:
    """The arguments of the facts of predicate ``head``, sorted."""
    return sorted(tuple(f[1:-1].split()[1:]) for f in given if f.startswith(f"({head} ") or f == f"({head})")
