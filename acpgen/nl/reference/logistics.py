"""Reader of the reference prose of the logistics domain (PDDL domain ``logistics-strips``).

A reference context reads, after the domain description::

    There are 2 trucks and 1 airplane, as well as 4 packages. There are 4 locations across 2 cities.
    The locations are in cities as follows: l0-1 and l0-0 are in c0; l1-1 and l1-0 are in c1.
    Currently, a0, t0, and p2 are at l0-0, t1 is at l1-1, p1 is at l0-1, p0 is in t0, p3 is in a0.
    The goal is to reach a state where the following facts hold: p0 is at l0-1, ..., and p3 is at l0-0.

Objects are trucks ``t0 ..``, airplanes ``a0 ..``, packages ``p0 ..``, cities ``c0 ..`` and the locations
named in the city sentence. The prose never says which locations are airports: the reference problems
(IPC logistics generator) have one airport per city, its location ``l<city>-0``, so a location whose name
ends in ``-0`` is typed ``airport``, every other one ``location``.
"""

from __future__ import annotations

import re

from acpgen.nl.reference.base import ReadError, Reading, atom, names, normalise

PDDL_NAME = "logistics-strips"

# The first words of every context of this domain (how a context is recognised).
OPENING = "There are several cities, each containing several locations, some of which are airports."
_VEHICLES = re.compile(r"There are (\d+) trucks? and (\d+) airplanes?, as well as (\d+) packages?\.")
_PLACES = re.compile(r"There are (\d+) locations? across (\d+) (?:city|cities)\.")
_CITIES = re.compile(r"The locations are in cities as follows: ([^.]*)\.")
_CITY_GROUP = re.compile(r"(.+?) (?:is|are) in ([\w-]+)")
_STATE = re.compile(r"Currently, ([^.]*)\.")
_GOAL = re.compile(r"The goal is to reach a state where the following facts hold: ([^.]*)\.")
# "a0, t0, and p2 are at l0-0, t1 is at l1-1, p0 is in t0" -> [subjects, rel, object, subjects, ...]
_RELATION = re.compile(r"\s+(?:is|are)\s+(at|in)\s+([\w-]+)(?:,\s*(?:and\s+)?|\s*$)")

_LOCATED = {"package", "truck", "airplane"}
_PLACE = {"location", "airport"}
_VEHICLE = {"truck", "airplane"}


def _facts(body: str, objects: dict[str, str], what: str) -> list[str]:
    """'a0 and t0 are at l0-0, p0 is in t0' -> ['(at a0 l0-0)', '(at t0 l0-0)', '(in p0 t0)']."""
    pieces = _RELATION.split(body.strip())
    if len(pieces) < 4 or pieces[-1].strip():
        raise ReadError(f"logistics context: cannot read {what} {body.strip()!r}")
    facts = []
    for i in range(0, len(pieces) - 1, 3):
        subjects, rel, obj = pieces[i], pieces[i + 1], pieces[i + 2]
        if rel == "at":
            allowed_subject, allowed_object = _LOCATED, _PLACE
        else:
            allowed_subject, allowed_object = {"package"}, _VEHICLE
        if objects.get(obj) not in allowed_object:
            raise ReadError(
                f"logistics context: {what} has {obj!r} after '{rel}', not a known {'/'.join(sorted(allowed_object))}"
            )
        subject_names = names(subjects)
        if not subject_names:
            raise ReadError(f"logistics context: {what} has no subject before '{rel} {obj}'")
        for name in subject_names:
            if objects.get(name) not in allowed_subject:
                allowed = "/".join(sorted(allowed_subject))
                raise ReadError(f"logistics context: {what} has {name!r} '{rel}' {obj}, not a known {allowed}")
            facts.append(atom(rel, name, obj))
    return facts


def read(context: str) -> Reading:
    text = normalise(context)
    if not text.startswith(OPENING):
        raise ReadError(f"not a logistics context: {text[:60]!r}")

    vehicles = _VEHICLES.search(text)
    if not vehicles:
        raise ReadError("logistics context without 'There are N trucks and M airplanes, as well as K packages.'")
    places = _PLACES.search(text)
    if not places:
        raise ReadError("logistics context without 'There are N locations across M cities.'")
    cities_sentence = _CITIES.search(text)
    if not cities_sentence:
        raise ReadError("logistics context without 'The locations are in cities as follows: ...'")

    objects: dict[str, str] = {}
    for prefix, count, kind in (
        ("t", vehicles.group(1), "truck"),
        ("a", vehicles.group(2), "airplane"),
        ("p", vehicles.group(3), "package"),
        ("c", places.group(2), "city"),
    ):
        objects.update({f"{prefix}{i}": kind for i in range(int(count))})

    init: set[str] = set()
    located = 0
    for group in cities_sentence.group(1).split(";"):
        match = _CITY_GROUP.fullmatch(group.strip())
        if not match:
            raise ReadError(f"logistics context: cannot read city group {group.strip()!r}")
        city = match.group(2)
        if objects.get(city) != "city":
            raise ReadError(f"logistics context: {city!r} is not one of its cities")
        for loc in names(match.group(1)):
            if loc in objects:
                raise ReadError(f"logistics context: location {loc!r} named twice or clashes with another object")
            objects[loc] = "airport" if loc.endswith("-0") else "location"
            init.add(atom("in-city", loc, city))
            located += 1
    if located != int(places.group(1)):
        raise ReadError(f"logistics context: {places.group(1)} locations announced, {located} placed in cities")

    state = _STATE.search(text)
    if not state:
        raise ReadError("logistics context without 'Currently, ...' sentence")
    init.update(_facts(state.group(1), objects, "state"))

    goal = None
    stated = _GOAL.search(text)
    if stated:
        goal = tuple(_facts(stated.group(1), objects, "goal"))

    return Reading(objects=objects, init=frozenset(init), goal=goal)
