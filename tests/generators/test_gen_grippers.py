"""grippers generator: object layout, one position per robot and ball, naming and sizes."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from acpgen.generators import get_generator

GEN = get_generator("grippers")


def size(robots, rooms, balls):
    return {"robots": robots, "rooms": rooms, "balls": balls}


def atoms(spec_atoms):
    return [tuple(a.strip("()").split()) for a in spec_atoms]


@pytest.mark.parametrize("dims", [(1, 2, 4), (1, 5, 4), (1, 3, 15), (3, 4, 6)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_structure(dims, seed):
    n_robot, n_room, n_ball = dims
    spec = GEN.generate(size(*dims), random.Random(seed))
    assert spec.name == f"gripper-{n_robot}-{n_room}-{n_ball}"
    robots = {f"robot{i}" for i in range(1, n_robot + 1)}
    rooms = {f"room{i}" for i in range(1, n_room + 1)}
    balls = {f"ball{i}" for i in range(1, n_ball + 1)}
    grippers = {f"{side}{i}" for i in range(1, n_robot + 1) for side in ("left", "right")}
    expected = {r: "robot" for r in robots} | {x: "room" for x in rooms}
    expected |= {b: "ball" for b in balls} | {g: "gripper" for g in grippers}
    assert spec.objects == expected

    init = atoms(spec.init)
    robot_at = [a for a in init if a[0] == "at-robby"]
    assert sorted(a[1] for a in robot_at) == sorted(robots) and all(a[2] in rooms for a in robot_at)
    ball_at = [a for a in init if a[0] == "at"]
    assert sorted(a[1] for a in ball_at) == sorted(balls) and all(a[2] in rooms for a in ball_at)
    free = {(a[1], a[2]) for a in init if a[0] == "free"}
    assert free == {(f"robot{i}", f"{side}{i}") for i in range(1, n_robot + 1) for side in ("left", "right")}
    assert not [a for a in init if a[0] == "carry"]
    assert len(init) == 3 * n_robot + n_ball

    goal = atoms(spec.goal)
    assert [g[1] for g in goal] == [f"ball{i}" for i in range(1, n_ball + 1)]
    assert all(g[0] == "at" and g[2] in rooms for g in goal)
    assert not set(spec.goal) <= set(spec.init)


def test_goal_rooms_are_independent_of_start():
    same = Counter()
    for seed in range(200):
        spec = GEN.generate(size(1, 2, 4), random.Random(seed))
        start = {a[1]: a[2] for a in atoms(spec.init) if a[0] == "at"}
        same.update(start[g[1]] == g[2] for g in atoms(spec.goal))
    assert same[True] > 0 and same[False] > 0  # a goal may equal the start room, but need not


def test_seeds_differ():
    texts = {GEN.render(GEN.generate(size(1, 3, 4), random.Random(s))) for s in range(1, 6)}
    assert len(texts) > 1


@pytest.mark.parametrize("dims", [(0, 3, 4), (1, 1, 4), (1, 0, 4), (1, 3, 0)])
def test_impossible_sizes_are_rejected(dims):
    with pytest.raises(ValueError):
        GEN.generate(size(*dims), random.Random(1))
