"""depots: hoists move crates between pallets, trucks carry crates between places.

Sizes: ``depots``, ``distributors``, ``trucks``, ``pallets``, ``hoists`` and ``crates`` (all
>= 1), as in the public generator (``-e -i -t -p -h -c``). Places are the depots followed by the
distributors. Pallet i and hoist i stand at place i for every place i, so ``pallets`` and
``hoists`` must each be at least the number of places (the public generator silently raises
them; here a smaller value is an error, so the problem name always states the real counts).
Extra pallets and hoists, and all trucks, stand at uniformly random places. Each crate in turn
goes on top of the current stack of a uniformly random pallet. Goal: 2 * crates draws of a random
crate; a crate drawn for the first time is put on top of the goal stack of a random pallet;
crates never drawn get no goal. Goal atoms are listed in crate order.

Always solvable, so no planner check: every place has a hoist and a pallet, a truck can drive
between any two places and holds any number of crates, so every crate can be unstacked, parked
in a truck and restacked in goal order on any pallet.
"""

from __future__ import annotations

import random
from functools import partial
from itertools import pairwise

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Names, Objects, Pattern, each, fixed, of_type, same

PARAMETERS = ("depots", "distributors", "trucks", "pallets", "hoists", "crates")


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    for name in PARAMETERS:
        if size[name] < 1:
            raise ValueError(f"depots needs at least one of each object kind ({name} = {size[name]})")
    places = [f"depot{i}" for i in range(size["depots"])]
    places += [f"distributor{i}" for i in range(size["distributors"])]
    for name in ("pallets", "hoists"):
        if size[name] < len(places):
            raise ValueError(
                f"depots needs {name} >= depots + distributors = {len(places)} "
                f"(every place has its own {name[:-1]}), got {size[name]}"
            )
    trucks = [f"truck{i}" for i in range(size["trucks"])]
    pallets = [f"pallet{i}" for i in range(size["pallets"])]
    hoists = [f"hoist{i}" for i in range(size["hoists"])]
    crates = [f"crate{i}" for i in range(size["crates"])]

    objects = {p: "Depot" for p in places if p.startswith("depot")}
    objects |= {p: "Distributor" for p in places if p.startswith("distributor")}
    objects |= {t: "Truck" for t in trucks} | {p: "Pallet" for p in pallets}
    objects |= {h: "Hoist" for h in hoists} | {c: "Crate" for c in crates}

    def placed(items: list[str]) -> dict[str, str]:
        """Item i at place i while places last, the rest at random places."""
        return {x: places[i] if i < len(places) else rng.choice(places) for i, x in enumerate(items)}

    truck_at = {t: rng.choice(places) for t in trucks}
    hoist_at = placed(hoists)
    pallet_at = placed(pallets)

    init = [f"(at {t} {p})" for t, p in truck_at.items()]
    init += [f"(at {h} {p})" for h, p in hoist_at.items()] + [f"(available {h})" for h in hoists]
    init += [f"(at {p} {loc})" for p, loc in pallet_at.items()]
    top = {p: p for p in pallets}  # current top surface of each pallet's stack
    for crate in crates:
        pallet = rng.choice(pallets)
        init += [f"(at {crate} {pallet_at[pallet]})", f"(on {crate} {top[pallet]})"]
        top[pallet] = crate
    init += [f"(clear {surface})" for surface in top.values()]

    goal_top = {p: p for p in pallets}
    goal_on: dict[str, str] = {}
    for _ in range(2 * len(crates)):
        crate = rng.choice(crates)
        if crate in goal_on:
            continue
        pallet = rng.choice(pallets)
        goal_on[crate] = goal_top[pallet]
        goal_top[pallet] = crate
    goal = tuple(f"(on {c} {goal_on[c]})" for c in crates if c in goal_on)

    name = "depot-" + "-".join(str(size[p]) for p in PARAMETERS)
    return ProblemSpec(name, objects, tuple(init), goal)


# ----- abstract descriptions of initial states and goals (text to PDDL) --------------------------
_GATHERED = "every truck, hoist and pallet is at place {place} and every hoist is available"
_CRATES = {
    "in-truck": "every crate is in truck {truck} and every pallet is clear",
    "one-stack": "the crates form one stack on pallet {pallet}, in alphabetical order from the bottom, "
    "and every other pallet is clear",
    "own-pallet": "the crates, in alphabetical order, stand each on its own pallet, the pallets taken in "
    "alphabetical order (every crate clear; every pallet left over clear)",
}
_CRATE_KEYS = {"in-truck": (("truck", ("truck",)),), "one-stack": (("pallet", ("pallet",)),), "own-pallet": ()}


def _crates(how: str, objects: Objects, names: Names) -> set[str] | None:
    """Where the crates are (``how``: one of _CRATES), with the clear surfaces; None when it cannot be."""
    crates, pallets = of_type(objects, "crate"), of_type(objects, "pallet")
    if how == "in-truck":
        return {f"(in {c} {names['truck']})" for c in crates} | {f"(clear {p})" for p in pallets}
    if how == "one-stack":
        stack = [names["pallet"], *crates]
        facts = {f"(on {upper} {lower})" for lower, upper in pairwise(stack)} | {f"(clear {stack[-1]})"}
        return facts | {f"(clear {p})" for p in pallets if p != names["pallet"]}
    if len(crates) > len(pallets):
        return None
    facts = {f"(on {c} {p})" for c, p in zip(crates, pallets)} | {f"(clear {c})" for c in crates}
    return facts | {f"(clear {p})" for p in pallets[len(crates) :]}


def _gathered_facts(how: str, objects: Objects, given: frozenset[str], names: Names) -> frozenset[str] | None:
    """Every truck, hoist and pallet at one place, every hoist available, the crates as ``how`` says (a crate
    on a surface is at the place too)."""
    crates = _crates(how, objects, names)
    if crates is None:
        return None
    place = names["place"]
    facts = {f"(at {x} {place})" for t in ("truck", "hoist", "pallet") for x in of_type(objects, t)}
    facts |= {f"(available {h})" for h in of_type(objects, "hoist")}
    if how != "in-truck":
        facts |= {f"(at {c} {place})" for c in of_type(objects, "crate")}
    return frozenset(facts | crates)


def _gathered(name: str, how: str) -> Pattern:
    keys = (("place", ("depot", "distributor")), *_CRATE_KEYS[how])
    return Pattern(name, "init", f"{_GATHERED}; {_CRATES[how]}", **fixed(keys, partial(_gathered_facts, how)))


PATTERNS = (
    _gathered("crates-in-truck", "in-truck"),
    _gathered("one-stack", "one-stack"),
    _gathered("own-pallet", "own-pallet"),
    Pattern(
        "all-at",
        "goal",
        "every crate is at place {place}",
        **same("at", ("crate",), ("depot", "distributor"), "place"),
    ),
    Pattern("all-in-truck", "goal", "every crate is in truck {truck}", **same("in", ("crate",), ("truck",), "truck")),
    Pattern("hoists-free", "goal", "every hoist is available", **each("available", ("hoist",))),
)


GENERATOR = Generator(
    domain="depots",
    parameters=PARAMETERS,
    make=make,
    check_solvable=False,
    example_sizes=(
        {"depots": 1, "distributors": 1, "trucks": 1, "pallets": 2, "hoists": 2, "crates": 2},
        {"depots": 2, "distributors": 2, "trucks": 2, "pallets": 4, "hoists": 4, "crates": 2},
        {"depots": 3, "distributors": 2, "trucks": 2, "pallets": 6, "hoists": 5, "crates": 3},
    ),
    patterns=PATTERNS,
)
