"""The planner interface of acp: :class:`Planners` and its result types.

Domain and problem are passed as PDDL *text*. Each call writes them into a fresh temporary
directory (``tempfile.gettempdir()``, i.e. ``$TMPDIR``), runs the tool there through
:func:`acpgen.planners.run.run_tool`, parses what it wrote, and always removes the directory.
A planner that fails never raises: the result has status ``timeout`` or ``error`` and a short
``message``. Only a tool that cannot be started at all (missing wheel, no ``apptainer`` on
PATH) raises :class:`acpgen.errors.ToolError`. Definite results (solved/unsolvable) are cached
in a :class:`PlanCache`, keyed by the tool, its configuration and the PDDL texts.

Plans are tuples of canonical actions ``"(name a b)"``; ``costs`` are plan lengths (acp uses
unit costs everywhere). A result with status ``timeout`` may still carry the plans found before
the limit (for K* they are the best ones, in order), but it is never cached.

**Work budgets** (``Limits.work``): a search given one is judged by the work it reports, not by the clock, so
that its answer is the same on every machine. Fast Downward and K* report the states they have expanded as
they go and when they end, and their translator the task's operators; the work is the states expanded times
the operators (:class:`acpgen.planners.parse.Work`); an eager Fast Downward search also writes a line when it
is about to pass its budget (``Work.bounded``; on the warm path, :mod:`acpgen.planners.warm`). A run whose
reports pass the budget is stopped there (``run_tool``'s watch) and, like a run that ends with more work than
the budget, has status ``budget``: undecided, the same everywhere, cached. An answer counts only from a search
that ended within its budget. The time limit is then a safety net: a budgeted call that runs into it before
its reports pass the budget (a machine far slower than the budget was sized for, a search that reports nothing
for long) raises :class:`acpgen.errors.SafetyNetError` instead of returning an answer that the machine's speed
decided. The portfolio's probes, a shortcut bounded by time, are left out under a budget, and K*'s own
``max_time`` is part of the net; polynomial steps (translating, landmarks, mutex groups) have no budget, only
the net.
"""

from __future__ import annotations

import logging
import math
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from acpgen.errors import SafetyNetError
from acpgen.planners import run as _run
from acpgen.planners import warm
from acpgen.planners.backends import (
    FAST_DOWNWARD,
    FORBIDITERATIVE,
    KSTAR,
    Backend,
    LocalBackend,
)
from acpgen.planners.cache import PlanCache
from acpgen.planners.outcomes import (
    KSTAR_TIME_LIMIT_MARKER,
    SEARCH_UNSUPPORTED,
    Status,
    classify,
    describe,
)
from acpgen.planners.parse import (
    Landmark,
    Work,
    forbiditerative_plans,
    kstar_plans,
    landmark_graph,
    sas_mutex_groups,
    sas_plan,
)

log = logging.getLogger(__name__)

DOMAIN_FILE = "domain.pddl"
PROBLEM_FILE = "problem.pddl"
PLANS_JSON = "plans.json"
PLAN_FILE = "sas_plan"
SAS_TASK_FILE = "task.sas"  # a search input the driver recognises by its first line, begin_version

_SYMMETRIES = (
    "sym=structural_symmetries(time_bound=0,search_symmetries=oss,"
    "stabilize_initial_state=false,keep_operator_symmetries=true)"
)
_STUBBORN = (
    "limited_pruning(pruning=atom_centric_stubborn_sets(use_sibling_shortcut=true,atom_selection_strategy=quick_skip))"
)
_FD_LIMITS = ("--overall-time-limit", "{time}s", "--overall-memory-limit", "{memory}M")
#: any plan, or a proof that none exists: greedy best-first search is complete, and FF prunes
#: only relaxed dead ends (safe); Fast Downward exits 11 only when its search proved it.
SOLVE_SEARCH = "eager_greedy([ff()],preferred=[ff()])"
#: the searches of ``solve(portfolio=True)``, after the probes below: the first with the whole budget (as
#: ``solve``), then each other one with a quarter of it, until one finds a plan or proves that none exists.
#: None of them is fast everywhere (search seconds, eager FF / lazy FF / eager FF alternating with the
#: causal graph heuristic: a floortile problem 0.4 / >20 / >20, the same with one goal fact less 8.4 /
#: 0.01 / >20, an alfworld goal-closure query 14.3 / >20 / 0.004).
SOLVE_PORTFOLIO = (
    SOLVE_SEARCH,
    "lazy_greedy([ff()],preferred=[ff()])",
    "eager_greedy([ff(), cg()],preferred=[ff(), cg()])",
)
#: the portfolio under a work budget: searches that can be stopped at their budget. A lazy greedy search reports
#: its work only when its estimate improves, and takes no expansion limit (:meth:`Work.bounded`): on a plateau it
#: works on unseen (lazy FF on a floortile goal-closure query: nothing reported for a minute after 3,000 states).
#: Eager searches get the limit, and stop exactly where the budget runs out: eager FF, then A* without an estimate.
BUDGETED_PORTFOLIO = (SOLVE_SEARCH, "astar(blind())")
#: one plan of any length for a large problem (the plans stage's ``plans.search: satisficing``), each search in turn
#: within the budget: eager FF that expands preferred successors first, then eager FF. On level 5's blocksworld
#: (20 blocks) eager FF alone met its 5-million budget on 2 of 4 problems (1 and 5.7 s); with the boost it solved
#: all 4 within 0.14 s, as the diverse planner did 3 of them (0.2-2.1 s)
SATISFICING_PORTFOLIO = ("eager_greedy([ff()],preferred=[ff()],boost=1000)", SOLVE_SEARCH)
#: the portfolio's probes: each search in turn for at most ``PROBE_SECONDS`` (Fast Downward's own
#: ``max_time``, which ends a search as incomplete, never as a proof), before the searches above. Eager
#: FF that expands preferred successors first (``boost``) found a plan for 10 of the 11 solvable floortile
#: queries of ``make bench-equiv`` within 0.09 s, translation included (eager FF without it: 8 within
#: 0.5 s, the other three after more than 3 s), and lazy FF the eleventh in 0.06 s. Given the query in SAS
#: form, the first probe runs on it before anything is translated (an alfworld query translates for
#: 0.25-0.55 s); the first probe only: on that binary encoding the searches are less lucky on floortile
#: (with every search of the portfolio on it, 3 of the bench's 25 floortile checks ended undecided).
PROBE_SEARCHES = (
    "eager_greedy([ff()],preferred=[ff()],boost=1000)",
    "lazy_greedy([ff()],preferred=[ff()])",
    "eager_greedy([ff(), cg()],preferred=[ff(), cg()])",
)
PROBE_SECONDS = 0.25
OPTIMAL_SEARCHES = ("astar(lmcut())", "astar(blind())")
#: the second optimal configuration, which re-proves an optimal cost the first one found: A* with the
#: Cartesian abstraction heuristic (CEGAR), admissible as LM-cut is but computed otherwise, on the goal
#: subtasks only. CEGAR's default also refines an abstraction per landmark: on the 202 successor states of
#: 52 dataset next-action questions (13 domains) that took 161 s against 97 s, and up to 1.5 s on grippers
#: tasks A* with LM-cut solves in 7 ms; within 5 s it left 7 unfinished against 4 (satellite, unfinished by both).
#: Its abstractions are refined up to 100,000 transitions, not the default million: on grid's tasks (400-600
#: operators) building them took 1-4 s a call before the search began, within a work budget that counts only the
#: search; at a tenth of the transitions the same 7 of 14 grid plan re-proofs finish within their budget (19.2 ->
#: 0.9 s), and the same 51 of 65 floortile, satellite and depots ones.
CHECK_SEARCHES = ("astar(cegar(subtasks=[goals()],max_transitions=100000))", "astar(blind())")
#: bound=0 stops the search after evaluating the initial state, right after the graph dump.
LANDMARK_SEARCH = "eager_greedy([landmark_sum(lm_rhw(verbosity=debug))],bound=0)"


#: the default work budget of a search whose outcome shapes what acp writes (``planner.work``, ``plans.work``)
DEFAULT_WORK = 5_000_000


@dataclass(frozen=True)
class Limits:
    """Budget of one planner call: seconds and memory, and the search's work (see the module docstring)."""

    time: float = 60.0  # seconds, per call (with ``work``: the safety net only)
    memory_mb: int = 4096
    work: int | None = None  # states a search may expand times the task's operators; None: the time limit decides

    def scaled(self, factor: float) -> Limits:
        """These limits with the time and the work budget ``factor`` times as large."""
        work = None if self.work is None else max(1, int(self.work * factor))
        return Limits(self.time * factor, self.memory_mb, work)


@dataclass(frozen=True)
class PlannerResult:
    """Outcome of a planning call; ``plans``/``costs`` are parallel tuples."""

    status: Status
    plans: tuple[tuple[str, ...], ...] = ()
    costs: tuple[int, ...] = ()
    time: float = 0.0
    message: str = ""
    cached: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (for the cache)."""
        return {
            "status": self.status.value,
            "plans": [list(p) for p in self.plans],
            "costs": list(self.costs),
            "time": self.time,
            "message": self.message,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlannerResult:
        """Inverse of :meth:`to_dict`."""
        return cls(
            status=Status(data["status"]),
            plans=tuple(tuple(p) for p in data["plans"]),
            costs=tuple(int(c) for c in data["costs"]),
            time=float(data.get("time", 0.0)),
            message=str(data.get("message", "")),
        )


@dataclass(frozen=True)
class LandmarkResult:
    """Landmarks found by the RHW factory (status ``solved`` when the graph was computed)."""

    status: Status
    landmarks: tuple[Landmark, ...] = ()
    time: float = 0.0
    message: str = ""
    cached: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (for the cache)."""
        return {
            "status": self.status.value,
            "landmarks": [lm.to_dict() for lm in self.landmarks],
            "time": self.time,
            "message": self.message,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LandmarkResult:
        """Inverse of :meth:`to_dict`."""
        return cls(
            status=Status(data["status"]),
            landmarks=tuple(Landmark.from_dict(lm) for lm in data["landmarks"]),
            time=float(data.get("time", 0.0)),
            message=str(data.get("message", "")),
        )


@dataclass(frozen=True)
class MutexResult:
    """Mutex groups computed by the Fast Downward translator (atoms no two of which hold together)."""

    status: Status
    groups: tuple[tuple[str, ...], ...] = ()
    time: float = 0.0
    message: str = ""
    cached: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "groups": [list(g) for g in self.groups],
            "time": self.time,
            "message": self.message,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MutexResult:
        return cls(
            status=Status(data["status"]),
            groups=tuple(tuple(g) for g in data["groups"]),
            time=float(data.get("time", 0.0)),
            message=str(data.get("message", "")),
        )


_Result = TypeVar("_Result", PlannerResult, LandmarkResult, MutexResult)


def _result(status: Status, plans: Sequence[Sequence[str]] = (), time: float = 0.0, message: str = "") -> PlannerResult:
    found = tuple(tuple(p) for p in plans)
    return PlannerResult(status, found, tuple(len(p) for p in found), round(time, 3), message)


def _kstar_search(heuristic: str, stopping: str, unordered: bool, pruning: bool) -> str:
    extra = f",pruning={_STUBBORN}" if pruning else ""
    return (
        f"kstar({heuristic},{stopping},max_time={{max_time}},"
        f"find_unordered_plans={'true' if unordered else 'false'},dump_plan_files=false,"
        f"json_file_to_dump={PLANS_JSON},symmetries=sym{extra})"
    )


class Planners:
    """K*, Fast Downward and forbiditerative behind one interface (see module docstring)."""

    def __init__(self, backend: Backend | None = None, cache: PlanCache | None = None):
        self.backend = backend or LocalBackend()
        self.cache = cache if cache is not None else PlanCache()

    # ----- public queries -----------------------------------------------------------------
    def top_k(self, domain: str, problem: str, k: int, limits: Limits = Limits()) -> PlannerResult:
        """The ``k`` cheapest plans (K* top-k), cheapest first; fewer if fewer exist."""
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        return self._kstar(domain, problem, f"k={k}", False, limits, wanted=k)

    def top_quality(
        self,
        domain: str,
        problem: str,
        quality_bound: float,
        k: int | None = None,
        unordered: bool = False,
        limits: Limits = Limits(),
    ) -> PlannerResult:
        """All plans of cost <= ``quality_bound`` * optimal cost (at most ``k``), via K*.

        ``unordered``: one plan per multiset of actions (unordered top-quality planning).
        """
        if quality_bound < 1.0:
            raise ValueError(f"quality_bound must be >= 1.0, got {quality_bound}")
        stopping = f"q={float(quality_bound)!r}" + (f",k={k}" if k is not None else "")
        return self._kstar(domain, problem, stopping, unordered, limits, wanted=k)

    def optimal(self, domain: str, problem: str, limits: Limits = Limits(), check: bool = False) -> PlannerResult:
        """One optimal plan (A* with LM-cut; with blind search when LM-cut cannot handle the task);
        ``check``: by the second configuration (:data:`CHECK_SEARCHES`), to re-prove a cost."""
        return self._fast_downward(domain, problem, "optimal", CHECK_SEARCHES if check else OPTIMAL_SEARCHES, limits)

    def optimal_sas(self, sas: str, limits: Limits = Limits(), check: bool = False) -> PlannerResult:
        """:meth:`optimal` for a task given in Fast Downward's SAS format (`acpgen.pddl.sas`): the
        search alone, without translating."""
        return self._fast_downward(sas, "", "optimal-sas", CHECK_SEARCHES if check else OPTIMAL_SEARCHES, limits)

    def solve(
        self, domain: str, problem: str, limits: Limits = Limits(), portfolio: bool = False, sas: str | None = None
    ) -> PlannerResult:
        """Any plan, or status unsolvable only when the search *proved* that none exists; ``portfolio``:
        first each of :data:`PROBE_SEARCHES` for a moment, then the search with the whole budget and, when
        it does neither, the other searches of :data:`SOLVE_PORTFOLIO` in turn, with a quarter of
        ``limits.time`` each. ``sas``: the same query in Fast Downward's SAS format (`acpgen.pddl.sas`),
        which the first probe searches before anything is translated (with or without the portfolio).
        With a work budget the probes (a time limit's shortcut) are left out, and each search of the
        portfolio has the whole budget."""
        if limits.work is not None:
            return self._budgeted_solve(domain, problem, limits, portfolio, sas)
        probe = min(PROBE_SECONDS, limits.time / 8)
        bounded = [f"{search[:-1]},max_time={probe:g})" for search in PROBE_SEARCHES]
        if sas is not None:
            result = self._fast_downward(sas, "", "solve-sas", (bounded[0],), limits)
            if result.status in (Status.SOLVED, Status.UNSOLVABLE):
                return result
        if portfolio:
            for search in bounded:
                result = self._fast_downward(domain, problem, "solve", (search,), limits)
                if result.status in (Status.SOLVED, Status.UNSOLVABLE):
                    return result
        result = self._fast_downward(domain, problem, "solve", (SOLVE_SEARCH,), limits)
        if portfolio:
            quarter = replace(limits, time=limits.time / 4)
            for search in SOLVE_PORTFOLIO[1:]:
                if result.status in (Status.SOLVED, Status.UNSOLVABLE):
                    break
                result = self._fast_downward(domain, problem, "solve", (search,), quarter)
        return result

    def satisficing(self, domain: str, problem: str, limits: Limits) -> PlannerResult:
        """One plan of any length: the searches of :data:`SATISFICING_PORTFOLIO` in turn, each within ``limits`` (a
        work budget or, without one, the time limit), until one finds a plan or proves that none exists."""
        return self._in_turn(domain, problem, SATISFICING_PORTFOLIO, limits)

    def _budgeted_solve(
        self, domain: str, problem: str, limits: Limits, portfolio: bool, sas: str | None
    ) -> PlannerResult:
        """:meth:`solve` with a work budget: the searches of the portfolio (the first alone without it) in turn,
        each within the budget; given the query in SAS form, the first search runs on it, before anything is
        translated."""
        return self._in_turn(domain, problem, BUDGETED_PORTFOLIO if portfolio else SOLVE_PORTFOLIO[:1], limits, sas)

    def _in_turn(
        self, domain: str, problem: str, searches: Sequence[str], limits: Limits, sas: str | None = None
    ) -> PlannerResult:
        """Fast Downward's ``searches`` one after the other, each within ``limits``, until one finds a plan or
        proves that none exists (the first on ``sas``, the query in SAS form, when given)."""
        result = _result(Status.BUDGET if limits.work is not None else Status.TIMEOUT)
        for i, search in enumerate(searches):
            if i == 0 and sas is not None:
                result = self._fast_downward(sas, "", "solve-sas", (search,), limits)
            else:
                result = self._fast_downward(domain, problem, "solve", (search,), limits)
            if result.status in (Status.SOLVED, Status.UNSOLVABLE):
                break
        return result

    def landmarks(self, domain: str, problem: str, limits: Limits = Limits()) -> LandmarkResult:
        """The RHW landmarks of the task (Fast Downward ``lm_rhw``), parsed from its graph dump."""
        template = (*_FD_LIMITS, "{domain}", "{problem}", "--search", LANDMARK_SEARCH)
        key = PlanCache.key(FAST_DOWNWARD, ("landmarks", *template), domain, problem)
        hit = self._lookup(key, LandmarkResult)
        if hit is not None:
            return hit
        with self._workdir(domain, problem) as workdir:
            run = self._run(FAST_DOWNWARD, template, workdir, limits)
            result = self._landmark_result(run)
        _net(result.status, limits, "the landmark graph")
        self._store(key, result)
        return result

    def mutex_groups(self, domain: str, problem: str, limits: Limits = Limits()) -> MutexResult:
        """The translator's mutex groups (finite-domain variables and mutex sections of output.sas)."""
        template = (*_FD_LIMITS, "--translate", "{domain}", "{problem}")
        key = PlanCache.key(FAST_DOWNWARD, ("mutexes", *template), domain, problem)
        hit = self._lookup(key, MutexResult)
        if hit is not None:
            return hit
        with self._workdir(domain, problem) as workdir:
            run = self._run(FAST_DOWNWARD, template, workdir, limits)
            sas = workdir / "output.sas"
            if run.returncode == 0 and sas.exists():
                result = MutexResult(Status.SOLVED, tuple(sas_mutex_groups(sas.read_text())), round(run.wall_time, 3))
            else:
                outcome = classify(run)
                status = Status.TIMEOUT if outcome.status == Status.TIMEOUT else Status.ERROR
                result = MutexResult(
                    status, (), round(run.wall_time, 3), describe(run, "translator gave no output.sas")
                )
        _net(result.status, limits, "the mutex groups")
        self._store(key, result)
        return result

    def diverse(self, domain: str, problem: str, k: int, limits: Limits = Limits()) -> PlannerResult:
        """Up to ``k`` diverse plans (forbiditerative); a fallback when K* finds nothing in time.

        Its search is not complete: no plan gives status error (or timeout), never unsolvable. With a work
        budget, only its first plan can be asked for (``k`` 1: it ends its later iterations by the clock), and
        its planner's output is watched as Fast Downward's is.
        """
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        if limits.work is not None and k != 1:
            raise ValueError(
                "under a work budget the diverse planner gives its first plan only (k=1): it ends "
                "its later iterations by the clock"
            )
        template = (
            "--planner",
            "diverse",
            "--domain",
            "{domain}",
            "--problem",
            "{problem}",
            "--number-of-plans",
            str(k),
            "--symmetries",
            "--use-local-folder",
            "--clean-local-folder",
            "--plans-as-json",
            *(() if limits.work is not None else ("--suppress-planners-output",)),  # a budget reads the output
            "--results-file",
            PLANS_JSON,
            "--overall-time-limit",
            "{time}",
        )
        key = PlanCache.key(FORBIDITERATIVE, (*template, *_budget(limits)), domain, problem)
        hit = self._lookup(key, PlannerResult)
        if hit is not None:
            return hit
        with self._workdir(domain, problem) as workdir:
            watch = _watch(limits)
            run = self._run(FORBIDITERATIVE, template, workdir, limits, watch)
            result = _over_budget(run, watch, run.wall_time) or self._diverse_result(run, workdir, k, limits)
        _net(result.status, limits, "the diverse planner", watch)
        self._store(key, result)
        return result

    # ----- tool-specific flows ------------------------------------------------------------
    def _kstar(
        self, domain: str, problem: str, stopping: str, unordered: bool, limits: Limits, wanted: int | None
    ) -> PlannerResult:
        head = (
            "--overall-time-limit",
            "{time}s",
            "--overall-memory-limit",
            "{memory}M",
            "{domain}",
            "{problem}",
            "--symmetries",
            _SYMMETRIES,
            "--search",
        )
        # LM-cut and stubborn sets do not support axioms (exit 34): then blind search, no pruning.
        templates = [
            (*head, _kstar_search("lmcut(transform=undo_to_origin())", stopping, unordered, unordered)),
            (*head, _kstar_search("blind()", stopping, unordered, False)),
        ]
        key = PlanCache.key(KSTAR, (*templates[0], *_budget(limits)), domain, problem)
        hit = self._lookup(key, PlannerResult)
        if hit is not None:
            return hit
        with self._workdir(domain, problem) as workdir:
            run, spent, watch = self._first_supported(KSTAR, templates, workdir, limits, PLANS_JSON)
            result = _over_budget(run, watch, spent) or self._kstar_result(run, workdir, spent, wanted)
        _net(result.status, limits, "K*", watch)
        self._store(key, result)
        return result

    def _first_supported(
        self, tool: str, templates: Sequence[tuple[str, ...]], workdir: Path, limits: Limits, output: str | None = None
    ) -> tuple[_run.ToolRun, float, Work | None]:
        """Run the configurations in order until one is not rejected as unsupported (exit 34): the last run, the
        seconds of all, and the work the last one reported (with a work budget).

        LM-cut and stubborn sets do not support axioms; the later configurations do.
        """
        spent = 0.0
        for template in templates:
            if output:
                (workdir / output).unlink(missing_ok=True)
            watch = _watch(limits)
            run = self._run(tool, template, workdir, limits, watch)
            spent += run.wall_time
            if run.returncode != SEARCH_UNSUPPORTED or run.timed_out:
                break
            log.info("%s: %s unsupported for this task, trying the next configuration", tool, template[-1])
        return run, spent, watch

    @staticmethod
    def _kstar_result(run: _run.ToolRun, workdir: Path, spent: float, wanted: int | None) -> PlannerResult:
        outcome = classify(run, complete=True)
        try:
            plans = kstar_plans(workdir / PLANS_JSON)
        except (ValueError, OSError) as exc:  # a run killed while writing leaves broken JSON
            if outcome.status == Status.SOLVED:
                return _result(Status.ERROR, time=spent, message=f"unreadable K* plans file: {exc}")
            plans = []
        if outcome.status == Status.SOLVED:
            if not plans:
                return _result(Status.ERROR, time=spent, message=describe(run, "K* wrote no plans"))
            if KSTAR_TIME_LIMIT_MARKER in run.stdout:
                return _result(Status.TIMEOUT, plans, spent, f"K* time limit reached after {len(plans)} plan(s)")
            note = f"only {len(plans)} plan(s) exist" if wanted and len(plans) < wanted else ""
            return _result(Status.SOLVED, plans, spent, note)
        if outcome.status == Status.UNSOLVABLE:
            return _result(Status.UNSOLVABLE, time=spent, message=outcome.reason)
        return _result(outcome.status, plans, spent, describe(run, outcome.reason))

    def _fast_downward(
        self, domain: str, problem: str, kind: str, searches: tuple[str, ...], limits: Limits
    ) -> PlannerResult:
        """A Fast Downward search on PDDL, or on a SAS task (``kind`` ending in ``-sas``: the task's text
        in ``domain``, ``problem`` empty)."""
        sas = kind.endswith("-sas")
        inputs = ("{sas}",) if sas else ("{domain}", "{problem}")
        templates = [(*_FD_LIMITS, "--plan-file", PLAN_FILE, *inputs, "--search", s) for s in searches]
        key = PlanCache.key(FAST_DOWNWARD, (kind, *templates[0], *_budget(limits)), domain, problem)
        hit = self._lookup(key, PlannerResult)
        if hit is not None:
            return hit
        with self._workdir(domain, problem, sas=sas) as workdir:
            run, spent, watch = self._first_supported(FAST_DOWNWARD, templates, workdir, limits)
            result = _over_budget(run, watch, spent) or self._search_result(run, workdir, spent)
        _net(result.status, limits, f"Fast Downward ({searches[0]})", watch)
        self._store(key, result)
        return result

    @staticmethod
    def _search_result(run: _run.ToolRun, workdir: Path, spent: float) -> PlannerResult:
        outcome = classify(run)
        plan = sas_plan(workdir / PLAN_FILE)
        if outcome.status == Status.SOLVED:
            if plan is None:
                return _result(Status.ERROR, time=spent, message=describe(run, "no plan file written"))
            return _result(Status.SOLVED, [plan], spent)
        if outcome.status == Status.UNSOLVABLE:
            return _result(Status.UNSOLVABLE, time=spent, message=outcome.reason)
        return _result(outcome.status, [plan] if plan else [], spent, describe(run, outcome.reason))

    @staticmethod
    def _landmark_result(run: _run.ToolRun) -> LandmarkResult:
        time = round(run.wall_time, 3)
        if "Generating unsolvable task" in run.stdout:
            return LandmarkResult(Status.UNSOLVABLE, (), time, "translator proved the task unsolvable")
        if "Generating solvable task" in run.stdout:
            return LandmarkResult(Status.SOLVED, (), time, "goal trivially true: no landmark graph")
        parsed = landmark_graph(run.stdout)
        if parsed is not None:
            landmarks, dropped = parsed
            note = f"dropped {dropped} landmark(s) with negated or translator-made atoms" if dropped else ""
            return LandmarkResult(Status.SOLVED, tuple(landmarks), time, note)
        outcome = classify(run)
        status = outcome.status if outcome.status == Status.TIMEOUT else Status.ERROR
        return LandmarkResult(status, (), time, describe(run, f"{outcome.reason}; no landmark graph"))

    @staticmethod
    def _diverse_result(run: _run.ToolRun, workdir: Path, k: int, limits: Limits) -> PlannerResult:
        outcome = classify(run)
        try:
            plans = forbiditerative_plans(workdir / PLANS_JSON)
        except (ValueError, OSError) as exc:
            plans, outcome = [], replace(outcome, reason=f"unreadable results file: {exc}")
        if plans and outcome.status == Status.SOLVED:
            note = f"found {len(plans)} of {k} plans" if len(plans) < k else ""
            return _result(Status.SOLVED, plans, run.wall_time, note)
        if outcome.status == Status.TIMEOUT or run.wall_time >= 0.9 * limits.time:
            return _result(Status.TIMEOUT, plans, run.wall_time, describe(run, "diverse planner out of time"))
        reason = "no plan found (not a proof of unsolvability)" if outcome.status == Status.SOLVED else outcome.reason
        return _result(Status.ERROR, plans, run.wall_time, describe(run, reason))

    # ----- shared machinery ---------------------------------------------------------------
    @contextmanager
    def _workdir(self, domain: str, problem: str, sas: bool = False) -> Iterator[Path]:
        """A fresh directory holding the PDDL files (with ``sas``: the SAS task in ``domain``, alone);
        removed afterwards whatever happens."""
        workdir = Path(tempfile.mkdtemp(prefix="acp-planner-"))
        try:
            if sas:
                (workdir / SAS_TASK_FILE).write_text(domain, encoding="utf-8")
            else:
                (workdir / DOMAIN_FILE).write_text(domain, encoding="utf-8")
                (workdir / PROBLEM_FILE).write_text(problem, encoding="utf-8")
            yield workdir
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
            if workdir.exists():
                log.warning("could not remove planner directory %s", workdir)

    def _run(
        self, tool: str, template: tuple[str, ...], workdir: Path, limits: Limits, watch: Work | None = None
    ) -> _run.ToolRun:
        """Run ``tool`` with the template's placeholders filled in for this call; ``watch`` follows the work its
        search reports (a SAS task is searched without translating: its operators are counted here).

        ``{time}`` (the tools' own overall limit) is ``ceil(limits.time) + 1``: the Fast Downward
        driver rounds the time left for the search *down* to whole seconds after translating,
        so without the extra second a 1 s budget would leave the search 0 s. K*'s graceful
        ``{max_time}`` is ``0.9 * limits.time``, below the search's CPU limit, so that K* stops
        by itself and writes the plans found so far.
        """
        seconds = max(1, math.ceil(limits.time)) + 1
        values = {
            "{domain}": str(workdir / DOMAIN_FILE),
            "{problem}": str(workdir / PROBLEM_FILE),
            "{sas}": str(workdir / SAS_TASK_FILE),
            "{time}": str(seconds),
            "{max_time}": f"{max(0.2, 0.9 * limits.time):.2f}",
            "{memory}": str(int(limits.memory_mb)),
        }
        args = []
        for arg in template:
            for token, value in values.items():
                arg = arg.replace(token, value)
            args.append(arg)
        memory = limits.memory_mb if self.backend.limits_memory else None
        if watch is not None and "{sas}" in template:
            watch.operators = max(1, _operators(workdir / SAS_TASK_FILE))
        if tool in (FAST_DOWNWARD, KSTAR) and isinstance(self.backend, LocalBackend) and warm.enabled():
            return warm.run(args, workdir, memory, tool, watch)
        cmd = self.backend.command(tool, args, workdir)
        return _run.run_tool(cmd, time_limit=seconds, memory_mb=memory, cwd=workdir, watch=watch)

    def _lookup(self, key: str, kind: type[_Result]) -> _Result | None:
        data = self.cache.get(key)
        if data is None:
            return None
        try:
            return replace(kind.from_dict(data), cached=True)
        except (KeyError, ValueError, TypeError) as exc:
            log.warning("ignoring malformed cache entry %s: %s", key, exc)
            return None

    def _store(self, key: str, result: PlannerResult | LandmarkResult | MutexResult) -> None:
        if result.status in (Status.SOLVED, Status.UNSOLVABLE, Status.BUDGET):
            self.cache.put(key, result.to_dict())


def _budget(limits: Limits) -> tuple[str, ...]:
    """What a cache key adds for a work budget: an answer within one budget may be over another."""
    return () if limits.work is None else (f"work={limits.work}",)


def _operators(sas: Path) -> int:
    """The operators of a task in Fast Downward's SAS format."""
    with open(sas, encoding="utf-8") as handle:
        return sum(line.startswith("begin_operator") for line in handle)


def _watch(limits: Limits) -> Work | None:
    """The watch of a search's work under these limits (None without a work budget)."""
    return None if limits.work is None else Work(limits.work)


def _over_budget(run: _run.ToolRun, watch: Work | None, spent: float) -> PlannerResult | None:
    """Status ``budget`` for a run stopped at its work budget or that ended with more work than it."""
    if watch is None or watch.budget is None or (not run.stopped and watch.done <= watch.budget):
        return None
    return _result(Status.BUDGET, time=spent, message=f"no answer within a work budget of {watch.budget:,}")


def _net(status: Status, limits: Limits, what: str, watch: Work | None = None) -> None:
    """Raise SafetyNetError for a call with a work budget that ran into its time limit (see the module docstring):
    a search before its work passed the budget, or a step without one (translating, landmarks)."""
    if status != Status.TIMEOUT or limits.work is None:
        return
    spent = "" if watch is None else f" before its work budget of {limits.work:,} was spent ({watch.done:,} reported)"
    raise SafetyNetError(
        f"{what} ran into the safety net of {limits.time:g} s{spent}: its answer would depend on this machine's "
        "speed. Raise the time limit (planner.time_limit, plans.time_limit, qa.planner_time_limit) or lower the "
        "work budget."
    )
