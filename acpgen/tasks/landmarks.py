"""land: a non-trivial fact landmark (an atom every plan makes true, not in the state or goal), or None.

Atoms in the state or the goal are trivial and score 0; atoms that name no type-correct ground
atom score 0 (``unknown_atom``). Stored ``yes`` atoms score 1 and stored ``no`` atoms 0 unless
``--recheck`` is given; any other atom is decided by the oracle on the "p never achieved"
compilation of the paper (or exactly, by exhaustive exploration, for small tasks).
"""

from __future__ import annotations

from acpgen.answers import parse_atom_or_none
from acpgen.tasks.base import RecordContext, Task, Verdict, lowered


def is_trivial(ctx: RecordContext, atom: str) -> bool:
    bit = 1 << ctx.task.atom_id(atom)
    return bool(ctx.task.init & bit or ctx.task.goal_pos & bit)


def some_landmark(ctx: RecordContext) -> tuple[str | None, bool]:
    """A non-trivial landmark, if any (atom, decided)."""
    undecided = False
    for atom in ctx.task.fluent_atoms():
        if is_trivial(ctx, atom):
            continue
        decision = ctx.oracle.is_landmark(1 << ctx.task.atom_id(atom))
        if decision.value:
            return atom, True
        undecided |= decision.value is None
    return None, not undecided


def score(ctx: RecordContext, answer: str | None) -> Verdict:
    yes, no = set(lowered(ctx.answer["yes"])), set(lowered(ctx.answer["no"]))
    if answer is None:
        if not ctx.options.recheck:
            return Verdict.correct("stored answer is None") if not yes else Verdict.wrong("landmarks exist")
        witness, decided = some_landmark(ctx)
        if witness is not None:
            return Verdict.wrong(f"{witness} is a landmark")
        return Verdict.correct("no non-trivial landmark") if decided else Verdict.undecided("some atom undecided")
    if not ctx.task.is_valid_atom(answer):
        return Verdict.wrong(f"unknown_atom: {answer}")
    if ctx.task.is_static_atom(answer):
        return Verdict.wrong(f"static_atom: {answer} is not one of the propositions asked about")
    if is_trivial(ctx, answer):
        return Verdict.wrong("trivial landmark (holds in the state or the goal)")
    if not ctx.options.recheck:
        if answer in yes:
            return Verdict.correct("stored landmark")
        if answer in no:
            return Verdict.wrong("stored non-landmark")
    decision = ctx.oracle.is_landmark(1 << ctx.task.atom_id(answer))
    return Verdict.from_decision(decision, "landmark", "not a landmark", expect=True)


def to_responses(record: dict) -> list[str]:
    return list(record["answer"]["yes"]) or ["None"]


TASK = Task("land", "landmarks_gen", "a non-trivial fact landmark", parse_atom_or_none, score, to_responses)
