"""reach: an atom that can never hold in any state reachable from the state, or None.

An answer atom is correct when it is in the stored sample of unreachable atoms; otherwise the
oracle decides (static atoms, delete relaxation, exhaustive exploration, planner). "None" is
correct when the stored sample is empty — or, under ``--recheck``, when every type-correct atom
is proven reachable. A stored empty sample makes any atom wrong unless ``--recheck`` is given
(the paper trusts stored sets).
"""

from __future__ import annotations

import random
from typing import Any

from acpgen.config import QAConfig
from acpgen.nl.answers import parse_atom_or_none
from acpgen.proofs.claims import Claim, FactsClaim, expect
from acpgen.proofs.oracle import Decision, Method
from acpgen.tasks.base import (
    Check,
    QAItem,
    RecordContext,
    Task,
    Verdict,
    Words,
    check_each,
    find_witness,
    in_words,
    lowered,
    score_none,
)
from acpgen.tasks.choice import ChoiceFormats, Claims, Matcher, random_atoms, rollout


def stored_unreachable(ctx: RecordContext) -> set[str]:
    return {f"({a})" if not a.startswith("(") else a for a in lowered(ctx.answer)}


def some_unreachable_atom(ctx: RecordContext) -> tuple[str | None, bool]:
    """A proposition proven unreachable, if any (atom, decided); (None, True) when all are reachable (the planner
    asked first for states holding many of them at once: :meth:`~acpgen.proofs.oracle.Oracle.witness_atoms`)."""
    atoms = ctx.task.fluent_atoms()
    ctx.oracle.witness_atoms([1 << ctx.task.atom_id(a) for a in atoms])
    return find_witness(atoms, lambda a: ctx.oracle.atom_reachable(1 << ctx.task.atom_id(a)), False)


class ReachabilityChoice(ChoiceFormats):
    bool_group = "reachable_atom_bool"
    mcq_group = "reachable_atom_mc"

    def claims(self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig) -> Claims | None:
        """Facts that can hold (single facts and pairs from the end states of random walks) and facts
        that cannot: static facts that do not hold, facts unreachable in the delete relaxation, and
        pairs from the translator's mutex groups (each fact reachable alone, the pair never)."""
        task, oracle = ctx.task, ctx.oracle
        state = task.init
        true: list[Claim] = []
        for _ in range(6):
            steps = rollout(task, state, rng, rng.randint(2, 12))
            if not steps:
                break
            end = steps[-1][1] & ~task.static_mask
            new = task.atoms.atoms(end & ~state) or task.atoms.atoms(end)
            if new:
                first = rng.choice(new)
                true.append(FactsClaim([first]))
                others = [a for a in task.atoms.atoms(end) if a != first]
                if others:
                    true.append(FactsClaim(sorted([first, rng.choice(others)])))
        false: list[Claim] = []
        for atom in random_atoms(task, rng, 6, static=True):
            if not state & (1 << task.atom_id(atom)):
                false.append(FactsClaim([atom]))
        relaxed = oracle.relaxed[0]
        for atom in random_atoms(task, rng, 60):
            if not relaxed & (1 << task.atom_id(atom)) and len(false) < 12:
                false.append(FactsClaim([atom]))
        mutexes = mutex_groups(ctx)
        pairs = [sorted(rng.sample(group, 2)) for group in mutexes if len(group) >= 2]
        for pair in rng.sample(pairs, min(6, len(pairs))):
            bits = [1 << task.atom_id(a) for a in pair]
            if all(relaxed & b for b in bits) and not all(state & b for b in bits):
                false.append(FactsClaim(pair))
        return Claims(true, false)

    def decide(self, ctx: RecordContext, claim: Claim) -> Decision:
        facts = expect(claim, FactsClaim).facts
        if not all(ctx.task.is_valid_atom(a) for a in facts):
            return Decision(False, Method.STATIC, "not a type-correct atom")
        mask = 0
        for atom in facts:
            mask |= 1 << ctx.task.atom_id(atom)
        return ctx.oracle.facts_reachable(mask)

    def words(self, describer: Words, record: dict[str, Any], claim: Claim) -> dict[str, str]:
        return {"facts": " and ".join(describer.atom(a) for a in expect(claim, FactsClaim).facts)}

    def read_reference(
        self, fmt: str, question: str, options: list[str], match: Matcher
    ) -> tuple[list[Claim], dict[str, Any]]:
        texts = [match.quoted(r"the following holds: (.*)\?$", question)[0]] if fmt == "bool" else options
        return [FactsClaim(match.facts(t)) for t in texts], {}


class Reachability(Task):
    name = "reach"
    gen_group = "reachable_atom_gen"
    description = "an atom that can never become true"
    context_parts = ("propositions",)
    instruction = "Give one proposition, or None if there is none."
    choice = ReachabilityChoice()

    def parse(self, response: str) -> str | None:
        return parse_atom_or_none(response)

    def read(self, ctx: RecordContext, response: str) -> str | None:
        return in_words(parse_atom_or_none, response, lambda section: ctx.reader.first(section, atoms=True))

    def score(self, ctx: RecordContext, answer: str | None) -> Verdict:
        stored = stored_unreachable(ctx)
        if answer is None:
            return score_none(
                ctx, not stored, lambda: some_unreachable_atom(ctx), "is unreachable", "every proposition is reachable"
            )
        if not ctx.task.is_valid_atom(answer):
            return Verdict.wrong(f"unknown_atom: {answer}")
        if ctx.task.is_static_atom(answer):
            return Verdict.wrong(f"static_atom: {answer} is not one of the propositions asked about")
        if not ctx.recheck:
            if answer in stored:
                return Verdict.correct("stored unreachable atom")
            if not stored:
                return Verdict.wrong("stored answer is None")
        decision = ctx.oracle.atom_reachable(1 << ctx.task.atom_id(answer))
        return Verdict.from_decision(decision, "reachable", "unreachable", expect=False)

    def validate(self, ctx: RecordContext) -> Check:
        return check_each(ctx, self.score, sorted(stored_unreachable(ctx)) or [None])

    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        """A sample of proven-unreachable propositions, or [] when all are proven reachable."""
        atoms = ctx.task.fluent_atoms()
        decide = {a: ctx.oracle.atom_reachable(1 << ctx.task.atom_id(a), planner=False).value for a in atoms}
        open_atoms = [a for a, v in decide.items() if v is None]
        unreachable = [a for a, v in decide.items() if v is False]
        if not unreachable:
            oracle = ctx.oracle
            oracle.witness_atoms([1 << ctx.task.atom_id(a) for a in open_atoms], narrow=True)  # the records' batches
            for atom in open_atoms:  # a planner call each beyond what the batches witnessed, within the cap
                planner = oracle.planner_calls < settings.max_planner_calls
                decide[atom] = oracle.atom_reachable(1 << ctx.task.atom_id(atom), planner).value
            if any(v is None for v in decide.values()):
                return None  # in case of doubt, skip the state
            unreachable = [a for a, v in decide.items() if v is False]
        chosen = sorted(rng.sample(unreachable, min(settings.reach_stored, len(unreachable))))
        return {"answer": [a[1:-1] for a in chosen]}  # the reference writes reach atoms without parentheses

    def to_responses(self, record: dict[str, Any]) -> list[str]:
        return [f"({a})" for a in record["answer"]] or ["None"]


def mutex_groups(ctx: RecordContext) -> list[list[str]]:
    """The translator's mutex groups of the record's task (empty when the translator gives none)."""
    result = ctx.planners.mutex_groups(ctx.record["PDDL_domain"], ctx.record["PDDL_problem"], ctx.options.limits)
    return [[a for a in group if ctx.task.is_valid_atom(a)] for group in result.groups]


TASK = Reachability()
