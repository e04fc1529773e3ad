"""acpgen.pddl.obfuscate: mystery and randomized renamings of every built-in domain and of a domain with
derived predicates, checked against the grounding of the renamed texts (same ground actions and atoms
under the renaming, plans stay plans), plus determinism, the word list, JSON and errors."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections import deque
from functools import cache
from pathlib import Path

import pytest

from acpgen.data import DOMAINS_DIR
from acpgen.errors import DataError
from acpgen.generators import DOMAINS, domain_file, get_generator
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import without_comments
from acpgen.pddl.obfuscate import Renaming, apply, mystery, mystery_words, randomized
from acpgen.pddl.semantics import is_plan

SEED = 7
TOKEN = re.compile(r"[^\s()]+")

# A domain outside the built-in ones: derived predicates with quantifiers, a constant, equality, a
# disjunction, action costs, mixed case and comments.
LAMPS_DOMAIN = """
; lamps lit through their switches
(define (domain Lamps)
  (:requirements :typing :derived-predicates :negative-preconditions :quantified-preconditions
                 :disjunctive-preconditions :equality :action-costs)
  (:types switch lamp - device device room)
  (:constants Hall - room)  ; the room of the goal
  (:predicates (wired ?s - switch ?l - lamp) (pressed ?s - switch) (lit ?l - lamp) (in ?d - device ?r - room)
               (bright ?r - room) (near ?r1 - room ?r2 - room))
  (:functions (total-cost) - number)
  (:derived (lit ?l - lamp) (exists (?s - switch) (and (wired ?s ?l) (pressed ?s))))
  (:derived (bright ?r - room) (forall (?l - lamp) (or (not (in ?l ?r)) (lit ?l))))
  (:action press
    :parameters (?s - switch ?from - room ?r - room)
    :precondition (and (in ?s ?r) (not (pressed ?s)) (or (= ?from ?r) (near ?from ?r)))
    :effect (and (pressed ?s) (increase (total-cost) 1)))
  (:action Release
    :parameters (?s - switch)
    :precondition (and (pressed ?s) (not (bright Hall)))
    :effect (and (not (pressed ?s)) (increase (total-cost) 1))))
"""
LAMPS_PROBLEM = """
(define (problem two-lamps) (:domain lamps)
  (:objects s1 s2 s3 - switch l1 l2 l3 - lamp attic - room)
  (:init (= (total-cost) 0) (wired s1 l1) (wired s2 l2) (wired s3 l3) (in s1 hall) (in s2 hall) (in s3 attic)
         (in l1 hall) (in l2 hall) (in l3 attic) (near attic hall) (pressed s3))
  (:goal (and (bright hall) (not (pressed s3))))
  (:metric minimize (total-cost)))
"""
LAMPS_PLAN = ["(release s3)", "(press s1 attic hall)", "(press s2 hall hall)"]


def problem_text(domain: str, seed: int = 1) -> str:
    generator = get_generator(domain)
    return generator.render(generator.generate(generator.example_sizes[0], random.Random(seed)))


def shortest_plan(task: GroundTask) -> list[str]:
    """A shortest plan by breadth-first search (the problems are small)."""
    parent: dict[int, tuple[int, str] | None] = {task.init: None}
    queue = deque([task.init])
    while queue:
        state = queue.popleft()
        if task.is_goal(state):
            plan = []
            step = parent[state]
            while step is not None:
                plan.append(step[1])
                step = parent[step[0]]
            return plan[::-1]
        for _, action in task.successors(state):
            successor = action.apply(state)
            if successor not in parent:
                parent[successor] = (state, action.name)
                queue.append(successor)
    raise AssertionError("no plan")


@cache
def original(domain: str) -> tuple[str, str, list[str]]:
    """(domain text, problem text, a plan) of a built-in domain or of the lamps domain."""
    if domain == "lamps":
        return LAMPS_DOMAIN, LAMPS_PROBLEM, LAMPS_PLAN
    domain_text, problem = domain_file(domain).read_text(), problem_text(domain)
    return domain_text, problem, shortest_plan(GroundTask.from_strings(domain_text, problem))


def renaming_of(mode: str, domain_text: str, problem: str) -> Renaming:
    return mystery(domain_text) if mode == "mystery" else randomized(domain_text, problem, SEED)


def tokens(text: str) -> set[str]:
    return set(TOKEN.findall(without_comments(text).lower()))


@pytest.mark.parametrize("mode", ["mystery", "random"])
@pytest.mark.parametrize("domain", [*DOMAINS, "lamps"])
def test_renamed_task_is_the_task_under_the_renaming(domain, mode):
    domain_text, problem, plan = original(domain)
    task = GroundTask.from_strings(domain_text, problem)
    renaming = renaming_of(mode, domain_text, problem)
    new_domain, new_problem = apply(renaming, domain_text), apply(renaming, problem)
    renamed = GroundTask.from_strings(new_domain, new_problem)

    assert len(renamed.actions) == len(task.actions) > 0
    assert len(renamed.all_atoms()) == len(task.all_atoms())
    assert {renaming.action(a.name) for a in task.actions} == {a.name for a in renamed.actions}
    assert set(renaming.rename_atoms(task.all_atoms())) == set(renamed.all_atoms())
    assert set(renaming.rename_atoms(task.state_atoms(task.init))) == set(renamed.state_atoms(renamed.init))
    assert renamed.lifted.derived_predicates == {renaming.predicates[p] for p in task.lifted.derived_predicates}

    assert is_plan(task, task.init, plan)
    assert is_plan(renamed, renamed.init, renaming.rename_actions(plan))
    assert not is_plan(renamed, renamed.init, renaming.rename_actions(plan[:-1]))  # the goal is not for free

    for atom in task.all_atoms():
        assert renaming.original_atom(renaming.atom(atom)) == atom
    for action in task.actions:
        assert renaming.original_action(renaming.action(action.name)) == action.name
    assert renaming.original_actions(renaming.rename_actions(plan)) == plan


@pytest.mark.parametrize("mode", ["mystery", "random"])
@pytest.mark.parametrize("domain", [*DOMAINS, "lamps"])
def test_no_original_name_is_left(domain, mode):
    domain_text, problem, _ = original(domain)
    lifted = GroundTask.from_strings(domain_text, problem).lifted
    renaming = renaming_of(mode, domain_text, problem)
    new_domain, new_problem = apply(renaming, domain_text), apply(renaming, problem)
    names = {*lifted.predicates, *lifted.schemas, *lifted.supertypes, lifted.domain_name, lifted.problem_name}
    leaks = {n for n in names - {"object"} if len(n) >= 3} & (tokens(new_domain) | tokens(new_problem))
    assert not leaks
    assert new_domain == new_domain.lower() and ";" not in new_domain
    # every variable is ?x<n>; the problem names the renamed domain
    assert all(re.fullmatch(r"\?x[0-9]+", t) for t in tokens(new_domain) if t.startswith("?"))
    assert re.search(r"\(:domain ([^\s()]+)\)", new_problem)[1] == renaming.domain
    assert re.search(r"\(domain ([^\s()]+)\)", new_domain)[1] == renaming.domain


@pytest.mark.parametrize("domain", [*DOMAINS, "lamps"])
def test_objects_keep_their_names_in_mystery_mode_and_are_numbered_in_random_mode(domain):
    domain_text, problem, _ = original(domain)
    lifted = GroundTask.from_strings(domain_text, problem).lifted
    own = set(lifted.objects) - set(lifted.constants)

    renaming = mystery(domain_text)
    renamed = GroundTask.from_strings(apply(renaming, domain_text), apply(renaming, problem)).lifted
    assert set(renaming.objects) == set(lifted.constants)
    assert set(renamed.objects) == own | {renaming.objects[c] for c in lifted.constants}

    renaming = randomized(domain_text, problem, SEED)
    renamed = GroundTask.from_strings(apply(renaming, domain_text), apply(renaming, problem)).lifted
    numbered = {f"o{k}" for k in range(len(own))}
    assert {renaming.objects[o] for o in own} == numbered
    assert set(renamed.objects) - set(renamed.constants) == numbered
    assert all(re.fullmatch(r"[a-z]{6}", renaming.objects[c]) for c in lifted.constants)


def test_random_numbering_does_not_follow_the_names():
    domain_text, problem, _ = original("logistics")
    for seed in (1, 2, 3):
        objects = randomized(domain_text, problem, seed).objects
        by_number = sorted(objects, key=lambda o: int(objects[o][1:]))
        assert by_number != sorted(objects)


def test_new_names_are_distinct_words_or_random_strings():
    domain_text, problem, _ = original("floortile")  # "up" and "down": both an action and a predicate
    words = set(mystery_words())
    for renaming in (mystery(domain_text), randomized(domain_text, problem, SEED)):
        new = [n for table in (renaming.predicates, renaming.actions, renaming.types) for n in table.values()]
        assert len(new) == len(set(new)) == 10 + 7 + 3
        if renaming.mode == "mystery":
            assert set(new) <= words
        else:
            assert all(re.fullmatch(r"[a-z]{6}", n) for n in new)
        assert renaming.actions["up"] != renaming.predicates["up"]


# ----- determinism ---------------------------------------------------------------------------------
def test_mystery_is_one_fixed_mapping_per_domain():
    for domain in DOMAINS:
        domain_text = domain_file(domain).read_text()
        renaming = mystery(domain_text)
        assert renaming == mystery(domain_text)
        # the same names in another layout and case: the same mapping
        assert mystery(" ".join(without_comments(domain_text).split()).upper()) == renaming
    # two problems of one domain: one renamed domain that both renamed problems ground with
    domain_text = domain_file("logistics").read_text()
    renaming = mystery(domain_text)
    new_domain = apply(renaming, domain_text)
    for seed in (1, 2):
        problem = problem_text("logistics", seed)
        assert len(GroundTask.from_strings(new_domain, apply(renaming, problem)).actions) == len(
            GroundTask.from_strings(domain_text, problem).actions
        )
    assert mystery(domain_file("ferry").read_text()) != renaming


def test_randomized_depends_on_the_seed():
    domain_text, problem, _ = original("logistics")
    renaming = randomized(domain_text, problem, SEED)
    assert renaming == randomized(domain_text, problem, SEED)
    other = randomized(domain_text, problem, SEED + 1)
    assert other.predicates != renaming.predicates and other.objects != renaming.objects
    # another problem with the same seed: the domain's new names are shared, the objects numbered anew
    second = randomized(domain_text, problem_text("logistics", 2), SEED)
    assert (second.predicates, second.actions, second.types) == (
        renaming.predicates,
        renaming.actions,
        renaming.types,
    )


def test_renamings_are_the_same_in_another_process():
    """No dependence on the hash seed of the process (set iteration order)."""
    script = (
        "import json; from acpgen.generators import DOMAINS, domain_file; "
        "from acpgen.pddl.obfuscate import mystery, randomized; import sys; "
        "problems = json.loads(sys.stdin.read()); "
        "print(json.dumps({d: [mystery(domain_file(d).read_text()).to_dict(), "
        f"randomized(domain_file(d).read_text(), problems[d], {SEED}).to_dict()] for d in DOMAINS}}))"
    )
    problems = {d: original(d)[1] for d in DOMAINS}
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run(
        [sys.executable, "-c", script], input=json.dumps(problems), env=env, capture_output=True, text=True, check=True
    ).stdout
    expected = {
        d: [mystery(original(d)[0]).to_dict(), randomized(original(d)[0], problems[d], SEED).to_dict()] for d in DOMAINS
    }
    assert json.loads(out) == expected


# ----- the word list ---------------------------------------------------------------------------------
PLANNING_WORDS = set(
    "move on clear truck ball at block robot pick drop drive fly hold holding stack unstack put take carry "
    "load unload goal plan state action table hand arm empty full free open close door key lock room "
    "place location go walk push pull lift grab visit path road car plane ship boat box crate".split()
)
PDDL_WORDS = set(
    "define domain problem and or not imply forall exists when either object number increase decrease "
    "minimize maximize total-cost".split()
)


def test_word_list():
    words = mystery_words()
    assert len(words) >= 300 and len(words) == len(set(words))
    assert all(re.fullmatch(r"[a-z]+", w) for w in words)
    domain_names = set().union(*(tokens(p.read_text()) for p in DOMAINS_DIR.glob("*/domain.pddl")))
    generator_sources = Path(get_generator("ferry").make.__code__.co_filename).parent.glob("*.py")
    generator_names = set().union(*(re.findall(r'"([a-z][a-z0-9_-]*)"', p.read_text()) for p in generator_sources))
    assert len(domain_names) > 200 and len(generator_names) > 200
    assert not set(words) & (domain_names | generator_names | PLANNING_WORDS | PDDL_WORDS)


# ----- JSON and errors ----------------------------------------------------------------------------------
def test_json_round_trip():
    domain_text, problem, _ = original("alfworld")  # constants
    for renaming in (mystery(domain_text), randomized(domain_text, problem, SEED)):
        data = json.loads(json.dumps(renaming.to_dict()))
        assert set(data) == {"mode", "domain", "problem", "predicates", "actions", "types", "objects"}
        assert data["predicates"] == renaming.predicates and data["objects"] == renaming.objects
        assert Renaming.from_dict(data) == renaming


def test_malformed_renaming_data():
    data = mystery(domain_file("ferry").read_text()).to_dict()
    with pytest.raises(DataError, match="mode"):
        Renaming.from_dict({**data, "mode": "secret"})
    with pytest.raises(DataError, match="'predicates' must map names"):
        Renaming.from_dict({**data, "predicates": ["at"]})
    with pytest.raises(DataError, match="new name of both"):
        Renaming.from_dict({**data, "actions": {**data["actions"], "sail": data["predicates"]["at"]}})
    with pytest.raises(DataError, match="'domain' must be a string"):
        Renaming.from_dict({k: v for k, v in data.items() if k != "domain"})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(define (domain d) (:predicates (p ?x))", r"unbalanced parentheses: the '\(' at line 1 is never closed"),
        ("(define (domain d)\n (:predicates (p ?x))))", r"unbalanced parentheses: the '\)' at line 2 closes nothing"),
        ("(define (domain d)) (p)", "expected one"),
        ("(define (domain d) (:durative-action a))", "unsupported PDDL section"),
    ],
)
def test_unreadable_text(text, message):
    renaming = mystery(domain_file("ferry").read_text())
    with pytest.raises(DataError, match=message):
        apply(renaming, text)
    with pytest.raises(DataError, match=message):
        mystery(text)


def test_names_the_renaming_does_not_hold():
    domain_text, problem, _ = original("ferry")
    renaming = mystery(domain_text)
    with pytest.raises(DataError, match="expected a PDDL domain"):
        mystery(problem)
    with pytest.raises(DataError, match="no predicate name of the original domain"):
        renaming.atom("(on-top c0)")
    with pytest.raises(DataError, match="no action name of the renamed domain"):
        renaming.original_action("(sail l0 l1)")  # an original name is not a renamed one
    with pytest.raises(DataError, match="not a ground atom"):
        renaming.atom("at c0 l0")
    with pytest.raises(DataError, match="no new name for the predicate 'floating'"):
        apply(renaming, problem.replace("(at-ferry", "(floating"))
    word = renaming.predicates["at"]
    with pytest.raises(DataError, match=f"object '{word}'.* ambiguous"):
        apply(renaming, problem.replace("c0", word))
    random_renaming = randomized(domain_text, problem, SEED)
    with pytest.raises(DataError, match="no new name for the object 'c9'"):
        apply(random_renaming, problem.replace("(at c0", "(at c9"))
    with pytest.raises(DataError, match="'c9' is no object of the original task"):
        random_renaming.atom("(on c9)")
    assert renaming.atom("(ON c9)") == f"({renaming.predicates['on']} c9)"  # mystery: objects keep names
