"""floortile: structure of generated problems, derived from the domain's rules."""

from __future__ import annotations

import random

import pytest

from acpgen.generators import domain_file, get_generator
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask

GEN = get_generator("floortile")


def atoms(spec, predicate):
    return [tuple(a[1:-1].split()[1:]) for a in spec.init if a[1:-1].split()[0] == predicate]


def number(tile: str) -> int:
    return int(tile.removeprefix("tile_"))


def cell(tile: str, cols: int) -> tuple[int, int]:
    """(row, column) of a tile: numbers are row * cols + col with col in 1..cols."""
    n = number(tile)
    return (n - 1) // cols, (n - 1) % cols + 1


@pytest.mark.parametrize("rows,cols,robots", [(2, 3, 2), (3, 4, 2), (3, 5, 3), (4, 4, 4)])
def test_layout_follows_the_rules(rows, cols, robots):
    for seed in range(4):
        spec = GEN.generate({"rows": rows, "columns": cols, "robots": robots}, random.Random(seed))
        assert spec.name == f"floortile-{rows}-{cols}-{robots}"
        tiles = {o for o, t in spec.objects.items() if t == "tile"}
        assert tiles == {f"tile_{n}" for n in range(1, (rows + 1) * cols + 1)}
        assert sorted(o for o, t in spec.objects.items() if t == "robot") == [f"robot{i}" for i in range(1, robots + 1)]
        assert sorted(o for o, t in spec.objects.items() if t == "color") == ["black", "white"]
        assert sorted(atoms(spec, "available-color")) == [("black",), ("white",)]
        # neighbourhood relations
        up, down = set(atoms(spec, "up")), set(atoms(spec, "down"))
        right, left = set(atoms(spec, "right")), set(atoms(spec, "left"))
        assert len(up) == len(down) == rows * cols and len(right) == len(left) == (rows + 1) * (cols - 1)
        assert down == {(b, a) for a, b in up} and left == {(b, a) for a, b in right}
        assert all(number(a) == number(b) + cols for a, b in up)
        assert all(number(a) == number(b) + 1 and cell(a, cols)[0] == cell(b, cols)[0] for a, b in right)
        # robots: one tile each, distinct columns, alternating colours starting with white
        at = dict(atoms(spec, "robot-at"))
        assert len(at) == robots and len({cell(t, cols)[1] for t in at.values()}) == robots
        has = dict(atoms(spec, "robot-has"))
        assert has == {f"robot{i}": ("white" if i % 2 else "black") for i in range(1, robots + 1)}
        # a tile is clear iff no robot is on it; nothing painted yet
        assert {t for (t,) in atoms(spec, "clear")} == tiles - set(at.values())
        assert not atoms(spec, "painted") and not atoms(spec, "free-color")


def test_goal_is_a_checkerboard_above_the_extra_row():
    rows, cols = 3, 4
    spec = GEN.generate({"rows": rows, "columns": cols, "robots": 2}, random.Random(0))
    painted = [tuple(g[1:-1].split()[1:]) for g in spec.goal]
    assert [number(t) for t, _ in painted] == list(range(cols + 1, (rows + 1) * cols + 1))
    colour = dict(painted)
    assert colour[f"tile_{cols + 1}"] == "white"
    for t, c in colour.items():  # horizontally and vertically adjacent goal tiles differ
        _, col = cell(t, cols)
        for other in (f"tile_{number(t) + 1}" if col < cols else None, f"tile_{number(t) + cols}"):
            if other in colour:
                assert colour[other] != c


def test_different_seeds_give_different_problems_and_same_seed_the_same():
    size = {"rows": 3, "columns": 4, "robots": 2}
    texts = {GEN.render(GEN.generate(size, random.Random(seed))) for seed in range(6)}
    assert len(texts) > 1
    assert GEN.render(GEN.generate(size, random.Random(9))) == GEN.render(GEN.generate(size, random.Random(9)))


@pytest.mark.parametrize(
    "bad",
    [
        {"rows": 2, "columns": 2, "robots": 3},
        {"rows": 0, "columns": 3, "robots": 1},
        {"rows": 2, "columns": 3, "robots": 0},
    ],
)
def test_impossible_sizes_are_rejected(bad):
    with pytest.raises(ValueError):
        GEN.generate(bad, random.Random(0))


@pytest.mark.parametrize("seed", range(4))
def test_tiny_problems_are_solvable_by_exhaustive_search(seed):
    text = GEN.render(GEN.generate({"rows": 2, "columns": 2, "robots": 2}, random.Random(seed)))
    task = GroundTask.from_strings(domain_file("floortile").read_text(), text)
    space = explore(task, task.init, 100_000)
    assert space.complete and space.optimal_cost() is not None, "no plan exists"
