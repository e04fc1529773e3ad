"""Records for training: a pre-built split in a seeded order, or records generated on the fly.

Both sources give records epoch by epoch; the same seed gives the same records in the same order,
epoch for epoch, however the work is spread:

* :class:`SplitSource`: the records of a file or folder (`acpgen.load`: `acp generate` or `acp
  dataset` output, the reference files) or a list; epoch ``e`` is the records shuffled with a
  generator seeded by ``(seed, e)`` (or in file order with ``shuffle=False``). As fast as reading.
* :class:`GeneratedSource`: epoch ``e`` is, for each domain in turn, the ``n`` records
  `acpgen.generate` makes with a seed derived from ``(seed, e)`` (new problems each epoch), made by
  ``workers`` background processes that run ahead of the consumer (``prefetch`` chunks) and handed
  out in chunk order. The rate is the generation rate (`make bench-gen`, docs/benchmarks.md): about
  25 records/s at level 1 and 12 at level 2 on two processes, far below what a trainer reads, so a
  pre-built split is the source for long runs and this one for fresh questions at a small rate.

:meth:`stream` chains the epochs without end (the endless stream of training); :meth:`epoch` is one
fixed split (evaluation).
"""

from __future__ import annotations

import hashlib
import itertools
import multiprocessing
import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acpgen.api import generate, load
from acpgen.config import PipelineConfig
from acpgen.errors import ConfigError, DataError


def epoch_seed(seed: int, epoch: int) -> int:
    """The seed of epoch ``epoch`` of a source seeded with ``seed`` (a hash: neighbouring seeds share no epoch)."""
    digest = hashlib.sha256(f"acp-epoch:{seed}:{epoch}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


class SplitSource:
    """The records of a pre-built split, shuffled per epoch with ``(seed, epoch)``; ``keep`` filters them."""

    def __init__(
        self,
        records: str | Path | Iterable[dict],
        seed: int = 0,
        shuffle: bool = True,
        keep: Callable[[dict], bool] | None = None,
    ):
        items = load(records) if isinstance(records, (str, Path)) else list(records)
        self.records = [r for r in items if keep is None or keep(r)]
        if not self.records:
            where = records if isinstance(records, (str, Path)) else "the records given"
            raise DataError(f"{where}: no record to train on")
        self.seed = seed
        self.shuffle = shuffle

    def __len__(self) -> int:
        return len(self.records)

    def epoch(self, number: int = 0) -> list[dict]:
        """The records of epoch ``number``, in that epoch's order."""
        order = list(self.records)
        if self.shuffle:
            random.Random(epoch_seed(self.seed, number)).shuffle(order)
        return order

    def stream(self, start: int = 0) -> Iterator[dict]:
        """Epoch after epoch from ``start``, without end."""
        for number in itertools.count(start):
            yield from self.epoch(number)


@dataclass(frozen=True)
class _Chunk:
    """One call of `acpgen.generate` (picklable: it runs in a worker process)."""

    domain: str
    task: str
    n: int
    seed: int
    level: int | None
    format: str
    config: str | PipelineConfig | None
    representation: str | None
    obfuscate: str | None


def _make(chunk: _Chunk) -> list[dict]:
    return list(
        generate(
            chunk.domain,
            chunk.task,
            n=chunk.n,
            seed=chunk.seed,
            level=chunk.level,
            format=chunk.format,
            config=chunk.config,
            representation=chunk.representation,
            obfuscate=chunk.obfuscate,
        )
    )


class GeneratedSource:
    """Records of ``task`` generated on the fly, ``n`` per domain and epoch (see the module docstring).

    ``workers`` 0 makes them in this process when asked for; more start a pool of that many
    processes (spawned, so the trainer's threads are not forked) that keeps ``prefetch`` chunks
    (default: two per worker) in flight. Close the source (or use it as a context manager) to stop
    the pool.
    """

    def __init__(
        self,
        domains: str | Sequence[str],
        task: str,
        *,
        n: int = 10,
        seed: int = 0,
        level: int | None = None,
        format: str = "gen",
        config: str | Path | PipelineConfig | None = None,
        representation: str | None = None,
        obfuscate: str | None = None,
        workers: int = 0,
        prefetch: int | None = None,
    ):
        self.domains = [domains] if isinstance(domains, str) else list(domains)
        if not self.domains:
            raise ConfigError("a generated source needs at least one domain")
        if workers < 0 or n < 1:
            raise ConfigError(f"workers must be 0 or more and n at least 1 (got workers={workers}, n={n})")
        self.task, self.n, self.seed, self.level, self.format = task, n, seed, level, format
        self.config = str(config) if isinstance(config, Path) else config
        self.representation, self.obfuscate = representation, obfuscate
        self.workers = workers
        self.prefetch = prefetch or 2 * max(1, workers)
        self._pool: ProcessPoolExecutor | None = None

    def chunks(self, start: int = 0) -> Iterator[_Chunk]:
        """The calls of epoch ``start`` and every epoch after it, in order."""
        for number in itertools.count(start):
            seed = epoch_seed(self.seed, number)
            for domain in self.domains:
                yield _Chunk(
                    domain, self.task, self.n, seed, self.level, self.format, self.config, self.representation,
                    self.obfuscate,
                )  # fmt: skip

    def epoch(self, number: int = 0) -> list[dict]:
        """The records of epoch ``number`` (one chunk per domain)."""
        chunks = itertools.islice(self.chunks(number), len(self.domains))
        return [record for records in self._made(chunks) for record in records]

    def stream(self, start: int = 0) -> Iterator[dict]:
        """Epoch after epoch from ``start``, without end."""
        for records in self._made(self.chunks(start)):
            yield from records

    def _made(self, chunks: Iterable[_Chunk]) -> Iterator[list[dict]]:
        if self.workers == 0:
            yield from map(_make, chunks)
            return
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        pending: deque[Future[list[dict]]] = deque()
        source = iter(chunks)
        for chunk in itertools.islice(source, self.prefetch):
            pending.append(self._pool.submit(_make, chunk))
        while pending:
            records = pending.popleft().result()
            following = next(source, None)
            if following is not None:
                pending.append(self._pool.submit(_make, following))
            yield records

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> GeneratedSource:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
