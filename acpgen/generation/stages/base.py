"""What every stage shares: where a domain's artefacts live and how a stage reports."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from acpgen.artefacts import atomic_write_text, flush_all, remove_stale_temporaries
from acpgen.config import PipelineConfig
from acpgen.executors import Executor
from acpgen.generation.sources import DomainSource
from acpgen.generation.stamps import StampBook, code_version, sha256_bytes
from acpgen.planners import Planners, PlannerSetup


@dataclass
class StageContext:
    """One domain's run: configuration, output folder, planners, parallelism."""

    domain: str
    config: PipelineConfig
    out: Path
    planners: Planners | None  # None: built from the config when a stage first needs them
    jobs: int = 1
    progress: bool = True
    force: frozenset[str] = frozenset()  # stages whose units are made again whatever their stamps say
    domain_source: DomainSource | None = None  # None: the built-in domain named ``domain``
    planner_setup: PlannerSetup | None = None  # how to build planners (None: from the config)

    @cached_property
    def source(self) -> DomainSource:
        """Where the domain's PDDL, template, generator and (for the user's own domains) problems are."""
        return self.domain_source or DomainSource.builtin(self.domain, self.config.obfuscate, self.config.seed)

    def require_planners(self) -> Planners:
        """The planners of a stage that plans: this context's, else the configured ones (built once per
        context; a context sent to a worker process arrives without planners, see ``__getstate__``)."""
        if self.planners is None:
            self.planners = (self.planner_setup or self.config.planner.setup(self.config.out)).build()
        return self.planners

    def __getstate__(self) -> dict:
        """Pickled for a worker: planners hold processes and locks of this process, so they stay here."""
        state = dict(self.__dict__)
        state["planners"] = None
        return state

    @property
    def root(self) -> Path:
        return self.out / self.source.folder

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
    def unsolvable_dir(self) -> Path:
        """The problems no plan solves (``uNNN.pddl``, each with its proof ``uNNN.proof.json``) and their states
        (``states.jsonl``): apart from the solvable ones, which every task asks about."""
        return self.root / "unsolvable"

    @property
    def domain_text(self) -> str:
        return self.source.text

    def clean(self) -> None:
        """Remove temporary files left by a killed run in the domain's folder and every stage folder under it
        (qa/ included; completed files are never touched)."""
        folders = [self.root, *(p for p in self.root.iterdir() if p.is_dir())] if self.root.is_dir() else []
        for folder in folders:
            remove_stale_temporaries(folder)

    def stamp_book(self, stage: str) -> StampBook:
        """The stamps of ``stage``'s artefacts (all stale when the stage is forced)."""
        return StampBook(self.root, stage, force=stage in self.force)

    def base_stamp(self) -> dict:
        """The part of every stamp: the code version and the PDDL domain."""
        return {"code": code_version(), "domain": sha256_bytes(self.domain_text.encode())}

    def write_problem(self, path: Path, text: str) -> None:
        """Write a problem file as the run uses it: renamed in an obfuscated run, with its renaming beside
        it (:meth:`renaming_file`); every later stage reads only the renamed text."""
        renamed, renaming = self.source.problem(text)
        if renaming is not None:
            atomic_write_text(self.renaming_file(path), json.dumps(renaming.to_dict(), sort_keys=True) + "\n")
        atomic_write_text(path, renamed, durable=False)  # its stamp holds its digest; the renaming has none

    @staticmethod
    def renaming_file(problem: Path) -> Path:
        """The renaming of an obfuscated run's problem (``p001.pddl`` -> ``p001.renaming.json``)."""
        return problem.with_suffix(".renaming.json")

    def problem_files(self) -> list[Path]:
        return sorted(self.problems_dir.glob("*.pddl"))

    def rng(self, *parts: object) -> random.Random:
        """A random generator derived from the run seed, the domain and ``parts`` (stable across runs)."""
        text = ":".join(str(p) for p in (self.config.seed, self.domain, *parts))
        return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


@dataclass
class Unit:
    """One piece of a stage's work. ``fn(*args)`` runs wherever the executor sends it (a module-level
    function and picklable arguments, so a pool or Dask worker can run it); ``commit(value)`` writes
    its result in the client, in unit order, so the files do not depend on where units ran."""

    name: str  # "<domain>/<stage>/<what>", in reports and logs
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    commit: Callable[[Any], None]
    target: Path | None = None  # the file the unit remakes: removed if the unit fails (no stale copy stays)


@dataclass
class StageWork:
    """A stage of one domain, split up: what was skipped (in ``report``), the units still to run, and
    ``finish()`` to run after all of them were committed (combined files, counts)."""

    report: StageReport
    units: list[Unit] = field(default_factory=list)
    finish: Callable[[], None] = lambda: None
    started: float = field(default_factory=time.perf_counter)
    books: list[StampBook] = field(default_factory=list)  # the stamps its units record: saved on close

    def keep(self, book: StampBook) -> StampBook:
        """``book``, saved when the stage closes (its last entries are saved then)."""
        self.books.append(book)
        return book

    def failed(self, unit: Unit, error: str) -> None:
        """A unit that raised (or whose workers kept dying): reported with its name; its stale file goes."""
        self.report.failed.append(f"{unit.name.split('/', 2)[-1]}: {error}")
        if unit.target is not None:
            unit.target.unlink(missing_ok=True)

    def close(self) -> StageReport:
        """Save the stamps, finish, flush the stage's files to the disk (written without their own flush, see
        :mod:`acpgen.artefacts`), and the report with the stage's time since it was prepared (its units ran in
        between)."""
        for book in self.books:
            book.save()
        self.finish()
        flush_all()
        self.report.seconds = time.perf_counter() - self.started
        return self.report


def run_works(works: list[StageWork], executor: Executor, desc: str, progress: bool) -> None:
    """The one stage driver: the units of ``works`` (one stage, any number of domains) on ``executor``,
    each result committed here in unit order (files written, stamps recorded), so the bytes do not depend
    on where a unit ran; a unit that raised, or whose workers kept dying, is reported with its name."""
    units = [(work, unit) for work in works for unit in work.units]
    outcomes = executor.map(
        call_unit, [(u.fn, u.args) for _, u in units], [u.name for _, u in units], desc=desc, progress=progress
    )
    for (work, unit), outcome in zip(units, outcomes):
        if outcome.ok:
            unit.commit(outcome.value)
        else:
            work.failed(unit, outcome.error or "")


def run_work(ctx: StageContext, work: StageWork) -> StageReport:
    """One domain's stage here, on ``ctx.jobs`` local processes (:func:`run_works`); its report."""
    run_works([work], Executor(ctx.jobs), f"{ctx.domain} {work.report.stage}", ctx.progress)
    return work.close()


def call_unit(pair: tuple[Callable[..., Any], tuple[Any, ...]]) -> Any:
    """The executors' function for stage units: ``fn(*args)``."""
    fn, args = pair
    return fn(*args)


@dataclass
class StageReport:
    """Counts of one stage run: produced, skipped (already done), failed (with reasons)."""

    stage: str
    domain: str
    done: int = 0
    skipped: int = 0
    failed: list[str] = field(default_factory=list)
    #: files that hold fewer records than asked for, and why (the states give no more): written all the same
    short: list[str] = field(default_factory=list)
    items: int = 0  # stage-specific count (plans stored, states stored)
    seconds: float = 0.0

    def summary(self) -> str:
        text = f"{self.domain}: {self.stage}: {self.done} new, {self.skipped} already done, {len(self.failed)} failed"
        if self.short:
            text += f", {len(self.short)} short"
        if self.items:
            text += f", {self.items} {'plans' if self.stage == 'plans' else 'items'} in total"
        return text + f" ({self.seconds:.1f} s)"
