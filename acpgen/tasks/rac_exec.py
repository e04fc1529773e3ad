"""rac_exec: reasoning about actions, one category of questions (see :mod:`acpgen.tasks.sequences`)."""

from acpgen.tasks.sequences import SequenceTask

TASK = SequenceTask(
    "executability",
    "rac_exec",
    "action_executability",
    "the first inexecutable action of a sequence, or the actions executable after it",
    "Give only the action or the list of actions.",
)
