"""rac_exec: reasoning about actions, one category of questions (see :mod:`acpgen.tasks.rac`)."""

from acpgen.tasks.rac import SequenceTask

TASK = SequenceTask(
    "executability",
    "rac_exec",
    "action_executability",
    "the first inexecutable action of a sequence, or the actions executable after it",
    "Give only the action or the list of actions.",
)
