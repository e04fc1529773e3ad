"""Fluent types (acpgen.pddl.fluents) of the 13 domains, from the translator's mutex groups and the templates.

Expected types, derived by hand from the domains: a predicate is self-derived when it takes one value per
object (ferry: the ferry is at one location, a car at one location, the ferry carries one car; blocksworld:
a block is on one block, the hand holds one block; grippers: the robot is in one room, a ball in one room,
a gripper carries one ball; the other domains alike); the templates declare the fluents that follow from
others as derived, and a one-value-per-object predicate that the translator does not show as self-derived.
"""

from __future__ import annotations

import random

import pytest

from acpgen.errors import PddlError
from acpgen.generators import get_generator
from acpgen.generators.base import domain_file
from acpgen.nl.template import load_template
from acpgen.pddl.fluents import FluentType, classify, single_valued_predicates
from acpgen.pddl.tarski_io import read_strings
from acpgen.planners import Limits, Planners, Status

S, B, D, SD = FluentType.STATIC, FluentType.BASE, FluentType.DERIVED, FluentType.SELF_DERIVED

CASES = {
    "ferry": (
        {"locations": 3, "cars": 2},
        {"at": SD, "at-ferry": SD, "on": SD, "empty-ferry": B, "not-eq": S},
        {"empty-ferry": D},
    ),
    "blocksworld": (
        {"blocks": 4},
        {"on": SD, "holding": SD, "ontable": B, "clear": B, "handempty": B},
        {"clear": D, "handempty": D},
    ),
    "grippers": (
        {"robots": 1, "rooms": 2, "balls": 3},
        # the translator's groups cover at-robby and carry/free only, not a ball's place: the template says it
        {"at": B, "at-robby": SD, "carry": SD, "free": B},
        {"free": D, "at": SD},
    ),
    "logistics": (
        {"cities": 2, "city_size": 2, "packages": 2, "airplanes": 1},
        {"at": SD, "in": SD, "in-city": S},
        {},
    ),
    "visitall": (
        {"x": 3, "y": 3, "holes": 0},
        {"at-robot": SD, "visited": B, "connected": S},
        {"visited": D},  # ActionReasoningBench's type: a consequence of the robot's moves
    ),
    "satellite": (
        {"satellites": 2, "instruments": 2, "modes": 2, "targets": 2, "observations": 1},
        {
            **dict.fromkeys(("calibrated", "have_image", "power_avail", "power_on"), B),
            **dict.fromkeys(("calibration_target", "on_board", "supports"), S),
            "pointing": SD,
        },
        {"power_avail": D},
    ),
    "swap": ({"agents": 3, "index": 0}, {"assigned": SD}, {}),
    "depots": (
        # one truck: no two atoms of 'in' differ in one argument, so only the template makes it self-derived
        {"depots": 1, "distributors": 1, "trucks": 1, "pallets": 2, "hoists": 2, "crates": 2},
        {"at": SD, "on": SD, "lifting": SD, "in": B, "available": B, "clear": B},
        {"available": D, "clear": D, "in": SD},
    ),
    "rovers": (
        {"rovers": 1, "waypoints": 3, "objectives": 1, "cameras": 1, "goals": 2},
        {
            "at": SD,
            **dict.fromkeys(("at_rock_sample", "at_soil_sample", "available", "calibrated", "channel_free"), B),
            **dict.fromkeys(("communicated_image_data", "communicated_rock_data", "communicated_soil_data"), B),
            **dict.fromkeys(("empty", "full", "have_image", "have_rock_analysis", "have_soil_analysis"), B),
            **dict.fromkeys(("at_lander", "calibration_target", "can_traverse", "on_board", "store_of"), S),
            **dict.fromkeys(("equipped_for_imaging", "equipped_for_rock_analysis", "equipped_for_soil_analysis"), S),
            **dict.fromkeys(("supports", "visible", "visible_from"), S),
        },
        {"full": D},
    ),
    "grid": (
        {"x": 3, "y": 2, "shapes": 1, "keys": 2, "locks": 1, "goal_percent": 100},
        {
            **dict.fromkeys(("at", "at-robot", "holding"), SD),
            **dict.fromkeys(("arm-empty", "locked", "open"), B),
            **dict.fromkeys(("conn", "key-shape", "lock-shape"), S),
        },
        {"arm-empty": D, "open": D, "holding": SD},  # two keys: the translator already shows 'holding'
    ),
    "floortile": (
        {"rows": 2, "columns": 2, "robots": 2},
        {
            **dict.fromkeys(("painted", "robot-at", "robot-has"), SD),
            "clear": B,
            **dict.fromkeys(("available-color", "down", "free-color", "left", "right", "up"), S),
        },
        {"clear": D},
    ),
    "goldminer": (
        {"rows": 3, "cols": 3},
        {
            **dict.fromkeys(("laser-at", "robot-at"), SD),
            **dict.fromkeys(("arm-empty", "clear", "gold-at", "hard-rock-at", "soft-rock-at"), B),
            **dict.fromkeys(("holds-bomb", "holds-gold", "holds-laser"), B),
            **dict.fromkeys(("bomb-at", "connected"), S),
        },
        {"arm-empty": D, "clear": D},
    ),
    "alfworld": (
        {"receptacles": 4, "objects": 3, "goal": 5},
        {
            **dict.fromkeys(("atlocation", "holds", "inreceptacle"), SD),
            **dict.fromkeys(("checked", "closed", "handempty", "isclean", "iscool", "ishot", "isoff", "ison"), B),
            **dict.fromkeys(("issliced", "istoggled", "notvalidated", "objectatlocation", "opened"), B),
            **{f"validate{task}": B for task in ("cleanandplace", "coolandplace", "examineinlight")},
            **{f"validate{task}": B for task in ("heatandplace", "pickandplace", "picktwoandplace")},
            **dict.fromkeys(("cancontain", "cleanable", "coolable", "heatable", "notopenable", "objecttype"), S),
            **dict.fromkeys(("openable", "pickupable", "receptacleatlocation", "receptacletype", "sliceable"), S),
            "toggleable": S,
        },
        {"closed": D, "handempty": D, "isoff": D, "objectatlocation": SD},
    ),
}


def translator_groups(domain: str, size: dict) -> tuple:
    generator = get_generator(domain)
    problem = generator.render(generator.generate(size, random.Random(3)))
    domain_text = domain_file(domain).read_text()
    result = Planners().mutex_groups(domain_text, problem, Limits(time=30.0, memory_mb=2048))
    assert result.status == Status.SOLVED, result.message
    return read_strings(domain_text, problem), single_valued_predicates(result.groups)


@pytest.mark.parametrize("domain", list(CASES))
def test_types_from_the_pddl_and_the_template(domain):
    size, from_pddl, from_template = CASES[domain]
    lifted, single = translator_groups(domain, size)
    assert classify(lifted, single) == dict(sorted(from_pddl.items()))
    overrides = load_template(domain).fluent_types
    assert classify(lifted, single, overrides) == dict(sorted({**from_pddl, **from_template}.items()))


def test_single_valued_needs_two_atoms_differing_in_one_argument():
    assert single_valued_predicates([("(at c0 l0)", "(at c0 l1)", "(on c0)")]) == {"at"}
    assert single_valued_predicates([("(on a b)", "(on c d)"), ("(free r g)",)]) == set()
    assert single_valued_predicates([("(holding a)", "(holding b)", "(handempty)")]) == {"holding"}


def test_overrides_cannot_contradict_the_pddl():
    lifted, single = translator_groups("ferry", {"locations": 2, "cars": 1})
    with pytest.raises(PddlError, match=r"t\.yaml: fluent_types makes 'not-eq' base, but the domain makes it static"):
        classify(lifted, single, {"not-eq": "base"}, source="t.yaml")
    with pytest.raises(PddlError, match="names 'parked', which is no predicate"):
        classify(lifted, single, {"parked": "base"})
    with pytest.raises(PddlError, match="gives 'on' the type 'ramified'"):
        classify(lifted, single, {"on": "ramified"})
