"""pipeline.yaml -> frozen configuration objects, checked once; unknown keys are errors.

Command-line options override file values through :meth:`PipelineConfig.with_overrides`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from acpgen.data import DEFAULT_CONFIG, load_yaml
from acpgen.errors import ConfigError
from acpgen.executors import ExecutorConfig
from acpgen.pddl.obfuscate import MODES
from acpgen.planners.setup import PlannerSetup


@dataclass(frozen=True)
class PlannerConfig:
    """Planner backend and default limits. ``work``: the work budget of the problems' solvability checks
    (states a search may expand times the task's operators; the time limit is then a safety net, see
    :class:`acpgen.planners.Limits`); null: the time limit decides, and the output may differ by machine."""

    backend: str = "local"
    image: str | None = None
    time_limit: float = 60.0
    memory_mb: int = 4096
    work: int | None = 5_000_000
    #: planner results kept on disk, relative to ``out`` (shared by the stages, the self-check and
    #: later runs); null: in memory only (``ACP_CACHE_DIR`` then still applies)
    cache: str | None = "planner-cache"

    def setup(self, out: str | Path | None = None) -> PlannerSetup:
        """How worker processes build the planners of this configuration (with the cache folder
        under ``out``, when given and the cache is on)."""
        cache_dir = Path(out) / self.cache if out is not None and self.cache else None
        return PlannerSetup(self.backend, Path(self.image) if self.image else None, cache_dir)


#: how the plans stage plans a problem too large to explore (``plans.search``)
PLAN_SEARCHES = ("top-quality", "satisficing")


@dataclass(frozen=True)
class PlansConfig:
    """Stage 2: top-quality plans (from the explored state space when it is small, else K*). With a work
    budget (``work``), a problem K* does not finish within it gets one optimal plan, else the diverse
    planner's first plan, each search within the budget; without one (null), diverse planning is K*'s
    fallback and the clock decides what K* finishes. ``search``: ``top-quality`` (the above) or
    ``satisficing``: a problem too large to explore gets one plan of any length, from the budgeted
    satisficing searches (level 5's default: its problems are too large for K* and for A*)."""

    search: str = "top-quality"
    quality_bound: float = 1.2
    number_of_plans: int = 10
    explicit_states: int = 5000  # read the plans off the explored state space up to this many states (0: always K*)
    time_limit: float = 120.0
    work: int | None = 5_000_000
    diverse_plans: int = 5
    diverse_time_limit: float = 60.0


@dataclass(frozen=True)
class StatesConfig:
    """Stage 3: states along the stored plans plus random rollouts from them."""

    rollouts_per_state: int = 1
    rollout_length: int = 5
    max_per_problem: int = 200
    # Only states whose remaining plan length lies in [low, high] (high None: no bound); set by a
    # difficulty level (`acpgen.generation.levels`), None keeps every state.
    goal_distance: tuple[int, int | None] | None = None


@dataclass(frozen=True)
class QAConfig:
    """Stage 4: symbolic questions per task, and the budgets that keep every answer provable."""

    questions_per_task: int = 10
    max_applicable: int = 100  # app/nexta: only states with at most this many applicable actions
    reach_stored: int = 5  # how many unreachable atoms a reach record keeps
    areach_stored: int = 3  # how many unreachable actions an areach record keeps
    max_candidates: int = 5000  # areach: type-correct actions examined per state (sampled beyond)
    max_planner_calls: int = 60  # per question; a state needing more is skipped ("in case of doubt")
    max_states: int = 20000  # exhaustive exploration bound while generating
    verify_max_states: int = 1  # grounded exploration bound while verifying (1: none, another route than generation's)
    # while verifying, spaces of at most this many states are explored by the separate lifted interpreter
    # (acpgen.proofs.lifted_space) instead of asking planner processes; 0: planners only
    verify_lifted_states: int = 2000
    planner_work: int | None = 3_000_000  # states a search may expand times the task's operators (null: none)
    planner_time_limit: float = 120.0  # seconds per planner call: the safety net (without a work budget: the limit)
    candidates_per_task: int = 60  # states tried per task before giving up
    formats: tuple[str, ...] = ("gen",)  # gen (ACPBench-Hard), bool and mcq (ACPBench; not for nexta)
    tasks: tuple[str, ...] | None = None  # the tasks to ask about (None: every registered task)
    sequence_lengths: tuple[int, ...] | None = None  # rac_*: action sequence lengths (None: all; set by a level)


@dataclass(frozen=True)
class ExportConfig:
    """Stage 5: natural-language text and the exported records."""

    representation: str = "nl"  # nl, pddl or pddl+nl: what a record's context contains
    level: int | None = None  # set by a difficulty level (acpgen.generation.levels): records carry level, features


@dataclass(frozen=True)
class DatasetConfig:
    """`acp dataset` / `make dataset`: splits assembled from every configured domain."""

    out: str = "dataset"
    test_per_domain: int = 10  # test questions per task and domain
    dev_per_task: int = 40  # dev questions per task, spread over the domains
    validate_jobs: int = 2  # parallel processes of the final `acp validate`


@dataclass(frozen=True)
class DomainConfig:
    """Per-domain problem counts and sizes (each size dict names the generator's parameters), the
    tasks the domain is left out of (``skip_tasks``: its states cannot give their questions), and the
    states tried per task in this domain where ``qa.candidates_per_task`` is too few for it."""

    problems: int
    sizes: tuple[dict[str, int], ...]
    max_attempts: int = 20
    skip_tasks: tuple[str, ...] = ()
    candidates_per_task: int | None = None


@dataclass(frozen=True)
class PipelineConfig:
    seed: int = 1
    out: str = "out/acp"
    planner: PlannerConfig = field(default_factory=PlannerConfig)
    plans: PlansConfig = field(default_factory=PlansConfig)
    states: StatesConfig = field(default_factory=StatesConfig)
    qa: QAConfig = field(default_factory=QAConfig)
    export: ExportConfig = field(default_factory=ExportConfig)
    dataset: DatasetConfig = field(default_factory=DatasetConfig)
    domains: dict[str, DomainConfig] = field(default_factory=dict)
    levels: dict[int, dict] = field(default_factory=dict)  # difficulty levels, read by `acpgen.generation.levels`
    # none, mystery or random: rename every domain and problem (acpgen.pddl.obfuscate); artefacts go to OUT/<d>-<mode>/
    obfuscate: str = "none"
    # where the units run (acpgen.executors); shapes no artefact, so it is left out of the manifest's config hash
    executor: ExecutorConfig = field(default_factory=ExecutorConfig)

    def domain(self, name: str) -> DomainConfig:
        if name not in self.domains:
            raise ConfigError(
                f"domain {name!r} is not configured in pipeline.yaml; configured: {', '.join(self.domains) or 'none'}"
            )
        return self.domains[name]

    def with_overrides(self, **values: Any) -> PipelineConfig:
        """A copy with top-level values replaced (None values are ignored)."""
        return dataclasses.replace(self, **{k: v for k, v in values.items() if v is not None})


FORMATS = ("gen", "bool", "mcq")


def check_formats(formats, where: str = "formats") -> tuple[str, ...]:
    """A tuple of known formats in canonical order (from a list or a comma-separated string)."""
    items = [f.strip() for f in formats.split(",")] if isinstance(formats, str) else list(formats)
    unknown = [f for f in items if f not in FORMATS]
    if unknown or not items:
        raise ConfigError(f"{where}: unknown or no format(s) {unknown or items}; choose from {', '.join(FORMATS)}")
    return tuple(f for f in FORMATS if f in items)


def _build(cls, data: Any, where: str):
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a mapping, got {type(data).__name__}")
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)}; valid keys: {', '.join(sorted(names))}")
    try:
        return cls(**data)
    except TypeError as err:
        raise ConfigError(f"{where}: {err}") from None


OBFUSCATIONS = ("none", *MODES)


def load_config(path: Path | None = None) -> PipelineConfig:
    """Read and check a pipeline configuration file (default: acp's default acpgen/data/pipeline.yaml)."""
    path = Path(path or DEFAULT_CONFIG)
    try:
        raw = load_yaml(path.read_text()) or {}
    except OSError as err:
        raise ConfigError(f"cannot read config {path}: {err.strerror}") from err
    except yaml.YAMLError as err:
        raise ConfigError(f"{path}: invalid YAML ({err})") from err
    raw = dict(raw) if isinstance(raw, dict) else _build(PipelineConfig, raw, str(path))
    sections = {
        "planner": PlannerConfig,
        "plans": PlansConfig,
        "states": StatesConfig,
        "qa": QAConfig,
        "export": ExportConfig,
        "dataset": DatasetConfig,
        "executor": ExecutorConfig,
    }
    for key, cls in sections.items():
        if key in raw:
            raw[key] = _build(cls, raw[key], f"{path}: {key}")
    if "plans" in raw and raw["plans"].search not in PLAN_SEARCHES:
        raise ConfigError(
            f"{path}: plans.search must be one of {', '.join(PLAN_SEARCHES)}, not {raw['plans'].search!r}"
        )
    if "qa" in raw:
        qa = raw["qa"]
        tasks = tuple(qa.tasks) if isinstance(qa.tasks, (list, tuple)) else qa.tasks
        if tasks is not None and (not tasks or not all(isinstance(t, str) for t in tasks)):
            raise ConfigError(f"{path}: qa.tasks must be a non-empty list of task names (see `acp tasks`)")
        raw["qa"] = dataclasses.replace(qa, formats=check_formats(qa.formats, f"{path}: qa.formats"), tasks=tasks)
    domains = {}
    for name, data in (raw.get("domains") or {}).items():
        entry = _build(DomainConfig, data, f"{path}: domains.{name}")
        sizes = entry.sizes
        if not isinstance(sizes, (list, tuple)) or not sizes or not all(isinstance(s, dict) for s in sizes):
            raise ConfigError(f"{path}: domains.{name}.sizes must be a non-empty list of mappings")
        skip = entry.skip_tasks
        if not isinstance(skip, (list, tuple)) or not all(isinstance(t, str) for t in skip):
            raise ConfigError(f"{path}: domains.{name}.skip_tasks must be a list of task names (see `acp tasks`)")
        limit = entry.candidates_per_task
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
            raise ConfigError(f"{path}: domains.{name}.candidates_per_task must be a positive number of states")
        domains[name] = dataclasses.replace(entry, sizes=tuple(dict(s) for s in sizes), skip_tasks=tuple(skip))
    raw["domains"] = domains
    if raw.get("obfuscate", "none") not in OBFUSCATIONS:
        raise ConfigError(f"{path}: obfuscate must be one of {', '.join(OBFUSCATIONS)}, not {raw['obfuscate']!r}")
    return _build(PipelineConfig, raw, str(path))
