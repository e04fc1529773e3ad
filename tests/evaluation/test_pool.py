"""The pool of scoring workers (acpgen.evaluation.pool) on its own: what a call raises reaches the caller with the
worker's traceback, calls that cannot be sent fail alone, a pool whose workers cannot start fails its items
instead of leaving them waiting, a closed pool takes no work. The budgets and deaths: tests/test_api.py."""

from __future__ import annotations

import mmap
import os
import pickle
import sys
import time

import pool_stubs
import pytest

from acpgen.evaluation import pool

RECORD = {"id": 1, "group": "applicable_actions_bool", "answer": "no"}


@pytest.fixture
def one_worker():
    started = pool.Pool(1)
    yield started
    started.close()


def test_a_calls_exception_reaches_the_caller_with_the_workers_traceback(one_worker):
    outcomes = one_worker.submit(pool_stubs.fails, [(RECORD, "x", True), (RECORD, "y", True)]).result(timeout=60)
    for outcome, response in zip(outcomes, ("x", "y")):
        assert isinstance(outcome, pool.Raised) and isinstance(outcome.error, ValueError)
        assert str(outcome.error) == f"no reward for {response!r}"
        if sys.version_info >= (3, 11):  # exception notes
            notes = outcome.error.__notes__
            assert any("raised in acp's scoring worker" in note and "pool_stubs.py" in note for note in notes)
    with pytest.raises(ValueError, match="no reward for 'x'"):
        pool.run_all(pool_stubs.fails, [(RECORD, "x", True)], 2)


def test_each_outcome_is_its_calls_when_workers_give_items_back():
    """Slow calls among quick ones, with keys: workers that run out of work take items from the others (given
    back while chunks are on their way), and every outcome is still its own call's, in order, in every round."""
    two = pool.Pool(2)
    returned = two._returned
    given_back: list[int] = []

    def counted(worker, count):  # the pool's own handling, counted
        given_back.append(count)
        returned(worker, count)

    two._returned = counted  # type: ignore[method-assign]
    try:
        for round_ in range(4):
            calls = [(i, 0.05 if i % 37 == round_ else 0.0) for i in range(400)]
            keys = [i // 5 for i in range(400)]
            assert two.submit(pool_stubs.echo, calls, keys, budget=30).result(timeout=120) == list(range(400))
    finally:
        two.close()
    assert sum(given_back) > 0  # items did move from a busy worker to an idle one


def test_calls_that_do_not_pickle_fail_alone(one_worker):
    local = [lambda: None]
    bad = one_worker.submit(pool_stubs.reward_call, [(RECORD, local, True)])
    good = one_worker.submit(pool_stubs.reward_call, [(RECORD, "**Final Answer**: No", True)])
    (failed,) = bad.result(timeout=60)
    assert isinstance(failed, pool.Raised)
    assert isinstance(failed.error, (pickle.PicklingError, AttributeError, TypeError))
    assert good.result(timeout=60)[0].value == 1.0
    assert one_worker.submit(pool_stubs.reward_call, []).result(timeout=1) == []


def test_workers_that_cannot_start_fail_the_items(monkeypatch):
    monkeypatch.setattr(pool, "_BOOT", pool._BOOT.replace("acpgen.evaluation.pool import", "acpgen.no_such import"))
    broken = pool.Pool(1)
    try:
        (outcome,) = broken.submit(pool_stubs.reward_call, [(RECORD, "No", True)]).result(timeout=60)
        assert isinstance(outcome, pool.Raised) and isinstance(outcome.error, pool.PoolError)
        assert "cannot start" in str(outcome.error) and "no_such" in str(outcome.error)
        assert not broken.alive
        with pytest.raises(pool.PoolError):
            broken.submit(pool_stubs.reward_call, [(RECORD, "No", True)])
    finally:
        broken.close()


def test_a_closed_pool_takes_no_work():
    closed = pool.Pool(1)
    closed.close()
    with pytest.raises(pool.PoolError, match="closed"):
        closed.submit(pool_stubs.reward_call, [(RECORD, "No", True)])
    with pytest.raises(ValueError, match="budget"):
        closed.submit(pool_stubs.reward_call, [], budget=0)


def test_the_pool_never_reads_a_start_time_the_worker_did_not_write():
    """A worker marks each start on the clock while the pool reads it: every reading is a time the worker wrote
    (``struct.pack_into`` zeroes a field before it writes it, and a pool that read 0.0 in between killed a worker
    that was well, its item "over its budget": some 100,000 zeros in 20 million such readings)."""
    clock = mmap.mmap(-1, 16)  # anonymous and shared: the child forked below writes what this process reads
    begun = time.monotonic()
    child = os.fork()
    if child == 0:  # the worker's side: items started back to back for a second
        try:
            serving = pool._Serving(None, clock)  # type: ignore[arg-type]
            end = time.monotonic() + 1.0
            while time.monotonic() < end:
                serving.mark_start()
        finally:
            os._exit(0)
    try:
        watcher = pool._Worker(1, None, None, clock, set())  # type: ignore[arg-type]
        watcher.running.extend([None] * 5_000_000)  # type: ignore[list-item]  # more than the child starts
        readings, wrong = 0, []
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            current = watcher.current()
            if current is not None:
                readings += 1
                if not begun <= current[1] <= time.monotonic():
                    wrong.append(current)
        assert readings > 1000 and not wrong, (readings, wrong[:5])
    finally:
        os.waitpid(child, 0)
