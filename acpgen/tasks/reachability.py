"""reach: an atom that can never hold in any state reachable from the state, or None.

An answer atom is correct when it is in the stored sample of unreachable atoms; otherwise the
oracle decides (static atoms, delete relaxation, exhaustive exploration, planner). "None" is
correct when the stored sample is empty — or, under ``--recheck``, when every type-correct atom
is proven reachable. A stored empty sample makes any atom wrong unless ``--recheck`` is given
(the paper trusts stored sets).
"""

from __future__ import annotations

from acpgen.answers import parse_atom_or_none
from acpgen.oracle import Decision
from acpgen.tasks.base import (
    Check,
    RecordContext,
    Task,
    Verdict,
    check_each,
    find_witness,
    lowered,
    score_none,
)
from acpgen.tasks.choice import ChoiceSpec, Claims, random_atoms, rollout


def stored_unreachable(ctx: RecordContext) -> set[str]:
    return {f"({a})" if not a.startswith("(") else a for a in lowered(ctx.answer)}


def some_unreachable_atom(ctx: RecordContext) -> tuple[str | None, bool]:
    """A proposition proven unreachable, if any (atom, decided); (None, True) when all are reachable."""
    return find_witness(ctx.task.fluent_atoms(), lambda a: ctx.oracle.atom_reachable(1 << ctx.task.atom_id(a)), False)


def score(ctx: RecordContext, answer: str | None) -> Verdict:
    stored = stored_unreachable(ctx)
    if answer is None:
        return score_none(
            ctx, not stored, lambda: some_unreachable_atom(ctx), "is unreachable", "every proposition is reachable"
        )
    if not ctx.task.is_valid_atom(answer):
        return Verdict.wrong(f"unknown_atom: {answer}")
    if ctx.task.is_static_atom(answer):
        return Verdict.wrong(f"static_atom: {answer} is not one of the propositions asked about")
    if not ctx.options.recheck:
        if answer in stored:
            return Verdict.correct("stored unreachable atom")
        if not stored:
            return Verdict.wrong("stored answer is None")
    decision = ctx.oracle.atom_reachable(1 << ctx.task.atom_id(answer))
    return Verdict.from_decision(decision, "reachable", "unreachable", expect=False)


def validate(ctx: RecordContext) -> Check:
    return check_each(ctx, score, sorted(stored_unreachable(ctx)) or [None])


def generate(ctx: RecordContext, item, rng, settings) -> dict | None:
    """A sample of proven-unreachable propositions, or [] when all are proven reachable."""
    atoms = ctx.task.fluent_atoms()
    decide = {a: ctx.oracle.atom_reachable(1 << ctx.task.atom_id(a), planner=False).value for a in atoms}
    open_atoms = [a for a, v in decide.items() if v is None]
    unreachable = [a for a, v in decide.items() if v is False]
    if not unreachable:
        for atom in open_atoms[: settings.max_planner_calls]:
            decide[atom] = ctx.oracle.atom_reachable(1 << ctx.task.atom_id(atom)).value
        if any(v is None for v in decide.values()):
            return None  # in case of doubt, skip the state
        unreachable = [a for a, v in decide.items() if v is False]
    chosen = sorted(rng.sample(unreachable, min(settings.reach_stored, len(unreachable))))
    return {"answer": [a[1:-1] for a in chosen]}  # the reference writes reach atoms without parentheses


def to_responses(record: dict) -> list[str]:
    return [f"({a})" for a in record["answer"]] or ["None"]


# ----- boolean and multiple-choice formats -----------------------------------------------------
def claims(ctx: RecordContext, item, rng, settings) -> Claims | None:
    """Facts that can hold (single facts and pairs from the end states of random walks) and facts
    that cannot: static facts that do not hold, facts unreachable in the delete relaxation, and
    pairs from the translator's mutex groups (each fact reachable alone, the pair never)."""
    task, oracle = ctx.task, ctx.oracle
    state = task.init
    true = []
    for _ in range(6):
        steps = rollout(task, state, rng, rng.randint(2, 12))
        if not steps:
            break
        end = steps[-1][1] & ~task.static_mask
        new = task.atoms.atoms(end & ~state) or task.atoms.atoms(end)
        if new:
            first = rng.choice(new)
            true.append({"facts": [first]})
            others = [a for a in task.atoms.atoms(end) if a != first]
            if others:
                true.append({"facts": sorted([first, rng.choice(others)])})
    false = []
    for atom in random_atoms(task, rng, 6, static=True):
        if not state & (1 << task.atom_id(atom)):
            false.append({"facts": [atom]})
    relaxed = oracle.relaxed[0]
    for atom in random_atoms(task, rng, 60):
        if not relaxed & (1 << task.atom_id(atom)) and len(false) < 12:
            false.append({"facts": [atom]})
    mutexes = mutex_groups(ctx)
    pairs = [sorted(rng.sample(group, 2)) for group in mutexes if len(group) >= 2]
    for pair in rng.sample(pairs, min(6, len(pairs))):
        bits = [1 << task.atom_id(a) for a in pair]
        if all(relaxed & b for b in bits) and not all(state & b for b in bits):
            false.append({"facts": pair})
    return Claims(true, false)


def mutex_groups(ctx: RecordContext) -> list[list[str]]:
    """The translator's mutex groups of the record's task (empty when the translator gives none)."""
    result = ctx.oracle.planners.mutex_groups(ctx.record["PDDL_domain"], ctx.record["PDDL_problem"], ctx.options.limits)
    return [[a for a in group if ctx.task.is_valid_atom(a)] for group in result.groups]


def decide(ctx: RecordContext, claim: dict) -> Decision:
    facts = claim["facts"]
    if not all(ctx.task.is_valid_atom(a) for a in facts):
        return Decision(False, "static", "not a type-correct atom")
    mask = 0
    for atom in facts:
        mask |= 1 << ctx.task.atom_id(atom)
    return ctx.oracle.facts_reachable(mask)


def words(describer, record: dict, claim: dict) -> dict:
    return {"facts": " and ".join(describer.atom(a) for a in claim["facts"])}


CHOICE = ChoiceSpec("reachable_atom_bool", "reachable_atom_mc", claims, decide, words)

TASK = Task(
    "reach",
    "reachable_atom_gen",
    "an atom that can never become true",
    parse_atom_or_none,
    score,
    to_responses,
    validate,
    generate,
    choice=CHOICE,
)
