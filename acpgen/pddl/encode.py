"""PDDL encodings of planner queries, built from the ground task, never from answer text.

Two encodings:

* :func:`lifted_query` keeps the task's own domain text and renders a new problem (objects,
  the state as ``:init``, a goal of ground literals) from the task's objects and atom names.
  The translator's invariant synthesis then sees the original schemas and finds mutexes that
  settle most unreachability questions at once.
* :func:`never_achieved` is the landmark test of the paper, which changes individual ground
  actions and therefore uses a propositional encoding: atom ``i`` is the nullary predicate
  ``(f<i>)`` and the ``j``-th action is the parameterless action ``a<j>``.

:class:`Encoding` maps plans returned for either encoding back to canonical ground actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import GroundAction, split_canonical
from acpgen.pddl.render import render_problem
from acpgen.pddl.semantics import relaxed_reachable

# A goal is a disjunction of (positive mask, negative mask) conjunctions.
Goal = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Encoding:
    """A PDDL domain/problem pair; ``actions`` is set for propositional encodings."""

    domain: str
    problem: str
    actions: tuple[GroundAction, ...] | None = None

    def decode(self, plan: tuple[str, ...]) -> list[str]:
        """Canonical ground action names of a plan returned for this encoding."""
        if self.actions is None:
            return [" ".join(step.lower().split()) for step in plan]
        return [self.actions[int(step.strip("() ")[1:])].name for step in plan]


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def goal_of(task: GroundTask) -> Goal:
    """The task's own goal as an encoding goal."""
    return ((task.goal_pos, task.goal_neg),)


# ----- lifted encoding ------------------------------------------------------------------------
def lifted_query(task: GroundTask, state: int, pos: int, neg: int = 0, name: str = "query") -> Encoding:
    """The task's domain with a problem asking to reach ``pos``/``not neg`` from ``state``."""
    return Encoding(task.lifted.domain_text, render_problem(task, state, f"acp-{name}", goal=(pos, neg)))


# ----- propositional encoding -----------------------------------------------------------------
def _conjunction(pos: int, neg: int) -> str:
    parts = [f"(f{i})" for i in _bits(pos)] + [f"(not (f{i}))" for i in _bits(neg)]
    return "(and " + " ".join(parts) + ")" if parts else "(and)"


def _formula(disjuncts: Goal) -> str:
    if len(disjuncts) == 1:
        return _conjunction(*disjuncts[0])
    return "(or " + " ".join(_conjunction(p, n) for p, n in disjuncts) + ")"


def propositional(state: int, goal: Goal, actions: list[GroundAction], name: str = "query") -> Encoding:
    """Reaching ``goal`` from ``state`` with exactly ``actions``, all atoms and actions nullary."""
    used = state
    for pos, neg in goal:
        used |= pos | neg
    for action in actions:
        used |= action.add | action.delete
        for pos, neg in action.precondition:
            used |= pos | neg
    lines = [f"(define (domain acp-{name})",
             "  (:requirements :strips :negative-preconditions :disjunctive-preconditions)",
             f"  (:predicates {' '.join(f'(f{i})' for i in _bits(used))})"]
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
    return propositional(state | fresh, goal, compiled, name="landmark")


def atom_bit_of(task: GroundTask, name: str) -> int | None:
    """Bit of a canonical atom name reported by a planner; None if the task has no such atom."""
    try:
        split_canonical(name)
    except IndexError:
        return None
    return task.atoms.index.get(name.lower())
