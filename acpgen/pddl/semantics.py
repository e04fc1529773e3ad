"""Pure operations on ground tasks: progression, plan execution, delete-relaxed reachability."""

from __future__ import annotations

from dataclasses import dataclass

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import GroundAction


@dataclass(frozen=True)
class Execution:
    """Result of executing an action sequence from a state."""

    state: int  # state after the last applied action
    failed_at: int | None  # 0-based index of the first inapplicable step, None if all applied
    unknown_at: int | None = None  # index of the first name that is no ground action of the task
    states: tuple[int, ...] = ()  # with ``trace``: the states passed through, the start first

    @property
    def applicable(self) -> bool:
        return self.failed_at is None and self.unknown_at is None


def execute(task: GroundTask, state: int, names: list[str], trace: bool = False) -> Execution:
    """Execute named actions from ``state``; stop at the first unknown or inapplicable one (``trace``:
    keep the states passed through)."""
    states = [state] if trace else None
    for i, name in enumerate(names):
        action = task.action(name)
        if action is None:
            return Execution(state, i, unknown_at=i, states=tuple(states or ()))
        if not action.applicable(state):
            return Execution(state, i, states=tuple(states or ()))
        state = action.apply(state)
        if states is not None:
            states.append(state)
    return Execution(state, None, states=tuple(states or ()))


def is_plan(task: GroundTask, state: int, names: list[str]) -> bool:
    """Whether the sequence is applicable from ``state`` and ends in a goal state."""
    run = execute(task, state, names)
    return run.applicable and task.is_goal(run.state)


def relaxed_reachable(
    task: GroundTask, state: int, actions: list[GroundAction] | None = None, underivable: int = 0
) -> tuple[int, list[GroundAction]]:
    """Atoms and actions reachable from ``state`` when delete effects are ignored.

    Negative preconditions are treated as satisfiable (an over-approximation), so anything
    outside the returned sets is provably unreachable. ``actions`` restricts the actions used.
    Derived atoms are reached by the task's rules with their negative literals ignored likewise;
    the rules for the atoms of ``underivable`` are left out.
    """
    reached = state
    pending = [a for a in (task.actions if actions is None else actions) if a.precondition]
    fired: list[GroundAction] = []
    rules = [] if task.axioms is None else [r for r in task.axioms.rules if not r[0] & underivable]
    progress_made = True
    while progress_made:
        progress_made = False
        if rules:
            rest_rules = []
            for head, pos, neg in rules:
                if reached & pos == pos:
                    if head & ~reached:
                        reached |= head
                        progress_made = True
                else:
                    rest_rules.append((head, pos, neg))
            rules = rest_rules
        rest = []
        for action in pending:
            if any(reached & pos == pos for pos, _ in action.precondition):
                fired.append(action)
                if action.add & ~reached:
                    reached |= action.add
                    progress_made = True
            else:
                rest.append(action)
        pending = rest
    return reached, fired


def relaxed_goal_reachable(task: GroundTask, state: int) -> bool:
    """Whether the goal's positive atoms are reachable in the delete relaxation."""
    reached, _ = relaxed_reachable(task, state)
    return task.goal_satisfiable and reached & task.goal_pos == task.goal_pos
