"""Projections of a ground task onto a set of its atoms (a *pattern*), explored exhaustively.

The projection keeps, of every state, the atoms of the pattern, and of every action the preconditions, goal
literals and effects on them (the literals on other atoms are dropped). A state's projection is a state of the
projection, and an action applicable in a state is applicable in its projection with the projected successor,
so every plan of the task is a plan of the projection: when no state the projection reaches satisfies its goal,
no plan reaches the task's goal. This is the dead-end test of pattern databases, run as a breadth-first search
of the projection's space, which for a small pattern has a few states where the task has millions.

Derived atoms are never in a pattern (a projection cannot evaluate their rules), so a task with axioms projects
soundly too: an action's effects change no atom of the pattern but its own.

A pattern is grown from a few goal atoms (:func:`grow_patterns`): the atoms of their predicates, then, a round at a
time, those of the predicates in the preconditions of the actions that add a pattern atom, as long as the
projection still reaches its goal. A *focused* growth keeps of every predicate only the atoms that name an object
all the seeds share (robot1's places, not every robot's): a small pattern that often suffices; the whole growth
is tried after it.
"""

from __future__ import annotations

from collections.abc import Iterator

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import bits, split_canonical

#: the rounds of growth :func:`grow_patterns` gives, after the first pattern
ROUNDS = 3


def projected_goal_reachable(task: GroundTask, pattern: int, max_states: int) -> bool | None:
    """Whether a state of the projection of ``task`` onto ``pattern`` reachable from the initial state satisfies
    the projected goal; None when the projection has more than ``max_states`` reachable states, or the goal names
    a static fact the task contradicts (the goal masks leave such literals out)."""
    if not task.goal_satisfiable:
        return None
    pattern &= ~task.derived_mask
    goal_pos, goal_neg = task.goal_pos & pattern, task.goal_neg & pattern
    triggered: dict[int, list[tuple[int, int, int, int]]] = {}
    always: list[tuple[int, int, int, int]] = []
    seen_actions: set[tuple[int, int, int, int]] = set()
    for action in task.actions:
        add, delete = action.add & pattern, action.delete & pattern & ~action.add
        if not add and not delete:
            continue  # a self-loop of the projection
        for pos, neg in action.precondition:
            entry = (pos & pattern, neg & pattern, add, delete)
            if entry in seen_actions:
                continue
            seen_actions.add(entry)
            low = entry[0] & -entry[0]
            (triggered.setdefault(low, []) if low else always).append(entry)
    start = task.init & pattern
    seen, frontier = {start}, [start]
    while frontier:
        following = []
        for state in frontier:
            if state & goal_pos == goal_pos and not state & goal_neg:
                return True
            candidates = list(always)
            rest = state
            while rest:
                low = rest & -rest
                rest ^= low
                candidates += triggered.get(low, ())
            for pos, neg, add, delete in candidates:
                if state & pos == pos and not state & neg:
                    successor = (state & ~delete) | add
                    if successor not in seen:
                        if len(seen) >= max_states:
                            return None
                        seen.add(successor)
                        following.append(successor)
        frontier = following
    return False


def grow_patterns(task: GroundTask, seeds: list[str], focused: bool = True) -> Iterator[int]:
    """Patterns for a projection that may prove the ``seeds`` (goal atoms) unreachable together, smallest first:
    the atoms of the seeds' predicates, then ``ROUNDS`` times those of the predicates the achievers of the
    pattern's atoms require. ``focused``: of every predicate only the atoms that name an object all seeds share
    (atoms of no argument always), when they share one; else the predicates' atoms, all of them. The seeds are
    always in; other static and derived atoms are left out (the one never changes, the other a projection cannot
    evaluate)."""
    table = task.atoms
    changing = 0
    for action in task.actions:
        changing |= action.add | action.delete
    changing &= ~task.derived_mask
    parts = [split_canonical(seed) for seed in seeds]
    shared = set.intersection(*(set(args) for _, args in parts)) if parts and focused else set()
    by_predicate: dict[str, int] = {}
    for i in bits(changing):
        name, args = split_canonical(table.names[i])
        if not shared or not args or shared & set(args):
            by_predicate[name] = by_predicate.get(name, 0) | (1 << i)
    pattern = (table.known_mask(seeds) or 0) & ~task.derived_mask
    predicates = {name for name, _ in parts}
    previous = -1
    for _ in range(ROUNDS + 1):
        for name in predicates:
            pattern |= by_predicate.get(name, 0)
        if pattern == previous:
            return
        yield pattern
        previous = pattern
        required = 0
        for action in task.actions:
            if action.add & pattern:
                for pos, neg in action.precondition:
                    required |= pos | neg
        predicates |= {split_canonical(table.names[i])[0] for i in bits(required & changing)}
