"""The fast problem reader gives tarski's reading, and hands everything else to tarski.

Expected values come from tarski (``_parse_with_tarski``), an independent parser: on every reference
dev record and on generated problems of all 13 domains both readings must be equal. Problems outside
the reader's shape must be refused by it (None), so that tarski reads or rejects them as before.
"""

from __future__ import annotations

import json
import random

import pytest
from conftest import DEV
from ramification_problems import base_task, rules_of

from acpgen.data import DOMAINS_DIR
from acpgen.errors import PddlError
from acpgen.generation.sources import DomainSource
from acpgen.generators import DOMAINS
from acpgen.pddl import tarski_io
from acpgen.pddl.problem_reader import read_problem
from acpgen.pddl.ramifications import variant_domain, variant_problem

FERRY = (DOMAINS_DIR / "ferry" / "domain.pddl").read_text()
P01 = """; a comment
(define (problem ferry-p01) (:domain ferry)
  (:objects l0 l1 - location c0 c1 - car)
  (:init (at-ferry l0) (empty-ferry) (at c0 l0) (at c1 l0) (at c1 l0))
  (:goal (and (at c0 l1) (and (at c1 l1) (not (at-ferry l1))) (at c0 l1))))"""


def both(domain: str, problem: str):
    return tarski_io._parse(domain, problem, "test"), tarski_io._parse_with_tarski(domain, problem, "test")


def fast_reads(domain: str, problem: str) -> bool:
    alone = tarski_io._domain_alone(domain)
    return alone is not None and read_problem(problem, alone[0]) is not None


def test_reference_records_read_alike():
    records = [r for path in sorted(DEV.glob("*.gen.json")) for r in json.loads(path.read_text())]
    assert len(records) == 320
    for record in records:
        fast, slow = both(record["PDDL_domain"], record["PDDL_problem"])
        assert fast == slow, record["id"]
        assert fast_reads(record["PDDL_domain"], record["PDDL_problem"])


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_generated_problems_read_alike(name):
    source = DomainSource.builtin(name)
    assert source.generator is not None
    domain = (DOMAINS_DIR / name / "domain.pddl").read_text()
    for seed, size in enumerate(source.generator.example_sizes):
        problem = source.generator.render(source.generator.generate(size, random.Random(seed)))
        fast, slow = both(domain, problem)
        assert fast == slow
        assert fast_reads(domain, problem)


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_ramification_variants_read_alike(name):
    """Domains with rules: the rules are converted per problem (their universal quantifiers range over the
    problem's objects), so the fast reading on top of the domain parsed once equals tarski's full one."""
    rules = rules_of(name)
    for seed in (3, 4):
        task = base_task(name, seed)
        domain, problem = variant_domain(task.lifted, rules), variant_problem(task, rules)
        fast, slow = both(domain, problem)
        assert fast.axioms and fast == slow
        assert fast_reads(domain, problem)


def test_duplicates_nesting_case_and_comments_read_alike():
    names_upper = P01
    for name in ("ferry-p01", "l0", "l1", "c0", "c1", "at-ferry", "empty-ferry", "location", "car"):
        names_upper = names_upper.replace(name, name.upper())
    for problem in (P01, names_upper):
        fast, slow = both(FERRY, problem)
        assert fast == slow and fast_reads(FERRY, problem)
        assert fast.goal[0].predicate == "at" and fast.goal[0].args == ("c0", "l1")
        assert len(fast.goal) == 3 and len(fast.init) == 4  # duplicates once


@pytest.mark.parametrize("keyword", ["define", "problem", ":domain", ":objects", ":init", ":goal", "and", "not"])
def test_upper_case_keywords_are_left_to_tarski(keyword):
    """tarski takes some keywords in any case and refuses others; the fast reader takes none."""
    problem = P01.replace(keyword, keyword.upper())
    assert not fast_reads(FERRY, problem)
    try:
        fast = tarski_io._parse(FERRY, problem, "test")
    except PddlError:
        with pytest.raises(PddlError):
            tarski_io._parse_with_tarski(FERRY, problem, "test")
    else:
        assert fast == tarski_io._parse_with_tarski(FERRY, problem, "test")


@pytest.mark.parametrize(
    "change",
    [
        ("(:objects l0 l1 - location c0 c1 - car)", "(:objects l0 l1 - location c0 c1 - truck)"),  # unknown type
        ("(at-ferry l0)", "(at-ferry l0 l1)"),  # arity
        ("(at-ferry l0)", "(at-ferry l9)"),  # undeclared object
        ("(at-ferry l0)", "(at-ferry c0)"),  # argument of the wrong type
        ("(at-ferry l0)", "(docked l0)"),  # undeclared predicate
        ("(:objects l0 l1 - location c0 c1 - car)", "(:objects l0 l1 l0 - location c0 c1 - car)"),  # repeated
        ("(:objects l0 l1 - location c0 c1 - car)", "(:objects l0 l1 - (either location) c0 c1 - car)"),
        ("(:goal (and (at c0 l1)", "(:goal (or (at c0 l1)"),  # disjunctive goal
        ("(:goal (and (at c0 l1)", "(:goal (and (= c0 c0)"),  # equality
        ("(:domain ferry)", "(:domain boats)"),  # another domain's name
        ("(empty-ferry)", "(= (fuel) 3)"),  # a numeric fluent
        ("(:goal (and", "(:constraints (and))(:goal (and"),  # an unknown section
    ],
)
def test_other_shapes_go_to_tarski(change):
    problem = P01.replace(*change)
    assert problem != P01
    assert not fast_reads(FERRY, problem)
    try:
        fast = tarski_io._parse(FERRY, problem, "test")
    except PddlError as err:
        with pytest.raises(PddlError) as again:
            tarski_io._parse_with_tarski(FERRY, problem, "test")
        assert str(again.value) == str(err)
    else:
        assert fast == tarski_io._parse_with_tarski(FERRY, problem, "test")


def test_unbalanced_text_is_refused_by_both():
    assert not fast_reads(FERRY, P01[:-1])
    with pytest.raises(PddlError):
        tarski_io._parse(FERRY, P01[:-1], "test")
