"""prog: which atoms become true (pos) and false (neg) when the action is applied?

Score 1 when both sets equal the stored ones. Under ``--recheck`` the stored sets are recomputed
from the record's action (structured field ``action``) or, for reference records that name the
action only in prose, confirmed by finding an applicable action with exactly those effects.
"""

from __future__ import annotations

from acpgen.answers import parse_effects
from acpgen.oracle import Decision
from acpgen.tasks.base import (
    OK,
    WRONG,
    Check,
    RecordContext,
    Task,
    Verdict,
    lowered,
    unknown_atoms,
)
from acpgen.tasks.choice import ChoiceSpec, Claims, random_atoms


def effects(ctx: RecordContext, name: str) -> tuple[set[str], set[str]]:
    """(atoms made true, atoms made false) by applying the named action in the record's state."""
    task = ctx.task
    before = task.init
    after = task.action(name).apply(before)
    return set(task.atoms.atoms(after & ~before)), set(task.atoms.atoms(before & ~after))


def expected_effects(ctx: RecordContext) -> tuple[set[str], set[str]] | None:
    """The correct (pos, neg); None when no applicable action has the stored effects."""
    stored = (set(lowered(ctx.answer["pos"])), set(lowered(ctx.answer["neg"])))
    if not ctx.options.recheck:
        return stored
    if ctx.record.get("action"):
        return effects(ctx, ctx.record["action"].lower())
    for action in ctx.task.applicable(ctx.task.init):
        if effects(ctx, action.name) == stored:
            return stored
    return None


def score(ctx: RecordContext, answer: tuple[list[str], list[str]]) -> Verdict:
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


def validate(ctx: RecordContext) -> Check:
    stored = (set(lowered(ctx.answer["pos"])), set(lowered(ctx.answer["neg"])))
    if expected_effects(ctx) == stored:
        return Check(OK)
    return Check(
        WRONG,
        "the stored effects are not those of the record's action"
        if ctx.record.get("action")
        else "no applicable action has the stored effects",
    )


def generate(ctx: RecordContext, item, rng, settings) -> dict | None:
    options = [a.name for a in ctx.task.applicable(ctx.task.init) if any(effects(ctx, a.name))]
    if not options:
        return None
    action = rng.choice(options)
    pos, neg = effects(ctx, action)
    return {"action": action, "answer": {"pos": sorted(pos), "neg": sorted(neg)}}


def to_responses(record: dict) -> list[str]:
    answer = record["answer"]
    return [
        "Positive effects: "
        + (" ".join(answer["pos"]) or "None")
        + "\nNegative effects: "
        + (" ".join(answer["neg"]) or "None")
    ]


# ----- boolean and multiple-choice formats -----------------------------------------------------
def claims(ctx: RecordContext, item, rng, settings) -> Claims | None:
    """Facts after an applicable action, from the paper's four cases (at most two of each):
    held and still hold / now hold (true); held and no longer hold / did not and still do not (false)."""
    options = [a.name for a in ctx.task.applicable(ctx.task.init) if any(effects(ctx, a.name))]
    if not options:
        return None
    action = rng.choice(options)
    task = ctx.task
    before = task.init & ~task.static_mask
    after = task.action(action).apply(task.init) & ~task.static_mask
    kept, added = task.atoms.atoms(before & after), task.atoms.atoms(after & ~before)
    deleted = task.atoms.atoms(before & ~after)
    absent = [a for a in random_atoms(task, rng, 30) if not (after | before) & (1 << task.atom_id(a))]

    def some(atoms, case):
        return [{"fact": a, "case": case} for a in rng.sample(sorted(atoms), min(2, len(atoms)))]

    return Claims(
        some(kept, "kept") + some(added, "added"),
        some(deleted, "deleted") + some(absent, "absent"),
        shared={"action": action},
    )


def decide(ctx: RecordContext, claim: dict) -> Decision:
    action = ctx.task.action(ctx.record["action"])
    if action is None or not action.applicable(ctx.task.init):
        return Decision(None, "simulator", f"the action {ctx.record['action']} is not applicable")
    facts = claim["facts"] if "facts" in claim else [claim["fact"]]  # reference mcq options list several
    if not all(ctx.task.is_valid_atom(f) for f in facts):
        return Decision(False, "simulator")
    after = action.apply(ctx.task.init)
    return Decision(all(after & (1 << ctx.task.atom_id(f)) for f in facts), "simulator")


def words(describer, record: dict, claim: dict) -> dict:
    return {"fact": describer.atom(claim["fact"]), "action": describer.action(record["action"])}


CHOICE = ChoiceSpec("progression_bool", "progression_mcq", claims, decide, words)

TASK = Task(
    "prog",
    "progression_gen",
    "positive and negative effects of an action",
    parse_effects,
    score,
    to_responses,
    validate,
    generate,
    choice=CHOICE,
)
