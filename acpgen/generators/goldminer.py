"""goldminer (gold-miner-typed): a robot blasts or lasers its way through rock to the gold.

Sizes: ``rows`` (>= 2) and ``cols`` (>= 2) of the grid; cell ``f{i}-{j}f`` is row i, column j.
Column 0 is clear rock-free ground: the robot stands on a random cell of it, and the bomb supply
together with the laser on a different random cell of it (hence rows >= 2). Every cell of
columns 1..cols-1 is soft or hard rock with probability 1/2; the gold lies under soft rock on a
random cell of the last column (hence cols >= 2). Finally a random path of soft rock is carved
from the gold cell to column 1, moving up, down (never reversing a vertical run) and left.

Always solvable, so no planner check: the robot can fetch one bomb at a time from the supply,
walk over the cleared ground and blast the carved soft-rock path cell by cell, ending with the
gold cell, then step onto it and pick the gold with an empty arm.
"""

from __future__ import annotations

import random
from functools import partial

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Names, Objects, Pattern, args_of, each, fixed, of_type


def cell(i: int, j: int) -> str:
    return f"f{i}-{j}f"


def carve_path(rows: int, gold_row: int, cols: int, rng: random.Random) -> list[tuple[int, int]]:
    """Cells of a 4-connected walk from the gold cell (excluded) leftwards to column 1."""
    i, j = gold_row, cols - 1
    path: list[tuple[int, int]] = []
    move = rng.choice(("up", "down", "left"))
    while j > 1:
        if move == "left":
            for _ in range(min(2, j - 1)):
                j -= 1
                path.append((i, j))
            move = rng.choice(("up", "down", "left"))
        else:
            step = -1 if move == "up" else 1
            room = i if move == "up" else rows - 1 - i
            for _ in range(rng.randint(0, room)):
                i += step
                path.append((i, j))
            move = rng.choice((move, "left"))  # a vertical run never turns back on itself
    return path


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    rows, cols = size["rows"], size["cols"]
    if rows < 2 or cols < 2:
        raise ValueError(
            "goldminer needs rows >= 2 (robot and bomb supply start on different rows "
            f"of column 0) and cols >= 2 (the gold is not in column 0), got {rows}x{cols}"
        )
    robot_row = rng.randrange(rows)
    supply_row = rng.choice([r for r in range(rows) if r != robot_row])
    soft = {(i, j): rng.random() < 0.5 for i in range(rows) for j in range(1, cols)}
    gold_row = rng.randrange(rows)
    soft[(gold_row, cols - 1)] = True
    for c in carve_path(rows, gold_row, cols, rng):
        soft[c] = True

    objects = {cell(i, j): "loc" for i in range(rows) for j in range(cols)}
    init = [
        "(arm-empty)",
        f"(robot-at {cell(robot_row, 0)})",
        f"(gold-at {cell(gold_row, cols - 1)})",
        f"(bomb-at {cell(supply_row, 0)})",
        f"(laser-at {cell(supply_row, 0)})",
    ]
    init += [f"(clear {cell(i, 0)})" for i in range(rows)]
    init += [f"({'soft' if is_soft else 'hard'}-rock-at {cell(i, j)})" for (i, j), is_soft in soft.items()]
    for i in range(rows):
        for j in range(cols):
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= i + di < rows and 0 <= j + dj < cols:
                    init.append(f"(connected {cell(i, j)} {cell(i + di, j + dj)})")
    return ProblemSpec(f"typed-bomberman-rows{rows}-cols{cols}", objects, tuple(init), ("(holds-gold)",))


# ----- abstract descriptions of initial states and goals (text to PDDL) --------------------------
_AT_SUPPLY = "the robot stands with an empty arm at the bomb supply, whose location is clear and holds the laser"
_GROUND = {
    "soft-rock": "the gold is at location {gold}; every other location has soft rock",
    "hard-rock": "the gold is at location {gold}, under soft rock; every other location has hard rock",
    "cleared": "the gold is at location {gold}; every location is clear",
}


def _mine_facts(how: str, objects: Objects, given: frozenset[str], names: Names) -> frozenset[str] | None:
    """The robot and the laser at the one bomb supply (``bomb-at`` among the static facts), the gold on
    another location, and the rest of the ground as ``how`` says; None without a single supply, or with
    the gold on it."""
    supply = args_of(given, "bomb-at")
    gold = names["gold"]
    if len(supply) != 1 or supply[0][0] == gold:
        return None
    here = supply[0][0]
    facts = {"(arm-empty)", f"(robot-at {here})", f"(laser-at {here})", f"(clear {here})", f"(gold-at {gold})"}
    rest = [loc for loc in of_type(objects, "loc") if loc != here]
    if how == "cleared":
        return frozenset(facts | {f"(clear {loc})" for loc in rest})
    rock = {loc: "soft" if how == "soft-rock" or loc == gold else "hard" for loc in rest}
    return frozenset(facts | {f"({kind}-rock-at {loc})" for loc, kind in rock.items()})


def _mine(name: str) -> Pattern:
    text = f"{_AT_SUPPLY}; {_GROUND[name]}"
    return Pattern(name, "init", text, **fixed((("gold", ("loc",)),), partial(_mine_facts, name)))


PATTERNS = (
    _mine("soft-rock"),
    _mine("hard-rock"),
    _mine("cleared"),
    Pattern(
        "soft-cleared", "goal", "every location with soft rock now is clear", **each("clear", ("loc",), "soft-rock-at")
    ),
    Pattern(
        "hard-cleared", "goal", "every location with hard rock now is clear", **each("clear", ("loc",), "hard-rock-at")
    ),
    Pattern("all-clear", "goal", "every location is clear", **each("clear", ("loc",))),
)


GENERATOR = Generator(
    domain="goldminer",
    parameters=("rows", "cols"),
    make=make,
    check_solvable=False,
    example_sizes=({"rows": 2, "cols": 2}, {"rows": 3, "cols": 4}, {"rows": 4, "cols": 4}),
    patterns=PATTERNS,
)
