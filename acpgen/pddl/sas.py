"""A planner query written from acp's own ground task, in Fast Downward's SAS format.

Fast Downward translates PDDL before it searches, grounding the task all over again; for a large
task that costs far more than the search of a short optimal plan (an alfworld query: 0.5-0.9 s of
translation, milliseconds of A*). :func:`sas_query` writes the question "reach ``pos``/not ``neg``
from ``state``" directly from the ground actions acp already has, with one binary variable per
fluent atom that an action or the goal mentions (value 0: the atom holds, 1: it does not):

* an action with several precondition disjuncts becomes one operator per disjunct (same name);
* add effects win over delete effects, as in acp's semantics (``s' = (s & ~delete) | add``);
* static literals were evaluated during grounding, so they never appear.

This is exact when the task's ground actions include every action applicable in a state reachable
from ``state``. They are the actions reachable from the task's initial state in the delete
relaxation, so :func:`sas_query` asks for ``covered``, the atoms of that relaxation, and returns
None for a state with an atom outside it (and for tasks with derived predicates, which stay with
the translator); callers then ask the translator's PDDL query instead.
"""

from __future__ import annotations

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import bits, split_canonical


def sas_query(task: GroundTask, state: int, pos: int, neg: int, covered: int) -> str | None:
    """The SAS text of reaching ``pos`` and avoiding ``neg`` from ``state`` (unit costs), or None when
    the task's own grounding cannot answer it exactly (see the module docstring)."""
    if task.axioms is not None or state & ~covered & ~task.static_mask:
        return None
    mentioned = pos | neg
    for action in task.actions:
        mentioned |= action.add | action.delete
        for need, forbid in action.precondition:
            mentioned |= need | forbid
    mentioned &= ~task.static_mask
    atoms = list(bits(mentioned))
    var = {bit: i for i, bit in enumerate(atoms)}
    lines = ["begin_version", "3", "end_version", "begin_metric", "0", "end_metric", str(len(atoms))]
    for i, bit in enumerate(atoms):
        fact = _fact(task.atoms.names[bit])
        lines += ["begin_variable", f"var{i}", "-1", "2", f"Atom {fact}", f"NegatedAtom {fact}", "end_variable"]
    lines += ["0", "begin_state", *("0" if state >> bit & 1 else "1" for bit in atoms), "end_state"]
    goal = sorted([(var[b], 0) for b in bits(pos & mentioned)] + [(var[b], 1) for b in bits(neg & mentioned)])
    lines += ["begin_goal", str(len(goal)), *(f"{v} {value}" for v, value in goal), "end_goal"]
    operators: list[str] = []
    count = 0
    for action in task.actions:
        name = action.name.strip("()")
        effects = {var[b]: 0 for b in bits(action.add & mentioned)}
        for b in bits(action.delete & ~action.add & mentioned):
            effects[var[b]] = 1
        for need, forbid in action.precondition:
            required = {var[b]: 0 for b in bits(need & mentioned)} | {var[b]: 1 for b in bits(forbid & mentioned)}
            changed = {v: value for v, value in effects.items() if required.get(v) != value}
            if not changed:
                continue  # changes nothing here: never part of a shortest plan
            prevail = sorted((v, value) for v, value in required.items() if v not in changed)
            operators += ["begin_operator", name, str(len(prevail)), *(f"{v} {value}" for v, value in prevail)]
            operators.append(str(len(changed)))
            operators += [f"0 {v} {required.get(v, -1)} {value}" for v, value in sorted(changed.items())]
            operators += ["1", "end_operator"]
            count += 1
    lines += [str(count), *operators, "0"]
    return "\n".join(lines) + "\n"


def _fact(atom: str) -> str:
    """An atom as the translator names facts: ``on(a, b)``."""
    head, args = split_canonical(atom)
    return f"{head}({', '.join(args)})"
