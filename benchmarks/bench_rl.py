"""`make bench-rl`: reward latency of each training adapter and episodes per second of the multi-step env.

Rewards: for warm records (plan, app and rac_state records of ferry and grippers, made with
``--config``; cached in ``--cache``), each adapter's reward path scores the stored answer and a wrong
one, ``--repeat`` rounds; the table gives the median and 99th percentile per call:

* ``acpgen.training.rewards.reward``: the shared core (strict reading, every signal);
* verifiers: ``AcpTask.score`` on a verifiers trace (every reward and metric of one answer);
* TRL: ``acp_reward`` called as GRPOTrainer calls it, one completion per call;
* reasoning-gym: ``score_answer`` of an ``acp_<task>`` entry;
* verifiers episodes: ``AcpEpisodeTask.score`` (the replies replayed through a fresh episode).

Episodes: plan records of every domain at levels 1 and 2 (``--domains``; two problems per domain, two
records per domain and level, cached), each played by the optimal and the mistaken scripted policy
(`acpgen.training.policies`) through the bare episode, the TRL environment, the verifiers env's loop,
OpenEnv in process and OpenEnv over HTTP (uvicorn on 127.0.0.1, one WebSocket session); episodes per
second and milliseconds per step. One process; the machine's load is printed with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import statistics
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from common import percentile

import acpgen
from acpgen.config import load_config
from acpgen.training.episode import Episode
from acpgen.training.policies import mistaken_turns, optimal_turns
from acpgen.training.rewards import reward

WRONG = "(no-such-action x)"


def timed(calls: list[Callable[[], object]], repeat: int) -> list[float]:
    for call in calls:  # warm
        call()
    times = []
    for _ in range(repeat):
        for call in calls:
            start = time.perf_counter()
            call()
            times.append((time.perf_counter() - start) * 1000)
    return times


def question_records(config: str, cache: Path) -> list[dict]:
    records = []
    for domain in ("ferry", "grippers"):
        for task in ("plan", "app", "rac_state"):
            records += acpgen.generate(domain, task, n=3, seed=5, config=config, cache_dir=cache / domain)
    return records


def sweep_records(domains: list[str] | None, cache: Path) -> list[dict]:
    """Up to two plan records per domain and level 1-2, from two problems per domain (the configured
    number where two give none), as tests/conftest.py's sweep makes them."""
    config = load_config(None)
    records = []
    for level in (1, 2):
        for domain in domains or list(config.domains):
            entry = config.domain(domain)
            for problems in (2, entry.problems):
                smaller = dataclasses.replace(config, domains={domain: dataclasses.replace(entry, problems=problems)})
                folder = cache / f"{domain}-{level}-{problems}"
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", acpgen.GenerationShortfall)
                    made = list(
                        acpgen.generate(domain, "plan", n=2, seed=1, level=level, config=smaller, cache_dir=folder)
                    )
                if made:
                    records += made
                    break
    return records


def reward_calls(records: list[dict]) -> dict[str, list[Callable[[], object]]]:
    """One call per (record, answer) for each adapter's reward path."""
    import reasoning_gym
    import verifiers.v1 as vf
    from verifiers.v1.graph import MessageNode
    from verifiers.v1.trace import Trace, TraceTask

    import acpgen.adapters.gym
    from acpgen.adapters.trl import RECORD_COLUMN, acp_reward
    from acpgen.adapters.verifiers import AcpTaskConfig, task_of

    def trace(task, replies):
        made = Trace(
            task=TraceTask(type=type(task).__name__, data=task.data), agent=vf.AgentInfo(config=vf.AgentConfig())
        )
        nodes = [MessageNode(message=vf.UserMessage(content=task.data.prompt_text))]
        for reply in replies:
            nodes.append(MessageNode(parent=len(nodes) - 1, message=vf.AssistantMessage(content=reply), sampled=True))
        made.nodes = nodes
        return made

    data = reasoning_gym.create_dataset("acp_app", size=1)
    calls: dict[str, list[Callable[[], object]]] = {"core": [], "verifiers": [], "trl": [], "reasoning-gym": []}
    for record in records:
        task = task_of(record, AcpTaskConfig())
        entry = {"metadata": {"record": record}}
        column = json.dumps(record)
        for answer in (acpgen.reference_answer(record), WRONG):
            calls["core"].append(lambda r=record, a=answer: reward(r, a))
            calls["verifiers"].append(lambda t=task, a=answer: asyncio.run(t.score(trace(t, [a]))))
            calls["trl"].append(
                lambda c=column, a=answer: acp_reward(completions=[a], prompts=[""], **{RECORD_COLUMN: [c]})
            )
            calls["reasoning-gym"].append(lambda e=entry, a=answer: data.score_answer(a, e))
    from acpgen.adapters.verifiers_episodes import AcpEpisodeTasksetConfig, episode_task

    calls["verifiers episodes"] = []
    for record in (r for r in records if r["task"] == "plan"):
        episode_task_ = episode_task(record, AcpEpisodeTasksetConfig())
        if episode_task_ is None:
            continue
        replies = optimal_turns(Episode(record))
        calls["verifiers episodes"].append(lambda t=episode_task_, rs=replies: asyncio.run(t.score(trace(t, rs))))
    return calls


def episode_players(records: list[dict]) -> dict[str, Callable[[dict, list[str]], float]]:
    """Per adapter: play one record's episode with the given turns, returning its reward."""
    from acpgen.adapters.openenv import AcpEnvironment
    from acpgen.adapters.trl import RECORD_COLUMN, AcpPlanningEnv

    def bare(record, turns):
        episode = Episode(record)
        episode.play(turns)
        return episode.reward

    def trl_env(record, turns):
        env = AcpPlanningEnv()
        env.reset(**{RECORD_COLUMN: json.dumps(record)})
        for text in turns:
            env.act(text)
        return env.get_reward()

    return {"episode": bare, "trl env": trl_env, "openenv (in process)": stepped(AcpEnvironment(records))}


def stepped(env) -> Callable[[dict, list[str]], float]:
    """A player over an OpenEnv environment, in process or its HTTP client (both give done and reward)."""
    from acpgen.adapters.openenv import AcpAction

    def player(record, turns):
        env.reset(record=record)
        result = None
        for text in turns:
            result = env.step(AcpAction(text=text))
            if result.done:
                break
        return result.reward

    return player


def rate(records: list[dict], player: Callable[[dict, list[str]], float]) -> tuple[float, float, int]:
    """Episodes per second and ms per step over both policies; the number of wrong rewards."""
    plans = [(r, optimal_turns(Episode(r)), 1.0) for r in records] + [
        (r, mistaken_turns(Episode(r)), 0.7) for r in records
    ]
    wrong, steps = 0, 0
    start = time.perf_counter()
    for record, turns, expected in plans:
        wrong += abs(player(record, turns) - expected) > 1e-9
        steps += len(turns)
    seconds = time.perf_counter() - start
    return len(plans) / seconds, seconds * 1000 / steps, wrong


def http_rate(records: list[dict]) -> tuple[float, float, int]:
    from acpgen.adapters.openenv import AcpEnvClient, LocalServer, make_app

    with LocalServer(make_app(records)) as url, AcpEnvClient(base_url=url).sync() as env:
        return rate(records, stepped(env))


def verifiers_rate(records: list[dict]) -> tuple[float, float, int]:
    import verifiers.v1 as vf

    from acpgen.adapters.verifiers_episodes import play

    class Scripted:
        def __init__(self, replies):
            self.replies = list(replies)
            self.trace = type("T", (), {"info": {}, "assistant_messages": []})()

        async def turn(self, message=None):
            if not self.replies:
                return vf.Segment(messages=[], terminated=True)
            reply = vf.AssistantMessage(content=self.replies.pop(0))
            self.trace.assistant_messages.append(reply)
            return vf.Segment(messages=[reply])

    def player(record, turns):
        return asyncio.run(play(Scripted(turns), Episode(record))).reward

    return rate(records, player)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="tests/fixtures/pipeline/ci.yaml", help="config of the reward records")
    parser.add_argument("--domains", default="", help="domains of the episode sweep (default: every domain)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds of the reward calls")
    parser.add_argument("--cache", type=Path, default=Path("out/bench-rl"), help="generation cache folder")
    args = parser.parse_args()
    load = os.getloadavg()
    loads = " ".join(f"{value:.2f}" for value in load)
    print(f"machine: {os.cpu_count()} cores, load average {loads} (shared with other jobs)")
    records = question_records(args.config, args.cache / "questions")
    print(f"\nreward latency, ms per call ({len(records)} records x stored and wrong answers, {args.repeat} rounds)")
    print(f"{'adapter':22} {'calls':>6} {'median':>8} {'p99':>8}")
    for name, calls in reward_calls(records).items():
        times = timed(calls, args.repeat)
        print(f"{name:22} {len(times):6d} {statistics.median(times):8.3f} {percentile(times, 0.99):8.3f}")
    domains = [d.strip() for d in args.domains.split(",") if d.strip()] or None
    start = time.perf_counter()
    sweep = sweep_records(domains, args.cache / "sweep")
    made = time.perf_counter() - start
    covered = sorted({(r["domain"], r["level"]) for r in sweep})
    pairs = f"{len(covered)} (domain, level) pairs at levels 1-2"
    print(f"\nepisodes: {len(sweep)} plan records, {pairs} ({made:.0f} s to make or load)")
    print(f"{'adapter':22} {'episodes/s':>11} {'ms/step':>8} {'wrong rewards':>14}")
    players = episode_players(sweep)
    results = {name: rate(sweep, player) for name, player in players.items()}
    results["verifiers env loop"] = verifiers_rate(sweep)
    results["openenv (HTTP client)"] = http_rate(sweep)
    for name, (per_second, per_step, wrong) in results.items():
        print(f"{name:22} {per_second:11.1f} {per_step:8.3f} {wrong:14d}")


if __name__ == "__main__":
    main()
