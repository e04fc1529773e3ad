"""rac_effects: reasoning about actions, one category of questions (see :mod:`acpgen.tasks.sequences`)."""

from acpgen.tasks.sequences import SequenceTask

TASK = SequenceTask(
    "effects",
    "rac_effects",
    "effects_of_actions",
    "what one further action makes true or false after an action sequence",
    "Give only the list of facts.",
)
