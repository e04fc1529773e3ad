"""Words for a domain without a template: every atom and action written in PDDL syntax.

The PDDL representation needs no natural language in its context, but the boolean and
multiple-choice questions still name an action or a fact ("Is the following action applicable
...? (move d1 a b)"). `pddl_template` gives a `DomainTemplate` whose predicate and action texts
are their PDDL forms, with the shared questions of `acpgen/data/templates/questions.yaml`, so the ordinary
`Describer` words such questions; it has no description, size or wrong actions, and the export
stage refuses the nl representation for such a domain. `described_template` adds the description a
domain whose names mean nothing needs (an obfuscated domain): every action's precondition and effects
in words.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from acpgen.nl.template import (
    NO_TASK_TEXTS,
    DomainTemplate,
    PredicateText,
    TaskTexts,
    WrongAction,
    join_names,
    load_questions,
)
from acpgen.pddl.model import EQUALITY, LiftedTask, Literal


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


def _literal(literal: Literal) -> str:
    if literal.predicate == EQUALITY:
        return f"{literal.args[0]} {'is' if literal.positive else 'is not'} {literal.args[1]}"
    atom = "(" + " ".join([literal.predicate, *literal.args]) + ")"
    return atom if literal.positive else f"not {atom}"


def _condition(disjuncts: tuple[tuple[Literal, ...], ...]) -> str:
    conjunctions = [join_names([_literal(lit) for lit in conj]) or "nothing" for conj in disjuncts]
    return conjunctions[0] if len(conjunctions) == 1 else "either " + " or ".join(conjunctions)


def _rules(lifted: LiftedTask) -> list[str]:
    """One sentence per action (what it needs, what it makes true and false) and per derived rule."""
    sentences = []
    for name, schema in sorted(lifted.schemas.items()):
        signature = "(" + " ".join([name, *(f"{v} - {t}" for v, t in schema.params)]) + ")"
        parts = [f"needs {_condition(schema.precondition)}" if schema.precondition else "can never be applied"]
        if schema.add:
            parts.append(f"makes {join_names([_literal(lit) for lit in schema.add])} true")
        if schema.delete:
            parts.append(f"makes {join_names([_literal(lit) for lit in schema.delete])} false")
        sentences.append(f"Action {signature} " + "; it ".join(parts) + ".")
    for axiom in lifted.axioms:
        head = "(" + " ".join([axiom.predicate, *axiom.head]) + ")"
        sentences.append(f"The fact {head} holds exactly when {_condition(axiom.body)}.")
    return sentences


def leaf_types(lifted: LiftedTask) -> list[str]:
    """Types that no other type extends (the kinds of objects a size sentence counts)."""
    parents = {a for chain in lifted.supertypes.values() for a in chain[1:]}
    return sorted(t for t in lifted.supertypes if t not in parents and t != "object") or ["object"]


def described_template(lifted: LiftedTask, tasks: TaskTexts = NO_TASK_TEXTS) -> DomainTemplate:
    """The words of a domain whose names mean nothing (an obfuscated domain, :mod:`acpgen.pddl.obfuscate`):
    :func:`pddl_template`'s PDDL forms, plus a description that spells out every action's precondition
    and effects and every derived rule in words, and a size sentence counting the objects of each type,
    so that the natural-language representation says all the PDDL says."""
    base = pddl_template(lifted, tasks)
    types = leaf_types(lifted)
    description = (
        "The names of this domain's types, facts, actions and objects carry no meaning; what the actions do "
        f"is stated here. Objects are of the type{'s' if len(types) > 1 else ''} {join_names(types)}. "
        + " ".join(_rules(lifted))
    )
    size = "This problem has " + join_names([f"{{n:{t}|{t} object|{t} objects}}" for t in types]) + "."
    return replace(base, description=description, size=size, wrong_actions=_wrong_actions(lifted))


def _wrong_actions(lifted: LiftedTask) -> tuple[WrongAction, ...]:
    """Actions the domain does not have (the distractors of areach and val): each action's name joined
    to the next one's, over the first action's arguments (``(accordion-poncho x1 x2)``)."""
    names = sorted(lifted.schemas)
    wrong = []
    for position, name in enumerate(names):
        other = names[(position + 1) % len(names)] if len(names) > 1 else "again"
        variables = [(v.lstrip("?"), t) for v, t in lifted.schemas[name].params]
        made_up = f"{name}-{other}"
        if made_up in lifted.schemas:
            continue
        wrong.append(WrongAction(_pddl(made_up, [v for v, _ in variables]), dict(variables)))
    return tuple(wrong)
