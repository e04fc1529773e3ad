"""Reader of the reference prose of the ferry domain (PDDL domain ``ferry``).

A reference context reads, after the domain description::

    There are 2 locations and 5 cars, numbered consecutively.
    Currently, the ferry is at l0, with the car c3 on board.      | ... is at l1 location and it is empty.
    The cars are at locations as follows: c2, c1, and c0 are at l0; c4 is at l1.
    The goal is to reach a state where the following facts hold: Car c0 is at location l1 and Car c1 is at location l0.

Objects are cars ``c0 .. c{n-1}`` and locations ``l0 .. l{m-1}``; the static ``(not-eq x y)`` holds for every
ordered pair of distinct locations.
"""

from __future__ import annotations

import re

from acpgen.nl.reference.base import ReadError, Reading, atom, names, normalise

PDDL_NAME = "ferry"

# The first words of every context of this domain (how a context is recognised).
OPENING = "This is a ferry domain"
_SIZES = re.compile(r"There are (\d+) locations? and (\d+) cars?, numbered consecutively\.")
_FERRY = re.compile(r"Currently, the ferry is at (\w+)(?: location and it is empty|, with the car (\w+) on board)\.")
_CARS = re.compile(r"The cars are at locations as follows: ([^.]*)\.")
_CAR_GROUP = re.compile(r"(.+?) (?:is|are) at (\w+)")
_GOAL = re.compile(r"The goal is to reach a state where the following facts hold: ([^.]*)\.")
_GOAL_FACT = re.compile(r"Car (\w+) is at location (\w+)")


def read(context: str) -> Reading:
    text = normalise(context)
    if not text.startswith(OPENING):
        raise ReadError(f"not a ferry context: {text[:60]!r}")

    sizes = _SIZES.search(text)
    if not sizes:
        raise ReadError("ferry context without 'There are N locations and M cars, numbered consecutively.'")
    locations = [f"l{i}" for i in range(int(sizes.group(1)))]
    cars = [f"c{i}" for i in range(int(sizes.group(2)))]
    objects = {**{c: "car" for c in cars}, **{loc: "location" for loc in locations}}

    def check(name: str, kind: str) -> str:
        if objects.get(name) != kind:
            raise ReadError(f"ferry context names {name!r} which is not one of its {kind}s")
        return name

    init = {atom("not-eq", a, b) for a in locations for b in locations if a != b}

    ferry = _FERRY.search(text)
    if not ferry:
        raise ReadError("ferry context without 'Currently, the ferry is at ...' sentence")
    init.add(atom("at-ferry", check(ferry.group(1), "location")))
    if ferry.group(2) is None:
        init.add(atom("empty-ferry"))
    else:
        init.add(atom("on", check(ferry.group(2), "car")))

    parked = _CARS.search(text)
    if parked:
        for group in parked.group(1).split(";"):
            match = _CAR_GROUP.fullmatch(group.strip())
            if not match:
                raise ReadError(f"ferry context: cannot read car positions {group.strip()!r}")
            loc = check(match.group(2), "location")
            for car in names(match.group(1)):
                init.add(atom("at", check(car, "car"), loc))

    goal = None
    stated = _GOAL.search(text)
    if stated:
        facts = []
        for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", stated.group(1).strip()):
            match = _GOAL_FACT.fullmatch(part.strip())
            if not match:
                raise ReadError(f"ferry context: cannot read goal fact {part.strip()!r}")
            facts.append(atom("at", check(match.group(1), "car"), check(match.group(2), "location")))
        goal = tuple(facts)

    return Reading(objects=objects, init=frozenset(init), goal=goal)
