"""Records whose difficulty follows the learner: RLVE's adaptive environments over acp's generators.

A source draws records of some tasks and domains without end, each with an integer ``difficulty``; the
trainer tells it the reward each record earned (:meth:`AdaptiveSource.update`, which the adapters' reward
functions call), and the source moves each environment's difficulty up as the learner masters it::

    source = acpgen.adaptive(tasks=["plan"], domains=["ferry"], seed=0)
    for record in source:
        source.update(record, reward_of(record))

**Difficulty.** A record's difficulty is ``d = p + s``: ``p`` the position of its problem's size in the
domain's size list of the configuration (from 0; the lists run from small to large problems) and ``s`` its
steps, what besides the size makes its task harder (the task's ``difficulty_steps``): the remaining plan
length of the state asked about for most tasks (the stored plan's steps to the goal: the optimal ones where
the plans stage proves them, as `acpgen.generation.levels` measures a level's distance), the length of the
action sequence for the reasoning-about-actions tasks, and for text to PDDL none (``d = p + 1``). So ``d`` is
monotone in the problem's size and in its steps, starts at 1, and is finer than the five levels (ferry's ten
sizes and plans of up to 30 steps give difficulties 1 to about 40). A difficulty is made from the size
``p = min(sizes - 1, (d - 1) // 2)`` and ``s = d - p`` steps (size and steps grow together); when those give
no record (no state of the size lies that far from the goal), the other splits of ``d`` are tried, nearer
sizes first. A difficulty no split gives is past the environment's reach, and the source stays below it; or,
before any difficulty gave records, below its floor (a plan question needs two steps at least: its floor is 2),
and the source draws from the floor up.

**The rule** (RLVE, Zeng et al. 2025, arXiv 2511.07317; their defaults): each environment (a task and a
domain) has a top difficulty ``h``, from ``start``; a record is drawn at a difficulty uniform in ``[h - window
+ 1, h]`` (from 1); the rewards of records at ``h`` are counted, and after ``samples`` of them, if the share
that solved it (a reward of at least ``solved``) is at least ``threshold``, ``h`` goes up by one; the count then
starts again. A learner that solves exactly the records of difficulty at most ``k`` settles with ``h = k + 1``,
drawing ``k - 2`` to ``k + 1`` (median ``k - 0.5``), and follows when ``k`` rises. An undecided reward (None) is
not counted. Environments are drawn in turn at random.

**Determinism.** The records of a difficulty come in batches made by `acpgen.generate` with a seed derived
from the source's seed, the environment, the difficulty and the batch's number, so each batch is the same
on any machine; the draws use a generator seeded by the source's seed. The same seed and the same calls
(draws and updates, in the same order) give the same records, whatever ran ahead. **Generation ahead:**
``workers`` background processes (spawned: the trainer's threads are not forked) make the batches of the
difficulties in play and of the next one up before they are drawn, at most ``ahead`` batches in flight per
process; a draw waits only for a batch that is not made yet (``workers=0``: made in this process when drawn).
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import random
import warnings
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from acpgen.api import GenerationShortfall, generate
from acpgen.config import FORMATS, PipelineConfig, load_config
from acpgen.errors import ConfigError, DataError
from acpgen.tasks import TASKS, get_task

#: a difficulty that gives no record, with none below it that did, is below the environment's floor up to this one
MAX_FLOOR = 64


@dataclass(frozen=True)
class AdaptiveSettings:
    """The rule and the generation of an adaptive source (see the module docstring; RLVE's defaults)."""

    window: int = 4  # difficulties drawn: the top one and the window - 1 below it
    threshold: float = 0.9  # the share of records at the top solved that moves it up
    samples: int = 8  # rewards at the top difficulty counted before each check
    solved: float = 1.0  # a reward at least this counts as solved
    start: int = 1  # the top difficulty to begin with
    batch: int = 8  # records made at a time for one difficulty
    workers: int = 1  # background generation processes (0: in this process, when drawn)
    ahead: int = 2  # batches in flight per background process

    def __post_init__(self) -> None:
        counts = {"window": self.window, "samples": self.samples, "start": self.start, "batch": self.batch}
        for name, value in {**counts, "ahead": self.ahead}.items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ConfigError(f"adaptive: {name} must be a whole number >= 1, not {value!r}")
        if not isinstance(self.workers, int) or self.workers < 0:
            raise ConfigError(f"adaptive: workers must be a whole number >= 0, not {self.workers!r}")
        if not 0 < self.threshold <= 1:
            raise ConfigError(f"adaptive: threshold must lie in (0, 1], not {self.threshold!r}")


def splits(difficulty: int, sizes: int, steps: str) -> list[tuple[int, int]]:
    """The (size position, steps) pairs that make ``difficulty`` for a domain of ``sizes`` sizes, in the order they
    are tried (see the module docstring); for a task whose steps are ``none``, the one size ``difficulty - 1``."""
    if steps == "none":
        return [(difficulty - 1, 0)] if difficulty <= sizes else []
    first = min(sizes - 1, (difficulty - 1) // 2)
    order = sorted(range(sizes), key=lambda p: (abs(p - first), -p))
    return [(p, difficulty - p) for p in order if difficulty - p >= 1]


def cell_config(config: PipelineConfig, domain: str, position: int, steps: int, kind: str) -> PipelineConfig:
    """The configuration that makes records of ``domain`` from its size at ``position`` with ``steps`` steps of
    the kind ``kind`` (a task's ``difficulty_steps``); the plans stage of the largest fifth of the sizes takes one
    satisficing plan per problem, as level 5 does; no problem no plan solves (their states are no distance from a
    goal: the plan tasks' impossible questions come from `acpgen.generate` and `acp generate`)."""
    entry = config.domain(domain)
    sizes = {**config.domains, domain: replace(entry, sizes=(entry.sizes[position],))}
    states = replace(config.states, goal_distance=(steps, steps) if kind == "distance" else None)
    qa = replace(config.qa, sequence_lengths=(steps,) if kind == "sequence" else None)
    plans = config.plans
    if position >= math.ceil(0.8 * len(entry.sizes)) and len(entry.sizes) >= 5:
        plans = replace(plans, search="satisficing")
    qa = replace(qa, unsolvable_share=0.0)  # a difficulty is a plan's length: problems no plan solves have none
    return replace(config, domains=sizes, states=states, qa=qa, plans=plans)


def batch_seed(seed: int, environment: tuple[str, str, str], difficulty: int, number: int) -> int:
    """The seed of batch ``number`` of ``difficulty`` in an environment (a hash: neighbours share nothing)."""
    text = f"acp-adaptive:{seed}:{':'.join(environment)}:{difficulty}:{number}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") & 0x7FFFFFFF


@dataclass(frozen=True)
class _Batch:
    """One batch to make (picklable: it runs in a worker process)."""

    task: str
    domain: str
    format: str
    difficulty: int
    number: int
    seed: int
    n: int
    config: PipelineConfig

    @property
    def environment(self) -> tuple[str, str, str]:
        return self.task, self.domain, self.format


def make_batch(batch: _Batch) -> list[dict[str, Any]]:
    """The records of a batch, each with its ``difficulty``: those of the first split of the difficulty that
    gives any (none: the difficulty is past the environment's reach)."""
    kind = get_task(batch.task).difficulty_steps
    sizes = len(batch.config.domain(batch.domain).sizes)
    for position, steps in splits(batch.difficulty, sizes, kind):
        config = cell_config(batch.config, batch.domain, position, steps, kind)
        seed = batch_seed(batch.seed, batch.environment, batch.difficulty, batch.number)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", GenerationShortfall)  # a short batch is used as it is
            made = generate(batch.domain, batch.task, n=batch.n, seed=seed, format=batch.format, config=config)
            records = list(made)
        if records:
            return [{**record, "difficulty": batch.difficulty} for record in records]
    return []


@dataclass
class _Environment:
    """A task and domain: its top difficulty, the count at the top, and the records made per difficulty."""

    task: str
    domain: str
    format: str
    top: int
    solved: int = 0
    counted: int = 0
    #: the least difficulty no split gives above one that gave records (None: none met yet)
    ceiling: int | None = None
    floor: int = 1  # the least difficulty drawn: those below it gave no record
    lowest: int | None = None  # the least difficulty that gave records so far
    ready: dict[int, deque[dict[str, Any]]] = field(default_factory=dict)
    made: dict[int, int] = field(default_factory=dict)  # batches taken per difficulty
    pending: dict[int, deque[Future[list[dict[str, Any]]]]] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str]:
        return self.task, self.domain, self.format

    def drawn_from(self, window: int) -> range:
        """The difficulties drawn: the top one and those of the window below it (from the floor)."""
        return range(max(self.floor, self.top - window + 1), self.top + 1)


class AdaptiveSource:
    """Records of ``tasks`` and ``domains`` whose difficulty follows the rewards it is told (module docstring).

    Iterate for records (endless); call :meth:`update` with each record's reward; :attr:`tops` gives each
    environment's top difficulty. ``config``: the pipeline configuration whose domains and budgets the records
    are made with (default: acp's); ``format``: gen, bool or mcq. Close it (or use it as a context manager) to
    stop the background processes."""

    def __init__(
        self,
        tasks: str | Sequence[str],
        domains: str | Sequence[str],
        seed: int = 0,
        *,
        format: str = "gen",
        config: str | Path | PipelineConfig | None = None,
        settings: AdaptiveSettings | None = None,
    ):
        names = [tasks] if isinstance(tasks, str) else list(tasks)
        places = [domains] if isinstance(domains, str) else list(domains)
        if not names or not places:
            raise ConfigError("adaptive: give at least one task and one domain")
        if format not in FORMATS:
            raise ConfigError(f"adaptive: format {format!r}; choose from {', '.join(FORMATS)}")
        self.config = config if isinstance(config, PipelineConfig) else load_config(Path(config) if config else None)
        for place in places:
            self.config.domain(place)  # a domain the configuration has, or an error naming the configured ones
        tasks_ = [get_task(name).name for name in names]
        unknown = [t for t in tasks_ if format != "gen" and TASKS[t].choice is None]
        if unknown:
            raise ConfigError(f"adaptive: {', '.join(unknown)} have no {format} format (only gen)")
        self.seed = seed
        self.settings = settings or AdaptiveSettings()
        start = self.settings.start
        self.environments = [_Environment(t, d, format, start) for t in tasks_ for d in places]
        self._by_key = {env.key: env for env in self.environments}
        self._rng = random.Random(f"acp-adaptive-draws:{seed}")
        self._pool: ProcessPoolExecutor | None = None
        self.drawn = 0

    # ----- drawing ---------------------------------------------------------------------------------------
    def __iter__(self) -> Iterator[dict[str, Any]]:
        return self

    def __next__(self) -> dict[str, Any]:
        env = self.environments[self._rng.randrange(len(self.environments))]
        difficulty = self._rng.choice(env.drawn_from(self.settings.window))
        record = self._take(env, difficulty)
        self.drawn += 1
        self._run_ahead()
        return record

    def _take(self, env: _Environment, difficulty: int) -> dict[str, Any]:
        """The next record of ``difficulty`` in ``env``: below the environment's floor, of the floor; past its
        reach, of the highest difficulty below it."""
        while True:
            queue = env.ready.setdefault(difficulty, deque())
            if queue:
                return queue.popleft()
            records = self._next_batch(env, difficulty)
            if records:
                env.lowest = difficulty if env.lowest is None else min(env.lowest, difficulty)
                queue.extend(records)
                continue
            if env.lowest is None or difficulty < env.lowest:  # below the floor (plan: two steps at least)
                if difficulty >= MAX_FLOOR:
                    raise DataError(
                        f"adaptive: no {env.task} {env.format} record of {env.domain} at any difficulty up to "
                        f"{MAX_FLOOR}; check the domain's sizes and budgets in the configuration"
                    )
                env.floor = difficulty + 1
                env.top = max(env.top, env.floor)
                difficulty += 1
            else:  # past the environment's reach
                env.ceiling = difficulty if env.ceiling is None else min(env.ceiling, difficulty)
                env.top = min(env.top, difficulty - 1)
                difficulty -= 1

    def _next_batch(self, env: _Environment, difficulty: int) -> list[dict[str, Any]]:
        pending = env.pending.setdefault(difficulty, deque())
        if not pending:
            pending.append(self._submit(env, difficulty))
        return pending.popleft().result()

    def _submit(self, env: _Environment, difficulty: int) -> Future[list[dict[str, Any]]]:
        number = env.made.get(difficulty, 0)
        env.made[difficulty] = number + 1
        batch = _Batch(
            env.task, env.domain, env.format, difficulty, number, self.seed, self.settings.batch, self.config
        )
        if self.settings.workers == 0:
            future: Future[list[dict[str, Any]]] = Future()
            future.set_result(make_batch(batch))
            return future
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.settings.workers, mp_context=context)
        return self._pool.submit(make_batch, batch)

    def _run_ahead(self) -> None:
        """Submit the batches most likely drawn next (the difficulties in play without records ready, and the one
        above the top), up to ``ahead`` per process in flight."""
        if self.settings.workers == 0:
            return
        limit = self.settings.ahead * self.settings.workers
        in_flight = sum(1 for env in self.environments for p in env.pending.values() for f in p if not f.done())
        wanted = []
        for env in self.environments:
            for difficulty in [*env.drawn_from(self.settings.window), env.top + 1]:
                if env.ceiling is not None and difficulty >= env.ceiling:
                    continue
                stocked = len(env.ready.get(difficulty, ())) + self.settings.batch * len(
                    env.pending.get(difficulty, ())
                )
                if stocked < self.settings.batch:
                    wanted.append((stocked, -difficulty, env, difficulty))
        for _, _, env, difficulty in sorted(wanted, key=lambda w: (w[0], w[1])):
            if in_flight >= limit:
                break
            env.pending.setdefault(difficulty, deque()).append(self._submit(env, difficulty))
            in_flight += 1

    # ----- learning --------------------------------------------------------------------------------------
    def update(self, record: dict[str, Any], reward: float | None) -> None:
        """Count ``reward`` (None: undecided, not counted) for ``record``, a record this source gave; the top
        difficulty of its environment moves as the module docstring says."""
        key = (
            str(record.get("task")),
            str(record.get("domain")),
            "gen" if "format" not in record else str(record["format"]),
        )
        env = self._by_key.get(key)
        if env is None or not isinstance(record.get("difficulty"), int):
            raise DataError(
                f"adaptive: record {record.get('id')!r} is not one of this source's (task, domain, difficulty)"
            )
        if reward is None or record["difficulty"] != env.top:
            return
        env.counted += 1
        env.solved += reward >= self.settings.solved
        if env.counted < self.settings.samples:
            return
        if env.solved >= self.settings.threshold * env.counted and (env.ceiling is None or env.top + 1 < env.ceiling):
            env.top += 1
        env.solved = env.counted = 0

    @property
    def tops(self) -> dict[tuple[str, str], int]:
        """Each environment's top difficulty, by (task, domain)."""
        return {(env.task, env.domain): env.top for env in self.environments}

    # ----- lifetime --------------------------------------------------------------------------------------
    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> AdaptiveSource:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def adaptive(
    tasks: str | Sequence[str],
    domains: str | Sequence[str],
    seed: int = 0,
    *,
    format: str = "gen",
    config: str | Path | PipelineConfig | None = None,
    **settings: Any,
) -> AdaptiveSource:
    """An :class:`AdaptiveSource` of ``tasks`` and ``domains``; ``settings`` are the fields of
    :class:`AdaptiveSettings` (``window``, ``threshold``, ``samples``, ``solved``, ``start``, ``batch``,
    ``workers``, ``ahead``)."""
    return AdaptiveSource(tasks, domains, seed, format=format, config=config, settings=AdaptiveSettings(**settings))
