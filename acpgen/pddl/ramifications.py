"""Ramification variants: a domain whose derived fluents are stated as rules instead of action effects.

A template's ``ramifications:`` list holds rules, each a mapping::

    - derived: (clear ?x)            # the head; a new predicate may type its variables: (stable ?x - block)
      body: (and (not (holding ?x)) (not (exists (?y) (on ?y ?x))))   # a PDDL goal description
      text: "a block is clear when no block is on it and the hand does not hold it"

A rule whose predicate the base domain declares *restates* it: the variant domain drops that predicate from
every action effect and defines it by the rule. Other rules declare new derived predicates, which may build
on earlier ones (up to four levels). :func:`variant_domain` writes the variant's PDDL; :func:`variant_problem`
removes the restated atoms from a problem's ``:init``. :func:`check_rules` refuses (naming the template and
the rule) a rule that never fires in a reachable state of the given problems, and a restating rule whose
value differs from the base domain's in some reachable state.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from acpgen.errors import PddlError
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import LiftedTask, split_canonical
from acpgen.pddl.render import problem_text, render_domain


@dataclass(frozen=True)
class Rule:
    """One ramification rule of a template."""

    predicate: str
    params: tuple[tuple[str, str | None], ...]  # (variable, declared type or None)
    body: str
    text: str
    index: int  # position in the template's list, for error messages

    @property
    def where(self) -> str:
        return f"ramifications[{self.index}] ({self.predicate})"


_HEAD = re.compile(r"^\(\s*([^\s()?]+)((?:\s+\?[^\s()]+(?:\s+-\s+[^\s()?]+)?)*)\s*\)$")


def parse_rules(entries: Sequence[dict[str, Any]], source: str | Path) -> list[Rule]:
    """The rules of a template's ``ramifications`` list (errors name ``source`` and the entry)."""
    rules = []
    for k, entry in enumerate(entries):
        missing = [key for key in ("derived", "body", "text") if not entry.get(key)]
        unknown = set(entry) - {"derived", "body", "text"}
        if missing or unknown:
            raise PddlError(
                f"{source}: ramifications[{k}] needs derived, body and text "
                f"(missing {missing}, unknown {sorted(unknown)})"
            )
        head = " ".join(str(entry["derived"]).split())
        match = _HEAD.match(head)
        if not match:
            raise PddlError(f"{source}: ramifications[{k}] head '{head}' is not '(predicate ?x ...)'")
        tokens = match.group(2).split()
        params: list[tuple[str, str | None]] = []
        i = 0
        while i < len(tokens):
            if i + 2 < len(tokens) and tokens[i + 1] == "-":
                params.append((tokens[i].lower(), tokens[i + 2].lower()))
                i += 3
            else:
                params.append((tokens[i].lower(), None))
                i += 1
        body = " ".join(str(entry["body"]).split())
        rules.append(Rule(match.group(1).lower(), tuple(params), body, " ".join(str(entry["text"]).split()), k))
    return rules


def restated(rules: Iterable[Rule], base: LiftedTask) -> frozenset[str]:
    """Predicates of the base domain that the rules define (dropped from the variant's effects)."""
    return frozenset(r.predicate for r in rules if r.predicate in base.predicates)


def variant_domain(base: LiftedTask, rules: Sequence[Rule], source: str | Path = "the template") -> str:
    """PDDL text of the ramification variant of ``base``'s domain."""
    drop = restated(rules, base)
    predicates = dict(base.predicates)
    texts = []
    for rule in rules:
        if rule.predicate in base.derived_predicates:
            raise PddlError(f"{source}: {rule.where} redefines a predicate the domain already derives")
        if rule.predicate in drop:
            types = base.predicates[rule.predicate]
            if len(types) != len(rule.params):
                raise PddlError(
                    f"{source}: {rule.where} has {len(rule.params)} parameter(s); the domain declares {len(types)}"
                )
        else:
            if rule.predicate in predicates:
                raise PddlError(f"{source}: {rule.where} defines its predicate twice")
            types = tuple(t or "object" for _, t in rule.params)
            predicates[rule.predicate] = types
        head = " ".join([rule.predicate, *(f"{v} - {t}" for (v, _), t in zip(rule.params, types))])
        texts.append(f"(:derived ({head}) {rule.body})")
    schemas = {
        name: replace(
            schema,
            add=tuple(lit for lit in schema.add if lit.predicate not in drop),
            delete=tuple(lit for lit in schema.delete if lit.predicate not in drop),
        )
        for name, schema in base.schemas.items()
    }
    lifted = replace(base, predicates=predicates, schemas=schemas)
    return render_domain(lifted, extra_rules=texts)


def variant_problem(base_task: GroundTask, rules: Sequence[Rule]) -> str:
    """The base problem for the variant domain: its ``:init`` without atoms of restated predicates."""
    drop = restated(rules, base_task.lifted)
    lifted = base_task.lifted
    init = [f"({' '.join([p, *a])})" for p, a in sorted(lifted.init) if p not in drop]
    goal = sorted(base_task.atoms.atoms(base_task.goal_pos)) + [
        f"(not {a})" for a in sorted(base_task.atoms.atoms(base_task.goal_neg))
    ]
    objects = {o: t for o, t in lifted.objects.items() if o not in lifted.constants}
    typed = set(lifted.supertypes) != {"object"}
    return problem_text(lifted.problem_name, lifted.domain_name, objects, init, goal, typed=typed)


def check_rules(
    base_tasks: Sequence[GroundTask],
    rules: Sequence[Rule],
    source: str | Path,
    max_states: int = 20_000,
) -> None:
    """Refuse a rule that never fires, or a restating rule that disagrees with the base domain.

    Every reachable state of each base task (explored completely; a task with more states is an error)
    is mapped to the variant by its base atoms, and the variant's rules are evaluated on it.
    """
    fired: set[str] = set()
    for base in base_tasks:
        variant = GroundTask.from_strings(
            variant_domain(base.lifted, rules, source), variant_problem(base, rules), source=str(source)
        )
        drop = restated(rules, base.lifted)
        space = explore(base, base.init, max_states)
        if not space.complete:
            raise PddlError(
                f"{source}: checking the ramification rules needs a smaller problem (over {max_states} states)"
            )
        for state in space.states:
            atoms = base.state_atoms(state)
            base_part = [a for a in atoms if split_canonical(a)[0] not in drop]
            closed = set(variant.state_atoms(variant.close(variant.mask_of(base_part))))
            fired.update(split_canonical(a)[0] for a in closed)
            for rule in rules:
                if rule.predicate not in drop:
                    continue
                want = {a for a in atoms if split_canonical(a)[0] == rule.predicate}
                got = {a for a in closed if split_canonical(a)[0] == rule.predicate}
                if want != got:
                    raise PddlError(
                        f"{source}: {rule.where} contradicts the domain's effects: in the reachable state "
                        f"{' '.join(atoms)} the rule gives {sorted(got)}, the actions give {sorted(want)}"
                    )
    for rule in rules:
        if rule.predicate not in fired:
            raise PddlError(f"{source}: {rule.where} never fires in any reachable state of the problems checked")
