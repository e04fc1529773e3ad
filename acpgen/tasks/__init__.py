"""The task registry: one module per task, each exporting ``TASK``, an instance of its
:class:`~acpgen.tasks.base.Task` subclass. Everything else reaches tasks through this registry."""

from __future__ import annotations

from collections.abc import Iterable
from importlib.metadata import entry_points

from acpgen.config import FORMATS
from acpgen.errors import DataError
from acpgen.nl.template import TaskTexts
from acpgen.tasks import (
    action_reachability,
    applicability,
    justification,
    landmarks,
    next_action,
    optimal_plan,
    plan,
    plan_verification,
    progression,
    rac_comp,
    rac_effects,
    rac_exec,
    rac_fluent,
    rac_num,
    rac_state,
    reachability,
    text_to_pddl,
    validation,
)
from acpgen.tasks.base import (
    PARSE_ERROR,
    SCORED,
    UNDECIDED,
    Check,
    Outcome,
    RecordContext,
    ScoreOptions,
    ScoreStatus,
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
    rac_fluent,
    rac_state,
    rac_exec,
    rac_effects,
    rac_num,
    rac_comp,
    text_to_pddl,
    plan,
    optimal_plan,
    plan_verification,
)
TASKS: dict[str, Task] = {}
BY_GROUP: dict[str, Task] = {}
# bool/mcq group -> (task, format); a record "kind" is the task name for gen records and
# "<task>.<format>" for the boolean and multiple-choice formats.
CHOICE_GROUPS: dict[str, tuple[str, str]] = {}
KINDS: list[str] = []
ENTRY_POINT_GROUP = "acpgen.tasks"


def register(task: Task) -> None:
    """Add a task to the registry (the built-in ones, and tasks of other packages that declare an
    ``acpgen.tasks`` entry point naming their ``TASK``). A task name or group may be used once."""
    if not isinstance(task, Task):
        raise DataError(f"{task!r} is not an acpgen.tasks.base.Task")
    groups = [task.gen_group] + ([task.choice.bool_group, task.choice.mcq_group] if task.choice else [])
    taken = [g for g in groups if g in BY_GROUP or g in CHOICE_GROUPS]
    if task.name in TASKS or taken:
        raise DataError(f"task {task.name!r} (groups {', '.join(groups)}) clashes with a registered task")
    TASKS[task.name] = task
    BY_GROUP[task.gen_group] = task
    for name, fmt in task_formats(names=[task.name]):
        KINDS.append(kind_of(name, fmt))
        if fmt != "gen":
            CHOICE_GROUPS[task.group(fmt)] = (name, fmt)


def unregister(name: str) -> None:
    """Remove a task from the registry (for tests and plugins that replace a task)."""
    task = TASKS.pop(name)
    BY_GROUP.pop(task.gen_group, None)
    for group in [g for g, (t, _) in CHOICE_GROUPS.items() if t == name]:
        del CHOICE_GROUPS[group]
    KINDS[:] = [k for k in KINDS if split_kind(k)[0] != name]


def task_formats(formats: Iterable[str] = FORMATS, names: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """(task, format) of every registered task (or of ``names``) in ``formats``: gen for every task,
    bool and mcq for the tasks that have them; in registry order, formats in ``FORMATS`` order."""
    chosen = list(TASKS) if names is None else [get_task(n).name for n in names]
    wanted = set(formats)
    return [(n, f) for n in chosen for f in FORMATS if f in wanted and (f == "gen" or TASKS[n].choice is not None)]


def task_texts() -> TaskTexts:
    """The question texts the registered tasks use, and those they bring themselves (for loading a
    template: :class:`acpgen.nl.template.TaskTexts`)."""
    required = tuple(key for task in TASKS.values() for key in task.question_keys())
    defaults = tuple((key, text) for task in TASKS.values() for key, text in task.questions.items())
    return TaskTexts(required, defaults)


def kind_of(name: str, fmt: str) -> str:
    """The record kind of a task in a format: 'app' for gen, 'app.bool' otherwise (see `split_kind`)."""
    return name if fmt == "gen" else f"{name}.{fmt}"


def split_kind(kind: str) -> tuple[str, str]:
    """'app' -> ('app', 'gen'); 'app.bool' -> ('app', 'bool')."""
    task, _, fmt = kind.partition(".")
    return task, fmt or "gen"


def missing_fields(kind: str, record: dict[str, object]) -> list[str]:
    """The fields a record of ``kind`` (``app``, ``app.bool``) lacks for scoring and validation: an
    open-ended record's are declared by its task (:meth:`Task.required_fields`); a boolean or
    multiple-choice record needs its answer."""
    name, fmt = split_kind(kind)
    needed = TASKS[name].required_fields(record) if fmt == "gen" else ("answer",)
    return [field for field in needed if field not in record]


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


# The built-in tasks, then the tasks other packages declare (entry point group ``acpgen.tasks``).
for _module in _MODULES:
    register(_module.TASK)
for _entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
    register(_entry.load())


__all__ = [
    "BY_GROUP",
    "CHOICE_GROUPS",
    "KINDS",
    "PARSE_ERROR",
    "SCORED",
    "TASKS",
    "UNDECIDED",
    "Check",
    "Outcome",
    "RecordContext",
    "ScoreOptions",
    "ScoreStatus",
    "Task",
    "Verdict",
    "get_task",
    "kind_of",
    "missing_fields",
    "register",
    "split_kind",
    "task_formats",
    "task_of_group",
    "task_texts",
    "unregister",
]
