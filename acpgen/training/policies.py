"""Scripted policies: the turns a model would write, for tests and benchmarks of the episode adapters.

:func:`optimal_turns` follows an optimal plan one action per turn (it reaches the goal at the optimal
cost: reward 1.0). :func:`mistaken_turns` first makes three known mistakes, each an invalid step with
a known failure message, then follows the plan (reward ``1 - 3 * invalid_penalty``):

1. an action of the task that cannot be applied in the first state (the first by name): "step 1
   (name ...): precondition ... is false";
2. an action name the domain does not have: "step 2 (teleport ...): there is no action named teleport";
3. a sentence instead of an action (read as a step whose first word is its name): "step 3 (i am not
   sure what to do next): there is no action named i".
"""

from __future__ import annotations

from acpgen.errors import DataError
from acpgen.training.episode import Episode

UNKNOWN_ACTION = "teleport"
NO_ACTION = "I am not sure what to do next."


def plan_of(episode: Episode) -> list[str]:
    """An optimal plan from the episode's first state (DataError when none is known)."""
    plan = episode.optimal_plan()
    if plan is None:
        raise DataError(f"record {episode.record.get('id')}: no optimal plan is known from its state")
    return plan


def optimal_turns(episode: Episode) -> list[str]:
    """One turn per action of an optimal plan."""
    return plan_of(episode)


def inapplicable_action(episode: Episode) -> str:
    """The first ground action by name of the task's grounding (the actions its exploration can reach;
    never every type-correct combination, which in a large problem is millions) that cannot be applied
    in the episode's first state."""
    task = episode.task
    for action in sorted(task.actions, key=lambda a: a.name):
        if not action.applicable(task.init):
            return action.name
    raise DataError(f"record {episode.record.get('id')}: every action of the grounding applies in its state")


def mistaken_turns(episode: Episode) -> list[str]:
    """Three known mistakes (see the module docstring), then an optimal plan one action per turn."""
    objects = sorted(episode.task.lifted.objects)[:2]
    return [inapplicable_action(episode), f"({UNKNOWN_ACTION} {' '.join(objects)})", NO_ACTION] + plan_of(episode)
