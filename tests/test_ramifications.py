"""Ramification variants (acpgen.pddl.ramifications) of blocksworld, ferry and grippers, from their templates."""

from __future__ import annotations

import random

import pytest

from acpgen.errors import PddlError
from acpgen.generators import get_generator
from acpgen.generators.base import domain_file
from acpgen.nl.template import load_template
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.ramifications import check_rules, parse_rules, restated, variant_domain, variant_problem
from acpgen.pddl.render import render_problem
from acpgen.pddl.semantics import is_plan
from acpgen.planners import Limits, Planners, Status

SIZES = {
    "blocksworld": {"blocks": 3},
    "ferry": {"locations": 2, "cars": 2},
    "grippers": {"robots": 1, "rooms": 2, "balls": 3},
}


def base_task(domain: str, seed: int = 5) -> GroundTask:
    generator = get_generator(domain)
    problem = generator.render(generator.generate(SIZES[domain], random.Random(seed)))
    return GroundTask.from_strings(domain_file(domain).read_text(), problem)


def rules_of(domain: str):
    template = load_template(domain)
    return parse_rules(template.ramifications, template.path)


@pytest.mark.parametrize("domain", list(SIZES))
def test_template_rules_fire_and_agree_with_the_effects(domain):
    rules = rules_of(domain)
    assert restated(rules, base_task(domain).lifted)  # every variant restates at least one fluent
    check_rules([base_task(domain, seed) for seed in (1, 2)], rules, f"templates/{domain}.yaml")


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
    rules = [r for r in rules_of(domain) if r.predicate in base.lifted.predicates]
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
