"""Reasoning about actions and change (ActionReasoningBench's six categories) as acp tasks.

One :class:`SequenceTask` per category (``rac_fluent``, ``rac_state``, ``rac_exec``,
``rac_effects``, ``rac_num``, ``rac_comp``; one module each registers it). A question starts from
the record's state (the ``:init`` of its PDDL problem, which its context describes) and asks
about a sequence of 1 to 19 actions (a plan prefix or a seeded random walk; for executability and
composite questions one action is replaced by an inexecutable one). Answers are computed on acp's
grounded task and re-proven by a separate interpreter over the lifted schemas
(:mod:`acpgen.proofs.change.world`); free answers are read in PDDL or in the template's English
(:mod:`acpgen.nl.answer_reader`) and compared with the stored answer exactly, with precision, recall
and F1 reported beside the 0/1 score.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping
from functools import cache
from typing import Any

from acpgen.config import QAConfig
from acpgen.errors import DataError
from acpgen.generators import DOMAINS, domain_file
from acpgen.nl.answer_reader import number_in
from acpgen.nl.answers import ParseError, answer_section
from acpgen.nl.asked import Asked, NotRead, differences, property_words, read_asked
from acpgen.nl.describe import Describer
from acpgen.nl.ramified import rules_of
from acpgen.nl.template import (
    join_names,
    load_questions,
)
from acpgen.pddl.fluents import classify, group_dependent, single_valued_predicates
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import LiftedTask, split_canonical
from acpgen.pddl.ramifications import variant_domain, variant_problem
from acpgen.pddl.render import problem_text
from acpgen.pddl.tarski_io import read_domain_text, read_strings
from acpgen.planners import Status
from acpgen.proofs.change import questions as rq
from acpgen.proofs.change.literals import literal_atom
from acpgen.proofs.change.sequences import LENGTHS, executable_sequence, with_inexecutable
from acpgen.proofs.change.world import CoreWorld, LiftedWorld
from acpgen.proofs.claims import Claim, SequenceClaim, expect
from acpgen.proofs.oracle import Decision, Method
from acpgen.tasks.base import (
    OK,
    UNPROVEN,
    WRONG,
    ActionCase,
    Check,
    QAItem,
    RecordContext,
    Task,
    Verdict,
    Words,
    missing_template,
    readings,
    template_of,
)
from acpgen.tasks.choice import LABELS, ChoiceFormats, Claims, Matcher
from acpgen.tasks.measures import set_measures

MAX_ITEMS = 40  # longest set answer asked for (a longer list is no reasonable free answer)
# The single-valued predicates of a domain's problems so far, by the domain's PDDL and the problems' texts.
_GROUPS_CACHE: dict[tuple[str, tuple[str, ...]], _Translated] = {}
_GROUPS_LOCK = threading.Lock()
# The fluent types of a domain (or its variant) from the mutex groups of a set of its problems, by what they
# depend on: the asked domain's PDDL, its name and obfuscation (the template), the problems' domain and texts.
_TYPES_CACHE: dict[tuple[str, str, bool, str, tuple[str, ...]], dict[str, str]] = {}


class _Translated:
    """The translator's mutex groups of a domain's problems, translated in their order only as far as a
    question needs: until the predicates it asks about are all single-valued (further groups can only add
    single-valued predicates), or every problem is translated. Safe to use from several threads."""

    def __init__(self, domain_text: str, problems: tuple[str, ...]) -> None:
        self.domain_text, self.problems = domain_text, problems
        self.single: frozenset[str] = frozenset()  # of the groups so far (a group's own: they add up)
        self.translated = self.answered = 0
        self.lock = threading.Lock()

    def single_valued(self, ctx: RecordContext, needed: frozenset[str]) -> frozenset[str]:
        """The single-valued predicates of the groups of the problems translated so far, once they hold all
        of ``needed`` or every problem is translated; DataError when the translator answers none of them."""
        with self.lock:
            while self.translated < len(self.problems) and not (self.answered and needed <= self.single):
                problem = self.problems[self.translated]
                result = ctx.planners.mutex_groups(self.domain_text, problem, ctx.options.limits)
                self.translated += 1
                if result.status == Status.SOLVED:
                    self.answered += 1
                    self.single |= single_valued_predicates(result.groups)
            if not self.answered:
                raise DataError(f"record {ctx.record.get('id')}: no mutex groups from the translator for the domain")
            return self.single


def _single_valued(
    ctx: RecordContext, domain_text: str, problems: tuple[str, ...], needed: frozenset[str]
) -> frozenset[str]:
    """The single-valued predicates (:func:`acpgen.pddl.fluents.single_valued_predicates`) of the
    translator's mutex groups of a domain's problems (their own goals, which their plans reach), as far as
    they decide the types of ``needed``: the same types as the groups of all the problems give."""
    key = (domain_text, problems)
    with _GROUPS_LOCK:
        translated = _GROUPS_CACHE.get(key)
        if translated is None:
            if len(_GROUPS_CACHE) > 64:
                _GROUPS_CACHE.clear()
            translated = _GROUPS_CACHE[key] = _Translated(domain_text, problems)
    try:
        return translated.single_valued(ctx, needed)
    except DataError:
        with _GROUPS_LOCK:  # not kept: a translator that timed out may answer next time
            if _GROUPS_CACHE.get(key) is translated:
                del _GROUPS_CACHE[key]
        raise


@cache
def _builtin_base(domain: str) -> LiftedTask | None:
    """acp's own domain of that name, when it has no rules of its own (the base of its ramification variant)."""
    if domain not in DOMAINS:
        return None
    base = read_domain_text(domain_file(domain).read_text(encoding="utf-8"), f"acp's domain {domain}")
    return None if base.axioms else base


def base_pddl(record: Mapping[str, Any], lifted: LiftedTask) -> tuple[str, str] | None:
    """For a question about a ramification variant (rules in its PDDL, the record's domain one of acp's
    domains without rules): the base domain's PDDL and a problem with the variant's state over it (the
    variant's initial atoms with its rules evaluated, the atoms of new derived predicates left out). The
    fluents a question lists come from the base's dynamics (:attr:`acpgen.proofs.change.world.World.atoms`).
    None for any other question."""
    if not lifted.axioms or record.get("obfuscation"):
        return None
    base = _builtin_base(str(record.get("domain", "")))
    if base is None:
        return None
    facts = LiftedWorld(lifted, {}).init
    init = sorted(a for a in facts if split_canonical(a)[0] in base.predicates)
    objects = {o: t for o, t in lifted.objects.items() if o not in base.constants}
    typed = set(base.supertypes) != {"object"}
    return base.domain_text, problem_text(lifted.problem_name, base.domain_name, objects, init, [], typed=typed)


def core_world(ctx: RecordContext, types: Mapping[str, str]) -> CoreWorld:
    """The core's world of a record (with its base task for a ramification variant)."""
    base = base_pddl(ctx.record, ctx.lifted)
    return CoreWorld(ctx.task, dict(types), None if base is None else GroundTask.from_strings(*base, "base task"))


def lifted_world(ctx: RecordContext, types: Mapping[str, str]) -> LiftedWorld:
    """The separate interpreter's world of a record (with its base task for a ramification variant), made once
    for the record's checks and claims (it keeps the steps it has taken)."""
    key = f"lifted_world {sorted(types.items())}"
    world = ctx.memo.get(key)
    if world is None:
        base = base_pddl(ctx.record, ctx.lifted)
        base_task = None if base is None else read_strings(*base, "base task")
        world = ctx.memo[key] = LiftedWorld(ctx.lifted, dict(types), base_task)
    assert isinstance(world, LiftedWorld)
    return world


def domain_fluent_types(ctx: RecordContext, translated: RecordContext, problems: tuple[str, ...]) -> dict[str, str]:
    """Predicate -> fluent type (:func:`acpgen.pddl.fluents.classify`) of the task ``ctx`` asks about (the
    domain, or its ramification variant), from the mutex groups of ``problems`` of the domain of
    ``translated`` and the template's ``fluent_types``: a property of the domain, the same for every record of
    it. DataError when the translator gives no mutex groups."""

    template = template_of(ctx.record, ctx.lifted)
    overrides = template.fluent_types if template is not None else None
    source = str(template.path) if template is not None else "the template"
    needed = group_dependent(ctx.lifted, overrides)
    single = _single_valued(translated, str(translated.record["PDDL_domain"]), problems, needed)
    return {p: t.value for p, t in classify(ctx.lifted, single, overrides, source).items()}


def fluent_types(ctx: RecordContext) -> dict[str, str]:
    """The fluent types a record's question uses: the record's ``fluent_types`` (the domain's, stored when
    the record was made); for a record without them (made before they were stored), the types from the
    mutex groups of the record's own PDDL."""
    stored = ctx.record.get("fluent_types")
    if isinstance(stored, dict):
        return rq.types_of_record(stored)
    return domain_fluent_types(ctx, ctx, (str(ctx.record["PDDL_problem"]),))


def item_fluent_types(base: RecordContext, asked: RecordContext, item: QAItem) -> dict[str, str] | None:
    """The domain's fluent types for a question about ``asked`` (the base record's task or its variant),
    from all the domain's problems (``item.domain_problems``; the record's own problem when none are
    given); None when the translator gives no mutex groups."""
    problems: tuple[str, ...] = item.domain_problems or (str(base.record["PDDL_problem"]),)
    record = asked.record
    key = (
        str(record["PDDL_domain"]),
        str(record.get("domain")),
        bool(record.get("obfuscation")),
        str(base.record["PDDL_domain"]),
        problems,
    )
    if key not in _TYPES_CACHE:
        try:
            types = domain_fluent_types(asked, base, problems)
        except DataError:
            return None  # not kept: a translator that timed out may answer next time
        if len(_TYPES_CACHE) > 64:
            _TYPES_CACHE.clear()
        _TYPES_CACHE[key] = types
    return _TYPES_CACHE[key]


def question_types(types: Mapping[str, str], dynamic: bool) -> list[str]:
    """The fluent types a question may be about in a domain: each type it has, and the mixes
    (``dynamic``: only types that actions change, for questions about changes)."""
    present = [t for t in rq.FLUENT_TYPES if t in types.values() and not (dynamic and t == "static")]
    return present + (["fluents"] if dynamic else list(rq.MIXES))


def _objects(world: CoreWorld, fluent_type: str) -> list[str]:
    """Objects named by some atom of the fluent type."""
    atoms = rq._relevant(world, rq.Question("fluent", "true", (), fluent_type))
    named = {arg for atom in atoms for arg in split_canonical(atom)[1]}
    return sorted(o for o in world.lifted.objects if o in named)


def propose(
    ctx: RecordContext,
    item: QAItem,
    rng: random.Random,
    category: str,
    variant: str,
    types: Mapping[str, str],
    lengths: tuple[int, ...] | None = None,
) -> rq.Question | None:
    """The structured question of a category and variant about the record's state, or None; the
    sequence length is drawn from ``lengths`` (default `LENGTHS`; a difficulty level narrows it);
    ``types``: the domain's fluent types."""
    task = ctx.task
    sequence = executable_sequence(task, item.suffix, rng, rng.choice(lengths or LENGTHS))
    if sequence is None:
        return None
    if variant in rq.WITH_INEXECUTABLE:
        replaced = with_inexecutable(task, sequence, rng)
        if replaced is None:
            return None
        sequence = replaced[0]
    world = core_world(ctx, types)
    fluent_type: str | None = None
    obj: str | None = None
    action: str | None = None
    if category in ("fluent", "state", "composite") and variant not in ("executable_before",):
        fluent_type = rng.choice(question_types(world.types, dynamic=False))
        if category != "state":
            objects = _objects(world, fluent_type)
            if not objects:
                return None
            obj = rng.choice(objects)
    elif category == "effects":
        fluent_type = rng.choice(question_types(world.types, dynamic=True))
        options = world.executable(world.run(sequence)[0][-1])
        if not options:
            return None
        action = rng.choice(options)
    elif category == "numerical" and variant != "executable":
        fluent_type = rng.choice(question_types(world.types, dynamic=False))
        if variant == "object_true":
            objects = _objects(world, fluent_type)
            obj = rng.choice(objects) if objects else None
            if obj is None:
                return None
    return rq.Question(category, variant, tuple(sequence), fluent_type, obj, action)


def _english_literal(words: Words, literal: str) -> str:
    atom, positive = literal_atom(literal)
    text = words.atom(atom)
    if positive:
        return text
    for verb, negative in ((" is ", " is not "), (" are ", " are not ")):
        if verb in f" {text} ":
            return f" {text} ".replace(verb, negative, 1)[1:-1]
    return f"it is not the case that {text}"


def asked_about(ctx: RecordContext, rng: random.Random) -> tuple[RecordContext, dict[str, Any]]:
    """The task a question is about, and the record fields that say so: for a domain whose template has
    ``ramifications:`` rules, half of the questions (drawn with ``rng``) are about the ramification variant
    (:mod:`acpgen.pddl.ramifications`: the record's PDDL becomes the variant's, the context states the rules);
    the others, and every question of another domain, about the record's own task."""

    template = template_of(ctx.record, ctx.lifted)
    if template is None or not template.ramifications or rng.random() < 0.5:
        return ctx, {"ramifications": False}
    rules = rules_of(template)
    pddl = {
        "PDDL_domain": variant_domain(ctx.lifted, rules, template.path),
        "PDDL_problem": variant_problem(ctx.task, rules),
    }
    variant = RecordContext({**ctx.record, **pddl}, ctx.options, ctx.planners)
    return variant, {**pddl, "ramifications": True}


def draw_question(
    ctx: RecordContext, item: QAItem, rng: random.Random, category: str, variant: str, settings: QAConfig
) -> tuple[RecordContext, dict[str, Any], dict[str, str], rq.Question] | None:
    """One question of ``category`` and ``variant`` about ``item``: the context asked about (with its
    PDDL fields), the domain's fluent types and the question; None where the state gives none (the
    open-ended and the bool/mcq questions draw alike, in this order)."""
    asked, pddl = asked_about(ctx, rng)
    types = item_fluent_types(ctx, asked, item)
    if types is None:
        return None
    q = propose(asked, item, rng, category, variant, types, settings.sequence_lengths)
    return None if q is None else (asked, pddl, types, q)


def describer_of(record: dict[str, Any]) -> Describer | None:
    lifted = read_strings(record["PDDL_domain"], record["PDDL_problem"], f"record {record.get('id')}")
    template = template_of(record, lifted)
    return None if template is None else Describer(template, lifted)


def answer_words(record: dict[str, Any]) -> list[str]:
    """The items of a record's stored set answer (literals or actions) in its template's English, in the
    stored order; as stored (PDDL) when the record's domain has no template acp knows."""
    items = [str(i) for i in record["answer"]] if isinstance(record["answer"], list) else [str(record["answer"])]
    describer = describer_of(record) if "PDDL_domain" in record else None
    if describer is None:
        return items
    if rq.GEN_VARIANTS.get(str(record.get("category")), {}).get(str(record.get("variant"))) == rq.ACTIONS:
        return [describer.action(i) for i in items]
    return [_english_literal(describer, i) for i in items]


def read_back(ctx: RecordContext, task: str, category: str, variants: tuple[str, ...]) -> Asked | Check:
    """The question of a record as its text asks it (:func:`acpgen.nl.asked.read_asked`), read with the
    domain template's texts and words (PDDL syntax and the shared questions without a template); the
    check's verdict instead when there is none to read: WRONG for a text acp does not write, UNPROVEN for
    English without a template to read it (:func:`~acpgen.tasks.base.missing_template`)."""
    lifted = ctx.lifted
    template = template_of(ctx.record, lifted)
    if template is None and ctx.record.get("representation", "nl") != "pddl":
        return Check(UNPROVEN, f"the question is not read back: {missing_template(ctx.record, lifted)}")
    questions = template.questions if template is not None else load_questions()
    try:
        return read_asked(questions, task, category, ctx.record, ctx.reader, lifted, variants)
    except NotRead as err:
        return Check(WRONG, f"the question text is not read back: {err}")


def _normal_answer(value: Any) -> Any:
    if isinstance(value, list):
        return sorted(str(s).lower() for s in value)
    return value.lower() if isinstance(value, str) else value


class SequenceChoice(ChoiceFormats):
    """Boolean and multiple-choice questions: one claim about the sequence (``SequenceClaim``)."""

    def __init__(self, category: str, groups: str):
        self.category = category
        self.bool_group = f"{groups}_bool"  # type: ignore[misc]
        self.mcq_group = f"{groups}_mcq"  # type: ignore[misc]
        self.bool_variants = rq.BOOL_VARIANTS[category]  # type: ignore[misc]
        self.mcq_variants = rq.BOOL_VARIANTS[category]  # type: ignore[misc]

    def claims(self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig) -> Claims | None:
        about = rng.choice(rq.BOOL_VARIANTS[self.category])
        drawn = draw_question(ctx, item, rng, self.category, about, settings)
        if drawn is None:
            return None
        ctx, pddl, types, q = drawn
        world = core_world(ctx, types)
        true: list[Any] = []
        false: list[Any] = []
        if about in ("holds", "holds_before", "holds_after", "all_hold"):
            states = world.run(list(q.sequence))[0]
            facts = states[-1]
            if about == "holds_after":
                after = world.step(facts, q.action or "")
                if after is None:
                    return None
                facts = after
            atoms = rq._relevant(world, q)
            if about == "holds_after":  # the action's effects first: they are what the question is about
                changed = [a for a in atoms if (a in facts) != (a in states[-1])]
                atoms = changed + rng.sample(atoms, min(6, len(atoms)))
            lits = [a if a in facts else rq.negated(a) for a in atoms]
            wrong = [rq.negated(a) if a in facts else a for a in atoms]
            if about == "all_hold":
                if len(lits) < 3:
                    return None
                for _ in range(4):
                    chosen = rng.sample(range(len(lits)), 3)
                    true.append(sorted(lits[i] for i in chosen))
                    false.append(sorted([lits[i] for i in chosen[:2]] + [wrong[chosen[2]]]))
            else:
                picks = rng.sample(range(len(lits)), min(6, len(lits)))
                true, false = [lits[i] for i in picks], [wrong[i] for i in picks]
        elif about == "first":
            first = rq.answer(world, q)[0]
            true, false = [first], sorted(set(q.sequence) - {first})
        elif about == "executable":
            if self.category == "executability":
                final = world.run(list(q.sequence))[0][-1]
                options = world.executable(final)
                true = rng.sample(options, min(4, len(options)))
                blocked = [a.name for a in ctx.task.actions if a.name not in set(options)]
                false = rng.sample(blocked, min(4, len(blocked)))
            else:
                count = rq.answer(world, q)
                true, false = [count], [count + d for d in (-2, -1, 1, 2, 3) if count + d >= 0]
        elif about == "object_true":
            count = rq.answer(world, q)
            true, false = [count], [count + d for d in (-2, -1, 1, 2, 3) if count + d >= 0]
        else:
            raise DataError(f"unknown claim {about!r}")
        if not true and not false:
            return None
        shared = {**{k: v for k, v in q.fields(types).items() if k != "variant"}, **pddl}
        return Claims([SequenceClaim(about, v) for v in true], [SequenceClaim(about, v) for v in false], shared=shared)

    def decide(self, ctx: RecordContext, claim: Claim) -> Decision:
        c = expect(claim, SequenceClaim)
        q = rq.Question.of_record(ctx.record, variant=c.about)
        try:
            value = rq.claim_holds(lifted_world(ctx, fluent_types(ctx)), q, c.about, c.value)
        except DataError as err:
            return Decision(None, Method.SIMULATOR, str(err))
        return Decision(value, Method.SIMULATOR)

    def words(self, describer: Words, record: dict[str, Any], claim: Claim) -> dict[str, str]:
        c = expect(claim, SequenceClaim)
        values = _values(record, describer, pddl_actions=False)
        if isinstance(c.value, list):
            values["value"] = join_names([_english_literal(describer, lit) for lit in c.value])
        elif isinstance(c.value, int):
            values["value"] = str(c.value)
        elif c.about in ("first", "executable"):
            values["value"] = describer.action(c.value)
        else:
            values["value"] = _english_literal(describer, c.value)
        return values

    def variant(self, claim: Claim) -> str:
        return expect(claim, SequenceClaim).about

    def check_text(self, ctx: RecordContext, record: dict[str, Any]) -> Check:
        """Decide the claims again from the question as its text asks it (not from the record's fields)."""
        asked = read_back(ctx, str(record.get("task")), self.category, rq.BOOL_VARIANTS[self.category])
        if isinstance(asked, Check):
            return asked
        q = asked.question
        world = lifted_world(ctx, fluent_types(ctx))
        if record.get("format") == "bool":
            expected = [record.get("answer") == "yes"]
        else:
            expected = [label == record.get("answer") for label in LABELS[: len(asked.values)]]
        for position, (value, truth) in enumerate(zip(asked.values, expected)):
            try:
                holds = rq.claim_holds(world, q, q.variant, value)
            except DataError as err:
                return Check(WRONG, f"the question as written cannot be answered: {err}")
            if holds != truth:
                where = "" if record.get("format") == "bool" else f"option {LABELS[position]}: "
                return Check(WRONG, f"{where}as written, {value} is {'true' if holds else 'false'}")
        return Check(OK)

    def read_reference(
        self, fmt: str, question: str, options: list[str], match: Matcher
    ) -> tuple[list[Claim], dict[str, Any]]:
        raise DataError("the reference ACPBench has no reasoning-about-actions questions")


def _values(record: dict[str, Any], words: Words, pddl_actions: bool) -> dict[str, str]:
    """Placeholder values shared by the free-answer and boolean texts."""
    show = (lambda a: a) if pddl_actions else words.action
    values = {
        "sequence": ", ".join(show(a) for a in record["sequence"]),
        "length": str(len(record["sequence"])),
        "properties": property_words(record.get("fluent_type")),
    }
    if record.get("object"):
        values["object"] = record["object"]
    if record.get("action"):
        values["action"] = show(record["action"])
    return values


class SequenceTask(Task):
    """A category of questions about an action sequence (see the module docstring)."""

    family = "rac"
    context_parts = ()
    question_fields = ("sequence",)
    difficulty_steps = "sequence"

    def __init__(self, category: str, name: str, groups: str, description: str, instruction: str):
        self.category = category
        self.name = name  # type: ignore[misc]
        self.gen_group = f"{groups}_gen"  # type: ignore[misc]
        self.description = description  # type: ignore[misc]
        self.instruction = instruction  # type: ignore[misc]
        self.choice = SequenceChoice(category, groups)  # type: ignore[misc]

    def accepts(self, state: dict[str, Any]) -> bool:
        """A state where some action applies: every question here is about a sequence of one or more
        actions from it (in alfworld, about half of the sampled states come after the goal's validation,
        where nothing applies)."""
        return bool(state.get("applicable", 1))

    # ----- generation ---------------------------------------------------------------------------
    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        variant = rng.choice(sorted(rq.GEN_VARIANTS[self.category]))
        drawn = draw_question(ctx, item, rng, self.category, variant, settings)
        if drawn is None:
            return None
        ctx, pddl, types, q = drawn
        world = core_world(ctx, types)
        if rq.surely_unfit(world, q, MAX_ITEMS):  # the check below, before the costly part of the answer
            return None
        value = rq.answer(world, q)
        if (isinstance(value, list) and not 0 < len(value) <= MAX_ITEMS) or value is None:
            return None
        return {**q.fields(types), **pddl, "answer": value}

    def required_fields(self, record: dict[str, Any]) -> tuple[str, ...]:
        fields = super().required_fields(record) + ("category", "variant", "sequence")
        variant = record.get("variant")
        if self.category == "effects":
            fields += ("action",)
        if self.category == "fluent" or variant in ("fluents_before", "object_true"):  # about one object
            fields += ("object",)
        return fields

    def kind(self, record: dict[str, Any]) -> str:
        return rq.GEN_VARIANTS[self.category][record["variant"]]

    # ----- scoring ----------------------------------------------------------------------------
    def parse(self, response: str) -> str:
        """The answer section of the response (read once, here)."""
        section = answer_section(response)
        if not section.strip():
            raise ParseError("empty answer")
        return section

    def expected(self, ctx: RecordContext) -> Any:
        if ctx.recheck:
            return rq.answer(core_world(ctx, fluent_types(ctx)), rq.Question.of_record(ctx.record))
        return ctx.answer

    def score(self, ctx: RecordContext, answer: str) -> Verdict:
        kind, expected = self.kind(ctx.record), self.expected(ctx)
        if kind == rq.NUMBER:
            number = number_in(answer)
            if number is None:
                return Verdict.parse_error("no number in the answer")
            return Verdict.correct() if number == int(expected) else Verdict.wrong(f"expected {expected}, got {number}")
        reading = ctx.reader.read_section(answer, atoms=kind == rq.LITERALS)
        if not reading.items and not reading.none:
            what = "fluent" if kind == rq.LITERALS else "action"
            return Verdict.parse_error(f"the answer names no known {what}")
        items = self._normalise(ctx.record["variant"], reading.items)
        unread = reading.unread + reading.outside
        return set_verdict(items, {str(e).lower() for e in expected}, unread, ctx.options.strict_reading)

    @staticmethod
    def _normalise(variant: str, items: list[str]) -> set[str]:
        """Literals as the question asks for them: listing an atom when asked for the false ones names
        it as false; effects are atoms (made true, or made false) whatever the polarity written."""
        if variant == "false":
            return {i if not literal_atom(i)[1] else rq.negated(i) for i in items}
        if variant in ("added", "deleted"):
            return {literal_atom(i)[0] for i in items}
        return set(items)

    def validate(self, ctx: RecordContext) -> Check:
        try:
            types = fluent_types(ctx)
        except DataError as err:
            return Check(UNPROVEN, str(err))
        world = lifted_world(ctx, types)
        try:
            proven = rq.answer(world, rq.Question.of_record(ctx.record))
        except DataError as err:
            return Check(WRONG, str(err))
        stored = _normal_answer(ctx.answer)
        if proven != stored:
            return Check(WRONG, f"the separate interpreter gives {proven}, stored {stored}")
        if "question" not in ctx.record:  # a qa-stage record: no text yet
            return Check(OK)
        return self._check_text(ctx, world, stored)

    def _check_text(self, ctx: RecordContext, world: LiftedWorld, stored: Any) -> Check:
        """The answer to the question as its text asks it must be the stored one."""
        asked = read_back(ctx, self.name, self.category, tuple(rq.GEN_VARIANTS[self.category]))
        if isinstance(asked, Check):
            return asked
        try:
            from_text = _normal_answer(rq.answer(world, asked.question))
        except DataError as err:
            return Check(WRONG, f"the question as written cannot be answered: {err}")
        if from_text == stored:
            return Check(OK)
        disagree = "; ".join(differences(asked.question, rq.Question.of_record(ctx.record)))
        return Check(WRONG, f"the question as written has the answer {from_text}, stored {stored} ({disagree})")

    def to_responses(self, record: dict[str, Any]) -> list[str]:
        """The stored answer in PDDL syntax, and in the template's English when the domain has one."""
        answer, kind = record["answer"], self.kind(record)
        if kind == rq.NUMBER:
            return [str(answer)]
        items = answer if isinstance(answer, list) else [answer]
        responses = [" ".join(items)]
        describer = describer_of(record) if "PDDL_domain" in record else None
        if describer is not None:
            if kind == rq.LITERALS:
                positive = [literal_atom(i)[0] for i in items if literal_atom(i)[1]]
                negative = [i for i in items if not literal_atom(i)[1]]
                clauses = describer.clauses(positive) + [_english_literal(describer, i) for i in negative]
                responses.append("; ".join(clauses) + ".")
            else:
                responses.append("; ".join(describer.action(i) for i in items) + ".")
        return responses

    # ----- text and export -------------------------------------------------------------------------
    def question_keys(self) -> list[str]:
        keys = [f"{self.name}.{v}" for v in rq.GEN_VARIANTS[self.category]]
        return keys + self.choice_formats().question_keys(self.name)

    def question_values(self, record: dict[str, Any], words: Words, pddl_actions: bool) -> dict[str, str]:
        return _values(record, words, pddl_actions)

    def export_answer(self, answer: Any, case: ActionCase) -> Any:
        if self.category == "executability":
            return [case(a) for a in answer] if isinstance(answer, list) else case(answer)
        return answer

    def answer_elements(self, answer: Any) -> set[Any] | None:
        return None

    def stored_elements(self, record: dict[str, Any]) -> set[Any] | None:
        return None


def set_verdict(given: set[str], expected: set[str], unread: list[str], strict: bool = False) -> Verdict:
    """Exact match of two sets, with precision, recall and F1 (:mod:`acpgen.tasks.measures`) in the details.
    Parts read as nothing are named in the reason; with ``strict`` (the reading for rewards) they make
    the answer wrong (:func:`acpgen.tasks.base.readings`: the other reading's verdict in the details)."""
    details = set_measures(given, expected).as_details()
    if given == expected:
        return readings(Verdict(1.0, Verdict.correct().status, "correct", details), unread, strict)
    note = f"; {len(unread)} part(s) read as nothing: {unread[0]!r}" if unread else ""
    missing, extra = sorted(expected - given), sorted(given - expected)
    reason = f"{len(missing)} missing{f' (e.g. {missing[0]})' if missing else ''}, {len(extra)} wrong"
    reason += f"{f' (e.g. {extra[0]})' if extra else ''}{note}"
    return Verdict(0.0, Verdict.wrong("").status, reason, details)
