"""Fluent types (acpgen.pddl.fluents) of ferry, blocksworld and grippers, from the translator's mutex groups.

Expected types, derived by hand from the domains: a predicate is self-derived when it takes one value per
object (ferry: the ferry is at one location, a car at one location, the ferry carries one car; blocksworld:
a block is on one block, the hand holds one block; grippers: the robot is in one room, a ball in one room,
a gripper carries one ball); the templates declare the fluents that follow from others as derived.
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
}


def translator_groups(domain: str, size: dict) -> tuple:
    generator = get_generator(domain)
    problem = generator.render(generator.generate(size, random.Random(3)))
    domain_text = domain_file(domain).read_text()
    result = Planners().mutex_groups(domain_text, problem, Limits(time=30.0, memory_mb=2048))
    assert result.status == Status.SOLVED, result.message
    return read_strings(domain_text, problem), result.groups


@pytest.mark.parametrize("domain", list(CASES))
def test_types_from_the_pddl_and_the_template(domain):
    size, from_pddl, from_template = CASES[domain]
    lifted, groups = translator_groups(domain, size)
    assert classify(lifted, groups) == dict(sorted(from_pddl.items()))
    overrides = load_template(domain).fluent_types
    assert classify(lifted, groups, overrides) == dict(sorted({**from_pddl, **from_template}.items()))


def test_single_valued_needs_two_atoms_differing_in_one_argument():
    assert single_valued_predicates([("(at c0 l0)", "(at c0 l1)", "(on c0)")]) == {"at"}
    assert single_valued_predicates([("(on a b)", "(on c d)"), ("(free r g)",)]) == set()
    assert single_valued_predicates([("(holding a)", "(holding b)", "(handempty)")]) == {"holding"}


def test_overrides_cannot_contradict_the_pddl():
    lifted, groups = translator_groups("ferry", {"locations": 2, "cars": 1})
    with pytest.raises(PddlError, match=r"t\.yaml: fluent_types makes 'not-eq' base, but the domain makes it static"):
        classify(lifted, groups, {"not-eq": "base"}, source="t.yaml")
    with pytest.raises(PddlError, match="names 'parked', which is no predicate"):
        classify(lifted, groups, {"parked": "base"})
    with pytest.raises(PddlError, match="gives 'on' the type 'ramified'"):
        classify(lifted, groups, {"on": "ramified"})
