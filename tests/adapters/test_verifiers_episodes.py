"""The verifiers episode environment (acpgen.adapters.verifiers_episodes) against the installed verifiers
0.4. The environment's loop (`play`) runs over a scripted interaction: the model is replaced by a
script that answers each user turn with the policy's next text, as verifiers' `Interaction.turn` would
return the model's reply (a real `vf.Segment` on a real `vf.Trace`); the task's own reward then scores
the trace. Expected: the stored optimal plan reaches the goal at the optimal cost (reward 1); the
known mistakes are named in the next user turn and cost the penalty (reward 0.7)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
import verifiers.v1 as vf
from test_verifiers import traced

from acpgen.adapters.verifiers_episodes import (
    AcpEpisodeEnv,
    AcpEpisodeTask,
    AcpEpisodeTaskset,
    AcpEpisodeTasksetConfig,
    episode_task,
    play,
)
from acpgen.training.episode import Episode
from acpgen.training.policies import mistaken_turns, optimal_turns


class ScriptedInteraction:
    """An interaction whose model is a script: each turn appends the user's message and the script's
    next reply to the trace, as the harness does, and returns the reply as a segment; after the script's
    last reply the run ends (a terminated segment)."""

    def __init__(self, task: vf.Task, replies: list[str]):
        self.trace = traced(task, [])
        self.replies = list(replies)
        self.user_turns: list[str] = []

    async def turn(self, message: str | None = None) -> vf.Segment:
        if message is not None:
            self.user_turns.append(message)
            self.trace.nodes.append(
                vf.MessageNode(parent=len(self.trace.nodes) - 1, message=vf.UserMessage(content=message))
            )
        if not self.replies:
            return vf.Segment(messages=[], terminated=True)
        reply = vf.AssistantMessage(content=self.replies.pop(0))
        self.trace.nodes.append(vf.MessageNode(parent=len(self.trace.nodes) - 1, message=reply, sampled=True))
        return vf.Segment(messages=[reply])


def run(task: AcpEpisodeTask, replies: list[str]) -> tuple[ScriptedInteraction, Episode]:
    interaction = ScriptedInteraction(task, replies)
    episode = asyncio.run(play(interaction, Episode(task.data.record, task.data.settings())))
    asyncio.run(task.score(interaction.trace))
    return interaction, episode


@pytest.fixture(scope="module")
def tasks(rl_split) -> list[AcpEpisodeTask]:
    config = AcpEpisodeTasksetConfig(split=str(rl_split), seed=2)
    return [t for t in AcpEpisodeTaskset(config) if t.data.record["task"] == "plan"]


def test_the_optimal_policy_earns_reward_one(tasks):
    for task in tasks:
        record = task.data.record
        interaction, episode = run(task, optimal_turns(Episode(record)) + ["(sail l0 l1)"])
        assert episode.goal_reached and episode.summary()["cost"] == record["optimal_cost"]
        assert len(interaction.trace.assistant_messages) == record["optimal_cost"]  # the episode ended at the goal
        assert len(interaction.user_turns) == record["optimal_cost"] - 1
        assert interaction.trace.reward == interaction.trace.rewards["episode_reward"].score == 1.0
        assert interaction.trace.metrics["goal_reached"] == 1.0
        assert interaction.trace.metrics["cost"] == interaction.trace.metrics["optimal_cost"] == record["optimal_cost"]
        assert asyncio.run(task.validate()) is True


def test_known_mistakes_are_named_in_the_next_turn(tasks):
    task = tasks[0]
    turns = mistaken_turns(Episode(task.data.record))
    interaction, episode = run(task, turns)
    first, second, third = interaction.user_turns[:3]
    assert first.startswith(f"step 1 {turns[0]}: precondition (") and "is false; the state is unchanged." in first
    assert second.startswith("step 2 (teleport ") and "there is no action named teleport" in second
    assert third.startswith("step 3 (i am not sure") and all("Currently, " in t for t in (first, second, third))
    assert interaction.trace.metrics["invalid_steps"] == 3.0
    assert interaction.trace.reward == pytest.approx(0.7) and episode.reward == pytest.approx(0.7)


def test_a_run_that_ends_early_scores_what_it_reached(tasks):
    task = next(t for t in tasks if t.data.record["optimal_cost"] >= 2)
    interaction, episode = run(task, optimal_turns(Episode(task.data.record))[:1])  # the model stops after one turn
    assert not episode.done and interaction.trace.reward == 0.0
    assert 0.0 <= interaction.trace.metrics["goal_fraction"] < 1.0


def test_the_prompt_is_the_episodes_first_observation(tasks):
    for task in tasks:
        assert task.data.prompt == Episode(task.data.record).prompt
    pddl = episode_task(tasks[0].data.record, AcpEpisodeTasksetConfig(states="pddl", max_steps=9))
    assert "PDDL problem:" in pddl.data.prompt and "You have 9 actions" in pddl.data.prompt


def test_verifiers_finds_the_environment_of_the_package():
    assert vf.environment_class("acp-episodes") is AcpEpisodeEnv
    tasks_env = vf.environment_class("acp-tasks")
    assert issubclass(tasks_env, vf.SingleAgentEnv) and tasks_env.__name__ == "AcpTasksEnv"
    assert vf.taskset_config_type("acp-episodes") is AcpEpisodeTasksetConfig
    assert "player" in vf.env_config_type("acp-episodes").model_fields
    # Issue 47: both run locally by default, a plain chat (the null harness) in a subprocess, no Prime sandbox
    seats = [vf.env_config_type("acp-tasks")().agent, vf.env_config_type("acp-episodes")().player]
    for seat in seats:
        assert (seat.runtime.type, seat.harness.id) == ("subprocess", "null")


def test_vf_validate_plays_the_stored_plans(rl_split, tmp_path):
    command = [
        str(Path(sys.executable).parent / "vf-validate"), "acp-episodes", "--taskset.split", str(rl_split),
        "--runtime.type", "subprocess", "-o", str(tmp_path), "--no-rich",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    summary = json.loads(next(tmp_path.rglob("summary.json")).read_text())
    plan_records = sum(1 for line in (rl_split / "plan.gen.jsonl").read_text().splitlines() if line)
    # every record of the split whose state is not a goal state is an episode: the plan records replay
    # their stored plan, the others (app, rac_state) one the oracle finds
    assert summary["outcomes"]["valid"] == summary["total"] >= plan_records, summary
    assert summary["checks"]["noop"]["valid"] == summary["total"]  # an untouched episode earns nothing


@pytest.mark.slow
def test_every_domain_at_levels_1_and_2(sweep_records):
    config = AcpEpisodeTasksetConfig()
    for record in sweep_records:
        task = episode_task(record, config)
        interaction, _ = run(task, optimal_turns(Episode(record)))
        assert interaction.trace.reward == 1.0, record["uid"]
        interaction, _ = run(task, mistaken_turns(Episode(record)))
        assert interaction.trace.reward == pytest.approx(0.7), record["uid"]
