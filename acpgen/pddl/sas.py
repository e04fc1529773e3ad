"""A planner query written from acp's own ground task, in Fast Downward's SAS format.

Fast Downward translates PDDL before it searches, grounding the task all over again; for a large
task that costs far more than the search of a short optimal plan (an alfworld query: 0.5-0.9 s of
translation, milliseconds of A*). :class:`SasTask` writes the question "reach ``pos``/not ``neg``
from ``state``" directly from the ground actions acp already has, with one binary variable per
fluent atom that an action or the goal mentions (value 0: the atom holds, 1: it does not):

* an action with several precondition disjuncts becomes one operator per disjunct (same name);
* add effects win over delete effects, as in acp's semantics (``s' = (s & ~delete) | add``);
* static literals were evaluated during grounding, so they never appear.

This is exact when the task's ground actions include every action applicable in a state reachable
from ``state``. They are the actions reachable from the task's initial state in the delete
relaxation, so :meth:`SasTask.text` asks for ``covered``, the atoms of that relaxation, and returns
None for a state with an atom outside it (and for tasks with derived predicates, which stay with
the translator); callers then ask the translator's PDDL query instead.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import bits, split_canonical


class _Body:
    """What a query's text owes to the task's actions and the atoms it mentions (``mentioned``), not to its goal: the
    variables and the operators. Written once per task and set of mentioned atoms (:func:`_body`)."""

    def __init__(self, task: GroundTask, mentioned: int):
        self.atoms = list(bits(mentioned))
        self.var = var = {bit: i for i, bit in enumerate(self.atoms)}
        head = ["begin_version", "3", "end_version", "begin_metric", "0", "end_metric", str(len(self.atoms))]
        for i, bit in enumerate(self.atoms):
            fact = _fact(task.atoms.names[bit])
            head += ["begin_variable", f"var{i}", "-1", "2", f"Atom {fact}", f"NegatedAtom {fact}", "end_variable"]
        head.append("0")
        self.head = "\n".join(head)
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
        self.operators = "\n".join([str(count), *operators, "0"])


#: per task, the atoms its actions mention and the bodies written for it (by mentioned atoms); weak: a task's
#: entry goes with it
_BODIES: WeakKeyDictionary[GroundTask, tuple[int, dict[int, _Body]]] = WeakKeyDictionary()


def _body(task: GroundTask, goal: int) -> _Body:
    """The body of a query with the goal atoms ``goal`` (an oracle asks for many goals over the same actions)."""
    known = _BODIES.get(task)
    if known is None:
        by_actions = 0
        for action in task.actions:
            by_actions |= action.add | action.delete
            for need, forbid in action.precondition:
                by_actions |= need | forbid
        known = _BODIES[task] = (by_actions, {})
    by_actions, bodies = known
    mentioned = (by_actions | goal) & ~task.static_mask
    body = bodies.get(mentioned)
    if body is None:
        body = bodies[mentioned] = _Body(task, mentioned)
    return body


class SasTask:
    """A task and goal in SAS form. What does not depend on the initial state -- variables, goal and
    operators -- is written once; :meth:`text` adds a state (an oracle asks from many states)."""

    def __init__(self, task: GroundTask, pos: int, neg: int):
        self.task = task
        self.supported = task.axioms is None
        if not self.supported:
            return
        body = _body(task, pos | neg)
        self.atoms, var = body.atoms, body.var
        goal = sorted(
            [(var[b], 0) for b in bits(pos & ~task.static_mask)] + [(var[b], 1) for b in bits(neg & ~task.static_mask)]
        )
        tail = ["begin_goal", str(len(goal)), *(f"{v} {value}" for v, value in goal), "end_goal", body.operators]
        self._head, self._tail = body.head, "\n".join(tail)

    def text(self, state: int, covered: int) -> str | None:
        """The SAS text from ``state`` (unit costs), or None when the task's own grounding cannot answer
        it exactly (see the module docstring)."""
        if not self.supported or state & ~covered & ~self.task.static_mask:
            return None
        values = "\n".join("0" if state >> bit & 1 else "1" for bit in self.atoms)
        return f"{self._head}\nbegin_state\n{values}\nend_state\n{self._tail}\n"


def sas_query(task: GroundTask, state: int, pos: int, neg: int, covered: int) -> str | None:
    """The SAS text of reaching ``pos`` and avoiding ``neg`` from ``state`` (unit costs), or None when
    the task's own grounding cannot answer it exactly (one query; an oracle keeps its :class:`SasTask`)."""
    return SasTask(task, pos, neg).text(state, covered)


def _fact(atom: str) -> str:
    """An atom as the translator names facts: ``on(a, b)``."""
    head, args = split_canonical(atom)
    return f"{head}({', '.join(args)})"
