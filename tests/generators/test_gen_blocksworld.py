"""blocksworld generator: complete uniform random states, usable goals, naming and sizes."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from acpgen.generators import get_generator
from acpgen.generators.blocksworld import completions, random_state

GEN = get_generator("blocksworld")


def atoms(spec_atoms):
    return [tuple(a.strip("()").split()) for a in spec_atoms]


def supports(init, blocks):
    """block -> what it stands on ("table" or a block); checks every block has exactly one."""
    below = {}
    for atom in atoms(init):
        if atom[0] == "on":
            assert atom[1] not in below
            below[atom[1]] = atom[2]
        elif atom[0] == "ontable":
            assert atom[1] not in below
            below[atom[1]] = "table"
    assert set(below) == set(blocks)
    return below


def assert_towers(below):
    """No block carries two blocks and every block reaches the table (no cycles)."""
    carried = [y for y in below.values() if y != "table"]
    assert len(carried) == len(set(carried))
    for b in below:
        seen = set()
        while b != "table":
            assert b not in seen
            seen.add(b)
            b = below[b]


def all_states(n):
    """Every blocks-world state of n blocks by brute force: support maps that form towers."""
    blocks = list(range(n))
    states = []
    for choice in itertools.product([None, *blocks], repeat=n):
        below = {b: ("table" if c is None else c) for b, c in zip(blocks, choice)}
        if any(below[b] == b for b in blocks):
            continue
        try:
            assert_towers(below)
        except AssertionError:
            continue
        states.append(below)
    return states


@pytest.mark.parametrize("n", [2, 3, 5, 10, 20])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_init_is_a_complete_state_and_goal_is_usable(n, seed):
    spec = GEN.generate({"blocks": n}, random.Random(seed))
    blocks = [f"block_{i}" for i in range(1, n + 1)]
    assert spec.name == f"bw-rand-{n}"
    assert spec.objects == {b: "object" for b in blocks}
    below = supports(spec.init, blocks)
    assert_towers(below)
    carried = {y for y in below.values() if y != "table"}
    clear = {a[1] for a in atoms(spec.init) if a[0] == "clear"}
    assert clear == set(blocks) - carried
    assert ("handempty",) in atoms(spec.init)
    assert not [a for a in atoms(spec.init) if a[0] == "holding"]

    goal = atoms(spec.goal)
    assert goal and all(a[0] == "on" and len(a) == 3 for a in goal)
    assert not set(spec.goal) <= set(spec.init)
    uppers = [a[1] for a in goal]
    assert len(uppers) == len(set(uppers))
    assert uppers == sorted(uppers, key=lambda b: int(b.split("_")[1]))
    goal_below = {a[1]: a[2] for a in goal}
    assert len(set(goal_below.values())) == len(goal_below)
    assert_towers({b: goal_below.get(b, "table") for b in blocks})


def test_render_is_untyped_and_single_goal_has_no_and():
    text = GEN.render(GEN.generate({"blocks": 2}, random.Random(7)))
    assert "(:objects block_1 block_2)" in text
    assert " - " not in text
    assert "(:goal (on block_" in text  # with two blocks the goal is exactly one on atom


def test_completion_counts_match_brute_force():
    for n in range(1, 6):
        assert completions(n)[n][0] == len(all_states(n))


def test_states_are_uniform():
    n, draws = 3, 6500
    g = completions(n)
    rng = random.Random(11)
    names = [f"b{i}" for i in range(n)]
    counts = Counter()
    for _ in range(draws):
        towers = random_state(names, g, rng)
        counts[frozenset(tuple(t) for t in towers)] += 1
    n_states = len(all_states(n))
    assert len(counts) == n_states
    expected = draws / n_states
    assert all(abs(c - expected) < 0.2 * expected for c in counts.values())


def test_seeds_differ_and_sizes_are_validated():
    texts = {GEN.render(GEN.generate({"blocks": 6}, random.Random(s))) for s in range(1, 6)}
    assert len(texts) > 1
    for bad in (0, 1, -3):
        with pytest.raises(ValueError):
            GEN.generate({"blocks": bad}, random.Random(1))
