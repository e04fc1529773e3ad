"""rac_comp: reasoning about actions, one category of questions (see :mod:`acpgen.tasks.rac`)."""

from acpgen.tasks.rac import SequenceTask

TASK = SequenceTask(
    "composite",
    "rac_comp",
    "composite_rac",
    "chained questions (facts or executable actions before the first inexecutable action)",
    "Give only the list of facts or the number.",
)
