"""Propositional PDDL encodings of ground tasks for the planners.

Planner queries (reachability of an atom, of an action's precondition, the "p never achieved"
landmark compilation, optimal cost from a state) are built from the ground task's objects, never
from answer text: atom ``i`` becomes the nullary predicate ``(f<i>)`` and the ``j``-th action of
the encoding becomes the parameterless action ``a<j>``. :class:`Encoding` maps plans back.
"""

from __future__ import annotations

from dataclasses import dataclass

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import GroundAction
from acpgen.pddl.semantics import relaxed_reachable

# A goal is a disjunction of (positive mask, negative mask) conjunctions.
Goal = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Encoding:
    """A propositional PDDL domain/problem pair and the actions its names stand for."""

    domain: str
    problem: str
    actions: tuple[GroundAction, ...]

    def decode(self, plan: tuple[str, ...]) -> list[str]:
        """Canonical ground action names of a plan returned for this encoding."""
        return [self.actions[int(step.strip("() ")[1:])].name for step in plan]


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _conjunction(pos: int, neg: int) -> str:
    parts = [f"(f{i})" for i in _bits(pos)] + [f"(not (f{i}))" for i in _bits(neg)]
    return "(and " + " ".join(parts) + ")" if parts else "(and)"


def _formula(disjuncts: Goal) -> str:
    if len(disjuncts) == 1:
        return _conjunction(*disjuncts[0])
    return "(or " + " ".join(_conjunction(p, n) for p, n in disjuncts) + ")"


def encode(task: GroundTask, state: int, goal: Goal, actions: list[GroundAction] | None = None,
           name: str = "query") -> Encoding:
    """Encode reaching ``goal`` from ``state`` with ``actions`` (default: the relevant ones).

    By default only actions that are delete-relaxed reachable from ``state`` are kept; the
    others can never be applied, so dropping them changes no answer.
    """
    if actions is None:
        _, actions = relaxed_reachable(task, state)
    used = state
    for pos, neg in goal:
        used |= pos | neg
    for action in actions:
        used |= action.add | action.delete
        for pos, neg in action.precondition:
            used |= pos | neg
    predicates = " ".join(f"(f{i})" for i in _bits(used)) or ""
    lines = [f"(define (domain acp-{name})",
             "  (:requirements :strips :negative-preconditions :disjunctive-preconditions)",
             f"  (:predicates {predicates})"]
    for j, action in enumerate(actions):
        effects = [f"(f{i})" for i in _bits(action.add)]
        effects += [f"(not (f{i}))" for i in _bits(action.delete & ~action.add)]
        lines.append(f"  (:action a{j} :parameters ()"
                     f" :precondition {_formula(action.precondition)}"
                     f" :effect (and {' '.join(effects)}))")
    lines.append(")")
    init = " ".join(f"(f{i})" for i in _bits(state))
    problem = "\n".join([f"(define (problem acp-{name}-p)", f"  (:domain acp-{name})",
                         f"  (:init {init})", f"  (:goal {_formula(goal)})", ")"])
    return Encoding("\n".join(lines) + "\n", problem + "\n", tuple(actions))


def never_achieved(task: GroundTask, state: int, atom_bit: int) -> Encoding:
    """The landmark test compilation: solvable iff some plan never makes the atom true.

    A fresh atom ``never`` holds initially and is a goal; every action that adds the atom also
    deletes ``never``. Plans of the compiled task are exactly the plans of the task that never
    reach a state containing the atom (the atom must not hold in ``state`` itself).
    """
    fresh = 1 << task.atoms.id("(acp-never-achieved)")
    _, relevant = relaxed_reachable(task, state)
    compiled = [
        GroundAction(a.name, a.precondition, a.add, a.delete | fresh) if a.add & atom_bit else a
        for a in relevant
    ]
    goal: Goal = tuple((pos | fresh, neg) for pos, neg in goal_of(task))
    return encode(task, state | fresh, goal, compiled, name="landmark")


def goal_of(task: GroundTask) -> Goal:
    """The task's own goal as an encoding goal."""
    return ((task.goal_pos, task.goal_neg),)
