"""Boolean and multiple-choice questions (the ACPBench formats), built from proven claims.

A task that has these formats gives, for a sampled state, *claims* about it: small structured
statements (an action is applicable, a fact holds after an action, two facts can hold together,
...) that its generator has proven true or false, plus the fields the question shares (the
action of prog, the plan of just, the action sequence of val). A boolean question asks about one
claim; a multiple-choice question lists four claims of which exactly one is true. Before a
question is stored every claim is decided again by the task's ``decide`` (another route: the
simulator, the relaxation, exploration or a planner), and `acp validate` repeats that.

Balance: the qa stage asks for a "yes" and a "no" alternately and rotates the position of the
correct option (A-D), offset per domain, so both are balanced across a dataset.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from acpgen.config import QAConfig
from acpgen.nl.answers import ParseError, parse_choice, parse_yes_no
from acpgen.pddl.grounding import GroundTask
from acpgen.proofs.claims import Claim, WrongActionClaim, claim_from_dict
from acpgen.proofs.oracle import Decision
from acpgen.tasks.base import OK, UNPROVEN, WRONG, Check, QAItem, RecordContext, Verdict, Words

LABELS = ("A", "B", "C", "D")


@dataclass(frozen=True)
class Claims:
    """What a task can say about one state: claims proven true, claims proven false, shared fields.

    ``shared``: JSON-ready fields the question shares (the action of prog, the plan of just, the
    sequence of val). ``fixed``: tasks whose options never change (val: the four verdicts on one
    sequence) give all options here with their truth, in their fixed order; ``alternatives``
    offers several such questions (val: one sequence per verdict) so that the correct position
    can be chosen.
    """

    true: list[Claim] = field(default_factory=list)
    false: list[Claim] = field(default_factory=list)
    shared: dict[str, Any] = field(default_factory=dict)
    fixed: list[tuple[Claim, bool]] | None = None
    alternatives: list[Claims] | None = None  # val: one Claims with ``fixed`` options per sequence


class Matcher(Protocol):
    """Reads the actions and facts of a reference question's prose (see :mod:`acpgen.evaluation.reference_records`)."""

    def action(self, text: str, wrong_allowed: bool = False) -> Claim | str: ...

    def facts(self, text: str) -> list[str]: ...

    def plan(self, text: str, wrong_allowed: bool = False) -> list[Any]: ...

    def quoted(self, pattern: str, text: str) -> tuple[str, ...]: ...

    def removals(self, plan: list[Any], text: str) -> list[list[int]]: ...


class ChoiceFormats(ABC):
    """A task's boolean and multiple-choice formats (ACPBench).

    Question texts come from ``acpgen/data/templates/questions.yaml``: ``bool.<task>[.<variant>]``,
    ``mcq.<task>[.<variant>]`` and ``mcq.option.<task>[.<variant>]``, where a variant (see
    :meth:`variant`) selects one of several texts (just: single actions or pairs).
    """

    bool_group: ClassVar[str]
    mcq_group: ClassVar[str]
    #: whether bool/mcq contexts state the goal
    goal_in_context: ClassVar[bool] = False
    #: the variants of the question texts ("" when the task has one text per format)
    bool_variants: ClassVar[tuple[str, ...]] = ("",)
    mcq_variants: ClassVar[tuple[str, ...]] = ("",)

    @abstractmethod
    def claims(self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig) -> Claims | None:
        """Claims about the record's state, or None to skip it."""

    @abstractmethod
    def decide(self, ctx: RecordContext, claim: Claim) -> Decision:
        """An independent proof of one claim (True/False, or undecided)."""

    @abstractmethod
    def words(self, describer: Words, record: dict[str, Any], claim: Claim) -> dict[str, str]:
        """The values a question text needs for a claim."""

    @abstractmethod
    def read_reference(
        self, fmt: str, question: str, options: list[str], match: Matcher
    ) -> tuple[list[Claim], dict[str, Any]]:
        """The claims of a reference bool/mcq question (prose only) and the shared fields it names."""

    def variant(self, claim: Claim) -> str:
        """Claims of one multiple-choice question share it; it also selects the question text."""
        return ""

    def check_text(self, ctx: RecordContext, record: dict[str, Any]) -> Check:
        """A check of an exported record's question text against its stored answer, read back from the
        text alone (not from the record's fields); tasks whose texts name no hidden restriction keep
        the default (nothing to check)."""
        return Check(OK)

    def option_key(self, task: str, claim: Claim, variant: str) -> str:
        return f"mcq.option.{task}" + (f".{variant}" if variant else "")

    def option_keys(self, task: str) -> list[str]:
        return [f"mcq.option.{task}" + (f".{v}" if v else "") for v in self.mcq_variants]

    def question_keys(self, task: str) -> list[str]:
        keys = [f"bool.{task}" + (f".{v}" if v else "") for v in self.bool_variants]
        keys += [f"mcq.{task}" + (f".{v}" if v else "") for v in self.mcq_variants]
        return keys + self.option_keys(task)


def rollout(task: GroundTask, state: int, rng: random.Random, length: int) -> list[tuple[str, int]]:
    """A random walk from ``state``: (action name, state after it) per step; stops at dead ends."""
    steps: list[tuple[str, int]] = []
    for _ in range(length):
        options = task.successors(state)
        if not options:
            break
        _, action = rng.choice(options)
        state = action.apply(state)
        steps.append((action.name, state))
    return steps


def _random_groundings(
    task: GroundTask,
    rng: random.Random,
    signatures: Sequence[tuple[str, Sequence[str]]],
    count: int,
    tries: int,
    keep: Callable[[str], bool],
) -> list[str]:
    """Up to ``count`` distinct names ``(name obj ...)`` drawn for random signatures (name, arg types)."""
    found: set[str] = set()
    for _ in range(tries):
        if len(found) >= count or not signatures:
            break
        name, types = rng.choice(signatures)
        pools = [sorted(task.lifted.objects_of(t)) for t in types]
        if not all(pools):
            continue
        text = "(" + " ".join([name, *(rng.choice(pool) for pool in pools)]) + ")"
        if keep(text):
            found.add(text)
    return sorted(found)


def random_actions(task: GroundTask, rng: random.Random, count: int, tries: int = 400) -> list[str]:
    """Up to ``count`` distinct type-correct ground action names drawn at random (any schema)."""
    signatures = [(s.name, [t for _, t in s.params]) for s in task.lifted.schemas.values()]
    return _random_groundings(task, rng, signatures, count, tries, lambda n: task.action(n) is not None)


def random_atoms(task: GroundTask, rng: random.Random, count: int, static: bool = False, tries: int = 400) -> list[str]:
    """Up to ``count`` distinct type-correct atoms of fluent (or, with ``static``, static) predicates."""
    signatures = [
        (p, types)
        for p, types in sorted(task.lifted.predicates.items())
        if p != "=" and (p in task.static_predicates) == static
    ]
    return _random_groundings(task, rng, signatures, count, tries, lambda a: True)


def wrong_action(item: QAItem, task: GroundTask, rng: random.Random) -> WrongActionClaim | None:
    """A claim naming one of the domain's wrong-action texts with random objects of the declared types."""
    if not item.wrong_actions:
        return None
    index = rng.randrange(len(item.wrong_actions))
    args = []
    for type_name in item.wrong_actions[index]:
        objects = sorted(task.lifted.objects_of(type_name))
        if not objects:
            return None
        args.append(rng.choice(objects))
    return WrongActionClaim(index, args)


def pick_bool(claims: Claims, want: bool, rng: random.Random) -> tuple[Claim, bool, dict[str, Any]] | None:
    """One claim with the wanted truth and the shared fields of its question; None if there is none."""
    options = [(c, True, claims.shared) for c in claims.true] + [(c, False, claims.shared) for c in claims.false]
    for alt in claims.alternatives or ():
        options += [(c, True, alt.shared) for c in alt.true] + [(c, False, alt.shared) for c in alt.false]
    wanted = [o for o in options if o[1] == want]
    return rng.choice(wanted) if wanted else None


def pick_mcq(
    claims: Claims, position: int, spec: ChoiceFormats, rng: random.Random
) -> tuple[list[Claim], int, dict[str, Any]] | None:
    """Four distinct options, exactly one true, at ``position``; and the question's shared fields.

    Fixed options keep their order, so the alternative whose true option sits at ``position`` is
    taken (val: the sequence whose verdict is the wanted one).
    """
    for alternative in claims.alternatives or ():
        truths = [t for _, t in alternative.fixed or ()]
        if len(truths) == 4 and truths.count(True) == 1 and truths.index(True) == position:
            return [c for c, _ in alternative.fixed or ()], position, alternative.shared
    variants = sorted({spec.variant(c) for c in claims.true})
    rng.shuffle(variants)
    for variant in variants:
        true = [c for c in claims.true if spec.variant(c) == variant]
        false = _distinct([c for c in claims.false if spec.variant(c) == variant])
        if len(false) < 3:
            continue
        options = rng.sample(false, 3)
        options.insert(position, rng.choice(true))
        return options, position, claims.shared
    return None


def _distinct(claims: list[Claim]) -> list[Claim]:
    seen, out = set(), []
    for claim in claims:
        if claim.key() not in seen:
            seen.add(claim.key())
            out.append(claim)
    return out


def verify(spec: ChoiceFormats, ctx: RecordContext, record: dict[str, Any]) -> Check:
    """Re-decide the claims of a stored bool or mcq record."""
    if record.get("format") == "bool":
        expected = record["answer"] == "yes"
        check = _check_claim(spec, ctx, claim_from_dict(record["claim"]), expected)
    else:
        check = _check_options(spec, ctx, record)
    if check.verdict != OK or "question" not in record:
        return check
    return spec.check_text(ctx, record)


def _check_options(spec: ChoiceFormats, ctx: RecordContext, record: dict[str, Any]) -> Check:
    options = [claim_from_dict(o) for o in record["options"]]
    correct = LABELS.index(record["answer"])
    if len({o.key() for o in options}) != len(options):
        return Check(WRONG, "two options are the same")
    for position, option in enumerate(options):
        check = _check_claim(spec, ctx, option, position == correct, f"option {LABELS[position]}: ")
        if check.verdict != OK:
            return check
    return Check(OK)


def _check_claim(spec: ChoiceFormats, ctx: RecordContext, claim: Claim, expected: bool, prefix: str = "") -> Check:
    decision = spec.decide(ctx, claim)
    shown = claim.to_dict()
    if decision.value is None:
        return Check(UNPROVEN, f"{prefix}{shown}: {decision.detail or 'undecided'}")
    if decision.value != expected:
        return Check(WRONG, f"{prefix}{shown} is {'true' if decision.value else 'false'} ({decision.method})")
    return Check(OK)


def score_response(record: dict[str, Any], fmt: str, response: str) -> Verdict:
    """Score a boolean or multiple-choice response against the record's stored answer."""
    gold = str(record.get("answer", "")).strip()
    try:
        if fmt == "bool":
            given = parse_yes_no(response)
            gold = gold.lower()
        else:
            choices = record.get("choices") or {}
            given = parse_choice(response, choices.get("text") if isinstance(choices, dict) else None)
            gold = gold.upper()
    except ParseError as err:
        return Verdict.parse_error(str(err))
    return (
        Verdict.correct(f"answered {given}") if given == gold else Verdict.wrong(f"answered {given}, expected {gold}")
    )


def to_response(record: dict[str, Any], fmt: str) -> str:
    """The stored answer written as a model would end its answer."""
    answer = str(record["answer"])
    return f"**Final Answer**: {answer.capitalize() if fmt == 'bool' else answer.upper()}."
