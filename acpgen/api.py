"""acp as a library: generate verified records in memory, load datasets, score responses.

The functions here are thin: :func:`generate` runs the stages of `acp generate` (``acpgen.generation.pipeline``)
into a cache folder and reads back what the export stage wrote, so its records are byte for byte
those of the command line for the same settings; :func:`score` is the scorer of `acp score` with
the planners built once per process (``acpgen.evaluation.scoring.shared_planners``), and :func:`score_many`
is :func:`score` on worker processes the process keeps (``acpgen.evaluation.pool``). Besides them, a process
keeps, for the last 512 PDDL texts it scored, the ground task and the oracle per set of options (what
was explored and proven), so that scoring a record again is a look-up.

>>> import acpgen
>>> record = {"id": 1, "group": "applicable_actions_gen", "answer": ["(noop a)"],
...           "PDDL_domain": DOMAIN, "PDDL_problem": PROBLEM}
>>> acpgen.score(record, "(noop a)")
Score(score=1.0, status='scored', reason='correct', precision=1.0, recall=1.0)
>>> acpgen.score(record, "I do not know").status
'parse_error'
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import shutil
import tempfile
import threading
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acpgen.artefacts import scratch_folder
from acpgen.config import FORMATS, OBFUSCATIONS, PipelineConfig, load_config
from acpgen.errors import ConfigError, DataError, PddlError
from acpgen.evaluation.pool import DEFAULT_BUDGET, KEYS_KEPT, Unfinished, run_all
from acpgen.evaluation.records import dataset_files, read_json_items, record_task
from acpgen.evaluation.scoring import score_one, shared_planners
from acpgen.evaluation.validate import validate_records, validation_options
from acpgen.executors import Executor
from acpgen.generation.levels import at_level
from acpgen.generation.pipeline import run_domain, stages_up_to
from acpgen.generation.sources import DomainSource, folder_name
from acpgen.generation.stages.base import StageReport
from acpgen.generation.stages.export import export_file
from acpgen.pddl.grounding import GroundTask
from acpgen.planners import Planners, PlannerSetup
from acpgen.proofs.equivalence import Pair, check_pairs, pair_line
from acpgen.proofs.features import MAX_STATES, state_features
from acpgen.proofs.oracle import Oracle
from acpgen.tasks import TASKS, RecordContext, ScoreOptions, Verdict, get_task, missing_fields, split_kind
from acpgen.tasks.base import oracle_options
from acpgen.tasks.choice import to_response

# A one-action toy domain for the examples of this module's docstrings (tests/test_api.py passes them
# as DOMAIN and PROBLEM).
_DOCTEST_DOMAIN = """(define (domain toy) (:requirements :strips :typing) (:types thing)
 (:predicates (here ?x - thing) (done ?x - thing))
 (:action noop :parameters (?x - thing) :precondition (here ?x) :effect (done ?x)))"""
_DOCTEST_PROBLEM = """(define (problem p) (:domain toy) (:objects a b - thing)
 (:init (here a)) (:goal (done a)))"""


@dataclass(frozen=True)
class Score:
    """The verdict on one response.

    ``score`` is 1.0 or 0.0; ``status`` is ``scored``, ``parse_error`` (no answer could be read;
    score 0) or ``undecided`` (a planner could not decide; never a silent 0: leave it out of an
    accuracy); ``reason`` says why. For tasks whose answers are sets (app: actions, prog:
    effects), ``precision`` and ``recall`` of the answered set against the stored true set (0.0 for
    an unreadable answer); None for the other tasks and formats, and for undecided answers.
    ``details``: every field of the score row (`acp score --output`): F1 for set answers, and for
    plans ``valid``, ``reaches_goal``, ``prefix``, ``goal_fraction``, ``failure`` and the rest.
    """

    score: float
    status: str
    reason: str
    precision: float | None = None
    recall: float | None = None
    details: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


def _kind(record: Any) -> str:
    """The record's kind (``app``, ``app.bool``...); DataError for what is no acp or reference record."""
    if not isinstance(record, dict):
        raise DataError(f"a record is a dict (a line of a records file), not {type(record).__name__}")
    kind = record_task(record)
    if kind is None:
        raise DataError(
            f"record {record.get('id')!r}: no known task (its 'task' is {record.get('task')!r}, its 'group' "
            f"{record.get('group')!r}); `acp tasks` lists the tasks and their groups"
        )
    missing = missing_fields(kind, record)
    if missing:
        raise DataError(f"record {record.get('id')!r} ({kind}): no {', '.join(missing)} field")
    return kind


def score(
    record: dict,
    response: str | None,
    recheck: bool = False,
    *,
    trust_stored: bool = False,
    strict_just: bool = False,
    strict: bool = False,
) -> Score:
    """Score one model response against one record (any acp or reference record, any format).

    Stored answer sets of records acp proved itself decide where they can; answers to other records
    (reference data) are re-proven, as `acp score` does. ``recheck``: re-prove every answer (`acp
    score --recheck`); ``trust_stored``: trust every stored set (`--trust-stored`); ``strict_just``:
    `--strict-just`; ``strict``: the strict reading for rewards (a part of a set answer that reads as
    nothing makes it wrong; see :class:`acpgen.tasks.ScoreOptions`). A record that is not one raises
    :class:`acpgen.errors.DataError`; a record whose
    PDDL cannot be read scores ``undecided`` (reason "record PDDL error"), as in `acp score`; a
    response from which no answer can be read (or None) scores 0 with status ``parse_error``. The
    scoring is :func:`acpgen.evaluation.scoring.score_one`, the one path of every caller. Safe to call from
    several threads (calls that need a planner take turns) and in forked processes.

    >>> record = {"id": 7, "group": "applicable_actions_gen", "answer": ["(noop a)"],
    ...           "PDDL_domain": DOMAIN, "PDDL_problem": PROBLEM}
    >>> acpgen.score(record, "(noop a) (noop b)")
    Score(score=0.0, status='scored', reason='missing 0, not applicable 1', precision=0.5, recall=1.0)
    >>> acpgen.score({"id": 1, "group": "applicable_actions_bool", "answer": "yes"}, "**Final Answer**: Yes").score
    1.0
    """
    kind = _kind(record)
    text = None if response is None else str(response)
    options = ScoreOptions(recheck=recheck, trust_stored=trust_stored, strict_just=strict_just, strict_reading=strict)
    if split_kind(kind)[1] != "gen":
        return _as_score(score_one(RecordContext(record, options), kind, text))
    try:
        grounded = _GROUNDED.entry(record)
    except PddlError as err:
        return _as_score(Verdict.undecided(f"record PDDL error: {err}"))
    with shared_planners() as planners:
        ctx = _Context(record, options, planners, grounded)
        verdict = score_one(ctx, kind, text)
        ctx.keep_oracle(grounded)
    return _as_score(verdict)


@dataclass
class _Grounded:
    """A record's ground task and the oracles scoring made on it, one per set of options (each keeps
    what it explored and decided; they hold this process's planners)."""

    task: GroundTask
    oracles: dict[tuple, Oracle] = field(default_factory=dict)  # by _oracle_key


class _GroundedTasks:
    """The ground tasks (and oracles) of the records scored last in this process (at most ``size``),
    keyed by the digest of their PDDL texts: grounding, exploring and planning are the time of a score,
    and a training loop scores the same records again and again. What is kept depends on the PDDL text
    and the options only, never on a record's stored answer or on a response."""

    def __init__(self, size: int = KEYS_KEPT):
        self.size = size
        self._entries: OrderedDict[bytes, _Grounded] = OrderedDict()
        self._lock = threading.Lock()

    def entry(self, record: dict) -> _Grounded:
        domain, problem = str(record["PDDL_domain"]), str(record["PDDL_problem"])
        key = hashlib.sha256(f"{len(domain)}:{domain}{problem}".encode()).digest()
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        entry = _Grounded(GroundTask.from_strings(domain, problem, f"record {record.get('id')}"))
        with self._lock:
            entry = self._entries.setdefault(key, entry)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return entry

    def get(self, record: dict) -> GroundTask:
        """The record's ground task."""
        return self.entry(record).task

    def after_fork_in_child(self) -> None:
        """A forked child gets its own lock (the parent's may have been held by another thread) and no
        oracles (they hold the parent's planners); ground tasks are plain data and stay."""
        self._lock = threading.Lock()
        for entry in self._entries.values():
            entry.oracles.clear()


_GROUNDED = _GroundedTasks()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_GROUNDED.after_fork_in_child)


def ground_task(record: dict) -> GroundTask:
    """The record's ground task, kept for the process with the tasks :func:`score` grounds (keyed by its PDDL
    texts): a training loop that starts many episodes from the same records grounds each once."""
    return _GROUNDED.get(record)


class _Context(RecordContext):
    """A record's scoring context with its ground task (and its oracle for these options, once made)
    kept from earlier scores of records with the same PDDL."""

    def __init__(self, record: dict, options: ScoreOptions, planners: Planners, grounded: _Grounded):
        super().__init__(record, options, planners)
        self.__dict__["task"] = grounded.task  # RecordContext.task is a cached property: this is its value
        key = _oracle_key(options)
        if key in grounded.oracles:
            self.__dict__["oracle"] = grounded.oracles[key]

    def keep_oracle(self, grounded: _Grounded) -> None:
        """Keep the oracle this context made (if it made one) for the next score with these options."""
        if "oracle" in self.__dict__:
            grounded.oracles.setdefault(_oracle_key(self.options), self.__dict__["oracle"])


def _oracle_key(options: ScoreOptions) -> tuple:
    """The options an oracle depends on (``acpgen.tasks.base.oracle_options``), as a key."""
    return tuple(oracle_options(options).items())


def _as_score(verdict: Verdict) -> Score:
    return Score(
        float(verdict.score),
        str(verdict.status),
        verdict.reason,
        verdict.details.get("precision"),
        verdict.details.get("recall"),
        dict(verdict.details),
    )


def score_many(
    records: Iterable[dict],
    responses: Iterable[str | None],
    workers: int = 1,
    recheck: bool = False,
    *,
    trust_stored: bool = False,
    strict_just: bool = False,
    strict: bool = False,
    budget: float | None = DEFAULT_BUDGET,
) -> list[Score]:
    """Score ``responses[i]`` against ``records[i]`` for every i, in order: what :func:`score` gives each, with
    the same options.

    ``workers`` 1 scores in this process, one answer after the other. ``workers`` N >= 2 scores on N worker
    processes (`acpgen.evaluation.pool`: scoring is CPU-bound Python, which threads of one interpreter cannot
    share), started on the first call and kept for the next ones (a trainer calls this every step; starting a
    worker takes about half a second): new interpreters that import acp only, never forks of this process, so
    a process that holds torch or CUDA may call it. Answers about the same PDDL go to the same worker, which keeps
    their ground task. ``budget``: seconds per answer on the workers (None: no limit); an answer whose scoring
    takes longer is ``undecided`` (reason "scoring took longer than its budget of 60 s"), never 0, and the worker
    running it is replaced while the others go on. An answer whose worker dies (killed, out of memory) is scored
    again, and ``undecided`` if it dies twice. In this process nothing stops a call, so ``workers`` 1 has no
    budget. The two sequences must have the same length, and every record must be one (DataError otherwise,
    before any work starts).

    >>> record = {"id": 1, "group": "applicable_actions_bool", "answer": "no"}
    >>> [s.score for s in acpgen.score_many([record, record], ["Yes", "No"])]
    [0.0, 1.0]
    """
    records, responses = list(records), list(responses)
    if len(records) != len(responses):
        raise DataError(f"score_many: {len(records)} records but {len(responses)} responses; give one response each")
    for record in {id(r): r for r in records}.values():
        _kind(record)  # a bad record raises before any work starts
    options = {"recheck": recheck, "trust_stored": trust_stored, "strict_just": strict_just, "strict": strict}
    if workers <= 1:
        return [score(r, a, **options) for r, a in zip(records, responses)]
    calls = [(r, None if a is None else str(a), options) for r, a in zip(records, responses)]
    values = run_all(_score_call, calls, workers, [pddl_key(r) for r in records], budget)
    return [_as_score(Verdict.undecided(v.reason)) if isinstance(v, Unfinished) else v for v in values]


def _score_call(record: dict, response: str | None, options: dict[str, bool]) -> Score:
    """:func:`score` as a worker of :func:`score_many` runs it."""
    return score(record, response, **options)


def pddl_key(record: dict) -> int | None:
    """The key by which :func:`score_many` sends answers about the same PDDL texts to the same worker (None for a
    record without PDDL); this process's hash, not stable across processes."""
    domain, problem = record.get("PDDL_domain"), record.get("PDDL_problem")
    return None if domain is None or problem is None else hash((str(domain), str(problem)))


def reference_answer(record: dict) -> str:
    """The record's stored answer written as a model would write it (the first line `acp
    reference-answers` writes for the record; it scores 1 unless the stored answer is wrong).

    >>> acpgen.reference_answer({"id": 1, "group": "applicable_actions_gen", "answer": ["(noop a)"],
    ...                          "PDDL_domain": DOMAIN, "PDDL_problem": PROBLEM})
    '(noop a)'
    >>> acpgen.reference_answer({"id": 1, "group": "applicable_actions_bool", "answer": "yes"})
    '**Final Answer**: Yes.'
    """
    name, fmt = split_kind(_kind(record))
    responses = TASKS[name].to_responses(record) if fmt == "gen" else [to_response(record, fmt)]
    if not responses:
        raise DataError(f"record {record.get('id')!r} ({name}): its stored answer gives no response")
    return responses[0]


def load(path: str | Path) -> list[dict]:
    """The records of a records file or folder (acp's output, `acp dataset`, the reference ACPBench
    files; JSON lists or JSONL, optionally gzip-compressed), in file order; lines that are no
    record of a known task are left out. DataError when the path holds no record.

    >>> records = acpgen.load("tests/fixtures/acpbench-dev")  # the reference dev records
    >>> len(records), sum(r["group"] == "applicable_actions_gen" for r in records)
    (880, 40)
    """
    files = dataset_files(Path(path))
    records = [r for f in files for r in read_json_items(f) if "id" in r and record_task(r) is not None]
    if not records:
        raise DataError(f"{path}: no record of a known task in {len(files)} file(s)")
    return records


def validate(
    records: Iterable[dict] | str | Path,
    *,
    jobs: int = 1,
    max_states: int = ScoreOptions.max_states,
    planner_timeout: float = 20.0,
    cache_dir: str | Path | None = None,
) -> list[dict[str, Any]]:
    """`acp validate` on records in memory, or on a records file or folder: each stored answer re-proven by a route
    of its own. One dict per record, in their order, as `acp validate --json` prints: ``id``, ``task``,
    ``verdict`` (``"ok"``, ``"wrong"``, ``"unproven"``: no proof either way, ``"error"``: the check raised) and
    ``reason``. ``jobs`` > 1: on that many processes; ``cache_dir``: planner results kept there. A record of no
    known task, or without the fields its task needs, raises DataError.

    >>> checks = acpgen.validate(acpgen.load("tests/fixtures/acpbench-dev")[:3])
    >>> [c["verdict"] for c in checks]
    ['ok', 'ok', 'ok']
    """
    chosen = load(records) if isinstance(records, str | Path) else list(records)
    items = [(_kind(record), record) for record in chosen]
    setup = PlannerSetup(cache_dir=Path(cache_dir) if cache_dir is not None else None)
    checks = validate_records(items, validation_options(max_states, planner_timeout), setup, jobs, progress=False)
    return [{**check.as_dict(), "verdict": str(check.verdict)} for check in checks]


def equivalent(domain: str, truth: str, candidate: str, placeholder: bool = False) -> dict[str, Any]:
    """`acp equivalent` on PDDL texts: ``{"parseable", "solvable", "equivalent", "reason"}`` with
    ``equivalent`` None when a planner could not decide. ``truth`` must parse (PddlError otherwise);
    a candidate that does not parse is not equivalent, with the parser's message as the reason.

    >>> acpgen.equivalent(DOMAIN, PROBLEM, PROBLEM.replace("(:objects a b", "(:objects b a"))["equivalent"]
    True
    >>> acpgen.equivalent(DOMAIN, PROBLEM, PROBLEM.replace("(done a)", "(done b)"))
    {'parseable': True, 'solvable': False, 'equivalent': False, 'reason': 'the candidate is unsolvable'}
    """
    pair = {"truth": truth, "candidate": candidate, "placeholder": placeholder}
    verdict = next(equivalent_pairs(domain, [pair]))
    if "error" in verdict:
        raise PddlError(verdict["error"])
    return verdict


def equivalent_pairs(domain: str, pairs: Iterable[dict[str, Any]], jobs: int = 1) -> Iterator[dict[str, Any]]:
    """`acp equivalent --pairs` on PDDL texts: for each ``{"truth", "candidate", "placeholder"?, "id"?}``,
    in order, the verdict with its ``id`` (when given), or ``{"id", "error"}`` when the pair could not be
    checked (its truth does not parse). Each truth is analysed once for all its candidates; ``jobs``
    processes. Raises PddlError when ``domain`` defines no domain."""
    items = list(pairs)
    checks = [Pair(i["truth"], i["candidate"], bool(i.get("placeholder", False))) for i in items]
    with Executor(jobs) as executor:
        for item, verdict in zip(items, check_pairs(domain, checks, executor=executor)):
            line = pair_line(item.get("id"), verdict)
            if "id" not in item:
                del line["id"]
            yield line


class GenerationShortfall(UserWarning):
    """`generate` made fewer records than asked for (the reason names the budget to raise)."""


def generate(
    domain: str | Iterable[str] | None,
    task: str,
    n: int = 10,
    seed: int | None = None,
    level: int | None = None,
    format: str = "gen",
    *,
    config: str | Path | PipelineConfig | None = None,
    cache_dir: str | Path | None = None,
    representation: str | None = None,
    jobs: int = 1,
    obfuscate: str | None = None,
    domain_file: str | Path | None = None,
    problems: str | Path | None = None,
    template: str | Path | None = None,
) -> Iterator[dict]:
    """Verified records of ``task`` in ``format``, ``n`` per domain, made as `acp generate` makes them.

    ``domain``: a domain of the configuration (default: acp's default ``acpgen/data/pipeline.yaml``) or
    several; records are yielded domain by domain as each is done. Your own domain, as `acp generate
    --domain-file`: ``domain_file`` (its PDDL), ``problems`` (the folder of its problem files) and
    ``template`` (its English; without one, only ``representation="pddl"``), with ``domain`` its name
    (None: the PDDL's) and no ``level``. The records are those `acp
    generate` writes to ``<task>.<format>.jsonl`` with the same config, seed and
    ``qa.questions_per_task = n`` (the first ``n`` of a run that asks for more), and for the plan tasks (plan,
    optplan, pver) after them ``ceil(qa.unsolvable_share x n)`` about problems no plan solves (``"solvable":
    false``; the configuration's share, 0.2 in acp's default, 0 for none). ``cache_dir``:
    the output folder the stages write to and resume from (default: a temporary folder removed
    when the generator is closed); planner results are cached under ``<cache_dir>/planner-cache``.
    Run one `generate` at a time per cache folder (calls with their own folders may run at once).
    ``level``: a difficulty level 1-5 (`acpgen.generation.levels`: the level's share of the domain's sizes, states
    at the level's distance from the goal); the records then end with ``level`` and ``features``
    (:func:`features`), as `acp generate --level` writes them. ``obfuscate``: ``mystery`` or
    ``random`` renames every name of the domain and its problems, as `acp generate --obfuscate`
    (the records carry ``obfuscation`` and ``renaming``). Fewer than ``n``
    records (the states cannot give more) warn with :class:`GenerationShortfall`.
    """
    source = _own_domain(domain, domain_file, problems, template, level)
    names = [source.name] if source else [domain] if isinstance(domain, str) else list(domain or ())
    if not names:
        raise ConfigError("generate: give a domain (or domain_file= and problems= for your own)")
    settings = _generation_config(config, names, task, n, seed, level, format, representation)
    settings = settings.with_overrides(obfuscate=obfuscate)
    if settings.obfuscate not in OBFUSCATIONS:
        raise ConfigError(f"obfuscate must be one of {', '.join(OBFUSCATIONS)}, not {settings.obfuscate!r}")
    if source is not None:
        source = source.obfuscated_as(settings.obfuscate, settings.seed)
        source.check_representation(settings.export.representation)
    temporary = cache_dir is None
    out = Path(tempfile.mkdtemp(prefix="acp-generate-")) if temporary else Path(cache_dir)  # type: ignore[arg-type]
    try:
        settings = settings.with_overrides(out=str(out))
        planners = settings.planner.setup(out).build()
        for name in names:
            if source is None:
                settings.domain(name)
            reports: list[StageReport] = []
            with scratch_folder() if temporary else contextlib.nullcontext():  # removed afterwards: never flushed
                run_domain(
                    settings,
                    name,
                    planners,
                    stages=stages_up_to(None),
                    progress=False,
                    jobs=jobs,
                    report=reports.append,
                    source=source,
                )
            path = export_file(out / folder_name(name, settings.obfuscate), task, format)
            records = read_json_items(path) if path.exists() else []
            if len(records) < n:
                why = "; ".join(f for r in reports for f in r.failed + r.short) or "no reason reported"
                warnings.warn(f"{name}: {len(records)} of {n} {task} {format} records ({why})", GenerationShortfall, 2)
            yield from records
    finally:
        if temporary:
            shutil.rmtree(out, ignore_errors=True)


def _own_domain(
    name: str | Iterable[str] | None,
    domain_file: str | Path | None,
    problems: str | Path | None,
    template: str | Path | None,
    level: int | None,
) -> DomainSource | None:
    """The user's domain of a `generate` call (None for built-in domains), checked as `acp generate
    --domain-file` checks it."""
    if domain_file is None:
        if problems is not None or template is not None:
            raise ConfigError("generate: problems= and template= go with domain_file= (your own domain)")
        return None
    if problems is None:
        raise ConfigError("generate: domain_file= needs problems=, the folder of your problem files")
    if level is not None:
        raise ConfigError("generate: level= chooses among a built-in generator's sizes; not with domain_file=")
    if name is not None and not isinstance(name, str):
        raise ConfigError("generate: with domain_file=, domain is the one domain's name (or None: the PDDL's)")
    return DomainSource.from_files(Path(domain_file), Path(problems), Path(template) if template else None, name)


def features(record: dict, state: dict | None = None, max_states: int = MAX_STATES) -> dict:
    """The features of a record's state (`acpgen.proofs.features.state_features`; records of a level carry
    them): objects, propositions, state atoms, applicable actions, reachable states and optimal plan
    length (None beyond ``max_states`` states), and the remaining plan length from ``state``, the
    state's line of ``states.jsonl``, where given.

    >>> features({"id": 1, "group": "applicable_actions_gen", "answer": [], "PDDL_domain": DOMAIN,
    ...           "PDDL_problem": PROBLEM})
    {'objects': 2, 'propositions': 2, 'state_atoms': 0, 'applicable': 1, 'reachable_states': 2, \
'optimal_plan_length': 1, 'plan_length': None}
    """
    _kind(record)
    return state_features(_GROUNDED.get(record), state, max_states)


def _generation_config(
    config: str | Path | PipelineConfig | None,
    domains: list[str],
    task: str,
    n: int,
    seed: int | None,
    level: int | None,
    fmt: str,
    representation: str | None,
) -> PipelineConfig:
    """The configuration of a `generate` call: the file's, with the call's values in place."""
    base = config if isinstance(config, PipelineConfig) else load_config(Path(config) if config else None)
    name = get_task(task).name
    if fmt not in FORMATS:
        raise ConfigError(f"format {fmt!r}: choose from {', '.join(FORMATS)}")
    if fmt != "gen" and TASKS[name].choice is None:
        raise ConfigError(f"task {name} has no {fmt} format (only gen); `acp tasks` lists the formats")
    if not isinstance(n, int) or n < 1:
        raise ConfigError(f"n must be a positive number of records per domain, not {n!r}")
    qa = dataclasses.replace(base.qa, questions_per_task=n, tasks=(name,), formats=(fmt,))
    export = dataclasses.replace(base.export, representation=representation or base.export.representation)
    settings = base.with_overrides(seed=seed, qa=qa, export=export)
    if level is not None:
        settings = at_level(settings, domains, level)
    return settings
