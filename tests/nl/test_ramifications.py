"""Ramification variants (acpgen.pddl.ramifications) of the domains, from their templates."""

from __future__ import annotations

import random
import re

import pytest
from ramification_problems import SIZES, base_task, rules_of

from acpgen.errors import PddlError
from acpgen.generators import DOMAINS
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.ramifications import check_rules, parse_rules, restated, variant_domain, variant_problem
from acpgen.pddl.render import render_problem
from acpgen.pddl.semantics import is_plan
from acpgen.planners import Limits, Planners, Status

#: problems (seeds) the rules are checked on; alfworld's seeds 1 and 2 give no openable receptacle at this size
CHECK_SEEDS = {"alfworld": (3, 4)}
#: domains whose PDDL states no fluent that follows from the others: their rules only add derived fluents
NOTHING_TO_RESTATE = {"logistics", "visitall", "swap"}


def uses(rule, rules):
    """The predicates of other rules that ``rule``'s body mentions."""
    return {
        other.predicate
        for other in rules
        if other is not rule and re.search(rf"\(\s*{re.escape(other.predicate)}[\s)]", rule.body)
    }


def restating_rules(rules, lifted):
    """The rules that restate a fluent of the domain, with the new derived fluents their bodies use."""
    needed = set(restated(rules, lifted))
    while True:
        used = set().union(*(uses(r, rules) for r in rules if r.predicate in needed))
        if used <= needed:
            return [r for r in rules if r.predicate in needed]
        needed |= used


def depth(rules) -> int:
    """Levels of the deepest rule: a rule on base fluents only is level 1, one using a level-k rule k + 1."""
    level: dict[str, int] = {}
    while len(level) < len(rules):  # the core refuses cyclic rules, so this ends
        for rule in rules:
            below = uses(rule, rules)
            if rule.predicate not in level and below <= set(level):
                level[rule.predicate] = 1 + max((level[p] for p in below), default=0)
    return max(level.values())


@pytest.mark.parametrize("domain", list(SIZES))
def test_template_rules_fire_and_agree_with_the_effects(domain):
    rules = rules_of(domain)
    # every variant restates at least one fluent, except where the domain has none to restate
    assert bool(restated(rules, base_task(domain).lifted)) == (domain not in NOTHING_TO_RESTATE)
    check_rules(
        [base_task(domain, seed) for seed in CHECK_SEEDS.get(domain, (1, 2))], rules, f"templates/{domain}.yaml"
    )


def test_every_domain_has_checked_ramification_rules():
    assert set(SIZES) == set(DOMAINS)
    levels = {domain: depth(rules_of(domain)) for domain in DOMAINS}
    assert all(2 <= n <= 4 for n in levels.values()), levels  # ActionReasoningBench's rules go up to four levels


def test_rule_depth_counts_levels():
    rules = parse_rules(
        [
            {"derived": "(a ?x)", "body": "(not (on ?x ?x))", "text": "level one"},
            {"derived": "(b)", "body": "(exists (?x) (a ?x))", "text": "level two"},
            {"derived": "(ab ?x)", "body": "(and (a ?x) (not (b)))", "text": "level three, 'a' is a prefix"},
        ],
        "t.yaml",
    )
    assert [sorted(uses(r, rules)) for r in rules] == [[], ["a"], ["a", "b"]]
    assert depth(rules) == 3
    assert depth(rules_of("blocksworld")) == 4  # clear, alone, spread, idle


@pytest.mark.parametrize("domain", list(SIZES))
def test_progression_agrees_on_base_fluents_along_random_walks(domain):
    base = base_task(domain)
    rules = rules_of(domain)
    variant = GroundTask.from_strings(variant_domain(base.lifted, rules), variant_problem(base, rules))
    rng = random.Random(7)
    for _ in range(20):
        b, v = base.init, variant.init
        for _ in range(15):
            options = base.applicable(b)
            assert [a.name for a in options] == [a.name for a in variant.applicable(v)]
            if not options:
                break
            action = rng.choice(options)
            b, v = action.apply(b), variant.action(action.name).apply(v)
            assert set(base.state_atoms(b)) <= set(variant.state_atoms(v))


@pytest.mark.parametrize("domain", list(SIZES))
def test_fast_downward_plans_the_restating_variant_like_the_base(domain):
    base = base_task(domain)
    rules = restating_rules(rules_of(domain), base.lifted)
    if domain in NOTHING_TO_RESTATE:  # the restating variant is the base itself: plan the full variant instead
        rules = rules_of(domain)
    planners, limits = Planners(), Limits(time=30.0, memory_mb=2048)
    want = planners.optimal(base.lifted.domain_text, render_problem(base, base.init), limits)
    got = planners.optimal(variant_domain(base.lifted, rules), variant_problem(base, rules), limits)
    assert want.status == got.status == Status.SOLVED
    assert len(got.plans[0]) == len(want.plans[0])
    assert is_plan(base, base.init, [" ".join(step.lower().split()) for step in got.plans[0]])


def test_a_rule_that_never_fires_is_refused():
    rules = parse_rules(
        [{"derived": "(floating ?x)", "body": "(and (ontable ?x) (holding ?x))", "text": "a block floats"}], "t.yaml"
    )
    with pytest.raises(PddlError, match=r"t\.yaml: ramifications\[0\] \(floating\) never fires"):
        check_rules([base_task("blocksworld")], rules, "t.yaml")


def test_a_rule_that_contradicts_an_effect_is_refused():
    wrong = {"derived": "(clear ?x)", "body": "(not (exists (?y) (on ?y ?x)))", "text": "forgets the hand"}
    with pytest.raises(PddlError, match=r"t\.yaml: ramifications\[0\] \(clear\) contradicts the domain's effects"):
        check_rules([base_task("blocksworld")], parse_rules([wrong], "t.yaml"), "t.yaml")
