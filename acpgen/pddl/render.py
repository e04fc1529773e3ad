"""Render problems from the ground task's objects and atoms (never by editing PDDL text).

Layout of the reference records: objects grouped by type (types and names sorted), init atoms
sorted, one section per line indented by four spaces; a one-atom goal is written without ``and``.
"""

from __future__ import annotations

from acpgen.pddl.grounding import GroundTask


def objects_section(task: GroundTask) -> str:
    """``:objects`` content: the problem's objects (not the domain's constants) grouped by type."""
    lifted = task.lifted
    groups: dict[str, list[str]] = {}
    for obj, type_name in sorted(lifted.objects.items()):
        if obj not in lifted.constants:
            groups.setdefault(type_name, []).append(obj)
    typed = set(lifted.supertypes) != {"object"}
    if not typed:
        return " ".join(name for names in groups.values() for name in names)
    return " ".join(" ".join(names) + f" - {t}" for t, names in sorted(groups.items()))


def goal_formula(task: GroundTask, pos: int, neg: int = 0) -> str:
    parts = sorted(task.atoms.atoms(pos)) + [f"(not {a})" for a in sorted(task.atoms.atoms(neg))]
    return parts[0] if len(parts) == 1 else "(and " + " ".join(parts) + ")"


def render_problem(task: GroundTask, state: int, name: str | None = None, requirements: str | None = None,
                   goal: tuple[int, int] | None = None) -> str:
    """PDDL problem with ``state`` as ``:init`` and the task's goal (or ``goal``: positive, negative masks)."""
    pos, neg = goal if goal is not None else (task.goal_pos, task.goal_neg)
    lines = [f"(define (problem {name or task.lifted.problem_name})", f"    (:domain {task.lifted.domain_name})"]
    if requirements:
        lines.append(f"    (:requirements {requirements})")
    lines += [f"    (:objects {objects_section(task)})",
              f"    (:init {' '.join(task.state_atoms(state))})",
              f"    (:goal {goal_formula(task, pos, neg)})",
              ")"]
    return "\n".join(lines) + "\n"
