"""Atomic file output: write to a temporary file in the target folder, then rename over the target.

The file gets the mode any file the process writes gets (its umask applied: 0644 under umask 022).

A run killed half-way therefore leaves either the old file or the complete new one, never a
truncated file; on a full disk the temporary file is removed and the error names the target.
Artefacts are also flushed to the disk before the rename (``durable``), so that they survive a
crash of the machine. That flush costs milliseconds per file (more on a busy disk), and some files
skip it: those that can be made again and are read back defensively, the planner cache (an
unreadable entry is a miss) and the stages' stamps (an unreadable sidecar makes the stage's files
again); and the files of the stages before the export (problems, plans, states, questions), which a
stage flushes all at once when it closes (:func:`flush_all`), before a later stage reads them. A
file of a stage that a crash left torn before then is made again: its stamp records its digest.
What a run delivers (the exported records, the dataset's files) is flushed file by file.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from acpgen.errors import AcpError

_FLUSHED = [True]  # whether durable writes are flushed to the disk (see scratch_folder)


def _file_mode() -> int:
    """The mode a new file gets from ``open`` in this process (0o666 less the umask: 0o644 under 022).
    The umask can only be read by setting it: this runs once, at import, before any thread writes."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


#: the mode of every file written here: the temporary file of an atomic write is private (0o600) until it is
#: given this mode, so that a dataset on a shared file system is readable as any file its user writes
FILE_MODE = _file_mode()


@contextlib.contextmanager
def scratch_folder():
    """Within: no write is flushed to the disk, for output in a temporary folder that is removed
    afterwards (`acpgen.generate` without a cache folder): atomic renames still keep every file whole
    for the processes that read it; worker processes started inside inherit this."""
    before = _FLUSHED[0]
    _FLUSHED[0] = False
    try:
        yield
    finally:
        _FLUSHED[0] = before


def flush_all() -> None:
    """Flush every file written so far to the disk: one call for the files a stage wrote without their own
    flush (nothing within :func:`scratch_folder`)."""
    if _FLUSHED[0]:
        os.sync()


def atomic_write_text(path: Path, text: str, durable: bool = True) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically, as `atomic_write_bytes`."""
    atomic_write_bytes(path, text.encode("utf-8"), durable)


def atomic_write_bytes(path: Path, data: bytes, durable: bool = True) -> None:
    """Write ``data`` to ``path`` atomically, creating its folder; an OSError becomes an `AcpError` naming
    ``path``. ``durable``: flush it to the disk before the rename (see the module docstring)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            if hasattr(os, "fchmod"):  # POSIX (elsewhere mkstemp's file is not private to begin with)
                os.fchmod(fd, FILE_MODE)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                if durable and _FLUSHED[0]:
                    handle.flush()
                    os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as err:
        raise AcpError(f"cannot write {path}: {err.strerror or err}") from err


def jsonl_text(items, sort_keys: bool = True) -> str:
    """JSON Lines text, keys sorted unless the items' own key order matters (exported records)."""
    return "".join(json.dumps(item, sort_keys=sort_keys, ensure_ascii=False) + "\n" for item in items)


def write_jsonl(path: Path, items) -> None:
    atomic_write_text(path, jsonl_text(items))


def write_splits(out: Path, rows_by_split: dict[str, list[dict]]) -> list[Path]:
    """``OUT/<split>.jsonl`` for each split (rows in their own key order, as a peer's schema lists them),
    creating ``out``; returns the files in split order."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for split, rows in sorted(rows_by_split.items()):
        path = out / f"{split}.jsonl"
        atomic_write_text(path, jsonl_text(rows, sort_keys=False))
        written.append(path)
    return written


def remove_stale_temporaries(folder: Path) -> int:
    """Delete temporary files a killed run left in ``folder``; returns how many were removed."""
    folder = Path(folder)
    if not folder.is_dir():
        return 0
    stale = [p for p in folder.glob(".*.tmp") if p.is_file()]
    for path in stale:
        path.unlink(missing_ok=True)
    return len(stale)
