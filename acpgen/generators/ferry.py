"""ferry: cars moved between locations by a one-car ferry.

Sizes: ``locations`` (>= 1) and ``cars`` (>= 1). Every car's start and goal location and the
ferry's location are uniform; the ferry starts empty. Always solvable (the ferry can reach every
location and carry every car), so no planner check is needed.
"""

from __future__ import annotations

import random

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import FERRY


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


GENERATOR = Generator(
    domain="ferry",
    parameters=("locations", "cars"),
    make=make,
    check_solvable=False,
    example_sizes=({"locations": 2, "cars": 2}, {"locations": 3, "cars": 5}, {"locations": 5, "cars": 10}),
    patterns=FERRY,
)
