"""How to build the planner layer: a picklable recipe, so that worker processes build their own."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from acpgen.planners.backends import make_backend
from acpgen.planners.cache import PlanCache
from acpgen.planners.suite import Planners


@dataclass(frozen=True)
class PlannerSetup:
    """Backend (local wheels or an Apptainer image) and cache folder of the planners.

    Planner objects are not shared between processes; each worker calls :meth:`build`.
    """

    backend: str = "local"
    image: Path | None = None
    cache_dir: Path | None = None

    def build(self) -> Planners:
        return Planners(make_backend(self.backend, self.image), PlanCache(self.cache_dir))
