"""`acp report`: tables and figures from `acp score --output` files, one or more models.

Every measure is computed over the answer lines of the score files:

* accuracy per task x domain x model over the *decided* answers, with the binomial standard
  error sqrt(p (1 - p) / n); undecided answers are left out of the accuracy and counted apart,
  exactly as `acp score` does;
* when some answers are to obfuscated records (the ``obfuscation`` field `acp score` writes:
  ``mystery`` or ``random``; ``none``, or no field, for a plain record), the same accuracy per
  task x obfuscation x model, plain and obfuscated side by side;
* when some answers are to records no plan solves (``solvable: false`` in the score line: the plan tasks'
  impossible questions), the accuracy per task x model on solvable and unsolvable records apart;
* answer categories from ``status`` and ``reason`` (correct, wrong answer, parse error, unknown
  atom, unknown action, static atom, undecided);
* with the records (``dataset``): for the open-ended app and prog tasks, the Jaccard similarity
  and F1 of the answered set against the stored true set, and accuracy against difficulty
  features the records carry (atoms of the problem's ``:init``, plan length, applicable actions).

The model of a line is its ``model`` field, else the model name lm-eval wrote into a
``results_*.json`` next to a score file of lm-eval samples, else the score file's name stem.
Figures are drawn with matplotlib (the optional extra ``.[report]``) as PNG and SVG.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acpgen.artefacts import atomic_write_bytes, atomic_write_text
from acpgen.config import OBFUSCATIONS
from acpgen.errors import DataError, ToolError
from acpgen.evaluation.records import Dataset, read_json_items
from acpgen.evaluation.scoring import Cell
from acpgen.nl.answers import ParseError
from acpgen.pddl.model import without_comments
from acpgen.schema import is_unsolvable
from acpgen.tasks import KINDS, PARSE_ERROR, TASKS, UNDECIDED, split_kind
from acpgen.tasks.base import record_plan

if TYPE_CHECKING:
    from matplotlib.figure import Figure

ALL = "all"
PLAIN = "none"  # the obfuscation of an answer to a plain record (OBFUSCATIONS[0])
CORRECT, WRONG_ANSWER, PARSE, UNKNOWN_ATOM, UNKNOWN_ACTION, STATIC_ATOM, UNDECIDED_ANSWER = (
    "correct",
    "wrong answer",
    "parse error",
    "unknown atom",
    "unknown action",
    "static atom",
    "undecided",
)
CATEGORIES = (CORRECT, WRONG_ANSWER, PARSE, UNKNOWN_ATOM, UNKNOWN_ACTION, STATIC_ATOM, UNDECIDED_ANSWER)
# Reasons of a wrong answer that name why the answer could not even be matched to the task.
_REASON_CATEGORIES = (("unknown_atom", UNKNOWN_ATOM), ("unknown_action", UNKNOWN_ACTION), ("static_atom", STATIC_ATOM))
_REQUIRED = ("task", "domain", "score", "status")


# ---------------------------------------------------------------------------------------------
# Reading score files


@dataclass(frozen=True)
class Answer:
    """One scored answer: a line of an `acp score --output` file and the model that gave it."""

    model: str
    kind: str
    domain: str
    obfuscation: str  # none (a plain record), mystery or random
    score: float
    status: str
    reason: str
    line: dict[str, Any]
    solvable: bool = True  # False: an answer to a record no plan solves (the plan tasks' impossible questions)

    @property
    def category(self) -> str:
        return category(self.status, self.score, self.reason)


def category(status: str, score: float, reason: str) -> str:
    """The error category of an answer from its ``status``, ``score`` and ``reason``."""
    if status == UNDECIDED:
        return UNDECIDED_ANSWER
    if status == PARSE_ERROR:
        return PARSE
    if score >= 1.0:
        return CORRECT
    for prefix, name in _REASON_CATEGORIES:
        if reason.startswith(prefix):
            return name
    return WRONG_ANSWER


def _lm_eval_model(folder: Path) -> str | None:
    """``model_name`` of the newest lm-eval ``results_*.json`` in ``folder`` (lm-eval names them by date)."""
    for results in sorted(folder.glob("results_*.json"), reverse=True):
        try:
            name = json.loads(results.read_text(encoding="utf-8")).get("model_name")
        except (OSError, ValueError, AttributeError):
            continue
        if name:
            return str(name)
    return None


def file_model(path: Path, items: list[dict[str, Any]]) -> str:
    """The model of a score file's lines that carry no ``model`` field."""
    if any("doc_id" in item for item in items):  # scored lm-eval samples keep lm-eval's doc_id
        name = _lm_eval_model(path.parent)
        if name:
            return name
    return path.name.split(".")[0] or path.name


def load_answers(paths: Iterable[Path]) -> list[Answer]:
    """Every answer line of the score files, in file order."""
    answers: list[Answer] = []
    for path in paths:
        path = Path(path)
        items = read_json_items(path)
        fallback = file_model(path, items)
        for number, item in enumerate(items, 1):
            missing = [key for key in _REQUIRED if key not in item]
            if missing:
                raise DataError(
                    f"{path}:{number}: not a line of `acp score --output` (no {', '.join(missing)}); "
                    "score the predictions first: acp score PREDICTIONS --dataset RECORDS -o SCORES.jsonl"
                )
            answers.append(
                Answer(
                    model=str(item.get("model") or fallback),
                    kind=str(item["task"]),
                    domain=str(item["domain"]),
                    obfuscation=str(item.get("obfuscation") or PLAIN),
                    score=float(item["score"]),
                    status=str(item["status"]),
                    reason=str(item.get("reason") or ""),
                    line=item,
                    solvable=not is_unsolvable(item),
                )
            )
    if not answers:
        raise DataError("the score files hold no answers")
    return answers


# ---------------------------------------------------------------------------------------------
# Measures


def jaccard(given: set[Any], true: set[Any]) -> float:
    """|given & true| / |given | true| (intersection over union); 1 when both are empty."""
    union = given | true
    return len(given & true) / len(union) if union else 1.0


def f1(given: set[Any], true: set[Any]) -> float:
    """Harmonic mean of precision and recall, 2 |given & true| / (|given| + |true|); 1 when both are empty."""
    total = len(given) + len(true)
    return 2 * len(given & true) / total if total else 1.0


@dataclass
class SetMeasure:
    """Mean Jaccard similarity and F1 of the decided answers of one model and task (a parse error counts 0)."""

    answers: int = 0
    jaccard_sum: float = 0.0
    f1_sum: float = 0.0
    exact: Cell = field(default_factory=Cell)

    @property
    def jaccard(self) -> float | None:
        return self.jaccard_sum / self.answers if self.answers else None

    @property
    def f1(self) -> float | None:
        return self.f1_sum / self.answers if self.answers else None


def init_atom_count(problem: str) -> int | None:
    """Number of atoms in the ``:init`` of a PDDL problem (numeric ``(= ...)`` entries excluded); None without one."""
    text = without_comments(problem)
    start = re.search(r"\(\s*:init\b", text, re.IGNORECASE)
    if start is None:
        return None
    depth, count, i = 1, 0, start.end()
    while i < len(text):
        char = text[i]
        if char == "(":
            if depth == 1 and not text[i + 1 :].lstrip().startswith("="):
                count += 1
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return count
        i += 1
    return None


def plan_length(record: dict[str, Any]) -> int | None:
    """Length of the plan a val or just question is about: acp's ``plan`` field, else the action
    sequence quoted in the question (the reference records); None when there is none."""
    return len(record_plan(record)) or None


@dataclass(frozen=True)
class Feature:
    """A difficulty feature: its value for a record of a task kind, or None where it does not apply."""

    name: str
    label: str
    value: Callable[[str, dict[str, Any]], int | None]


def _init_atoms(kind: str, record: dict[str, Any]) -> int | None:
    problem = record.get("PDDL_problem")
    return init_atom_count(problem) if isinstance(problem, str) else None


def _plan_length(kind: str, record: dict[str, Any]) -> int | None:
    task = TASKS.get(split_kind(kind)[0])  # tasks whose question is about a plan (val, just)
    return plan_length(record) if task is not None and "plan" in task.question_fields else None


def _applicable(kind: str, record: dict[str, Any]) -> int | None:
    answer = record.get("answer")
    return len(answer) if kind == "app" and isinstance(answer, list) else None


FEATURES = (
    Feature("init_atoms", "atoms in the problem's :init", _init_atoms),
    Feature("plan_length", "length of the plan in the question (val, just)", _plan_length),
    Feature("applicable_actions", "applicable actions in the state (app)", _applicable),
)


def value_bins(values: list[int], count: int = 5) -> list[tuple[int, int]]:
    """At most ``count`` contiguous value ranges (lo, hi) holding about equal numbers of ``values``;
    one range per distinct value when there are at most ``count`` of them."""
    distinct = sorted(set(values))
    if len(distinct) <= count:
        return [(v, v) for v in distinct]
    occurrences = Counter(values)
    bins: list[list[int]] = []
    current = -1  # the quantile slot of the last range
    below = 0  # values smaller than ``value``
    for value in distinct:
        slot = min(count - 1, below * count // len(values))
        if slot > current:
            bins.append([value, value])
            current = slot
        bins[-1][1] = value
        below += occurrences[value]
    return [(lo, hi) for lo, hi in bins]


@dataclass
class Difficulty:
    """Accuracy of each model per range of one feature's values."""

    feature: Feature
    bins: list[tuple[int, int]]
    cells: dict[tuple[str, int], Cell]  # (model, bin index)
    means: list[float]  # mean feature value of the answers in each bin


# ---------------------------------------------------------------------------------------------
# The report


@dataclass
class Report:
    """Everything `acp report` writes, computed from the answers (and the records, if given)."""

    sources: list[str]
    models: list[str]
    answers: list[Answer]
    cells: dict[tuple[str, str, str], Cell]  # (model, kind, domain); kind and domain may be "all"
    categories: dict[tuple[str, str], Counter[str]]  # (model, kind); kind may be "all"
    #: (model, kind, obfuscation); kind may be "all"
    obfuscation_cells: dict[tuple[str, str, str], Cell] = field(default_factory=dict)
    #: (model, kind, solvable); kind may be "all"
    solvable_cells: dict[tuple[str, str, bool], Cell] = field(default_factory=dict)
    dataset: str | None = None
    set_measures: dict[tuple[str, str], SetMeasure] = field(default_factory=dict)
    difficulty: list[Difficulty] = field(default_factory=list)
    without_record: int = 0  # answers whose record is not in the dataset

    @property
    def kinds(self) -> list[str]:
        present = {a.kind for a in self.answers}
        return [k for k in KINDS if k in present] + sorted(present - set(KINDS))

    @property
    def domains(self) -> list[str]:
        return sorted({a.domain for a in self.answers})

    @property
    def obfuscations(self) -> list[str]:
        """The obfuscations of the answers: none, mystery, random in that order, then any other."""
        present = {a.obfuscation for a in self.answers}
        return [o for o in OBFUSCATIONS if o in present] + sorted(present - set(OBFUSCATIONS))

    @property
    def impossible(self) -> bool:
        """Whether some answer is to a record no plan solves."""
        return any(not a.solvable for a in self.answers)

    @property
    def obfuscated(self) -> bool:
        """Whether some answer is to an obfuscated record."""
        return any(a.obfuscation != PLAIN for a in self.answers)


def build_report(paths: Iterable[Path], dataset: Path | None = None) -> Report:
    """The report of the score files at ``paths``; with ``dataset`` (the scored records) also the
    set measures and the difficulty features."""
    paths = [Path(p) for p in paths]
    answers = load_answers(paths)
    models = list(dict.fromkeys(a.model for a in answers))
    cells: dict[tuple[str, str, str], Cell] = {}
    categories: dict[tuple[str, str], Counter[str]] = {}
    obfuscation_cells: dict[tuple[str, str, str], Cell] = {}
    for answer in answers:
        for key in ((answer.kind, answer.domain), (answer.kind, ALL), (ALL, answer.domain), (ALL, ALL)):
            cells.setdefault((answer.model, *key), Cell()).add(answer.score, answer.status)
        for kind in (answer.kind, ALL):
            categories.setdefault((answer.model, kind), Counter())[answer.category] += 1
            obfuscation_cells.setdefault((answer.model, kind, answer.obfuscation), Cell()).add(
                answer.score, answer.status
            )
    report = Report([str(p) for p in paths], models, answers, cells, categories, obfuscation_cells)
    for answer in answers:
        for kind in (answer.kind, ALL):
            report.solvable_cells.setdefault((answer.model, kind, answer.solvable), Cell()).add(
                answer.score, answer.status
            )
    if dataset is not None:
        _add_record_measures(report, Dataset.load(dataset, complete=False))
        report.dataset = str(dataset)
    return report


def _add_record_measures(report: Report, dataset: Dataset) -> None:
    found: list[tuple[Answer, dict[str, Any]]] = []
    for answer in report.answers:
        record = dataset.records.get((answer.kind, str(answer.line.get("id"))))
        if record is None:
            report.without_record += 1
        else:
            found.append((answer, record))
    for answer, record in found:
        task = TASKS.get(answer.kind)  # gen kinds only: "app", not "app.bool"
        true = task.stored_elements(record) if task is not None and answer.status != UNDECIDED else None
        if task is None or true is None:
            continue
        measure = report.set_measures.setdefault((answer.model, answer.kind), SetMeasure())
        measure.answers += 1
        measure.exact.add(answer.score, answer.status)
        try:
            given = task.answer_elements(task.parse(str(answer.line.get("response") or "")))
        except ParseError:
            continue  # no answer set could be read: similarity 0
        if given is None:
            continue
        measure.jaccard_sum += jaccard(given, true)
        measure.f1_sum += f1(given, true)
    for feature in FEATURES:
        valued = [(a, v) for a, r in found if (v := feature.value(a.kind, r)) is not None]
        if not valued:
            continue
        bins = value_bins([v for _, v in valued])
        cells: dict[tuple[str, int], Cell] = {}
        sums = [0.0] * len(bins)
        counts = [0] * len(bins)
        for answer, value in valued:
            index = next(i for i, (lo, hi) in enumerate(bins) if lo <= value <= hi)
            cells.setdefault((answer.model, index), Cell()).add(answer.score, answer.status)
            sums[index] += value
            counts[index] += 1
        means = [s / c for s, c in zip(sums, counts)]
        report.difficulty.append(Difficulty(feature, bins, cells, means))


# ---------------------------------------------------------------------------------------------
# Tables (rendered as Markdown and HTML)


@dataclass(frozen=True)
class Table:
    header: list[str]
    rows: list[list[str]]

    def markdown(self) -> str:
        def row(cells: list[str]) -> str:
            return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

        return "\n".join([row(self.header), row(["---"] * len(self.header)), *map(row, self.rows)])

    def html(self) -> str:
        head = "".join(f"<th>{html.escape(c)}</th>" for c in self.header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in self.rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _cell_text(tally: Cell | None) -> str:
    if tally is None:
        return ""
    if tally.accuracy is None or tally.stderr is None:
        return f"- (0 of {tally.answers} decided)"
    text = f"{tally.accuracy:.3f} ± {tally.stderr:.3f} (n={tally.decided})"
    return text + (f", {tally.undecided} undecided" if tally.undecided else "")


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def task_table(report: Report) -> Table:
    rows = [
        [kind] + [_cell_text(report.cells.get((m, kind, ALL))) for m in report.models] for kind in report.kinds + [ALL]
    ]
    return Table(["task"] + report.models, rows)


def domain_table(report: Report, model: str) -> Table:
    domains = report.domains + [ALL]
    rows = [[kind] + [_cell_text(report.cells.get((model, kind, d))) for d in domains] for kind in report.kinds + [ALL]]
    return Table(["task"] + domains, rows)


def obfuscation_table(report: Report) -> Table:
    """Accuracy per model and task (rows) under each obfuscation (columns: none, mystery, random)."""
    modes = report.obfuscations
    rows = []
    for model in report.models:
        for kind in report.kinds + [ALL]:
            tallies = [report.obfuscation_cells.get((model, kind, mode)) for mode in modes]
            if any(t is not None for t in tallies):
                rows.append([model, kind] + [_cell_text(t) for t in tallies])
    return Table(["model", "task"] + modes, rows)


def solvable_table(report: Report) -> Table:
    """Accuracy per model and task (rows) on records a plan solves and on records none does (columns), for the
    tasks with answers to records no plan solves."""
    asked = {a.kind for a in report.answers if not a.solvable}
    rows = []
    for model in report.models:
        for kind in [k for k in report.kinds if k in asked] + [ALL]:
            tallies = [report.solvable_cells.get((model, kind, solvable)) for solvable in (True, False)]
            if any(t is not None for t in tallies):
                rows.append([model, kind] + [_cell_text(t) for t in tallies])
    return Table(["model", "task", "solvable", "no plan exists"], rows)


def set_table(report: Report) -> Table:
    rows = []
    for model in report.models:
        for kind in TASKS:
            measure = report.set_measures.get((model, kind))
            if measure is not None:
                exact = measure.exact.accuracy
                rows.append(
                    [model, kind, str(measure.answers), _number(exact), _number(measure.jaccard), _number(measure.f1)]
                )
    return Table(["model", "task", "answers", "exact accuracy", "mean Jaccard", "mean F1"], rows)


def category_table(report: Report) -> Table:
    rows = []
    for model in report.models:
        for kind in report.kinds + [ALL]:
            counts = report.categories.get((model, kind))
            if counts:
                rows.append([model, kind] + [str(counts[c]) for c in CATEGORIES])
    return Table(["model", "task", *CATEGORIES], rows)


def difficulty_table(report: Report, difficulty: Difficulty) -> Table:
    rows = []
    for index, (lo, hi) in enumerate(difficulty.bins):
        label = str(lo) if lo == hi else f"{lo}-{hi}"
        rows.append([label] + [_cell_text(difficulty.cells.get((m, index))) for m in report.models])
    return Table([difficulty.feature.label] + report.models, rows)


# ---------------------------------------------------------------------------------------------
# Figures


@dataclass(frozen=True)
class Plot:
    """A drawn figure: its file stem, title (also the figure's own title) and the matplotlib figure."""

    name: str
    title: str
    figure: Figure


def _matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError as err:
        raise ToolError(
            "acp report draws its figures with matplotlib, which is not installed: pip install -e '.[report]'"
        ) from err


def _bar_plot(report: Report) -> Plot:
    from matplotlib.figure import Figure

    kinds = report.kinds
    figure = Figure(figsize=(min(14.0, max(6.0, 0.3 * len(kinds) * len(report.models) + 2)), 4.5), layout="constrained")
    axes = figure.subplots()
    width = 0.8 / len(report.models)
    for m, model in enumerate(report.models):
        tallies = [report.cells.get((model, kind, ALL)) for kind in kinds]
        xs = [i + (m - (len(report.models) - 1) / 2) * width for i in range(len(kinds))]
        ys = [t.accuracy if t and t.accuracy is not None else math.nan for t in tallies]
        errs = [t.stderr if t and t.stderr is not None else 0.0 for t in tallies]
        axes.bar(xs, ys, width, yerr=errs, capsize=3, label=model)
    title = "Accuracy per task"
    axes.set_title(title)
    axes.set_xlabel("task")
    axes.set_ylabel("accuracy (decided answers, ± standard error)")
    axes.set_xticks(range(len(kinds)), kinds, rotation=45, ha="right")
    axes.set_ylim(0, 1.05)
    axes.legend(title="model", fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return Plot("accuracy_by_task", title, figure)


def _obfuscation_plot(report: Report) -> Plot:
    from matplotlib.figure import Figure

    kinds, models, modes = report.kinds, report.models, report.obfuscations
    width = min(14.0, max(6.0, 0.3 * len(kinds) * len(modes) + 3))
    figure = Figure(figsize=(width, 3.2 * len(models) + 0.6), layout="constrained")
    grid = figure.subplots(len(models), 1, squeeze=False)[:, 0]
    bar = 0.8 / len(modes)
    for axes, model in zip(grid, models):
        for i, mode in enumerate(modes):
            tallies = [report.obfuscation_cells.get((model, kind, mode)) for kind in kinds]
            xs = [k + (i - (len(modes) - 1) / 2) * bar for k in range(len(kinds))]
            ys = [t.accuracy if t and t.accuracy is not None else math.nan for t in tallies]
            errs = [t.stderr if t and t.stderr is not None else 0.0 for t in tallies]
            axes.bar(xs, ys, bar, yerr=errs, capsize=3, label=mode)
        axes.set_title(f"Accuracy per task and obfuscation: {model}")
        axes.set_xlabel("task")
        axes.set_ylabel("accuracy (decided answers, ± standard error)")
        axes.set_ylim(0, 1.05)
        axes.set_xticks(range(len(kinds)), kinds, rotation=45, ha="right")
    grid[0].legend(title="obfuscation", fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    title = "Accuracy per task: plain and obfuscated"
    figure.suptitle(title)
    return Plot("accuracy_by_obfuscation", title, figure)


def _heat_map(report: Report) -> Plot:
    from matplotlib.figure import Figure

    kinds, domains = report.kinds, report.domains
    models = report.models
    size = (max(4.0, 0.5 * len(domains) + 2.5) * len(models) + 1, max(3.5, 0.3 * len(kinds) + 2))
    figure = Figure(figsize=size, layout="constrained")
    grid = figure.subplots(1, len(models), squeeze=False)[0]
    image = None
    for axes, model in zip(grid, models):
        values = [
            [
                t.accuracy if (t := report.cells.get((model, kind, d))) and t.accuracy is not None else math.nan
                for d in domains
            ]
            for kind in kinds
        ]
        image = axes.imshow(values, vmin=0.0, vmax=1.0, cmap="viridis", aspect="auto")
        for r, row in enumerate(values):
            for c, value in enumerate(row):
                if not math.isnan(value):
                    color = "black" if value > 0.6 else "white"
                    axes.text(c, r, f"{value:.2f}", ha="center", va="center", fontsize=7, color=color)
        axes.set_title(f"Accuracy per task and domain: {model}")
        axes.set_xlabel("domain")
        axes.set_ylabel("task")
        axes.set_xticks(range(len(domains)), domains, rotation=45, ha="right")
        axes.set_yticks(range(len(kinds)), kinds)
    if image is not None:
        figure.colorbar(image, ax=list(grid), label="accuracy")
    title = "Accuracy per task x domain"
    figure.suptitle(title)
    return Plot("heatmap_task_domain", title, figure)


def _category_plot(report: Report) -> Plot:
    from matplotlib.figure import Figure

    kinds, models = report.kinds, report.models
    figure = Figure(figsize=(min(14.0, max(6.0, 0.45 * len(kinds) + 3)), 3.2 * len(models) + 0.6), layout="constrained")
    grid = figure.subplots(len(models), 1, squeeze=False)[:, 0]
    colors = ["#2ca02c", "#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
    for axes, model in zip(grid, models):
        totals = [sum(report.categories.get((model, kind), Counter()).values()) for kind in kinds]
        bottoms = [0.0] * len(kinds)
        for name, color in zip(CATEGORIES, colors):
            counts = [report.categories.get((model, kind), Counter())[name] for kind in kinds]
            shares = [c / t if t else 0.0 for c, t in zip(counts, totals)]
            axes.bar(range(len(kinds)), shares, 0.7, bottom=bottoms, label=name, color=color)
            bottoms = [b + c for b, c in zip(bottoms, shares)]
        axes.set_title(f"Answer categories: {model}")
        axes.set_xlabel("task")
        axes.set_ylabel("share of answers")
        axes.set_ylim(0, 1)
        axes.set_xticks(range(len(kinds)), kinds, rotation=45, ha="right")
    grid[0].legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    title = "Answer categories per task"
    figure.suptitle(title)
    return Plot("answer_categories", title, figure)


def _difficulty_plot(report: Report, difficulty: Difficulty) -> Plot:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.5, 4.5), layout="constrained")
    axes = figure.subplots()
    for model in report.models:
        points = [
            (mean, t.accuracy, t.stderr)
            for index, mean in enumerate(difficulty.means)
            if (t := difficulty.cells.get((model, index))) and t.accuracy is not None and t.stderr is not None
        ]
        if points:
            xs, ys, errs = zip(*points)
            axes.errorbar(xs, ys, yerr=errs, marker="o", capsize=3, label=model)
    title = f"Accuracy against {difficulty.feature.label}"
    axes.set_title(title)
    axes.set_xlabel(f"{difficulty.feature.label} (mean of each range)")
    axes.set_ylabel("accuracy (decided answers, ± standard error)")
    axes.set_ylim(-0.05, 1.05)
    axes.legend(title="model", fontsize="small")
    return Plot(f"difficulty_{difficulty.feature.name}", title, figure)


def draw(report: Report) -> list[Plot]:
    """The report's figures: bars per task and model, bars per task and obfuscation (when some answers
    are to obfuscated records), the task x domain heat maps, the answer categories, and accuracy
    against each difficulty feature the records carry."""
    _matplotlib()
    plots = [_bar_plot(report)]
    plots += [_obfuscation_plot(report)] if report.obfuscated else []
    plots += [_heat_map(report), _category_plot(report)]
    plots += [_difficulty_plot(report, d) for d in report.difficulty]
    return plots


def render(plot: Plot, fmt: str) -> bytes:
    """PNG or SVG bytes of a figure, the same for the same report (no dates, fixed SVG ids, text kept as text)."""
    import matplotlib

    buffer = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "acp-report"}):
        plot.figure.savefig(buffer, format=fmt, dpi=110, metadata=metadata)
    return buffer.getvalue()


# ---------------------------------------------------------------------------------------------
# Writing


def _sections(report: Report) -> list[tuple[str, str, Table | None]]:
    """(heading, prose, table) of every section, shared by the Markdown and the HTML page."""
    counts = Counter(a.model for a in report.answers)
    models = ", ".join(f"{m} ({counts[m]} answers)" for m in report.models)
    sections: list[tuple[str, str, Table | None]] = [
        (
            "Sources",
            f"Score files: {', '.join(report.sources)}. Models: {models}. Accuracy is over decided answers "
            "with the binomial standard error sqrt(p(1-p)/n); undecided answers (a planner gave no answer) "
            "are left out and counted apart.",
            None,
        ),
        ("Accuracy per task", "accuracy ± standard error (n = decided answers)", task_table(report)),
    ]
    if report.obfuscated:
        sections.append(
            (
                "Accuracy per task and obfuscation",
                "accuracy ± standard error (n = decided answers) on plain records (none) and obfuscated ones "
                "(mystery: names replaced by unrelated words; random: by random strings), side by side. The "
                "other tables pool them: an obfuscated record counts under its original domain.",
                obfuscation_table(report),
            )
        )
    if report.impossible:
        sections.append(
            (
                "Accuracy on problems no plan solves",
                "accuracy ± standard error (n = decided answers) on records a plan solves and on records none does "
                "(the plan tasks' impossible questions, whose right answer is that no plan exists), apart; the "
                "tasks with such records only, and all answers.",
                solvable_table(report),
            )
        )
    for model in report.models:
        sections.append((f"Accuracy per task and domain: {model}", "", domain_table(report, model)))
    if report.dataset is None:
        sections.append(
            (
                "Set similarity (app, prog)",
                "Skipped: the score files do not carry the records; pass --dataset with the scored records.",
                None,
            )
        )
    else:
        note = (
            f"Records: {report.dataset}. Mean over decided answers of the Jaccard similarity and F1 of the "
            "answered set against the stored true set (prog: effects as (positive|negative, atom) pairs); "
            "an answer that could not be parsed counts 0."
        )
        if report.without_record:
            note += f" {report.without_record} answers have no record in the dataset and are left out."
        sections.append(("Set similarity (app, prog)", note, set_table(report) if report.set_measures else None))
    sections.append(("Answer categories", "answers per category (from status and reason)", category_table(report)))
    if report.dataset is None:
        sections.append(("Accuracy against difficulty", "Skipped: pass --dataset with the scored records.", None))
    elif not report.difficulty:
        sections.append(("Accuracy against difficulty", "The records carry none of the difficulty features.", None))
    for difficulty in report.difficulty:
        sections.append(
            (
                f"Accuracy against {difficulty.feature.label}",
                "answers grouped into ranges of about equal size",
                difficulty_table(report, difficulty),
            )
        )
    return sections


def _figures_after(report: Report) -> int:
    """The index of the section the figures come before: they follow the per-task table (and the
    per-obfuscation one, if any), so the page opens with the overview and the detail tables come after."""
    return 3 if report.obfuscated else 2


def markdown(report: Report, plots: list[Plot]) -> str:
    parts = ["# acp report", ""]
    figures_after = _figures_after(report)
    for index, (heading, prose, table) in enumerate(_sections(report)):
        if index == figures_after:
            parts += ["## Figures", ""]
            for plot in plots:
                parts += [
                    f"![{plot.title}]({plot.name}.png)",
                    "",
                    f"*{plot.title}*: `{plot.name}.png`, `{plot.name}.svg`",
                ]
                parts += [""]
        parts += [f"## {heading}", ""]
        if prose:
            parts += [prose, ""]
        if table is not None:
            parts += [table.markdown(), ""]
    return "\n".join(parts)


_STYLE = (
    "body{font-family:sans-serif;max-width:1400px;margin:2em auto;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;margin:1em 0;font-size:13px}"
    "th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#eee}"
    "td:first-child,th:first-child{text-align:left}img{max-width:100%;border:1px solid #ddd}"
    "figure{margin:1.5em 0}figcaption{font-size:13px;color:#555}"
)


def html_page(report: Report, plots: list[Plot], pngs: dict[str, bytes]) -> str:
    """One self-contained page: the tables and every figure inlined as a base64 PNG."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>acp report</title>',
        f"<style>{_STYLE}</style></head><body>",
        "<h1>acp report</h1>",
    ]
    figures_after = _figures_after(report)
    for index, (heading, prose, table) in enumerate(_sections(report)):
        if index == figures_after:
            parts.append("<h2>Figures</h2>")
            for plot in plots:
                data = base64.b64encode(pngs[plot.name]).decode("ascii")
                parts.append(f'<figure><img alt="{html.escape(plot.title)}" src="data:image/png;base64,{data}">')
                parts.append(f"<figcaption>{html.escape(plot.title)} ({plot.name}.png, .svg)</figcaption></figure>")
        parts.append(f"<h2>{html.escape(heading)}</h2>")
        if prose:
            parts.append(f"<p>{html.escape(prose)}</p>")
        if table is not None:
            parts.append(table.html())
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_report(report: Report, out: Path) -> list[Path]:
    """Write ``report.md``, ``report.html`` and every figure as PNG and SVG into ``out``; the paths written."""
    out = Path(out)
    plots = draw(report)
    written: list[Path] = []
    pngs: dict[str, bytes] = {}
    for plot in plots:
        pngs[plot.name] = render(plot, "png")
        for fmt, data in (("png", pngs[plot.name]), ("svg", render(plot, "svg"))):
            path = out / f"{plot.name}.{fmt}"
            atomic_write_bytes(path, data)
            written.append(path)
    atomic_write_text(out / "report.md", markdown(report, plots))
    atomic_write_text(out / "report.html", html_page(report, plots, pngs))
    return [out / "report.md", out / "report.html", *written]
