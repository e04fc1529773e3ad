"""Reader of the reference prose of the floortile domain (PDDL domain ``floor-tile``).

A reference context reads, after the domain description (whose last sentence names the colors:
"Robots need to paint a grid with black and white, ...")::

    There are 2 robots and 12 tiles.                        | There are 12 tiles and 2 robots.
    The tiles locations are: tile_2 is to the right of tile_1, ..., and tile_11 is to the right of tile_10.
    Further, tile_4 is down from tile_7, ..., and tile_8 is down from tile_11
    Currently, robot robot1 is at tile_2 and holding color white and robot robot2 is at tile_3 and holding
    color white; tile_5, tile_1, and tile_8 are clear; tile_11 is painted black, ..., and tile_4 is painted white.
    The goal is to reach a state where the following facts hold: Tile tile_8 is painted in black color, ...

Objects are tiles ``tile_1 .. tile_N``, robots ``robot1 .. robotM`` and the named colors. "a is to the
right of b" gives ``(right a b)`` and ``(left b a)``; "a is down from b" gives ``(down a b)`` and
``(up b a)``; every named color is an ``available-color``.
"""

from __future__ import annotations

import re

from acpgen.nl.reference.base import (
    LIST_SEPARATOR,
    ReadError,
    Reading,
    atom,
    begin,
    names,
)

PDDL_NAME = "floor-tile"

# The first words of every context of this domain (how a context is recognised).
OPENING = "A set of robots use different colors to paint patterns in floor tiles"
_COLORS = re.compile(r"Robots need to paint a grid with (.+?), where the cell color is alternated always\.")
_SIZES = re.compile(r"There are (\d+) (tiles|robots) and (\d+) (tiles|robots)\.")
_LAYOUT = re.compile(r"The tiles locations are: (.*?)\. Further, (.*?)\.? Currently, (.*?)\.?$")
_RIGHT = re.compile(r"(\S+) is to the right of (\S+)")
_DOWN = re.compile(r"(\S+) is down from (\S+)")
_ROBOT = re.compile(r"robot (\S+) is at (\S+) and holding color (\S+)")
_ROBOT_SEPARATOR = re.compile(r"(?:,\s*(?:and\s+)?|\s+and\s+)(?=robot )")
_CLEAR = re.compile(r"(.*?) ?(?:is|are) clear")
_PAINTED = re.compile(r"(\S+) is painted (\S+)")
_GOAL_FACT = re.compile(r"Tile (\S+) is painted in (\S+) color")


def _clauses(text: str, pattern: re.Pattern[str], what: str, separator: re.Pattern[str] = LIST_SEPARATOR):
    """The matches of `pattern` over the items of the enumeration `text`; ReadError on any other item."""
    found = []
    for part in separator.split(text.strip()):
        match = pattern.fullmatch(part.strip())
        if not match:
            raise ReadError(f"floortile context: cannot read {what} {part.strip()!r}")
        found.append(match)
    return found


def read(context: str) -> Reading:
    text, goal_text = begin(context, OPENING, "floortile")

    colors_stated = _COLORS.search(text)
    if not colors_stated:
        raise ReadError("floortile context without 'Robots need to paint a grid with <colors>, ...'")
    colors = names(colors_stated.group(1))

    sizes = _SIZES.search(text)
    if not sizes or sizes.group(2) == sizes.group(4):
        raise ReadError("floortile context without 'There are N robots and M tiles.'")
    counts = {sizes.group(2): int(sizes.group(1)), sizes.group(4): int(sizes.group(3))}
    objects: dict[str, str] = {c: "color" for c in colors}
    objects.update({f"robot{i}": "robot" for i in range(1, counts["robots"] + 1)})
    objects.update({f"tile_{i}": "tile" for i in range(1, counts["tiles"] + 1)})

    def check(name: str, kind: str) -> str:
        if objects.get(name) != kind:
            raise ReadError(f"floortile context names {name!r} which is not one of its {kind}s")
        return name

    layout = _LAYOUT.search(text)
    if not layout:
        raise ReadError(
            "floortile context without 'The tiles locations are: ... Further, ... Currently, ...' sentences"
        )
    rights, downs, state = layout.groups()

    init = {atom("available-color", c) for c in colors}
    for match in _clauses(rights, _RIGHT, "tile location"):
        a, b = check(match.group(1), "tile"), check(match.group(2), "tile")
        init.add(atom("right", a, b))
        init.add(atom("left", b, a))
    for match in _clauses(downs, _DOWN, "tile location"):
        a, b = check(match.group(1), "tile"), check(match.group(2), "tile")
        init.add(atom("down", a, b))
        init.add(atom("up", b, a))

    parts = [p.strip() for p in state.split(";")]
    robots = _clauses(parts[0], _ROBOT, "robot state", _ROBOT_SEPARATOR)
    if len(robots) != counts["robots"]:
        raise ReadError(f"floortile context describes {len(robots)} robots but says there are {counts['robots']}")
    for match in robots:
        robot = check(match.group(1), "robot")
        init.add(atom("robot-at", robot, check(match.group(2), "tile")))
        init.add(atom("robot-has", robot, check(match.group(3), "color")))
    for part in parts[1:]:
        clear = _CLEAR.fullmatch(part)
        if clear:
            tiles = names(clear.group(1))
            if not tiles:
                raise ReadError(f"floortile context: the clear tiles are an empty enumeration ({part!r})")
            init.update(atom("clear", check(t, "tile")) for t in tiles)
            continue
        for match in _clauses(part, _PAINTED, "painted tile"):
            init.add(atom("painted", check(match.group(1), "tile"), check(match.group(2), "color")))

    goal = None
    if goal_text is not None:
        goal = tuple(
            atom("painted", check(m.group(1), "tile"), check(m.group(2), "color"))
            for m in _clauses(goal_text, _GOAL_FACT, "goal fact")
        )

    return Reading(objects=objects, init=frozenset(init), goal=goal)
