"""rac_state: reasoning about actions, one category of questions (see :mod:`acpgen.tasks.sequences`)."""

from acpgen.tasks.sequences import SequenceTask

TASK = SequenceTask(
    "state",
    "rac_state",
    "state_tracking",
    "the facts of the state after an action sequence",
    "Give only the list of facts.",
)
