"""pipeline.yaml -> frozen configuration objects, checked once; unknown keys and wrong values are errors.

:func:`checked` checks every value from its field's type (a whole number is an int, not a bool, and at least 0
or the bound in :data:`MINIMUM`; a float is a number of seconds > 0; ``X | None`` takes null; a tuple takes a
list) and the rules of a few keys (:data:`CHOICES`, ``levels``, the domains' ``sizes``). One ConfigError names
the file, the key and what the value must be: ``my.yaml: qa.questions_per_task must be a whole number >= 1, not
-3``. Command-line options and the Python API override file values through :meth:`PipelineConfig.with_overrides`,
which checks its result the same way.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard, Union, get_args, get_origin, get_type_hints

import yaml

from acpgen.data import DEFAULT_CONFIG, load_yaml
from acpgen.errors import ConfigError
from acpgen.executors import EXECUTORS, ExecutorConfig
from acpgen.pddl.obfuscate import MODES
from acpgen.planners import DEFAULT_WORK
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
    work: int | None = DEFAULT_WORK
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
    work: int | None = DEFAULT_WORK
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
    # the plan tasks (plan, optplan, pver): records about problems no plan solves, this share of questions_per_task
    # more (rounded up; 0: none), from ceil(share x problems) unsolvable problems per domain
    unsolvable_share: float = 0.2


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
        """A copy with top-level values replaced (None values are ignored), checked whole (:func:`checked`)."""
        return checked(dataclasses.replace(self, **{k: v for k, v in values.items() if v is not None}))


FORMATS = ("gen", "bool", "mcq")
OBFUSCATIONS = ("none", *MODES)
#: what a record's context holds (``export.representation``; acpgen.nl.describe.REPRESENTATIONS, whose layer is above)
REPRESENTATIONS = ("nl", "pddl", "pddl+nl")
#: the planner backends (``planner.backend``; acpgen.planners.backends.make_backend)
PLANNER_BACKENDS = ("local", "apptainer")
#: the difficulty levels (``--level``, ``export.level``, the keys of ``levels``; see acpgen.generation.levels)
LEVELS = (1, 2, 3, 4, 5)
#: what an entry of the ``levels`` section may set, each optional (see acpgen.generation.levels)
LEVEL_KEYS = ("sizes", "distance", "lengths", "search", "optimum_sizes")

#: The lower bounds that are not the default one, by key path (``*``: any domain; None: no bound): a whole number
#: is >= 0 and a float (a number of seconds) > 0 unless named here. 0 means something for the whole numbers not
#: named: plans.explicit_states (always K*), states.rollouts_per_state and rollout_length (the
#: plans' states only), qa.max_planner_calls (only what exploration decides), qa.verify_lifted_states (planners
#: only), dataset.dev_per_task (no dev split), executor.retries (no second run), a size parameter (visitall's
#: holes, alfworld's goal 0; each generator checks its own further bounds).
MINIMUM: dict[str, float | None] = {
    "seed": None,
    "planner.memory_mb": 1,
    "planner.work": 1,  # a work budget of 0 decides nothing (null: the time limit decides)
    "plans.quality_bound": 1.0,  # plans cost at most this factor times the optimal cost
    "plans.number_of_plans": 1,
    "plans.work": 1,
    "plans.diverse_plans": 1,
    "states.max_per_problem": 1,  # 0 keeps no state to ask about
    "qa.questions_per_task": 1,  # 0 writes empty record files; to stop before the qa stage: --stage states
    "qa.max_applicable": 1,  # 0 skips every state of app and nexta
    "qa.reach_stored": 1,  # 0 stores [], the answer "every atom is reachable"
    "qa.areach_stored": 1,  # likewise for actions
    "qa.max_candidates": 1,  # 0 examines no action
    "qa.max_states": 1,
    "qa.verify_max_states": 1,  # 1: no grounded exploration while verifying
    "qa.planner_work": 1,
    "qa.candidates_per_task": 1,  # 0 tries no state
    "qa.sequence_lengths": 1,  # each length
    "dataset.test_per_domain": 1,  # the test split is what a dataset is for
    "dataset.validate_jobs": 1,
    "executor.workers": 1,
    "domains.*.problems": 1,  # 0 leaves the domain without states to ask about
    "domains.*.max_attempts": 1,
    "domains.*.candidates_per_task": 1,
}

#: the keys whose value is one of a few (with ``X | None``: or null), by key path
CHOICES: dict[str, tuple[Any, ...]] = {
    "planner.backend": PLANNER_BACKENDS,
    "plans.search": PLAN_SEARCHES,
    "export.representation": REPRESENTATIONS,
    "export.level": LEVELS,
    "obfuscate": OBFUSCATIONS,
    "executor.kind": EXECUTORS,
}


def check_formats(formats: Any, where: str = "formats") -> tuple[str, ...]:
    """A tuple of known formats in canonical order (from a list or a comma-separated string)."""
    if isinstance(formats, str):
        items = [f.strip() for f in formats.split(",")]
    else:
        items = list(formats) if isinstance(formats, (list, tuple)) else [formats]
    unknown = [f for f in items if f not in FORMATS]
    if unknown or not items:
        raise ConfigError(f"{where}: unknown or no format(s) {unknown or items}; choose from {', '.join(FORMATS)}")
    return tuple(f for f in FORMATS if f in items)


def check_levels(levels: Any, where: str = "levels") -> dict[int, dict]:
    """The ``levels`` section (null: none), checked: its keys are :data:`LEVELS`, each entry a mapping of
    :data:`LEVEL_KEYS` (what they mean: acpgen.generation.levels)."""
    if levels is None:
        return {}
    if not isinstance(levels, dict):
        raise ConfigError(f"{where} must be a mapping of levels (1-5) to their settings, not {_shown(levels)}")
    for key, entry in levels.items():
        if not _whole(key) or key not in LEVELS:
            raise ConfigError(f"{where}: {key!r} is no level; a level is one of {', '.join(map(str, LEVELS))}")
        _check_level(entry, f"{where}.{key}")
    return levels


def _check_level(entry: Any, where: str) -> None:
    if not isinstance(entry, dict) or set(entry) - set(LEVEL_KEYS):
        raise ConfigError(
            f"{where} must be a mapping with the keys {', '.join(LEVEL_KEYS[:-1])} and {LEVEL_KEYS[-1]} (each "
            f"optional), not {_shown(entry)}"
        )
    for key, nullable in (("sizes", False), ("optimum_sizes", True)):
        sizes: Any = entry.get(key)
        if key not in entry or (nullable and sizes is None):
            continue
        if not (isinstance(sizes, (list, tuple)) and len(sizes) == 2 and all(map(_number, sizes))) or not (
            0 <= sizes[0] < sizes[1] <= 1
        ):
            raise ConfigError(
                f"{where}.{key} must be [from, to] with 0 <= from < to <= 1 (shares of the size list)"
                + (", or null" if nullable else "")
                + f", not {_shown(sizes)}"
            )
    if "distance" in entry:
        _distance(entry["distance"], f"{where}.distance")
    lengths = entry.get("lengths", ())
    if not isinstance(lengths, (list, tuple)) or not all(_whole(n) and n >= 1 for n in lengths):
        raise ConfigError(
            f"{where}.lengths must be a list of action sequence lengths (each at least 1), not {lengths!r}"
        )
    search = entry.get("search")
    if search is not None and search not in PLAN_SEARCHES:
        raise ConfigError(
            f"{where}.search must be absent or a plans.search: one of {', '.join(PLAN_SEARCHES)}, not {search!r}"
        )


def _distance(value: Any, where: str, also: str = "") -> tuple[int, int | None]:
    """``[low, high]`` of remaining plan lengths as a tuple (0 <= low <= high; high None: no bound)."""
    low, high = value if isinstance(value, (list, tuple)) and len(value) == 2 else (None, None)
    if _whole(low) and low >= 0 and (high is None or (_whole(high) and high >= low)):
        return (low, high)
    raise ConfigError(
        f"{where} must be [low, high] with 0 <= low <= high (high null: no bound){also}, not {_shown(value)}"
    )


def _goal_distance(value: Any, where: str) -> tuple[int, int | None] | None:
    return None if value is None else _distance(value, where, " or null")


def _tasks(value: Any, where: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, (list, tuple)) and value and all(isinstance(t, str) for t in value):
        return tuple(value)
    raise ConfigError(f"{where} must be a non-empty list of task names (see `acp tasks`) or null, not {_shown(value)}")


def _skip_tasks(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, (list, tuple)) and all(isinstance(t, str) for t in value):
        return tuple(value)
    raise ConfigError(f"{where} must be a list of task names (see `acp tasks`), not {_shown(value)}")


def _sizes(value: Any, where: str) -> tuple[dict[str, int], ...]:
    """A domain's sizes: mappings of a generator's parameter names to whole numbers >= 0 (each generator
    checks its own further bounds, such as ferry's one car)."""
    if not isinstance(value, (list, tuple)) or not value or not all(isinstance(s, dict) for s in value):
        raise ConfigError(
            f"{where} must be a non-empty list of mappings (a generator's parameters), not {_shown(value)}"
        )
    for i, size in enumerate(value):
        for name, n in size.items():
            if not isinstance(name, str):
                raise ConfigError(f"{where}[{i}] must name the generator's parameters, not {name!r}")
            if not _whole(n) or n < 0:
                raise ConfigError(f"{where}[{i}].{name} must be a whole number >= 0, not {_shown(n)}")
    return tuple(dict(s) for s in value)


def _domains(value: Any, where: str) -> dict[str, DomainConfig]:
    if not isinstance(value, dict) or not all(isinstance(name, str) for name in value):
        raise ConfigError(f"{where} must be a mapping of domain names to their problems and sizes, not {_shown(value)}")
    return {name: _value(entry, DomainConfig, f"{where}.{name}", f"{where}.*") for name, entry in value.items()}


def _share(value: Any, where: str) -> float:
    if _number(value) and 0 <= value <= 1:
        return value
    raise ConfigError(f"{where} must be a share from 0 to 1, not {_shown(value)}")


#: the keys with a rule of their own, by key path (``*``: any domain): (value, key) -> the value to keep
_RULES: dict[str, Callable[[Any, str], Any]] = {
    "qa.unsolvable_share": _share,
    "qa.formats": check_formats,
    "qa.tasks": _tasks,
    "states.goal_distance": _goal_distance,
    "levels": check_levels,
    "domains": _domains,
    "domains.*.sizes": _sizes,
    "domains.*.skip_tasks": _skip_tasks,
}


def checked(config: PipelineConfig) -> PipelineConfig:
    """``config`` with every value checked and its lists made tuples; a ConfigError names the first wrong value
    by its key path and says what it must be (see the module docstring)."""
    return _fields(config, "", "")


def _fields(obj: Any, key: str, rule: str) -> Any:
    """A configuration dataclass with each of its fields checked (``key``: its path; ``rule``: with ``*``)."""
    changed = {}
    for name, hint in _hints(obj.__class__).items():
        value = getattr(obj, name)
        kept = _value(value, hint, f"{key}.{name}".lstrip("."), f"{rule}.{name}".lstrip("."))
        if kept is not value:
            changed[name] = kept
    return dataclasses.replace(obj, **changed) if changed else obj


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    hints = get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


_WRONG = object()


def _value(value: Any, hint: Any, key: str, rule: str) -> Any:
    if rule in _RULES:
        return _RULES[rule](value, key)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, hint):
            raise ConfigError(f"{key} must be a mapping of its settings, not {_shown(value)}")
        return _fields(value, key, rule)
    kept = _conformed(value, hint, rule)
    if kept is _WRONG:
        raise ConfigError(f"{key} must be {_expected(hint, rule)}, not {_shown(value)}")
    return kept


def _optional(hint: Any) -> Any:
    """``X`` of a hint ``X | None`` (None for any other hint)."""
    if get_origin(hint) not in (Union, types.UnionType):
        return None
    (inner,) = (a for a in get_args(hint) if a is not type(None))
    return inner


def _conformed(value: Any, hint: Any, rule: str) -> Any:
    """``value`` as a field of type ``hint`` keeps it (a list as a tuple), or _WRONG."""
    inner = _optional(hint)
    if inner is not None:
        return None if value is None else _conformed(value, inner, rule)
    if rule in CHOICES:
        return value if any(value == c and type(value) is type(c) for c in CHOICES[rule]) else _WRONG
    if hint is int:
        low = MINIMUM.get(rule, 0)
        return value if _whole(value) and (low is None or value >= low) else _WRONG
    if hint is float:
        low = MINIMUM.get(rule)
        return value if _number(value) and (value > 0 if low is None else value >= low) else _WRONG
    if hint is str:
        return value if isinstance(value, str) else _WRONG
    if get_origin(hint) is tuple:  # tuple[X, ...]
        if not isinstance(value, (list, tuple)):
            return _WRONG
        items = tuple(_conformed(v, get_args(hint)[0], rule) for v in value)
        return _WRONG if any(item is _WRONG for item in items) else items
    if get_origin(hint) is dict:
        return value if isinstance(value, dict) else _WRONG
    return value


def _expected(hint: Any, rule: str) -> str:
    """What a value of type ``hint`` at ``rule`` must be, in words."""
    inner = _optional(hint)
    if inner is not None:
        return f"{_expected(inner, rule)} or null"
    if rule in CHOICES:
        return f"one of {', '.join(map(str, CHOICES[rule]))}"
    if hint is int:
        low = MINIMUM.get(rule, 0)
        return "a whole number" if low is None else f"a whole number >= {low}"
    if hint is float:
        low = MINIMUM.get(rule)
        return "a number of seconds > 0" if low is None else f"a number >= {low}"
    if get_origin(hint) is tuple:
        return f"a list (each item {_expected(get_args(hint)[0], rule)})"
    return "a mapping" if get_origin(hint) is dict else "a string"


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _shown(value: Any) -> str:
    """A wrong value as the message shows it (None as YAML's null)."""
    return "null" if value is None else repr(value)


def _build(cls, data: Any, where: str):
    at = f"{where}: " if where else ""
    if not isinstance(data, dict):
        raise ConfigError(f"{at}expected a mapping, got {type(data).__name__}")
    fields = dataclasses.fields(cls)
    names = {f.name for f in fields}
    unknown = sorted(map(str, set(data) - names))
    if unknown:
        raise ConfigError(f"{at}unknown key(s) {', '.join(unknown)}; valid keys: {', '.join(sorted(names))}")
    missing = [
        f.name
        for f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING and f.name not in data
    ]
    if missing:
        raise ConfigError(f"{at}missing key(s) {', '.join(missing)}")
    try:
        return cls(**data)
    except TypeError as err:
        raise ConfigError(f"{at}{err}") from None


_SECTIONS = {
    "planner": PlannerConfig,
    "plans": PlansConfig,
    "states": StatesConfig,
    "qa": QAConfig,
    "export": ExportConfig,
    "dataset": DatasetConfig,
    "executor": ExecutorConfig,
}


def _parse(raw: Any) -> PipelineConfig:
    """The configuration objects of a file's data (unknown keys are errors; :func:`checked` checks the values)."""
    data = dict(raw) if isinstance(raw, dict) else _build(PipelineConfig, raw, "")
    for key, cls in _SECTIONS.items():
        if key in data:
            data[key] = _build(cls, data[key], key)
    domains = data.get("domains")
    if isinstance(domains, dict):
        data["domains"] = {name: _build(DomainConfig, entry, f"domains.{name}") for name, entry in domains.items()}
    elif domains is None:
        data["domains"] = {}
    return _build(PipelineConfig, data, "")


def load_config(path: Path | None = None) -> PipelineConfig:
    """Read and check a pipeline configuration file (default: acp's default acpgen/data/pipeline.yaml); a
    wrong key or value is a ConfigError naming the file and the key."""
    path = Path(path or DEFAULT_CONFIG)
    try:
        raw = load_yaml(path.read_text())
    except OSError as err:
        raise ConfigError(f"cannot read config {path}: {err.strerror}") from err
    except yaml.YAMLError as err:
        raise ConfigError(f"{path}: invalid YAML ({err})") from err
    try:
        return checked(_parse({} if raw is None else raw))
    except ConfigError as err:
        raise ConfigError(f"{path}: {err}") from None
