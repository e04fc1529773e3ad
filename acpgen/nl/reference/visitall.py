"""Reader of the reference prose of the visitall domain (PDDL domain ``grid-visit-all``).

A context gives the grid size ("The grid size is 4x4": cells loc-x0-y0 ... loc-x3-y3), the cells that
are not available, the robot's place and the visited places. The objects are the available cells
(type ``place``); ``(connected a b)`` holds for every pair of available cells one step apart
horizontally or vertically, in both directions.
"""

from __future__ import annotations

import re

from acpgen.nl.reference.base import (
    ReadError,
    Reading,
    atom,
    names,
    split_goal,
)

PDDL_NAME = "grid-visit-all"

# The first words of every context of this domain (how a context is recognised).
OPENING = "This is a visitall domain where a robot in a grid must visit"

_PREAMBLE = {
    "This is a visitall domain where a robot in a grid must visit all the cells or places in the grid",
    "There are some unavailable places in the grid",
    "The grid cells are connected to their available neighbors",
}


_CELL = re.compile(r"loc-x(\d+)-y(\d+)")


def _cells(text: str, sentence: str) -> list[str]:
    cells = names(text)
    for c in cells:
        if not _CELL.fullmatch(c):
            raise ReadError(f"visitall: {c!r} is not a cell name in {sentence!r}")
    return cells


def _coordinates(cell: str) -> tuple[int, int]:
    m = _CELL.fullmatch(cell)
    if m is None:
        raise ReadError(f"visitall: {cell!r} is not a cell name")
    return int(m.group(1)), int(m.group(2))


def _visited(item: str) -> str:
    m = re.fullmatch(r"Place (\S+) (?:is|has been) visited", item.strip().rstrip(".").strip())
    if not m or not _CELL.fullmatch(m.group(1)):
        raise ReadError(f"visitall: cannot read the goal fact {item!r}")
    return atom("visited", m.group(1))


def _description(body: str) -> tuple[tuple[int, int] | None, list[str], str | None, list[str]]:
    """The grid size, the unavailable cells, the robot's cell and the visited cells the sentences of
    ``body`` state (None where a sentence is missing); ReadError at a sentence of another kind."""
    size: tuple[int, int] | None = None
    unavailable: list[str] = []
    robot: str | None = None
    visited: list[str] = []
    for sentence in re.split(r"(?<=\.)\s+(?=[A-Z])", body):
        s = sentence.strip().rstrip(".").strip()
        if not s or s in _PREAMBLE:
            continue
        m = re.fullmatch(
            r"The grid size is (\d+)x(\d+), and the location cell names are of the form loc-xi-yj.*",
            s,
        )
        if m:
            size = (int(m.group(1)), int(m.group(2)))
            continue
        if s == "There are no unavailable cells":
            continue
        m = re.fullmatch(r"The only unavailable cell is (.+)|The unavailable cells are (.+)", s)
        if m:
            unavailable += _cells(m.group(1) or m.group(2), sentence)
            continue
        m = re.fullmatch(r"Currently, the robot is in place (\S+)", s)
        if m:
            robot = _cells(m.group(1), sentence)[0]
            continue
        m = re.fullmatch(
            r"The following places have been visited: (.+)|Place (.+?) has been visited",
            s,
        )
        if m:
            visited += _cells(m.group(1) or m.group(2), sentence)
            continue
        raise ReadError(f"visitall: cannot read the sentence {sentence!r}")

    return size, unavailable, robot, visited


def read(context: str) -> Reading:
    text = " ".join(context.split())
    if not text.startswith(OPENING):
        raise ReadError(f"visitall: not a visitall context: {text[:80]!r}")
    body, goal_text = split_goal(text)
    goal = None
    if goal_text is not None:
        goal = tuple(_visited(i) for i in re.split(r",\s*(?:and\s+)?", goal_text.rstrip(".")) if i.strip())
    # "Currently, the robot is in place loc-x1-y0.The following places ..." (no space after the period)
    body = re.sub(r"\.(?=[A-Z])", ". ", body)

    size, unavailable, robot, visited = _description(body)
    if size is None:
        raise ReadError("visitall: the context has no grid size sentence")
    if robot is None:
        raise ReadError("visitall: the context does not say where the robot is")
    # the size reads "<x>x<y>": x in 0..first-1, y in 0..second-1
    cells = {(x, y) for x in range(size[0]) for y in range(size[1])}
    blocked = {_coordinates(c) for c in unavailable}
    if not blocked <= cells:
        raise ReadError(f"visitall: unavailable cells {sorted(blocked - cells)} lie outside the grid")
    cells -= blocked

    def name(c: tuple[int, int]) -> str:
        return f"loc-x{c[0]}-y{c[1]}"

    objects = {name(c): "place" for c in sorted(cells)}
    init = {atom("at-robot", robot)} | {atom("visited", v) for v in visited}
    for x, y in cells:
        for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nb in cells:
                init.add(atom("connected", name((x, y)), name(nb)))
    for a in init | set(goal or ()):
        for arg in a.strip("()").split()[1:]:
            if arg not in objects:
                raise ReadError(f"visitall: fact {a} names the cell {arg!r}, unavailable or outside the grid")
    return Reading(objects=objects, init=frozenset(init), goal=goal)
