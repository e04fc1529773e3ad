"""land: a non-trivial fact landmark (an atom every plan makes true, not in the state or goal), or None.

Atoms in the state or the goal are trivial and score 0; atoms that name no type-correct ground
atom score 0 (``unknown_atom``). Stored ``yes`` atoms score 1 and stored ``no`` atoms 0 unless
``--recheck`` is given; any other atom is decided by the oracle on the "p never achieved"
compilation of the paper (or exactly, by exhaustive exploration, for small tasks).
"""

from __future__ import annotations

import random
from typing import Any

from acpgen.config import QAConfig
from acpgen.nl.answers import parse_atom_or_none
from acpgen.nl.reference.base import ReadError
from acpgen.pddl.grounding import GroundTask
from acpgen.proofs.claims import Claim, FactClaim, expect
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
    check_each,
    find_witness,
    goal_ahead,
    in_words,
    lowered,
    score_none,
)
from acpgen.tasks.choice import ChoiceFormats, Claims, Matcher


def trivial_atoms(task: GroundTask) -> int:
    """The atoms no question asks about as landmarks: those of the state and of the goal."""
    return task.init | task.goal_pos


def is_trivial(ctx: RecordContext, atom: str) -> bool:
    return bool(trivial_atoms(ctx.task) & 1 << ctx.task.atom_id(atom))


def some_landmark(ctx: RecordContext) -> tuple[str | None, bool]:
    """A non-trivial landmark, if any (atom, decided)."""
    candidates = (a for a in ctx.task.fluent_atoms() if not is_trivial(ctx, a))
    return find_witness(candidates, lambda a: ctx.oracle.is_landmark(1 << ctx.task.atom_id(a)), True)


class LandmarksChoice(ChoiceFormats):
    bool_group = "landmarks_bool"
    mcq_group = "landmarks_mcq"
    goal_in_context = True

    def claims(self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig) -> Claims | None:
        """Non-trivial propositions classified as landmarks (true) or not (false), as for the gen task;
        goal facts not yet true stand in for the landmarks where there are no others."""
        fields = TASK.generate(ctx, item, rng, settings)
        if fields is None:
            return None
        answer = fields["answer"]
        landmarks = answer["yes"]
        if not landmarks:
            # Some domains (swap) have no non-trivial landmarks at all: goal facts that do not hold yet
            # are landmarks by definition, so the question still has a true option.
            task = ctx.task
            landmarks = list(task.atoms.atoms(task.goal_pos & ~task.init))
        return Claims([FactClaim(a) for a in landmarks], [FactClaim(a) for a in answer["no"]])

    def decide(self, ctx: RecordContext, claim: Claim) -> Decision:
        atom = expect(claim, FactClaim).fact
        if not ctx.task.is_valid_atom(atom):
            return Decision(False, Method.STATIC, f"{atom} is not a type-correct atom")
        if is_trivial(ctx, atom):
            return Decision(True, Method.TRIVIAL, "holds in the state or the goal")  # acp's own claims avoid these
        return ctx.oracle.is_landmark(1 << ctx.task.atom_id(atom))

    def words(self, describer: Words, record: dict[str, Any], claim: Claim) -> dict[str, str]:
        return {"fact": describer.atom(expect(claim, FactClaim).fact)}

    def read_reference(
        self, fmt: str, question: str, options: list[str], match: Matcher
    ) -> tuple[list[Claim], dict[str, Any]]:
        texts = [match.quoted(r"for the current state\? (.*)$", question)[0]] if fmt == "bool" else options
        claims: list[Claim] = []
        for text in texts:
            facts = match.facts(text)
            if len(facts) != 1:
                raise ReadError(f"'{text}' is not one fact")
            claims.append(FactClaim(facts[0]))
        return claims, {}


class Landmarks(Task):
    name = "land"
    gen_group = "landmarks_gen"
    description = "a non-trivial fact landmark"
    context_parts = ("goal", "propositions")
    instruction = "Give one ground proposition, or None if there is none."
    choice = LandmarksChoice()

    def accepts(self, state: dict[str, Any]) -> bool:
        return goal_ahead(state)

    def parse(self, response: str) -> str | None:
        return parse_atom_or_none(response)

    def read(self, ctx: RecordContext, response: str) -> str | None:
        return in_words(parse_atom_or_none, response, lambda section: ctx.reader.first(section, atoms=True))

    def score(self, ctx: RecordContext, answer: str | None) -> Verdict:
        yes, no = set(lowered(ctx.answer["yes"])), set(lowered(ctx.answer["no"]))
        if answer is None:
            return score_none(ctx, not yes, lambda: some_landmark(ctx), "is a landmark", "no non-trivial landmark")
        if not ctx.task.is_valid_atom(answer):
            return Verdict.wrong(f"unknown_atom: {answer}")
        if ctx.task.is_static_atom(answer):
            return Verdict.wrong(f"static_atom: {answer} is not one of the propositions asked about")
        if is_trivial(ctx, answer):
            return Verdict.wrong("trivial landmark (holds in the state or the goal)")
        if not ctx.recheck:
            if answer in yes:
                return Verdict.correct("stored landmark")
            if answer in no:
                return Verdict.wrong("stored non-landmark")
        decision = ctx.oracle.is_landmark(1 << ctx.task.atom_id(answer))
        return Verdict.from_decision(decision, "landmark", "not a landmark", expect=True)

    def validate(self, ctx: RecordContext) -> Check:
        check = check_each(ctx, self.score, sorted(set(lowered(ctx.answer["yes"]))) or [None])
        if check.verdict != OK:
            return check
        trivial = trivial_atoms(ctx.task)
        for atom in sorted(set(lowered(ctx.answer["no"]))):
            bit = 1 << ctx.task.atom_id(atom) if ctx.task.is_proposition(atom) else 0
            if not bit or bit & trivial:
                return Check(WRONG, f"{atom}: not a non-trivial proposition")
            decision = ctx.oracle.is_landmark(bit)
            if decision.value is None:
                return Check(UNPROVEN, f"{atom}: {decision.detail}")
            if decision.value:
                return Check(WRONG, f"{atom} is stored as a non-landmark but is a landmark ({decision.method})")
        return Check(OK)

    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        """Every non-trivial proposition classified as landmark or not; None if one stays open."""
        task = ctx.task
        if task.is_goal(task.init) or not ctx.oracle.goal_reachable().value:
            return None
        yes: list[str] = []
        no: list[str] = []
        trivial = trivial_atoms(task)
        for atom in task.fluent_atoms():
            bit = 1 << task.atom_id(atom)
            if bit & trivial:
                continue
            if ctx.oracle.planner_calls > settings.max_planner_calls:
                return None
            decision = ctx.oracle.is_landmark(bit)
            if decision.value is None:
                return None
            (yes if decision.value else no).append(atom)
        return {"answer": {"yes": yes, "no": no}}

    def to_responses(self, record: dict[str, Any]) -> list[str]:
        return list(record["answer"]["yes"]) or ["None"]

    def export_answer(self, answer: Any, case: ActionCase) -> Any:
        return {"yes": answer["yes"], "no": answer["no"]}  # the reference key order


TASK = Landmarks()
