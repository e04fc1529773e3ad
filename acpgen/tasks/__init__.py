"""The task registry: one module per task, each owning question generation and scoring."""

from __future__ import annotations

from acpgen.errors import DataError
from acpgen.tasks import (
    action_reachability,
    applicability,
    justification,
    landmarks,
    next_action,
    progression,
    reachability,
    validation,
)
from acpgen.tasks.base import PARSE_ERROR, SCORED, UNDECIDED, RecordContext, ScoreOptions, Task, Verdict

_MODULES = (applicability, progression, reachability, action_reachability, validation, justification,
            landmarks, next_action)
TASKS: dict[str, Task] = {m.TASK.name: m.TASK for m in _MODULES}
BY_GROUP: dict[str, Task] = {t.gen_group: t for t in TASKS.values()}


def get_task(name: str) -> Task:
    """The task with this short name (app, prog, ...), or a DataError listing the valid ones."""
    try:
        return TASKS[name]
    except KeyError:
        raise DataError(f"unknown task {name!r}; valid tasks: {', '.join(TASKS)}") from None


def task_of_group(group: str) -> Task:
    """The task of a reference ``group`` value such as ``applicable_actions_gen``."""
    try:
        return BY_GROUP[group]
    except KeyError:
        raise DataError(f"unknown record group {group!r}; known gen groups: {', '.join(BY_GROUP)}") from None


__all__ = ["TASKS", "BY_GROUP", "get_task", "task_of_group", "Task", "Verdict", "RecordContext", "ScoreOptions",
           "SCORED", "PARSE_ERROR", "UNDECIDED"]
