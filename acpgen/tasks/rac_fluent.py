"""rac_fluent: reasoning about actions, one category of questions (see :mod:`acpgen.tasks.sequences`)."""

from acpgen.tasks.sequences import SequenceTask

TASK = SequenceTask(
    "fluent",
    "rac_fluent",
    "fluent_tracking",
    "the properties of one object after an action sequence",
    "Give only the list of facts.",
)
