"""rac_num: reasoning about actions, one category of questions (see :mod:`acpgen.tasks.sequences`)."""

from acpgen.tasks.sequences import SequenceTask

TASK = SequenceTask(
    "numerical",
    "rac_num",
    "numerical_rac",
    "counts of actions or facts after an action sequence",
    "Give only the number.",
)
