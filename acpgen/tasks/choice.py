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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from acpgen.answers import ParseError, parse_choice, parse_yes_no
from acpgen.oracle import Decision
from acpgen.tasks.base import (
    OK,
    PARSE_ERROR,
    UNPROVEN,
    WRONG,
    Check,
    QAItem,
    RecordContext,
    Verdict,
)

FORMATS = ("bool", "mcq")
LABELS = ("A", "B", "C", "D")


@dataclass(frozen=True)
class Claims:
    """What a task can say about one state: claims proven true, claims proven false, shared fields.

    ``fixed``: tasks whose options never change (val: the four verdicts on one sequence) give all
    options here with their truth, in their fixed order; ``alternatives`` offers several such
    questions (val: one sequence per verdict) so that the correct position can be chosen.
    """

    true: list[dict] = field(default_factory=list)
    false: list[dict] = field(default_factory=list)
    shared: dict = field(default_factory=dict)
    fixed: list[tuple[dict, bool]] | None = None
    alternatives: list[Claims] | None = None  # val: one Claims with ``fixed`` options per sequence


@dataclass(frozen=True)
class ChoiceSpec:
    """A task's boolean and multiple-choice formats.

    ``claims(ctx, item, rng, settings)``: claims about the record's state, or None to skip it.
    ``decide(ctx, claim)``: an independent proof of one claim (True/False, or undecided).
    ``variant(claim)``: claims of one MCQ share it (just: single actions or pairs); it also selects
    the question text (``bool.just.pair``).
    ``words(describer, record, claim)``: the values a question template needs for a claim.
    """

    bool_group: str
    mcq_group: str
    claims: Callable[[RecordContext, QAItem, random.Random, Any], Claims | None]
    decide: Callable[[RecordContext, dict], Decision]
    words: Callable[[Any, dict, dict], dict]
    variant: Callable[[dict], str] = lambda claim: ""


def rollout(task, state: int, rng: random.Random, length: int) -> list[tuple[str, int]]:
    """A random walk from ``state``: (action name, state after it) per step; stops at dead ends."""
    steps = []
    for _ in range(length):
        options = task.successors(state)
        if not options:
            break
        _, action = rng.choice(options)
        state = action.apply(state)
        steps.append((action.name, state))
    return steps


def _random_groundings(task, rng: random.Random, signatures, count: int, tries: int, keep) -> list[str]:
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


def random_actions(task, rng: random.Random, count: int, tries: int = 400) -> list[str]:
    """Up to ``count`` distinct type-correct ground action names drawn at random (any schema)."""
    signatures = [(s.name, [t for _, t in s.params]) for s in task.lifted.schemas.values()]
    return _random_groundings(task, rng, signatures, count, tries, lambda n: task.action(n) is not None)


def random_atoms(task, rng: random.Random, count: int, static: bool = False, tries: int = 400) -> list[str]:
    """Up to ``count`` distinct type-correct atoms of fluent (or, with ``static``, static) predicates."""
    signatures = [
        (p, types)
        for p, types in sorted(task.lifted.predicates.items())
        if p != "=" and (p in task.static_predicates) == static
    ]
    return _random_groundings(task, rng, signatures, count, tries, lambda a: True)


def wrong_action(item: QAItem, task, rng: random.Random) -> dict | None:
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
    return {"wrong": index, "args": args}


def pick_bool(claims: Claims, want: bool, rng: random.Random) -> tuple[dict, bool, dict] | None:
    """One claim with the wanted truth and the shared fields of its question; None if there is none."""
    options = [(c, True, claims.shared) for c in claims.true] + [(c, False, claims.shared) for c in claims.false]
    for alt in claims.alternatives or ():
        options += [(c, True, alt.shared) for c in alt.true] + [(c, False, alt.shared) for c in alt.false]
    wanted = [o for o in options if o[1] == want]
    return rng.choice(wanted) if wanted else None


def pick_mcq(
    claims: Claims, position: int, spec: ChoiceSpec, rng: random.Random
) -> tuple[list[dict], int, dict] | None:
    """Four distinct options, exactly one true, at ``position``; and the question's shared fields.

    Fixed options keep their order, so the alternative whose true option sits at ``position`` is
    taken (val: the sequence whose verdict is the wanted one).
    """
    for alternative in claims.alternatives or ():
        truths = [t for _, t in alternative.fixed or ()]
        if len(truths) == 4 and truths.count(True) == 1 and truths.index(True) == position:
            return [c for c, _ in alternative.fixed], position, alternative.shared
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


def _distinct(claims: list[dict]) -> list[dict]:
    seen, out = set(), []
    for claim in claims:
        key = repr(sorted(claim.items()))
        if key not in seen:
            seen.add(key)
            out.append(claim)
    return out


def verify(spec: ChoiceSpec, ctx: RecordContext, record: dict) -> Check:
    """Re-decide the claims of a stored bool or mcq record."""
    if record.get("format") == "bool":
        expected = record["answer"] == "yes"
        return _check_claim(spec, ctx, record["claim"], expected)
    options = record["options"]
    correct = LABELS.index(record["answer"])
    if len({repr(sorted(o.items())) for o in options}) != len(options):
        return Check(WRONG, "two options are the same")
    for position, option in enumerate(options):
        check = _check_claim(spec, ctx, option, position == correct, f"option {LABELS[position]}: ")
        if check.verdict != OK:
            return check
    return Check(OK)


def _check_claim(spec: ChoiceSpec, ctx: RecordContext, claim: dict, expected: bool, prefix: str = "") -> Check:
    decision = spec.decide(ctx, claim)
    if decision.value is None:
        return Check(UNPROVEN, f"{prefix}{claim}: {decision.detail or 'undecided'}")
    if decision.value != expected:
        return Check(WRONG, f"{prefix}{claim} is {'true' if decision.value else 'false'} ({decision.method})")
    return Check(OK)


def score_response(record: dict, fmt: str, response: str) -> Verdict:
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
        return Verdict(0.0, PARSE_ERROR, f"parse_error: {err}")
    return (
        Verdict.correct(f"answered {given}") if given == gold else Verdict.wrong(f"answered {given}, expected {gold}")
    )


def to_response(record: dict, fmt: str) -> str:
    """The stored answer written as a model would end its answer."""
    answer = str(record["answer"])
    return f"**Final Answer**: {answer.capitalize() if fmt == 'bool' else answer.upper()}."
