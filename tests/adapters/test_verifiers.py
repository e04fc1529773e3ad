"""The verifiers taskset (acpgen.adapters.verifiers) against the installed verifiers 0.4 (verifiers.v1):
tasks are built from a split and from generation, and answers run through the tasks' own reward and
metric methods on real verifiers traces, without a model. Expected: the stored answer scores 1 on every
reward; a perturbed answer scores what acp's scorer gives it (the strict reading); vf-validate, the
library's own model-free check, finds every task valid."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import pool_stubs
import pytest
import verifiers.v1 as vf
from conftest import CI, lifted_run
from servers import MockChat
from verifiers.v1.errors import TaskError
from verifiers.v1.graph import MessageNode
from verifiers.v1.trace import Trace, TraceTask

import acpgen
import acpgen.adapters.verifiers
import acpgen.training.batch
from acpgen.adapters.prompts import prompt
from acpgen.adapters.verifiers import AcpTask, AcpTaskConfig, AcpTaskset, AcpTasksetConfig, level_of


def traced(task: vf.Task, replies: list[str]) -> Trace:
    """A verifiers trace of the task in which the model gave ``replies`` (the task prompt first)."""
    trace = Trace(
        task=TraceTask(type=type(task).__name__, data=task.data, key=task.key, hash=task.hash),
        agent=vf.AgentInfo(config=vf.AgentConfig()),
    )
    nodes = [MessageNode(message=vf.UserMessage(content=task.data.prompt_text))]
    for reply in replies:
        nodes.append(MessageNode(parent=len(nodes) - 1, message=vf.AssistantMessage(content=reply), sampled=True))
    trace.nodes = nodes
    return trace


def scored(task: vf.Task, replies: list[str]) -> Trace:
    trace = traced(task, replies)
    asyncio.run(task.score(trace))
    return trace


def rewards(trace: Trace) -> dict[str, float]:
    return {name: reward.score for name, reward in trace.rewards.items()}


@pytest.fixture(scope="module")
def tasks(rl_split) -> list[AcpTask]:
    config = AcpTasksetConfig(split=str(rl_split), tasks=["plan", "app", "rac_state"], domains=["ferry"], seed=1)
    return list(AcpTaskset(config))


def test_a_split_gives_one_task_per_record_with_its_prompt(tasks, rl_records):
    records = {r["uid"]: r for records in rl_records.values() for r in records}
    assert sorted(t.data.id for t in tasks) == sorted(records)
    assert [t.data.idx for t in tasks] == list(range(len(records)))
    for task in tasks:
        record = records[task.data.id]
        assert task.data.prompt == prompt(record, record["task"], "gen")
        assert task.data.answer == acpgen.reference_answer(record) and task.data.record == record


def test_the_seed_fixes_the_order_and_epochs_repeat_the_split(rl_split, tasks):
    def names(**settings):
        config = AcpTasksetConfig(split=str(rl_split), tasks=["plan", "app", "rac_state"], **settings)
        return [t.data.name for t in AcpTaskset(config)]

    assert names(seed=1) == [t.data.name for t in tasks]
    twice = names(seed=1, epochs=2)
    assert len(twice) == 2 * len(tasks) and sorted(twice[: len(tasks)]) == sorted(twice[len(tasks) :])


def test_stored_answers_score_one_on_every_reward(tasks):
    for task in tasks:
        trace = scored(task, [task.data.answer])
        assert rewards(trace) == {"acp_score": 1.0, "f1": 1.0, "goal_fraction": 1.0, "plan_prefix": 1.0}
        assert trace.reward == 1.0  # the partial-credit rewards have weight 0
        assert trace.metrics == {"precision": 1.0, "recall": 1.0, "parse_error": 0.0, "undecided": 0.0}
        assert asyncio.run(task.validate()) is True


def test_perturbed_answers_score_what_acp_gives_them(tasks):
    for task in tasks:
        record = task.data.record
        if record["task"] == "plan":
            perturbed = "\n".join(reversed(record["answer"]))
        elif record["task"] == "app":
            perturbed = "\n".join(record["answer"][:-1])
        else:
            perturbed = task.data.answer + " I think."
        expected = acpgen.score(record, perturbed, strict=True)
        trace = scored(task, [perturbed])
        assert trace.rewards["acp_score"].score == expected.score == 0.0
        if "f1" in expected.details:
            assert trace.rewards["f1"].score == expected.details["f1"]
            assert (expected.details["f1"] < 1.0) == (record["task"] == "app")  # rac_state: all read, and a word more
            assert trace.metrics["recall"] == expected.details["recall"]
        if "goal_fraction" in expected.details:  # the progress of the executable prefix (the lifted interpreter's)
            progress = lifted_run(record, perturbed.splitlines())[1]
            assert trace.rewards["goal_fraction"].score == pytest.approx(progress)
            assert trace.rewards["plan_prefix"].score == expected.details["prefix"] / expected.details["steps"]


def test_an_undecided_answer_has_no_reward_by_verifiers_convention(tasks, monkeypatch, caplog):
    """An answer acp cannot decide (a record whose PDDL cannot be read; a scoring held up over its budget,
    tests/pool_stubs.py) is no 0: the rewards raise, verifiers records the error and leaves them unscored (None),
    which its means leave out; the metrics are recorded, ``undecided`` 1; the batch's warning names the cause."""
    broken = next(t for t in tasks if t.data.record["task"] == "app")
    record = dict(broken.data.record, PDDL_problem="(define (problem broken")
    task = AcpTask(broken.data.model_copy(update={"record": record}), broken.config)
    trace = traced(task, ["(sail l0 l1)"])
    undecided = r"UndecidedAnswer: acp could not decide the answer, so it has no reward: record PDDL error"
    with (
        caplog.at_level(logging.WARNING, logger="acpgen.adapters.verifiers"),
        pytest.raises(TaskError, match=undecided),
    ):
        asyncio.run(task.score(trace))
    assert trace.rewards == dict.fromkeys(["acp_score", "f1", "goal_fraction", "plan_prefix"])
    assert trace.metrics["undecided"] == 1.0 and trace.info["acp"]["status"] == "undecided"
    monkeypatch.setattr(acpgen.training.batch, "_reward_call", pool_stubs.reward_call)
    slow = AcpTask(broken.data, broken.config.model_copy(update={"budget": 0.5}))
    with pytest.raises(TaskError, match=r"scoring took longer than its budget of 0\.5 s"):
        asyncio.run(slow.score(traced(slow, [broken.data.answer + pool_stubs.SLEEP])))
    assert [m.getMessage() for m in caplog.records if m.name == "acpgen.adapters.verifiers"] == [
        "acp rewards: 1 of 1 answers undecided, their reward left out (None): 1 record PDDL error",
        "acp rewards: 1 of 1 answers undecided, their reward left out (None): "
        "1 scoring took longer than its budget of 0.5 s",
    ]


def test_the_traces_of_one_turn_are_scored_as_one_batch(tasks, monkeypatch):
    """verifiers scores each rollout in a coroutine: those asking in the same turn of the loop are one batch of
    the pool, each trace's metrics and rewards one answer of it."""
    sizes = []
    submit = acpgen.training.batch.shared_pool(2).submit

    def counted(fn, calls, keys=None, budget=None):
        sizes.append(len(calls))
        return submit(fn, calls, keys, budget)

    monkeypatch.setattr(type(acpgen.training.batch.shared_pool(2)), "submit", lambda self, *a: counted(*a))
    config = tasks[0].config.model_copy(update={"workers": 2})
    fresh = [AcpTask(t.data, config) for t in tasks]
    traces = [traced(t, [t.data.answer]) for t in fresh]

    async def all_of_them():
        await asyncio.gather(*(t.score(trace) for t, trace in zip(fresh, traces)))

    asyncio.run(all_of_them())
    assert sizes == [len(fresh)]
    assert all(trace.reward == 1.0 for trace in traces)


def test_no_answer_is_a_parse_error_and_one_turn_ends_the_task(tasks):
    task = tasks[0]
    trace = scored(task, [])
    assert rewards(trace)["acp_score"] == 0.0 and trace.metrics["parse_error"] == 1.0
    assert asyncio.run(task.answered(traced(task, []))) is False
    assert asyncio.run(task.answered(traced(task, ["(sail l0 l1)"]))) is True


def test_generated_records_and_levels(tmp_path):
    config = AcpTasksetConfig(tasks=["plan"], domains=["ferry"], n=2, seed=5, level=1, config=str(CI))
    tasks = list(AcpTaskset(config))
    # the 2 asked for and 1 about a problem no plan solves (ceil(0.2 x 2), qa.unsolvable_share), shuffled
    assert sorted(t.data.record.get("solvable", True) for t in tasks) == [False, True, True]
    assert all(t.data.record["level"] == 1 for t in tasks)
    assert all(scored(t, [t.data.answer]).reward == 1.0 for t in tasks)
    schedule = AcpTasksetConfig(level_schedule=[1, 1, 2])
    assert [level_of(schedule, e) for e in range(5)] == [1, 1, 2, 2, 2]
    endless = AcpTaskset(AcpTasksetConfig(epochs=None))
    assert not endless.bounded and endless.take(3).bounded


def test_vf_validate_loads_the_environment_package_from_the_installed_acp(rl_split, tmp_path):
    # acp_tasks (environments/acp_tasks, installed with acp) through the library's own loader and CLI
    command = [
        str(Path(sys.executable).parent / "vf-validate"), "acp-tasks", "--taskset.split", str(rl_split),
        "--taskset.tasks", '["plan", "app"]', "--runtime.type", "subprocess", "-o", str(tmp_path), "--no-rich",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    summary = json.loads(next(tmp_path.rglob("summary.json")).read_text())
    assert summary["total"] == 6 and summary["outcomes"]["valid"] == 6, summary
    assert summary["checks"]["gold"]["valid"] == summary["checks"]["noop"]["valid"] == 6


def _without_uv(folder: Path) -> dict[str, str]:
    """An environment in which uv is missing and cannot be fetched: pip, curl and wget that fail come first on
    PATH (verifiers would otherwise install uv with them), no uv anywhere on it, an empty HOME."""
    fake = folder / "bin"
    fake.mkdir()
    for tool in ("pip", "pip3", "curl", "wget"):
        (fake / tool).write_text(f"#!/bin/sh\necho '{tool}: not available in this test' >&2\nexit 1\n")
        (fake / tool).chmod(0o755)
    (folder / "home").mkdir()
    return {k: v for k, v in os.environ.items() if not k.startswith("VIRTUAL_ENV")} | {
        "PATH": f"{fake}:/usr/bin:/bin",
        "HOME": str(folder / "home"),
    }


@pytest.mark.parametrize("env_id", ["acp-tasks", "acp-episodes"])
def test_vf_eval_warns_when_every_rollout_fails(env_id, rl_split, tmp_path):
    """vf-eval exits 0 when every rollout fails (here: uv missing, so verifiers' chat harness cannot start); acp's
    environment says so once on standard error, naming the cause."""
    assert shutil.which("uv", path="/usr/bin:/bin") is None, "a uv outside the virtualenv: the test needs none"
    environ = _without_uv(tmp_path)
    with MockChat() as base_url:
        command = [
            str(Path(sys.executable).parent / "vf-eval"), env_id, "-m", "mock", "--client.base-url", base_url,
            "--no-push", "-n", "2", "--env.taskset.split", str(rl_split),
        ]  # fmt: skip
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path, env=environ
        )
    assert done.returncode == 0, done.stderr[-3000:]  # vf-eval's own verdict
    assert f"{env_id}: all 2 rollout(s) failed, none was scored; likely cause: `uv` is not on PATH" in done.stderr
    assert "failed to prepare uv script" in done.stderr and done.stderr.count("rollout(s) failed") == 1
    traces = [json.loads(line) for line in next(tmp_path.rglob("traces.jsonl")).read_text().splitlines()]
    assert len(traces) == 2 and not any(t["ok"] for t in traces)


def counting(update, told: list):
    """``update`` that notes each reward it is told in ``told``."""

    def counted(record, reward):
        told.append(reward)
        update(record, reward)

    return counted


def test_an_adaptive_taskset_follows_a_learner_through_its_scores():
    # A policy that answers a record right (its stored answer) iff its difficulty is at most 3: the tasks loaded
    # after its scores are drawn around 3 (acpgen.adaptive, told each rollout's acp_score as it is scored).
    config = AcpTasksetConfig(
        adaptive=True, tasks=["plan"], domains=["ferry"], seed=0, workers=0, task=AcpTaskConfig(workers=1)
    )
    drawn: list[int] = []
    told: list[float | None] = []
    for task in itertools.islice(iter(AcpTaskset(config)), 150):
        source = acpgen.adapters.verifiers._ADAPTIVE[task.data.adaptive]
        if "update" not in vars(source):  # count what the source is told, then tell it
            source.update = counting(source.update, told)
        difficulty = task.data.record["difficulty"]
        drawn.append(difficulty)
        trace = traced(task, [task.data.answer if difficulty <= 3 else "I cannot tell."])
        asyncio.run(task.score(trace))  # every metric and reward of the rollout asks for its score
        assert rewards(trace)["acp_score"] == (1.0 if difficulty <= 3 else 0.0)
        assert told == [rewards(trace)["acp_score"]]  # the rollout counted once
        told.clear()
    assert abs(statistics.median(drawn[-70:]) - 3) <= 1 and max(drawn) <= 4
