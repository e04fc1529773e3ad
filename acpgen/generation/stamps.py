"""Stamps: what each artefact of `acp generate` was made from, so that a stage redoes exactly what changed.

A stamp is a mapping of named digests: the input files a unit read (by path relative to the
domain folder), the configuration values that shape it, template data, the PDDL domain and the
code version. Each stage keeps one sidecar JSON, ``OUT/<domain>/stamps/<stage>.json``, with an
entry per unit (output file): its stamp, the digest of the file as written, and stage-specific
facts (the qa stage records how many questions were wanted and why a file fell short). A unit is
up to date when its file exists, its entry's stamp equals the current stamp and the file still
has the recorded digest; a file without an entry (written by an older acp, or by a run killed
between the file and its stamp) is stale and made again.

The code version is one digest of the whole ``acpgen`` package source plus the versions of
Python and of the planner packages. Any code change therefore redoes every stage: coarser than
tracking which modules a stage uses, but it cannot miss a dependency (stages import most of the
package through the task modules, and generators are imported by name at run time).
"""

from __future__ import annotations

import hashlib
import json
import logging
import platform
import time
from functools import cache
from importlib import metadata
from pathlib import Path

from acpgen.artefacts import atomic_write_text
from acpgen.data import DATA_DIR
from acpgen.version import __version__

log = logging.getLogger(__name__)

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # acpgen/
SOURCE_SUFFIXES = (".py", ".json", ".yaml")  # package files that shape its behaviour
# acpgen/data (domains, templates, the default config) is not code: a stage digests the domain, template
# and configuration it reads as its inputs, so editing one domain's template redoes only that domain.
# Distributions whose version is recorded in the manifest and is part of the code version.
TOOLS = ("tarski", "kstar-planner", "up-fast-downward", "fast-downward-translate", "forbiditerative")
STAMPS_DIR = "stamps"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_digest(path: Path) -> str:
    return sha256_bytes(Path(path).read_bytes())


def digest_of(value: object) -> str:
    """Digest of a JSON-able value (tuples as lists, keys sorted): equal values, equal digests."""
    return sha256_bytes(json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode())


def tool_versions() -> dict[str, str]:
    """Versions of Python, acp and the planner packages ("not installed" where a package is missing)."""
    versions = {"python": platform.python_version(), "acpgen": __version__}
    for name in TOOLS:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


@cache
def code_version() -> str:
    """Digest of the package source (every file with a SOURCE_SUFFIXES suffix outside acpgen/data) and the
    tool versions.

    Computed once per process.
    """
    digest = hashlib.sha256()
    data = DATA_DIR.resolve()
    files = sorted(
        p
        for p in PACKAGE_DIR.rglob("*")
        if p.suffix in SOURCE_SUFFIXES and "__pycache__" not in p.parts and not p.is_relative_to(data)
    )
    for path in files:
        digest.update(path.relative_to(PACKAGE_DIR).as_posix().encode() + b"\0")
        digest.update(file_digest(path).encode())
    digest.update(digest_of(tool_versions()).encode())
    return digest.hexdigest()


def input_digests(root: Path, paths: list[Path]) -> dict[str, str]:
    """Digests of input files, keyed by their path relative to the domain folder ``root``."""
    return {Path(p).relative_to(root).as_posix(): file_digest(p) for p in paths}


SAVE_EVERY = 1.0  # seconds between two saves of a stage's sidecar while its units are recorded


class StampBook:
    """The sidecar of one stage: unit name -> {"stamp": ..., "sha256": digest of the output, ...}.

    ``force`` (``--force STAGE``) makes every unit stale, so the stage makes all of them again.
    """

    def __init__(self, root: Path, stage: str, force: bool = False):
        self.path = Path(root) / STAMPS_DIR / f"{stage}.json"
        self.force = force
        self.entries: dict[str, dict] = {}
        self._unsaved, self._saved = False, time.monotonic()
        if self.path.exists():
            try:
                loaded = json.loads(self.path.read_text())
            except ValueError as err:
                log.warning("%s: unreadable (%s); every %s file is made again", self.path, err, stage)
                loaded = {}
            self.entries = loaded if isinstance(loaded, dict) else {}

    def entry(self, unit: str) -> dict | None:
        return self.entries.get(unit)

    def fresh(self, unit: str, target: Path, stamp: dict) -> bool:
        """Whether ``target`` exists and was made from exactly ``stamp`` (and not changed since)."""
        entry = self.entries.get(unit)
        if self.force or entry is None or not Path(target).exists():
            return False
        return entry.get("stamp") == stamp and entry.get("sha256") == file_digest(target)

    def record(self, unit: str, target: Path, stamp: dict, **facts: object) -> None:
        """Note that ``target`` (already written) was made from ``stamp``. The sidecar is saved when
        :data:`SAVE_EVERY` seconds have passed since it last was (at once after a slow unit; the entries of fast
        units together, not the whole sidecar again after each), and by :meth:`save` at the end of the stage. A run
        killed in between loses the entries of its last second: their files are then made again, never taken for
        up to date."""
        self.entries[unit] = {"stamp": stamp, "sha256": file_digest(target), **facts}
        self._unsaved = True
        if time.monotonic() - self._saved >= SAVE_EVERY:
            self.save()

    def save(self) -> None:
        """Write the sidecar if an entry changed since it was last written: atomically but without the flush to
        the disk. It is read back defensively (unreadable, every file of the stage is made again; an entry whose
        file has another digest, that file is), so a crash of the machine that loses the last entries costs the
        work of making their files again, never a file taken for up to date."""
        if self._unsaved:
            atomic_write_text(self.path, json.dumps(self.entries, indent=1, sort_keys=True) + "\n", durable=False)
            self._unsaved, self._saved = False, time.monotonic()
