"""visitall: a robot must visit every place of an x-by-y grid with holes.

Sizes: ``x``, ``y`` (grid dimensions, >= 1 each) and ``holes`` (cells that do not exist,
0 <= holes <= x*y - 2). Places are ``loc-x{i}-y{j}``; holes are not declared at all. As in the
public generator holes are random cells other than one fixed cell (the centre, i = x//2,
j = y//2), the robot starts on a uniform available cell, and the goal is ``visited`` for every
available place (goal ratio 1), listed by i, then j. The problem name is
``grid-{X}-{Y}-{holes}-{tag}``; the public names end in the generator seed, which ``make`` does
not see, so the tag is a number drawn from the given random generator.

Solvability by construction: the public generator may cut the grid into pieces. Here each hole is
drawn uniformly among the cells whose removal keeps the remaining cells connected (such a cell
always exists: a spanning tree of a connected grid part with two or more cells has two leaves, at
most one of them the centre), so the robot can reach, and visit, every place.
"""

from __future__ import annotations

import random

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Names, Objects, Pattern, of_type


def neighbours(cell: tuple[int, int], cells: set):
    i, j = cell
    return [n for n in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)) if n in cells]


def connected(cells: set) -> bool:
    """Whether the 4-neighbourhood graph on ``cells`` is connected (an empty set is not)."""
    if not cells:
        return False
    first = next(iter(cells))
    seen, stack = {first}, [first]
    while stack:
        for n in neighbours(stack.pop(), cells):
            if n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(cells)


def place(cell: tuple[int, int]) -> str:
    return f"loc-x{cell[0]}-y{cell[1]}"


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    width, height, n_holes = size["x"], size["y"], size["holes"]
    if width < 1 or height < 1 or width * height < 2:
        raise ValueError("visitall needs x, y >= 1 and at least two cells")
    if not 0 <= n_holes <= width * height - 2:
        raise ValueError(
            f"visitall: holes must be between 0 and {width * height - 2} "
            f"(at least two places must remain) on a {width}x{height} grid"
        )
    tag = rng.randrange(10000)
    centre = (width // 2, height // 2)
    cells = {(i, j) for i in range(width) for j in range(height)}
    for _ in range(n_holes):
        candidates = sorted(c for c in cells if c != centre and connected(cells - {c}))
        cells.remove(rng.choice(candidates))
    ordered = sorted(cells)
    start = rng.choice(ordered)
    objects = {place(c): "place" for c in ordered}
    init = [f"(at-robot {place(start)})", f"(visited {place(start)})"]
    init += [f"(connected {place(c)} {place(n)})" for c in ordered for n in neighbours(c, cells)]
    goal = tuple(f"(visited {place(c)})" for c in ordered)
    return ProblemSpec(f"grid-{width}-{height}-{n_holes}-{tag}", objects, tuple(init), goal)


# ----- abstract descriptions of initial states and goals (text to PDDL) --------------------------
def _visitall_start(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    place = rng.choice(of_type(objects, "place"))
    return frozenset([f"(at-robot {place})", f"(visited {place})"]), {"place": place}


def _visitall_start_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    robot = [f for f in facts if f.startswith("(at-robot ")]
    if len(robot) != 1:
        return None
    place = robot[0][1:-1].split()[1]
    return {"place": place} if facts == {f"(at-robot {place})", f"(visited {place})"} else None


def _visitall_all(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    return frozenset(f"(visited {p})" for p in of_type(objects, "place")), {}


def _visitall_all_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    return {} if facts == _visitall_all(objects, random.Random(0))[0] else None


PATTERNS = (
    Pattern(
        "start",
        "init",
        "the robot is at place {place}, and no place other than {place} has been visited",
        _visitall_start,
        _visitall_start_read,
    ),
    Pattern("all-visited", "goal", "every place has been visited", _visitall_all, _visitall_all_read),
)


GENERATOR = Generator(
    domain="visitall",
    parameters=("x", "y", "holes"),
    make=make,
    check_solvable=False,
    example_sizes=({"x": 3, "y": 3, "holes": 1}, {"x": 4, "y": 4, "holes": 2}, {"x": 4, "y": 5, "holes": 3}),
    patterns=PATTERNS,
)
