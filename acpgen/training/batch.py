"""Rewards of a whole batch at a trainer's scale: every answer of a batch scored at once on worker processes, each
within a budget, and the answers acp could not decide said aloud.

:func:`rewards_many` is :func:`acpgen.training.rewards.reward` for each pair of a batch, in order, with the same
values, on ``workers`` processes (default: :func:`default_workers`, the cores this process may use; 1 scores in
this process): the pool of ``acpgen.score_many`` (`acpgen.evaluation.pool`), started on the first batch and kept
for the next ones, its workers fresh interpreters that import acp only (never forks of a trainer holding torch and
CUDA). An answer whose scoring takes longer than ``budget`` seconds (default ``DEFAULT_BUDGET``, 60 s) is
``undecided`` with value None, never 0, and the worker running it is replaced while the others go on; so is an
answer whose worker died twice while scoring it. TRL's reward functions (`acpgen.adapters.trl`) call it once per
batch; :class:`AsyncRewards` gathers the answers an event loop asks for in the same turn into one batch (verifiers
scores each rollout in a coroutine: `acpgen.adapters.verifiers`).

A batch with undecided answers is reported with a ``logging`` warning on the caller's logger (by default this
module's): how many of the batch, and why, by reason ("2 of 1024 answers undecided, their reward left out
(None): 1 scoring took longer than its budget of 60 s; 1 planner timeout"). Without any logging configuration
Python prints warnings to standard error, which is where TRL's own warnings go.
"""

from __future__ import annotations

import asyncio
import logging
import os
import weakref
from collections import Counter
from collections.abc import Sequence
from typing import Any

from acpgen.api import pddl_key
from acpgen.evaluation.pool import DEFAULT_BUDGET, Raised, Unfinished, shared_pool
from acpgen.training.rewards import Reward, reward

log = logging.getLogger(__name__)

__all__ = ["DEFAULT_BUDGET", "AsyncRewards", "default_workers", "rewards_many", "undecided_message", "warn_undecided"]


def default_workers() -> int:
    """The cores this process may use: its CPU affinity where the system has one, else ``os.cpu_count()``."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _reward_call(record: dict, response: Any, strict: bool) -> Reward:
    """:func:`acpgen.training.rewards.reward` as a worker runs it."""
    return reward(record, response, strict=strict)


def _submit(records: Sequence[dict], responses: Sequence[Any], strict: bool, workers: int, budget: float | None):
    """The batch on this process's pool of ``workers``: a future of each pair's outcome, in order."""
    calls = [(r, x, strict) for r, x in zip(records, responses)]
    return shared_pool(workers).submit(_reward_call, calls, [pddl_key(r) for r in records], budget)


def rewards_many(
    records: Sequence[dict],
    responses: Sequence[Any],
    *,
    strict: bool = True,
    workers: int | None = None,
    budget: float | None = DEFAULT_BUDGET,
    logger: logging.Logger | None = None,
) -> list[Reward]:
    """The reward of ``responses[i]`` for ``records[i]`` for every i, in order (see the module docstring):
    ``workers`` processes (None: :func:`default_workers`; 1: this process, without a budget), ``budget`` seconds
    per answer (None: no limit), undecided answers reported on ``logger``."""
    if len(records) != len(responses):
        raise ValueError(f"{len(records)} records but {len(responses)} responses; give one response each")
    workers = default_workers() if workers is None else workers
    if workers <= 1:
        results = [reward(r, x, strict=strict) for r, x in zip(records, responses)]
    else:
        results = [_as_reward(o) for o in _submit(records, responses, strict, workers, budget).result()]
    warn_undecided(results, logger)
    return results


def _as_reward(outcome: Reward | Unfinished | Raised) -> Reward:
    """The reward of a pool's outcome; the exception a call raised is raised."""
    if isinstance(outcome, Raised):
        raise outcome.error
    return Reward.undecided(outcome.reason) if isinstance(outcome, Unfinished) else outcome


def undecided_message(results: Sequence[Reward]) -> str | None:
    """What a batch's undecided answers are, counted by reason (the reason's words before its first colon: "planner
    timeout", "record PDDL error", "scoring took longer than its budget of 60 s"); None when there are none."""
    reasons = Counter(r.reason.split(":", 1)[0].strip()[:120] for r in results if r.status == "undecided")
    if not reasons:
        return None
    by_reason = "; ".join(f"{count} {reason}" for reason, count in reasons.most_common())
    total = sum(reasons.values())
    return f"acp rewards: {total} of {len(results)} answers undecided, their reward left out (None): {by_reason}"


def warn_undecided(results: Sequence[Reward], logger: logging.Logger | None = None) -> str | None:
    """Warn on ``logger`` (default: this module's) when some of a batch's answers are undecided; the message."""
    message = undecided_message(results)
    if message is not None:
        (logger or log).warning(message)
    return message


class AsyncRewards:
    """Rewards for an event loop (see the module docstring): :meth:`reward` is awaited per answer, and the answers
    asked for in the same turn of the loop are scored as one batch by :func:`rewards_many`'s path without blocking
    the loop, each batch with undecided answers reported on ``logger``."""

    def __init__(
        self,
        *,
        strict: bool = True,
        workers: int | None = None,
        budget: float | None = DEFAULT_BUDGET,
        logger: logging.Logger | None = None,
    ):
        self.strict, self.workers, self.budget, self.logger = strict, workers, budget, logger
        self._waiting: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, list] = weakref.WeakKeyDictionary()
        self._tasks: set[asyncio.Task] = set()

    async def reward(self, record: dict, response: Any) -> Reward:
        """The reward of ``response`` for ``record``, scored with the other answers asked for in this turn."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Reward] = loop.create_future()
        batch = self._waiting.get(loop)
        if batch is None:
            batch = self._waiting[loop] = []
            loop.call_soon(self._flush, loop)
        batch.append((record, response, future))
        return await future

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        batch = self._waiting.pop(loop, [])
        if batch:
            task = loop.create_task(self._score(batch))
            self._tasks.add(task)  # kept until done: the loop holds tasks weakly
            task.add_done_callback(self._tasks.discard)

    async def _score(self, batch: list[tuple[dict, Any, asyncio.Future]]) -> None:
        records, responses = [b[0] for b in batch], [b[1] for b in batch]
        workers = default_workers() if self.workers is None else self.workers
        outcomes: list[Any]
        try:
            if workers <= 1:
                outcomes = await asyncio.to_thread(
                    rewards_many, records, responses, strict=self.strict, workers=1, logger=self.logger
                )
            else:
                submitted = _submit(records, responses, self.strict, workers, self.budget)
                done = await asyncio.wrap_future(submitted)
                outcomes = [o.error if isinstance(o, Raised) else _as_reward(o) for o in done]
                warn_undecided([o for o in outcomes if isinstance(o, Reward)], self.logger)
        except Exception as err:
            outcomes = [err] * len(batch)
        for (*_, future), outcome in zip(batch, outcomes):
            if future.done():
                continue
            if isinstance(outcome, BaseException):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)
