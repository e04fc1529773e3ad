"""Reader of the reference blocksworld prose (PDDL domain blocksworld-4ops, untyped).

A context reads::

    This is a blocksworld domain where blocks can be placed on top of each other or on the table.
    There is one robotic arm that can move the block. There are 5 blocks. Currently, the robotic
    arm is empty. The following block(s) are on the table: block_3 and block_1. The following
    block(s) are stacked on top of another block: block_4 is on block_1, block_2 is on block_5,
    and block_5 is on block_3. [The goal is to reach a state where the following facts hold: ...]

The blocks are block_1 ... block_N. ``clear`` is not stated: it holds for every block with no
block on it that is not held.
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

PDDL_NAME = "blocksworld-4ops"

# The first words of every context of this domain (how a context is recognised).
OPENING = "This is a blocksworld domain"
_BLOCK = r"(block_\d+)"

_COUNT = re.compile(r"There (?:are|is) (\d+) blocks?\.")
_ARM = re.compile(r"Currently, the robotic arm is (?:(empty)|holding " + _BLOCK + r")\.")
_TABLE = re.compile(r"The following block\(s\) (?:are|is) on the table: (.*?)\.(?= |$)")
_STACKED = re.compile(r"The following block\(s\) (?:are|is) stacked on top of another block: (.*?)\.(?= |$)")
_ON_ENTRY = re.compile(_BLOCK + r" is on " + _BLOCK)

# fact phrasings of the goal sentence (the reference's paraphrases of each predicate)
_FACTS = [
    (re.compile(r"The block " + _BLOCK + r" is on top of block " + _BLOCK), lambda m: atom("on", m[1], m[2])),
    (
        re.compile(r"The block " + _BLOCK + r" is currently situated above the block " + _BLOCK),
        lambda m: atom("on", m[1], m[2]),
    ),
    (
        re.compile(r"The block " + _BLOCK + r" is currently situated under the block " + _BLOCK),
        lambda m: atom("on", m[2], m[1]),
    ),
    (re.compile(r"Block " + _BLOCK + r" is (?:located |placed )?on the table"), lambda m: atom("ontable", m[1])),
    (re.compile(r"Block " + _BLOCK + r" is clear"), lambda m: atom("clear", m[1])),
    (re.compile(r"No blocks are placed on top of " + _BLOCK), lambda m: atom("clear", m[1])),
    (re.compile(_BLOCK + r" is not obstructed by any other blocks"), lambda m: atom("clear", m[1])),
    (re.compile(r"The robotic arm is (?:empty|not holding anything)"), lambda m: atom("handempty")),
    (re.compile(r"The robotic arm is holding " + _BLOCK), lambda m: atom("holding", m[1])),
    (
        re.compile(r"The block " + _BLOCK + r" is currently being held by the robotic arm"),
        lambda m: atom("holding", m[1]),
    ),
]


def _fact(text: str) -> str:
    return read_fact(text, _FACTS, "blocksworld")


def read(context: str) -> Reading:
    state, goal_text = begin(context, OPENING, "blocksworld")
    goal = tuple(_fact(part) for part in names(goal_text)) if goal_text is not None else None

    count = _COUNT.search(state)
    if not count:
        raise ReadError("blocksworld: no sentence 'There are N blocks.'")
    blocks = [f"block_{i}" for i in range(1, int(count[1]) + 1)]
    objects = {b: "object" for b in blocks}

    init: set[str] = set()
    arm = _ARM.search(state)
    if not arm:
        raise ReadError("blocksworld: no sentence 'Currently, the robotic arm is empty / holding X.'")
    held = arm[2]
    init.add(atom("handempty") if arm[1] else atom("holding", held))

    table = _TABLE.search(state)
    if not table:
        raise ReadError("blocksworld: no sentence 'The following block(s) are on the table: ...'")
    for b in names(table[1]):
        init.add(atom("ontable", b))

    below: set[str] = set()
    stacked = _STACKED.search(state)
    if stacked:
        for entry in names(stacked[1]):
            m = _ON_ENTRY.fullmatch(entry)
            if not m:
                raise ReadError(f"blocksworld: stacked entry {entry!r} is not 'X is on Y'")
            init.add(atom("on", m[1], m[2]))
            below.add(m[2])

    for b in blocks:
        if b not in below and b != held:
            init.add(atom("clear", b))

    mentioned = set(re.findall(_BLOCK, state)) | {a for g in goal or () for a in re.findall(_BLOCK, g)}
    unknown = mentioned - set(objects)
    if unknown:
        raise ReadError(f"blocksworld: blocks {sorted(unknown)} beyond the stated count {len(blocks)}")
    return Reading(objects=objects, init=frozenset(init), goal=goal)
