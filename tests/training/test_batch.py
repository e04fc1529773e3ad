"""Rewards of a batch (acpgen.training.batch): the values of `reward` one at a time, on worker processes and in
this process, over every task and format; an answer over its budget or about a record acp cannot read is
undecided with value None and the batch says so in one warning; an event loop's answers of one turn are one
batch."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
import time

import pool_stubs
import pytest
from test_api import answers_to, every_task  # noqa: F401 - the fixture

from acpgen.training import batch
from acpgen.training.rewards import SIGNALS, reward


def test_a_batch_gets_the_rewards_of_one_at_a_time(every_task):  # noqa: F811
    records, answers = answers_to(every_task)
    for strict in (True, False):
        alone = [reward(r, a, strict=strict) for r, a in zip(records, answers)]
        assert batch.rewards_many(records, answers, strict=strict, workers=2) == alone
        assert batch.rewards_many(records, answers, strict=strict, workers=1) == alone
    assert {r.status for r in alone} == {"scored", "parse_error"}


def test_undecided_answers_have_no_value_and_the_batch_says_why(monkeypatch, caplog, every_task):  # noqa: F811
    monkeypatch.setattr(batch, "_reward_call", pool_stubs.reward_call)
    records = every_task[:6]
    answers = [f"(sail l0 l1){pool_stubs.SLEEP}", "x", "y", "z", "(sail l1 l0)", "w"]
    records[3] = dict(records[3], PDDL_problem="(define (problem broken")
    with caplog.at_level(logging.WARNING, logger="acpgen.training.batch"):
        results = batch.rewards_many(records, answers, workers=2, budget=0.5)
    assert [r.value is None for r in results] == [True, False, False, True, False, False]
    assert results[0].reason == "scoring took longer than its budget of 0.5 s"
    assert results[0].signals == dict.fromkeys(SIGNALS, 0.0) and results[0].status == "undecided"
    assert results[3].reason.startswith("record PDDL error")
    assert [m.getMessage() for m in caplog.records] == [
        "acp rewards: 2 of 6 answers undecided, their reward left out (None): "
        "1 scoring took longer than its budget of 0.5 s; 1 record PDDL error"
    ]
    assert batch.undecided_message(results[1:3]) is None


def test_the_answers_of_one_turn_of_an_event_loop_are_one_batch(monkeypatch, caplog, every_task):  # noqa: F811
    records, answers = answers_to([r for r in every_task if "format" not in r or r["format"] == "gen"][:10])
    records[1] = dict(records[1], PDDL_problem="(define (problem broken")
    sizes = []
    submit = batch.shared_pool(2).submit

    def counted(fn, calls, keys=None, budget=None):
        sizes.append(len(calls))
        return submit(fn, calls, keys, budget)

    monkeypatch.setattr(type(batch.shared_pool(2)), "submit", lambda self, *a: counted(*a))
    scorer = batch.AsyncRewards(workers=2)

    async def everything():
        first = await asyncio.gather(*(scorer.reward(r, a) for r, a in zip(records, answers)))
        again = await scorer.reward(records[0], answers[0])
        return first, again

    with caplog.at_level(logging.WARNING, logger="acpgen.training.batch"):
        results, again = asyncio.run(everything())
    assert sizes == [len(records), 1]
    assert results == [reward(r, a) for r, a in zip(records, answers)] and again == results[0]
    assert [m.getMessage() for m in caplog.records] == [
        f"acp rewards: 1 of {len(records)} answers undecided, their reward left out (None): 1 record PDDL error"
    ]


@pytest.mark.parametrize("workers", [1, 2])
def test_an_event_loop_is_never_blocked(workers, monkeypatch, every_task):  # noqa: F811
    """While a batch is scored (on the workers, or in a thread of this process), the loop runs its other coroutines:
    here the scoring of an answer takes a second, and the loop ticks meanwhile."""
    records, answers = answers_to(every_task[:3])
    answers[0] += pool_stubs.NAP
    if workers == 1:

        def napping(record, response, strict):
            pool_stubs.held_up(response)
            return reward(record, response, strict=strict)

        monkeypatch.setattr(batch, "reward", napping)
    else:
        monkeypatch.setattr(batch, "_reward_call", pool_stubs.reward_call)
    scorer = batch.AsyncRewards(workers=workers)
    ticks: list[float] = []

    async def ticking():
        for _ in range(5):
            ticks.append(time.monotonic())
            await asyncio.sleep(0.01)

    async def scoring():
        results = await asyncio.gather(*(scorer.reward(r, a) for r, a in zip(records, answers)))
        return results, time.monotonic()

    async def both():
        return await asyncio.gather(scoring(), ticking())

    (results, scored), _ = asyncio.run(both())
    assert len(ticks) == 5 and ticks[-1] < scored - 0.5
    assert results == [reward(r, a) for r, a in zip(records, answers)]


def test_the_warning_is_seen_without_any_logging_configuration(every_task):  # noqa: F811
    """A trainer that configures no logging (TRL configures none for other libraries) still sees the warning: on
    standard error, where Python's logging puts a warning when no handler is set up."""
    record = dict(next(r for r in every_task if "format" not in r), PDDL_problem="(define (problem broken")
    code = (
        "import json, sys; from acpgen.training.batch import rewards_many; "
        "print(rewards_many([json.loads(sys.argv[1])], ['x'], workers=1)[0].value)"
    )
    done = subprocess.run([sys.executable, "-c", code, json.dumps(record)], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "None"
    assert "acp rewards: 1 of 1 answers undecided, their reward left out (None): 1 record PDDL error" in done.stderr
