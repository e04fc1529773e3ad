"""Running the stages of `acp generate` for one or more domains (the CLI and `acp dataset` share it)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

from acpgen.config import PipelineConfig
from acpgen.executors import Executor, describe_error
from acpgen.generation.sources import DomainSource
from acpgen.generation.stages import PREPARE, STAGES, StageContext, StageReport, StageWork, count_artefacts
from acpgen.generation.stages.base import run_works
from acpgen.planners import Planners, PlannerSetup


def stages_up_to(stage: str | None) -> list[str]:
    names = list(STAGES)
    return names[: names.index(stage) + 1] if stage else names


def run_domain(
    config: PipelineConfig,
    domain: str,
    planners: Planners,
    *,
    stages: list[str],
    jobs: int = 1,
    progress: bool = True,
    report: Callable[[StageReport], None] = lambda r: None,
    force: frozenset[str] = frozenset(),
    source: DomainSource | None = None,
) -> dict[str, int]:
    """Run ``stages`` for one domain (each resumes where a previous run stopped, except the stages
    in ``force``, which make all their artefacts again); artefact counts.

    ``source``: the user's own domain (default: the built-in domain ``domain``, configured in the config)."""
    ctx = _context(config, domain, planners, None, force, source, jobs=jobs, progress=progress)
    for name in stages:
        report(STAGES[name](ctx))
    return count_artefacts(ctx)


def run_domains(
    config: PipelineConfig,
    domains: list[str],
    setup: PlannerSetup,
    *,
    stages: list[str],
    jobs: int = 1,
    progress: bool = True,
    report: Callable[[StageReport], None] = lambda r: None,
    force: frozenset[str] = frozenset(),
    source: DomainSource | None = None,
    executor: Executor | None = None,
    timed: Callable[[str, float], None] = lambda stage, seconds: None,
) -> Iterator[tuple[str, dict[str, int]]]:
    """Run ``stages`` for each domain; yields (domain, its artefact counts) in the order of
    ``domains`` once every stage has run, after passing each stage report to ``report``.

    The stages run one after the other; within a stage the units of every domain (a problem for
    problems, plans and states, a task and format for qa, a file for export; see `StageWork`) go to
    the executor together -- ``jobs`` local processes, or Dask workers -- so that no worker waits
    while any domain has work left. Units are committed (files written, stamps recorded) here, in
    unit order, so each domain's artefacts are the same bytes whatever ran where. A unit that fails
    is reported with its name and the reason and the others go on; a domain whose stage cannot even
    be prepared (an unknown domain, a malformed file of the user's) is reported as a failure of the
    stage "run" and takes no further part. ``timed(stage, seconds)`` receives each stage's wall time.
    """
    executor = executor or Executor(jobs)
    planners = None if executor.remote or jobs > 1 else setup.build()  # the serial path shares one set
    contexts: dict[str, StageContext] = {}
    for domain in domains:
        try:
            contexts[domain] = _context(config, domain, planners, setup, force, source)
        except Exception as err:
            report(StageReport("run", domain, failed=[f"cannot run: {describe_error(err)}"]))
    for name in stages:
        start = time.perf_counter()
        works: dict[str, StageWork] = {}
        for domain, ctx in list(contexts.items()):
            try:
                works[domain] = PREPARE[name](ctx)
            except Exception as err:
                report(StageReport("run", domain, failed=[f"{name}: {describe_error(err)}"]))
                del contexts[domain]
        run_works(list(works.values()), executor, name, progress)
        for domain, work in works.items():
            try:
                report(work.close())
            except Exception as err:
                report(StageReport("run", domain, failed=[f"{name}: {describe_error(err)}"]))
                del contexts[domain]
        timed(name, time.perf_counter() - start)
    for domain, ctx in contexts.items():
        yield domain, count_artefacts(ctx)


def _context(
    config: PipelineConfig,
    domain: str,
    planners: Planners | None,
    setup: PlannerSetup | None,
    force: frozenset[str],
    source: DomainSource | None,
    jobs: int = 1,
    progress: bool = False,
) -> StageContext:
    """A domain's stage context, after checking the domain is configured and removing a killed run's
    temporary files."""
    if source is None:
        source = DomainSource.builtin(domain, config.obfuscate, config.seed)
    else:
        source = source.obfuscated_as(config.obfuscate, config.seed)
    if source.generator is not None:
        config.domain(domain)  # an unknown domain fails here, before any work
    ctx = StageContext(
        domain,
        config,
        Path(config.out),
        planners,
        jobs=jobs,
        progress=progress,
        force=force,
        domain_source=source,
        planner_setup=setup,
    )
    ctx.clean()
    return ctx


def fell_short(reports: list[StageReport], strict: bool = True) -> str | None:
    """One line naming the domains and stages that reported failures (``strict``: or files with fewer records
    than asked for), or None if none did."""
    parts = []
    for r in reports:
        counts = [f"{len(r.failed)} failed"] if r.failed else []
        counts += [f"{len(r.short)} short"] if strict and r.short else []
        if counts:
            parts.append(f"{r.domain} {r.stage} ({', '.join(counts)})")
    return ", ".join(parts) if parts else None
