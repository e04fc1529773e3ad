"""Where units of work run: a local process pool (the default) or a Dask cluster.

A unit is one call ``fn(unit)`` of a picklable module-level function (a problem or a file of a
stage of `acp generate`, a shard of records of `acp validate` and `acp score`). :meth:`Executor.map`
yields one :class:`UnitOutcome` per unit **in the order of the units**, whatever order they finish
in, so the client writes the files in a fixed order and the output bytes do not depend on the
executor or the number of workers. Units read their inputs and write nothing but planner-cache
entries (atomically); the client writes every output.

* ``local``: this process and ``jobs - 1`` worker processes (``concurrent.futures.ProcessPoolExecutor``);
  with one job or one unit, the units run in this process, one after the other, and so do the first
  units of a map until they have taken :data:`LOCAL_FIRST` seconds, or until the units left would take longer
  at the pace so far (:func:`alone`; the worker processes start only then, for the units left: this process goes
  on from the front, the workers take units from the back, each handed the next when it has finished the last:
  one unit, or a run of small ones that takes about :data:`HANDED_SECONDS` at the pace so far, as each handing
  costs milliseconds). A worker process that dies (killed, out of memory) fails the units it was handed, and this
  process runs the units left.
* ``dask``: a ``dask.distributed.Client`` connected to a running scheduler (``scheduler``: an
  address such as ``tcp://host:8786``, or a scheduler file written by ``dask scheduler
  --scheduler-file``), or to a cluster acp starts: a ``dask_jobqueue`` cluster from a spec
  (Slurm, PBS, SGE, LSF; see docs/cluster.md), else a ``LocalCluster`` of ``jobs`` worker
  processes. A worker that dies in the middle of a unit (killed, out of memory, node lost) is
  noticed by the scheduler, which runs the unit again on another worker (up to Dask's
  ``distributed.scheduler.allowed-failures``, 3 by default); a unit that raises is run again
  ``retries`` more times (Dask's ``retries=``) before it counts as failed.

A unit that still fails is reported as a failed outcome with its name and the reason; the other
units go on. The progress bar counts finished units, from whichever worker; with ``-v`` (logging
at INFO) every finished unit is logged with the worker that ran it and its time.
"""

from __future__ import annotations

import functools
import logging
import os
import queue
import socket
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from acpgen.errors import ConfigError

log = logging.getLogger(__name__)

EXECUTORS = ("local", "dask")
#: seconds of work the local executor does in this process alone: units that finish sooner (a stage of a few small
#: problems) cost less than starting the processes would (see :func:`alone`)
LOCAL_FIRST = 0.3


#: seconds of work a worker process is handed at once: units that take less go in runs (a unit handed to a worker
#: waits some milliseconds for the executor's threads, which share this process with the work done here)
HANDED_SECONDS = 0.05


def alone(started: float, done: int, left: int) -> bool:
    """Whether to go on in this process alone, ``done`` units (or states) tried since ``started`` (a
    ``time.perf_counter()``) and ``left`` to go: until those done have taken :data:`LOCAL_FIRST` seconds, or those
    left would, at the mean time of those done (a first unit of 0.2 s with nine more to go starts the workers at
    once; ten units of 5 ms never do)."""
    spent = time.perf_counter() - started
    return spent < LOCAL_FIRST and (done == 0 or spent / done * left < LOCAL_FIRST)


#: dask-jobqueue cluster classes by the ``kind`` of an ``executor.cluster`` spec
CLUSTER_CLASSES = {"slurm": "SLURMCluster", "pbs": "PBSCluster", "sge": "SGECluster", "lsf": "LSFCluster"}


@dataclass(frozen=True)
class UnitOutcome:
    """What became of one unit: its value, or the reason it failed; where and how long it ran."""

    name: str
    value: Any = None
    error: str | None = None
    worker: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class _Ran:
    """A unit's value as returned by a worker, with the worker's name and the unit's time."""

    value: Any
    worker: str
    seconds: float


def _worker_name() -> str:
    # Only a process that runs Dask has imported it; importing it here (2 s) would slow every local run.
    distributed = sys.modules.get("distributed")
    if distributed is not None:
        try:
            return str(distributed.get_worker().address)
        except ValueError:  # not inside a Dask worker
            pass
    return f"{socket.gethostname()}:{os.getpid()}"


class UnitError(Exception):
    """A unit raised: the exception described where it happened (tracebacks do not cross processes)."""


def _run_unit(fn: Callable[[Any], Any], unit: Any) -> _Ran:
    start = time.perf_counter()
    try:
        value = fn(unit)
    except Exception as err:
        raise UnitError(describe_error(err)) from None
    return _Ran(value, _worker_name(), time.perf_counter() - start)


def _run_units(fn: Callable[[Any], Any], units: list) -> list[_Ran | UnitError]:
    """A run of units in a worker: each one's value, or the error it raised."""
    ran: list[_Ran | UnitError] = []
    for unit in units:
        try:
            ran.append(_run_unit(fn, unit))
        except UnitError as err:
            ran.append(err)
    return ran


def describe_error(err: BaseException) -> str:
    """The exception's type and message, and where it was raised (innermost frame)."""
    frames = traceback.extract_tb(err.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"{type(err).__name__}: {err}{where}"


class Executor:
    """Runs units; :meth:`map` yields their outcomes in unit order. Use as a context manager."""

    kind = "local"
    #: whether units leave this process even for one job or one unit (the callers' serial paths,
    #: which share planners and spread a single domain's stages over threads, apply otherwise)
    remote = False

    def __init__(self, jobs: int = 1):
        self.jobs = jobs

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release workers and connections (nothing for the local executor)."""

    @property
    def workers(self) -> int:
        """How many units can run at once (for choosing shard sizes)."""
        return self.jobs

    def map(
        self,
        fn: Callable[[Any], Any],
        units: Sequence[Any],
        names: Sequence[str],
        *,
        desc: str = "units",
        progress: bool = True,
    ) -> Iterator[UnitOutcome]:
        """``fn(unit)`` for every unit; outcomes in the order of ``units``, each as soon as it and
        all units before it have finished. ``names`` name the units in reports and logs."""
        if len(names) != len(units):
            raise ValueError(f"{len(units)} units but {len(names)} names")
        bar = tqdm(total=len(units), desc=desc, unit="unit", disable=not progress)
        try:
            yield from _in_order(self._completions(fn, list(units), list(names)), len(units), bar)
        finally:
            bar.close()

    def _completions(
        self, fn: Callable[[Any], Any], units: list, names: list[str]
    ) -> Iterable[tuple[int, UnitOutcome]]:
        started, here = time.perf_counter(), 0
        while here < len(units) and (
            self.jobs <= 1 or len(units) - here <= 1 or alone(started, here, len(units) - here)
        ):
            yield here, _outcome(names[here], functools.partial(_run_unit, fn, units[here]))
            here += 1
        if here == len(units):
            return
        # This process goes on with the units from the front, ``jobs - 1`` worker processes take them from the back,
        # each handed its next unit when it has finished the last, until the two ends meet (see _BothEnds).
        workers = min(self.jobs - 1, len(units) - here - 1)
        with ProcessPoolExecutor(max_workers=workers) as pool:
            both = _BothEnds(pool, fn, units, names, here, workers, time.perf_counter() - started)
            yield from both.completions()


class _BothEnds:
    """The units from ``here`` on: this process takes them from the front, each of ``pool``'s workers from the back:
    a worker is handed its next units when it has finished the last (in the executor's thread that learns of it),
    never before, so a unit no worker has started is this process's to take. What a worker is handed is one unit, or
    a run of units that takes about :data:`HANDED_SECONDS` at the pace so far (``spent`` seconds on the ``here``
    units before), at most a share of the units left. When the pool breaks (a worker died), the units it was handed
    fail and this process takes the units left."""

    def __init__(
        self,
        pool: ProcessPoolExecutor,
        fn: Callable[[Any], Any],
        units: list,
        names: list[str],
        here: int,
        workers: int,
        spent: float = 0.0,
    ) -> None:
        self.pool, self.fn, self.units, self.names = pool, fn, units, names
        self.workers = workers
        self.lock = threading.Lock()
        self.front, self.back = here, len(units) - 1  # the next unit from each end
        self.handed = 0
        self.broken = False
        self.finished: queue.SimpleQueue[tuple[int, Callable[[], _Ran]]] = queue.SimpleQueue()
        self.done, self.spent = here, spent  # units finished and their seconds: the pace
        for _ in range(workers):
            self._hand()

    def _run_length(self) -> int:
        """How many units from the back the next handing takes (called with the lock held)."""
        left = self.back - self.front + 1
        if not self.done or self.spent <= 0:
            return 1
        wanted = int(HANDED_SECONDS / (self.spent / self.done))
        return max(1, min(wanted, left // (2 * (self.workers + 1))))

    def _hand(self) -> None:
        """The next units from the back to a worker (none when the ends have met or the pool is broken)."""
        with self.lock:
            if self.broken or self.back < self.front:
                return
            length = self._run_length()
            indices = list(range(self.back, self.back - length, -1))
            self.back -= length
            self.handed += length
        try:
            future = self.pool.submit(_run_units, self.fn, [self.units[i] for i in indices])
        except RuntimeError as err:  # the pool is broken, or shutting down
            self.broken = True
            for index in indices:
                self.finished.put((index, functools.partial(_raise, err)))
            return
        future.add_done_callback(functools.partial(self._done, indices))

    def _done(self, indices: list[int], future: Future) -> None:
        error = future.exception()
        if error is not None:
            for index in indices:
                self.finished.put((index, functools.partial(_raise, error)))
            if isinstance(error, BrokenProcessPool):
                self.broken = True
                return
        else:
            ran = future.result()
            for index, one in zip(indices, ran):
                self.finished.put((index, functools.partial(_raise, one) if isinstance(one, UnitError) else _give(one)))
            self._count(sum(one.seconds for one in ran if isinstance(one, _Ran)), len(ran))
        self._hand()

    def _count(self, seconds: float, units: int) -> None:
        with self.lock:
            self.spent += seconds
            self.done += units

    def _take(self) -> int | None:
        """The next unit from the front for this process (None when the ends have met)."""
        with self.lock:
            if self.front > self.back:
                return None
            self.front += 1
            return self.front - 1

    def completions(self) -> Iterator[tuple[int, UnitOutcome]]:
        received = 0
        while (index := self._take()) is not None:
            outcome = _outcome(self.names[index], functools.partial(_run_unit, self.fn, self.units[index]))
            self._count(outcome.seconds, 1)
            yield index, outcome
            while not self.finished.empty():  # the workers' outcomes so far
                received += 1
                yield self._received()
        while received < self._handed():  # the ends have met: the workers' outcomes left
            received += 1
            yield self._received()

    def _handed(self) -> int:
        with self.lock:
            return self.handed

    def _received(self) -> tuple[int, UnitOutcome]:
        """A worker's next outcome (waiting for it)."""
        index, result = self.finished.get()
        return index, _outcome(self.names[index], result)


def _raise(err: BaseException) -> _Ran:
    raise err


def _give(ran: _Ran) -> Callable[[], _Ran]:
    return lambda: ran


def _outcome(name: str, result: Callable[[], _Ran]) -> UnitOutcome:
    try:
        ran = result()
    except UnitError as err:
        return UnitOutcome(name, error=str(err))
    except Exception as err:  # the executor's own failure, e.g. Dask's KilledWorker after repeated deaths
        return UnitOutcome(name, error=describe_error(err))
    return UnitOutcome(name, ran.value, worker=ran.worker, seconds=ran.seconds)


def _in_order(completions: Iterable[tuple[int, UnitOutcome]], total: int, bar: tqdm) -> Iterator[UnitOutcome]:
    """Outcomes arriving in any order, given back in index order (each as early as possible)."""
    waiting: dict[int, UnitOutcome] = {}
    following = 0
    for index, outcome in completions:
        bar.update()
        if outcome.ok:
            log.info("unit %s ran on %s in %.1f s", outcome.name, outcome.worker, outcome.seconds)
        else:
            log.warning("unit %s failed: %s", outcome.name, outcome.error)
        waiting[index] = outcome
        while following in waiting:
            yield waiting.pop(following)
            following += 1
    if following != total:
        raise RuntimeError(f"executor lost units: {total - following} of {total} never finished")


@dataclass(frozen=True)
class ExecutorConfig:
    """The ``executor:`` section of pipeline.yaml (command-line options override it).

    ``kind``: local or dask. ``scheduler``: the address (or scheduler file) of a running Dask
    scheduler. ``cluster``: a dask-jobqueue cluster acp starts (``kind``: slurm, pbs, sge or lsf;
    ``jobs``: how many batch jobs to submit; every other key goes to the cluster class, e.g.
    queue, account, cores, processes, memory, walltime, job_script_prologue). ``retries``: how
    many more times a unit that raised is run. ``workers``: LocalCluster worker processes (default:
    ``-j``).
    """

    kind: str = "local"
    scheduler: str | None = None
    cluster: dict[str, Any] | None = None
    retries: int = 1
    workers: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in EXECUTORS:
            raise ConfigError(f"executor.kind: {self.kind!r} is not one of {', '.join(EXECUTORS)}")
        if self.scheduler and self.cluster:
            raise ConfigError("executor: give either scheduler (a running one) or cluster (one acp starts), not both")
        if self.cluster is not None:
            cluster_spec(self.cluster)  # checked now, not after hours of work
        if not isinstance(self.retries, int) or self.retries < 0:
            raise ConfigError(f"executor.retries: expected a whole number >= 0, got {self.retries!r}")


def cluster_spec(cluster: dict[str, Any]) -> tuple[str, int, dict[str, Any]]:
    """(dask-jobqueue class name, number of jobs, keyword arguments of the class) of a cluster spec."""
    if not isinstance(cluster, dict):
        raise ConfigError(f"executor.cluster: expected a mapping, got {type(cluster).__name__}")
    spec = dict(cluster)
    kind = spec.pop("kind", None)
    if kind not in CLUSTER_CLASSES:
        raise ConfigError(
            f"executor.cluster.kind: {kind!r} is not one of {', '.join(CLUSTER_CLASSES)} (the batch system)"
        )
    jobs = spec.pop("jobs", 1)
    if not isinstance(jobs, int) or jobs < 1:
        raise ConfigError(f"executor.cluster.jobs: expected a whole number >= 1 (batch jobs to submit), got {jobs!r}")
    return CLUSTER_CLASSES[kind], jobs, spec


def start_jobqueue_cluster(cluster: dict[str, Any]) -> tuple[Any, int]:
    """A dask-jobqueue cluster object made from a spec (no job submitted yet), and its job count."""
    class_name, jobs, kwargs = cluster_spec(cluster)
    try:
        import dask_jobqueue
    except ImportError:
        raise ConfigError(
            "executor.cluster needs dask-jobqueue: pip install 'acpgen[cluster]' (or pip install dask-jobqueue)"
        ) from None
    return getattr(dask_jobqueue, class_name)(**kwargs), jobs


class DaskExecutor(Executor):
    """Units as tasks of a Dask cluster (see the module docstring for the three ways to get one)."""

    kind = "dask"
    remote = True

    def __init__(
        self,
        jobs: int = 1,
        scheduler: str | None = None,
        cluster: dict[str, Any] | None = None,
        retries: int = 1,
    ):
        super().__init__(jobs)
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ConfigError(
                "--executor dask needs dask.distributed: pip install 'acpgen[dask]' (or 'dask[distributed]')"
            ) from None
        self.retries = retries
        self._cluster: Any = None
        quiet = logging.getLogger("distributed")
        if quiet.level == logging.NOTSET:  # -v is about acp's units, not the scheduler's bookkeeping
            quiet.setLevel(logging.WARNING)
        if scheduler:
            if Path(scheduler).is_file():
                self.client = Client(scheduler_file=scheduler)
            else:
                self.client = Client(scheduler)
        elif cluster is not None:
            self._cluster, count = start_jobqueue_cluster(cluster)
            self._cluster.scale(jobs=count)
            self.client = Client(self._cluster)
        else:
            # Worker processes, one thread each (planners are processes; acp's own work is Python
            # code holding the GIL); no memory limit: planner calls have their own.
            self._cluster = LocalCluster(
                n_workers=jobs, threads_per_worker=1, processes=True, memory_limit=0, dashboard_address=None
            )
            self.client = Client(self._cluster)

    @property
    def workers(self) -> int:
        return max(1, len(self.client.scheduler_info().get("workers", {})), self.jobs)

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()

    def _completions(
        self, fn: Callable[[Any], Any], units: list, names: list[str]
    ) -> Iterable[tuple[int, UnitOutcome]]:
        from distributed import as_completed

        run = uuid.uuid4().hex[:12]  # keys unique across runs on a shared scheduler
        futures = [
            self.client.submit(_run_unit, fn, unit, key=f"acp-{_key_part(name)}-{run}-{i}", retries=self.retries)
            for i, (unit, name) in enumerate(zip(units, names))
        ]
        index_of = {future.key: i for i, future in enumerate(futures)}
        for future in as_completed(futures):
            index = index_of[future.key]
            yield index, _outcome(names[index], future.result)
            future.release()


def _key_part(name: str) -> str:
    return "".join(c if c.isalnum() or c in "._" else "_" for c in name)[:60]


def make_executor(
    kind: str | None = None,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    config: ExecutorConfig | None = None,
) -> Executor:
    """The executor of a command: its options (``kind``, ``scheduler``) over the config's section."""
    config = config or ExecutorConfig()
    kind = kind or ("dask" if scheduler else config.kind)
    if kind not in EXECUTORS:
        raise ConfigError(f"unknown executor {kind!r}; choose from {', '.join(EXECUTORS)}")
    if kind == "local":
        if scheduler:
            raise ConfigError("--scheduler goes with --executor dask")
        return Executor(jobs)
    scheduler = scheduler or config.scheduler
    return DaskExecutor(
        config.workers or jobs,
        scheduler=scheduler,
        cluster=None if scheduler else config.cluster,
        retries=config.retries,
    )


def shards(items: Sequence[Any], size: int) -> list[list[Any]]:
    """Consecutive pieces of ``items`` of ``size`` each (the last one shorter)."""
    return [list(items[i : i + size]) for i in range(0, len(items), max(1, size))]


#: records per unit of `acp validate` and `acp score` on local processes: consecutive records (those of one problem)
#: stay in one process, whose groundings and readers they share, and a handing's milliseconds are spent per 25 (the
#: self-check of `make dataset` on 2 processes: 156 s with one record per unit, 142 s with 25)
LOCAL_SHARD = 25


def shard_size(count: int, workers: int, per_worker: int = 4) -> int:
    """Items per shard: about ``per_worker`` shards per worker (so a slow shard delays little)."""
    return max(1, -(-count // max(1, workers * per_worker)))


def record_shard_size(executor: Executor, count: int) -> int:
    """Records per unit of a validation or scoring map on ``executor``: :func:`shard_size` on a remote one,
    :data:`LOCAL_SHARD` on local processes."""
    return shard_size(count, executor.workers) if executor.remote else LOCAL_SHARD


__all__ = [
    "EXECUTORS",
    "DaskExecutor",
    "Executor",
    "ExecutorConfig",
    "UnitOutcome",
    "cluster_spec",
    "make_executor",
    "record_shard_size",
    "shard_size",
    "shards",
]
