"""visitall: structure of generated problems, derived from the domain's rules."""

from __future__ import annotations

import random
import re

import pytest

from acpgen.generators import get_generator

GEN = get_generator("visitall")


def atoms(spec, predicate):
    return [tuple(a[1:-1].split()[1:]) for a in spec.init if a[1:-1].split()[0] == predicate]


def coords(name: str) -> tuple[int, int]:
    i, j = re.fullmatch(r"loc-x(\d+)-y(\d+)", name).groups()
    return int(i), int(j)


@pytest.mark.parametrize("x,y,holes", [(4, 4, 0), (4, 4, 3), (4, 5, 3), (5, 5, 6), (3, 3, 7), (1, 5, 2)])
def test_grid_with_holes_is_connected_and_fully_visited_in_the_goal(x, y, holes):
    for seed in range(5):
        spec = GEN.generate({"x": x, "y": y, "holes": holes}, random.Random(seed))
        assert re.fullmatch(rf"grid-{x}-{y}-{holes}-\d+", spec.name)
        places = {coords(p) for p, t in spec.objects.items() if t == "place"}
        assert set(spec.objects.values()) == {"place"}
        assert len(places) == x * y - holes
        assert all(0 <= i < x and 0 <= j < y for i, j in places)
        assert (x // 2, y // 2) in places  # the centre is never a hole
        # connected: both directions between every pair of available 4-neighbours, nothing else
        conn = {(coords(a), coords(b)) for a, b in atoms(spec, "connected")}
        expected = {(p, q) for p in places for q in places if abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1}
        assert conn == expected
        # one robot, whose start is the only visited place, and which can reach every place
        ((start,),) = atoms(spec, "at-robot")
        assert atoms(spec, "visited") == [(start,)]
        reached, stack = {coords(start)}, [coords(start)]
        while stack:
            p = stack.pop()
            for a, b in conn:
                if a == p and b not in reached:
                    reached.add(b)
                    stack.append(b)
        assert reached == places
        # goal: every place, listed by x then y
        goal = [coords(re.fullmatch(r"\(visited (\S+)\)", g).group(1)) for g in spec.goal]
        assert goal == sorted(places)


def test_same_seed_same_problem_and_different_seeds_differ():
    size = {"x": 4, "y": 4, "holes": 2}
    assert GEN.render(GEN.generate(size, random.Random(4))) == GEN.render(GEN.generate(size, random.Random(4)))
    bodies = {GEN.render(GEN.generate(size, random.Random(seed))).split("\n", 1)[1] for seed in range(6)}
    assert len(bodies) > 1  # differ beyond the name tag


@pytest.mark.parametrize(
    "bad",
    [
        {"x": 3, "y": 3, "holes": 8},
        {"x": 1, "y": 1, "holes": 0},
        {"x": 4, "y": 4, "holes": -1},
        {"x": 0, "y": 4, "holes": 0},
    ],
)
def test_impossible_sizes_are_rejected(bad):
    with pytest.raises(ValueError):
        GEN.generate(bad, random.Random(0))
