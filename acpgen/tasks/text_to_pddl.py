"""t2p: write the PDDL problem that an English description of an initial state and a goal stands for.

A record's truth problem has a sampled state of a generated problem as its initial state and the
problem's goal; where the domain's generator declares abstract patterns
(`acpgen.generators.patterns`), the initial state's fluent facts, the goal, or both are replaced by
an instance of a pattern and described by the pattern's English instead of fact by fact. The
record's ``abstraction`` is ``<init>_<goal>`` with each part ``explicit`` or ``abstract``
(Planetarium's four categories); ``placeholder`` is set when an abstract goal names no object (any
objects fitting it are correct); ``size`` is the number of true propositions (initial facts plus
goal literals). The stored answer is the truth problem's PDDL; a model's problem is scored by
:mod:`acpgen.proofs.equivalence` (1 iff equivalent; undecided when a planner could not decide) and the
score row carries the three rates' flags ``parseable``, ``solvable``, ``equivalent``.

Every sampled state from which the goal is still ahead can give a record (the state is the initial
state of a problem with the same goal), so a domain gives as many records as any other task.
"""

from __future__ import annotations

import random
import re
from typing import Any

from acpgen.config import QAConfig
from acpgen.errors import PddlError
from acpgen.generators import DOMAINS, get_generator
from acpgen.generators.patterns import Pattern, each, same
from acpgen.nl.answer_reader import Reader
from acpgen.nl.answers import ParseError
from acpgen.nl.describe import Describer
from acpgen.nl.pddl_words import pddl_template
from acpgen.nl.template_patterns import PatternDecl, PatternDeclError, pattern_from
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import LiftedTask, canonical
from acpgen.pddl.render import problem_text
from acpgen.proofs.equivalence import EquivalenceChecker
from acpgen.tasks.base import (
    OK,
    SCORED,
    UNDECIDED,
    UNPROVEN,
    WRONG,
    Check,
    QAItem,
    RecordContext,
    Task,
    Verdict,
    goal_ahead,
    missing_template,
    template_of,
)

EXPLICIT, ABSTRACT = "explicit", "abstract"
CATEGORIES = tuple(f"{i}_{g}" for i in (EXPLICIT, ABSTRACT) for g in (EXPLICIT, ABSTRACT))
NO_PATTERN = {"name": "", "text": ""}
RULE = "rule"  # a template-declared pattern's declaration, in the record's pattern field
#: Planetarium's size bands: the number of true propositions of the truth (initial facts plus goal literals)
SIZE_BANDS = ((1, 20), (21, 40), (41, 60), (61, 80))
_PROBLEM_START = re.compile(r"\(\s*define\s*\(\s*problem\b", re.IGNORECASE)


def patterns_of(domain: str, declared: tuple[PatternDecl, ...] = ()) -> tuple[Pattern, ...]:
    """The abstract patterns of a domain: those a built-in domain's generator declares, then those its
    template declares (``declared``: a user's domain has only these)."""
    builtin = get_generator(domain).patterns if domain in DOMAINS else ()
    return (*builtin, *(declared_pattern(d) for d in declared))


def declared_pattern(decl: PatternDecl) -> Pattern:
    """A template's declaration as a pattern, with the generators' building blocks."""
    if decl.kind == "same":
        return Pattern(decl.name, decl.part, decl.text, **same(decl.predicate, decl.subjects, decl.values, decl.key))
    return Pattern(decl.name, decl.part, decl.text, **each(decl.predicate, decl.types, decl.when))


def _pattern(domain: str, part: str, stored: dict[str, Any]) -> Pattern | None:
    """The pattern a record's ``<part>_pattern`` field names: its stored ``rule`` (a template's declaration,
    kept in the record so that validation needs no template), else the built-in domain's pattern."""
    if stored.get(RULE):
        try:
            decl = pattern_from(stored[RULE], f"the record's {part}_pattern rule")
        except PatternDeclError:
            return None
        return declared_pattern(decl) if (decl.part, decl.name) == (part, stored.get("name")) else None
    return next((p for p in patterns_of(domain) if p.part == part and p.name == stored.get("name")), None)


def size_band(size: int) -> str:
    """Planetarium's band of a problem size: ``1-20``, ``21-40``, ``41-60``, ``61-80`` or ``>80``."""
    for low, high in SIZE_BANDS:
        if size <= high:
            return f"{low}-{high}"
    return f">{SIZE_BANDS[-1][1]}"


def pattern_class(init: str | None, goal: str | None) -> str:
    """The record's pattern class, ``<init>_to_<goal>``, each part its pattern's name or ``explicit``
    (Planetarium's rows name their initial and goal configurations the same way)."""
    return f"{init or EXPLICIT}_to_{goal or EXPLICIT}"


def last_problem(response: str) -> str:
    """The last complete ``(define (problem ...) ...)`` of a response (prose, code fences and several
    candidates allowed; ``;`` comments are skipped when matching parentheses). ParseError if none."""
    found = None
    for start in _PROBLEM_START.finditer(response):
        depth, i = 0, start.start()
        while i < len(response):
            char = response[i]
            if char == ";":
                end = response.find("\n", i)
                i = len(response) if end < 0 else end
                continue
            if char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
                if depth == 0:
                    found = response[start.start() : i + 1]
                    break
            i += 1
    if found is None:
        raise ParseError("no complete (define (problem ...)) in the response")
    return found


class TextToPddl(Task):
    name = "t2p"
    gen_group = "text_to_pddl_gen"
    family = "t2p"
    difficulty_steps = "none"  # the whole problem is described: its size is what grows
    description = "the PDDL problem of an English description (scored by exact equivalence)"
    context_parts = ("goal",)
    instruction = "Write the PDDL problem as one (define (problem ...) ...) block over the given domain."

    def accepts(self, state: dict[str, Any]) -> bool:
        return goal_ahead(state)

    # ----- generation ---------------------------------------------------------------------------------
    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        task = ctx.task
        lifted = task.lifted
        domain = str(ctx.record.get("domain", ""))
        objects = {o: t for o, t in lifted.objects.items() if o not in lifted.constants}
        # the patterns' words are the domain's own: an obfuscated record is described explicitly
        obfuscated = bool(ctx.record.get("obfuscation"))
        patterns = [] if obfuscated else patterns_of(domain, item.patterns)
        rules = {} if obfuscated else {(d.part, d.name): d.as_dict() for d in item.patterns}
        choices = [
            (init, goal)
            for init in [None, *(p for p in patterns if p.part == "init")]
            for goal in [None, *(p for p in patterns if p.part == "goal")]
        ]
        init_pattern, goal_pattern = rng.choice(choices)
        static = sorted(canonical(p, a) for p, a in lifted.init if p in task.static_predicates)
        fluent = [a for a in task.state_atoms(task.init) if a not in set(static)]
        goal = [
            canonical(lit.predicate, lit.args) if lit.positive else f"(not {canonical(lit.predicate, lit.args)})"
            for lit in lifted.goal
        ]
        # Both pattern fields on every record (empty when the part is explicit): one shape per column
        # for the JSON readers of the harnesses.
        # A domain whose template declares patterns stores each one's rule (empty for an explicit part).
        empty = {**NO_PATTERN, RULE: {}} if rules else NO_PATTERN
        fields: dict[str, Any] = {"init_pattern": empty, "goal_pattern": empty}
        # A pattern the problem's objects cannot instantiate (too few blocks for two towers) leaves its part
        # explicit, as if it had not been drawn: the state still gives its question.
        made = init_pattern.make(objects, rng, frozenset(static)) if init_pattern is not None else None
        if init_pattern is not None and made is not None:
            fluent = sorted(made[0])
            fields["init_pattern"] = _field(init_pattern, made[1], rules)
        else:
            init_pattern = None
        made = goal_pattern.make(objects, rng, frozenset(static) | frozenset(fluent)) if goal_pattern else None
        if goal_pattern is not None and made is not None:
            goal = sorted(made[0])
            fields["goal_pattern"] = _field(goal_pattern, made[1], rules)
        else:
            goal_pattern = None
        truth = problem_text(
            lifted.problem_name,
            lifted.domain_name,
            objects,
            sorted({*static, *fluent}),
            goal,
            typed=set(lifted.supertypes) != {"object"},
        )
        truth_task = GroundTask.from_strings(lifted.domain_text, truth, "t2p truth")
        if truth_task.is_goal(truth_task.init):
            return None
        if self._checker(ctx).solvable(truth) is not True:
            return None
        category = f"{ABSTRACT if init_pattern else EXPLICIT}_{ABSTRACT if goal_pattern else EXPLICIT}"
        size = len(truth_task.lifted.init) + len(goal)
        return {
            **fields,
            "answer": truth,
            "PDDL_problem": truth,
            "abstraction": category,
            "placeholder": bool(goal_pattern and goal_pattern.placeholder),
            "size": size,
            "size_band": size_band(size),
            "pattern_class": pattern_class(
                init_pattern.name if init_pattern else None, goal_pattern.name if goal_pattern else None
            ),
        }

    # ----- scoring --------------------------------------------------------------------------------------
    def parse(self, response: str) -> str:
        return last_problem(response)

    def _checker(self, ctx: RecordContext) -> EquivalenceChecker:
        """The record's checker, made once: it analyses the truth once for all answers to the record."""
        if "equivalence" not in ctx.memo:
            ctx.memo["equivalence"] = EquivalenceChecker(
                ctx.record["PDDL_domain"],
                ctx.planners,
                max_states=ctx.options.max_states,
                limits=ctx.options.limits,
                retry_factor=ctx.options.retry_factor,
                lifted_states=ctx.options.lifted_states,
            )
        checker: EquivalenceChecker = ctx.memo["equivalence"]
        return checker

    def score(self, ctx: RecordContext, answer: str) -> Verdict:
        result = self._checker(ctx).check(ctx.record["PDDL_problem"], answer, bool(ctx.record.get("placeholder")))
        flags = {"parseable": result.parseable, "solvable": result.solvable, "equivalent": result.equivalent}
        if result.equivalent is None:
            return Verdict(0.0, UNDECIDED, result.reason, flags)
        return Verdict(1.0 if result.equivalent else 0.0, SCORED, result.reason, flags)

    def validate(self, ctx: RecordContext) -> Check:
        """The truth is solvable, the stored answer is the truth, and each abstract part reads back
        into its pattern (the facts are exactly an instance of it, with the names its text gives)."""
        record = ctx.record
        solvable = ctx.oracle.goal_reachable()
        if solvable.value is None:
            return Check(UNPROVEN, f"solvability undecided: {solvable.detail}")
        if not solvable.value:
            return Check(WRONG, "the truth problem is unsolvable")
        try:
            same = self._checker(ctx).check(record["PDDL_problem"], str(record["answer"]))
        except PddlError as err:
            return Check(WRONG, f"the truth does not parse: {err}")
        if same.equivalent is not True:
            return Check(WRONG if same.equivalent is False else UNPROVEN, f"answer is not the truth: {same.reason}")
        task = ctx.task
        lifted = task.lifted
        objects = {o: t for o, t in lifted.objects.items() if o not in lifted.constants}
        fluent_init = frozenset(a for a in task.state_atoms(task.init) if not task.is_static_atom(a))
        static_init = frozenset(a for a in task.state_atoms(task.init) if task.is_static_atom(a))
        given = {"init": static_init, "goal": static_init | fluent_init}
        goal = frozenset(
            canonical(lit.predicate, lit.args) if lit.positive else f"(not {canonical(lit.predicate, lit.args)})"
            for lit in lifted.goal
        )
        for part, facts in (("init", fluent_init), ("goal", goal)):
            stored = record.get(f"{part}_pattern") or NO_PATTERN
            if not stored.get("name"):
                continue
            pattern = _pattern(str(record.get("domain", "")), part, stored)
            if pattern is None:
                return Check(WRONG, f"unknown {part} pattern {stored.get('name')}")
            names = pattern.recognise(objects, facts, given[part])
            if names is None or pattern.fill(names) != stored.get("text"):
                return Check(WRONG, f"the {part} is not the pattern '{stored.get('text')}'")
        expected = "_".join(
            ABSTRACT if (record.get(f"{part}_pattern") or NO_PATTERN).get("name") else EXPLICIT
            for part in ("init", "goal")
        )
        if record.get("abstraction") != expected:
            return Check(WRONG, f"abstraction {record.get('abstraction')} but the record's parts are {expected}")
        wrong_label = _labels_differ(record, len(lifted.init) + len(goal))
        if wrong_label:
            return Check(WRONG, wrong_label)
        if "context" not in record:
            # A qa-stage record has no English yet (export writes it); the exported record's text is
            # read back by `acp validate` and by the dataset's self-check.
            return Check(OK, "solvable truth, stored answer and patterns proven; no text to read back yet")
        return self._read_back(record, lifted)

    def _read_back(self, record: dict[str, Any], lifted: LiftedTask) -> Check:
        """The record's English reads back into exactly the truth: read with the domain's template
        (:class:`acpgen.nl.answer_reader.Reader`), the static facts and an explicit initial state or goal are
        the truth's facts (those an ``implied`` rule of the template covers may be left unsaid, as the
        describer leaves them), an abstract part is its pattern's text, and the rest of the text is
        what the truth's objects give. English without a template to read it is unproven (a record
        that lost the user's template it carried), a text that reads as other facts is wrong."""

        context = record.get("context")
        if not isinstance(context, str):
            return Check(UNPROVEN, "the record has no context to read back")
        template = template_of(record, lifted)
        if template is None and record.get("representation", "nl") != "pddl":
            # English with no template to read it (a record without the user's template it was written
            # with): the text cannot be read back here, which proves nothing either way.
            return Check(UNPROVEN, f"the description is not read back: {missing_template(record, lifted)}")
        describer = Describer(template if template is not None else pddl_template(lifted), lifted)
        reader = Reader(lifted, describer.template)
        try:
            parts = _description_parts(context, describer, record)
        except _Mismatch as err:
            return Check(WRONG, f"the description does not read back: {err}")
        static = set(describer.static_atoms())
        fluent = set(describer.state_atoms())
        positive = [canonical(lit.predicate, lit.args) for lit in lifted.goal if lit.positive]
        negative = {f"(not {canonical(lit.predicate, lit.args)})" for lit in lifted.goal if not lit.positive}
        expected = {
            "static facts": describer.written_atoms(static, omit_implied=True),
            "initial state": describer.written_atoms(fluent, omit_implied=True),
            "goal": describer.written_atoms(positive) | negative,
        }
        for part, text in parts.items():
            if text is None:
                continue  # abstract: its text was compared with the pattern's
            found = _read_literals(reader, text)
            if isinstance(found, str):
                return Check(UNPROVEN, f"the {part} '{found}' does not read as facts of {describer.template.path}")
            if found != expected[part]:
                missing = sorted(expected[part] - found)[:3]
                extra = sorted(found - expected[part])[:3]
                return Check(WRONG, f"the {part} reads back as other facts (missing {missing}, extra {extra})")
        return Check(OK)

    def to_responses(self, record: dict[str, Any]) -> list[str]:
        return [f"```pddl\n{record['answer']}```"]

    # ----- text ---------------------------------------------------------------------------------------
    def context(self, describer: Describer, record: dict[str, Any], representation: str) -> str:
        """Domain description, size and static facts, the initial state and the goal (explicit, fact by
        fact from the template, or the pattern's English), then the PDDL domain; never the problem."""
        template = describer.template
        init = (record.get("init_pattern") or NO_PATTERN)["text"]
        goal = (record.get("goal_pattern") or NO_PATTERN)["text"]
        state = f"Initially, {init}." if init else describer.state_part().replace("Currently,", "Initially,", 1)
        goal_text = f"The goal is to reach a state where {goal}." if goal else describer.goal_part()
        size = describer.size_sentence() or self._objects_sentence(describer)
        middle = " ".join(p for p in (size, template.layout, describer.static_part()) if p)
        nl = f"{template.description} \n{middle} \n{state} {goal_text}"
        return f"{nl}\n\nPDDL domain:\n```pddl\n{record['PDDL_domain'].strip()}\n```"

    @staticmethod
    def _objects_sentence(describer: Describer) -> str:
        """The objects by type, for a domain without a template's size sentence (every object must be named)."""
        lifted = describer.lifted
        by_type: dict[str, list[str]] = {}
        for obj, type_name in sorted(lifted.objects.items()):
            if obj not in lifted.constants:
                by_type.setdefault(type_name, []).append(obj)
        parts = [f"{', '.join(names)} ({type_name})" for type_name, names in sorted(by_type.items())]
        return f"The objects are: {'; '.join(parts)}." if parts else "The problem has no objects of its own."


def _field(pattern: Pattern, names: dict[str, str], rules: dict[tuple[str, str], dict[str, Any]]) -> dict[str, Any]:
    """A record's pattern field: the pattern's name and text, and its rule when a template declares it."""
    field = {"name": pattern.name, "text": pattern.fill(names)}
    return {**field, RULE: rules.get((pattern.part, pattern.name), {})} if rules else field


def _labels_differ(record: dict[str, Any], size: int) -> str:
    """What is wrong with the record's size, size band and pattern class (those it has), or ''."""
    names = [(record.get(f"{part}_pattern") or NO_PATTERN).get("name") or None for part in ("init", "goal")]
    expected = {"size": size, "size_band": size_band(size), "pattern_class": pattern_class(*names)}
    for key, value in expected.items():
        if key in record and record[key] != value:
            return f"{key} {record[key]!r}, but the truth and patterns give {value!r}"
    return ""


class _Mismatch(Exception):
    """The record's context is not laid out as the t2p context of its truth."""


_NONE_HOLD = "none of the propositions hold"
_GOAL_OPENING = "The goal is to reach a state where "
_EXPLICIT_GOAL = _GOAL_OPENING + "the following facts hold: "
_NEGATED = "it is not the case that "


def _strip(text: str, prefix: str, suffix: str, what: str) -> str:
    if not (text.startswith(prefix) and text.endswith(suffix)):
        raise _Mismatch(f"the {what} should read '{prefix}...{suffix}', found '{text[:80]}'")
    return text[len(prefix) : len(text) - len(suffix)]


def _description_parts(context: str, describer: Describer, record: dict[str, Any]) -> dict[str, str | None]:
    """The texts of the static facts, the initial state and the goal in a t2p context (laid out as
    :meth:`TextToPddl.context` writes it): None for an abstract part, whose text must be its
    pattern's; _Mismatch when the layout, the description or the size sentence is not the truth's."""
    template = describer.template
    nl = context.split("\n\nPDDL domain:", 1)[0]
    pieces = nl.rsplit(" \n", 2)
    if len(pieces) != 3:
        raise _Mismatch("the context is not 'description / size and static facts / state and goal'")
    head, middle, tail = pieces
    if head != template.description:
        raise _Mismatch("the domain description is not the template's")
    size = describer.size_sentence() or TextToPddl._objects_sentence(describer)
    static = _strip(middle, " ".join(p for p in (size, template.layout) if p), "", "size sentence").strip()
    if static:
        static = _strip(static, f"{template.static_intro} " if template.static_intro else "", ".", "static facts")
    if _GOAL_OPENING not in tail:
        raise _Mismatch(f"no sentence '{_GOAL_OPENING}...'")
    cut = tail.index(" " + _GOAL_OPENING)
    init_text, goal_text = tail[:cut], tail[cut + 1 :]
    parts: dict[str, str | None] = {"static facts": static}
    for part, key, text, explicit in (
        ("initial state", "init", init_text, "Initially, "),
        ("goal", "goal", goal_text, _EXPLICIT_GOAL),
    ):
        pattern = (record.get(f"{key}_pattern") or NO_PATTERN)["text"]
        if pattern:
            opening = "Initially, " if key == "init" else _GOAL_OPENING
            if text != f"{opening}{pattern}.":
                raise _Mismatch(f"the {part} should be the pattern's text '{pattern}', found '{text[:80]}'")
            parts[part] = None
        else:
            body = _strip(text, explicit, ".", part)
            parts[part] = "" if body == _NONE_HOLD else body
    return parts


def _read_literals(reader: Reader, text: str) -> set[str] | str:
    """The literals a '; '-separated list of clauses states (a clause 'it is not the case that X' is the
    negation of X's atoms), or the first clause that reads as nothing."""
    found: set[str] = set()
    for clause in (c.strip() for c in text.split(";")):
        if not clause:
            continue
        negated = clause.lower().startswith(_NEGATED)
        reading = reader.literals(clause[len(_NEGATED) :] if negated else clause)
        if reading.unread or not reading.items:
            return clause
        found.update(f"(not {item})" if negated else item for item in reading.items)
    return found


TASK = TextToPddl()
