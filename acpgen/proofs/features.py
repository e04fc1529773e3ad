"""What makes a question hard, measured on its state: the features that records of a difficulty level
carry (`acpgen.generation.levels`) and `make bench-levels` reports."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from acpgen.pddl.explore import StateSpace, explore, greedy_search
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import Literal

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

    The states and their successors do not depend on the goal: a question with another goal over the problem's
    objects and static facts (text to PDDL's problems) is settled too, its optimal plan length the distance to
    its own goal in the same graph. Anything else (a state outside the graph, a search that does not return) is
    left to an exploration."""

    def __init__(self, task: GroundTask, max_states: int = MAX_STATES, search_states: int = 2000):
        self.task, self.search_states = task, search_states
        self.space = explore(task, task.init, max_states)
        self.origin = frozenset(task.atoms.atoms(task.init & ~task.static_mask))
        #: the complete space answering for the other goals asked about, most recent last
        self._goals: OrderedDict[tuple[Literal, ...], StateSpace] = OrderedDict()

    def settle(self, state_task: GroundTask) -> tuple[int | None, int | None] | None:
        """(size, optimal plan length) of the state that is ``state_task``'s initial state, or None when this
        problem's exploration does not settle them. ``state_task`` must have the origin's domain, objects,
        static facts and goal (a question's state rendered as a problem of its own)."""
        if not self._same_problem(state_task):
            return None
        if self.space.complete:
            state = self.task.atoms.known_mask(state_task.atoms.atoms(state_task.init))
            space = self._for_goal(state_task.lifted.goal)
            if state is None or not space.holds(state):
                return None
            return space.reachable_size(state), space.optimal_cost(state)
        target = state_task.atoms.known_mask(self.origin)
        if target is None:  # an atom of the initial state no action of the state's grounding adds
            return None
        others = ~target & ~state_task.static_mask & ((1 << len(state_task.atoms.names)) - 1)
        found = greedy_search(state_task, target, others, self.search_states).path
        return (None, None) if found is not None else None

    def _for_goal(self, goal: tuple[Literal, ...]) -> StateSpace:
        """The complete space answering for ``goal`` (the problem's, or another)."""
        if goal == self.task.lifted.goal:
            return self.space
        found = self._goals.get(goal)
        if found is None:
            found = self._goals[goal] = self.space.for_goal(self.task.with_goal(goal))
            if len(self._goals) > 32:
                self._goals.popitem(last=False)
        else:
            self._goals.move_to_end(goal)
        return found

    def _same_problem(self, state_task: GroundTask) -> bool:
        """Whether the state's task is the problem from another initial state, perhaps with another goal: same
        domain, objects and static facts."""
        mine, theirs = self.task, state_task
        return (
            mine.lifted.domain_text == theirs.lifted.domain_text
            and mine.lifted.objects == theirs.lifted.objects
            and set(mine.atoms.atoms(mine.init & mine.static_mask))
            == set(theirs.atoms.atoms(theirs.init & theirs.static_mask))
        )


# Explorations by problem (domain text, objects, static facts; not the goal), most recently used last: a problem's
# states are asked about by every task and format of a run (in this process), each a unit of the qa stage of its own.
_SPACES: OrderedDict[str, ProblemSpace] = OrderedDict()
_SPACES_LOCK = threading.Lock()
_MAX_SPACES = 16
_MAX_SPACE_STATES = 200_000  # states held by all the explorations together (in their lists, once made)


def problem_space(task: GroundTask) -> ProblemSpace:
    """The :class:`ProblemSpace` of the problem ``task`` is a state of (with the default bounds), explored from
    ``task``'s initial state the first time this process asks about the problem, and kept for the next (what
    it settles does not depend on the state it was explored from, nor on the goal; see
    :meth:`ProblemSpace.settle`)."""
    key = task.lifted.dynamics_key
    with _SPACES_LOCK:
        found = _SPACES.get(key)
        if found is not None:
            _SPACES.move_to_end(key)
            return found
    made = ProblemSpace(task)
    with _SPACES_LOCK:
        found = _SPACES.setdefault(key, made)
        _SPACES.move_to_end(key)
        while len(_SPACES) > 1 and (
            len(_SPACES) > _MAX_SPACES or sum(p.space.held for p in _SPACES.values()) > _MAX_SPACE_STATES
        ):
            _SPACES.popitem(last=False)
    return found
