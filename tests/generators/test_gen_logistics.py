"""logistics generator: object layout, positions by the domain's rules, naming and sizes."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from acpgen.generators import get_generator

GEN = get_generator("logistics")
SIZES = [(2, 2, 4, 1), (2, 3, 4, 1), (3, 3, 5, 1), (5, 10, 4, 2), (1, 4, 3, 0)]


def size(c, s, p, a):
    return {"cities": c, "city_size": s, "packages": p, "airplanes": a}


def atoms(spec_atoms):
    return [tuple(a.strip("()").split()) for a in spec_atoms]


@pytest.mark.parametrize("dims", SIZES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_structure(dims, seed):
    c, s, p, a = dims
    spec = GEN.generate(size(*dims), random.Random(seed))
    assert spec.name == f"logistics-c{c}-s{s}-p{p}-a{a}"
    types = Counter(spec.objects.values())
    assert (
        types
        == Counter({"city": c, "airport": c, "location": c * (s - 1), "truck": c, "airplane": a, "package": p})
        - Counter()
    )
    for i in range(c):
        assert spec.objects[f"c{i}"] == "city" and spec.objects[f"t{i}"] == "truck"
        assert spec.objects[f"l{i}-0"] == "airport"
        assert all(spec.objects[f"l{i}-{j}"] == "location" for j in range(1, s))

    init = atoms(spec.init)
    city_of = {a[1]: a[2] for a in init if a[0] == "in-city"}
    assert len([a for a in init if a[0] == "in-city"]) == c * s
    assert city_of == {f"l{i}-{j}": f"c{i}" for i in range(c) for j in range(s)}
    assert not [a for a in init if a[0] == "in"]

    at = Counter(a[1] for a in init if a[0] == "at")
    assert set(at) == {o for o, t in spec.objects.items() if t in ("truck", "airplane", "package")}
    assert set(at.values()) == {1}
    where = {a[1]: a[2] for a in init if a[0] == "at"}
    for i in range(c):
        assert city_of[where[f"t{i}"]] == f"c{i}"
    for k in range(a):
        assert spec.objects[where[f"a{k}"]] == "airport"

    goal = atoms(spec.goal)
    assert [g[1] for g in goal] == [f"p{k}" for k in range(p)]
    assert all(g[0] == "at" and g[2] in city_of for g in goal)
    assert not set(spec.goal) <= set(spec.init)


def test_positions_spread_over_cities():
    seen_cities = set()
    for seed in range(40):
        spec = GEN.generate(size(3, 3, 4, 1), random.Random(seed))
        seen_cities |= {g[2].split("-")[0] for g in atoms(spec.goal)}
    assert seen_cities == {"l0", "l1", "l2"}


def test_seeds_differ():
    texts = {GEN.render(GEN.generate(size(2, 3, 4, 1), random.Random(s))) for s in range(1, 6)}
    assert len(texts) > 1


@pytest.mark.parametrize("dims", [(2, 2, 4, 0), (1, 1, 3, 0), (0, 2, 4, 1), (2, 0, 4, 1), (2, 2, 0, 1), (2, 2, 4, -1)])
def test_impossible_sizes_are_rejected(dims):
    with pytest.raises(ValueError):
        GEN.generate(size(*dims), random.Random(1))
