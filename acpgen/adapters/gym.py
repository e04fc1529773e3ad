"""acp's tasks as reasoning-gym datasets (the optional extra ``gym``: ``pip install -e '.[gym]'``).

Importing this module registers one dataset per acp task, ``acp_<task>`` (``acp_app``, ``acp_reach``,
...), with reasoning-gym's registry, so that::

    import acpgen.adapters.gym  # registers the datasets
    import reasoning_gym
    data = reasoning_gym.create_dataset("acp_reach", size=20, seed=1, domains=("ferry",), level=None, format="gen")
    entry = data[0]  # {"question": ..., "answer": ..., "metadata": {...}}
    reward = data.score_answer(model_output, entry)

An entry's ``question`` is the record's prompt (context, question, how to answer; `acpgen.adapters.prompts`),
its ``answer`` the stored answer as a model writes it (`acpgen.reference_answer`), and its
``metadata`` the record itself (``record``) with its task, format, domain, id and ``level``, and
``difficulty``, reasoning-gym's convention for the curriculum datasets (its ``ScoreBoard`` and
``CurriculumExperiment`` group scores by it): the configuration's range of the curriculum attribute,
``{"level": (min_level, max_level)}`` (``(None, None)``: the configured sizes). ``score_answer`` is the
reward every acp training adapter gives (`acpgen.training.rewards.reward`: acp's exact score, 1.0 or
0.0, with the strict reading unless the configuration's ``strict`` is False); an answer acp cannot
decide (a planner ran out of time) scores 0.0 here, since a reward must be a number.

The records are made on first use (not when the dataset object is built: reasoning-gym builds one
with the default configuration just to reach its ``score_answer``) by `acpgen.generate`, the same
records `acp generate` writes for the seed: ``ceil(size / len(domains))`` per domain (per domain and
level for a range of levels), taken in turn; where the seed's problems give fewer, those of further
seeds derived from it (at most :data:`MAX_ROUNDS` seeds). The same seed and configuration give the
same items. A configuration whose problems cannot give ``size`` records is an error naming what to
change.

``acp_adaptive`` (:class:`AcpAdaptiveDataset`) is a dataset whose difficulty follows the learner: its entries
come from an adaptive source (`acpgen.training.adaptive`, RLVE's rule) of several tasks and domains, and its
``score_answer`` tells the source each reward::

    data = reasoning_gym.create_dataset("acp_adaptive", size=1000, seed=0, tasks=("plan",), domains=("ferry",))
    for entry in data:
        reward = data.score_answer(model(entry["question"]), entry)

Each dataset ``acp_<task>`` has a curriculum (`reasoning_gym.factory.create_curriculum("acp_plan")`,
:class:`AcpCurriculum`) whose one attribute is acp's level, as a range: at curriculum level ``i``
(reasoning-gym counts from 0) the configuration draws from acp levels 1 to ``i + 1`` (reasoning-gym's default context,
``RangeAttributeMode.INCLUSIVE``), or only level ``i + 1`` (``UPPER_BOUND``).
"""

from __future__ import annotations

import math
import random
import warnings
from dataclasses import dataclass
from functools import cached_property
from typing import Any

try:
    import reasoning_gym
    from reasoning_gym.coaching.attributes import RangeAttributeDefinition
    from reasoning_gym.coaching.base_curriculum import BaseCurriculum
    from reasoning_gym.dataset import ProceduralDataset
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"acpgen.adapters.gym needs the reasoning-gym package ({err}); install it with `pip install -e '.[gym]'`"
    ) from err

from acpgen.adapters.prompts import prompt
from acpgen.api import GenerationShortfall, generate, load, reference_answer
from acpgen.config import FORMATS
from acpgen.errors import ConfigError, DataError
from acpgen.evaluation.records import record_task
from acpgen.generation.levels import LEVELS
from acpgen.tasks import TASKS, split_kind, task_formats
from acpgen.training.adaptive import AdaptiveSettings, AdaptiveSource
from acpgen.training.rewards import reward
from acpgen.training.sources import epoch_seed

#: the seeds a dataset draws a domain's and level's records from, at most: its own, then ones derived from it
MAX_ROUNDS = 4


def dataset_name(task: str) -> str:
    """The reasoning-gym name of an acp task: ``acp_reach``."""
    return f"acp_{task}"


@dataclass
class AcpDatasetConfig:
    """Configuration of an ``acp_<task>`` dataset.

    ``domains``: domains of the pipeline configuration to draw from; ``level``: a difficulty level
    1-5 or None (the configured sizes); ``min_level`` and ``max_level`` instead: every level of that
    range, taken in turn (what the curriculum sets); ``format``: gen, bool or mcq; ``config``: a pipeline
    configuration file (default: acp's default ``acpgen/data/pipeline.yaml``); ``cache_dir``: where the
    stages write and resume (default: a temporary folder per dataset); ``seed`` and ``size`` as
    for every reasoning-gym dataset; ``strict``: the reading of ``score_answer`` (default True, the strict
    reading of rewards, `acpgen.training.rewards`; False: the lenient reading of evaluation).
    """

    domains: tuple[str, ...] = ("ferry",)
    level: int | None = None
    min_level: int | None = None
    max_level: int | None = None
    format: str = "gen"
    config: str | None = None
    cache_dir: str | None = None
    seed: int | None = None
    size: int = 20
    strict: bool = True
    split: str | None = None

    def validate(self) -> None:
        if isinstance(self.domains, str):
            self.domains = (self.domains,)
        if not self.domains:
            raise ConfigError("acp dataset: domains is empty; name at least one domain of the pipeline configuration")
        if self.format not in FORMATS:
            raise ConfigError(f"acp dataset: format {self.format!r}; choose from {', '.join(FORMATS)}")
        if not isinstance(self.size, int) or self.size < 1:
            raise ConfigError(f"acp dataset: size must be a positive number, not {self.size!r}")
        self.levels()

    def levels(self) -> list[int | None]:
        """The levels the records are drawn from, in turn: ``[level]``, or ``min_level`` to ``max_level``."""
        if self.min_level is None and self.max_level is None:
            if self.level is not None and self.level not in LEVELS:
                raise ConfigError(f"acp dataset: level {self.level!r}; choose 1 to 5 or None")
            return [self.level]
        low = LEVELS[0] if self.min_level is None else self.min_level
        high = LEVELS[-1] if self.max_level is None else self.max_level
        if self.level is not None or low not in LEVELS or high not in LEVELS or low > high:
            raise ConfigError(
                f"acp dataset: min_level {self.min_level!r}, max_level {self.max_level!r}: levels 1 to 5 with "
                "min <= max, and no level besides them"
            )
        return list(range(low, high + 1))


class AcpDataset(ProceduralDataset):
    """The records of one acp task as a reasoning-gym dataset (subclassed per task by `register`)."""

    task: str = ""

    def __init__(self, config: AcpDatasetConfig):
        super().__init__(config=config, seed=config.seed, size=config.size)
        if (self.task, config.format) not in task_formats([config.format]):
            raise ConfigError(f"{dataset_name(self.task)}: task {self.task} has no {config.format} format")

    @cached_property
    def _records(self) -> list[dict]:
        config: AcpDatasetConfig = self.config
        levels = config.levels()
        sources = [(domain, level) for level in levels for domain in config.domains]
        per_source = math.ceil(self.size / len(sources))
        if config.split:
            made = self._split_records(sources)
        else:
            made = [self._source_records(domain, level, per_source, len(levels) > 1) for domain, level in sources]
        records = [r for k in range(per_source) for group in made if k < len(group) for r in [group[k]]]
        if len(records) < self.size:
            counts = ", ".join(f"{d} (level {lv}): {len(g)}" for (d, lv), g in zip(sources, made))
            if config.split:
                raise DataError(
                    f"{dataset_name(self.task)}: {len(records)} of {self.size} records in {config.split} ({counts}); "
                    f"ask for a smaller size, or generate more {self.task} {config.format} records at those levels"
                )
            raise DataError(
                f"{dataset_name(self.task)}: {len(records)} of {self.size} records ({counts}, from {MAX_ROUNDS} seeds "
                "each); ask for a smaller size, add domains, or give a config with more problems per domain"
            )
        return records[: self.size]

    def _split_records(self, sources: list[tuple[str, int | None]]) -> list[list[dict]]:
        """The split's records of each (domain, level) source, in the order of the seed's shuffle (all of them; the
        caller takes them in turn). A level of None takes the domain's records of any level."""
        config: AcpDatasetConfig = self.config
        wanted = (self.task, config.format)

        def keep(record: dict) -> bool:
            kind = record_task(record)
            return kind is not None and split_kind(kind) == wanted and record.get("domain") in config.domains

        assert config.split is not None
        records = [r for r in load(config.split) if keep(r)]
        random.Random(epoch_seed(self.seed, 0)).shuffle(records)  # as SplitSource's epoch 0
        return [
            [r for r in records if r.get("domain") == domain and (level is None or r.get("level") == level)]
            for domain, level in sources
        ]

    def _source_records(self, domain: str, level: int | None, n: int, by_level: bool) -> list[dict]:
        """``n`` records of one domain and level: those of the dataset's seed, then, while fewer, those of further
        seeds derived from it (new problems), at most :data:`MAX_ROUNDS` seeds in all."""
        config: AcpDatasetConfig = self.config
        records: list[dict] = []
        for round_ in range(MAX_ROUNDS):
            folder = config.cache_dir
            if folder is not None:  # a level changes the sizes, a seed the problems: their own stages
                folder = f"{folder}/level-{level}" if by_level else folder
                folder = f"{folder}/round-{round_}" if round_ else folder
            seed = self.seed if round_ == 0 else epoch_seed(self.seed, round_)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", GenerationShortfall)  # a shortfall draws on the next seed
                made = generate(
                    domain, self.task, n=n - len(records), seed=seed, level=level, format=config.format,
                    config=config.config, cache_dir=folder,
                )  # fmt: skip
                records += list(made)
            if len(records) >= n:
                break
        return records[:n]

    def __getitem__(self, idx: int) -> dict[str, Any]:
        record = self._records[idx]
        fmt = self.config.format
        levels = self.config.levels()
        return {
            "question": prompt(record, self.task, fmt),
            "answer": reference_answer(record),
            "metadata": {
                "source_dataset": dataset_name(self.task),
                "source_index": idx,
                "task": self.task,
                "format": fmt,
                "domain": record.get("domain"),
                "id": record["id"],
                "level": record.get("level"),
                # reasoning-gym's convention (its ScoreBoard and CurriculumExperiment group scores by it): the
                # configuration's range of each curriculum attribute, here acp's level (None: the configured sizes)
                "difficulty": {"level": (levels[0], levels[-1])},
                "record": record,
            },
        }

    def score_answer(self, answer: str | None, entry: dict[str, Any]) -> float:
        """acp's reward of ``answer`` for the entry's record (`acpgen.training.rewards.reward`, the reading of the
        configuration's ``strict``; undecided: 0.0)."""
        value = reward(entry["metadata"]["record"], answer, strict=self.config.strict).value
        return 0.0 if value is None else value


class AcpCurriculum(BaseCurriculum):
    """The curriculum of an ``acp_<task>`` dataset: one attribute, ``level``, acp's difficulty level 1-5
    (`acpgen.generation.levels`: the share of each domain's sizes, the distance of the states from the
    goal, the length of the reasoning-about-actions sequences), as a range that sets the configuration's
    ``min_level`` and ``max_level`` (see the module docstring). A level is a size band of every domain, so
    there is no separate size attribute. Subclassed per task by `register` (reasoning-gym makes a
    curriculum with no arguments)."""

    task: str = ""

    def __init__(self) -> None:
        super().__init__(name=f"{type(self).__name__}", config_cls=AcpDatasetConfig)
        self._define_attributes(
            RangeAttributeDefinition(
                name="level",
                levels=list(LEVELS),
                description="acp's difficulty level: problem sizes and the distance to the goal",
                lower_field_name="min_level",
                upper_field_name="max_level",
            )
        )


#: the reasoning-gym name of the dataset whose difficulty follows the learner
ADAPTIVE = "acp_adaptive"


@dataclass
class AcpAdaptiveConfig:
    """Configuration of the ``acp_adaptive`` dataset: records of ``tasks`` and ``domains`` from an adaptive source
    (`acpgen.training.adaptive`: RLVE's rule; ``window``, ``threshold``, ``samples``, ``solved``, ``start``,
    ``batch``, ``workers`` and ``ahead`` are its settings), in ``format``, from the pipeline ``config``; ``seed``,
    ``size`` (how many entries a pass over the dataset gives) and ``strict`` as for ``acp_<task>``."""

    tasks: tuple[str, ...] = ("plan",)
    domains: tuple[str, ...] = ("ferry",)
    format: str = "gen"
    config: str | None = None
    seed: int | None = None
    size: int = 500
    strict: bool = True
    window: int = 4
    threshold: float = 0.9
    samples: int = 8
    solved: float = 1.0
    start: int = 1
    batch: int = 8
    workers: int = 1
    ahead: int = 2

    def validate(self) -> None:
        self.tasks = (self.tasks,) if isinstance(self.tasks, str) else tuple(self.tasks)
        self.domains = (self.domains,) if isinstance(self.domains, str) else tuple(self.domains)
        if not self.tasks or not self.domains:
            raise ConfigError(f"{ADAPTIVE}: name at least one task and one domain")
        if not isinstance(self.size, int) or self.size < 1:
            raise ConfigError(f"{ADAPTIVE}: size must be a positive number, not {self.size!r}")
        self.settings()

    def settings(self) -> AdaptiveSettings:
        names = ("window", "threshold", "samples", "solved", "start", "batch", "workers", "ahead")
        return AdaptiveSettings(**{name: getattr(self, name) for name in names})


class AcpAdaptiveDataset(ProceduralDataset):
    """Entries whose difficulty follows the rewards ``score_answer`` gives: entry ``i`` is the ``i``-th record the
    dataset's adaptive source draws (drawn in order when first asked for, then kept), and ``score_answer`` tells
    the source each reward, so the entries asked for after it are drawn at the difficulty the learner has
    reached. The metadata carries the record and its ``difficulty`` as ``{"difficulty": d}`` (reasoning-gym's
    convention: the attributes a score is grouped by). The source's background processes stop with
    :meth:`close`."""

    def __init__(self, config: AcpAdaptiveConfig):
        super().__init__(config=config, seed=config.seed, size=config.size)
        self._entries: list[dict[str, Any]] = []

    @cached_property
    def source(self) -> AdaptiveSource:
        """The adaptive source, made on first use (reasoning-gym builds a dataset just to reach ``score_answer``)."""
        config: AcpAdaptiveConfig = self.config
        return AdaptiveSource(
            config.tasks, config.domains, self.seed, format=config.format, config=config.config,
            settings=config.settings(),
        )  # fmt: skip

    def __getitem__(self, idx: int) -> dict[str, Any]:
        while len(self._entries) <= idx:
            record = next(self.source)
            name, fmt = split_kind(record_task(record) or "")
            self._entries.append(
                {
                    "question": prompt(record, name, fmt),
                    "answer": reference_answer(record),
                    "metadata": {
                        "source_dataset": ADAPTIVE,
                        "source_index": len(self._entries),
                        "task": name,
                        "format": fmt,
                        "domain": record.get("domain"),
                        "id": record["id"],
                        "difficulty": {"difficulty": record["difficulty"]},
                        "record": record,
                    },
                }
            )
        return self._entries[idx]

    def score_answer(self, answer: str | None, entry: dict[str, Any]) -> float:
        """acp's reward of ``answer`` (as ``acp_<task>``'s), told to the source (an undecided answer is not counted,
        and scores 0.0 here, since a reward must be a number)."""
        record = entry["metadata"]["record"]
        value = reward(record, answer, strict=self.config.strict).value
        self.source.update(record, value)
        return 0.0 if value is None else value

    def close(self) -> None:
        if "source" in self.__dict__:
            self.source.close()


def register() -> list[str]:
    """Register ``acp_<task>`` (with its curriculum) for every task of acp's registry, and ``acp_adaptive``, that
    reasoning-gym does not know yet; the names registered."""
    names = []
    if ADAPTIVE not in reasoning_gym.factory.DATASETS:
        reasoning_gym.register_dataset(ADAPTIVE, AcpAdaptiveDataset, AcpAdaptiveConfig)
        names.append(ADAPTIVE)
    for task in TASKS:
        name = dataset_name(task)
        if name in reasoning_gym.factory.DATASETS:
            continue
        title = task.capitalize().replace("_", "")
        cls = type(f"Acp{title}Dataset", (AcpDataset,), {"task": task, "__module__": __name__})
        curriculum = type(f"Acp{title}Curriculum", (AcpCurriculum,), {"task": task, "__module__": __name__})
        reasoning_gym.register_dataset(name, cls, AcpDatasetConfig, curriculum)
        names.append(name)
    return names


register()
