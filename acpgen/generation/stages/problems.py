"""Stage 1, problems: acpgen/data/domains/<D>/ + the domain's generator -> OUT/D/problems/pNNN.pddl, and the
problems no plan solves -> OUT/D/unsolvable/uNNN.pddl with their proofs (uNNN.proof.json).

Problem i (from 1) uses size ``sizes[(i - 1) % len(sizes)]`` and a random generator derived from (seed,
domain, i, attempt). Generators that cannot guarantee solvability are checked with a planner;
an unsolvable draw is redrawn with the next attempt number. Existing files are kept (resume) while
their stamp (seed, sizes, attempts, planner settings, PDDL domain, code) is unchanged.

In an obfuscated run (``obfuscate`` in the config) each problem is renamed as it is made, and its
renaming is written next to it (``pNNN.renaming.json``, :meth:`StageContext.write_problem`): every later stage
sees only the renamed PDDL, and every record carries the renaming back to the original names.

Unsolvable problem i (``ceil(qa.unsolvable_share x problems)`` of them; none with a share of 0) is a problem of
the generator at size ``sizes[(i - 1) % len(sizes)]`` whose goal is made unreachable and proven so by two
procedures (:func:`make_unsolvable`); the proof goes beside it. They are apart from the solvable problems: the
plans stage never plans them, and only the plan tasks ask about them.
"""

from __future__ import annotations

import dataclasses
import json
import math
from functools import partial
from pathlib import Path

from acpgen.artefacts import atomic_write_text
from acpgen.errors import AcpError
from acpgen.generation.stages.base import StageContext, StageReport, StageWork, Unit
from acpgen.generation.stages.user_problems import copy_user_problems
from acpgen.generation.stamps import digest_of
from acpgen.generators.unsolvable import DEEP, SHALLOW, deep_goal, shallow_goal, static_goal
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.semantics import relaxed_goal_reachable
from acpgen.planners import Limits, Status
from acpgen.proofs.unsolvable import SHALLOW as SHALLOW_CERTIFICATES
from acpgen.proofs.unsolvable import prove_unsolvable

#: attempts at a deep unsolvable goal before a shallow one is taken (a deep one a search must refute may not be
#: proven within the bounds: a cycle of blocks among 8 or more); one that no search settles ends them (another
#: candidate of the same size has a space as large)
DEEP_ATTEMPTS = 2


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


def unsolvable_name(index: int) -> str:
    return f"u{index:03d}"


def unsolvable_count(ctx: StageContext) -> int:
    """How many problems no plan solves the domain gets: ``qa.unsolvable_share`` of its problems, rounded up (none
    for a share of 0, or for a domain of the user's problems)."""
    share = ctx.config.qa.unsolvable_share
    if share <= 0 or ctx.source.generator is None:
        return 0
    return math.ceil(share * ctx.config.domain(ctx.domain).problems)


def make_unsolvable(ctx: StageContext, index: int) -> tuple[str, dict]:
    """PDDL text of unsolvable problem ``index`` (before any renaming) and its proof: a problem of the generator at
    size ``sizes[(index - 1) % len(sizes)]``, its goal made unreachable (`acpgen.generators.unsolvable`: a deep
    goal first, for an odd index in a domain that has one, then a shallow one), proven by two procedures
    (`acpgen.proofs.unsolvable`); a candidate not proven is drawn again with the next attempt number."""
    generator = ctx.source.generator
    assert generator is not None
    settings = ctx.config.domain(ctx.domain)
    size = settings.sizes[(index - 1) % len(settings.sizes)]
    planner = ctx.config.planner
    limits = Limits(planner.time_limit, planner.memory_mb, planner.work)
    tried: list[str] = []
    deep = index % 2 == 1
    for attempt in range(settings.max_attempts):
        rng = ctx.rng("unsolvable", index, attempt)
        spec = generator.generate(size, rng)
        candidate = deep_goal(ctx.domain, spec, rng) if deep and attempt < DEEP_ATTEMPTS else None
        is_deep = candidate is not None
        if candidate is None:  # the goal's atoms are the generator's names: the task before any renaming
            solvable = GroundTask.from_strings(ctx.source.plain_text, generator.render(spec))
            candidate = shallow_goal(spec, solvable, rng) or static_goal(spec, solvable, rng)
        if candidate is None:
            tried.append("no contradiction found")
            continue
        text = generator.render(candidate)
        task = GroundTask.from_strings(ctx.domain_text, ctx.source.problem(text)[0], f"{ctx.domain} unsolvable {index}")
        proof = prove_unsolvable(task, ctx.require_planners(), limits=limits)
        if proof.proven:
            kind = SHALLOW if any(name in SHALLOW_CERTIFICATES for name in proof.by) else DEEP
            return text, {"kind": kind, "proven_by": list(proof.by), "reasons": list(proof.reasons)}
        tried.append("a plan exists" if proof.solvable else "not proven")
        if is_deep and not proof.solvable:
            deep = False  # no search ended: another deep one of the size fares the same
    raise AcpError(
        f"{ctx.domain}: no unsolvable problem proven for size {size} in {settings.max_attempts} attempts "
        f"({'; '.join(tried[-3:])})"
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


def _make_unsolvable(ctx: StageContext, index: int) -> tuple[tuple[str, dict] | None, str | None]:
    """A unit: ((the problem's text, its proof), None), or (None, why none was proven)."""
    try:
        return make_unsolvable(ctx, index), None
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

    def commit_unsolvable(path: Path, made: tuple[tuple[str, dict] | None, str | None]) -> None:
        done, why = made
        if done is None:
            report.failed.append(f"{path.name}: {why}")
            return
        text, proof = done
        ctx.write_problem(path, text)
        atomic_write_text(path.with_suffix(".proof.json"), json.dumps(proof, indent=1) + "\n", durable=False)
        book.record(path.name, path, made_from)
        report.done += 1

    for index in range(1, unsolvable_count(ctx) + 1):
        path = ctx.unsolvable_dir / f"{unsolvable_name(index)}.pddl"
        if book.fresh(path.name, path, made_from) and path.with_suffix(".proof.json").is_file():
            report.skipped += 1
            continue
        unit = Unit(
            f"{ctx.domain}/problems/{path.stem}", _make_unsolvable, (ctx, index), partial(commit_unsolvable, path), path
        )
        work.units.append(unit)

    def finish() -> None:
        report.items = len(ctx.problem_files()) + len(list(ctx.unsolvable_dir.glob("u*.pddl")))

    work.finish = finish
    return work
