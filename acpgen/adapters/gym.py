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
``metadata`` the record itself (``record``) with its task, format, domain and id. ``score_answer``
is acp's scorer (`acpgen.score`): 1.0 or 0.0; an answer acp cannot decide (a planner ran out of
time) scores 0.0 here, since a reward must be a number.

The records are made on first use (not when the dataset object is built: reasoning-gym builds one
with the default configuration just to reach its ``score_answer``) by `acpgen.generate`, the same
records `acp generate` writes for the seed: ``ceil(size / len(domains))`` per domain, taken in turn
from the domains. The same seed and configuration give the same items. A configuration whose
problems cannot give ``size`` records is an error naming what to change.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

try:
    import reasoning_gym
    from reasoning_gym.dataset import ProceduralDataset
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"acpgen.adapters.gym needs the reasoning-gym package ({err}); install it with `pip install -e '.[gym]'`"
    ) from err

from acpgen.adapters.prompts import prompt
from acpgen.api import generate, reference_answer, score
from acpgen.config import FORMATS
from acpgen.errors import ConfigError, DataError
from acpgen.tasks import TASKS, task_formats


def dataset_name(task: str) -> str:
    """The reasoning-gym name of an acp task: ``acp_reach``."""
    return f"acp_{task}"


@dataclass
class AcpDatasetConfig:
    """Configuration of an ``acp_<task>`` dataset.

    ``domains``: domains of the pipeline configuration to draw from; ``level``: a difficulty level
    1-5 or None (the configured sizes); ``format``: gen, bool or mcq; ``config``: a pipeline
    configuration file (default: acp's default ``acpgen/data/pipeline.yaml``); ``cache_dir``: where the
    stages write and resume (default: a temporary folder per dataset); ``seed`` and ``size`` as
    for every reasoning-gym dataset.
    """

    domains: tuple[str, ...] = ("ferry",)
    level: int | None = None
    format: str = "gen"
    config: str | None = None
    cache_dir: str | None = None
    seed: int | None = None
    size: int = 20

    def validate(self) -> None:
        if isinstance(self.domains, str):
            self.domains = (self.domains,)
        if not self.domains:
            raise ConfigError("acp dataset: domains is empty; name at least one domain of the pipeline configuration")
        if self.format not in FORMATS:
            raise ConfigError(f"acp dataset: format {self.format!r}; choose from {', '.join(FORMATS)}")
        if not isinstance(self.size, int) or self.size < 1:
            raise ConfigError(f"acp dataset: size must be a positive number, not {self.size!r}")


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
        domains = list(config.domains)
        per_domain = math.ceil(self.size / len(domains))
        by_domain = [
            list(
                generate(
                    name,
                    self.task,
                    n=per_domain,
                    seed=self.seed,
                    level=config.level,
                    format=config.format,
                    config=config.config,
                    cache_dir=config.cache_dir,
                )
            )
            for name in domains
        ]
        records = [r for k in range(per_domain) for group in by_domain if k < len(group) for r in [group[k]]]
        if len(records) < self.size:
            counts = ", ".join(f"{d}: {len(g)}" for d, g in zip(domains, by_domain))
            raise DataError(
                f"{dataset_name(self.task)}: {len(records)} of {self.size} records ({counts}); ask for a smaller size, "
                f"add domains, or give a config with more problems per domain"
            )
        return records[: self.size]

    def __getitem__(self, idx: int) -> dict[str, Any]:
        record = self._records[idx]
        fmt = self.config.format
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
                "record": record,
            },
        }

    def score_answer(self, answer: str | None, entry: dict[str, Any]) -> float:
        """acp's score of ``answer`` for the entry's record (undecided: 0.0)."""
        return score(entry["metadata"]["record"], answer).score


def register() -> list[str]:
    """Register ``acp_<task>`` for every task of acp's registry that reasoning-gym does not know yet;
    the names registered."""
    names = []
    for task in TASKS:
        name = dataset_name(task)
        if name in reasoning_gym.factory.DATASETS:
            continue
        cls = type(f"Acp{task.capitalize()}Dataset", (AcpDataset,), {"task": task, "__module__": __name__})
        reasoning_gym.register_dataset(name, cls, AcpDatasetConfig)
        names.append(name)
    return names


register()
