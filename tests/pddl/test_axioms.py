"""Derived predicates (PDDL axioms) in the core: parsing, stratification, evaluation, rendering for planners.

The reference semantics is written here from scratch, independently of acpgen: a blocks world in which
``clear`` is derived, with derived fluents built on it up to five levels deep (clear/above/well-placed ->
misplaced -> blocking -> movable -> stuck). Every rule is evaluated by a naive fixpoint over all its
groundings, stratum by stratum as written by hand below, and compared with the core's evaluation on every
subset of the base atoms of a three-block problem and along the whole reachable state space.
"""

from __future__ import annotations

import itertools
import random
from collections import deque

import pytest
from ramification_problems import base_task, rules_of

from acpgen.errors import PddlError
from acpgen.generators import DOMAINS
from acpgen.pddl.axioms import AxiomEvaluator
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import canonical
from acpgen.pddl.ramifications import variant_domain, variant_problem
from acpgen.pddl.render import render_domain, render_problem
from acpgen.pddl.semantics import is_plan, relaxed_reachable
from acpgen.proofs.change.world import LiftedWorld

DOMAIN = """
(define (domain bw-derived)
  (:requirements :typing :negative-preconditions :derived-predicates :quantified-preconditions :equality)
  (:types block)
  (:predicates (on ?x - block ?y - block) (ontable ?x - block) (holding ?x - block) (handempty)
               (goal-on ?x - block ?y - block) (goal-table ?x - block)
               (clear ?x - block) (above ?x - block ?y - block) (well-placed ?x - block)
               (misplaced ?x - block) (blocking ?x - block) (movable ?x - block) (stuck) (all-done))
  (:derived (clear ?x - block) (and (not (holding ?x)) (forall (?y - block) (not (on ?y ?x)))))
  (:derived (above ?x - block ?y - block)
     (or (on ?x ?y) (exists (?z - block) (and (on ?x ?z) (above ?z ?y)))))
  (:derived (well-placed ?x - block)
     (or (and (ontable ?x) (goal-table ?x))
         (exists (?y - block) (and (on ?x ?y) (goal-on ?x ?y) (well-placed ?y)))))
  (:derived (misplaced ?x - block) (and (not (well-placed ?x)) (not (holding ?x))))
  (:derived (blocking ?x - block) (exists (?y - block) (and (above ?x ?y) (misplaced ?y))))
  (:derived (movable ?x - block) (and (clear ?x) (not (blocking ?x)) (not (well-placed ?x))))
  (:derived (stuck) (and (handempty) (not (exists (?x - block) (movable ?x)))))
  (:derived (all-done) (forall (?x - block) (well-placed ?x)))
  (:action pick-up :parameters (?b - block)
     :precondition (and (clear ?b) (ontable ?b) (handempty))
     :effect (and (holding ?b) (not (ontable ?b)) (not (handempty))))
  (:action put-down :parameters (?b - block)
     :precondition (holding ?b)
     :effect (and (ontable ?b) (handempty) (not (holding ?b))))
  (:action stack :parameters (?b - block ?u - block)
     :precondition (and (holding ?b) (clear ?u) (not (= ?b ?u)) (not (misplaced ?u)))
     :effect (and (on ?b ?u) (handempty) (not (holding ?b))))
  (:action unstack :parameters (?b - block ?u - block)
     :precondition (and (on ?b ?u) (clear ?b) (handempty))
     :effect (and (holding ?b) (not (on ?b ?u)) (not (handempty)))))
"""

BLOCKS = ("a", "b", "c")
# a on b, b on the table, c on the table; goal tower: c on b on a.
PROBLEM = """
(define (problem three) (:domain bw-derived)
  (:objects a b c - block)
  (:init (on a b) (ontable b) (ontable c) (handempty) (goal-table a) (goal-on b a) (goal-on c b))
  (:goal (all-done)))
"""
STATIC = {("goal-table", ("a",)), ("goal-on", ("b", "a")), ("goal-on", ("c", "b"))}
BASE_ATOMS = (
    [("on", (x, y)) for x in BLOCKS for y in BLOCKS if x != y]
    + [("ontable", (x,)) for x in BLOCKS]
    + [("holding", (x,)) for x in BLOCKS]
    + [("handempty", ())]
)


def naive_derived(base: set) -> set:
    """The derived atoms of a state by the rules above: a naive fixpoint per stratum, over all groundings."""
    facts = set(base) | STATIC

    def fixpoint(rules):
        while True:
            new = {atom for rule in rules for atom in rule(facts)} - facts
            if not new:
                return
            facts.update(new)

    # stratum 0: clear, above, well-placed, all-done (all-done reads well-placed positively)
    fixpoint(
        [
            lambda f: {
                ("clear", (x,))
                for x in BLOCKS
                if ("holding", (x,)) not in f and all(("on", (y, x)) not in f for y in BLOCKS)
            },
            lambda f: {("above", (x, y)) for x in BLOCKS for y in BLOCKS if ("on", (x, y)) in f},
            lambda f: {
                ("above", (x, y))
                for x in BLOCKS
                for y in BLOCKS
                for z in BLOCKS
                if ("on", (x, z)) in f and ("above", (z, y)) in f
            },
            lambda f: {("well-placed", (x,)) for x in BLOCKS if {("ontable", (x,)), ("goal-table", (x,))} <= f},
            lambda f: {
                ("well-placed", (x,))
                for x in BLOCKS
                for y in BLOCKS
                if {("on", (x, y)), ("goal-on", (x, y)), ("well-placed", (y,))} <= f
            },
            lambda f: {("all-done", ())} if all(("well-placed", (x,)) in f for x in BLOCKS) else set(),
        ]
    )
    # stratum 1: misplaced (not well-placed), blocking (above, misplaced)
    fixpoint(
        [
            lambda f: {
                ("misplaced", (x,)) for x in BLOCKS if ("well-placed", (x,)) not in f and ("holding", (x,)) not in f
            },
            lambda f: {
                ("blocking", (x,))
                for x in BLOCKS
                for y in BLOCKS
                if ("above", (x, y)) in f and ("misplaced", (y,)) in f
            },
        ]
    )
    # stratum 2: movable (not blocking, not well-placed); stratum 3: stuck (no movable block)
    fixpoint(
        [
            lambda f: {
                ("movable", (x,))
                for x in BLOCKS
                if ("clear", (x,)) in f and ("blocking", (x,)) not in f and ("well-placed", (x,)) not in f
            }
        ]
    )
    fixpoint(
        [
            lambda f: (
                {("stuck", ())} if ("handempty", ()) in f and not any(("movable", (x,)) in f for x in BLOCKS) else set()
            )
        ]
    )
    return facts - set(base) - STATIC


def naive_applicable(state: set) -> set[str]:
    """Applicable actions by the action definitions above (the state includes its derived atoms)."""
    out = set()
    for b in BLOCKS:
        if {("clear", (b,)), ("ontable", (b,)), ("handempty", ())} <= state:
            out.add(f"(pick-up {b})")
        if ("holding", (b,)) in state:
            out.add(f"(put-down {b})")
        for u in BLOCKS:
            if b != u and {("holding", (b,)), ("clear", (u,))} <= state and ("misplaced", (u,)) not in state:
                out.add(f"(stack {b} {u})")
            if {("on", (b, u)), ("clear", (b,)), ("handempty", ())} <= state:
                out.add(f"(unstack {b} {u})")
    return out


def atoms_of(task: GroundTask, state: int) -> set:
    out = set()
    for name in task.state_atoms(state):
        inner = name[1:-1].split()
        out.add((inner[0], tuple(inner[1:])))
    return out - STATIC


def mask(task: GroundTask, atoms) -> int:
    return task.static_mask | task.mask_of(canonical(p, a) for p, a in atoms)


@pytest.fixture(scope="module")
def task() -> GroundTask:
    return GroundTask.from_strings(DOMAIN, PROBLEM)


def test_strata_follow_the_negations(task):
    assert task.lifted.strata == (
        ("above", "all-done", "clear", "well-placed"),
        ("blocking", "misplaced"),
        ("movable",),
        ("stuck",),
    )
    assert task.lifted.derived_predicates.isdisjoint(task.static_predicates)


def test_rules_agree_with_a_naive_fixpoint_on_every_base_state(task):
    # every subset of the 13 base atoms, reachable or not: the rules are a function of the base atoms
    checked = 0
    for picks in itertools.product((False, True), repeat=len(BASE_ATOMS)):
        base = {atom for atom, on in zip(BASE_ATOMS, picks) if on}
        closed = task.close(mask(task, base))
        assert atoms_of(task, closed) == base | naive_derived(base), sorted(base)
        checked += 1
    assert checked == 2**13


def test_remembered_closures_are_the_rules_closures_whatever_derived_atoms_the_state_brings(monkeypatch):
    # close() remembers closures by base atoms, and starts afresh past MEMO_SIZE: a second pass over every base
    # state, each brought with derived atoms set at random, must read the same closures from the memo or
    # recompute them after a clearing (a small bound forces both)
    task = GroundTask.from_strings(DOMAIN, PROBLEM)
    assert task.axioms is not None
    monkeypatch.setattr(AxiomEvaluator, "MEMO_SIZE", 1000)
    fresh = AxiomEvaluator(task.axioms.strata, task.axioms.derived_mask)
    rng = random.Random(3)
    for _ in range(2):
        for picks in itertools.product((False, True), repeat=len(BASE_ATOMS)):
            base = {atom for atom, on in zip(BASE_ATOMS, picks) if on}
            noise = fresh.derived_mask & rng.getrandbits(len(task.atoms.names))
            assert atoms_of(task, fresh.close(mask(task, base) | noise)) == base | naive_derived(base), sorted(base)
            assert len(fresh._closed) <= 1000


def test_initial_state_has_its_derived_atoms(task):
    base = {("on", ("a", "b")), ("ontable", ("b",)), ("ontable", ("c",)), ("handempty", ())}
    derived = naive_derived(base)
    # written out by hand as well: a is clear (nothing on it), c is clear; b is the only well-placed... none:
    # goal-table is a, so no block is well-placed; everything not held is misplaced; a is above misplaced b.
    assert derived == {
        ("clear", ("a",)),
        ("clear", ("c",)),
        ("above", ("a", "b")),
        ("misplaced", ("a",)),
        ("misplaced", ("b",)),
        ("misplaced", ("c",)),
        ("blocking", ("a",)),
        ("movable", ("c",)),
    }
    assert atoms_of(task, task.init) == base | derived


def test_reachable_space_matches_a_naive_search(task):
    """Breadth-first search written here (naive progression, then the naive rules) reaches the same states."""
    space = explore(task, task.init, 10_000)
    assert space.complete
    start = frozenset(atoms_of(task, task.init))
    seen, queue = {start}, deque([start])
    while queue:
        state = queue.popleft()
        for name in naive_applicable(set(state)):
            head, *args = name[1:-1].split()
            base = {a for a in state if a in BASE_ATOMS}
            b = args[0]
            if head == "pick-up":
                base = (base - {("ontable", (b,)), ("handempty", ())}) | {("holding", (b,))}
            elif head == "put-down":
                base = (base - {("holding", (b,))}) | {("ontable", (b,)), ("handempty", ())}
            elif head == "stack":
                base = (base - {("holding", (b,))}) | {("on", (b, args[1])), ("handempty", ())}
            else:
                base = (base - {("on", (b, args[1])), ("handempty", ())}) | {("holding", (b,))}
            nxt = frozenset(base | naive_derived(base))
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    assert {frozenset(atoms_of(task, s)) for s in space.states} == seen
    for state in space.states:
        assert {a.name for a in task.applicable(state)} == naive_applicable(atoms_of(task, state))
    # goal (all-done) is derived: c on b on a with a on the table
    goal_states = [s for s in space.states if task.is_goal(s)]
    assert [sorted(a for a in atoms_of(task, s) if a[0] in ("on", "ontable")) for s in goal_states] == [
        [("on", ("b", "a")), ("on", ("c", "b")), ("ontable", ("a",))]
    ]
    # unstack a; put-down a; pick-up b; stack b a; pick-up c; stack c b
    assert space.optimal_cost() == 6


def test_relaxed_reachability_reaches_derived_atoms(task):
    reached, _ = relaxed_reachable(task, task.init)
    assert reached & task.goal_pos == task.goal_pos
    done = 1 << task.atom_id("(all-done)")
    blocked, _ = relaxed_reachable(task, task.init, underivable=done)
    assert not blocked & done


def test_rendered_task_keeps_the_rules(task):
    domain = render_domain(task.lifted)
    assert domain.count("(:derived") == 8 and ":derived-predicates" in domain
    problem = render_problem(task, task.init)
    assert "(clear" not in problem and "(misplaced" not in problem  # derived atoms are not written to :init
    again = GroundTask.from_strings(domain, problem)
    assert again.state_atoms(again.init) == task.state_atoms(task.init)
    assert is_plan(
        again,
        again.init,
        ["(unstack a b)", "(put-down a)", "(pick-up b)", "(stack b a)", "(pick-up c)", "(stack c b)"],
    )


NEGATIVE_CYCLE = """
(define (domain cyc) (:requirements :derived-predicates)
  (:predicates (p ?x) (q ?x) (r ?x) (base ?x))
  (:derived (p ?x) (and (base ?x) (q ?x)))
  (:derived (q ?x) (r ?x))
  (:derived (r ?x) (not (p ?x)))
  (:action a :parameters (?x) :precondition (base ?x) :effect (not (base ?x))))
"""

DERIVED_IN_EFFECT = """
(define (domain eff) (:requirements :derived-predicates)
  (:predicates (p ?x) (base ?x))
  (:derived (p ?x) (base ?x))
  (:action a :parameters (?x) :precondition (base ?x) :effect (p ?x)))
"""

POSITIVE_CYCLE = """
(define (domain pos) (:requirements :derived-predicates)
  (:predicates (p ?x) (q ?x) (base ?x) (link ?x ?y))
  (:derived (p ?x) (or (base ?x) (exists (?y) (and (link ?y ?x) (q ?y)))))
  (:derived (q ?x) (p ?x))
  (:action cut :parameters (?x ?y) :precondition (link ?x ?y) :effect (not (link ?x ?y))))
"""


def problem_for(domain: str, objects: str = "o1 o2 o3", init: str = "") -> str:
    return f"(define (problem t) (:domain {domain}) (:objects {objects}) (:init {init}) (:goal (and)))"


def test_a_cycle_through_negation_is_refused_naming_its_predicates():
    with pytest.raises(PddlError, match=r"cyc.pddl: the derived predicates p, q, r depend on each other"):
        GroundTask.from_strings(NEGATIVE_CYCLE, problem_for("cyc"), source="cyc.pddl")


def test_a_derived_predicate_in_an_effect_is_refused():
    with pytest.raises(PddlError, match=r"eff.pddl: action a changes the derived predicate p"):
        GroundTask.from_strings(DERIVED_IN_EFFECT, problem_for("eff"), source="eff.pddl")


def test_a_derived_atom_in_init_is_refused():
    with pytest.raises(PddlError, match=r"lists atoms of the derived predicates p"):
        GroundTask.from_strings(DERIVED_IN_EFFECT.replace("(p ?x)))", "(base ?x)))"), problem_for("eff", init="(p o1)"))


def test_positive_recursion_is_a_least_fixpoint():
    # o1 is base; links o1->o2->o3 carry p along; cutting a link removes what depended on it
    task = GroundTask.from_strings(
        POSITIVE_CYCLE, problem_for("pos", init="(base o1) (link o1 o2) (link o2 o3) (link o3 o2)")
    )
    assert {a for a in task.state_atoms(task.init) if a.startswith("(p ")} == {"(p o1)", "(p o2)", "(p o3)"}
    after = task.action("(cut o1 o2)").apply(task.init)
    # o2 and o3 support each other through the o2<->o3 links only: not derived (least fixpoint)
    assert {a for a in task.state_atoms(after) if a.startswith("(p ")} == {"(p o1)"}


def test_domains_without_axioms_keep_plain_actions():
    from acpgen.pddl.model import DerivingAction

    task = GroundTask.from_strings(
        "(define (domain d) (:predicates (p ?x) (q ?x)) (:action a :parameters (?x) :precondition (p ?x) "
        ":effect (and (q ?x) (not (p ?x)))))",
        problem_for("d", init="(p o1)"),
    )
    assert task.axioms is None and task.derived_mask == 0
    assert not any(isinstance(a, DerivingAction) for a in task.actions)


def test_planners_plan_on_the_same_semantics(task):
    """Fast Downward on the rendered task: optimal cost and the 'never achieved' test of every derived atom
    agree with exhaustive exploration of the core's states."""
    from acpgen.pddl.encode import lifted_never_achieved
    from acpgen.planners import Limits, Planners, Status

    planners, limits = Planners(), Limits(time=20.0, memory_mb=2048)
    space = explore(task, task.init, 10_000)
    result = planners.optimal(render_domain(task.lifted), render_problem(task, task.init), limits)
    assert result.status == Status.SOLVED and len(result.plans[0]) == space.optimal_cost() == 6
    assert is_plan(task, task.init, [" ".join(step.lower().split()) for step in result.plans[0]])
    verdicts = {}
    for atom in task.atoms.atoms(task.derived_mask & ~task.init):
        bit = 1 << task.atom_id(atom)
        encoding = lifted_never_achieved(task, task.init, bit)
        solved = planners.solve(encoding.domain, encoding.problem, limits).status
        assert solved in (Status.SOLVED, Status.UNSOLVABLE), atom
        assert (solved == Status.SOLVED) == space.goal_reachable_avoiding(bit), atom
        verdicts[atom] = solved == Status.SOLVED
    assert not verdicts["(well-placed b)"] and not verdicts["(stuck)"]  # landmarks: needed for the goal
    assert any(verdicts.values())  # some derived atoms can be avoided on the way to the goal


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_ramification_variant_derives_what_the_separate_interpreter_derives(domain):
    # the core's ground rules (closures remembered per base state) against the separate interpreter's lifted
    # rules, on states walked in every domain's ramification variant
    task = base_task(domain)
    rules = rules_of(domain)
    variant = GroundTask.from_strings(variant_domain(task.lifted, rules), variant_problem(task, rules))
    assert variant.axioms is not None
    interpreter = LiftedWorld(variant.lifted, {})
    rng, state = random.Random(4), variant.init
    for _ in range(25):
        assert set(variant.atoms.atoms(variant.close(state))) == interpreter.derive(
            frozenset(variant.atoms.atoms(state))
        ), domain
        options = variant.successors(state)
        if not options:
            break
        state = rng.choice(options)[1].apply(state)
