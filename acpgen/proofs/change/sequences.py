"""Action sequences from a question's state: plan prefixes, seeded random walks, and sequences with
one inexecutable action inserted (for executability questions). Deterministic for a seed."""

from __future__ import annotations

import random

from acpgen.pddl.explore import random_walk
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.semantics import execute

#: sequence lengths of the questions (the training lengths of ActionReasoningBench; its test set uses 1, 10, 19)
LENGTHS = (1, 5, 10, 15, 19)


def walk(task: GroundTask, state: int, rng: random.Random, length: int) -> list[str] | None:
    """A random walk of exactly ``length`` actions from ``state``. A walk that reaches a dead end is
    walked again, this time choosing only among actions after which some action is applicable (an
    alfworld walk that validates its goal early ends in a state where nothing applies); None when that
    walk too gets stuck. Where the first walk succeeds, as in most domains, the second never runs."""
    return _walk(task, state, rng, length, look_ahead=False) or _walk(task, state, rng, length, look_ahead=True)


def _walk(task: GroundTask, state: int, rng: random.Random, length: int, look_ahead: bool) -> list[str] | None:
    walked = random_walk(task, state, rng, length, look_ahead)
    return [action.name for action, _ in walked] if len(walked) == length else None


def executable_sequence(task: GroundTask, plan: list[str] | None, rng: random.Random, length: int) -> list[str] | None:
    """``length`` actions executable from the task's initial state: half of the time (when there is a
    plan from the state) a prefix of the plan, continued by a random walk where the plan is shorter;
    otherwise a random walk. None when a walk reaches a dead end."""
    prefix: list[str] = []
    if plan and rng.random() < 0.5:
        prefix = list(plan[:length])
        run = execute(task, task.init, prefix)
        if not run.applicable:
            return None
        state = run.state
    else:
        state = task.init
    rest = walk(task, state, rng, length - len(prefix))
    return None if rest is None else prefix + rest


def with_inexecutable(task: GroundTask, sequence: list[str], rng: random.Random) -> tuple[list[str], int] | None:
    """The sequence with its action at a random position replaced by one that is not executable
    there (same length), and that position; None when every action is executable at that point."""
    index = rng.randrange(len(sequence))
    state = execute(task, task.init, sequence[:index]).state
    candidates = [a.name for a in task.actions if not a.applicable(state)]
    if not candidates:
        return None
    return [*sequence[:index], rng.choice(candidates), *sequence[index + 1 :]], index
