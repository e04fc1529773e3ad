"""Stage 1, problems: acpgen/data/domains/<D>/ + the domain's generator -> OUT/D/problems/pNNN.pddl.

Problem i (from 1) uses size ``sizes[(i - 1) % len(sizes)]`` and a random generator derived from (seed,
domain, i, attempt). Generators that cannot guarantee solvability are checked with a planner;
an unsolvable draw is redrawn with the next attempt number. Existing files are kept (resume) while
their stamp (seed, sizes, attempts, planner settings, PDDL domain, code) is unchanged.

In an obfuscated run (``obfuscate`` in the config) each problem is renamed as it is made, and its
renaming is written next to it (``pNNN.renaming.json``, :meth:`StageContext.write_problem`): every later stage
sees only the renamed PDDL, and every record carries the renaming back to the original names.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from pathlib import Path

from acpgen.artefacts import atomic_write_text
from acpgen.errors import AcpError
from acpgen.generation.stages.base import StageContext, StageReport, StageWork, Unit
from acpgen.generation.stages.user_problems import copy_user_problems
from acpgen.generation.stamps import digest_of
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.semantics import relaxed_goal_reachable
from acpgen.planners import Limits, Status


def problem_name(index: int) -> str:
    return f"p{index:03d}"


def make_problem(ctx: StageContext, index: int) -> str:
    """PDDL text of problem ``index`` (before any renaming): deterministic for the seed, solvable."""
    generator = ctx.source.generator
    if generator is None:
        raise AcpError(f"{ctx.domain}: no problem generator (give the domain's problems with --problems)")
    settings = ctx.config.domain(ctx.domain)
    size = settings.sizes[(index - 1) % len(settings.sizes)]
    domain_text = ctx.domain_text
    reasons = []
    for attempt in range(settings.max_attempts):
        text = generator.render(generator.generate(size, ctx.rng("problem", index, attempt)))
        renamed = ctx.source.problem(text)[0]  # the text itself, unless the run is obfuscated
        task = GroundTask.from_strings(domain_text, renamed, f"{ctx.domain} problem {index}")
        if not relaxed_goal_reachable(task, task.init):
            reasons.append("goal not relaxed-reachable")
            continue
        if generator.check_solvable:
            planner = ctx.config.planner
            limits = Limits(planner.time_limit, planner.memory_mb, planner.work)
            result = ctx.require_planners().solve(domain_text, renamed, limits)
            if result.status != Status.SOLVED:
                reasons.append(f"planner: {result.status.value}")
                continue
        return text
    raise AcpError(
        f"{ctx.domain}: no solvable problem for size {size} in {settings.max_attempts} attempts "
        f"({'; '.join(reasons[-3:])}); change the size in pipeline.yaml"
    )


def stamp(ctx: StageContext) -> dict:
    """What every problem file is made from (the number of problems only decides which files exist)."""
    settings = dataclasses.asdict(ctx.config.domain(ctx.domain))
    # which files exist; which tasks ask about them, and how far
    del settings["problems"], settings["skip_tasks"], settings["candidates_per_task"]
    config = {"seed": ctx.config.seed, "domain": settings, "planner": dataclasses.asdict(ctx.config.planner)}
    return {**ctx.base_stamp(), "config": digest_of(config)}


def _make(ctx: StageContext, index: int) -> tuple[str | None, str | None]:
    """A unit: (the problem's text, None), or (None, why no solvable problem was found)."""
    try:
        return make_problem(ctx, index), None
    except AcpError as err:
        return None, str(err)


def write_domain(ctx: StageContext) -> Path:
    """``OUT/<domain>/domain.pddl``: the domain text every stage and record uses (written when it changed)."""
    path = ctx.problems_dir.parent / "domain.pddl"
    if not path.is_file() or path.read_text() != ctx.source.text:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, ctx.source.text)
    return path


def prepare(ctx: StageContext) -> StageWork:
    """One unit per problem file still to make; the domain the problems are for goes beside their folder
    (``OUT/<domain>/domain.pddl``, renamed in an obfuscated run), so that a planner or `acp equivalent` can be
    handed both."""
    write_domain(ctx)
    work = StageWork(StageReport("problems", ctx.domain))
    if ctx.source.problems is not None:
        work.report = copy_user_problems(ctx)  # checked and copied here: no unit worth sending away
        return work
    report = work.report
    count = ctx.config.domain(ctx.domain).problems
    book, made_from = work.keep(ctx.stamp_book("problems")), stamp(ctx)

    def commit(path: Path, made: tuple[str | None, str | None]) -> None:
        text, why = made
        if text is None:
            report.failed.append(f"{path.name}: {why}")
            return
        ctx.write_problem(path, text)
        book.record(path.name, path, made_from)
        report.done += 1

    for index in range(1, count + 1):
        path = ctx.problems_dir / f"{problem_name(index)}.pddl"
        if book.fresh(path.name, path, made_from):
            report.skipped += 1
            continue
        work.units.append(Unit(f"{ctx.domain}/problems/{path.stem}", _make, (ctx, index), partial(commit, path), path))

    def finish() -> None:
        report.items = len(ctx.problem_files())

    work.finish = finish
    return work
