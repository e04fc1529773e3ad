"""Scoring on worker processes: the pool behind ``acpgen.score_many(workers=N)`` and the training rewards.

Scoring is CPU-bound Python (reading an answer, grounding a task, exploring states), so the threads of one
interpreter take turns; a batch spreads over processes. A trainer scores a batch every step, so a process keeps
one pool (:func:`shared_pool`) from its first batch to its exit: starting a worker (a fresh interpreter that
imports acp) takes about half a second, more than most batches take to score.

* **Start**: each worker is a new interpreter (``sys.executable`` with this process's ``sys.path``) that imports
  acp's pool and then the modules of the functions it is given to run, nothing else. It is not forked from the
  caller (a trainer holds torch and CUDA threads, which a forked child must not touch), and it does not import
  the caller's main module as ``multiprocessing``'s ``spawn`` and ``forkserver`` do (a training script's would
  load torch again in every worker). It runs in its own session, so a Ctrl-C at the terminal reaches the caller
  only, and it exits when the caller has died.
* **Work** reaches a worker in chunks over a socket: the calls of several items pickled together (a record
  shared by several calls of a chunk is pickled once), at most :data:`IN_FLIGHT` chunks per worker, each about
  :data:`CHUNK_SECONDS` of work at the mean time per item so far and no more than an even share of what is left.
  Items carry a key (for scoring: the record's PDDL texts), and a key goes to the worker that took it last while
  that worker has work to take: a worker keeps the ground tasks of the last 512 PDDL texts it scored
  (``acpgen.api``), so a trainer that scores the same records step after step grounds each once. When nothing is
  left to hand out and a worker has nothing to do, the worker with the most items not started gives about half of
  them back (whole keys where it can) to the one with nothing to do: a slow answer does not hold up those queued
  behind it. A worker sends its results every :data:`REPORT_SECONDS` while it works, and at once when it runs out.
* **Budget**: a worker marks on a clock it shares with the pool (sixteen bytes of shared memory) when it starts
  each item, so the pool knows which item runs and since when, whenever its results arrive. An item whose call
  runs longer than its budget (seconds) ends :class:`Unfinished` ("scoring took longer than its budget of 60 s");
  its worker is killed, with the planner processes it started, and replaced, and the items queued behind it go
  to the other workers meanwhile. Starting a worker, and importing a module, never count against a budget.
* **Deaths**: a worker that dies (killed, out of memory) loses nothing: the items it held are handed out again,
  and the one it was running is tried once more before it ends :class:`Unfinished` ("the worker scoring it died
  2 times"). Workers that cannot start (acp fails to import) fail the items with :class:`PoolError`.
* **Results**: a future per batch of items, resolved once every item is in to their outcomes in order: the call's
  value, :class:`Unfinished`, or :class:`Raised` (the exception it raised, with the worker's traceback as a
  note). The pool is closed at exit (:mod:`atexit`); a child forked from the caller starts its own.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import logging
import math
import mmap
import os
import pickle
import queue
import selectors
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from acpgen.errors import AcpError

log = logging.getLogger(__name__)

#: the budget of one answer's scoring, in seconds, unless the caller gives another: a safety net above acp's own
#: bounds (a planner call has 20 s, and one more with 80 s only when the first runs out of time; most answers take
#: under a millisecond), short enough that a call that hangs costs a trainer a minute, not its run
DEFAULT_BUDGET = 60.0
#: seconds of work in a chunk handed to a worker (at the mean time per item so far)
CHUNK_SECONDS = 0.05
#: chunks in flight per worker: one it works on and one waiting, so that it never waits for the next
IN_FLIGHT = 2
#: seconds a working worker keeps its results before it sends them (it sends them all when it runs out of work)
REPORT_SECONDS = 0.02
#: seconds between two looks at a worker that holds items with a budget but has not started them
LOOK_SECONDS = 0.05
#: keys remembered per worker, and the ground tasks a worker keeps (``acpgen.api``'s cache is this size)
KEYS_KEPT = 512
#: a worker that dies this many times while running the same item leaves it unfinished
DEATHS = 2
#: workers that die before they are ready, one after the other, before the pool gives up
START_FAILURES = 3


class PoolError(AcpError):
    """The pool's workers cannot start (acp does not import in a fresh interpreter), or the pool was closed."""


@dataclass(frozen=True)
class Unfinished:
    """An item the pool could not finish: ``reason`` says why (its budget ran out, its worker died twice)."""

    reason: str


def budget_reason(budget: float) -> str:
    """The reason of an item whose budget ran out."""
    return f"scoring took longer than its budget of {budget:g} s"


#: a worker's clock, in memory it shares with the pool: the items it has started, and when it started the last
#: (``time.monotonic``, one clock for every process of the machine). It writes the time first, the count then,
#: and the pool reads the count first: a count read with a later time only makes an item look younger. Each field
#: is written whole by a slice assignment (``struct.pack_into`` zeroes a field before it writes it: a pool reading
#: the time in between saw an item started at 0.0, over any budget, and killed a worker that was well), and read
#: until two readings agree (:meth:`_Worker.current`), so that no reading is half of one write and half of another.
_STARTED, _AT = struct.Struct("<q"), struct.Struct("<d")
#: what the pool sends a worker, followed by a count, to have that many of the last items it has not started back
#: (not a pickle: its reader sees it at once)
_GIVE_BACK = b"give back "
#: what starts a chunk: this, the number of its calls (4 bytes), then the calls pickled
_RUN = b"run "


@dataclass(frozen=True)
class Raised:
    """An item whose call raised ``error`` (with the worker's traceback as a note, where exceptions take notes)."""

    error: BaseException


class _Batch:
    """The items of one :meth:`Pool.submit`: their outcomes, and the future resolved once all are in."""

    def __init__(self, size: int):
        self.outcomes: list[Any] = [None] * size
        self.left = size
        self.future: Future[list[Any]] = Future()
        self.future.set_running_or_notify_cancel()  # no cancelling: the pool resolves every batch
        if not size:
            self.future.set_result([])

    def resolve(self, index: int, outcome: Any) -> None:
        self.outcomes[index] = outcome
        self.left -= 1
        if not self.left:
            self.future.set_result(self.outcomes)


@dataclass(eq=False)
class _Item:
    batch: _Batch
    index: int
    fn: Callable[..., Any]
    args: tuple
    key: Hashable | None
    budget: float | None
    deaths: int = 0
    done: bool = False

    def resolve(self, outcome: Any) -> None:
        if not self.done:
            self.done = True
            self.batch.resolve(self.index, outcome)


@dataclass(eq=False)
class _Worker:
    number: int
    process: subprocess.Popen
    conn: Connection
    clock: mmap.mmap
    modules: set[str]  # modules it has imported, or will have before it reads its next chunk
    outbox: queue.SimpleQueue = field(default_factory=queue.SimpleQueue)  # bytes for its sender thread
    ready: bool = False
    running: deque[_Item] = field(default_factory=deque)  # sent, no result received, in the order it runs them
    chunks: deque[int] = field(default_factory=deque)  # the items left of each chunk in flight
    received: int = 0  # results received from it
    asked: bool = False  # asked to give back items it has not started, no answer yet (it is sent nothing meanwhile)

    def current(self) -> tuple[int, float] | None:
        """The position in ``running`` of the item it is running (or has just finished: results travel in
        batches) and when it started it, by its clock; None before it starts the first of them."""
        reading = None
        while True:
            started, at = _STARTED.unpack_from(self.clock, 0)[0], _AT.unpack_from(self.clock, 8)[0]
            if reading == (started, at):
                break
            reading = (started, at)
        position = started - self.received - 1
        return (position, at) if 0 <= position < len(self.running) else None


_BOOT = """\
import sys
sys.path[:] = {path!r}
from multiprocessing.connection import Connection
conn = Connection({fd})
try:
    from acpgen.evaluation.pool import serve
except BaseException:
    import traceback
    conn.send(("broken", traceback.format_exc()))
    raise SystemExit(1)
serve(conn, {clock}, {parent}, {modules!r})
"""


class Pool:
    """``workers`` worker processes running calls ``fn(*args)`` of module-level functions (see the module
    docstring): :meth:`submit` hands items in, a thread of this process hands them out and collects the results."""

    def __init__(self, workers: int):
        if workers < 1:
            raise ValueError(f"a pool needs at least one worker, not {workers}")
        self.size = workers
        self._lock = threading.Lock()
        self._incoming: list[_Item] = []
        self._closing = False
        self._broken: str | None = None
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._pending: OrderedDict[Hashable | None, deque[_Item]] = OrderedDict()
        self._owner: OrderedDict[Hashable, int] = OrderedDict()  # key -> number of the worker that took it last
        self._spare: list[_Item] = []  # given back by a worker, for one with nothing to do
        self._modules: set[str] = set()  # imported by every worker before it takes work
        self._count = 0
        self._start_failures = 0
        self._mean = 0.001  # seconds per item so far (a running mean)
        self._workers = [self._start() for _ in range(workers)]
        self._thread = threading.Thread(target=self._run, name="acp-scoring-pool", daemon=True)
        self._thread.start()

    # ----- the caller's side -------------------------------------------------------------------------------------
    def submit(
        self,
        fn: Callable[..., Any],
        calls: Sequence[tuple],
        keys: Sequence[Hashable | None] | None = None,
        budget: float | None = DEFAULT_BUDGET,
    ) -> Future[list[Any]]:
        """A future of the outcomes of the calls ``fn(*args)``, in order, once every one is in: the call's value,
        :class:`Unfinished`, or :class:`Raised`. ``keys``: an affinity key per call (calls with the same key go to
        the same worker when they can); ``budget``: seconds per call (None: no limit)."""
        if budget is not None and not budget > 0:
            raise ValueError(f"a budget is a positive number of seconds or None, not {budget!r}")
        keys = keys if keys is not None else [None] * len(calls)
        if len(keys) != len(calls):
            raise ValueError(f"{len(calls)} calls but {len(keys)} keys")
        batch = _Batch(len(calls))
        items = [_Item(batch, i, fn, tuple(args), key, budget) for i, (args, key) in enumerate(zip(calls, keys))]
        with self._lock:
            if self._closing or self._broken:
                raise PoolError(self._broken or "acp's scoring pool is closed")
            self._incoming.extend(items)
        self._wake()
        return batch.future

    def close(self, timeout: float = 2.0) -> None:
        """Stop the workers (one still running an item is killed after ``timeout`` seconds); items not done fail
        with :class:`PoolError`."""
        with self._lock:
            self._closing = True
        self._wake()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)
        for worker in self._workers:
            worker.outbox.put(pickle.dumps(("stop",)))
            worker.outbox.put(None)
        deadline = time.monotonic() + timeout
        for worker in self._workers:
            with contextlib.suppress(subprocess.TimeoutExpired):
                worker.process.wait(max(0.0, deadline - time.monotonic()))
            self._kill(worker)
        self._workers = []
        with contextlib.suppress(OSError, ValueError):
            self._selector.close()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    @property
    def alive(self) -> bool:
        """Whether the pool takes work (not closed, not broken)."""
        return not self._closing and not self._broken and self._thread.is_alive()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")

    # ----- workers -----------------------------------------------------------------------------------------------
    def _start(self) -> _Worker:
        ours, theirs = socket.socketpair()
        with tempfile.TemporaryFile() as shared:
            shared.truncate(16)
            clock = mmap.mmap(shared.fileno(), 16)
            modules = sorted(self._modules)
            boot = _BOOT.format(
                path=list(sys.path), fd=theirs.fileno(), clock=shared.fileno(), parent=os.getpid(), modules=modules
            )
            try:
                process = subprocess.Popen(
                    [sys.executable, "-c", boot], stdin=subprocess.DEVNULL,
                    pass_fds=(theirs.fileno(), shared.fileno()), start_new_session=True,
                )  # fmt: skip
            finally:
                theirs.close()
        self._count += 1
        worker = _Worker(self._count, process, Connection(ours.detach()), clock, set(modules))
        self._selector.register(worker.conn.fileno(), selectors.EVENT_READ, worker)
        threading.Thread(target=_send_all, args=(worker.conn, worker.outbox), daemon=True).start()
        return worker

    def _kill(self, worker: _Worker) -> None:
        """Kill the worker and the planner processes it started (each leads a session of its own)."""
        worker.outbox.put(None)
        for child in _children(worker.process.pid):
            with contextlib.suppress(OSError):
                os.killpg(child, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGKILL)
        with contextlib.suppress(OSError):
            worker.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.process.wait(5)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(worker.conn.fileno())
        with contextlib.suppress(OSError):
            worker.conn.close()

    # ----- the pool's thread -------------------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while True:
                with self._lock:
                    incoming, self._incoming = self._incoming, []
                    closing = self._closing
                for item in incoming:
                    self._modules.add(item.fn.__module__)
                    self._pending.setdefault(item.key, deque()).append(item)
                if closing or self._broken:
                    break
                self._dispatch()
                for key, _ in self._selector.select(self._timeout()):
                    if key.data is None:
                        with contextlib.suppress(OSError):
                            os.read(self._wake_r, 4096)
                    elif key.data in self._workers:
                        self._receive(key.data)
                self._check_budgets()
        except BaseException as err:  # a bug here must not leave callers waiting
            log.exception("acp's scoring pool stopped")
            self._broken = f"acp's scoring pool stopped: {type(err).__name__}: {err}"
        finally:
            with self._lock:
                leftover, self._incoming = self._incoming, []
            items = leftover + self._spare + [i for q in self._pending.values() for i in q]
            items += [i for w in self._workers for i in w.running]
            self._pending.clear()
            for item in items:
                item.resolve(Raised(PoolError(self._broken or "acp's scoring pool was closed")))

    def _timeout(self) -> float | None:
        """Seconds until the budget of an item running runs out: None when none has one; :data:`LOOK_SECONDS`
        while a worker has not started the items it holds."""
        now, soonest = time.monotonic(), None
        for worker in self._workers:
            current = worker.current()
            if current is None:
                if not worker.running or worker.running[0].budget is None:
                    continue
                left = LOOK_SECONDS
            else:
                budget = worker.running[current[0]].budget
                if budget is None:
                    continue
                left = current[1] + budget - now
            soonest = left if soonest is None else min(soonest, left)
        return None if soonest is None else max(0.0, soonest)

    def _receive(self, worker: _Worker) -> None:
        while True:
            try:
                if not worker.conn.poll(0):
                    return
                message = worker.conn.recv()
            except (EOFError, OSError):
                self._lost(worker)
                return
            if message[0] == "done":
                self._done(worker, message[1])
            elif message[0] == "returned":
                self._returned(worker, message[1])
            elif message[0] == "ready":
                worker.ready = True
                self._start_failures = 0
            elif message[0] == "broken":
                log.error("acp's scoring worker cannot start:\n%s", message[1])
                self._broken = f"acp's scoring workers cannot start: {message[1].strip().splitlines()[-1]}"

    def _done(self, worker: _Worker, results: list[tuple[bool, Any, str, float]]) -> None:
        for ok, value, trace, seconds in results:
            item = worker.running.popleft()
            worker.received += 1
            worker.chunks[0] -= 1
            if not worker.chunks[0]:
                worker.chunks.popleft()
            self._mean += (seconds - self._mean) * 0.05
            if not ok and trace and hasattr(value, "add_note"):
                value.add_note(f"raised in acp's scoring worker:\n{trace}")
            item.resolve(value if ok else Raised(value))

    def _returned(self, worker: _Worker, count: int) -> None:
        """The worker gave back the last ``count`` items it held, not started: for a worker with nothing to do."""
        worker.asked = False
        back = [worker.running.pop() for _ in range(count)]
        while count:
            taken = min(count, worker.chunks[-1])
            worker.chunks[-1] -= taken
            count -= taken
            if not worker.chunks[-1]:
                worker.chunks.pop()
        self._spare.extend(reversed(back))

    def _lost(self, worker: _Worker, reason: str | None = None) -> None:
        """The worker died, or is killed for ``reason``: a new worker starts in its place, the item it was running
        is unfinished when ``reason`` is given or when it has now died on it :data:`DEATHS` times, and its other
        items (also those it finished but whose results it had not sent) go back to the front of the queue."""
        current = worker.current()
        self._kill(worker)
        code = worker.process.returncode
        if not worker.ready and reason is None:
            self._start_failures += 1
        self._workers.remove(worker)
        if self._start_failures >= START_FAILURES:
            self._broken = self._broken or (
                f"acp's scoring workers die before they are ready ({self._start_failures} in a row, the last with "
                f"exit code {code}); does `{sys.executable} -c 'import acpgen.api'` run?"
            )
        else:
            self._workers.append(self._start())
        running = list(worker.running)
        if running:
            position = current[0] if current is not None else 0
            culprit = running[position]
            culprit.deaths += reason is None
            if reason is not None or culprit.deaths >= DEATHS:
                del running[position]
                culprit.resolve(
                    Unfinished(reason or f"the worker scoring it died {culprit.deaths} times (exit code {code})")
                )
        for item in reversed(running):
            self._pending.setdefault(item.key, deque()).appendleft(item)
            self._pending.move_to_end(item.key, last=False)
        if reason is None and worker.ready:
            log.warning("acp's scoring worker died (exit code %s); %d item(s) handed out again", code, len(running))

    def _check_budgets(self) -> None:
        for worker in list(self._workers):
            current = worker.current()
            if current is None:
                continue
            item, at = worker.running[current[0]], current[1]
            if item.budget is None or time.monotonic() - at < item.budget:
                continue
            self._receive(worker)  # results that arrived meanwhile count
            now = worker.current() if worker in self._workers else None
            if now is not None and worker.running[now[0]] is item and now[1] == at:
                self._lost(worker, budget_reason(item.budget))

    # ----- handing out -------------------------------------------------------------------------------------------
    def _dispatch(self) -> None:
        """Chunks to the workers that are ready, a round at a time (each worker one chunk a round) so that the
        first chunks of a batch are spread evenly; a worker that lacks the module of a function the pool was given
        imports it first, whether or not there is work for it."""
        for worker in self._workers:
            missing = self._modules - worker.modules
            if worker.ready and missing:
                worker.outbox.put(pickle.dumps(("import", sorted(missing))))
                worker.modules |= missing
                worker.ready = False  # until it says it has imported them
        ready = [w for w in self._workers if w.ready and not w.asked]  # asked: nothing more until it has answered
        for _ in range(IN_FLIGHT):
            for worker in sorted(ready, key=lambda w: len(w.running)):
                if len(worker.chunks) < IN_FLIGHT and self._pending:
                    self._send(worker, self._chunk(worker))
        idle = [w for w in ready if not w.running]
        if idle and self._spare:  # given back: all to one that has nothing to do
            spare, self._spare = self._spare, []
            self._send(idle.pop(), spare)
        if idle and not self._pending and not any(w.asked for w in self._workers):  # share another's work
            busiest = max(self._workers, key=_unstarted)
            count = _to_give(busiest)
            if count:
                busiest.outbox.put(_GIVE_BACK + str(count).encode())
                busiest.asked = True

    def _chunk(self, worker: _Worker) -> list[_Item]:
        """Items for ``worker``: those of the keys it took last first, then of keys no worker has, then any; no more
        than an even share of those waiting (counting the workers still starting)."""
        waiting = sum(len(q) for q in self._pending.values())
        share = math.ceil(waiting / (len(self._workers) * IN_FLIGHT))
        size = max(1, min(share, round(CHUNK_SECONDS / max(self._mean, 1e-6))))
        live = {w.number for w in self._workers}
        mine = [k for k in self._pending if k is not None and self._owner.get(k) == worker.number]
        free = [k for k in self._pending if k is None or self._owner.get(k) not in live]
        chunk: list[_Item] = []
        for key in [*mine, *free, *self._pending]:
            items = self._pending.get(key)
            if not items:
                continue
            while items and len(chunk) < size:
                chunk.append(items.popleft())
            if not items:
                del self._pending[key]
            if key is not None:
                self._owner[key] = worker.number
                self._owner.move_to_end(key)
            if len(chunk) >= size:
                break
        while len(self._owner) > KEYS_KEPT * len(self._workers):
            self._owner.popitem(last=False)
        return chunk

    def _send(self, worker: _Worker, chunk: list[_Item]) -> None:
        try:
            calls = pickle.dumps([(item.fn, item.args) for item in chunk], pickle.HIGHEST_PROTOCOL)
        except Exception as err:  # the caller's function or arguments do not pickle
            for item in chunk:
                item.resolve(Raised(err))
            return
        worker.outbox.put(_RUN + len(chunk).to_bytes(4, "big") + calls)
        worker.running.extend(chunk)
        worker.chunks.append(len(chunk))


def _unstarted(worker: _Worker) -> int:
    """The items a worker holds and has not started, as far as its clock tells."""
    current = worker.current()
    return len(worker.running) - (current[0] + 1 if current is not None else 0)


def _to_give(worker: _Worker) -> int:
    """How many of the last items a worker holds it should give to one with nothing to do: about half of those it
    has not started, whole keys where it can (items of the same key share their ground task and oracle)."""
    unstarted = list(worker.running)[len(worker.running) - _unstarted(worker) :]
    if len(unstarted) < 2:
        return 0
    half, count = len(unstarted) // 2, 0
    while count < half:
        key = unstarted[-1 - count].key
        group = 1
        while key is not None and group < len(unstarted) - count and unstarted[-1 - count - group].key == key:
            group += 1
        if count + group >= len(unstarted):  # one key left: split it
            return max(count, half)
        count += group
    return count


def _send_all(conn: Connection, outbox: queue.SimpleQueue) -> None:
    """A worker's sender thread: what the pool's thread has for it, in order (so that thread never waits on a
    worker that is slow to read); None ends it."""
    while True:
        data = outbox.get()
        if data is None:
            return
        try:
            conn.send_bytes(data)
        except Exception:  # the worker died: the pool's thread sees its socket close
            return


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (from /proc on Linux; elsewhere none are found)."""
    children: list[int] = []
    for path in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError, ValueError):
            children += [int(c) for c in path.read_text().split()]
    return children


# ----- the worker's side -------------------------------------------------------------------------------------------
def serve(conn: Connection, clock_fd: int, parent: int, modules: Sequence[str]) -> None:
    """A worker's life: import ``modules``, say it is ready, then run the items of the chunks it is sent one after
    the other, marking on its clock (``clock_fd``, shared with the pool) when it starts each, and sending their
    results every :data:`REPORT_SECONDS` and whenever it runs out of work; asked to, it gives back at once the
    items it has not started. It ends on ``stop``, when the pool's side of the socket closes, or when its parent has
    died."""
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    clock = mmap.mmap(clock_fd, 16)
    os.close(clock_fd)
    for module in modules:
        importlib.import_module(module)
    serving = _Serving(conn, clock)
    serving.send(("ready", os.getpid()))
    threading.Thread(target=serving.read, daemon=True).start()
    with contextlib.suppress(EOFError, OSError):  # the pool's side is gone: end
        serving.run()


def _raise(err: Exception) -> None:
    raise err


class _Serving:
    """A worker's two threads (see :func:`serve`): :meth:`read` takes what the pool sends as it comes (so the pool
    never waits on a worker busy with an item) and gives items back at once when asked; :meth:`run` runs them."""

    def __init__(self, conn: Connection, clock: mmap.mmap):
        self.conn, self.clock = conn, clock
        self.sending = threading.Lock()
        self.ready = threading.Condition()  # guards ``work``, ``orders`` and the clock
        self.work: deque[tuple[Callable[..., Any], tuple]] = deque()
        self.orders: deque[tuple] = deque()  # import, stop, or gone (the pool's side of the socket closed)
        self.results: list[tuple[bool, Any, str, float]] = []
        self.started, self.reported = 0, time.monotonic()

    def send(self, message: tuple) -> None:
        with self.sending:
            self.conn.send(message)

    def read(self) -> None:
        while True:
            try:
                data: bytes | None = self.conn.recv_bytes()
            except (EOFError, OSError):
                data = None
            calls: list[tuple[Callable[..., Any], tuple]] = []
            order: tuple | None = None
            if data is None:
                order = ("gone",)
            elif data.startswith(_GIVE_BACK):
                with self.ready:  # never the items started: those are not in ``work``
                    given = min(int(data[len(_GIVE_BACK) :]), len(self.work))
                    for _ in range(given):
                        self.work.pop()
                    self.send(("returned", given))
                continue
            elif data.startswith(_RUN):
                count = int.from_bytes(data[len(_RUN) : len(_RUN) + 4], "big")
                try:
                    calls = pickle.loads(memoryview(data)[len(_RUN) + 4 :])
                except Exception as err:  # the calls do not unpickle here: each fails, in its place
                    calls = [(_raise, (err,))] * count
            else:
                order = pickle.loads(data)
            with self.ready:
                self.work.extend(calls)
                if order is not None:
                    self.orders.append(order)
                self.ready.notify()
            if data is None:
                return

    def run(self) -> None:
        while True:
            with self.ready:
                while not self.work and not self.orders:
                    if self.results:
                        break
                    self.ready.wait()
                item = self.work.popleft() if self.work else None
                order = self.orders.popleft() if item is None and self.orders else None
                if item is not None:
                    self.mark_start()
            if item is not None:
                self.run_one(*item)
            elif order is None:
                self.report()
            elif order[0] in ("stop", "gone"):
                return
            else:  # import
                for module in order[1]:
                    importlib.import_module(module)
                self.report()
                self.send(("ready", os.getpid()))

    def mark_start(self) -> None:
        """One more item started, now: on the clock the pool reads, each field written whole (see ``_STARTED``)."""
        self.started += 1
        self.clock[8:16] = _AT.pack(time.monotonic())
        self.clock[0:8] = _STARTED.pack(self.started)

    def report(self) -> None:
        if self.results:
            self.send(("done", self.results))
        self.results, self.reported = [], time.monotonic()

    def run_one(self, fn: Callable[..., Any], args: tuple) -> None:
        start = time.perf_counter()
        try:
            self.results.append((True, fn(*args), "", time.perf_counter() - start))
        except Exception as err:
            self.results.append((False, *_portable(err), time.perf_counter() - start))
        if time.monotonic() - self.reported >= REPORT_SECONDS or not self.work:
            self.report()


def _portable(err: Exception) -> tuple[Exception, str]:
    """The exception as it can cross to the pool's process, and its traceback."""
    trace = "".join(traceback.format_exception(type(err), err, err.__traceback__))
    try:
        pickle.loads(pickle.dumps(err))
        return err, trace
    except Exception:
        return RuntimeError(f"{type(err).__name__}: {err}"), trace


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


# ----- the process's pool ------------------------------------------------------------------------------------------
_SHARED: Pool | None = None
_SHARED_LOCK = threading.Lock()


def shared_pool(workers: int) -> Pool:
    """This process's pool of ``workers`` workers, started on first use and kept for the next call; a call that
    asks for another number of workers closes it and starts one of that size."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is not None and (_SHARED.size != workers or not _SHARED.alive):
            _SHARED.close()
            _SHARED = None
        if _SHARED is None:
            _SHARED = Pool(workers)
        return _SHARED


def run_all(
    fn: Callable[..., Any],
    calls: Sequence[tuple],
    workers: int,
    keys: Sequence[Hashable | None] | None = None,
    budget: float | None = DEFAULT_BUDGET,
) -> list[Any]:
    """``fn(*args)`` for every call on this process's pool of ``workers``: each value, or :class:`Unfinished`, in
    order. The first exception a call raised is raised once every call is done."""
    outcomes = shared_pool(workers).submit(fn, calls, keys, budget).result()
    for outcome in outcomes:
        if isinstance(outcome, Raised):
            raise outcome.error
    return outcomes


def close_shared_pool() -> None:
    """Stop this process's pool (at exit; a later call starts a new one)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is not None:  # a forked child has none (_forget_in_child)
            _SHARED.close()
        _SHARED = None


def _forget_in_child() -> None:
    """A forked child does not own its parent's pool (the pool's thread did not survive the fork): it starts its
    own on first use."""
    global _SHARED, _SHARED_LOCK
    _SHARED, _SHARED_LOCK = None, threading.Lock()


atexit.register(close_shared_pool)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
