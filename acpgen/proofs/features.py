"""What makes a question hard, measured on its state: the features that records of a difficulty level
carry (`acpgen.generation.levels`) and `make bench-levels` reports."""

from __future__ import annotations

from typing import Any

from acpgen.pddl.explore import StateSpace, explore, greedy_search
from acpgen.pddl.grounding import GroundTask

#: exhaustive exploration bound for the state-space size and the optimal plan length (as qa.max_states)
MAX_STATES = 20000

#: the features, in the order records carry them
NAMES = (
    "objects",
    "propositions",
    "state_atoms",
    "applicable",
    "reachable_states",
    "optimal_plan_length",
    "plan_length",
)


def size_and_cost(space: StateSpace) -> tuple[int | None, int | None]:
    """The size of the space explored from a state and the optimal plan length from it; both None when the
    exploration stopped at its bound."""
    return (len(space.states), space.optimal_cost()) if space.complete else (None, None)


def state_features(
    task: GroundTask,
    state: dict[str, Any] | None = None,
    max_states: int = MAX_STATES,
    known: tuple[int | None, int | None] | None = None,
) -> dict:
    """Features of the state that is ``task``'s initial state: the problem's objects, the task's
    propositions (ground fluent atoms), the atoms true in the state, its applicable actions, the size of
    the state space reachable from it and the optimal plan length from it (both None when more than
    ``max_states`` states are reachable), and from the state's line of ``states.jsonl`` (where given)
    the remaining length of the stored plan through it (None for a rollout state). ``known``: the size and
    the optimal plan length (:func:`size_and_cost`), when the caller has them already."""
    if known is None:
        known = size_and_cost(explore(task, task.init, max_states))
    return {
        "objects": len(task.lifted.objects),
        "propositions": len(task.fluent_atoms()),
        "state_atoms": len(task.state_atoms(task.init & ~task.static_mask)),
        "applicable": len(task.applicable(task.init)),
        "reachable_states": known[0],
        "optimal_plan_length": known[1],
        "plan_length": (state or {}).get("plan_cost_to_go"),
    }


class ProblemSpace:
    """One exploration of a problem from one of its states, its *origin* (``task``'s initial state: the
    problem's own, or a state asked about in a domain of its own such as a ramification variant), bounded as
    the features' is, that settles the size and the optimal plan length of the states asked about in the
    problem without exploring each:

    * when it is complete, a state in it reaches only states in it: its size is counted on the explored
      graph and its optimal plan length is its goal distance there;
    * when it is not (more than the bound from the origin), a state from which acp's greedy search reaches
      the origin again reaches all those states too: more than the bound, so neither is given.

    Anything else (a state outside the graph, a search that does not return) is left to an exploration."""

    def __init__(self, task: GroundTask, max_states: int = MAX_STATES, search_states: int = 2000):
        self.task, self.search_states = task, search_states
        self.space = explore(task, task.init, max_states)
        self.origin = frozenset(task.atoms.atoms(task.init & ~task.static_mask))

    def settle(self, state_task: GroundTask) -> tuple[int | None, int | None] | None:
        """(size, optimal plan length) of the state that is ``state_task``'s initial state, or None when this
        problem's exploration does not settle them. ``state_task`` must have the origin's domain, objects,
        static facts and goal (a question's state rendered as a problem of its own)."""
        if not self._same_problem(state_task):
            return None
        if self.space.complete:
            state = self.task.atoms.known_mask(state_task.atoms.atoms(state_task.init))
            at = None if state is None else self.space.index.get(state)
            if at is None:
                return None
            distance = self.space.goal_distances()[at]
            return self.space.reachable_count(at), (None if distance < 0 else distance)
        target = state_task.atoms.known_mask(self.origin)
        if target is None:  # an atom of the initial state no action of the state's grounding adds
            return None
        others = ~target & ~state_task.static_mask & ((1 << len(state_task.atoms.names)) - 1)
        found = greedy_search(state_task, target, others, self.search_states).path
        return (None, None) if found is not None else None

    def _same_problem(self, state_task: GroundTask) -> bool:
        """Whether the state's task is the problem from another initial state: same domain, objects, static
        facts and goal."""
        mine, theirs = self.task, state_task
        return (
            mine.lifted.domain_text == theirs.lifted.domain_text
            and mine.lifted.objects == theirs.lifted.objects
            and mine.goal_satisfiable == theirs.goal_satisfiable
            and set(mine.atoms.atoms(mine.goal_pos)) == set(theirs.atoms.atoms(theirs.goal_pos))
            and set(mine.atoms.atoms(mine.goal_neg)) == set(theirs.atoms.atoms(theirs.goal_neg))
            and set(mine.atoms.atoms(mine.init & mine.static_mask))
            == set(theirs.atoms.atoms(theirs.init & theirs.static_mask))
        )
