"""Words for a domain without a template: every atom and action written in PDDL syntax.

The PDDL representation needs no natural language in its context, but the boolean and
multiple-choice questions still name an action or a fact ("Is the following action applicable
...? (move d1 a b)"). `pddl_template` gives a `DomainTemplate` whose predicate and action texts
are their PDDL forms, with the shared questions of `acpgen/data/templates/questions.yaml`, so the ordinary
`Describer` words such questions; it has no description, size or wrong actions, and the export
stage refuses the nl representation for such a domain.
"""

from __future__ import annotations

from pathlib import Path

from acpgen.nl.template import NO_TASK_TEXTS, DomainTemplate, PredicateText, TaskTexts, load_questions
from acpgen.pddl.model import LiftedTask


def _pddl(name: str, variables: list[str]) -> str:
    return "(" + " ".join([name, *(f"{{{v}}}" for v in variables)]) + ")"


def pddl_template(lifted: LiftedTask, tasks: TaskTexts = NO_TASK_TEXTS) -> DomainTemplate:
    """A template of ``lifted``'s domain that writes ``(at c1 l0)`` for an atom and ``(sail l0 l1)`` for an
    action; ``tasks``: the question texts the tasks need."""
    predicates = {}
    for name, types in lifted.predicates.items():
        if name == "=":
            continue
        variables = [f"x{i}" for i in range(len(types))]
        predicates[name] = PredicateText(name, tuple(variables), _pddl(name, variables))
    actions = {
        name.lower(): _pddl(name.lower(), [v.lstrip("?") for v, _ in schema.params])
        for name, schema in lifted.schemas.items()
    }
    return DomainTemplate(
        domain=lifted.domain_name,
        path=Path(f"(no template for domain {lifted.domain_name}: PDDL words)"),
        description="",
        size="",
        predicates=predicates,
        actions=actions,
        questions=load_questions(tasks=tasks),
    )
