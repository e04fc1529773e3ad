"""floortile: robots paint a checkerboard on a floor of tiles.

Sizes: ``rows`` (R >= 1 paintable rows), ``columns`` (C >= 1) and ``robots`` (1 <= K <= C).
The floor has R + 1 rows: row 0 is an extra bottom row that is never painted. Tiles are
numbered row-major, ``tile_{row*C + col}`` with row 0..R and col 1..C. The goal paints tile
(row r, col c), r >= 1, white when (r-1)+(c-1) is even and black otherwise, listed by tile
number. As in the public generator each robot stands on a uniform row in its own column (columns
drawn without replacement); robot1 holds white, robot2 black, robot3 white, ... . The problem
name is ``floortile-{R}-{C}-{K}``.

Solvability by construction: every robot first walks straight down its own (still clear) column
to row 0. Robot i, in row-0 column p_i, then paints the columns p_i .. p_{i+1}-1 (robot 1 also
1 .. p_1-1) one at a time: walk up the column, paint the top tile from below, step down and paint
the next one, ..., paint row 1 from row 0, then step along row 0 (which stays clear) to the next
column of its share. No other robot ever enters those cells, so the plan always exists.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Names, Objects, Pattern, by_number, of_type, same

COLORS = ("white", "black")


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    rows, cols, n_robots = size["rows"], size["columns"], size["robots"]
    if rows < 1 or cols < 1:
        raise ValueError("floortile needs at least one paintable row and one column")
    if not 1 <= n_robots <= cols:
        raise ValueError(
            f"floortile: robots must be between 1 and the number of columns ({cols}), "
            f"since every robot starts in its own column"
        )

    def tile(row: int, col: int) -> str:
        return f"tile_{row * cols + col}"

    tiles = [(r, c) for r in range(rows + 1) for c in range(1, cols + 1)]
    robots = [f"robot{i}" for i in range(1, n_robots + 1)]
    columns = rng.sample(range(1, cols + 1), n_robots)
    start = {robot: (rng.randint(0, rows), col) for robot, col in zip(robots, columns)}

    objects = {tile(r, c): "tile" for r, c in tiles} | {robot: "robot" for robot in robots}
    objects |= {color: "color" for color in COLORS}
    init = [f"(available-color {color})" for color in COLORS]
    init += [f"(robot-at {robot} {tile(*start[robot])})" for robot in robots]
    init += [f"(robot-has {robot} {COLORS[i % 2]})" for i, robot in enumerate(robots)]
    occupied = set(start.values())
    init += [f"(clear {tile(r, c)})" for r, c in tiles if (r, c) not in occupied]
    for r, c in tiles:
        if r < rows:  # (up a b): a is directly above b; (down b a) is the converse
            init += [f"(up {tile(r + 1, c)} {tile(r, c)})", f"(down {tile(r, c)} {tile(r + 1, c)})"]
        if c < cols:  # (right a b): a is immediately right of b; (left b a) the converse
            init += [f"(right {tile(r, c + 1)} {tile(r, c)})", f"(left {tile(r, c)} {tile(r, c + 1)})"]
    goal = tuple(f"(painted {tile(r, c)} {COLORS[(r - 1 + c - 1) % 2]})" for r, c in tiles if r >= 1)
    return ProblemSpec(f"floortile-{rows}-{cols}-{n_robots}", objects, tuple(init), goal)


# ----- abstract descriptions of initial states and goals (text to PDDL) --------------------------
def floor(objects: Objects, given: frozenset[str]) -> dict[str, tuple[int, int]] | None:
    """Each tile's (row, column), counted from the bottom row and the leftmost column (0), read from the
    ``up`` and ``right`` facts among ``given``; None unless the tiles form a full rectangle."""
    below = {a: b for a, b in (f[1:-1].split()[1:] for f in given if f.startswith("(up "))}
    left = {a: b for a, b in (f[1:-1].split()[1:] for f in given if f.startswith("(right "))}
    tiles = of_type(objects, "tile")

    def steps(tile: str, towards: dict[str, str]) -> int:
        count = 0
        while tile in towards and count <= len(tiles):
            tile, count = towards[tile], count + 1
        return count

    cells = {t: (steps(t, below), steps(t, left)) for t in tiles}
    rows, cols = {r for r, _ in cells.values()}, {c for _, c in cells.values()}
    if not tiles or len(set(cells.values())) != len(tiles) or len(tiles) != len(rows) * len(cols):
        return None
    return cells


@dataclass(frozen=True)
class _Lined:
    """An initial state: the robots stand, in the order of their numbers, on the tiles of a line of the floor
    (``where``: the bottom row or the top row from the left, or the leftmost column from the bottom up), each
    holding color ``{color}``; nothing is painted and every other tile is clear."""

    where: str

    def line(self, cells: dict[str, tuple[int, int]]) -> list[str]:
        top = max(r for r, _ in cells.values())
        if self.where == "column":
            return sorted((t for t, (_, c) in cells.items() if c == 0), key=lambda t: cells[t][0])
        row = 0 if self.where == "bottom" else top
        return sorted((t for t, (r, _) in cells.items() if r == row), key=lambda t: cells[t][1])

    def facts(self, objects: Objects, given: frozenset[str], color: str) -> frozenset[str] | None:
        cells, robots = floor(objects, given), by_number(of_type(objects, "robot"))
        if cells is None or not robots:
            return None
        line = self.line(cells)
        if len(robots) > len(line):
            return None
        at = dict(zip(robots, line))
        return frozenset(
            [*(f"(robot-at {r} {t})" for r, t in at.items()), *(f"(robot-has {r} {color})" for r in robots)]
            + [f"(clear {t})" for t in cells if t not in at.values()]
        )

    def build(self, objects: Objects, rng: random.Random, given: frozenset[str]) -> tuple[frozenset[str], Names] | None:
        colors = of_type(objects, "color")
        color = rng.choice(colors) if colors else ""
        facts = self.facts(objects, given, color) if colors else None
        return None if facts is None else (facts, {"color": color})

    def read(self, objects: Objects, facts: frozenset[str], given: frozenset[str]) -> Names | None:
        held = {f[1:-1].split()[2] for f in facts if f.startswith("(robot-has ")}
        if len(held) != 1:
            return None
        color = held.pop()
        return (
            {"color": color} if objects.get(color) == "color" and facts == self.facts(objects, given, color) else None
        )


def _paint(objects: Objects, given: frozenset[str], how: str, first: str) -> frozenset[str] | None:
    """The goal ``how``: every tile above the bottom row painted ``first`` (``all``), or in a checkerboard of
    ``first`` and the other color starting with ``first`` at the left of the second row (``checkerboard``),
    or every tile of the top row painted ``first`` (``top``)."""
    cells, colors = floor(objects, given), of_type(objects, "color")
    if cells is None or first not in colors or (how == "checkerboard" and len(colors) != 2):
        return None
    top = max(r for r, _ in cells.values())
    if top == 0:
        return None
    second = next((c for c in colors if c != first), first)
    if how == "top":
        return frozenset(f"(painted {t} {first})" for t, (r, _) in cells.items() if r == top)
    if how == "all":
        return frozenset(f"(painted {t} {first})" for t, (r, _) in cells.items() if r > 0)
    return frozenset(f"(painted {t} {(first, second)[(r - 1 + c) % 2]})" for t, (r, c) in cells.items() if r > 0)


@dataclass(frozen=True)
class _Painted:
    how: str

    def build(self, objects: Objects, rng: random.Random, given: frozenset[str]) -> tuple[frozenset[str], Names] | None:
        colors = of_type(objects, "color")
        first = rng.choice(colors) if colors else ""
        facts = _paint(objects, given, self.how, first)
        return None if facts is None else (facts, {"color": first})

    def read(self, objects: Objects, facts: frozenset[str], given: frozenset[str]) -> Names | None:
        for color in of_type(objects, "color"):
            if facts == _paint(objects, given, self.how, color):
                return {"color": color}
        return None


_BOTTOM, _TOP, _COLUMN = _Lined("bottom"), _Lined("top"), _Lined("column")
_ALL, _CHECKERBOARD, _TOP_ROW = _Painted("all"), _Painted("checkerboard"), _Painted("top")
_ORDER = "the robots stand in the order of their numbers"
_REST = "each holding color {color}; no tile is painted, and every other tile is clear"

PATTERNS = (
    Pattern(
        "bottom-row",
        "init",
        f"{_ORDER} on the bottom row from its leftmost tile on, {_REST}",
        _BOTTOM.build,
        _BOTTOM.read,
        uses_facts=True,
    ),
    Pattern(
        "top-row",
        "init",
        f"{_ORDER} on the top row from its leftmost tile on, {_REST}",
        _TOP.build,
        _TOP.read,
        uses_facts=True,
    ),
    Pattern(
        "left-column",
        "init",
        f"{_ORDER} on the leftmost column from its bottom tile up, {_REST}",
        _COLUMN.build,
        _COLUMN.read,
        uses_facts=True,
    ),
    Pattern(
        "one-color",
        "goal",
        "every robot holds the color {color}",
        **same("robot-has", ("robot",), ("color",), "color"),
    ),
    Pattern(
        "all-painted",
        "goal",
        "every tile above the bottom row is painted {color}",
        _ALL.build,
        _ALL.read,
        uses_facts=True,
    ),
    Pattern(
        "checkerboard",
        "goal",
        "every tile above the bottom row is painted, the two colors alternating like a checkerboard (no two tiles"
        " side by side or one above the other have the same color), with the leftmost tile of the row just above"
        " the bottom row painted {color}",
        _CHECKERBOARD.build,
        _CHECKERBOARD.read,
        uses_facts=True,
    ),
    Pattern(
        "top-painted",
        "goal",
        "every tile of the top row is painted {color}",
        _TOP_ROW.build,
        _TOP_ROW.read,
        uses_facts=True,
    ),
)


GENERATOR = Generator(
    domain="floortile",
    parameters=("rows", "columns", "robots"),
    make=make,
    check_solvable=False,
    example_sizes=(
        {"rows": 2, "columns": 2, "robots": 1},
        {"rows": 2, "columns": 3, "robots": 2},
        {"rows": 3, "columns": 3, "robots": 2},
    ),
    patterns=PATTERNS,
)
