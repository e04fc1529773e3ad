"""`acp score`: parse each model output, score it with its task module, summarise.

Predictions of one record are scored together so that the record is parsed and grounded once;
records are spread over ``jobs`` worker processes.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import threading
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from tqdm import tqdm

from acpgen.errors import PddlError
from acpgen.evaluation.records import Prediction, problem_of
from acpgen.executors import Executor, record_shard_size, shards
from acpgen.nl.answers import ParseError
from acpgen.planners import Planners, PlannerSetup
from acpgen.schema import is_unsolvable
from acpgen.tasks import (
    KINDS,
    PARSE_ERROR,
    SCORED,
    TASKS,
    UNDECIDED,
    RecordContext,
    ScoreOptions,
    Task,
    Verdict,
    split_kind,
)
from acpgen.tasks.base import missing_template, readings
from acpgen.tasks.choice import score_response
from acpgen.tasks.measures import set_measures
from acpgen.tasks.text_to_pddl import size_band

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Scored:
    """A prediction and its verdict."""

    prediction: Prediction
    verdict: Verdict
    domain: str

    def output_line(self) -> dict:
        """The line of `acp score --output`: the prediction's own line (an lm-eval sample's without its
        ``doc``) plus task, domain, the record's obfuscation (``none`` for a plain record), the verdict's
        score, status and reason, and its details."""
        line = dict(self.prediction.line)
        if "doc" in line:  # lm-eval sample lines: keep the record id, not the whole record
            line = {k: v for k, v in line.items() if k != "doc"}
            line["id"] = self.prediction.record.get("id")
            line["response"] = self.prediction.response
            line["sample"] = self.prediction.sample
        line.update(
            task=self.prediction.task,
            domain=self.domain,
            obfuscation=self.prediction.record.get("obfuscation") or "none",
            **({"solvable": False} if is_unsolvable(self.prediction.record) else {}),
            score=self.verdict.score,
            status=self.verdict.status,
            reason=self.verdict.reason,
        )
        line.update(self.verdict.details)
        return line


def score_one(ctx: RecordContext, kind: str, response: str | None) -> Verdict:
    """Parse and score one response against a record (``kind``: the record kind, ``app`` or ``app.bool``):
    the one scoring path of acp (`acp score`, the self-check of `acp dataset`, :func:`acpgen.score`, the
    lm-eval, Inspect AI and reasoning-gym adapters).

    A response that is None, or from which no answer can be read, is a ``parse_error`` (score 0); a
    record whose PDDL cannot be read, or a check no planner could decide, is ``undecided`` (never a
    silent 0). Set answers (app, prog, the reasoning-about-actions sets) carry their precision, recall
    and F1 against the true set in the verdict's details (:mod:`acpgen.tasks.measures`)."""
    name, fmt = split_kind(kind)
    if fmt != "gen":
        return Verdict.parse_error("no response") if response is None else score_response(ctx.record, fmt, response)
    task = TASKS[name]
    answer = None
    if response is None:
        verdict = Verdict.parse_error("no response")
    else:
        try:
            answer = task.read(ctx, response)
        except ParseError as err:
            verdict = Verdict.parse_error(_unread(ctx, str(err)))
        else:
            try:
                verdict = task.score(ctx, answer)
            except PddlError as err:
                return Verdict.undecided(f"record PDDL error: {err}")
            verdict = readings(verdict, getattr(answer, "unread", []), ctx.options.strict_reading)
    return _with_measures(task, ctx.record, answer, verdict)


def _unread(ctx: RecordContext, reason: str) -> str:
    """Why nothing was read, with why the record's English cannot be read when it has no template."""
    try:
        missing = missing_template(ctx.record, ctx.lifted)
    except PddlError:
        missing = None
    return reason if missing is None else f"{reason} ({missing})"


def _with_measures(task: Task, record: dict, answer: object, verdict: Verdict) -> Verdict:
    """The verdict with the set measures of a set answer (an unreadable one: the empty set) in its details."""
    if verdict.status == UNDECIDED or "precision" in verdict.details:
        return verdict
    true = task.stored_elements(record)
    given = set() if answer is None else task.answer_elements(answer)
    if true is None or given is None:
        return verdict
    return dataclasses.replace(verdict, details={**verdict.details, **set_measures(given, true).as_details()})


_SHARED_PLANNERS: Planners | None = None
_SHARED_LOCK = threading.Lock()


def _after_fork_in_child() -> None:
    """A forked child starts with its own lock and planners (the parent's lock may have been held
    by a thread that does not exist in the child)."""
    global _SHARED_PLANNERS, _SHARED_LOCK
    _SHARED_PLANNERS, _SHARED_LOCK = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


@contextmanager
def shared_planners() -> Iterator[Planners]:
    """The default planners of this process, built on first use; callers take turns (planners run
    as processes on a shared machine), so threads may score at the same time."""
    global _SHARED_PLANNERS
    with _SHARED_LOCK:
        if _SHARED_PLANNERS is None:
            _SHARED_PLANNERS = PlannerSetup().build()
        yield _SHARED_PLANNERS


def score_answer(record: dict, kind: str, response: str, options: ScoreOptions = ScoreOptions()) -> Verdict:
    """Score one response against one record, with the default planners built once per process.

    For harness hooks (lm-eval, Inspect AI) that hand over one answer at a time; calls are taken
    one at a time, since planners run as processes on a shared machine.
    """
    with shared_planners() as planners:
        return score_one(RecordContext(record, options, planners), kind, response)


def _domain_of(ctx: RecordContext) -> str:
    if ctx.record.get("domain"):
        return str(ctx.record["domain"])
    if "PDDL_domain" not in ctx.record:
        return "unknown"  # reference bool/mcq records carry no PDDL
    try:
        return ctx.task.lifted.domain_name
    except PddlError:
        return "unknown"


def _score_group(
    group: list[tuple[int, Prediction]], options: ScoreOptions, setup: PlannerSetup, planners: Planners | None = None
) -> list[tuple[int, Verdict, str]]:
    planners = planners or setup.build()
    record = group[0][1].record
    ctx = RecordContext(record, options, planners)
    domain = _domain_of(ctx)
    return [(index, score_one(ctx, prediction.task, prediction.response), domain) for index, prediction in group]


def _score_shard(args: tuple) -> list[tuple[int, Verdict, str]]:
    """A shard of prediction groups in one worker, with planners built once for the shard."""
    groups, options, setup = args
    planners = setup.build()
    return [scored for group in groups for scored in _score_group(group, options, setup, planners)]


def score_predictions(
    predictions: list[Prediction],
    options: ScoreOptions = ScoreOptions(),
    setup: PlannerSetup = PlannerSetup(),
    jobs: int = 1,
    progress: bool = True,
    planners: Planners | None = None,
    executor: Executor | None = None,
) -> list[Scored]:
    """Score every prediction; results are in input order.

    The predictions of one record form a group; groups, those of one problem together, go to the workers
    (``jobs`` > 1, or a remote ``executor``: Dask) in shards of consecutive groups
    (:func:`~acpgen.executors.record_shard_size`). The predictions of a unit that failed as a whole (its worker died
    more often than the executor retries) are ``undecided``, with the reason."""
    groups: dict[tuple[str, int], list[tuple[int, Prediction]]] = defaultdict(list)
    for index, prediction in enumerate(predictions):
        groups[(prediction.task, id(prediction.record))].append((index, prediction))
    # the records of one problem one after the other, on one worker: each is grounded from the joins of the
    # problem's first (acpgen.pddl.grounding keeps those of a few recent problems); results keep the input order
    ordered = sorted(groups.values(), key=lambda group: problem_of(group[0][1].record))
    results: list[Scored | None] = [None] * len(predictions)

    def collect(part):
        for index, verdict, domain in part:
            results[index] = Scored(predictions[index], verdict, domain)

    executor = executor or Executor(jobs)
    if not executor.remote and jobs <= 1:
        bar = tqdm(total=len(predictions), desc="scoring", unit="answer", disable=not progress)
        shared = planners or setup.build()
        for group in ordered:
            collect(_score_group(group, options, setup, shared))
            bar.update(len(group))
        bar.close()
    else:
        size = record_shard_size(executor, len(ordered))
        parts = shards(ordered, size)
        names = [f"records {i * size + 1}-{i * size + len(part)}" for i, part in enumerate(parts)]
        units = [(part, options, setup) for part in parts]
        for part, outcome in zip(parts, executor.map(_score_shard, units, names, desc="scoring", progress=progress)):
            if outcome.ok:
                collect(outcome.value)
                continue
            verdict = Verdict.undecided(f"the unit '{outcome.name}' failed: {outcome.error}")
            collect([(index, verdict, "unknown") for group in part for index, _ in group])
    return [r for r in results if r is not None]


@dataclass
class Cell:
    answers: int = 0
    total: float = 0.0
    parse_errors: int = 0
    undecided: int = 0
    #: answers whose score under the other reading (strict or lenient) differs (:func:`acpgen.tasks.base.readings`)
    readings_differ: int = 0

    @property
    def decided(self) -> int:
        return self.answers - self.undecided

    @property
    def accuracy(self) -> float | None:
        return self.total / self.decided if self.decided else None

    @property
    def stderr(self) -> float | None:
        """Binomial standard error sqrt(p (1 - p) / n) of the accuracy over the decided answers."""
        p = self.accuracy
        return None if p is None else math.sqrt(p * (1.0 - p) / self.decided)

    def add(self, score: float, status: str, readings_differ: bool = False) -> None:
        """Count one answer (undecided answers are counted apart and left out of the accuracy)."""
        self.answers += 1
        self.readings_differ += readings_differ
        if status == UNDECIDED:
            self.undecided += 1
            return
        self.total += score
        self.parse_errors += status == PARSE_ERROR

    def as_dict(self) -> dict:
        return {
            "answers": self.answers,
            "accuracy": self.accuracy,
            "score_sum": self.total,
            "parse_errors": self.parse_errors,
            "undecided": self.undecided,
            "readings_differ": self.readings_differ,
        }


@dataclass
class Summary:
    """Task x domain accuracy; accuracy is over decided answers, undecided ones are counted apart."""

    cells: dict[tuple[str, str], Cell] = field(default_factory=dict)

    @classmethod
    def of(cls, scored: list[Scored]) -> Summary:
        summary = cls()
        for item in scored:
            differ = "strict_score" in item.verdict.details or "lenient_score" in item.verdict.details
            for key in ((item.prediction.task, item.domain), (item.prediction.task, "all"), ("all", "all")):
                summary.cells.setdefault(key, Cell()).add(item.verdict.score, item.verdict.status, differ)
        return summary

    def as_dict(self) -> dict:
        out: dict = {}
        for (task, domain), cell in sorted(self.cells.items()):
            out.setdefault(task, {})[domain] = cell.as_dict()
        return out

    def table(self) -> str:
        """Plain-text table: rows are tasks, columns domains; cells 'accuracy (n)', each column as wide as
        its widest text; then the totals, and the answers whose strict and lenient readings differ."""
        domains = sorted({d for _, d in self.cells if d != "all"}) + ["all"]
        tasks = [t for t in KINDS if any(k[0] == t for k in self.cells)] + ["all"]
        texts = {key: self._text(cell) for key, cell in self.cells.items()}
        widths = [2 + max(len(d), *(len(texts.get((t, d), "")) for t in tasks)) for d in domains]
        first = 2 + max(len(t) for t in ["task", *tasks])
        lines = ["task".ljust(first) + "".join(d.rjust(w) for d, w in zip(domains, widths))]
        for task in tasks:
            lines.append(
                task.ljust(first) + "".join(texts.get((task, d), "").rjust(w) for d, w in zip(domains, widths))
            )
        total = self.cells.get(("all", "all"), Cell())
        lines.append(
            f"answers: {total.answers}, parse errors: {total.parse_errors}, undecided: {total.undecided}"
            f" (accuracy is over decided answers; {SCORED}/{PARSE_ERROR}/{UNDECIDED} in the output file)"
        )
        differ = [f"{t} {self.cells[(t, 'all')].readings_differ}" for t in tasks[:-1] if (t, "all") in self.cells]
        if total.readings_differ:
            counts = ", ".join(c for c in differ if not c.endswith(" 0"))
            lines.append(
                f"strict and lenient readings differ on {total.readings_differ} answers ({counts}): parts of them read "
                "as nothing (strict_score/lenient_score in the output file)"
            )
        return "\n".join(lines)

    @staticmethod
    def _text(cell: Cell) -> str:
        accuracy = f"{cell.accuracy:.2f}" if cell.accuracy is not None else "-"
        return f"{accuracy} ({cell.answers})"


def _flags(verdict: Verdict) -> dict[str, bool | None]:
    """The boolean flags among a verdict's details (None: undecided)."""
    return {k: v for k, v in verdict.details.items() if v is None or isinstance(v, bool)}


def _cuts(record: dict) -> list[str]:
    """The cuts of a flagged record in the rates table: its abstraction class and its size band (a record
    without them, such as a plan record, has neither)."""
    cuts = [str(record["abstraction"])] if record.get("abstraction") else []
    band = record.get("size_band")
    if not band and isinstance(record.get("size"), int) and record.get("abstraction"):
        band = size_band(record["size"])
    return cuts + ([f"size {band}"] if band else [])


def flag_rates(scored: list[Scored]) -> str:
    """The rates of the boolean flags some tasks add to their score rows (t2p: parseable, solvable,
    equivalent), per task and domain, cut as Planetarium cuts its tables: by the record's ``abstraction``
    and by its ``size_band`` (when it has them), and in all; an answer with a flag undecided (None) is
    counted apart, a parse error has every flag false. Empty when no task adds flags."""
    flagged = {item.prediction.task for item in scored if _flags(item.verdict)}
    if not flagged:
        return ""
    names = list(dict.fromkeys(name for item in scored for name in _flags(item.verdict)))
    groups: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for item in scored:
        if item.prediction.task not in flagged:
            continue
        flags = _flags(item.verdict)
        task = item.prediction.task
        for cut in ["all", *_cuts(item.prediction.record)]:
            groups[(task, item.domain, cut)].append(flags)
            groups[(task, "all", cut)].append(flags)
    width = max(12, *(len(n) + 2 for n in names))
    head = "".join(f"{n:>{width}}" for n in names)
    # the first three columns as wide as their longest text (a PlanBench domain such as blocksworld_zero_shot)
    w_task, w_domain, w_cut = (2 + max(len(key[i]) for key in [("task", "domain", "cut"), *groups]) for i in range(3))
    lines = [f"{'task':{w_task}}{'domain':{w_domain}}{'cut':{w_cut}}{'n':>5}" + head + "   undecided"]

    def order(key: tuple[str, str, str]) -> tuple:
        task, domain, cut = key
        return (task, domain == "all", domain, cut != "all", cut.startswith("size"), cut)

    for key in sorted(groups, key=order):
        task, domain, cut = key
        rows = groups[key]
        cells = []
        undecided = 0
        for name in names:
            values = [row.get(name, False) for row in rows]
            decided = [v for v in values if v is not None]
            undecided = max(undecided, len(values) - len(decided))
            cells.append(f"{sum(decided) / len(decided):{width}.2f}" if decided else f"{'-':>{width}}")
        lines.append(
            f"{task:{w_task}}{domain:{w_domain}}{cut:{w_cut}}{len(rows):5d}" + "".join(cells) + f"{undecided:12d}"
        )
    return "\n".join(lines)
