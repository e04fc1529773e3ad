"""grid (keys and locks): structure of generated problems, derived from the domain's rules."""

from __future__ import annotations

import random
import re
from collections import Counter, deque

import pytest

from acpgen.generators import domain_file, get_generator
from acpgen.generators.base import ProblemSpec
from acpgen.generators.grid import neighbours, place, solvable
from acpgen.pddl.grounding import GroundTask

GEN = get_generator("grid")


def size(x=5, y=5, shapes=1, keys=2, locks=2, goal_percent=100):
    return {"x": x, "y": y, "shapes": shapes, "keys": keys, "locks": locks, "goal_percent": goal_percent}


def atoms(spec, predicate):
    return [tuple(a[1:-1].split()[1:]) for a in spec.init if a[1:-1].split()[0] == predicate]


def typed(spec, type_name):
    return sorted(o for o, t in spec.objects.items() if t == type_name)


def bfs_solvable(domain_text: str, problem_text: str, cap: int = 200_000) -> bool:
    task = GroundTask.from_strings(domain_text, problem_text)
    seen, queue = {task.init}, deque([task.init])
    while queue:
        state = queue.popleft()
        if task.is_goal(state):
            return True
        for action in task.applicable(state):
            nxt = action.apply(state)
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
        assert len(seen) < cap, "state space too large for the test"
    return False


@pytest.mark.parametrize("seed", range(5))
def test_init_structure_follows_the_rules(seed):
    s = size(x=5, y=4, shapes=2, keys=21, locks=13)
    spec = GEN.generate(s, random.Random(seed))
    places = typed(spec, "place")
    assert places == sorted(f"f{x}-{y}f" for x in range(5) for y in range(4))
    # digit vectors, most significant digit = shape0: 2 keys and 1 lock of shape0, 1 key and 3 locks of shape1
    assert typed(spec, "key") == ["key0-0", "key0-1", "key1-0"]
    assert typed(spec, "shape") == ["shape0", "shape1"]
    assert Counter(s for _, s in atoms(spec, "lock-shape")) == {"shape0": 1, "shape1": 3}
    assert sorted(atoms(spec, "key-shape")) == [("key0-0", "shape0"), ("key0-1", "shape0"), ("key1-0", "shape1")]
    # every place is either open or locked, and exactly the locked ones have a lock shape
    opened = {p for (p,) in atoms(spec, "open")}
    locked = {p for (p,) in atoms(spec, "locked")}
    assert opened | locked == set(places) and not opened & locked
    assert {p for p, _ in atoms(spec, "lock-shape")} == locked and len(atoms(spec, "lock-shape")) == len(locked)
    # conn: both directions between 4-neighbours only: 2 * (x*(y-1) + y*(x-1)) atoms
    conn = set(atoms(spec, "conn"))
    assert len(conn) == 2 * (5 * 3 + 4 * 4)
    assert all((b, a) in conn for a, b in conn)
    for a, b in conn:
        (ax, ay), (bx, by) = (map(int, p[1:-1].split("-")) for p in (a, b))
        assert abs(ax - bx) + abs(ay - by) == 1
    # one robot on an open place, empty arm, every key somewhere
    robot = atoms(spec, "at-robot")
    assert len(robot) == 1 and robot[0][0] in opened
    assert "(arm-empty)" in spec.init
    assert not atoms(spec, "holding")
    assert sorted(k for k, _ in atoms(spec, "at")) == typed(spec, "key")


def test_goal_lists_every_key_in_order_when_p_is_100():
    spec = GEN.generate(size(shapes=2, keys=12, locks=11), random.Random(3))
    keys = [re.match(r"\(at (\S+) \S+\)", g).group(1) for g in spec.goal]
    assert keys == ["key0-0", "key1-0", "key1-1"]
    assert not set(spec.goal) <= set(spec.init), "the goal must not hold initially"


def test_goal_percent_below_100_gives_goals_for_some_keys():
    counts = {len(GEN.generate(size(keys=9, locks=1, goal_percent=30), random.Random(seed)).goal) for seed in range(20)}
    assert min(counts) >= 1 and max(counts) < 9


def test_problem_name_and_determinism():
    s = size(x=4, y=3, shapes=2, keys=2, locks=10, goal_percent=100)
    spec = GEN.generate(s, random.Random(1))
    assert spec.name == "grid-x4-y3-t2-k2-l10-p100"
    assert spec == GEN.generate(s, random.Random(1))
    assert len({GEN.render(GEN.generate(s, random.Random(seed))) for seed in range(5)}) > 1


@pytest.mark.parametrize(
    "bad",
    [
        size(keys=0),
        size(shapes=1, keys=12),
        size(x=2, y=2, locks=4),
        size(goal_percent=0),
        size(shapes=0),
        size(x=1, y=1),
    ],
)
def test_impossible_sizes_are_rejected(bad):
    with pytest.raises(ValueError):
        GEN.generate(bad, random.Random(0))


@pytest.mark.parametrize("seed", range(3))
def test_small_problems_are_solvable_by_exhaustive_search(seed):
    s = size(x=2, y=3, shapes=1, keys=2, locks=2)
    text = GEN.render(GEN.generate(s, random.Random(seed)))
    assert bfs_solvable(domain_file("grid").read_text(), text)


def test_solvability_test_agrees_with_exhaustive_search():
    """The fixpoint test must be exact, on raw (unfiltered) random layouts of a 2x3 grid."""
    domain_text = domain_file("grid").read_text()
    rng = random.Random(42)
    cells = [(x, y) for x in range(2) for y in range(3)]
    verdicts = Counter()
    for _ in range(25):
        lock_cells = rng.sample(cells, 3)
        lock_shape = {c: rng.randrange(2) for c in lock_cells}
        key_shape = {"key0-0": 0, "key1-0": 1}
        key_at = {k: rng.choice(cells) for k in key_shape}
        goals = {k: rng.choice(cells) for k in key_shape}
        robot = rng.choice([c for c in cells if c not in lock_shape])
        init = ["(arm-empty)", f"(at-robot {place(*robot)})"]
        init += [f"(conn {place(*c)} {place(*n)})" for c in cells for n in neighbours(c, 2, 3)]
        init += [f"(open {place(*c)})" for c in cells if c not in lock_shape]
        init += [f"(locked {place(*c)})" for c in lock_shape]
        init += [f"(lock-shape {place(*c)} shape{s})" for c, s in lock_shape.items()]
        init += [f"(key-shape {k} shape{s})" for k, s in key_shape.items()]
        init += [f"(at {k} {place(*c)})" for k, c in key_at.items()]
        objects = {k: "key" for k in key_shape} | {place(*c): "place" for c in cells}
        objects |= {"shape0": "shape", "shape1": "shape"}
        goal = tuple(f"(at {k} {place(*c)})" for k, c in goals.items())
        text = GEN.render(ProblemSpec("check", objects, tuple(init), goal))
        expected = bfs_solvable(domain_text, text)
        assert solvable(2, 3, robot, lock_shape, key_at, key_shape, goals) == expected
        verdicts[expected] += 1
    assert verdicts[True] and verdicts[False], "the sample should contain both kinds of layouts"
