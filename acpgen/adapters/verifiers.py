"""acp's questions as a verifiers taskset (the extra ``rl``: ``pip install 'acpgen[rl]'``; verifiers 0.4,
``verifiers.v1``).

`vf-eval` loads it by its module name from the installed acp (a verifiers plugin is a module that
exports its ``Taskset`` subclass in ``__all__``)::

    vf-eval acpgen.adapters.verifiers --env.taskset.tasks '["plan"]' --env.taskset.level 1 -n 8 -m <model>

and ``environments/acp_tasks`` is the same taskset as an environment package laid out as `vf-init`
writes it (for the Environments Hub). One task per record: the prompt is the record's context,
question and how to answer (`acpgen.adapters.prompts`); the model answers once (``@vf.stop`` after
one turn). Rewards (`acpgen.training.rewards`, the strict reading unless ``strict`` is off in the
task config): ``acp_score`` (weight 1: acp's exact score), and the partial-credit signals ``f1`` (set
answers), ``goal_fraction`` and ``plan_prefix`` (plans) as rewards of weight 0 — recorded on every trace,
and added to the reward by giving them a weight (``--env.taskset.task.rewards.goal_fraction.weight 0.2``);
a task without the signal gives its exact score for it. Metrics: ``precision``, ``recall``,
``parse_error``, ``undecided``. An answer acp cannot decide (a planner ran out of time, its scoring took
longer than its budget) has no reward, by verifiers' convention for a score that could not be made: the
rewards raise :class:`UndecidedAnswer`, verifiers records it as the rollout's error with its rewards
unscored (None) and leaves the rollout out of its means; the metric ``undecided`` is 1. The answers are
scored on worker processes (`acpgen.training.batch`; the task config's ``workers``, default the cores this
process may use, and ``budget``, 60 s per answer), those whose scores are asked for in the same turn of the
event loop as one batch, without blocking the loop; a batch with undecided answers is a warning on this
module's logger. ``Task.validate`` (`vf-validate`) checks that the stored answer, as a model writes it,
scores 1.

Records (:class:`AcpTasksetConfig`): ``split``, a records file or folder (`acp generate` or `acp
dataset` output), or else made by `acpgen.generate` for ``tasks`` x ``domains`` (``n`` per task,
domain and epoch, at ``level`` or by ``level_schedule``, in ``format`` and ``representation``,
``obfuscate``d, from the pipeline ``config``), shuffled per epoch with ``seed``. ``epochs`` bounds
the stream (1: a fixed split for evaluation); ``epochs: null`` makes it endless (training). With ``adaptive``
(``--env.taskset.adaptive true``) the records come from an adaptive source instead (`acpgen.adaptive`: RLVE's
rule over ``tasks`` x ``domains``, ``seed``, ``format``, ``config``, ``workers`` background processes), without
end, and each rollout's ``acp_score`` is told to the source when it is scored: the difficulty of the tasks
loaded after it follows the policy.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from collections.abc import Iterator
from typing import Any

try:
    import verifiers.v1 as vf
    from pydantic import Field
    from verifiers.v1.harnesses.null import NullHarnessConfig
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"acpgen.adapters.verifiers needs the verifiers package ({err}); install it with `pip install 'acpgen[rl]'`"
    ) from err

from acpgen.adapters.prompts import prompt
from acpgen.api import reference_answer
from acpgen.evaluation.records import record_task
from acpgen.generation.levels import LEVELS
from acpgen.tasks import split_kind
from acpgen.training.adaptive import AdaptiveSettings, AdaptiveSource
from acpgen.training.batch import DEFAULT_BUDGET, AsyncRewards
from acpgen.training.failures import FailureWatch, WatchedRollouts
from acpgen.training.rewards import Reward, reward
from acpgen.training.sources import GeneratedSource, SplitSource, epoch_seed

log = logging.getLogger(__name__)


class AcpTaskData(vf.TaskData):
    """One acp record: ``record`` (the whole record: PDDL, stored answer, task) and ``answer`` (the
    stored answer as a model writes it)."""

    record: dict[str, Any]
    answer: str = ""
    adaptive: int = 0  # the adaptive source the record came from (a key of _ADAPTIVE; 0: none)


class AcpTaskConfig(vf.TaskConfig):
    """``strict``: the strict reading for rewards (a part of a set answer that reads as nothing makes it wrong);
    ``workers``: the processes that score the answers (None: the cores this process may use; 1: in this process);
    ``budget``: seconds per answer's scoring (None: no limit)."""

    strict: bool = True
    workers: int | None = None
    budget: float | None = DEFAULT_BUDGET


class AcpTasksetConfig(vf.TasksetConfig):
    """Which records, and how many (see the module docstring)."""

    tasks: list[str] = Field(default_factory=lambda: ["plan"])
    domains: list[str] = Field(default_factory=lambda: ["ferry"])
    level: int | None = None
    level_schedule: list[int] = Field(default_factory=list)
    format: str = "gen"
    representation: str | None = None
    obfuscate: str | None = None
    n: int = 10
    seed: int = 0
    epochs: int | None = 1
    split: str | None = None
    config: str | None = None
    workers: int = 0
    adaptive: bool = False
    task: AcpTaskConfig = AcpTaskConfig()


class UndecidedAnswer(Exception):
    """acp could not decide an answer (a planner ran out of time, its scoring took longer than its budget): the
    rollout has no reward. Raised by the rewards, verifiers records it as the rollout's error and leaves its
    rewards unscored (None), and its means leave the rollout out."""


#: the adaptive sources of the tasksets made in this process, by key (:attr:`AcpTaskData.adaptive`)
_ADAPTIVE: dict[int, AdaptiveSource] = {}

#: the scorers of the answers, by their settings (``strict``, ``workers``, ``budget``)
_SCORERS: dict[tuple, AsyncRewards] = {}
#: the scores under way, by ``id`` of their trace (its metrics and rewards ask at once; traces are unhashable):
#: the reply scored and its future, until it is done
_UNDER_WAY: dict[int, tuple[str | None, asyncio.Future]] = {}


async def _judged(record: dict[str, Any], trace: vf.Trace, config: AcpTaskConfig, adaptive: int = 0) -> Reward:
    """The reward of the trace's last reply, worked out once per trace (kept in ``trace.info``): scored with the
    other replies whose scores are asked for in the same turn of the event loop, on worker processes; told to the
    record's adaptive source (``adaptive``), once."""
    kept = trace.info.get("acp")
    if not isinstance(kept, dict) or kept.get("reply") != trace.last_reply:
        under_way = _UNDER_WAY.get(id(trace))
        if under_way is None or under_way[0] != trace.last_reply:
            settings = (config.strict, config.workers, config.budget)
            if settings not in _SCORERS:
                _SCORERS[settings] = AsyncRewards(strict=config.strict, workers=config.workers,
                                                  budget=config.budget, logger=log)  # fmt: skip
            future = asyncio.ensure_future(_SCORERS[settings].reward(record, trace.last_reply))
            key = id(trace)
            under_way = _UNDER_WAY[key] = (trace.last_reply, future)
            future.add_done_callback(lambda done: _forget(key, done))
            if adaptive in _ADAPTIVE:  # told here, where the score is asked for once, not by every metric awaiting it
                source = _ADAPTIVE[adaptive]
                future.add_done_callback(lambda done: _tell(source, record, done))
        result = await asyncio.shield(under_way[1])
        kept = {"reply": under_way[0], "value": result.value, "status": result.status, "reason": result.reason}
        kept["signals"] = result.signals
        trace.info["acp"] = kept
    return Reward(kept["value"], kept["status"], kept["reason"], kept["signals"])


def _tell(source: AdaptiveSource, record: dict[str, Any], done: asyncio.Future) -> None:
    """Tell the adaptive source the reward of a score done (none when it failed: the rollout has its error)."""
    if not done.cancelled() and done.exception() is None:
        source.update(record, done.result().value)


def _forget(key: int, done: asyncio.Future) -> None:
    if key in _UNDER_WAY and _UNDER_WAY[key][1] is done:
        del _UNDER_WAY[key]


class AcpTask(vf.Task[AcpTaskData, vf.State, AcpTaskConfig]):
    """One question: one answer, scored exactly."""

    async def _result(self, trace: vf.Trace) -> Reward:
        return await _judged(self.data.record, trace, self.config, self.data.adaptive)

    async def _reward(self, trace: vf.Trace, signal: str) -> float:
        """A signal as a reward; an undecided answer has none (:class:`UndecidedAnswer`)."""
        result = await self._result(trace)
        if result.value is None:
            raise UndecidedAnswer(f"acp could not decide the answer, so it has no reward: {result.reason}")
        return result.signals[signal]

    @vf.stop
    async def answered(self, trace: vf.Trace) -> bool:
        return trace.num_turns >= 1

    @vf.reward(weight=1.0)
    async def acp_score(self, trace: vf.Trace) -> float:
        return await self._reward(trace, "score")

    @vf.reward(weight=0.0)
    async def f1(self, trace: vf.Trace) -> float:
        return await self._reward(trace, "f1")

    @vf.reward(weight=0.0)
    async def goal_fraction(self, trace: vf.Trace) -> float:
        return await self._reward(trace, "goal_fraction")

    @vf.reward(weight=0.0)
    async def plan_prefix(self, trace: vf.Trace) -> float:
        return await self._reward(trace, "plan_prefix")

    @vf.metric
    async def precision(self, trace: vf.Trace) -> float:
        return (await self._result(trace)).signals["precision"]

    @vf.metric
    async def recall(self, trace: vf.Trace) -> float:
        return (await self._result(trace)).signals["recall"]

    @vf.metric
    async def parse_error(self, trace: vf.Trace) -> float:
        return float((await self._result(trace)).status == "parse_error")

    @vf.metric
    async def undecided(self, trace: vf.Trace) -> float:
        return float((await self._result(trace)).status == "undecided")

    async def validate(self, runtime: Any = None) -> bool | None:
        """The stored answer, as a model writes it, scores 1."""
        return reward(self.data.record, self.data.answer, strict=self.config.strict).value == 1.0


def level_of(config: AcpTasksetConfig, epoch: int) -> int | None:
    """The level of an epoch: the schedule's entry (its last one after it ends), else ``level``."""
    schedule = config.level_schedule
    level = schedule[min(epoch, len(schedule) - 1)] if schedule else config.level
    if level is not None and level not in LEVELS:
        raise ValueError(f"level {level}: choose 1 to 5")
    return level


def epoch_records(config: AcpTasksetConfig, epoch: int) -> list[dict[str, Any]]:
    """The records of one epoch, shuffled with the epoch's seed."""
    if config.split:
        wanted = {(t, config.format) for t in config.tasks}

        def keep(record: dict[str, Any]) -> bool:
            kind = record_task(record)
            return kind is not None and split_kind(kind) in wanted and record.get("domain") in config.domains

        return SplitSource(config.split, config.seed, keep=keep).epoch(epoch)
    records = []
    for name in config.tasks:
        source = GeneratedSource(
            config.domains, name, n=config.n, seed=config.seed, level=level_of(config, epoch), format=config.format,
            config=config.config, representation=config.representation, obfuscate=config.obfuscate,
            workers=config.workers,
        )  # fmt: skip
        with source:
            records += source.epoch(epoch)
    random.Random(epoch_seed(config.seed, epoch)).shuffle(records)
    return records


def task_of(record: dict[str, Any], config: AcpTaskConfig, adaptive: int = 0) -> AcpTask:
    """The verifiers task of one record (``adaptive``: the key of the adaptive source it came from)."""
    kind = record_task(record)
    if kind is None:
        raise ValueError(f"record {record.get('id')}: no known task")
    name, fmt = split_kind(kind)
    uid = str(record.get("uid") or record.get("id"))
    data = AcpTaskData(
        id=uid, name=f"{kind}/{uid}", prompt=prompt(record, name, fmt), record=record, answer=reference_answer(record),
        adaptive=adaptive,
    )  # fmt: skip
    return AcpTask(data, config)


def local_chat_agent() -> vf.AgentConfig:
    """The seat acp's environments default to: a plain chat (verifiers' ``null`` harness: the model answers the
    prompt, no coding agent, no tools) run as a local subprocess (no Prime sandbox, no account)."""
    return vf.AgentConfig(runtime=vf.SubprocessConfig(), harness=NullHarnessConfig(id="null"))


class AcpTasksEnvConfig(vf.SingleAgentEnvConfig):
    """verifiers' single-agent env with acp's default seat (:func:`local_chat_agent`): ``--env.agent.*`` changes it
    (``--env.agent.runtime.type prime`` for a Prime sandbox)."""

    agent: vf.AgentConfig = local_chat_agent()


class AcpTasksEnv(WatchedRollouts, vf.SingleAgentEnv, vf.Env[AcpTasksEnvConfig]):
    """verifiers' single-agent env (one ``agent`` seat answers each question), with acp's defaults. It counts its
    episodes and their errors, and when it stops after a run whose every rollout failed it warns once, naming the
    likely cause (`acpgen.training.failures`: ``uv`` missing, the model endpoint, a harness error): vf-eval
    itself exits 0 then."""

    def __init__(self, config: AcpTasksEnvConfig):
        super().__init__(config)
        self.failures = FailureWatch("acp-tasks")


class AcpTaskset(vf.Taskset[AcpTask, AcpTasksetConfig]):
    """acp's records as verifiers tasks (see the module docstring)."""

    def __init__(self, config: AcpTasksetConfig):
        super().__init__(config)
        self.INFINITE = config.epochs is None or config.adaptive

    def load(self) -> Iterator[AcpTask]:
        if self.config.adaptive:
            yield from self._adaptive()
            return
        epochs = itertools.count() if self.config.epochs is None else range(self.config.epochs)
        for epoch in epochs:
            for record in epoch_records(self.config, epoch):
                yield task_of(record, self.config.task)

    def _adaptive(self) -> Iterator[AcpTask]:
        """Tasks drawn from an adaptive source of the config's tasks and domains, without end; each trace's score
        is told to the source."""
        config = self.config
        source = AdaptiveSource(
            config.tasks, config.domains, config.seed, format=config.format, config=config.config,
            settings=AdaptiveSettings(workers=config.workers),
        )  # fmt: skip
        key = id(source)
        _ADAPTIVE[key] = source
        try:
            for record in source:
                yield task_of(record, config.task, key)
        finally:
            _ADAPTIVE.pop(key, None)
            source.close()


__all__ = ["AcpTasksEnv", "AcpTaskset"]
