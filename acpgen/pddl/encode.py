"""PDDL encodings of planner queries, built from the ground task, never from answer text.

Every query keeps the task's lifted schemas, so the translator's invariant synthesis finds the
mutexes that settle most unreachability questions at once:

* :func:`lifted_query`: the task's own domain text with a problem rendered from the task's
  objects and atoms (the state as ``:init``, a goal of ground literals);
* :func:`lifted_never_achieved`: the paper's "p never achieved" landmark test, as a domain
  rendered without the groundings that would add p.

:meth:`Encoding.decode` maps returned plans to canonical ground actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import split_canonical
from acpgen.pddl.render import NEVER_HIT, NEVER_PREFIX, render_domain, render_problem


@dataclass(frozen=True)
class Encoding:
    """A PDDL domain/problem pair for one planner query."""

    domain: str
    problem: str

    @staticmethod
    def decode(plan: tuple[str, ...]) -> list[str]:
        """Canonical ground action names of a plan returned for this encoding."""
        return [" ".join(step.lower().split()) for step in plan]


def lifted_query(task: GroundTask, state: int, pos: int, neg: int = 0, name: str = "query") -> Encoding:
    """The task's domain with a problem asking to reach ``pos``/``not neg`` from ``state``."""
    return Encoding(task.lifted.domain_text, render_problem(task, state, f"acp-{name}", goal=(pos, neg)))


def lifted_never_achieved(task: GroundTask, state: int, atom_bit: int) -> Encoding:
    """The landmark test in lifted form: the domain without the groundings that add the atom.

    Solvable iff some plan from ``state`` never makes the atom true (it must be false in
    ``state``); see :func:`acpgen.pddl.render.render_domain`.
    """
    predicate, args = split_canonical(task.atoms.names[atom_bit.bit_length() - 1])
    domain = render_domain(task.lifted, never_add=predicate)
    marker = "(" + " ".join([NEVER_PREFIX + predicate, *args]) + ")"
    extra_goal = (f"(not ({NEVER_HIT}))",) if predicate in task.lifted.derived_predicates else ()
    problem = render_problem(
        task, state, "acp-landmark", goal=(task.goal_pos, task.goal_neg), extra_init=(marker,), extra_goal=extra_goal
    )
    return Encoding(domain, problem)


def atom_bit_of(task: GroundTask, name: str) -> int | None:
    """Bit of a canonical atom name reported by a planner; None if the task has no such atom."""
    try:
        split_canonical(name)
    except IndexError:
        return None
    return task.atoms.index.get(name.lower())
