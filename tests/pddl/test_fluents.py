"""Fluent types (acpgen.pddl.fluents) of the 13 domains, from the translator's mutex groups and the templates.

Expected types, derived by hand from the domains: a predicate is self-derived when it takes one value per
object (ferry: the ferry is at one location, a car at one location, the ferry carries one car; blocksworld:
a block is on one block, the hand holds one block; grippers: the robot is in one room, a ball in one room,
a gripper carries one ball; the other domains alike); the templates declare the fluents that follow from
others as derived, and a one-value-per-object predicate that the translator does not show as self-derived.
The groups show it only for a predicate of two or more arguments (an object named by one argument keeps one
value); a predicate of one argument with one value in the whole state because the domain has one such thing
(the hand, the robot, the ferry) is self-derived by the template.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from acpgen.errors import PddlError
from acpgen.generators import DOMAINS, get_generator
from acpgen.generators.base import domain_file
from acpgen.nl.template import load_template
from acpgen.pddl.explore import explore
from acpgen.pddl.fluents import FluentType, classify, single_valued_predicates
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.tarski_io import read_strings
from acpgen.planners import Limits, Planners, Status
from acpgen.tasks.base import QAItem, RecordContext
from acpgen.tasks.sequences import item_fluent_types

S, B, D, SD = FluentType.STATIC, FluentType.BASE, FluentType.DERIVED, FluentType.SELF_DERIVED

CASES = {
    "ferry": (
        {"locations": 3, "cars": 2},
        {"at": SD, "at-ferry": B, "on": B, "empty-ferry": B, "not-eq": S},
        {"empty-ferry": D, "at-ferry": SD, "on": SD},
    ),
    "blocksworld": (
        {"blocks": 4},
        {"on": SD, "holding": B, "ontable": B, "clear": B, "handempty": B},
        {"clear": D, "handempty": D, "holding": SD},
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
        {"at-robot": B, "visited": B, "connected": S},
        {"visited": D, "at-robot": SD},  # ActionReasoningBench's types: visited follows from the robot's moves
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
            "at": SD,
            **dict.fromkeys(("arm-empty", "at-robot", "holding", "locked", "open"), B),
            **dict.fromkeys(("conn", "key-shape", "lock-shape"), S),
        },
        {"arm-empty": D, "open": D, "holding": SD, "at-robot": SD},
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
            **dict.fromkeys(("laser-at", "robot-at"), B),
            **dict.fromkeys(("arm-empty", "clear", "gold-at", "hard-rock-at", "soft-rock-at"), B),
            **dict.fromkeys(("holds-bomb", "holds-gold", "holds-laser"), B),
            **dict.fromkeys(("bomb-at", "connected"), S),
        },
        {"arm-empty": D, "clear": D, "laser-at": SD, "robot-at": SD},
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


def test_single_valued_needs_two_atoms_agreeing_on_an_argument_and_differing_in_one():
    assert single_valued_predicates([("(at c0 l0)", "(at c0 l1)", "(on c0)")]) == {"at"}
    assert single_valued_predicates([("(at c0 l0)", "(at c1 l0)")]) == {"at"}  # l0 holds one car
    assert single_valued_predicates([("(on a b)", "(on c d)"), ("(free r g)",)]) == set()
    assert single_valued_predicates([("(carry r b1 g)", "(carry r b2 g)", "(free r g)")]) == {"carry"}
    # atoms that differ in their only argument: no object keeps one value (a satellite of one powers one
    # instrument at a time, and this is its group; with two satellites two instruments are on at once)
    assert single_valued_predicates([("(power_avail s0)", "(power_on i0)", "(power_on i1)")]) == set()
    assert single_valued_predicates([("(holding a)", "(holding b)", "(handempty)")]) == set()
    assert single_valued_predicates([("(empty-ferry)", "(on c0)", "(on c1)")]) == set()


# ActionReasoningBench's appendix H ("Classification of Fluents", H.1-H.8 of Handa et al., ActionReasoningBench,
# /work/shared/papers/actionreasoningbench.txt), transcribed as printed, in its spelling: of its 8 domains
# (Blocksworld, Depots, Driverlog, Grippers, Mystery, Satellite, Spanner, Visitall) acp has the 5 below;
# Driverlog (H.3), Mystery (H.5) and Spanner (H.7) are no acp domains.
ARB_APPENDIX_H = {
    "blocksworld": {  # H.1
        "static": (),
        "base": ("onTable",),
        "derived": ("clear", "handEmpty"),
        "self_derived": ("holding", "on"),
    },
    "depots": {  # H.2
        "static": (),
        "base": (),
        "derived": ("clear", "available"),
        "self_derived": ("at", "on", "in", "lifting"),
    },
    "grippers": {  # H.4
        "static": (),
        "base": ("carry",),
        "derived": ("free",),
        "self_derived": ("at_robby", "at"),
    },
    "satellite": {  # H.6
        "static": ("on_board", "supports", "calibration_target"),
        "base": ("power_on", "calibrated", "have_image"),
        "derived": ("power_avail",),
        "self_derived": ("pointing",),
    },
    "visitall": {  # H.8
        "static": ("connected",),
        "base": (),
        "derived": ("visited",),
        "self_derived": ("at_robot",),
    },
}
ARB_NOT_IN_ACP = ("driverlog", "mystery", "spanner")
# Where acp's type differs from the appendix on purpose: (domain, predicate) -> acp's type, each a row of the
# table in docs/tasks/rac.md that says why.
ARB_EXCEPTIONS = {("grippers", "carry"): "self_derived"}
# The problems acp's map is computed from: the first two sizes of each domain's list in the default pipeline.yaml
# (satellite's first has one satellite, whose groups put all its power_on atoms in one group; its second three).
ARB_SIZES = {
    "blocksworld": ({"blocks": 3}, {"blocks": 4}),
    "depots": (
        {"depots": 2, "distributors": 2, "trucks": 2, "pallets": 4, "hoists": 4, "crates": 2},
        {"depots": 3, "distributors": 2, "trucks": 2, "pallets": 5, "hoists": 5, "crates": 2},
    ),
    "grippers": ({"robots": 1, "rooms": 2, "balls": 4}, {"robots": 1, "rooms": 3, "balls": 4}),
    "satellite": (
        {"satellites": 1, "instruments": 3, "modes": 3, "targets": 5, "observations": 2},
        {"satellites": 3, "instruments": 3, "modes": 3, "targets": 5, "observations": 2},
    ),
    "visitall": ({"x": 4, "y": 4, "holes": 0}, {"x": 4, "y": 4, "holes": 2}),
}


def _squashed(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def test_arb_covers_five_acp_domains():
    assert set(ARB_APPENDIX_H) == set(DOMAINS) & {*ARB_APPENDIX_H, *ARB_NOT_IN_ACP}
    assert not set(ARB_NOT_IN_ACP) & set(DOMAINS)
    assert set(ARB_SIZES) == set(ARB_APPENDIX_H)


@pytest.mark.parametrize("domain", list(ARB_APPENDIX_H))
def test_types_agree_with_arb_appendix_h(domain):
    """acp's map, computed as generation computes it (the translator's groups of the domain's problems and the
    template), is the appendix's, but for the exceptions docs/tasks/rac.md lists."""
    generator = get_generator(domain)
    problems = tuple(
        generator.render(generator.generate(size, random.Random(seed))) for seed, size in enumerate(ARB_SIZES[domain])
    )
    text = domain_file(domain).read_text()
    ctx = RecordContext({"id": 1, "domain": domain, "PDDL_domain": text, "PDDL_problem": problems[0]})
    types = item_fluent_types(ctx, ctx, QAItem({}, None, (), problems))
    assert types is not None
    by_name = {_squashed(p): p for p in types}
    assert len(by_name) == len(types)
    arb = {by_name[_squashed(name)]: kind for kind, names in ARB_APPENDIX_H[domain].items() for name in names}
    assert set(arb) == set(types)  # the appendix names every predicate of acp's domain, once
    differing = {(domain, p): t for p, t in types.items() if t != arb[p]}
    assert differing == {k: v for k, v in ARB_EXCEPTIONS.items() if k[0] == domain}
    rac = (Path(__file__).parents[2] / "docs" / "tasks" / "rac.md").read_text()
    for (_, predicate), kind in differing.items():
        assert f"| {domain} | `{predicate}` | {arb[predicate]} | {kind} |" in rac


SATELLITE_PROBLEM = """(define (problem sats) (:domain satellite)
  (:objects {satellites} - satellite ins0 ins1 ins2 - instrument d0 d1 - direction m0 - mode)
  (:init (on_board ins0 sat0) (on_board ins1 sat0) (on_board ins2 {second}) {power} (pointing sat0 d0)
         (supports ins0 m0) (supports ins1 m0) (supports ins2 m0)
         (calibration_target ins0 d0) (calibration_target ins1 d1) (calibration_target ins2 d1))
  (:goal (and (have_image d1 m0))))"""


def test_satellite_power_on_is_base():
    """Two satellites switch an instrument on each: two power_on atoms in one reachable state, so power_on is no
    single-valued property, although a problem with one satellite has a group of all its power_on atoms."""
    text = domain_file("satellite").read_text()
    one = SATELLITE_PROBLEM.format(satellites="sat0", second="sat0", power="(power_avail sat0)")  # all on sat0
    two = SATELLITE_PROBLEM.format(
        satellites="sat0 sat1", second="sat1", power="(power_avail sat0) (power_avail sat1) (pointing sat1 d0)"
    )
    # by a hand-written plan: each satellite switches one of its instruments on
    task = GroundTask.from_strings(text, two)
    state = task.init
    for name in ("(switch_on ins0 sat0)", "(switch_on ins2 sat1)"):
        action = task.action(name)
        assert action is not None and action.applicable(state), name
        state = action.apply(state)
    assert {"(power_on ins0)", "(power_on ins2)"} <= set(task.state_atoms(state))
    # by exploring every state: some hold two power_on atoms, none two pointing atoms of one satellite
    space = explore(task, task.init, 10_000)
    assert space.complete
    held = [[a for a in task.state_atoms(s) if a.startswith(("(power_on ", "(pointing "))] for s in space.states]
    assert any(sum(a.startswith("(power_on ") for a in atoms) == 2 for atoms in held)
    for atoms in held:
        assert sum(a.startswith("(pointing sat0 ") for a in atoms) == 1
    # the translator: one satellite puts its power_on atoms in one group, which makes no predicate single-valued
    limits = Limits(time=30.0, memory_mb=2048)
    groups = []
    for problem in (one, two):
        result = Planners().mutex_groups(text, problem, limits)
        assert result.status == Status.SOLVED, result.message
        groups += result.groups
    assert any(sum(a.startswith("(power_on ") for a in g) == 3 for g in groups)  # ins0, ins1, ins2 on sat0
    single = single_valued_predicates(groups)
    assert single == {"pointing"}
    types = classify(read_strings(text, two), single, load_template("satellite").fluent_types)
    assert types["power_on"] == B and types["pointing"] == SD and types["power_avail"] == D


def test_overrides_cannot_contradict_the_pddl():
    lifted, single = translator_groups("ferry", {"locations": 2, "cars": 1})
    with pytest.raises(PddlError, match=r"t\.yaml: fluent_types makes 'not-eq' base, but the domain makes it static"):
        classify(lifted, single, {"not-eq": "base"}, source="t.yaml")
    with pytest.raises(PddlError, match="names 'parked', which is no predicate"):
        classify(lifted, single, {"parked": "base"})
    with pytest.raises(PddlError, match="gives 'on' the type 'ramified'"):
        classify(lifted, single, {"on": "ramified"})
