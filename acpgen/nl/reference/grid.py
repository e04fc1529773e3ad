"""Reader of the reference grid prose (PDDL domain grid: keys and locks; types key, place, shape).

A context reads::

    A robot is in a grid and can only move to places that are connected to its current position.
    The grid size is 5x5, and the locations are of the form fi-jf (e.g., f3-2f or f0-1f). The grid
    cells are connected to their neighbors (...). Some positions on the grid are locked and can be
    opened with a key of a matching shape. The robot has an arm that can pick up a key when the key
    is in same location as the robot and the arm is empty. There are 2 keys in 0 different shapes:
    Key key0-1 is of shape shape0, Key key0-0 is of shape shape0. Currently, the robot is at
    position f3-3f and its arm is empty. All the positions are open except the following: f4-0f has
    shape0 shaped lock. Key key0-1 is at position f4-2f. Key key0-0 is at position f4-4f.
    [The goal is to reach a state where the following facts hold: Key key0-0 is at f2-4f location
    and Key key0-1 is at f4-2f location.]

Places are fX-Yf for X, Y below the grid size, ``conn`` links 4-neighbours both ways, every place
that is not listed as locked is ``open``. The shapes are those the text names (of keys and locks).

Not in the text: ``lock-shape`` of a lock that has been opened (the PDDL keeps it, a static fact,
but the prose only lists the places that are still locked), so such a fact cannot be read back.
The count "in N different shapes" is not the number of shapes (it reads 0 or 1 for one shape) and
is ignored.
"""

from __future__ import annotations

import re

from acpgen.nl.reference.base import (
    ReadError,
    Reading,
    atom,
    begin,
    names,
    read_fact,
)

PDDL_NAME = "grid"

# The first words of every context of this domain (how a context is recognised).
OPENING = "A robot is in a grid and can only move to places that are connected to its current position."
_PLACE = r"(f\d+-\d+f)"
_KEY = r"(key\d+-\d+)"
_SHAPE = r"(shape\d+)"

_SIZE = re.compile(r"The grid size is (\d+)x(\d+), and the locations are of the form fi-jf")
_KEYS = re.compile(r"There (?:are|is) \d+ keys? in \d+ different shapes?: (.*?)\.(?= |$)")
_KEY_SHAPE = re.compile(r"Key " + _KEY + r" is of shape " + _SHAPE)
_ROBOT = re.compile(
    r"Currently, the robot is at position " + _PLACE + r" and (?:(its arm is empty)|is holding " + _KEY + r")\."
)
_LOCKS = re.compile(r"All the positions are open(?: except the following: (.*?))?\.(?= |$)")
_LOCK = re.compile(_PLACE + r" has " + _SHAPE + r" shaped lock")
_KEY_AT = re.compile(r"Key " + _KEY + r" is at position " + _PLACE + r"\.")

# fact phrasings of the goal sentence (the reference's paraphrases of each predicate)
_FACTS = [
    (re.compile(r"Key " + _KEY + r" is at " + _PLACE + r" location"), lambda m: atom("at", m[1], m[2])),
    (re.compile(r"Robot is at " + _PLACE + r" location"), lambda m: atom("at-robot", m[1])),
    (re.compile(r"Location " + _PLACE + r" is locked"), lambda m: atom("locked", m[1])),
    (re.compile(r"Location " + _PLACE + r" is open"), lambda m: atom("open", m[1])),
    (re.compile(r"Robot is holding " + _KEY), lambda m: atom("holding", m[1])),
    (re.compile(r"Robot's arm is empty|Robot is not holding anything"), lambda m: atom("arm-empty")),
]


def _fact(text: str) -> str:
    return read_fact(text, _FACTS, "grid")


def _keys(state: str, objects: dict[str, str], init: set[str]) -> None:
    """The keys and shapes of 'There are N keys in M different shapes: Key k is of shape s, ...'."""
    keys = _KEYS.search(state)
    if not keys:
        raise ReadError("grid: no sentence 'There are N keys in M different shapes: Key k is of shape s, ...'")
    for entry in names(keys[1]):
        m = _KEY_SHAPE.fullmatch(entry)
        if not m:
            raise ReadError(f"grid: key entry {entry!r} is not 'Key k is of shape s'")
        objects[m[1]] = "key"
        objects[m[2]] = "shape"
        init.add(atom("key-shape", m[1], m[2]))


def _locks(state: str, places: list[str], objects: dict[str, str], init: set[str]) -> None:
    """The locked places, their lock shapes and the open places of 'All the positions are open [except
    the following: p has s shaped lock, ...]'."""
    locks = _LOCKS.search(state)
    if not locks:
        raise ReadError("grid: no sentence 'All the positions are open [except the following: ...]'")
    locked = set()
    for entry in names(locks[1] or ""):
        m = _LOCK.fullmatch(entry)
        if not m:
            raise ReadError(f"grid: lock entry {entry!r} is not 'p has s shaped lock'")
        locked.add(m[1])
        objects.setdefault(m[2], "shape")
        init.add(atom("locked", m[1]))
        init.add(atom("lock-shape", m[1], m[2]))
    for p in places:
        if p not in locked:
            init.add(atom("open", p))


def _connections(width: int, height: int) -> set[str]:
    """``conn`` between the places of a width x height grid that share a side, in both directions."""
    init: set[str] = set()
    for x in range(width):
        for y in range(height):
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= nx < width and 0 <= ny < height:
                    init.add(atom("conn", f"f{x}-{y}f", f"f{nx}-{ny}f"))
    return init


def read(context: str) -> Reading:
    state, goal_text = begin(context, OPENING, "grid")
    goal = tuple(_fact(part) for part in names(goal_text)) if goal_text is not None else None

    size = _SIZE.search(state)
    if not size:
        raise ReadError("grid: no sentence 'The grid size is XxY, and the locations are of the form fi-jf ...'")
    width, height = int(size[1]), int(size[2])
    places = [f"f{x}-{y}f" for x in range(width) for y in range(height)]

    objects: dict[str, str] = {}
    init: set[str] = set()

    _keys(state, objects, init)
    for p in places:
        objects[p] = "place"

    robot = _ROBOT.search(state)
    if not robot:
        raise ReadError(
            "grid: no sentence 'Currently, the robot is at position p and its arm is empty / is holding k.'"
        )
    init.add(atom("at-robot", robot[1]))
    init.add(atom("arm-empty") if robot[2] else atom("holding", robot[3]))

    _locks(state, places, objects, init)

    for m in _KEY_AT.finditer(state):
        init.add(atom("at", m[1], m[2]))

    init |= _connections(width, height)

    current = state[state.find("Currently,") :]
    mentioned = set(re.findall(r"f\d+-\d+f|key\d+-\d+", current))
    mentioned |= {name for fact in goal or () for name in fact.strip("()").split()[1:]}
    unknown = mentioned - set(objects)
    if unknown:
        raise ReadError(f"grid: objects {sorted(unknown)} outside the stated grid and keys")
    return Reading(objects=objects, init=frozenset(init), goal=goal)
