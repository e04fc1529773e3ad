"""ferry: cars moved between locations by a one-car ferry.

Sizes: ``locations`` (>= 1) and ``cars`` (>= 1). Every car's start and goal location and the
ferry's location are uniform; the ferry starts empty. Always solvable (the ferry can reach every
location and carry every car), so no planner check is needed.
"""

from __future__ import annotations

import random
from itertools import combinations

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Names, Objects, Pattern, all_at, of_type, single_value


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    n_loc, n_car = size["locations"], size["cars"]
    if n_loc < 1 or n_car < 1:
        raise ValueError("ferry needs at least one location and one car")
    locations = [f"l{i}" for i in range(n_loc)]
    cars = [f"c{i}" for i in range(n_car)]
    objects = {c: "car" for c in cars} | {loc: "location" for loc in locations}
    init = [f"(at {c} {rng.choice(locations)})" for c in cars]
    init += [f"(at-ferry {rng.choice(locations)})", "(empty-ferry)"]
    init += [f"(not-eq {a} {b})" for a in locations for b in locations if a != b]
    goal = tuple(f"(at {c} {rng.choice(locations)})" for c in cars)
    return ProblemSpec(f"ferry-l{n_loc}-c{n_car}", objects, tuple(init), goal)


# ----- abstract descriptions of initial states and goals (text to PDDL) --------------------------
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
    dest = single_value(frozenset(f for f in facts if f.startswith("(at ")), "at", of_type(objects, "car"))
    if len(ferry) != 1 or dest is None or dest == ferry[0]:
        return None
    return {"loc": ferry[0], "dest": dest} if facts == _ferry_apart_facts(objects, ferry[0], dest) else None


def _ferry_cars_at(given: frozenset[str]) -> dict[str, str]:
    """Each car's location in the given facts (a car on board has none)."""
    return dict(f[1:-1].split()[1:] for f in given if f.startswith("(at "))


def _ferry_place(given: frozenset[str]) -> str | None:
    """The ferry's location in the given facts."""
    return next((f[1:-1].split()[1] for f in given if f.startswith("(at-ferry ")), None)


def _ferry_gather(objects: Objects, rng: random.Random, given: frozenset[str]) -> tuple[frozenset[str], Names] | None:
    loc = _ferry_place(given)
    cars = of_type(objects, "car")
    return None if loc is None or not cars else (frozenset(f"(at {c} {loc})" for c in cars), {"loc": loc})


def _ferry_gather_read(objects: Objects, facts: frozenset[str], given: frozenset[str]) -> Names | None:
    made = _ferry_gather(objects, random.Random(0), given)
    return made[1] if made is not None and facts == made[0] else None


def _ferry_swap_facts(given: frozenset[str], a: str, b: str) -> frozenset[str]:
    """The cars at ``a`` now at ``b``, and those at ``b`` at ``a``."""
    other = {a: b, b: a}
    return frozenset(f"(at {c} {other[x]})" for c, x in _ferry_cars_at(given).items() if x in other)


def _ferry_swapped(objects: Objects, rng: random.Random, given: frozenset[str]) -> tuple[frozenset[str], Names] | None:
    held = set(_ferry_cars_at(given).values())
    pairs = [(a, b) for a, b in combinations(of_type(objects, "location"), 2) if a in held or b in held]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    return _ferry_swap_facts(given, a, b), {"a": a, "b": b}


def _ferry_swapped_read(objects: Objects, facts: frozenset[str], given: frozenset[str]) -> Names | None:
    for a, b in combinations(of_type(objects, "location"), 2):
        if facts and facts == _ferry_swap_facts(given, a, b):
            return {"a": a, "b": b}
    return None


PATTERNS = (
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
    Pattern("all-at", "goal", "every car is at location {loc}", *all_at("car", "location", "loc")),
    Pattern(
        "to-ferry",
        "goal",
        "every car is at location {loc}, where the ferry is now",
        _ferry_gather,
        _ferry_gather_read,
        uses_facts=True,
    ),
    Pattern(
        "swapped",
        "goal",
        "every car now at location {a} is at location {b}, and every car now at location {b} is at location {a}",
        _ferry_swapped,
        _ferry_swapped_read,
        uses_facts=True,
    ),
)


GENERATOR = Generator(
    domain="ferry",
    parameters=("locations", "cars"),
    make=make,
    check_solvable=False,
    example_sizes=({"locations": 2, "cars": 2}, {"locations": 3, "cars": 5}, {"locations": 5, "cars": 10}),
    patterns=PATTERNS,
)
