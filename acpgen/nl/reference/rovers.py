"""Reader of the reference prose of the Rovers domain (PDDL domain ``rover``).

A context names its objects through counts ("There are 2 rovers, 3 waypoints, 2 stores, 3 cameras,
3 objectives numbered consecutively": rover0 rover1, waypoint0 ... waypoint2, ...), the modes of the
cameras ("namely colour, high resolution, and low resolution") and the lander's own sentence
("Lander general is at waypoint waypoint1"). Then one sentence per static fact group, and the
state after "Currently,". ``(channel_free ?l)`` is never stated: the communicate actions delete it and
add it back, so it holds in every state and is added for each lander.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from acpgen.nl.reference.base import (
    ReadError,
    Reading,
    atom,
    names,
    split_goal,
)

PDDL_NAME = "rover"

# The first words of every context of this domain (how a context is recognised).
OPENING = "This is a Rovers domain where rovers must navigate between waypoints"

# sentences of the domain description that carry no fact
_PREAMBLE = {
    (
        "This is a Rovers domain where rovers must navigate between waypoints gathering data and "
        "transmitting it back to a lander"
    ),
    "Rovers cannot navigate to all waypoints and this makes particular routes impassable to some of the rovers",
    "Data transmission is also constrained by the visibility of the lander from the waypoints",
}

# counted kinds of object: the word of the count sentence -> PDDL type (names are <type><i>)
_COUNTED = {
    "rover": "rover",
    "waypoint": "waypoint",
    "store": "store",
    "camera": "camera",
    "objective": "objective",
}

# camera modes as the mode sentence words them -> PDDL object
_MODES = {
    "colour": "colour",
    "high resolution": "high_res",
    "low resolution": "low_res",
}

_EQUIPMENT = {
    "soil analysis": "equipped_for_soil_analysis",
    "rock analysis": "equipped_for_rock_analysis",
    "imaging": "equipped_for_imaging",
}


def _traversals(m: re.Match[str], sentence: str) -> list[str]:
    out = []
    for pair in names(m.group(2)):
        p = re.fullmatch(r"(\S+) to (\S+)", pair)
        if not p:
            raise ReadError(f"rovers: cannot read the traversal {pair!r} in {sentence!r}")
        out.append(atom("can_traverse", m.group(1), p.group(1), p.group(2)))
    return out


def _sample_sites(m: re.Match[str], sentence: str) -> list[str]:
    pred = "at_rock_sample" if m.group(1) == "Rocks" else "at_soil_sample"
    return [atom(pred, w) for w in names(m.group(2))]


# One entry per kind of fact sentence, tried in this order: its pattern, and the atoms a match states.
_SENTENCES: list[tuple[re.Pattern[str], Callable[[re.Match[str], str], list[str]]]] = [
    (
        re.compile(r"Rover\(s\) (.+?) (?:is|are) equipped for (soil analysis|rock analysis|imaging)"),
        lambda m, _: [atom(_EQUIPMENT[m.group(2)], r) for r in names(m.group(1))],
    ),
    (re.compile(r"Rover (\S+) has store (\S+)"), lambda m, _: [atom("store_of", m.group(2), m.group(1))]),
    (
        re.compile(r"Rover (\S+) has its camera (\S+) calibrated"),
        lambda m, _: [atom("calibrated", m.group(2), m.group(1))],
    ),
    (
        re.compile(r"Rover (\S+) has image (\S+) in mode (\S+)"),
        lambda m, _: [atom("have_image", m.group(1), m.group(2), m.group(3))],
    ),
    (
        re.compile(r"Rover (\S+) has (rock|soil) analyzed in waypoint (\S+)"),
        lambda m, _: [atom(f"have_{m.group(2)}_analysis", m.group(1), m.group(3))],
    ),
    (
        re.compile(r"Rover (\S+) has (.+) on board"),
        lambda m, _: [atom("on_board", c, m.group(1)) for c in names(m.group(2))],
    ),
    (
        re.compile(r"Camera (\S+) can be calibrated on (.+)"),
        lambda m, _: [atom("calibration_target", m.group(1), o) for o in names(m.group(2))],
    ),
    (
        re.compile(r"Camera (\S+) supports (.+)"),
        lambda m, _: [atom("supports", m.group(1), mode) for mode in names(m.group(2))],
    ),
    (re.compile(r"Rover (\S+) can traverse from (.+)"), _traversals),
    (
        re.compile(r"Waypoint\(s\) are visible from (\S+): (.+)"),
        lambda m, _: [atom("visible", m.group(1), w) for w in names(m.group(2))],
    ),
    (
        re.compile(r"Objective (\S+) is visible from (.+)"),
        lambda m, _: [atom("visible_from", m.group(1), w) for w in names(m.group(2))],
    ),
    (re.compile(r"Lander (\S+) is at waypoint (\S+)"), lambda m, _: [atom("at_lander", m.group(1), m.group(2))]),
    (re.compile(r"Rover (\S+) is at (\S+)"), lambda m, _: [atom("at", m.group(1), m.group(2))]),
    (re.compile(r"(Rocks|Soil) can be sampled at the following location\(s\): (.+)"), _sample_sites),
    (
        re.compile(r"Rovers?(?:\(s\))? (.+?) (?:is|are) available"),
        lambda m, _: [atom("available", r) for r in names(m.group(1))],
    ),
    (
        re.compile(r"Store\(s\) (.+?) (?:is|are) (empty|full)"),
        lambda m, _: [atom(m.group(2), st) for st in names(m.group(1))],
    ),
    (
        re.compile(r"(Rock|Soil) data was communicated from waypoint (\S+)"),
        lambda m, _: [atom(f"communicated_{m.group(1).lower()}_data", m.group(2))],
    ),
    (
        re.compile(r"(Rock|Soil) data were communicated from the following waypoints: (.+)"),
        lambda m, _: [atom(f"communicated_{m.group(1).lower()}_data", w) for w in names(m.group(2))],
    ),
    (
        re.compile(r"Image (\S+) was communicated in mode (\S+)"),
        lambda m, _: [atom("communicated_image_data", m.group(1), m.group(2))],
    ),
    (re.compile(r"Channel (\S+) is free"), lambda m, _: [atom("channel_free", m.group(1))]),
]


def _fact(sentence: str) -> list[str] | None:
    """The atoms of one sentence of the description or the state (None: not a fact sentence)."""
    s = sentence.strip().rstrip(".;").strip()
    s = s.removeprefix("Currently, ")
    for pattern, atoms in _SENTENCES:
        m = pattern.fullmatch(s)
        if m:
            return atoms(m, sentence)
    return None


def _objects(sentence: str) -> dict[str, str]:
    """Objects of the count sentence 'There are 2 rovers, 3 waypoints, ... numbered consecutively'."""
    m = re.fullmatch(r"There (?:are|is) (.+) numbered consecutively\.?", sentence)
    if not m:
        raise ReadError(f"rovers: not a count sentence: {sentence!r}")
    objects: dict[str, str] = {}
    for item in names(m.group(1)):
        c = re.fullmatch(r"(\d+) (\w+?)s?", item)
        if not c or c.group(2) not in _COUNTED:
            raise ReadError(f"rovers: cannot read the count {item!r} in {sentence!r}")
        kind = _COUNTED[c.group(2)]
        for i in range(int(c.group(1))):
            objects[f"{kind}{i}"] = kind
    return objects


def _modes(sentence: str) -> tuple[int, list[str]]:
    """Number of landers and the modes of 'Further, there is 1 lander and 3 modes for the camera namely ...'."""
    m = re.fullmatch(
        r"Further, there (?:is|are) (\d+) landers? and (\d+) modes? for the camera namely (.+?)\.?",
        sentence,
    )
    if not m:
        raise ReadError(f"rovers: not a lander/mode sentence: {sentence!r}")
    modes = []
    for word in names(m.group(3)):
        if word not in _MODES:
            raise ReadError(f"rovers: unknown camera mode {word!r} in {sentence!r}")
        modes.append(_MODES[word])
    if len(modes) != int(m.group(2)):
        raise ReadError(f"rovers: {m.group(2)} modes announced but {len(modes)} named in {sentence!r}")
    return int(m.group(1)), modes


def _goal(text: str) -> tuple[str, ...]:
    items = [i.strip().rstrip(".;").strip() for i in re.split(r";?,\s*(?:and\s+)?", text.strip().rstrip("."))]
    goal = []
    for item in items:
        if not item:
            continue
        atoms = _fact(item)
        if atoms is None:
            raise ReadError(f"rovers: cannot read the goal fact {item!r}")
        goal.extend(atoms)
    return tuple(goal)


def read(context: str) -> Reading:
    text = " ".join(context.split())
    if not text.startswith(OPENING):
        raise ReadError(f"rovers: not a Rovers context: {text[:80]!r}")
    body, goal_text = split_goal(text)
    goal = _goal(goal_text) if goal_text is not None else None
    text = body

    objects: dict[str, str] = {}
    landers_announced = None
    init: set[str] = set()
    landers: list[str] = []
    for sentence in re.split(r"(?<=[.;])\s+", text):
        sentence = sentence.strip()
        if not sentence or sentence.rstrip(".") in _PREAMBLE:
            continue
        if sentence.startswith(("There are ", "There is ")):
            objects.update(_objects(sentence))
            continue
        if sentence.startswith("Further, "):
            landers_announced, modes = _modes(sentence)
            objects.update({mode: "mode" for mode in modes})
            continue
        atoms = _fact(sentence)
        if atoms is None:
            raise ReadError(f"rovers: cannot read the sentence {sentence!r}")
        for a in atoms:
            if a.startswith("(at_lander "):
                landers.append(a.split()[1])
        init.update(atoms)

    if not objects or landers_announced is None:
        raise ReadError("rovers: the context has no object count sentence or no lander/mode sentence")
    if len(set(landers)) != landers_announced:
        raise ReadError(f"rovers: {landers_announced} lander(s) announced but {len(set(landers))} located")
    for lander in landers:
        objects[lander] = "lander"
        init.add(atom("channel_free", lander))

    for a in init | set(goal or ()):
        for arg in a.strip("()").split()[1:]:
            if arg not in objects:
                raise ReadError(f"rovers: fact {a} names the unknown object {arg!r}")
    return Reading(objects=objects, init=frozenset(init), goal=goal)
