"""The symbolic core against the reference dev records and small hand-made tasks."""

from __future__ import annotations

import random

import pytest
from conftest import dev_records, generated_problem, random_walk, record_param

import acpgen.pddl.explore as explore_module
from acpgen.data import DOMAINS_DIR
from acpgen.errors import PddlError
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.render import render_problem
from acpgen.pddl.semantics import execute, is_plan, relaxed_reachable
from acpgen.tasks.base import plan_from_question


def ground(record) -> GroundTask:
    return GroundTask.from_strings(record["PDDL_domain"], record["PDDL_problem"])


@pytest.mark.parametrize("record", record_param("app"))
def test_applicable_actions_match_reference(record):
    task = ground(record)
    assert {a.name for a in task.applicable(task.init)} == {x.lower() for x in record["answer"]}


@pytest.mark.parametrize("record", record_param("prog"))
def test_some_applicable_action_has_the_reference_effects(record):
    task = ground(record)
    stored = ({x.lower() for x in record["answer"]["pos"]}, {x.lower() for x in record["answer"]["neg"]})
    found = []
    for action in task.applicable(task.init):
        after = action.apply(task.init)
        if (set(task.atoms.atoms(after & ~task.init)), set(task.atoms.atoms(task.init & ~after))) == stored:
            found.append(action.name)
    assert found


@pytest.mark.parametrize("record", record_param("val"))
def test_first_inapplicable_index_matches_reference(record):
    task = ground(record)
    plan = plan_from_question(record["question"])
    assert execute(task, task.init, plan).failed_at == record["answer"]


@pytest.mark.parametrize("record", record_param("just"))
def test_justification_plans_are_plans(record):
    task = ground(record)
    assert is_plan(task, task.init, plan_from_question(record["question"]))


def test_nexta_optimal_costs_match_reference_on_small_records():
    checked = 0
    for record in dev_records("nexta"):
        task = ground(record)
        space = explore(task, task.init, 20000)
        if not space.complete:
            continue
        checked += 1
        assert space.optimal_cost() == int(record["answer"]["opt"])
        for name in record["answer"]["yes"]:
            succ = task.action(name).apply(task.init)
            assert space.optimal_cost(succ) == int(record["answer"]["opt"]) - 1
    assert checked >= 20


FERRY = """(define (domain ferry) (:requirements :strips :typing) (:types car location)
 (:predicates (at ?c - car ?l - location) (at-ferry ?l - location) (empty-ferry) (on ?c - car) (not-eq ?x ?y))
 (:action sail :parameters (?from ?to - location) :precondition (and (not-eq ?from ?to) (at-ferry ?from))
   :effect (and (at-ferry ?to) (not (at-ferry ?from))))
 (:action board :parameters (?car - car ?loc - location)
   :precondition (and (at ?car ?loc) (at-ferry ?loc) (empty-ferry))
   :effect (and (on ?car) (not (at ?car ?loc)) (not (empty-ferry))))
 (:action debark :parameters (?car - car ?loc - location) :precondition (and (on ?car) (at-ferry ?loc))
   :effect (and (at ?car ?loc) (empty-ferry) (not (on ?car)))))"""
FERRY_P = """(define (problem p) (:domain ferry) (:objects c0 - car l0 l1 - location)
 (:init (at c0 l0) (at-ferry l0) (empty-ferry) (not-eq l0 l1) (not-eq l1 l0)) (:goal (and (at c0 l1))))"""

ADL = """(define (domain adl) (:requirements :adl :typing :action-costs) (:types thing place - object box - thing)
 (:constants home - place)
 (:predicates (at ?t - thing ?p - place) (open ?b - box) (locked) (lit ?p - place))
 (:action move :parameters (?t - thing ?a ?b - place)
   :precondition (and (at ?t ?a) (not (= ?a ?b)) (or (lit ?b) (not (locked))))
   :effect (and (at ?t ?b) (not (at ?t ?a))))
 (:action unlock :parameters () :precondition (locked) :effect (not (locked)))
 (:action light :parameters (?p - place) :precondition (and) :effect (lit ?p)))"""
ADL_P = """(define (problem q) (:domain adl) (:objects b1 - box t1 - thing away - place)
 (:init (at b1 home) (at t1 away) (locked)) (:goal (and (at b1 away) (not (locked)))))"""


def test_ferry_plan_execution_and_relaxation():
    task = GroundTask.from_strings(FERRY, FERRY_P)
    plan = ["(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)"]
    assert is_plan(task, task.init, plan)
    # Sailing first leaves c0 behind: boarding at l0 then fails at step 1.
    assert execute(task, task.init, ["(sail l0 l1)", "(board c0 l0)"]).failed_at == 1
    assert execute(task, task.init, ["(fly c0)"]).unknown_at == 0
    # (sail l0 l0) is type-correct but its static precondition (not-eq l0 l0) is false.
    assert task.action("(sail l0 l0)") is not None and not task.action("(sail l0 l0)").precondition
    assert task.action("(board l0 c0)") is None  # wrong types
    reached, _ = relaxed_reachable(task, task.init)
    assert reached & (1 << task.atom_id("(on c0)"))


def test_adl_constants_negation_equality_disjunction():
    task = GroundTask.from_strings(ADL, ADL_P)
    move = task.action("(move b1 home away)")
    # one action, two disjuncts: (lit away) or (not (locked))
    assert move is not None and len(move.precondition) == 2
    assert not move.applicable(task.init)  # locked and nothing is lit
    assert move.applicable(task.action("(light away)").apply(task.init))
    assert task.action("(move b1 home home)").precondition == ()  # (not (= ?a ?b)) fails
    assert is_plan(task, task.init, ["(unlock)", "(move b1 home away)"])
    assert not is_plan(task, task.init, ["(move b1 home away)"])
    assert task.is_valid_atom("(at b1 home)") and not task.is_valid_atom("(at home b1)")


def test_malformed_pddl_is_a_clear_error():
    with pytest.raises(PddlError, match="record 7"):
        GroundTask.from_strings(FERRY, "(define (problem p) (:domain ferry) (:init (at c0", source="record 7")


@pytest.mark.parametrize("domain", sorted(p.parent.name for p in DOMAINS_DIR.glob("*/domain.pddl")))
def test_rendered_domain_round_trips(domain):
    """A domain rendered from the model parses back to the same types, predicates and schemas."""
    import random

    from acpgen.generators import domain_file, get_generator
    from acpgen.pddl.render import render_domain
    from acpgen.pddl.tarski_io import read_strings

    generator = get_generator(domain)
    problem = generator.render(generator.generate(generator.example_sizes[0], random.Random(1)))
    original = read_strings(domain_file(domain).read_text(), problem)
    again = read_strings(render_domain(original), problem)
    assert again.supertypes == original.supertypes
    assert again.predicates == original.predicates and again.constants == original.constants
    for name, schema in original.schemas.items():
        other = again.schemas[name]
        assert (other.params, other.add, other.delete) == (schema.params, schema.add, schema.delete)
        assert set(map(frozenset, other.precondition)) == set(map(frozenset, schema.precondition))


def test_files_and_strings_give_the_same_task(tmp_path):
    (tmp_path / "d.pddl").write_text(FERRY)
    (tmp_path / "p.pddl").write_text(FERRY_P)
    from_files = GroundTask.from_files(tmp_path / "d.pddl", tmp_path / "p.pddl")
    from_text = GroundTask.from_strings(FERRY, FERRY_P)
    assert [a.name for a in from_files.actions] == [a.name for a in from_text.actions]
    assert from_files.state_atoms(from_files.init) == from_text.state_atoms(from_text.init)
    with pytest.raises(PddlError, match="cannot read"):
        GroundTask.from_files(tmp_path / "missing.pddl", tmp_path / "p.pddl")


def test_identical_text_is_parsed_once_and_errors_still_name_their_source():
    from acpgen.pddl.tarski_io import read_strings

    record = dev_records("app")[0]
    first = read_strings(record["PDDL_domain"], record["PDDL_problem"], "first")
    again = read_strings(record["PDDL_domain"], record["PDDL_problem"], "again")
    assert again is first
    other = dev_records("app")[1]
    assert read_strings(other["PDDL_domain"], other["PDDL_problem"]) is not first
    # Two groundings of one parsed task are equal, atom for atom and action for action.
    a, b = GroundTask(first), GroundTask(again)
    assert a.atoms.names == b.atoms.names and [x.name for x in a.actions] == [x.name for x in b.actions]
    broken = record["PDDL_problem"].replace("(:init", "(:init (", 1)
    for source in ("record one", "record two"):
        with pytest.raises(PddlError, match=source):
            read_strings(record["PDDL_domain"], broken, source)


class _WholeJoins(GroundTask):
    """The grounding as it was before joins looked at new facts only: every join over all facts."""

    def _join(self, schema, conjunction, facts, before):
        return sorted(tuple(b[v] for v, _ in schema.params) for b in self._bindings(schema, conjunction, facts))


@pytest.mark.parametrize("domain", sorted(p.name for p in DOMAINS_DIR.iterdir() if (p / "domain.pddl").exists()))
def test_joins_over_new_facts_ground_what_whole_joins_do(domain):
    """Atom numbering, actions (names, preconditions, effects, order) and goal: equal, on two problems
    of every configured size of every built-in domain."""
    from conftest import generated_problem

    from acpgen.config import load_config

    for size in load_config().domain(domain).sizes:
        for seed in (0, 1):
            task = generated_problem(domain, seed, size)
            whole = _WholeJoins(task.lifted)
            assert task.atoms.names == whole.atoms.names
            assert [(a.name, a.precondition, a.add, a.delete) for a in task.actions] == [
                (a.name, a.precondition, a.add, a.delete) for a in whole.actions
            ]
            assert (task.init, task.goal_pos, task.goal_neg) == (whole.init, whole.goal_pos, whole.goal_neg)


def test_a_task_with_another_goal_is_the_grounding_of_that_problem():
    """``with_goal`` against a fresh grounding of the problem text with the other goal: the same actions,
    initial atoms and goal atoms by name (the numbering of new goal atoms may differ)."""
    task = GroundTask.from_strings(FERRY, FERRY_P)
    other_text = FERRY_P.replace("(:goal (and", "(:goal (and (at-ferry l0) (not (empty-ferry))", 1)
    other = GroundTask.from_strings(FERRY, other_text)
    assert other.lifted.goal != task.lifted.goal
    carried = task.with_goal(other.lifted.goal)
    assert [a.name for a in carried.actions] == [a.name for a in other.actions]
    for a, b in zip(carried.actions, other.actions):
        assert [(carried.atoms.atoms(p), carried.atoms.atoms(n)) for p, n in a.precondition] == [
            (other.atoms.atoms(p), other.atoms.atoms(n)) for p, n in b.precondition
        ]
    assert carried.state_atoms(carried.init) == other.state_atoms(other.init)
    for mask in ("goal_pos", "goal_neg"):
        assert sorted(carried.atoms.atoms(getattr(carried, mask))) == sorted(other.atoms.atoms(getattr(other, mask)))
    assert carried.goal_satisfiable == other.goal_satisfiable
    assert task.lifted.goal != carried.lifted.goal and task.goal_pos != carried.goal_pos  # the original is untouched


@pytest.mark.parametrize("domain", ["ferry", "grippers", "goldminer"])
def test_what_an_exploration_found_answers_whether_a_space_is_small(domain, monkeypatch):
    # reachable_within answers as a fresh exploration with the bound does. After an exploration of the same texts
    # (a copy of the grounding: a question's generation, then its re-proof) it explores only when what that
    # exploration found does not settle the bound.
    task = generated_problem(domain, 2)
    text = (DOMAINS_DIR / domain / "domain.pddl").read_text()
    rng = random.Random(4)
    for steps in (0, 3, 7):
        problem = render_problem(task, random_walk(task, steps, rng))
        own = GroundTask(GroundTask.from_strings(text, problem).lifted)  # a grounding of its own: nothing known
        small = {bound: explore(own, own.init, bound).complete for bound in (10, 1000, 20000)}
        for first in (20000, 10):
            generating = GroundTask.from_strings(text, problem)
            generating.explored_sizes.clear()
            explore(generating, generating.init, first)
            rechecking = GroundTask.from_strings(text, problem)
            calls: list = []
            monkeypatch.setattr(explore_module, "explore", _counting(calls, explore))
            answers = {bound: explore_module.reachable_within(rechecking, rechecking.init, bound) for bound in small}
            monkeypatch.undo()
            assert answers == small, (domain, steps, first)
            # a complete exploration settles every bound; an incomplete one with bound b every bound up to b: the
            # bounds asked in turn, each explored only when the largest incomplete bound so far is smaller
            expected, known = [], first
            for bound in small:
                if not small[known] and bound > known:
                    expected.append(bound)
                    known = bound
            assert [args[2] for args in calls] == expected, (domain, steps, first)


def _counting(calls: list, real):
    def counted(*args):
        calls.append(args)
        return real(*args)

    return counted


def _scratch(lifted) -> tuple:
    """The grounding of ``lifted`` from scratch (no joins or action templates of an earlier grounding kept)."""
    from acpgen.pddl import grounding

    grounding._JOINS.clear()
    grounding._TEMPLATES.clear()
    return _grounding(GroundTask(lifted))


def _grounding(task: GroundTask) -> tuple:
    axioms = None if task.axioms is None else task.axioms.rules
    actions = [(a.name, a.precondition, a.add, a.delete) for a in task.actions]
    return task.atoms.names, actions, task.init, task.goal_pos, task.goal_neg, task.rule_names, axioms


@pytest.mark.parametrize("domain", sorted(p.name for p in DOMAINS_DIR.iterdir() if (p / "domain.pddl").exists()))
def test_a_grounding_replayed_from_an_earlier_one_of_the_same_dynamics_is_the_grounding_from_scratch(
    domain, monkeypatch
):
    """The problems of states reachable from a problem's initial state are grounded from the joins of the first
    grounding (grounding._Joins) and its actions' templates (grounding._Template): the same atoms in the same
    numbering, the same actions and rules. Expected: each problem grounded with no joins or templates kept. A
    state's joins are replayed, the initial state's (not reached from the state, in general) are not; most of a
    state's actions are made from templates."""
    from acpgen.config import load_config
    from acpgen.pddl import grounding
    from acpgen.pddl.tarski_io import read_strings

    replays = []
    monkeypatch.setattr(grounding, "_JOINS", grounding.OrderedDict())
    monkeypatch.setattr(grounding, "_TEMPLATES", grounding.OrderedDict())
    made = []
    real_template = GroundTask._template
    monkeypatch.setattr(GroundTask, "_template", lambda self, *args: (made.append(1), real_template(self, *args))[1])
    real = grounding._Replay.__init__
    monkeypatch.setattr(grounding._Replay, "__init__", lambda self, joins: (replays.append(1), real(self, joins))[1])
    sizes = load_config().domain(domain).sizes
    for size in (sizes[0], sizes[len(sizes) // 2]):
        task = generated_problem(domain, 2, size)
        rng = random.Random(7)
        texts = [render_problem(task, random_walk(task, rng.randint(1, 8), rng)) for _ in range(4)]
        lifted = [read_strings(task.lifted.domain_text, text) for text in texts]
        scratch = [_scratch(one) for one in lifted]
        grounding._JOINS.clear()
        grounding._TEMPLATES.clear()
        GroundTask(task.lifted)  # the joins of the initial state and its actions' templates, kept
        replays.clear()
        made.clear()
        again = [GroundTask(one) for one in lifted]
        assert [_grounding(one) for one in again] == scratch
        assert len(replays) == len(lifted)
        assert len(made) < sum(len(one.actions) for one in again) / 2


@pytest.mark.parametrize("domain", ["blocksworld", "ferry", "logistics", "alfworld"])
def test_a_replayed_grounding_of_a_ramification_variant_is_the_grounding_from_scratch(domain, monkeypatch):
    """The same with derived predicates: the variants (template rules) of a problem and of states along walks."""
    from acpgen.nl.ramified import rules_of
    from acpgen.nl.template import load_template
    from acpgen.pddl import grounding
    from acpgen.pddl.ramifications import variant_domain, variant_problem
    from acpgen.pddl.tarski_io import read_strings

    rules = rules_of(load_template(domain))
    if not rules:
        pytest.skip(f"{domain}'s template has no ramification rules")
    monkeypatch.setattr(grounding, "_JOINS", grounding.OrderedDict())
    replays = []
    real = grounding._Replay.__init__
    monkeypatch.setattr(grounding._Replay, "__init__", lambda self, joins: (replays.append(1), real(self, joins))[1])
    task = generated_problem(domain, 3)
    rng = random.Random(8)
    states = [
        GroundTask.from_strings(task.lifted.domain_text, render_problem(task, random_walk(task, n, rng)))
        for n in (0, 2, 4, 6)
    ]
    texts = [variant_problem(state, rules) for state in states]
    domain_text = variant_domain(task.lifted, rules)
    lifted = [read_strings(domain_text, text) for text in texts]
    scratch = [_scratch(one) for one in lifted]
    assert scratch[0][-1] is not None  # rules grounded
    grounding._JOINS.clear()
    GroundTask(lifted[0])
    replays.clear()
    assert [_grounding(GroundTask(one)) for one in lifted[1:]] == scratch[1:]
    assert len(replays) == len(lifted) - 1


_KEYS = """(define (domain keys) (:requirements :strips :typing) (:types room)
  (:predicates (at ?r - room) (door ?a ?b - room) (lit ?r - room))
  (:action walk :parameters (?a ?b - room) :precondition (and (at ?a) (door ?a ?b))
   :effect (and (not (at ?a)) (at ?b))))"""


def test_a_rendered_state_keeps_the_static_goal_literal_its_initial_state_contradicts():
    """A goal that asks for a static fact the problem does not hold (a door that no action opens) is unsolvable;
    the state rendered as a problem keeps that literal, so its grounding is unsolvable too, while a satisfied
    static literal is left out as before."""
    problem = """(define (problem p) (:domain keys) (:objects r1 r2 r3 - room)
      (:init (at r1) (door r1 r2) (door r2 r1) (lit r2))
      (:goal (and (at r2) (door r2 r3) (lit r2))))"""
    task = GroundTask.from_strings(_KEYS, problem)
    assert not task.goal_satisfiable
    moved = task.applicable(task.init)[0].apply(task.init)
    text = render_problem(task, moved)
    goal = text[text.index(":goal") :]
    assert "(door r2 r3)" in goal and "(lit r2)" not in goal
    again = GroundTask.from_strings(_KEYS, text)
    assert [lit.args for lit in again.goal_contradicted] == [("r2", "r3")]  # the door, and only it


def _steps(task: GroundTask, limit: int) -> dict[frozenset[str], tuple[bool, list[tuple[str, frozenset[str]]]]]:
    """The states reached from the task's initial state (breadth first, at most ``limit``), each by its atoms with
    whether it is a goal state and its successors (action name, atoms of the state reached): what a task's
    numbering and actions do not change."""
    seen = {task.init: None}
    queue = [task.init]
    steps = {}
    while queue and len(steps) < limit:
        state = queue.pop(0)
        out = []
        for action in task.applicable(state):
            after = action.apply(state)
            out.append((action.name, frozenset(task.atoms.atoms(after))))
            if after not in seen:
                seen[after] = None
                queue.append(after)
        steps[frozenset(task.atoms.atoms(state))] = (task.is_goal(state), out)
    return steps


@pytest.mark.parametrize("domain", sorted(p.name for p in DOMAINS_DIR.iterdir() if (p / "domain.pddl").exists()))
def test_a_state_served_by_its_problems_grounding_steps_as_its_own_grounding(domain, monkeypatch):
    """``from_strings(share=True)``: the states of a problem, after its initial state's grounding, are served by that
    grounding (its actions, its numbering) when its relaxation reached their facts. Expected: each state's own
    grounding, compared by atom and action names: the same initial atoms, goal test and successors over the states
    reached from it (300 at most), and every own action among the served task's."""
    from acpgen.pddl import grounding

    monkeypatch.setattr(grounding, "_BASES", grounding.OrderedDict())
    task = generated_problem(domain, 2)
    rng = random.Random(3)
    texts = [render_problem(task, random_walk(task, n, rng)) for n in (2, 5, 9)]
    base = GroundTask.from_strings(task.lifted.domain_text, render_problem(task, task.init), share=True)
    served_count = 0
    for text in texts:
        served = GroundTask.from_strings(task.lifted.domain_text, text, share=True)
        own = GroundTask.from_strings(task.lifted.domain_text, text)
        served_count += served.actions is base.actions
        assert set(served.atoms.atoms(served.init)) == set(own.atoms.atoms(own.init))
        assert {a.name for a in own.actions} <= {a.name for a in served.actions}
        assert _steps(served, 300) == _steps(own, 300)
    assert served_count >= 1  # a walk's state whose facts the initial state's relaxation reached


def test_a_state_whose_facts_the_earlier_grounding_does_not_reach_is_grounded_on_its_own(monkeypatch):
    """A lamp that can be blown out but never lit: a state with it lit is not reached from one with it out, so it gets
    its own grounding, which then serves the states it reaches (one with it out too)."""
    from acpgen.pddl import grounding

    monkeypatch.setattr(grounding, "_BASES", grounding.OrderedDict())
    domain = (
        _KEYS[:-1]
        + """
   (:action blow :parameters (?r - room) :precondition (and (at ?r) (lit ?r)) :effect (not (lit ?r))))"""
    )
    problem = """(define (problem p) (:domain keys) (:objects r1 r2 r3 - room)
      (:init {at} (door r1 r2) (door r2 r1) (door r2 r3) {lit})
      (:goal (at r3)))"""
    dark = GroundTask.from_strings(domain, problem.format(at="(at r1)", lit=""), share=True)
    lit = GroundTask.from_strings(domain, problem.format(at="(at r1)", lit="(lit r3)"), share=True)
    assert lit.actions is not dark.actions
    assert [a.name for a in dark.actions] == ["(walk r1 r2)", "(walk r2 r1)", "(walk r2 r3)"]
    moved = GroundTask.from_strings(domain, problem.format(at="(at r2)", lit="(lit r3)"), share=True)
    out = GroundTask.from_strings(domain, problem.format(at="(at r2)", lit=""), share=True)
    assert moved.actions is lit.actions and out.actions is lit.actions
    for task, fluents, applicable in (
        (moved, ["(at r2)", "(lit r3)"], ["(walk r2 r1)", "(walk r2 r3)"]),
        (out, ["(at r2)"], ["(walk r2 r1)", "(walk r2 r3)"]),
    ):
        assert sorted(task.atoms.atoms(task.init & ~task.static_mask)) == fluents
        assert [a.name for a in task.applicable(task.init)] == applicable
    after = out.action("(walk r2 r3)").apply(out.init)
    assert out.is_goal(after) and out.applicable(after) == []  # (blow r3) is the grounding's, never applicable here


def test_a_grounding_no_longer_kept_for_copies_serves_no_state(monkeypatch):
    """The groundings that serve are those kept for copies of their texts (grounding._RECENT, bounded by its count of
    ground actions): once the problem's grounding is forgotten there, a state of it is grounded on its own."""
    from acpgen.pddl import grounding

    monkeypatch.setattr(grounding, "_BASES", grounding.OrderedDict())
    monkeypatch.setattr(grounding, "_RECENT", grounding.OrderedDict())
    task = generated_problem("ferry", 4)
    domain, problem = task.lifted.domain_text, render_problem(task, task.init)
    base = GroundTask.from_strings(domain, problem, share=True)
    state = task.applicable(task.init)[0].apply(task.init)
    assert GroundTask.from_strings(domain, render_problem(task, state), share=True).actions is base.actions
    grounding._RECENT.clear()
    later = GroundTask.from_strings(domain, render_problem(task, random_walk(task, 3, random.Random(4))), share=True)
    assert later.actions is not base.actions
