"""Pipeline stages of `acp generate`, in order; each reads the previous stage's folder only.

Artefacts of domain D live under ``OUT/D/``: ``problems/*.pddl`` (stage problems),
``plans/<problem>.json`` (stage plans), ``states.jsonl`` (stage states), ``qa/<task>.jsonl`` (stage qa),
``<task>.gen.jsonl`` (stage export: the records in the reference schema).
"""

from __future__ import annotations

import json
from functools import partial

from acpgen.generation.stages import export, plans, problems, qa, states
from acpgen.generation.stages.base import StageContext, StageReport, StageWork, call_unit, run_work

#: each stage split into units (`StageWork`); the pipeline runs all domains' units of a stage together
PREPARE = {
    "problems": problems.prepare,
    "plans": plans.prepare,
    "states": states.prepare,
    "qa": qa.prepare,
    "export": export.prepare,
}


def run_stage(name: str, ctx: StageContext) -> StageReport:
    """One domain's stage, its units on ``ctx.jobs`` local processes."""
    return run_work(ctx, PREPARE[name](ctx))


#: the stages in order, each run for one domain
STAGES = {name: partial(run_stage, name) for name in PREPARE}


def count_artefacts(ctx: StageContext) -> dict[str, int]:
    """Problems (and, apart, those no plan solves), stored plans, states (theirs included) and questions of a domain's
    output folder."""
    plan_count = sum(len(json.loads(p.read_text())["plans"]) for p in sorted(ctx.plans_dir.glob("*.json")))
    states, apart = (
        path.read_text().count("\n") if path.exists() else 0
        for path in (ctx.states_file, ctx.unsolvable_dir / "states.jsonl")
    )
    questions = sum(len(p.read_text().splitlines()) for p in sorted((ctx.root / "qa").glob("*.jsonl")))
    unsolvable = len(list(ctx.unsolvable_dir.glob("u*.pddl")))
    return {
        "questions": questions,
        "problems": len(ctx.problem_files()),
        "unsolvable": unsolvable,
        "plans": plan_count,
        "states": states + apart,
        "unsolvable_states": apart,
    }


__all__ = ["PREPARE", "STAGES", "StageContext", "StageReport", "StageWork", "call_unit", "count_artefacts"]
