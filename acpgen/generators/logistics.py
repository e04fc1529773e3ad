"""logistics: packages moved by trucks inside cities and by airplanes between airports.

Sizes: ``cities`` (C >= 1), ``city_size`` (S >= 1: locations per city, the airport
included), ``packages`` (P >= 1) and ``airplanes`` (A >= 0; at least 1 when C > 1).
City ``c{i}`` has the airport ``l{i}-0`` and the plain locations ``l{i}-1 .. l{i}-{S-1}``, and
one truck ``t{i}`` that starts at a uniform location of its city. Each airplane starts at a
uniform city's airport; each package's start and goal are independent uniform (city,
location) draws, as in the public generator. The name is ``logistics-c{C}-s{S}-p{P}-a{A}``;
the goal lists ``p0, p1, ...`` in numeric order.

Solvable by construction: inside a city its truck reaches every location (DRIVE-TRUCK needs
only that both ends are in the city), and with an airplane every airport reaches every other
(FLY-AIRPLANE has no precondition beyond the airplane's position), so any package can go
truck -> airport -> airplane -> airport -> truck to any location. With one city no airplane
is needed. Goals that already all hold at the start are redrawn (a problem with an empty
plan is useless for the questions), which needs at least two locations in all (C * S >= 2).
"""

from __future__ import annotations

import random
from functools import partial

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Names, Objects, Pattern, args_of, fixed, of_type, same


def _check(n_city: int, city_size: int, n_pkg: int, n_plane: int) -> None:
    if n_city < 1 or city_size < 1 or n_pkg < 1:
        raise ValueError("logistics needs cities >= 1, city_size >= 1 and packages >= 1")
    if n_plane < 0:
        raise ValueError("logistics: airplanes must be >= 0")
    if n_city > 1 and n_plane < 1:
        raise ValueError(
            "logistics with more than one city needs at least one airplane (otherwise packages cannot leave their city)"
        )
    if n_city * city_size < 2:
        raise ValueError(
            "logistics needs at least two locations (cities * city_size >= 2), otherwise every goal holds at the start"
        )


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    n_city, city_size = size["cities"], size["city_size"]
    n_pkg, n_plane = size["packages"], size["airplanes"]
    _check(n_city, city_size, n_pkg, n_plane)

    cities = [f"c{i}" for i in range(n_city)]
    places = [[f"l{i}-{j}" for j in range(city_size)] for i in range(n_city)]
    trucks = [f"t{i}" for i in range(n_city)]
    planes = [f"a{k}" for k in range(n_plane)]
    packages = [f"p{k}" for k in range(n_pkg)]

    objects = {c: "city" for c in cities} | {t: "truck" for t in trucks}
    objects |= {a: "airplane" for a in planes} | {p: "package" for p in packages}
    for city_places in places:
        objects |= {loc: ("airport" if j == 0 else "location") for j, loc in enumerate(city_places)}

    def uniform_place() -> str:
        return rng.choice(places[rng.randrange(n_city)])

    init = [f"(in-city {loc} {cities[i]})" for i, city_places in enumerate(places) for loc in city_places]
    init += [f"(at {t} {rng.choice(places[i])})" for i, t in enumerate(trucks)]
    init += [f"(at {a} {places[rng.randrange(n_city)][0]})" for a in planes]
    start = {p: uniform_place() for p in packages}
    init += [f"(at {p} {loc})" for p, loc in start.items()]
    while True:
        goal = {p: uniform_place() for p in packages}
        if goal != start:
            break
    goal_atoms = tuple(f"(at {p} {goal[p]})" for p in packages)
    name = f"logistics-c{n_city}-s{city_size}-p{n_pkg}-a{n_plane}"
    return ProblemSpec(name, objects, tuple(init), goal_atoms)


# ----- abstract descriptions of initial states and goals (text to PDDL) --------------------------
_TRUCKS_AT_AIRPORTS = "the trucks, in alphabetical order, stand at the airports of the cities in alphabetical order"
_PACKAGES = {"at": "is at location {loc}", "airplane": "is in airplane {plane}", "truck": "is in truck {truck}"}
_KEYS = {"at": ("loc", ("location", "airport")), "airplane": ("plane", ("airplane",)), "truck": ("truck", ("truck",))}


def _hub_facts(packages: str, objects: Objects, given: frozenset[str], names: Names) -> frozenset[str] | None:
    """The hub state: truck i at the one airport of city i (both in alphabetical order), every airplane at
    airport ``names["airport"]``, every package at a location, in an airplane or in a truck (``packages``).
    None unless every city has exactly one airport, there are as many trucks as cities and an airplane."""
    cities, trucks = of_type(objects, "city"), of_type(objects, "truck")
    airports = set(of_type(objects, "airport"))
    port = {c: [loc for loc, city in args_of(given, "in-city") if city == c and loc in airports] for c in cities}
    planes = of_type(objects, "airplane")
    if not planes or len(trucks) != len(cities) or any(len(found) != 1 for found in port.values()):
        return None
    facts = {f"(at {t} {port[c][0]})" for t, c in zip(trucks, cities)}
    facts |= {f"(at {a} {names['airport']})" for a in planes}
    relation = "at" if packages == "at" else "in"
    facts |= {f"({relation} {p} {names[_KEYS[packages][0]]})" for p in of_type(objects, "package")}
    return frozenset(facts)


def _hub(name: str, packages: str) -> Pattern:
    return Pattern(
        name,
        "init",
        f"{_TRUCKS_AT_AIRPORTS} (one truck per city), every airplane is at airport {{airport}}, "
        f"and every package {_PACKAGES[packages]}",
        **fixed((("airport", ("airport",)), _KEYS[packages]), partial(_hub_facts, packages)),
    )


PATTERNS = (
    _hub("trucks-home", "at"),
    _hub("loaded-airplane", "airplane"),
    _hub("loaded-truck", "truck"),
    Pattern(
        "all-at",
        "goal",
        "every package is at location {loc}",
        **same("at", ("package",), ("location", "airport"), "loc"),
    ),
    Pattern(
        "all-in-truck", "goal", "every package is in truck {truck}", **same("in", ("package",), ("truck",), "truck")
    ),
    Pattern(
        "all-in-airplane",
        "goal",
        "every package is in airplane {plane}",
        **same("in", ("package",), ("airplane",), "plane"),
    ),
)


GENERATOR = Generator(
    domain="logistics",
    parameters=("cities", "city_size", "packages", "airplanes"),
    make=make,
    check_solvable=False,
    example_sizes=(
        {"cities": 2, "city_size": 2, "packages": 4, "airplanes": 1},
        {"cities": 2, "city_size": 3, "packages": 4, "airplanes": 1},
        {"cities": 3, "city_size": 3, "packages": 4, "airplanes": 1},
    ),
    patterns=PATTERNS,
)
