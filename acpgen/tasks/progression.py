"""prog: which atoms become true (pos) and false (neg) when the action is applied?

Score 1 when both sets equal the stored ones. Under ``--recheck`` the stored sets are recomputed
from the record's action (structured field ``action``) or, for reference records that name the
action only in prose, confirmed by finding an applicable action with exactly those effects.
"""

from __future__ import annotations

import random
import re
from typing import Any

from acpgen.config import QAConfig
from acpgen.errors import DataError
from acpgen.nl.answers import answer_section, parse_effects
from acpgen.proofs.claims import Claim, FactClaim, FactsClaim, expect
from acpgen.proofs.oracle import Decision, Method
from acpgen.tasks.base import (
    OK,
    WRONG,
    ActionCase,
    Check,
    QAItem,
    RecordContext,
    Task,
    Verdict,
    Worded,
    Words,
    in_words,
    known_action,
    lowered,
    unknown_atoms,
    worded_set,
)
from acpgen.tasks.choice import ChoiceFormats, Claims, Matcher, random_atoms


def effects(ctx: RecordContext, name: str) -> tuple[set[str], set[str]]:
    """(atoms made true, atoms made false) by applying the named action in the record's state."""
    task = ctx.task
    before = task.init
    after = known_action(task, name).apply(before)
    return set(task.atoms.atoms(after & ~before)), set(task.atoms.atoms(before & ~after))


def expected_effects(ctx: RecordContext) -> tuple[set[str], set[str]] | None:
    """The correct (pos, neg); None when no applicable action has the stored effects."""
    stored = (set(lowered(ctx.answer["pos"])), set(lowered(ctx.answer["neg"])))
    if not ctx.recheck:
        return stored
    if ctx.record.get("action"):
        return effects(ctx, ctx.record["action"].lower())
    for action in ctx.task.applicable(ctx.task.init):
        if effects(ctx, action.name) == stored:
            return stored
    return None


class ProgressionChoice(ChoiceFormats):
    bool_group = "progression_bool"
    mcq_group = "progression_mcq"

    def claims(self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig) -> Claims | None:
        """Facts after an applicable action, from the paper's four cases (at most two of each):
        held and still hold / now hold (true); held and no longer hold / did not and still do not (false)."""
        options = [a.name for a in ctx.task.applicable(ctx.task.init) if any(effects(ctx, a.name))]
        if not options:
            return None
        action = rng.choice(options)
        task = ctx.task
        before = task.init & ~task.static_mask
        after = known_action(task, action).apply(task.init) & ~task.static_mask
        kept, added = task.atoms.atoms(before & after), task.atoms.atoms(after & ~before)
        deleted = task.atoms.atoms(before & ~after)
        absent = [a for a in random_atoms(task, rng, 30) if not (after | before) & (1 << task.atom_id(a))]

        def some(atoms: list[str], case: str) -> list[Claim]:
            return [FactClaim(a, case) for a in rng.sample(sorted(atoms), min(2, len(atoms)))]

        return Claims(
            some(kept, "kept") + some(added, "added"),
            some(deleted, "deleted") + some(absent, "absent"),
            shared={"action": action},
        )

    def decide(self, ctx: RecordContext, claim: Claim) -> Decision:
        action = ctx.task.action(ctx.record["action"])
        if action is None or not action.applicable(ctx.task.init):
            return Decision(None, Method.SIMULATOR, f"the action {ctx.record['action']} is not applicable")
        # reference options list several facts
        facts = claim.facts if isinstance(claim, FactsClaim) else [expect(claim, FactClaim).fact]
        if not all(ctx.task.is_valid_atom(f) for f in facts):
            return Decision(False, Method.SIMULATOR)
        after = action.apply(ctx.task.init)
        return Decision(all(after & (1 << ctx.task.atom_id(f)) for f in facts), Method.SIMULATOR)

    def words(self, describer: Words, record: dict[str, Any], claim: Claim) -> dict[str, str]:
        return {"fact": describer.atom(expect(claim, FactClaim).fact), "action": describer.action(record["action"])}

    def read_reference(
        self, fmt: str, question: str, options: list[str], match: Matcher
    ) -> tuple[list[Claim], dict[str, Any]]:
        if fmt == "bool":
            pattern = r'Will the fact "(.*)" hold after performing the action "(.*)" in the current'
            fact, action = match.quoted(pattern, question)
            claims: list[Claim] = [FactsClaim(match.facts(fact))]
        else:
            (action,) = match.quoted(r'after performing the action "(.*?)" in the current state', question)
            claims = [FactsClaim(match.facts(o)) for o in options]
        return claims, {"action": match.action(action)}


# "Positive effects: ... Negative effects: ...", and the other names of the two lists, as labels of effects
# written in words
_LABEL = re.compile(
    r"\b(?:(positive|add(?:ed)?)|(negative|del(?:ete|eted)?))\s+(?:effects?|list)\b\s*(?:are|is|:|-)?", re.IGNORECASE
)

_NONE = re.compile(r"[\s.:;,*-]*(?:none|nothing|\[\s*\])[\s.;,*]*", re.IGNORECASE)  # a label's empty list


def _worded_effects(ctx: RecordContext, section: str) -> tuple[list[str], list[str]] | None:
    """The positive and negative effects of an answer that labels them and writes them in the template's
    words ("Positive effects: the ferry is at location l2. Negative effects: ..."); None unless both labels
    are there and each list names facts or says none."""
    labels = list(_LABEL.finditer(section))
    lists: dict[bool, Worded] = {}
    for number, label in enumerate(labels):
        end = labels[number + 1].start() if number + 1 < len(labels) else len(section)
        text = section[label.end() : end]
        found = Worded([]) if _NONE.fullmatch(text) else worded_set(ctx, text, atoms=True)
        if found is not None:
            lists[label.group(1) is not None] = found
    if set(lists) != {True, False}:
        return None
    return Worded([lists[True], lists[False]], lists[True].unread + lists[False].unread)  # type: ignore[return-value]


class Progression(Task):
    name = "prog"
    gen_group = "progression_gen"
    description = "positive and negative effects of an action"
    context_parts = ("propositions",)
    instruction = "Give only the two lists of ground propositions, the positive effects first."
    question_fields = ("action",)
    choice = ProgressionChoice()

    def parse(self, response: str) -> tuple[list[str], list[str]]:
        return parse_effects(response)

    def read(self, ctx: RecordContext, response: str) -> tuple[list[str], list[str]]:
        answer = in_words(parse_effects, response, lambda section: _worded_effects(ctx, section))
        if answer == ([], []):  # labels and no atom in PDDL syntax after them: the lists may be in words
            worded = _worded_effects(ctx, answer_section(response))
            if worded is not None:
                return worded
        return answer

    def score(self, ctx: RecordContext, answer: tuple[list[str], list[str]]) -> Verdict:
        pos, neg = answer
        unknown = unknown_atoms(ctx.task, [*pos, *neg])
        if unknown:
            return Verdict.wrong(f"unknown_atom: {unknown[0]}")
        expected = expected_effects(ctx)
        if expected is None:
            return Verdict.wrong("stored effects match no applicable action")
        if (set(pos), set(neg)) == expected:
            return Verdict.correct()
        if (set(neg), set(pos)) == expected:
            return Verdict.wrong("positive and negative effects swapped")
        return Verdict.wrong("effects differ")

    def validate(self, ctx: RecordContext) -> Check:
        stored = (set(lowered(ctx.answer["pos"])), set(lowered(ctx.answer["neg"])))
        if expected_effects(ctx) == stored:
            return Check(OK)
        return Check(
            WRONG,
            "the stored effects are not those of the record's action"
            if ctx.record.get("action")
            else "no applicable action has the stored effects",
        )

    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        options = [a.name for a in ctx.task.applicable(ctx.task.init) if any(effects(ctx, a.name))]
        if not options:
            return None
        action = rng.choice(options)
        pos, neg = effects(ctx, action)
        return {"action": action, "answer": {"pos": sorted(pos), "neg": sorted(neg)}}

    def to_responses(self, record: dict[str, Any]) -> list[str]:
        answer = record["answer"]
        return [
            "Positive effects: "
            + (" ".join(answer["pos"]) or "None")
            + "\nNegative effects: "
            + (" ".join(answer["neg"]) or "None")
        ]

    def export_answer(self, answer: Any, case: ActionCase) -> Any:
        return {"pos": answer["pos"], "neg": answer["neg"]}  # the reference key order

    def answer_elements(self, answer: Any) -> set[Any]:
        """(``pos`` | ``neg``, atom) pairs: an effect on the wrong side is both missing and wrong."""
        pos, neg = answer
        return {("pos", a) for a in pos} | {("neg", a) for a in neg}

    def stored_elements(self, record: dict[str, Any]) -> set[Any]:
        stored = record.get("answer")
        if not isinstance(stored, dict):
            raise DataError(f"prog record {record.get('id')}: the stored answer is not a {{pos, neg}} object")
        return self.answer_elements((lowered(stored.get("pos", [])), lowered(stored.get("neg", []))))


TASK = Progression()
