"""Action sequences of the reasoning-about-actions questions: random walks that do not stop at a dead end
where a walk around it exists (alfworld: validating the goal leaves a state where nothing applies)."""

import random

from acpgen.pddl.grounding import GroundTask
from acpgen.proofs.change.sequences import walk
from acpgen.tasks import TASKS
from acpgen.tasks.sequences import SequenceTask

# From (free), "stay" keeps the state and "fall" leads to (stuck), where no action applies.
TRAP_DOMAIN = """(define (domain trap)
  (:requirements :strips)
  (:predicates (free) (stuck))
  (:action stay :parameters () :precondition (free) :effect (free))
  (:action fall :parameters () :precondition (free) :effect (and (stuck) (not (free)))))"""
TRAP_PROBLEM = """(define (problem trap-1) (:domain trap) (:init (free)) (:goal (stuck)))"""


def test_a_walk_steps_around_a_dead_end():
    task = GroundTask.from_strings(TRAP_DOMAIN, TRAP_PROBLEM, "trap")
    walks = [walk(task, task.init, random.Random(seed), 3) for seed in range(40)]
    # A fall before the last step leaves nothing to do: every walk of three stays twice, then may fall.
    assert all(w is not None and w[:2] == ["(stay)", "(stay)"] and w[2] in ("(stay)", "(fall)") for w in walks)
    assert {w[2] for w in walks if w} == {"(stay)", "(fall)"}
    assert walks == [walk(task, task.init, random.Random(seed), 3) for seed in range(40)]  # seeded


def test_no_walk_from_a_state_where_nothing_applies():
    task = GroundTask.from_strings(TRAP_DOMAIN, TRAP_PROBLEM.replace("(:init (free))", "(:init (stuck))"), "trap")
    assert walk(task, task.init, random.Random(0), 1) is None


def test_sequence_questions_skip_states_where_nothing_applies():
    """States record how many actions apply in them; a sequence question needs at least one."""
    sequence_tasks = [name for name, task in TASKS.items() if isinstance(task, SequenceTask)]
    assert len(sequence_tasks) == 6
    for name in sequence_tasks:
        assert not TASKS[name].accepts({"applicable": 0, "atoms": ["(stuck)"]})
        assert TASKS[name].accepts({"applicable": 2, "atoms": ["(free)"]})
