"""What every stage shares: where a domain's artefacts live and how a stage reports."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from acpgen.artefacts import remove_stale_temporaries
from acpgen.config import PipelineConfig
from acpgen.domains import DomainSource
from acpgen.errors import AcpError
from acpgen.planners import Planners
from acpgen.stamps import STAMPS_DIR, StampBook, code_version, sha256_bytes


@dataclass
class StageContext:
    """One domain's run: configuration, output folder, planners, parallelism."""

    domain: str
    config: PipelineConfig
    out: Path
    planners: Planners | None  # None in worker processes that never plan
    jobs: int = 1
    progress: bool = True
    force: frozenset[str] = frozenset()  # stages whose units are made again whatever their stamps say
    domain_source: DomainSource | None = None  # None: the built-in domain named ``domain``

    @cached_property
    def source(self) -> DomainSource:
        """Where the domain's PDDL, template, generator and (for the user's own domains) problems are."""
        return self.domain_source or DomainSource.builtin(self.domain)

    def require_planners(self) -> Planners:
        """The planners of a stage that plans; AcpError in a context made without them (a worker)."""
        if self.planners is None:
            raise AcpError(f"{self.domain}: this stage needs planners, but its context was made without them")
        return self.planners

    @property
    def root(self) -> Path:
        return self.out / self.domain

    @property
    def problems_dir(self) -> Path:
        return self.root / "problems"

    @property
    def plans_dir(self) -> Path:
        return self.root / "plans"

    @property
    def states_dir(self) -> Path:
        return self.root / "states"

    @property
    def states_file(self) -> Path:
        return self.root / "states.jsonl"

    @property
    def domain_text(self) -> str:
        return self.source.text

    def clean(self) -> None:
        """Remove temporary files left by a killed run (completed files are never touched)."""
        for folder in (self.root, self.problems_dir, self.plans_dir, self.states_dir, self.root / STAMPS_DIR):
            remove_stale_temporaries(folder)

    def stamp_book(self, stage: str) -> StampBook:
        """The stamps of ``stage``'s artefacts (all stale when the stage is forced)."""
        return StampBook(self.root, stage, force=stage in self.force)

    def base_stamp(self) -> dict:
        """The part of every stamp: the code version and the PDDL domain."""
        return {"code": code_version(), "domain": sha256_bytes(self.domain_text.encode())}

    def problem_files(self) -> list[Path]:
        return sorted(self.problems_dir.glob("*.pddl"))

    def rng(self, *parts: object) -> random.Random:
        """A random generator derived from the run seed, the domain and ``parts`` (stable across runs)."""
        text = ":".join(str(p) for p in (self.config.seed, self.domain, *parts))
        return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


@dataclass
class StageReport:
    """Counts of one stage run: produced, skipped (already done), failed (with reasons)."""

    stage: str
    domain: str
    done: int = 0
    skipped: int = 0
    failed: list[str] = field(default_factory=list)
    items: int = 0  # stage-specific count (plans stored, states stored)
    seconds: float = 0.0

    def summary(self) -> str:
        text = f"{self.domain}: {self.stage}: {self.done} new, {self.skipped} already done, {len(self.failed)} failed"
        if self.items:
            text += f", {self.items} {'plans' if self.stage == 'plans' else 'items'} in total"
        return text + f" ({self.seconds:.1f} s)"
