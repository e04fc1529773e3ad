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

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Pattern, same

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
PATTERNS = (
    Pattern(
        "one-color",
        "goal",
        "every robot holds the color {color}",
        **same("robot-has", ("robot",), ("color",), "color"),
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
