"""Running the stages of `acp generate` for one or more domains (the CLI and `acp dataset` share it)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from acpgen.config import PipelineConfig
from acpgen.domains import DomainSource
from acpgen.executors import Executor
from acpgen.planners import Planners, PlannerSetup
from acpgen.stages import STAGES, StageContext, StageReport, count_artefacts


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
    source = source or DomainSource.builtin(domain)
    if source.generator is not None:
        config.domain(domain)
    ctx = StageContext(
        domain, config, Path(config.out), planners, jobs=jobs, progress=progress, force=force, domain_source=source
    )
    ctx.clean()
    for name in stages:
        report(STAGES[name](ctx))
    return count_artefacts(ctx)


def _domain_unit(args: tuple) -> tuple[list[StageReport], dict[str, int]]:
    """One domain's stages in a worker process: its reports and artefact counts."""
    config, domain, setup, stages, force, source, jobs = args
    reports: list[StageReport] = []
    counts = run_domain(
        config,
        domain,
        setup.build(),
        stages=stages,
        jobs=jobs,
        progress=False,
        report=reports.append,
        force=force,
        source=source,
    )
    return reports, counts


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
) -> Iterator[tuple[str, dict[str, int]]]:
    """Run ``stages`` for each domain; yields (domain, its artefact counts) in the order of
    ``domains``, after passing each of its stage reports to ``report`` (as each stage ends when
    the domains run one after the other; when its domain ends otherwise).

    With several domains and ``jobs`` > 1, or with a remote ``executor`` (Dask), the domains are
    the units of the executor (each domain's stages in one worker, one after the other), so that no
    core waits for the slowest problem or question of a stage while another domain has work; on the
    local executor a domain's stages also spread their own work over ``jobs`` workers.
    Either way each domain's artefacts are the same bytes: they depend on the seed and config, not
    on the schedule. A domain whose unit failed (raised, or its worker died more often than the
    executor retries) is reported as a failure of the stage "run" and not yielded; the other
    domains go on.
    """
    executor = executor or Executor(jobs)
    if executor.remote or (jobs > 1 and len(domains) > 1):
        # On the local pool each domain's stages also spread their own work over ``jobs`` workers
        # (more processes than cores while several domains run, but the domain that runs last -- often
        # the largest -- is not left to one core); Dask workers run their unit in one process.
        inner = 1 if executor.remote else jobs
        units = [(config, d, setup, stages, force, source, inner) for d in domains]
        for domain, outcome in zip(
            domains, executor.map(_domain_unit, units, domains, desc="domains", progress=progress)
        ):
            if not outcome.ok:
                report(StageReport("run", domain, failed=[f"the domain's unit failed: {outcome.error}"]))
                continue
            reports, counts = outcome.value
            for stage_report in reports:
                report(stage_report)
            yield domain, counts
        return
    planners = setup.build()
    for domain in domains:
        counts = run_domain(
            config,
            domain,
            planners,
            stages=stages,
            jobs=jobs,
            progress=progress,
            report=report,
            force=force,
            source=source,
        )
        yield domain, counts


def fell_short(reports: list[StageReport]) -> str | None:
    """One line naming the domains and stages that reported failures, or None if none did."""
    parts = [f"{r.domain} {r.stage} ({len(r.failed)} failed)" for r in reports if r.failed]
    return ", ".join(parts) if parts else None
