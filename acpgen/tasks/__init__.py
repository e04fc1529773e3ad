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
from acpgen.tasks.base import (
    PARSE_ERROR,
    SCORED,
    UNDECIDED,
    RecordContext,
    ScoreOptions,
    Task,
    Verdict,
)

_MODULES = (
    applicability,
    progression,
    reachability,
    action_reachability,
    validation,
    justification,
    landmarks,
    next_action,
)
TASKS: dict[str, Task] = {m.TASK.name: m.TASK for m in _MODULES}
BY_GROUP: dict[str, Task] = {t.gen_group: t for t in TASKS.values()}
# bool/mcq group -> (task, format); a record "kind" is the task name for gen records and
# "<task>.<format>" for the boolean and multiple-choice formats.
CHOICE_GROUPS: dict[str, tuple[str, str]] = {
    group: (t.name, fmt)
    for t in TASKS.values()
    if t.choice
    for fmt, group in (("bool", t.choice.bool_group), ("mcq", t.choice.mcq_group))
}
KINDS: tuple[str, ...] = tuple(
    k for t in TASKS.values() for k in (t.name, f"{t.name}.bool", f"{t.name}.mcq") if "." not in k or t.choice
)


def split_kind(kind: str) -> tuple[str, str]:
    """'app' -> ('app', 'gen'); 'app.bool' -> ('app', 'bool')."""
    task, _, fmt = kind.partition(".")
    return task, fmt or "gen"


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


__all__ = [
    "BY_GROUP",
    "CHOICE_GROUPS",
    "KINDS",
    "PARSE_ERROR",
    "SCORED",
    "TASKS",
    "UNDECIDED",
    "RecordContext",
    "ScoreOptions",
    "Task",
    "Verdict",
    "get_task",
    "split_kind",
    "task_of_group",
]
