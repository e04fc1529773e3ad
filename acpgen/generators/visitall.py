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
import re
from dataclasses import dataclass

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


def _visitall_cell(name: str) -> tuple[int, int] | None:
    """The column and row of a place ``loc-xI-yJ`` (the template's layout sentence gives them), else None."""
    found = re.fullmatch(r"loc-x(\d+)-y(\d+)", name)
    return (int(found[1]), int(found[2])) if found else None


@dataclass(frozen=True)
class _Line:
    """The places of one column (``axis`` 0) or one row (``axis`` 1), named by its number ``{line}``: visited in
    the goal, or (``part="init"``) the places visited so far, with the robot at one of them."""

    axis: int
    part: str

    def places(self, objects: Objects, line: int) -> list[str]:
        cells = {p: _visitall_cell(p) for p in of_type(objects, "place")}
        return [p for p, cell in cells.items() if cell is not None and cell[self.axis] == line]

    def facts(self, objects: Objects, line: int, robot: str | None) -> frozenset[str]:
        visited = {f"(visited {p})" for p in self.places(objects, line)}
        return frozenset(visited | ({f"(at-robot {robot})"} if robot is not None else set()))

    def build(self, objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names] | None:
        lines = sorted({cell[self.axis] for cell in map(_visitall_cell, of_type(objects, "place")) if cell})
        if len(lines) < 2:
            return None
        line = rng.choice(lines)
        if self.part == "goal":
            return self.facts(objects, line, None), {"line": str(line)}
        robot = rng.choice(self.places(objects, line))
        return self.facts(objects, line, robot), {"line": str(line), "place": robot}

    def read(self, objects: Objects, facts: frozenset[str]) -> Names | None:
        cells = [_visitall_cell(f[1:-1].split()[1]) for f in facts if f.startswith("(visited ")]
        lines = {cell[self.axis] for cell in cells if cell is not None}
        robots = [f[1:-1].split()[1] for f in facts if f.startswith("(at-robot ")]
        if len(lines) != 1 or len(robots) != (1 if self.part == "init" else 0):
            return None
        line = lines.pop()
        robot = robots[0] if robots else None
        if robot is not None and robot not in self.places(objects, line):
            return None
        names = {"line": str(line)} | ({"place": robot} if robot is not None else {})
        return names if facts == self.facts(objects, line, robot) else None


def _visitall_tour_facts(objects: Objects, place: str) -> frozenset[str]:
    return frozenset([*(f"(visited {p})" for p in of_type(objects, "place")), f"(at-robot {place})"])


def _visitall_tour(objects: Objects, rng: random.Random, given: frozenset[str]) -> tuple[frozenset[str], Names] | None:
    robot = [f[1:-1].split()[1] for f in given if f.startswith("(at-robot ")]
    return (_visitall_tour_facts(objects, robot[0]), {"place": robot[0]}) if len(robot) == 1 else None


def _visitall_tour_read(objects: Objects, facts: frozenset[str], given: frozenset[str]) -> Names | None:
    made = _visitall_tour(objects, random.Random(0), given)
    return made[1] if made is not None and facts == made[0] else None


_COLUMN_INIT, _ROW_INIT, _COLUMN_GOAL, _ROW_GOAL = (
    _Line(0, "init"),
    _Line(1, "init"),
    _Line(0, "goal"),
    _Line(1, "goal"),
)


PATTERNS = (
    Pattern(
        "start",
        "init",
        "the robot is at place {place}, and no place other than {place} has been visited",
        _visitall_start,
        _visitall_start_read,
    ),
    Pattern(
        "column-visited",
        "init",
        "the robot is at place {place}, and the places visited so far are exactly those of column {line}",
        _COLUMN_INIT.build,
        _COLUMN_INIT.read,
    ),
    Pattern(
        "row-visited",
        "init",
        "the robot is at place {place}, and the places visited so far are exactly those of row {line}",
        _ROW_INIT.build,
        _ROW_INIT.read,
    ),
    Pattern("all-visited", "goal", "every place has been visited", _visitall_all, _visitall_all_read),
    Pattern("column", "goal", "every place of column {line} has been visited", _COLUMN_GOAL.build, _COLUMN_GOAL.read),
    Pattern("row", "goal", "every place of row {line} has been visited", _ROW_GOAL.build, _ROW_GOAL.read),
    Pattern(
        "tour",
        "goal",
        "every place has been visited and the robot is back at place {place}, where it is now",
        _visitall_tour,
        _visitall_tour_read,
        uses_facts=True,
    ),
)


GENERATOR = Generator(
    domain="visitall",
    parameters=("x", "y", "holes"),
    make=make,
    check_solvable=False,
    example_sizes=({"x": 3, "y": 3, "holes": 1}, {"x": 4, "y": 4, "holes": 2}, {"x": 4, "y": 5, "holes": 3}),
    patterns=PATTERNS,
)
