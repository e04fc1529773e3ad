"""acp's questions as a verifiers taskset (the extra ``rl``: ``pip install 'acpgen[rl]'``; verifiers 0.4,
``verifiers.v1``).

`vf-eval` loads it by its module name from the installed acp (a verifiers plugin is a module that
exports its ``Taskset`` subclass in ``__all__``)::

    vf-eval acpgen.adapters.verifiers --env.taskset.tasks '["plan"]' --env.taskset.level 1 -n 8 -m <model>

and ``environments/acp_tasks`` is the same taskset as an environment package laid out as `vf-init`
writes it (for the Environments Hub). One task per record: the prompt is the record's context,
question and how to answer (`acpgen.adapters.prompts`); the model answers once (``@vf.stop`` after
one turn). Rewards (`acpgen.training.rewards`, the strict reading unless ``strict`` is off in the
task config): ``acp_score`` (weight 1: acp's exact score, 0 for an undecided answer, which the
metric ``undecided`` marks), and the partial-credit signals ``f1`` (set answers), ``goal_fraction``
and ``plan_prefix`` (plans) as rewards of weight 0 — recorded on every trace, and added to the
reward by giving them a weight (``--env.taskset.task.rewards.goal_fraction.weight 0.2``); a task
without the signal gives its exact score for it. Metrics: ``precision``, ``recall``,
``parse_error``, ``undecided``. ``Task.validate`` (`vf-validate`) checks that the stored answer,
as a model writes it, scores 1.

Records (:class:`AcpTasksetConfig`): ``split``, a records file or folder (`acp generate` or `acp
dataset` output), or else made by `acpgen.generate` for ``tasks`` x ``domains`` (``n`` per task,
domain and epoch, at ``level`` or by ``level_schedule``, in ``format`` and ``representation``,
``obfuscate``d, from the pipeline ``config``), shuffled per epoch with ``seed``. ``epochs`` bounds
the stream (1: a fixed split for evaluation); ``epochs: null`` makes it endless (training).
"""

from __future__ import annotations

import itertools
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
from acpgen.training.failures import FailureWatch, WatchedRollouts
from acpgen.training.rewards import Reward, reward
from acpgen.training.sources import GeneratedSource, SplitSource, epoch_seed


class AcpTaskData(vf.TaskData):
    """One acp record: ``record`` (the whole record: PDDL, stored answer, task) and ``answer`` (the
    stored answer as a model writes it)."""

    record: dict[str, Any]
    answer: str = ""


class AcpTaskConfig(vf.TaskConfig):
    """``strict``: the strict reading for rewards (a part of a set answer that reads as nothing makes it wrong)."""

    strict: bool = True


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
    task: AcpTaskConfig = AcpTaskConfig()


def _judged(record: dict[str, Any], trace: vf.Trace, strict: bool) -> Reward:
    """The reward of the trace's last reply, worked out once per trace (kept in ``trace.info``)."""
    kept = trace.info.get("acp")
    if not isinstance(kept, dict) or kept.get("reply") != trace.last_reply:
        result = reward(record, trace.last_reply, strict=strict)
        kept = {"reply": trace.last_reply, "value": result.value, "status": result.status, "reason": result.reason}
        kept["signals"] = result.signals
        trace.info["acp"] = kept
    return Reward(kept["value"], kept["status"], kept["reason"], kept["signals"])


class AcpTask(vf.Task[AcpTaskData, vf.State, AcpTaskConfig]):
    """One question: one answer, scored exactly."""

    def _result(self, trace: vf.Trace) -> Reward:
        return _judged(self.data.record, trace, self.config.strict)

    @vf.stop
    async def answered(self, trace: vf.Trace) -> bool:
        return trace.num_turns >= 1

    @vf.reward(weight=1.0)
    async def acp_score(self, trace: vf.Trace) -> float:
        return self._result(trace).value or 0.0

    @vf.reward(weight=0.0)
    async def f1(self, trace: vf.Trace) -> float:
        return self._result(trace).signals["f1"]

    @vf.reward(weight=0.0)
    async def goal_fraction(self, trace: vf.Trace) -> float:
        return self._result(trace).signals["goal_fraction"]

    @vf.reward(weight=0.0)
    async def plan_prefix(self, trace: vf.Trace) -> float:
        return self._result(trace).signals["plan_prefix"]

    @vf.metric
    async def precision(self, trace: vf.Trace) -> float:
        return self._result(trace).signals["precision"]

    @vf.metric
    async def recall(self, trace: vf.Trace) -> float:
        return self._result(trace).signals["recall"]

    @vf.metric
    async def parse_error(self, trace: vf.Trace) -> float:
        return float(self._result(trace).status == "parse_error")

    @vf.metric
    async def undecided(self, trace: vf.Trace) -> float:
        return float(self._result(trace).status == "undecided")

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


def task_of(record: dict[str, Any], config: AcpTaskConfig) -> AcpTask:
    """The verifiers task of one record."""
    kind = record_task(record)
    if kind is None:
        raise ValueError(f"record {record.get('id')}: no known task")
    name, fmt = split_kind(kind)
    uid = str(record.get("uid") or record.get("id"))
    data = AcpTaskData(
        id=uid, name=f"{kind}/{uid}", prompt=prompt(record, name, fmt), record=record, answer=reference_answer(record)
    )
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
        self.INFINITE = config.epochs is None

    def load(self) -> Iterator[AcpTask]:
        epochs = itertools.count() if self.config.epochs is None else range(self.config.epochs)
        for epoch in epochs:
            for record in epoch_records(self.config, epoch):
                yield task_of(record, self.config.task)


__all__ = ["AcpTasksEnv", "AcpTaskset"]
