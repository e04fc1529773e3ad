"""Natural-language descriptions of a problem, its state and goal, its actions and questions.

A `Describer` pairs a checked `DomainTemplate` with one lifted task (the record's problem, whose
``:init`` is the question's state). Facts are grouped the way a person lists them: atoms of a
predicate that differ only in the template's ``merge`` variable become one clause ("cars c0, c3,
and c5 are at location l1"); clauses are separated by semicolons, in the template's predicate
order. Object names are listed in natural order (c2 before c10), so the text is a deterministic
function of the facts. Facts an ``implied`` rule covers are left out only after the rule has
been checked on the problem's facts.

Context layout (as the reference gen records): description, newline, size sentence and static
facts, newline, "Currently, ..." state, then the task's optional parts (goal, available actions
or propositions) in the reference order.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from acpgen.nl.template import (
    PLACEHOLDER,
    DomainTemplate,
    PredicateText,
    TemplateError,
    grid_gaps,
    grid_shape,
    implied_holds,
    join_names,
    natural_key,
    substitute,
)
from acpgen.pddl.model import LiftedTask, canonical, split_canonical
from acpgen.proofs.claims import claim_from_dict

if TYPE_CHECKING:
    from acpgen.tasks.base import Task

REPRESENTATIONS = ("nl", "pddl", "pddl+nl")
PDDL_INTRO = (
    "The PDDL domain and PDDL problem below define the task; the current state is the "
    "initial state (:init) of the problem."
)


def _group(variable: str) -> str:
    """A regex group name for a PDDL variable (which may contain '-')."""
    return "v_" + re.sub(r"[^0-9a-zA-Z_]", "_", variable)


def capitalise(text: str, names) -> str:
    """Upper-case the first letter, unless the text starts with an object name (names keep their case)."""
    first = text.split(" ", 1)[0].rstrip(",;.")
    return text if first in names else text[:1].upper() + text[1:]


class Describer:
    def __init__(self, template: DomainTemplate, lifted: LiftedTask):
        template.check(lifted)
        self.template = template
        self.lifted = lifted
        self.static = lifted.static_predicates

    # ----- atoms and actions ------------------------------------------------------------------
    def _entry(self, predicate: str) -> PredicateText:
        entry = self.template.predicates.get(predicate.lower())
        if entry is None:
            raise TemplateError(f"{self.template.path}: no entry for predicate '{predicate}'")
        return entry

    def atom(self, atom: str) -> str:
        """One atom in natural language, e.g. '(at c1 l0)' -> 'car c1 is at location l0'."""
        pred, args = split_canonical(atom)
        return self._entry(pred).fill(args)

    def action(self, action: str) -> str:
        """One ground action in natural language, e.g. '(sail l0 l1)' -> 'sail ... from l0 to l1'."""
        name, args = split_canonical(action)
        text = self.template.actions.get(name.lower())
        if text is None:
            raise TemplateError(f"{self.template.path}: no entry for action '{name}'")
        variables = self.template.schema_variables(self.lifted, name)
        if len(variables) != len(args):
            raise TemplateError(f"action {action} has {len(args)} argument(s), the domain's '{name}' {len(variables)}")
        return substitute(text, dict(zip(variables, args)))

    def clauses(self, atoms, *, omit_implied: bool = False) -> list[str]:
        """Clauses describing a set of atoms (canonical strings), merged and ordered as the template says."""
        out = []
        for entry, facts in self.written(atoms, omit_implied=omit_implied):
            out.extend(self._merged(entry, facts) if entry.merge else [entry.fill(a) for a in facts])
        return out

    def written(self, atoms, *, omit_implied: bool = False) -> list[tuple[PredicateText, list[tuple[str, ...]]]]:
        """The facts a description of ``atoms`` states, per predicate in the template's order (with
        ``omit_implied``, those an ``implied`` rule covers are left out once the rule was checked)."""
        by_pred: dict[str, list[tuple[str, ...]]] = {}
        for atom in atoms:
            pred, args = split_canonical(atom)
            by_pred.setdefault(pred.lower(), []).append(args)
        order = list(self.template.predicates)
        out = []
        for pred in sorted(by_pred, key=lambda p: (order.index(p) if p in order else len(order), p)):
            entry = self._entry(pred)
            facts = sorted(set(by_pred[pred]), key=lambda a: [natural_key(x) for x in a])
            if omit_implied and entry.implied:
                if entry.implied.startswith("join "):
                    facts = self._beyond_join(entry.implied, facts)
                elif self._implied(entry, entry.implied, facts):
                    continue
            if facts:
                out.append((entry, facts))
        return out

    def written_atoms(self, atoms, *, omit_implied: bool = False) -> set[str]:
        """The atoms :meth:`written` states, in canonical form."""
        return {
            canonical(entry.name, args)
            for entry, facts in self.written(atoms, omit_implied=omit_implied)
            for args in facts
        }

    def _implied(self, entry: PredicateText, implied: str, facts: list[tuple[str, ...]]) -> bool:
        rule = implied.split()
        if rule[0] == "converse":
            # Left out when the facts are exactly the other predicate's facts reversed (and that one is written).
            other = self._facts_of(rule[1])
            return (
                rule[1] != entry.name
                and not self._entry(rule[1]).implied
                and set(facts) == {tuple(reversed(a)) for a in other}
            )
        types = self.lifted.predicates[entry.name]
        mentioned = sorted({a for args in facts for a in args})
        # An untyped argument ranges over the objects the facts mention (e.g. ferry's not-eq).
        objects = [mentioned if t == "object" else sorted(self.lifted.objects_of(t)) for t in types]
        return implied_holds(implied, facts, objects)

    def _beyond_join(self, implied: str, facts: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
        """ "join P Q": the facts that do not follow from the composition of P and Q (all of them
        unless every composed pair is a fact, which is what the description then says)."""
        first, second = (self._facts_of(p) for p in implied.split()[1:])
        if any(self._entry(p).implied for p in implied.split()[1:]):
            return facts
        composed = {(a, c) for a, b in first for b2, c in second if b == b2}
        if not composed <= set(facts):
            return facts
        return [f for f in facts if f not in composed]

    def _facts_of(self, predicate: str) -> list[tuple[str, ...]]:
        """Argument tuples of a predicate's facts in the record's state (static ones included)."""
        return [args for p, args in self.lifted.init if p == predicate]

    def _merged(self, entry: PredicateText, facts: list[tuple[str, ...]]) -> list[str]:
        position = entry.variables.index(entry.merge)
        groups: dict[tuple[str, ...], list[str]] = {}
        for args in facts:
            key = args[:position] + args[position + 1 :]
            groups.setdefault(key, []).append(args[position])
        out = []
        for key in sorted(groups, key=lambda k: [natural_key(x) for x in k]):
            values = sorted(groups[key], key=natural_key)
            args = key[:position] + (values[0],) + key[position:]
            out.append(entry.fill(args, values))
        return out

    def sentence(self, atoms, *, omit_implied: bool = False) -> str:
        return "; ".join(self.clauses(atoms, omit_implied=omit_implied))

    # ----- context parts ------------------------------------------------------------------------
    def size_sentence(self) -> str:
        def fill(match):
            kind, (type_name, *words) = match.group(1), match.group(2).split("|")
            objects = sorted(self.lifted.objects_of(type_name), key=natural_key)
            objects = [o for o in objects if o not in self.lifted.constants] or objects
            if kind == "n":
                if len(words) == 2:
                    return f"{len(objects)} {words[0] if len(objects) == 1 else words[1]}"
                return str(len(objects))
            if kind == "grid":
                return grid_shape(objects)
            if kind == "gaps":
                return join_names(grid_gaps(objects)) or "none"
            return join_names(objects)

        return PLACEHOLDER.sub(fill, self.template.size)

    def static_atoms(self) -> list[str]:
        return [canonical(p, args) for p, args in sorted(self.lifted.init) if p in self.static]

    def state_atoms(self) -> list[str]:
        return [canonical(p, args) for p, args in sorted(self.lifted.init) if p not in self.static]

    def static_part(self) -> str:
        text = self.sentence(self.static_atoms(), omit_implied=True)
        if not text:
            return ""
        intro = self.template.static_intro
        return f"{intro} {text}." if intro else capitalise(text, self.lifted.objects) + "."

    def state_part(self) -> str:
        text = self.sentence(self.state_atoms(), omit_implied=True)
        return f"Currently, {text}." if text else "Currently, none of the propositions hold."

    def goal_part(self) -> str:
        positive = [canonical(lit.predicate, lit.args) for lit in self.lifted.goal if lit.positive]
        negative = [canonical(lit.predicate, lit.args) for lit in self.lifted.goal if not lit.positive]
        parts = self.clauses(positive)
        parts += [f"it is not the case that {self.atom(a)}" for a in negative]
        return "The goal is to reach a state where the following facts hold: " + "; ".join(parts) + "."

    def actions_part(self) -> str:
        items = []
        for name, schema in self.lifted.schemas.items():
            variables = [v.lstrip("?") for v, _ in schema.params]
            text = substitute(self.template.actions[name.lower()], {v: "?" + v for v in variables})
            items.append(f"({name}{''.join(' ?' + v for v in variables)}) - {text}")
        return "The available actions are: " + join_names(items) + "."

    def propositions_part(self) -> str:
        items = []
        for entry in self.template.predicates.values():
            if entry.name in self.static:
                continue
            text = substitute(entry.text, {v: "?" + v for v in entry.variables})
            items.append(f"({entry.name}{''.join(' ?' + v for v in entry.variables)}) - {text}")
        return "The available propositions are: " + join_names(items) + "."

    def nl_context(self, parts: tuple[str, ...]) -> str:
        """The natural-language context: description, size and static facts, state, then ``parts``
        (a task's ``context_parts``: goal, actions, propositions) in the given order."""
        head = self.template.description
        middle = " ".join(p for p in (self.size_sentence(), self.template.layout, self.static_part()) if p)
        tail = [self.state_part()]
        for part in parts:
            tail.append(
                {"goal": self.goal_part, "actions": self.actions_part, "propositions": self.propositions_part}[part]()
            )
        return f"{head} \n{middle} \n" + " ".join(tail)

    def context(self, parts: tuple[str, ...], representation: str, domain_text: str, problem_text: str) -> str:
        if representation not in REPRESENTATIONS:
            raise TemplateError(f"unknown representation '{representation}' (one of {', '.join(REPRESENTATIONS)})")
        pddl = (
            f"{PDDL_INTRO}\n\nPDDL domain:\n```pddl\n{domain_text.strip()}\n```\n\n"
            f"PDDL problem:\n```pddl\n{problem_text.strip()}\n```"
        )
        if representation == "pddl":
            return pddl
        nl = self.nl_context(parts)
        return nl if representation == "nl" else f"{nl}\n\n{pddl}"

    # ----- wrong actions (distractors of areach and val) ----------------------------------------
    def wrong_action(self, index: int, args: list[str]) -> str:
        """The text of the template's wrong action ``index`` with objects filled in; TemplateError if
        that text reads exactly like a real action (the template must then be fixed)."""
        wrong = self.template.wrong_actions[index]
        text = substitute(wrong.text, dict(zip(wrong.types, args)))
        real = self.reads_as_action(text)
        if real is not None:
            raise TemplateError(
                f"{self.template.path}: wrong_actions[{index}] reads like the real action {real}: '{text}'"
            )
        return text

    def reads_as_action(self, text: str) -> str | None:
        """The type-correct ground action whose text is exactly ``text``, if any."""
        for name, schema in self.lifted.schemas.items():
            template = self.template.actions[name.lower()]
            variables = [v.lstrip("?") for v, _ in schema.params]
            pattern, position = "", 0
            for match in PLACEHOLDER.finditer(template):
                pattern += re.escape(template[position : match.start()]) + f"(?P<{_group(match.group(1))}>[^\\s,]+)"
                position = match.end()
            pattern += re.escape(template[position:])
            found = re.fullmatch(pattern, text)
            if not found:
                continue
            args = [found.group(_group(v)) for v in variables]
            if all(a in self.lifted.objects_of(t) for a, (_, t) in zip(args, schema.params)):
                return "(" + " ".join([name, *args]) + ")"
        return None

    # ----- boolean and multiple-choice questions ----------------------------------------------
    def choice_context(self, goal: bool, representation: str, domain_text: str, problem_text: str) -> str:
        """Context of a bool/mcq record: no vocabulary, the goal only where the task needs it, one line."""
        if representation == "pddl":
            return self.context((), "pddl", domain_text, problem_text)
        parts = [
            self.template.description,
            self.size_sentence(),
            self.template.layout,
            self.static_part(),
            self.state_part(),
        ]
        if goal:
            parts.append(self.goal_part())
        nl = " ".join(p for p in parts if p)
        if representation == "nl":
            return nl
        return nl + "\n\n" + self.context((), "pddl", domain_text, problem_text)

    def choice_question(self, task: Task, record: dict) -> dict:
        """``question`` (and for mcq ``query`` and ``choices``) of a bool or mcq record of ``task``.

        The task's ``choice.words`` gives a text's values; the record's ``variant`` picks the text
        of a task with several (val properties, just single/pair).
        """
        spec = task.choice_formats()
        variant = record.get("variant", "")
        suffix = f".{variant}" if variant else ""
        if record["format"] == "bool":
            claim = claim_from_dict(record["claim"])
            return {
                "question": substitute(
                    self.template.questions[f"bool.{task.name}{suffix}"], spec.words(self, record, claim)
                )
            }
        options = [claim_from_dict(o) for o in record["options"]]
        stem = substitute(self.template.questions[f"mcq.{task.name}{suffix}"], spec.words(self, record, options[0]))
        texts = [
            substitute(self.template.questions[spec.option_key(task.name, o, variant)], spec.words(self, record, o))
            for o in options
        ]
        inline = " ".join(f"{label}. {text}." for label, text in zip("ABCD", texts))
        return {
            "question": f"{stem} {inline}",
            "query": stem,
            "choices": {"text": texts, "label": list("ABCD")[: len(texts)]},
        }

    # ----- questions ------------------------------------------------------------------------------
    def question(self, task: Task, record: dict, representation: str) -> str:
        """The task's open-ended question for a record; actions in PDDL syntax when the context is PDDL only."""
        values = task.question_values(record, self, pddl_actions=representation == "pddl")
        key = task.name + (f".{record['variant']}" if record.get("variant") else "")
        return substitute(self.template.questions[key], values)
