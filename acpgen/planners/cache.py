"""Cache of planner results, keyed by a hash of the exact planner input.

The key is the SHA-256 of (tool, the argument list / configuration with file names abstracted,
domain text, problem text), so the same query on the same PDDL text is answered once. Values are
JSON dicts (``PlannerResult.to_dict()`` and the like). Results are always kept in memory; they
are also written to disk when a directory is known: the ``directory`` argument, else the
environment variable ``ACP_CACHE_DIR`` (unless ``env=False``). Disk entries are written
atomically (`acpgen.artefacts.atomic_write_text`), so concurrent worker processes may share a
directory; an entry that cannot be written is logged and kept in memory only. Only definite
answers belong in the cache; callers never store timeouts or errors, which must be retried.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from acpgen.artefacts import atomic_write_text
from acpgen.errors import AcpError

log = logging.getLogger(__name__)

ENV_VAR = "ACP_CACHE_DIR"
#: bump when the meaning or layout of cached values changes
CACHE_VERSION = "acp-plan-cache-1"


class PlanCache:
    """In-memory (and optionally on-disk) map from query keys to JSON-able result dicts."""

    def __init__(self, directory: Path | str | None = None, *, env: bool = True):
        """``directory`` None: use ``$ACP_CACHE_DIR`` when set and ``env`` is true, else memory only."""
        if directory is None and env and os.environ.get(ENV_VAR):
            directory = os.environ[ENV_VAR]
        self.directory = Path(directory).expanduser() if directory is not None else None
        self._memory: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def key(tool: str, config: Sequence[str], domain: str, problem: str) -> str:
        """SHA-256 hex digest of the query (tool, configuration, domain text, problem text)."""
        digest = hashlib.sha256()
        for part in (CACHE_VERSION, tool, json.dumps(list(config)), domain, problem):
            data = part.encode("utf-8")
            digest.update(len(data).to_bytes(8, "big"))
            digest.update(data)
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        assert self.directory is not None
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored value, or None (also for an unreadable disk entry)."""
        with self._lock:
            value = self._memory.get(key)
        if value is None and self.directory is not None:
            path = self._path(key)
            try:
                value = json.loads(path.read_text(encoding="utf-8"))
            except FileNotFoundError:
                value = None
            except (OSError, ValueError) as exc:
                log.warning("ignoring unreadable cache entry %s: %s", path, exc)
                value = None
            if value is not None:
                with self._lock:
                    self._memory[key] = value
        return value

    def put(self, key: str, value: dict[str, Any]) -> None:
        """Store ``value`` in memory and, if a directory is set, atomically on disk."""
        with self._lock:
            self._memory[key] = value
        if self.directory is None:
            return
        try:
            # not flushed to the disk: an entry a machine crash tore is read as a miss (get) and made again
            atomic_write_text(self._path(key), json.dumps(value, sort_keys=True), durable=False)
        except AcpError as exc:  # a cache that cannot be written only costs time: never fail the caller
            log.warning("%s (cache entry kept in memory only)", exc)

    def __len__(self) -> int:
        return len(self._memory)

    def __repr__(self) -> str:
        return f"PlanCache({str(self.directory) if self.directory else None!r})"
