"""rac_comp: reasoning about actions, one category of questions (see :mod:`acpgen.tasks.sequences`)."""

from acpgen.tasks.sequences import SequenceTask

TASK = SequenceTask(
    "composite",
    "rac_comp",
    "composite_rac",
    "chained questions (facts or executable actions before the first inexecutable action)",
    "Give only the list of facts or the number.",
)
