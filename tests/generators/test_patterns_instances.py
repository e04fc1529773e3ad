"""Abstract patterns of blocksworld, ferry, grippers, visitall, floortile, grid and alfworld read back
hand-written instances (the facts written out here, not built by the pattern) into the names their text
needs, and refuse an instance with one fact changed."""

from __future__ import annotations

import random

import pytest

from acpgen.generators import get_generator
from acpgen.generators.patterns import Pattern


def _pattern(domain: str, part: str, name: str) -> Pattern:
    return next(p for p in get_generator(domain).patterns if p.part == part and p.name == name)


def _facts(text: str) -> frozenset[str]:
    """``"(a x) (b y)"`` -> {"(a x)", "(b y)"}."""
    return frozenset(f"({f.strip()})" for f in text.strip()[1:-1].split(") ("))


BLOCKS = {b: "object" for b in "abcd"}
TOWERS = _facts("(ontable a) (on b a) (on c b) (ontable d) (clear c) (clear d) (handempty)")
FERRY = {"c1": "car", "c2": "car", "c3": "car", "l1": "location", "l2": "location", "l3": "location"}
FERRY_START = _facts("(at c1 l1) (at c2 l2) (at c3 l3) (at-ferry l3) (empty-ferry)")
GRIPPERS = {"robot1": "robot", "left1": "gripper", "right1": "gripper"}
GRIPPERS |= {f"room{i}": "room" for i in (1, 2, 3)} | {f"ball{i}": "ball" for i in (1, 2, 3, 10)}
GRIPPERS_START = _facts("(at-robby robot1 room2) (free robot1 left1) (carry robot1 ball1 right1) (at ball2 room1)")
# columns 0..2, rows 0..1, no cell at column 2 row 1
PLACES = {p: "place" for p in ("loc-x0-y0", "loc-x0-y1", "loc-x1-y0", "loc-x1-y1", "loc-x2-y0")}
# three rows of two tiles, numbered from the bottom left: t1 t2 / t3 t4 / t5 t6
FLOOR = {f"t{i}": "tile" for i in range(1, 7)} | {"robot1": "robot", "robot2": "robot"}
FLOOR |= {"white": "color", "black": "color"}
FLOOR_STATIC = _facts(
    "(up t3 t1) (up t4 t2) (up t5 t3) (up t6 t4) (right t2 t1) (right t4 t3) (right t6 t5)"
    " (available-color white) (available-color black)"
)
GRID = {"p1": "place", "p2": "place", "p3": "place", "k1": "key", "k2": "key", "s0": "shape"}
GRID_STATIC = _facts("(conn p1 p2) (conn p2 p1) (conn p2 p3) (conn p3 p2) (lock-shape p3 s0) (key-shape k1 s0)")
ALFWORLD = {"fridge1": "receptacle", "drawer1": "receptacle", "shelf1": "receptacle"}
ALFWORLD |= {"desklamp1": "object", "apple1": "object", "agent1": "agent"}
ALFWORLD_START = _facts(
    "(openable fridge1) (openable drawer1) (notopenable shelf1) (closed fridge1) (closed drawer1)"
    " (toggleable desklamp1) (isoff desklamp1) (cleanable apple1) (heatable apple1) (handempty agent1)"
)

# domain, part, pattern, objects, given facts, an instance, its names, the instance with one fact changed
CASES = [
    ("blocksworld", "goal", "on-table", BLOCKS, frozenset(),
     "(ontable a) (ontable b) (ontable c) (ontable d)", {},
     "(ontable a) (ontable b) (ontable c) (on d c)"),
    ("blocksworld", "goal", "two-towers", BLOCKS, frozenset(),
     "(ontable a) (on b a) (ontable c) (on d c)", {},
     "(ontable a) (on b a) (on c b) (ontable d)"),  # heights 3 and 1
    ("blocksworld", "goal", "inverted", BLOCKS, TOWERS,
     "(on a b) (on b c)", {},
     "(on a b) (on b a)"),
    ("ferry", "goal", "to-ferry", FERRY, FERRY_START,
     "(at c1 l3) (at c2 l3) (at c3 l3)", {"loc": "l3"},
     "(at c1 l3) (at c2 l3) (at c3 l1)"),
    ("ferry", "goal", "swapped", FERRY, FERRY_START,
     "(at c1 l2) (at c2 l1)", {"a": "l1", "b": "l2"},
     "(at c1 l2) (at c2 l2)"),
    ("grippers", "init", "dealt", GRIPPERS, frozenset(),
     "(at-robby robot1 room2) (free robot1 left1) (free robot1 right1)"
     " (at ball1 room1) (at ball2 room2) (at ball3 room3) (at ball10 room1)", {"room": "room2"},
     "(at-robby robot1 room2) (free robot1 left1) (free robot1 right1)"
     " (at ball1 room1) (at ball10 room2) (at ball2 room3) (at ball3 room1)"),  # dealt alphabetically
    ("grippers", "init", "holding", GRIPPERS, frozenset(),
     "(at-robby robot1 room1) (carry robot1 ball2 left1) (free robot1 right1)"
     " (at ball1 room1) (at ball3 room1) (at ball10 room1)", {"room": "room1", "ball": "ball2", "gripper": "left1"},
     "(at-robby robot1 room1) (carry robot1 ball2 left1) (free robot1 left1)"
     " (at ball1 room1) (at ball3 room1) (at ball10 room1)"),
    ("grippers", "init", "apart", GRIPPERS, frozenset(),
     "(at-robby robot1 room1) (free robot1 left1) (free robot1 right1)"
     " (at ball1 room3) (at ball2 room3) (at ball3 room3) (at ball10 room3)", {"room": "room1", "dest": "room3"},
     "(at-robby robot1 room1) (free robot1 left1) (free robot1 right1)"
     " (at ball1 room1) (at ball2 room1) (at ball3 room1) (at ball10 room1)"),
    ("grippers", "goal", "evenly", GRIPPERS, frozenset(),
     "(at ball1 room3) (at ball2 room1) (at ball3 room2) (at ball10 room3)", {},
     "(at ball1 room1) (at ball2 room1) (at ball3 room1) (at ball10 room2)"),
    ("grippers", "goal", "to-robot", GRIPPERS, GRIPPERS_START,
     "(at ball1 room2) (at ball2 room2) (at ball3 room2) (at ball10 room2)", {"robot": "robot1"},
     "(at ball1 room2) (at ball2 room1) (at ball3 room2) (at ball10 room2)"),
    ("grippers", "goal", "hands-full", GRIPPERS, GRIPPERS_START,
     "(carry robot1 ball3 left1) (carry robot1 ball10 right1)", {},
     "(carry robot1 ball3 left1) (carry robot1 ball3 right1)"),
    ("visitall", "init", "column-visited", PLACES, frozenset(),
     "(at-robot loc-x1-y0) (visited loc-x1-y0) (visited loc-x1-y1)", {"place": "loc-x1-y0", "line": "1"},
     "(at-robot loc-x0-y0) (visited loc-x1-y0) (visited loc-x1-y1)"),
    ("visitall", "init", "row-visited", PLACES, frozenset(),
     "(at-robot loc-x2-y0) (visited loc-x0-y0) (visited loc-x1-y0) (visited loc-x2-y0)",
     {"place": "loc-x2-y0", "line": "0"},
     "(at-robot loc-x2-y0) (visited loc-x0-y0) (visited loc-x1-y1) (visited loc-x2-y0)"),
    ("visitall", "goal", "column", PLACES, frozenset(),
     "(visited loc-x0-y0) (visited loc-x0-y1)", {"line": "0"},
     "(visited loc-x0-y0) (visited loc-x1-y1)"),
    ("visitall", "goal", "row", PLACES, frozenset(),
     "(visited loc-x0-y1) (visited loc-x1-y1)", {"line": "1"},
     "(visited loc-x0-y1) (visited loc-x1-y1) (at-robot loc-x1-y1)"),
    ("visitall", "goal", "tour", PLACES, _facts("(at-robot loc-x1-y1) (visited loc-x1-y1)"),
     "(visited loc-x0-y0) (visited loc-x0-y1) (visited loc-x1-y0) (visited loc-x1-y1) (visited loc-x2-y0)"
     " (at-robot loc-x1-y1)", {"place": "loc-x1-y1"},
     "(visited loc-x0-y0) (visited loc-x0-y1) (visited loc-x1-y0) (visited loc-x1-y1) (visited loc-x2-y0)"
     " (at-robot loc-x0-y0)"),
    ("floortile", "init", "bottom-row", FLOOR, FLOOR_STATIC,
     "(robot-at robot1 t1) (robot-at robot2 t2) (robot-has robot1 white) (robot-has robot2 white)"
     " (clear t3) (clear t4) (clear t5) (clear t6)", {"color": "white"},
     "(robot-at robot1 t2) (robot-at robot2 t1) (robot-has robot1 white) (robot-has robot2 white)"
     " (clear t3) (clear t4) (clear t5) (clear t6)"),
    ("floortile", "init", "top-row", FLOOR, FLOOR_STATIC,
     "(robot-at robot1 t5) (robot-at robot2 t6) (robot-has robot1 black) (robot-has robot2 black)"
     " (clear t1) (clear t2) (clear t3) (clear t4)", {"color": "black"},
     "(robot-at robot1 t5) (robot-at robot2 t6) (robot-has robot1 black) (robot-has robot2 white)"
     " (clear t1) (clear t2) (clear t3) (clear t4)"),
    ("floortile", "init", "left-column", FLOOR, FLOOR_STATIC,
     "(robot-at robot1 t1) (robot-at robot2 t3) (robot-has robot1 white) (robot-has robot2 white)"
     " (clear t2) (clear t4) (clear t5) (clear t6)", {"color": "white"},
     "(robot-at robot1 t1) (robot-at robot2 t3) (robot-has robot1 white) (robot-has robot2 white)"
     " (clear t2) (clear t4) (clear t5) (painted t6 white)"),
    ("floortile", "goal", "all-painted", FLOOR, FLOOR_STATIC,
     "(painted t3 black) (painted t4 black) (painted t5 black) (painted t6 black)", {"color": "black"},
     "(painted t3 black) (painted t4 black) (painted t5 black) (painted t6 white)"),
    ("floortile", "goal", "checkerboard", FLOOR, FLOOR_STATIC,
     "(painted t3 white) (painted t4 black) (painted t5 black) (painted t6 white)", {"color": "white"},
     "(painted t3 white) (painted t4 black) (painted t5 white) (painted t6 black)"),
    ("floortile", "goal", "top-painted", FLOOR, FLOOR_STATIC,
     "(painted t5 white) (painted t6 white)", {"color": "white"},
     "(painted t3 white) (painted t4 white)"),
    ("grid", "init", "keys-with-robot", GRID, GRID_STATIC,
     "(at-robot p1) (arm-empty) (at k1 p1) (at k2 p1) (open p1) (open p2) (locked p3)", {"place": "p1"},
     "(at-robot p1) (arm-empty) (at k1 p1) (at k2 p1) (open p1) (open p2) (open p3)"),
    ("grid", "init", "holding", GRID, GRID_STATIC,
     "(at-robot p1) (holding k2) (at k1 p1) (open p1) (open p2) (locked p3)", {"place": "p1", "key": "k2"},
     "(at-robot p1) (holding k2) (arm-empty) (at k1 p1) (open p1) (open p2) (locked p3)"),
    ("grid", "init", "keys-apart", GRID, GRID_STATIC,
     "(at-robot p1) (arm-empty) (at k1 p3) (at k2 p3) (open p1) (open p2) (locked p3)",
     {"place": "p1", "keys": "p3"},
     "(at-robot p1) (arm-empty) (at k1 p3) (at k2 p2) (open p1) (open p2) (locked p3)"),
    ("grid", "init", "all-open", GRID, GRID_STATIC,
     "(at-robot p2) (arm-empty) (at k1 p1) (at k2 p1) (open p1) (open p2) (open p3)",
     {"place": "p2", "keys": "p1"},
     "(at-robot p3) (arm-empty) (at k1 p1) (at k2 p1) (open p1) (open p2) (open p3)"),  # the lock's place
    ("grid", "goal", "key-held", GRID, frozenset(),
     "(holding k1) (at k2 p2)", {"key": "k1", "place": "p2"},
     "(holding k1) (at k1 p2)"),
    ("alfworld", "goal", "all-opened", ALFWORLD, ALFWORLD_START,
     "(opened fridge1) (opened drawer1)", {},
     "(opened fridge1) (opened shelf1)"),
    ("alfworld", "goal", "lights-on", ALFWORLD, ALFWORLD_START,
     "(ison desklamp1)", {},
     "(ison apple1)"),
    ("alfworld", "goal", "all-clean", ALFWORLD, ALFWORLD_START,
     "(isclean apple1)", {},
     "(isclean desklamp1)"),
    ("alfworld", "goal", "all-hot", ALFWORLD, ALFWORLD_START,
     "(ishot apple1)", {},
     "(iscool apple1)"),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_a_hand_written_instance_reads_back_and_a_changed_one_does_not(case):
    domain, part, name, objects, given, facts, names, changed = case
    pattern = _pattern(domain, part, name)
    assert pattern.recognise(objects, _facts(facts), given) == names
    assert pattern.recognise(objects, _facts(changed), given) is None
    assert all(value in pattern.fill(names) for value in names.values())


def test_two_towers_allows_heights_differing_by_one_but_not_a_single_tower():
    five = {b: "object" for b in "abcde"}
    two = _pattern("blocksworld", "goal", "two-towers")
    assert two.recognise(five, _facts("(ontable a) (on b a) (on c b) (ontable d) (on e d)")) == {}
    assert two.recognise(five, _facts("(ontable a) (on b a) (on c b) (on d c) (on e d)")) is None


def test_inverted_needs_a_tower_to_turn():
    inverted = _pattern("blocksworld", "goal", "inverted")
    flat = _facts("(ontable a) (ontable b) (ontable c) (ontable d) (handempty)")
    assert inverted.make(BLOCKS, random.Random(0), flat) is None


def test_relative_goals_are_no_placeholders():
    """A goal read relative to the initial state names objects through it: the closed goals must be matched
    with the initial state's bijection, not a free one."""
    assert not _pattern("blocksworld", "goal", "inverted").placeholder
    assert not _pattern("grid", "goal", "unlocked").placeholder
    # "every location with soft rock now", "every waypoint with a soil sample", the roles held now
    assert not _pattern("goldminer", "goal", "soft-cleared").placeholder
    assert not _pattern("rovers", "goal", "soil-sent").placeholder
    assert not any(_pattern("swap", "goal", name).placeholder for name in ("rotate", "reverse", "pairs"))
    assert _pattern("goldminer", "goal", "all-clear").placeholder
    assert _pattern("grippers", "goal", "evenly").placeholder
    assert _pattern("blocksworld", "goal", "on-table").placeholder


def test_swapped_names_the_two_locations_in_order_whichever_way_it_was_drawn():
    swapped = _pattern("ferry", "goal", "swapped")
    # only c1 at l1 and nobody at l3: the cars of l1 go to l3
    start = _facts("(at c1 l1) (on c2) (at c3 l2) (at-ferry l2)")
    assert swapped.recognise(FERRY, _facts("(at c1 l3)"), start) == {"a": "l1", "b": "l3"}
    assert swapped.recognise(FERRY, _facts("(at c1 l3) (at c2 l1)"), start) is None  # c2 is on board
