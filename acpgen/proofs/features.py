"""What makes a question hard, measured on its state: the features that records of a difficulty level
carry (`acpgen.generation.levels`) and `make bench-levels` reports."""

from __future__ import annotations

from typing import Any

from acpgen.pddl.explore import StateSpace, explore
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


def state_features(
    task: GroundTask, state: dict[str, Any] | None = None, max_states: int = MAX_STATES, space: StateSpace | None = None
) -> dict:
    """Features of the state that is ``task``'s initial state: the problem's objects, the task's
    propositions (ground fluent atoms), the atoms true in the state, its applicable actions, the size of
    the state space reachable from it and the optimal plan length from it (both None when more than
    ``max_states`` states are reachable), and from the state's line of ``states.jsonl`` (where given)
    the remaining length of the stored plan through it (None for a rollout state). ``space``: the
    exploration from the state with that bound, when the caller has made it already."""
    if space is None:
        space = explore(task, task.init, max_states)
    return {
        "objects": len(task.lifted.objects),
        "propositions": len(task.fluent_atoms()),
        "state_atoms": len(task.state_atoms(task.init & ~task.static_mask)),
        "applicable": len(task.applicable(task.init)),
        "reachable_states": len(space.states) if space.complete else None,
        "optimal_plan_length": space.optimal_cost() if space.complete else None,
        "plan_length": (state or {}).get("plan_cost_to_go"),
    }
