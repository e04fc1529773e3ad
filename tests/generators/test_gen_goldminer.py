"""goldminer: the domain file against the ACPBench goldminer domain written out below, and generated problems."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from documented_schema import actual_schema, expected_schema

from acpgen.generators import domain_file, get_generator
from acpgen.pddl.tarski_io import read_strings

GEN = get_generator("goldminer")

# The ACPBench goldminer domain, written out by hand independently of domains/goldminer/domain.pddl.
PREDICATES = {
    "arm-empty": (),
    "bomb-at": ("loc",),
    "clear": ("loc",),
    "connected": ("loc", "loc"),
    "gold-at": ("loc",),
    "hard-rock-at": ("loc",),
    "holds-bomb": (),
    "holds-gold": (),
    "holds-laser": (),
    "laser-at": ("loc",),
    "robot-at": ("loc",),
    "soft-rock-at": ("loc",),
}
ACTIONS = {  # name: (parameters, precondition, add, delete); every parameter is a loc
    "move": ("x - loc, y - loc", "robot-at x, connected x y, clear y", "robot-at y", "robot-at x"),
    "pickup-laser": ("x - loc", "robot-at x, laser-at x, arm-empty", "holds-laser", "arm-empty, laser-at x"),
    "putdown-laser": ("x - loc", "robot-at x, holds-laser", "arm-empty, laser-at x", "holds-laser"),
    "pickup-bomb": ("x - loc", "robot-at x, bomb-at x, arm-empty", "holds-bomb", "arm-empty"),
    "detonate-bomb": (
        "x - loc, y - loc",
        "robot-at x, holds-bomb, connected x y, soft-rock-at y",
        "arm-empty, clear y",
        "holds-bomb, soft-rock-at y",
    ),
    "fire-laser": (
        "x - loc, y - loc",
        "robot-at x, holds-laser, connected x y",
        "clear y",
        "soft-rock-at y, gold-at y, hard-rock-at y",
    ),
    "pick-gold": ("x - loc", "robot-at x, arm-empty, gold-at x", "holds-gold", "arm-empty"),
}


def generate(rows=4, cols=5, seed=1):
    return GEN.generate({"rows": rows, "cols": cols}, random.Random(seed))


def cells_with(spec, predicate):
    return {
        tuple(int(x) for x in f.strip("()").split()[1][1:-1].split("-"))
        for f in spec.init
        if f.strip("()").split()[0] == predicate
    }


def test_domain_file_matches_the_documented_domain():
    lifted = read_strings(domain_file("goldminer").read_text(), GEN.render(generate()))
    assert lifted.domain_name == "gold-miner-typed"
    assert set(lifted.supertypes) == {"loc", "object"}
    assert lifted.supertypes["loc"] == ("loc", "object")
    assert lifted.predicates == PREDICATES
    assert set(lifted.schemas) == set(ACTIONS)
    for name, spec in ACTIONS.items():
        assert actual_schema(lifted.schemas[name]) == expected_schema(spec), name


def test_problem_name_objects_and_goal():
    spec = generate(3, 4)
    assert spec.name == "typed-bomberman-rows3-cols4"
    assert spec.objects == {f"f{i}-{j}f": "loc" for i in range(3) for j in range(4)}
    assert spec.goal == ("(holds-gold)",)


@pytest.mark.parametrize("rows,cols", [(2, 2), (3, 3), (3, 5), (4, 4), (6, 9)])
@pytest.mark.parametrize("seed", range(1, 6))
def test_grid_structure(rows, cols, seed):
    spec = generate(rows, cols, seed)
    every = {(i, j) for i in range(rows) for j in range(cols)}
    column0 = {(i, 0) for i in range(rows)}
    assert "(arm-empty)" in spec.init
    assert not {"(holds-bomb)", "(holds-laser)", "(holds-gold)"} & set(spec.init)
    # connected: both directions between 4-neighbours, nothing else
    connected = {tuple(f.strip("()").split()[1:]) for f in spec.init if f.startswith("(connected ")}
    expected = {
        (f"f{i}-{j}f", f"f{i + di}-{j + dj}f")
        for i, j in every
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if (i + di, j + dj) in every
    }
    assert connected == expected
    # column 0 is clear ground with the robot and, on another row, the bomb supply and the laser
    (robot,) = cells_with(spec, "robot-at")
    (bomb,) = cells_with(spec, "bomb-at")
    assert cells_with(spec, "laser-at") == {bomb}
    assert robot in column0 and bomb in column0 and robot != bomb
    assert cells_with(spec, "clear") == column0
    # every other cell holds exactly one kind of rock
    soft, hard = cells_with(spec, "soft-rock-at"), cells_with(spec, "hard-rock-at")
    assert not soft & hard and soft | hard == every - column0
    # the gold lies under soft rock in the last column
    (gold,) = cells_with(spec, "gold-at")
    assert gold[1] == cols - 1 and gold in soft
    # a soft-rock path leads from the gold to column 1
    reached, frontier = {gold}, [gold]
    while frontier:
        i, j = frontier.pop()
        for n in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
            if n in soft and n not in reached:
                reached.add(n)
                frontier.append(n)
    assert any(j == 1 for _, j in reached)


def test_rock_layouts_vary_with_the_seed():
    texts = {GEN.render(generate(4, 5, s)) for s in range(1, 9)}
    assert len(texts) == 8
    hard = Counter(len(cells_with(generate(4, 5, s), "hard-rock-at")) for s in range(1, 30))
    assert len(hard) > 2  # hard rock varies; it is not all carved away


@pytest.mark.parametrize("rows,cols", [(1, 4), (4, 1), (0, 0)])
def test_impossible_sizes_are_rejected(rows, cols):
    with pytest.raises(ValueError):
        generate(rows, cols)
