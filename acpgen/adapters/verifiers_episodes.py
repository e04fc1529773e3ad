"""Multi-step acp episodes as a verifiers environment (the extra ``rl``; verifiers 0.4, ``verifiers.v1``).

A thin layer over :class:`acpgen.training.episode.Episode`: the taskset gives one task per record (by
default the plan task's records, which store an optimal plan), and the environment's ``run`` plays
the episode with the model as its only agent, ``player``, acp as the user: the record's state, goal
and actions open the conversation, each reply is applied by the episode, and its feedback (the new
state, or why an action cannot be applied) is the next user turn, until the goal holds or the step
budget is spent. `vf-eval` loads both from the installed acp::

    vf-eval acpgen.adapters.verifiers_episodes --env.taskset.level 1 -n 8 -m <model>

(``environments/acp_episodes`` is the same as an environment package laid out as `vf-init` writes it.)

Rewards: ``episode_reward`` (weight 1; `acpgen.training.episode`: ``optimal_cost / cost`` at the goal
minus the invalid-step penalty) is computed by replaying the trace's replies through a fresh episode
(episodes are deterministic), so that the task scores the same wherever it runs; metrics
``goal_reached``, ``cost``, ``optimal_cost``, ``invalid_steps``, ``goal_fraction``. ``Task.validate``
plays the stored optimal plan and expects reward 1.

Configuration (:class:`AcpEpisodeTasksetConfig`): as for `acpgen.adapters.verifiers` (records from a
``split``, any open-ended records, or generated for ``domains`` at ``level``; ``task_name`` defaults to
``plan``, whose records store an optimal plan; records whose state already satisfies the goal are left out),
plus ``max_steps``, ``invalid_penalty`` and ``states`` (``nl`` or ``pddl``) for the episode.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Protocol

try:
    import verifiers.v1 as vf
    from pydantic import Field
    from verifiers.v1.harnesses.null import NullHarnessConfig
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"acpgen.adapters.verifiers_episodes needs the verifiers package ({err}); install it with "
        "`pip install 'acpgen[rl]'`"
    ) from err

from acpgen.training.episode import Episode, EpisodeSettings
from acpgen.training.failures import FailureWatch, WatchedRollouts
from acpgen.training.policies import optimal_turns
from acpgen.training.sources import GeneratedSource, SplitSource


class AcpEpisodeData(vf.TaskData):
    """One episode's record and settings (``prompt``: the episode's first observation)."""

    record: dict[str, Any]
    max_steps: int | None = None
    invalid_penalty: float = 0.1
    states: str = "nl"

    def settings(self) -> EpisodeSettings:
        return EpisodeSettings(self.max_steps, self.invalid_penalty, self.states)


def replay(data: AcpEpisodeData, replies: list[str]) -> Episode:
    """A fresh episode of ``data`` with ``replies`` applied in turn (those after it ended change nothing)."""
    episode = Episode(data.record, data.settings())
    episode.play(replies)
    return episode


class AcpEpisodeTask(vf.Task[AcpEpisodeData]):
    """One episode; rewards and metrics from the replies, replayed (see the module docstring)."""

    def _episode(self, trace: vf.Trace) -> dict[str, Any]:
        replies = [m.content or "" for m in trace.assistant_messages]
        kept = trace.info.get("acp_episode")
        if not isinstance(kept, dict) or kept.get("replies") != len(replies):
            kept = replay(self.data, replies).summary() | {"replies": len(replies)}
            trace.info["acp_episode"] = kept
        return kept

    @vf.reward(weight=1.0)
    async def episode_reward(self, trace: vf.Trace) -> float:
        return float(self._episode(trace)["reward"])

    @vf.metric
    async def goal_reached(self, trace: vf.Trace) -> float:
        return float(self._episode(trace)["goal_reached"])

    @vf.metric
    async def cost(self, trace: vf.Trace) -> float:
        return float(self._episode(trace)["cost"])

    @vf.metric
    async def optimal_cost(self, trace: vf.Trace) -> float:
        best = self._episode(trace)["optimal_cost"]
        return float(best) if best is not None else -1.0

    @vf.metric
    async def invalid_steps(self, trace: vf.Trace) -> float:
        return float(self._episode(trace)["invalid_steps"])

    @vf.metric
    async def goal_fraction(self, trace: vf.Trace) -> float:
        return float(self._episode(trace)["goal_fraction"])

    async def validate(self, runtime: Any = None) -> bool | None:
        """The stored optimal plan, one action per turn, reaches the goal with reward 1."""
        episode = Episode(self.data.record, self.data.settings())
        episode.play(optimal_turns(episode))
        return episode.reward == 1.0


class AcpEpisodeTasksetConfig(vf.TasksetConfig):
    """Which records, and how the episodes are played (see the module docstring)."""

    task_name: str = "plan"
    domains: list[str] = Field(default_factory=lambda: ["ferry"])
    level: int | None = None
    n: int = 10
    seed: int = 0
    epochs: int | None = 1
    split: str | None = None
    config: str | None = None
    workers: int = 0
    max_steps: int | None = None
    invalid_penalty: float = 0.1
    states: str = "nl"


def episode_task(record: dict[str, Any], config: AcpEpisodeTasksetConfig) -> AcpEpisodeTask | None:
    """The verifiers task of one record's episode; None when the goal already holds in its state."""
    settings = EpisodeSettings(config.max_steps, config.invalid_penalty, config.states)
    episode = Episode(record, settings)
    if episode.done:
        return None
    uid = str(record.get("uid") or record.get("id"))
    data = AcpEpisodeData(
        id=uid, name=f"episode/{uid}", prompt=episode.prompt, record=record,
        max_steps=config.max_steps, invalid_penalty=config.invalid_penalty, states=config.states,
    )  # fmt: skip
    return AcpEpisodeTask(data, config.task)


class AcpEpisodeTaskset(vf.Taskset[AcpEpisodeTask, AcpEpisodeTasksetConfig]):
    """acp records as episodes (see the module docstring)."""

    def __init__(self, config: AcpEpisodeTasksetConfig):
        super().__init__(config)
        self.INFINITE = config.epochs is None

    def load(self) -> Iterator[AcpEpisodeTask]:
        config = self.config
        if config.split:
            source: SplitSource | GeneratedSource = SplitSource(
                config.split, config.seed, keep=lambda r: r.get("domain") in config.domains and "PDDL_domain" in r
            )
        else:
            source = GeneratedSource(
                config.domains, config.task_name, n=config.n, seed=config.seed, level=config.level,
                config=config.config, workers=config.workers,
            )  # fmt: skip
        epochs = itertools.count() if config.epochs is None else range(config.epochs)
        for epoch in epochs:
            for record in source.epoch(epoch):
                task = episode_task(record, config)
                if task is not None:
                    yield task


class Turns(Protocol):
    """What :func:`play` needs of a verifiers interaction: ``turn`` and the live ``trace``."""

    turn: Callable[..., Awaitable[Any]]
    trace: vf.Trace


async def play(interaction: Turns, episode: Episode) -> Episode:
    """Play ``episode`` over an open interaction whose task prompt opens the exchange: the model's
    reply is applied, the feedback is the next user turn, until the episode is done or the agent's
    run ends (a limit or a stop). The episode's summary is kept in ``trace.info["acp_episode"]``."""
    segment = await interaction.turn()
    while not segment.terminated:
        feedback = episode.step(segment.last_reply)
        replies = len(interaction.trace.assistant_messages)
        interaction.trace.info["acp_episode"] = episode.summary() | {"replies": replies}
        if feedback.done:
            break
        segment = await interaction.turn(feedback.text)
    return episode


class AcpEpisodeEnvConfig(vf.EnvConfig):
    """The ``player`` seat defaults to a plain chat (verifiers' ``null`` harness) in a local subprocess (no Prime
    sandbox, no account); ``--env.player.*`` changes it."""

    player: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig(), harness=NullHarnessConfig(id="null"))


class AcpEpisodeEnv(WatchedRollouts, vf.Env[AcpEpisodeEnvConfig]):
    """acp plays the user: each reply is applied and answered with its exact consequence. When it stops after a
    run whose every rollout failed, it warns once, naming the likely cause (`acpgen.training.failures`)."""

    def __init__(self, config: AcpEpisodeEnvConfig):
        super().__init__(config)
        self.failures = FailureWatch("acp-episodes")

    async def run(self, task: vf.Task, agents: vf.Agents) -> None:
        data = task.data
        assert isinstance(data, AcpEpisodeData)
        async with agents.player.interaction(task) as interaction:
            await play(interaction, Episode(data.record, data.settings()))


__all__ = ["AcpEpisodeEnv", "AcpEpisodeTaskset"]
