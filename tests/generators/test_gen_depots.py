"""depots: the domain file against the ACPBench depots domain written out below, and generated problems."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from documented_schema import actual_schema, expected_schema

from acpgen.generators import domain_file, get_generator
from acpgen.pddl.tarski_io import read_strings

GEN = get_generator("depots")
SIZE = {"depots": 3, "distributors": 2, "trucks": 2, "pallets": 7, "hoists": 6, "crates": 6}

# The ACPBench depots domain, written out by hand independently of domains/depots/domain.pddl.
PARENTS = {
    "place": "object",
    "locatable": "object",
    "depot": "place",
    "distributor": "place",
    "truck": "locatable",
    "hoist": "locatable",
    "surface": "locatable",
    "pallet": "surface",
    "crate": "surface",
}
PREDICATES = {
    "at": ("locatable", "place"),
    "on": ("crate", "surface"),
    "in": ("crate", "truck"),
    "lifting": ("hoist", "crate"),
    "available": ("hoist",),
    "clear": ("surface",),
}
HCTP = "x - hoist, y - crate, z - truck, p - place"
HCSP = "x - hoist, y - crate, z - surface, p - place"
ACTIONS = {  # name: (parameters, precondition, add, delete)
    "drive": ("x - truck, y - place, z - place", "at x y", "at x z", "at x y"),
    "lift": (
        HCSP,
        "at x p, available x, at y p, on y z, clear y",
        "lifting x y, clear z",
        "at y p, clear y, available x, on y z",
    ),
    "drop": (
        HCSP,
        "at x p, at z p, clear z, lifting x y",
        "available x, at y p, clear y, on y z",
        "lifting x y, clear z",
    ),
    "load": (HCTP, "at x p, at z p, lifting x y", "in y z, available x", "lifting x y"),
    "unload": (HCTP, "at x p, at z p, available x, in y z", "lifting x y", "in y z, available x"),
}


def generate(size=SIZE, seed=1):
    return GEN.generate(size, random.Random(seed))


def atoms(facts):
    return [tuple(f.strip("()").split()) for f in facts]


def test_domain_file_matches_the_documented_domain():
    lifted = read_strings(domain_file("depots").read_text(), GEN.render(generate()))
    assert lifted.domain_name == "depots"
    for t, parent in PARENTS.items():
        ancestors = {parent}
        while parent != "object":
            parent = PARENTS[parent]
            ancestors.add(parent)
        assert set(lifted.supertypes[t]) == {t} | ancestors
    assert set(lifted.supertypes) == set(PARENTS) | {"object"}
    assert lifted.predicates == PREDICATES
    assert set(lifted.schemas) == set(ACTIONS)
    for name, spec in ACTIONS.items():
        assert actual_schema(lifted.schemas[name]) == expected_schema(spec), name
    text = domain_file("depots").read_text()
    for capitalised in ("Depot", "Distributor", "Truck", "Hoist", "Surface", "Pallet", "Crate"):
        assert re.search(rf"\b{capitalised}\b", text), f"type {capitalised} is capitalised in the reference"


def test_problem_name_and_object_counts():
    spec = generate()
    assert spec.name == "depot-3-2-2-7-6-6"
    counts = Counter(spec.objects.values())
    assert counts == {"Depot": 3, "Distributor": 2, "Truck": 2, "Pallet": 7, "Hoist": 6, "Crate": 6}
    assert {o for o, t in spec.objects.items() if t == "Crate"} == {f"crate{i}" for i in range(6)}


@pytest.mark.parametrize("seed", range(1, 11))
def test_initial_state_structure(seed):
    spec = generate(seed=seed)
    places = [o for o, t in spec.objects.items() if t in ("Depot", "Distributor")]
    ordered_places = [f"depot{i}" for i in range(3)] + [f"distributor{i}" for i in range(2)]
    init = atoms(spec.init)
    at = Counter(a[1] for a in init if a[0] == "at")
    where = {a[1]: a[2] for a in init if a[0] == "at"}
    on = {a[1]: a[2] for a in init if a[0] == "on"}
    clear = {a[1] for a in init if a[0] == "clear"}
    assert {a[0] for a in init} == {"at", "on", "clear", "available"}
    # every locatable has exactly one place; trucks, hoists, pallets and crates alike
    assert set(at) == {o for o, t in spec.objects.items() if t not in ("Depot", "Distributor")}
    assert set(at.values()) == {1}
    assert set(where.values()) <= set(places)
    # pallet i and hoist i stand at place i: every place has a pallet and a hoist
    for i, place in enumerate(ordered_places):
        assert where[f"pallet{i}"] == place and where[f"hoist{i}"] == place
    assert {a[1] for a in init if a[0] == "available"} == {o for o, t in spec.objects.items() if t == "Hoist"}
    # crates form towers on pallets: one crate per surface, no cycles, same place as the pallet
    crates = [o for o, t in spec.objects.items() if t == "Crate"]
    assert set(on) == set(crates)
    assert len(set(on.values())) == len(on)
    for crate in crates:
        surface, seen = crate, set()
        while surface in on:
            assert surface not in seen
            seen.add(surface)
            surface = on[surface]
        assert spec.objects[surface] == "Pallet"
        assert where[crate] == where[surface]
    # clear exactly the tops of the towers (a pallet without crates is its own top)
    tops = {s for s in crates + [o for o, t in spec.objects.items() if t == "Pallet"] if s not in on.values()}
    assert clear == tops


@pytest.mark.parametrize("seed", range(1, 11))
def test_goal_is_towers_of_crates_in_crate_order(seed):
    spec = generate(seed=seed)
    goal = atoms(spec.goal)
    assert goal and all(a[0] == "on" for a in goal)
    crates = [a[1] for a in goal]
    assert crates == sorted(crates, key=lambda c: int(c[len("crate") :]))
    assert len(set(crates)) == len(crates)
    below = {a[1]: a[2] for a in goal}
    assert len(set(below.values())) == len(below)  # at most one crate on each surface
    for crate in crates:  # every goal tower stands on a pallet
        surface, steps = crate, 0
        while surface in below:
            surface, steps = below[surface], steps + 1
            assert steps <= len(below)
        assert spec.objects[surface] == "Pallet"


def test_seeds_give_different_problems_and_same_seed_the_same():
    texts = {GEN.render(generate(seed=s)) for s in range(1, 6)}
    assert len(texts) == 5
    assert GEN.render(generate(seed=3)) == GEN.render(generate(seed=3))


@pytest.mark.parametrize("change", [{"pallets": 4}, {"hoists": 3}, {"crates": 0}, {"trucks": 0}, {"depots": 0}])
def test_impossible_sizes_are_rejected(change):
    with pytest.raises(ValueError):
        generate(SIZE | change)
