"""The template of a domain's ramification variant: the rules' English beside the description, and texts
for the new derived predicates.

A ramification variant (:mod:`acpgen.pddl.ramifications`) restates fluents as rules and adds new derived
predicates. Its contexts describe the domain as the base template does, followed by one sentence per rule
(the rule's ``text``); the atoms of a new derived predicate read ``b1 is alone`` (one argument), ``spread
holds`` (none) or ``near holds for a and b`` (several), from the predicate's name.
"""

from __future__ import annotations

import dataclasses

from acpgen.nl.template import DomainTemplate, PredicateText
from acpgen.pddl.model import LiftedTask
from acpgen.pddl.ramifications import Rule, parse_rules

INTRO = "Some properties are not changed by the actions directly but follow from others:"


def rules_of(template: DomainTemplate) -> list[Rule]:
    return parse_rules(template.ramifications, template.path) if template.ramifications else []


def is_variant(template: DomainTemplate, lifted: LiftedTask) -> bool:
    """Whether ``lifted`` is the template's ramification variant: the rules' predicates are derived there."""
    rules = rules_of(template)
    return bool(rules) and all(r.predicate in lifted.derived_predicates for r in rules)


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _atom_text(predicate: str, variables: tuple[str, ...]) -> str:
    words = predicate.replace("-", " ").replace("_", " ")
    if not variables:
        return f"{words} holds"
    if len(variables) == 1:
        return f"{{{variables[0]}}} is {words}"
    return f"{words} holds for " + ", ".join(f"{{{v}}}" for v in variables[:-1]) + f" and {{{variables[-1]}}}"


def variant_template(template: DomainTemplate) -> DomainTemplate:
    """The template for contexts, questions and answers of the variant (the base template without rules)."""
    rules = rules_of(template)
    if not rules:
        return template
    predicates = dict(template.predicates)
    for rule in rules:
        if rule.predicate not in predicates:
            variables = tuple(v.lstrip("?") for v, _ in rule.params)
            predicates[rule.predicate] = PredicateText(rule.predicate, variables, _atom_text(rule.predicate, variables))
    rules_text = " ".join(_sentence(r.text) for r in rules)
    description = f"{template.description} {INTRO} {rules_text}"
    return dataclasses.replace(template, description=description, predicates=predicates)


def template_for(template: DomainTemplate, lifted: LiftedTask) -> DomainTemplate:
    """The template that describes ``lifted``: the variant's when ``lifted`` is the ramification variant."""
    return variant_template(template) if is_variant(template, lifted) else template
