"""rac_effects: reasoning about actions, one category of questions (see :mod:`acpgen.tasks.rac`)."""

from acpgen.tasks.rac import SequenceTask

TASK = SequenceTask(
    "effects",
    "rac_effects",
    "effects_of_actions",
    "what one further action makes true or false after an action sequence",
    "Give only the list of facts.",
)
