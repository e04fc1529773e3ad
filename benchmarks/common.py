"""What the benchmark scripts share (they run as `python benchmarks/<script>.py`, so this folder is on sys.path)."""

from __future__ import annotations

import sys

from acpgen.config import PipelineConfig


def chosen_domains(config: PipelineConfig, text: str) -> list[str]:
    """The domains of a comma-separated ``--domains`` value; exits naming those the config lacks."""
    names = [d.strip() for d in text.split(",") if d.strip()]
    unknown = [d for d in names if d not in config.domains]
    if unknown:
        sys.exit(f"--domains: {', '.join(unknown)} not in the config; configured: {', '.join(config.domains)}")
    return names


def percentile(values: list[float], q: float) -> float:
    """The value at quantile ``q`` of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]
