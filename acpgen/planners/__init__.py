"""acp's planner layer: K*, Fast Downward and forbiditerative behind :class:`Planners`.

Everything else in acp uses only what is exported here. Planners run from the installed PyPI
wheels (:class:`LocalBackend`, the default) or inside an Apptainer image
(:class:`ApptainerBackend`, see containers/README.md); :func:`run_tool` is the one caller of the
package's external tools (`acpgen.evaluation.pool` starts acp's own worker interpreters);
:class:`PlanCache` keeps definite results (``$ACP_CACHE_DIR``).
"""

from acpgen.planners.backends import (
    ApptainerBackend,
    Backend,
    LocalBackend,
    make_backend,
)
from acpgen.planners.cache import PlanCache
from acpgen.planners.outcomes import EXIT_CODES, Status
from acpgen.planners.parse import Landmark
from acpgen.planners.run import ToolRun, run_tool
from acpgen.planners.setup import PlannerSetup
from acpgen.planners.suite import DEFAULT_WORK, LandmarkResult, Limits, PlannerResult, Planners

__all__ = [
    "DEFAULT_WORK",
    "EXIT_CODES",
    "ApptainerBackend",
    "Backend",
    "Landmark",
    "LandmarkResult",
    "Limits",
    "LocalBackend",
    "PlanCache",
    "PlannerResult",
    "PlannerSetup",
    "Planners",
    "Status",
    "ToolRun",
    "make_backend",
    "run_tool",
]
