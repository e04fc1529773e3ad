"""Running the stages of `acp generate` for one or more domains (the CLI and `acp dataset` share it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from acpgen.config import PipelineConfig
from acpgen.domains import DomainSource
from acpgen.planners import Planners
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


def fell_short(reports: list[StageReport]) -> str | None:
    """One line naming the domains and stages that reported failures, or None if none did."""
    parts = [f"{r.domain} {r.stage} ({len(r.failed)} failed)" for r in reports if r.failed]
    return ", ".join(parts) if parts else None
