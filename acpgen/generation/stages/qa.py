"""Stage 4, qa: problems + plans + states -> OUT/D/qa/<task>.jsonl (symbolic questions and answers).

For each task, candidate states are taken in a seeded order that alternates between problems;
the task module generates the stored answer (or skips the state), and the answer is then
re-proven through :func:`Task.validate` by another route (planners and the delete relaxation
instead of exhaustive exploration, by default). Only verified questions are written. Records
carry the reference fields (``id``, ``group``, ``answer``, ``PDDL_domain``, ``PDDL_problem``
with the state as ``:init``) plus what the scorer needs as structured data (``plan``,
``action``), so neither scoring nor validation re-derives anything from prose.

A file is kept while its stamp (`stamp`) is unchanged and it is what the current question and
candidate budgets would give (`_settled`). A file short of questions records why in
``stamps/qa.json`` and is reported as a failure on every run until a larger budget completes it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import math
import multiprocessing
import random
import time
import uuid
from collections.abc import Callable, Generator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from functools import cached_property, partial
from itertools import zip_longest
from pathlib import Path
from typing import Any

from acpgen import executors
from acpgen.artefacts import atomic_write_text, jsonl_text
from acpgen.config import PipelineConfig, QAConfig
from acpgen.errors import ConfigError, PddlError
from acpgen.generation.stages.base import StageContext, StageReport, StageWork, Unit
from acpgen.generation.stamps import digest_of, input_digests
from acpgen.nl.template_patterns import PatternDecl
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.render import render_problem
from acpgen.planners import Limits
from acpgen.proofs.claims import Claim
from acpgen.proofs.features import MAX_STATES, ProblemSpace, problem_space, size_and_cost, state_features
from acpgen.proofs.oracle import WALKS
from acpgen.tasks import TASKS, RecordContext, ScoreOptions, kind_of, task_formats
from acpgen.tasks.base import OK, Check, QAItem
from acpgen.tasks.choice import LABELS, ChoiceFormats, Claims, pick_bool, pick_mcq, verify

log = logging.getLogger(__name__)


def record_id(seed: int, uid: str) -> int:
    """A signed 64-bit id (like the reference ids), stable for the seed and the question's path."""
    return int.from_bytes(hashlib.sha256(f"{seed}/{uid}".encode()).digest()[:8], "big", signed=True)


class QASource:
    """The domain's problems, plans and states, with states ordered for selection."""

    def __init__(self, ctx: StageContext):
        self.ctx = ctx
        self.domain_text = ctx.domain_text
        self.tasks: dict[str, GroundTask] = {}
        self.plans: dict[str, list[list[str]]] = {}
        self.renamings: dict[str, dict[str, Any] | None] = {}
        by_problem: dict[str, list[dict]] = {}
        for line in ctx.states_file.read_text().splitlines():
            state = json.loads(line)
            by_problem.setdefault(state["problem"], []).append(state)
        self.by_problem = by_problem

    def task(self, problem: str) -> GroundTask:
        if problem not in self.tasks:
            unsolvable = problem in self.unsolvable
            folder = self.ctx.unsolvable_dir if unsolvable else self.ctx.problems_dir
            text = (folder / f"{problem}.pddl").read_text()
            self.tasks[problem] = GroundTask.from_strings(self.domain_text, text, problem)
            plans = [] if unsolvable else json.loads((self.ctx.plans_dir / f"{problem}.json").read_text())["plans"]
            self.plans[problem] = [p["actions"] for p in plans]
        return self.tasks[problem]

    @cached_property
    def unsolvable(self) -> dict[str, list[dict]]:
        """The states of the unsolvable problems (``unsolvable/states.jsonl``), by problem."""
        path = self.ctx.unsolvable_dir / "states.jsonl"
        by_problem: dict[str, list[dict]] = {}
        for line in path.read_text().splitlines() if path.is_file() else ():
            state = json.loads(line)
            by_problem.setdefault(state["problem"], []).append(state)
        return by_problem

    def unsolvable_candidates(self, task_name: str, fmt: str = "gen") -> list[dict]:
        """The unsolvable problems' states in a seeded order, alternating between problems."""
        rng = self.ctx.rng("qa-unsolvable-order", task_name, fmt)
        shuffled = []
        for problem in sorted(self.unsolvable):
            states = list(self.unsolvable[problem])
            rng.shuffle(states)
            shuffled.append(states)
        return [s for group in zip_longest(*shuffled) for s in group if s is not None]

    def candidates(self, task_name: str, fmt: str = "gen") -> list[dict]:
        """States in a seeded order, alternating between problems so questions spread over them."""
        rng = self.ctx.rng("qa-order", task_name) if fmt == "gen" else self.ctx.rng("qa-order", task_name, fmt)
        shuffled = []
        accepts = TASKS[task_name].accepts
        for problem in sorted(self.by_problem):
            states = [s for s in self.by_problem[problem] if accepts(s)]
            rng.shuffle(states)
            shuffled.append(states)
        order = [s for group in zip_longest(*shuffled) for s in group if s is not None]
        return order

    def space(self, problem: str, task: GroundTask) -> ProblemSpace:
        """The features' exploration of a problem (for records of a difficulty level) in the domain of ``task``, a
        state of it: from the problem's initial state in the run's domain; in another domain (a ramification
        variant), from the first state asked about in it. Shared by the units of this process
        (:func:`~acpgen.proofs.features.problem_space`)."""
        return problem_space(self.task(problem) if task.lifted.domain_text == self.domain_text else task)

    def item(self, state: dict) -> QAItem:
        self.task(state["problem"])
        suffix = None
        if state.get("source") == "plan":
            suffix = self.plans[state["problem"]][state["plan"]][state["step"] :]
        return QAItem(state, suffix, self.wrong_actions, self.problem_texts, self.patterns)

    @cached_property
    def patterns(self) -> tuple[PatternDecl, ...]:
        """The abstract patterns the domain's template declares (t2p); none in an obfuscated run."""
        return self.ctx.source.declared_patterns

    @cached_property
    def problem_texts(self) -> tuple[str, ...]:
        """The PDDL texts of the domain's problems, in file-name order."""
        return tuple((self.ctx.problems_dir / f"{p}.pddl").read_text() for p in sorted(self.by_problem))

    @cached_property
    def wrong_actions(self) -> tuple[tuple[str, ...], ...]:
        """Argument types of the domain template's wrong-action texts (areach and val distractors)."""
        return tuple(tuple(w.types.values()) for w in self.ctx.source.wrong_actions)

    def renaming(self, problem: str) -> dict[str, Any] | None:
        """The renaming of the problem in an obfuscated run (its ``pNNN.renaming.json``), else None."""
        if problem not in self.renamings:
            folder = self.ctx.unsolvable_dir if problem in self.unsolvable else self.ctx.problems_dir
            path = self.ctx.renaming_file(folder / f"{problem}.pddl")
            self.renamings[problem] = json.loads(path.read_text()) if self.ctx.source.obfuscation != "none" else None
        return self.renamings[problem]

    def base_record(self, task_name: str, state: dict, fmt: str = "gen") -> dict:
        problem_task = self.task(state["problem"])
        renaming = self.renaming(state["problem"])
        mask = problem_task.static_mask | problem_task.mask_of(state["atoms"])
        # the folder of the run: the domain, or ferry-mystery for an obfuscated run, whose records are other
        # questions than the plain run's about the same states and so get other uids and ids
        uid = f"{self.ctx.source.folder}/{state['id']}/{task_name}" + ("" if fmt == "gen" else f"/{fmt}")
        return {
            "id": record_id(self.ctx.config.seed, uid),
            "uid": uid,
            "task": task_name,
            **({} if fmt == "gen" else {"format": fmt}),
            "group": TASKS[task_name].group(fmt),
            "domain": self.ctx.domain,
            "problem": state["problem"],
            "state": state["id"],
            "PDDL_domain": self.domain_text,
            "PDDL_problem": render_problem(problem_task, mask, requirements=self.ctx.source.requirements),
            **({"obfuscation": renaming["mode"], "renaming": renaming} if renaming else {}),
            **({"template": self.template} if self.template is not None else {}),
        }

    @cached_property
    def template(self) -> str | None:
        """The template text the records carry (:attr:`~acpgen.generation.sources.DomainSource.carried_template`):
        read while they are made, left out of the qa files (the export stage writes it)."""
        return self.ctx.source.carried_template


def qa_settings(ctx: StageContext) -> QAConfig:
    """The qa settings of the stage's domain: the config's, with the domain's own candidate limit."""
    domain = ctx.config.domains.get(ctx.domain)
    if domain is None or domain.candidates_per_task is None:
        return ctx.config.qa
    return dataclasses.replace(ctx.config.qa, candidates_per_task=domain.candidates_per_task)


def _budgets(ctx: StageContext):
    """Planners, and the options to generate with and to verify with."""
    settings = qa_settings(ctx)
    planners = ctx.require_planners()
    limits = Limits(settings.planner_time_limit, ctx.config.planner.memory_mb, settings.planner_work)
    # Generating, a question that needs a long planner call is skipped ("in case of doubt"): no retry. Swap's closed
    # form only: ferry's would spare planner calls, and nexta's actions beyond its call budget would no longer be
    # "maybe" (the records change; ferry's formula serves scoring and rewards).
    # Each state grounded on its own: the questions follow its atom order (see ScoreOptions.shared_grounding).
    generate_options = ScoreOptions(
        recheck=True,
        max_states=settings.max_states,
        limits=limits,
        retry_factor=1.0,
        formulas=("swap",),
        walks=WALKS,
        shared_grounding=False,
    )
    verify_options = ScoreOptions(
        recheck=True,
        walks=WALKS,
        shared_grounding=False,
        max_states=settings.verify_max_states,
        limits=limits,
        second_opinion=True,
        lifted_states=settings.verify_lifted_states,
    )
    return planners, generate_options, verify_options


# propose(ctx, item, rng, records so far): the stored fields of a question about the item's state, or None
Propose = Callable[[RecordContext, QAItem, random.Random, list[dict[str, Any]]], dict[str, Any] | None]


def unsolvable_wanted(ctx: StageContext, task_name: str, fmt: str) -> int:
    """How many records of ``task_name`` in ``fmt`` ask about unsolvable problems, beside the questions per task:
    ``qa.unsolvable_share`` of them, rounded up, for a task that asks it in the format (none otherwise)."""
    settings = qa_settings(ctx)
    if fmt not in TASKS[task_name].unsolvable_formats or settings.unsolvable_share <= 0:
        return 0
    return math.ceil(settings.unsolvable_share * settings.questions_per_task)


def _collect_unsolvable(ctx: StageContext, task_name: str, fmt: str, wanted: int) -> tuple[list[dict], dict]:
    """Verified records about the unsolvable problems' states (the task's ``generate_unsolvable``, re-proven by its
    ``validate``), up to ``wanted``, and counts (tried, candidates)."""
    task, settings = TASKS[task_name], qa_settings(ctx)
    attempt = _Attempt(
        ctx,
        task_name,
        fmt,
        lambda c, item, rng, records: task.generate_unsolvable(c, item, rng, settings),
        task.validate,
    )
    candidates = attempt.source.unsolvable_candidates(task_name, fmt)
    records: list[dict[str, Any]] = []
    tried = 0
    for state in candidates[: settings.candidates_per_task]:
        if len(records) >= wanted:
            break
        tried += 1
        _, record = attempt(state, records)
        if record is not None:
            records.append(record)
    return records, {"tried": tried, "candidates": len(candidates)}


def _collect(
    ctx: StageContext,
    task_name: str,
    fmt: str,
    propose: Propose,
    check: Callable[[RecordContext], Check],
    spread: int = 1,
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Verified records of one task and format, and counts (tried, skipped, rejected, candidates).

    ``propose(ctx, item, rng, records)`` gives the stored fields of a question about the state
    (None: skip the state); ``check(ctx)`` re-proves the finished record with the verification
    budget (a fresh grounding of the record as written). ``spread``: processes the states may be tried
    on at once, for a ``propose`` that ignores the records so far (see :func:`_spread`).
    """
    settings = qa_settings(ctx)
    attempt = _Attempt(ctx, task_name, fmt, propose, check)
    candidates = attempt.source.candidates(task_name, fmt)
    states = candidates[: settings.candidates_per_task] if settings.questions_per_task > 0 else []
    records: list[dict[str, Any]] = []
    counts = {"tried": 0, "skipped": 0, "rejected": 0, "candidates": len(candidates)}
    outcomes: Generator[tuple[str, dict[str, Any] | None], None, None] = (
        _spread(attempt, states, spread, settings.questions_per_task)
        if spread > 1
        else (attempt(state, records) for state in states)
    )
    try:
        for kind, record in outcomes:  # in the order of the states, whatever process tried them
            counts["tried"] += 1
            if record is None:
                counts[kind] += 1
                continue
            records.append(record)
            if len(records) >= settings.questions_per_task:
                break
    finally:
        outcomes.close()
    return records, counts


class _Attempt:
    """A question about one candidate state: ``("ok", record)``, or ``("skipped" | "rejected", None)``."""

    def __init__(
        self, ctx: StageContext, task_name: str, fmt: str, propose: Propose, check: Callable[[RecordContext], Check]
    ):
        self.ctx, self.task_name, self.fmt, self.propose, self.check = ctx, task_name, fmt, propose, check
        self.source = QASource(ctx)
        self.planners, self.generate_options, self.verify_options = _budgets(ctx)

    def __call__(self, state: dict, records: list[dict[str, Any]]) -> tuple[str, dict[str, Any] | None]:
        ctx, task_name, fmt, source = self.ctx, self.task_name, self.fmt, self.source
        record = source.base_record(task_name, state, fmt)
        rng = ctx.rng("qa", task_name, state["id"]) if fmt == "gen" else ctx.rng("qa", task_name, fmt, state["id"])
        generating = RecordContext(record, self.generate_options, self.planners)
        texts = (record["PDDL_domain"], record["PDDL_problem"])
        try:
            fields = self.propose(generating, source.item(state), rng, records)
        except PddlError as err:
            log.warning("%s %s %s: %s", task_name, fmt, state["id"], err)
            fields = None
        if fields is None:
            return "skipped", None
        record.update(fields)
        result = self.check(RecordContext(record, self.verify_options, self.planners))
        if result.verdict != OK:
            log.warning("%s %s %s: not verified (%s: %s)", task_name, fmt, state["id"], result.verdict, result.reason)
            return "rejected", None
        if ctx.config.export.level is not None:
            record["features"] = _features(generating, texts, self.generate_options, source)
        return "ok", record


#: the attempts being spread over processes, by token: forked workers find theirs here (see :func:`_spread`)
_SPREADING: dict[str, tuple[_Attempt, list[dict], _Claims]] = {}


def _spread(
    attempt: _Attempt, states: list[dict], processes: int, wanted: int | None = None
) -> Generator[tuple[str, dict[str, Any] | None], None, None]:
    """The outcomes of ``attempt`` on ``states``, in their order, the states tried on ``processes`` processes at
    once trying them here alone no longer pays (:func:`acpgen.executors.alone`, as the local executor starts its
    processes; the states left counted as ``wanted`` records less those tried, when fewer). Each question depends
    on its state and its seed alone (not on the records so far: open-ended questions), so the outcomes are those of
    trying the states one after the other; the caller stops taking them when it has enough, and the states a
    process has started beyond that point are tried for nothing.

    The states are shared out by problem, all the states of a problem to one process (which grounds and explores
    the problem once), and a problem goes to the process that reaches it first: a process ready for a state takes
    the first one nobody has taken whose problem is its own or nobody's yet (:class:`_Claims`). So each works
    near the front of the order, and a process with smaller problems takes more of them (a level's problem sizes
    alternate: shared out in turn, one process would get all the large ones). This process keeps the problems it
    tried before the others started and gives the outcomes in order; while the next one is a worker's and not
    there yet, it tries its own next state. ``processes - 1`` workers are forked from this process (with its
    groundings and explorations so far), each with :data:`_AHEAD` requests for a state queued (a request takes
    its state when the worker starts it; those not started when the caller stops are never run). With fewer
    problems than processes, each state is a share of its own. Where processes cannot be forked, the states
    are tried here."""
    started, done = time.perf_counter(), 0

    def left() -> int:
        return len(states) - done if wanted is None else max(1, min(len(states), wanted) - done)

    while done < len(states) and (executors.alone(started, done, left()) or not _can_fork()):
        yield attempt(states[done], [])
        done += 1
    if done == len(states):
        return
    context = multiprocessing.get_context("fork")
    claims = _Claims(context, states, done, processes)
    token = uuid.uuid4().hex
    _SPREADING[token] = (attempt, states, claims)
    pools = {w: ProcessPoolExecutor(1, mp_context=context) for w in range(1, processes)}
    requests: dict[int, list[Future]] = {w: [] for w in pools}  # by worker still working: its requests not read
    ready: dict[int, tuple[str, dict[str, Any] | None] | Exception] = {}  # outcomes by position, ahead of their turn
    try:
        while done < len(states):
            for w in list(requests):
                _read(requests, w, ready)
                while w in requests and len(requests[w]) < _AHEAD:
                    requests[w].append(pools[w].submit(_attempt_next, token, w))
            if done in ready:
                outcome = ready.pop(done)
                if isinstance(outcome, Exception):
                    raise outcome
                yield outcome
                done += 1
                continue
            position = claims.take(0)
            if position is not None:  # this process's next state (the one due, unless a worker has it)
                try:
                    ready[position] = attempt(states[position], [])
                except Exception as err:  # raised when its turn comes: the caller may stop before
                    ready[position] = err
                continue
            running = [r for rs in requests.values() for r in rs]
            if not running:
                raise RuntimeError(f"state {done} of {len(states)} was taken by no process")
            wait(running, return_when=FIRST_COMPLETED)  # everything left is the workers': wait for one
    finally:
        claims.stop()
        for pool in pools.values():
            pool.shutdown(wait=True, cancel_futures=True)
        _SPREADING.pop(token, None)


def _read(requests: dict[int, list[Future]], worker: int, ready: dict[int, Any]) -> None:
    """The outcomes of ``worker``'s finished requests into ``ready``, by position; a request that found no state
    left for the worker ends its requests (there will be none later: states are only ever taken)."""
    for request in [r for r in requests[worker] if r.done()]:
        requests[worker].remove(request)
        position, outcome = request.result()
        if position is None:
            for other in requests.pop(worker):
                other.cancel()  # any that runs finds nothing either
            return
        ready[position] = outcome


#: requests for a state queued per worker (those it has not started when the caller stops are never run)
_AHEAD = 4


class _Claims:
    """Which process has taken which state, and whose each share of the states is (a problem: see :func:`_spread`),
    in memory the forked workers share with this process. The states before ``done`` are taken, and their shares
    this process's (0)."""

    def __init__(self, context, states: list[dict], done: int, processes: int) -> None:
        problems = {str(state.get("problem", "")) for state in states[done:]}
        names = [str(s.get("problem", "")) if len(problems) >= processes else str(i) for i, s in enumerate(states)]
        numbers = {name: k for k, name in enumerate(dict.fromkeys(names))}
        self.share = [numbers[name] for name in names]
        self.lock = context.Lock()
        self.taken = context.RawArray("b", [1] * done + [0] * (len(states) - done))
        self.owner = context.RawArray("i", [-1] * len(numbers))
        for i in range(done):
            self.owner[self.share[i]] = 0
        self.first = context.RawValue("i", done)  # no state before it is left
        self.stopped = context.RawValue("b", 0)

    def take(self, process: int) -> int | None:
        """The first state not taken whose share is ``process``'s or nobody's (then ``process``'s), now taken by
        it; None when there is none, or the caller has stopped."""
        with self.lock:
            if self.stopped.value:
                return None
            taken, owner, share = self.taken, self.owner, self.share
            while self.first.value < len(share) and taken[self.first.value]:
                self.first.value += 1
            for i in range(self.first.value, len(share)):
                if not taken[i] and owner[share[i]] in (-1, process):
                    taken[i], owner[share[i]] = 1, process
                    return i
        return None

    def stop(self) -> None:
        with self.lock:
            self.stopped.value = 1


def _attempt_next(token: str, worker: int) -> tuple[int | None, tuple[str, dict[str, Any] | None] | Exception | None]:
    """A forked worker's request (see :func:`_spread`): (the position of the state it took, its outcome or the
    exception trying it raised), or (None, None) when no state is left for it."""
    attempt, states, claims = _SPREADING[token]
    position = claims.take(worker)
    if position is None:
        return None, None
    try:
        return position, attempt(states[position], [])
    except Exception as err:  # raised by the caller when the state's turn comes, as if it were tried there
        return position, err


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def _features(
    generating: RecordContext, texts: tuple[str, str], options: ScoreOptions, source: QASource
) -> dict[str, Any]:
    """The features the export gives a record of a difficulty level, on the record's PDDL as written (a
    reasoning-about-actions question may ask about another state, or in a ramification variant): the size and
    optimal plan length the exploration of the record's problem settles, else, where the PDDL is the one the
    question was generated on, those of the generating oracle's exploration when it explored with the
    features' bound; otherwise from an exploration of the record's own."""
    record = generating.record
    unchanged = (record["PDDL_domain"], record["PDDL_problem"]) == texts
    task = generating.task if unchanged else GroundTask.from_strings(record["PDDL_domain"], record["PDDL_problem"])
    known = source.space(record["problem"], task).settle(task)
    if known is not None:
        return state_features(task, known=known)
    if unchanged and options.max_states == MAX_STATES:
        return state_features(task, known=size_and_cost(generating.oracle.explored))
    return state_features(task)


def generate_task(ctx: StageContext, task_name: str, spread: int = 1) -> tuple[list[dict], dict]:
    """Verified open-ended question records of one task, and counts (tried, skipped, rejected); ``spread``
    processes may try its states at once."""
    task, settings = TASKS[task_name], qa_settings(ctx)
    return _collect(
        ctx,
        task_name,
        "gen",
        lambda c, item, rng, records: task.generate(c, item, rng, settings),
        task.validate,
        spread,
    )


def generate_choice(ctx: StageContext, task_name: str, fmt: str) -> tuple[list[dict], dict]:
    """Verified boolean or multiple-choice records of one task, balanced: each question asks for the
    answer used least so far (yes/no; the correct option's position A-D), ties rotating with an
    offset per domain so that a dataset is balanced as a whole."""
    spec = TASKS[task_name].choice_formats()
    domains = list(ctx.config.domains)
    offset = domains.index(ctx.domain) if ctx.domain in domains else 0
    settings = qa_settings(ctx)

    def propose(c: RecordContext, item, rng, records) -> dict | None:
        claims = spec.claims(c, item, rng, settings)
        if claims is None:
            return None
        # The wanted answer first; another one when this state cannot give it (balance is kept
        # over the dataset as long as most states can give any answer).
        for want in balanced_targets(fmt, [r["answer"] for r in records], offset):
            picked = _bool_fields(claims, bool(want), rng) if fmt == "bool" else _mcq_fields(claims, want, spec, rng)
            if picked is not None:
                break
        else:
            return None
        fields, claim = picked
        if spec.variant(claim):
            fields["variant"] = spec.variant(claim)
        return fields

    return _collect(ctx, task_name, fmt, propose, lambda c: verify(spec, c, c.record))


def _bool_fields(claims: Claims, want: bool, rng: random.Random) -> tuple[dict[str, Any], Claim] | None:
    """The fields of a boolean question whose answer is ``want``, and its claim; None if there is none."""
    picked = pick_bool(claims, want, rng)
    if picked is None:
        return None
    claim, truth, shared = picked
    return {**shared, "claim": claim.to_dict(), "answer": "yes" if truth else "no"}, claim


def _mcq_fields(
    claims: Claims, position: int, spec: ChoiceFormats, rng: random.Random
) -> tuple[dict[str, Any], Claim] | None:
    """The fields of a multiple-choice question whose correct option is at ``position``, and its
    first option (whose variant is the question's); None if there is none."""
    picked = pick_mcq(claims, position, spec, rng)
    if picked is None:
        return None
    options, position, shared = picked
    return {**shared, "options": [o.to_dict() for o in options], "answer": LABELS[position]}, options[0]


def balanced_targets(fmt: str, used: list[str], offset: int) -> list[int]:
    """Answers to ask for, least used so far first (ties rotate with the domain's offset): True and
    False for bool, positions 0-3 of the correct option for mcq."""
    if fmt == "bool":
        answers = [True, False] if offset % 2 == 0 else [False, True]
        return sorted(answers, key=lambda want: used.count("yes" if want else "no"))
    positions = [(offset + k) % 4 for k in range(4)]
    return sorted(positions, key=lambda position: used.count(LABELS[position]))


def qa_files(settings: QAConfig) -> list[tuple[str, str]]:
    """(task, format) pairs of the qa stage: the configured formats of the configured tasks
    (``qa.tasks``, default every registered task)."""
    return task_formats(settings.formats, settings.tasks)


def domain_qa_files(config: PipelineConfig, domain: str) -> list[tuple[str, str]]:
    """:func:`qa_files` without the tasks the domain is left out of (``domains.<domain>.skip_tasks``)."""
    skipped = config.domains[domain].skip_tasks if domain in config.domains else ()
    unknown = sorted(set(skipped) - set(TASKS))
    if unknown:
        raise ConfigError(f"domains.{domain}.skip_tasks: unknown task(s) {', '.join(unknown)}; see `acp tasks`")
    return [(t, f) for t, f in qa_files(config.qa) if t not in skipped]


def qa_file(ctx: StageContext, task_name: str, fmt: str) -> Path:
    return ctx.root / "qa" / f"{kind_of(task_name, fmt)}.jsonl"


def _generate(ctx: StageContext, task_name: str, fmt: str, spread: int = 1) -> tuple[list[dict], dict]:
    """A unit: the records of one task and format, and the counts of the search (``spread``: see
    :func:`generate_task`; boolean and multiple-choice questions balance their answers over the records
    so far, so their states are tried one after the other)."""
    records, counts = generate_task(ctx, task_name, spread) if fmt == "gen" else generate_choice(ctx, task_name, fmt)
    wanted = unsolvable_wanted(ctx, task_name, fmt)
    if wanted:  # after the solvable questions, which keep their records whatever the share
        unsolvable, found = _collect_unsolvable(ctx, task_name, fmt, wanted)
        records += unsolvable
        counts.update(
            unsolvable=len(unsolvable), unsolvable_tried=found["tried"], unsolvable_candidates=found["candidates"]
        )
    return records, counts


def stamps(ctx: StageContext, formats: set[str]) -> dict[str, dict]:
    """What the qa files of each format are made from (the same for every task): the domain's
    problems, plans and states, the qa settings that shape its questions, the template's wrong
    actions, ramification rules and fluent types, the seed (and for bool/mcq the domain's position,
    which sets the balance offset). ``questions_per_task`` and ``candidates_per_task`` only decide
    where the search stops; :func:`_settled` compares them with the recorded counts. The input files
    are read once."""
    settings = dataclasses.asdict(ctx.config.qa)
    for key in ("questions_per_task", "candidates_per_task", "formats", "unsolvable_share"):
        del settings[key]
    planner = ctx.config.planner
    config = {
        "seed": ctx.config.seed,
        "qa": settings,
        "planner": {"backend": planner.backend, "image": planner.image, "memory_mb": planner.memory_mb},
    }
    domains = list(ctx.config.domains)
    position = domains.index(ctx.domain) if ctx.domain in domains else 0
    problems = sorted({json.loads(line)["problem"] for line in ctx.states_file.read_text().splitlines()})
    inputs = [ctx.states_file]
    for problem in problems:
        inputs += [ctx.problems_dir / f"{problem}.pddl", ctx.plans_dir / f"{problem}.json"]
    shared = {
        **ctx.base_stamp(),
        "inputs": digest_of(input_digests(ctx.root, inputs)),
        "wrong_actions": digest_of([list(w.types.values()) for w in ctx.source.wrong_actions]),
    }
    template = ctx.source.template()
    if template is not None:  # what of the template shapes the questions (its texts shape the export only)
        shared["template"] = digest_of([template.ramifications, template.fluent_types])
    if ctx.source.declared_patterns:  # only then: the stamps of every other domain stay as they were
        shared["patterns"] = digest_of([d.as_dict() for d in ctx.source.declared_patterns])
    return {
        fmt: {**shared, "config": digest_of(config if fmt == "gen" else {**config, "domain_position": position})}
        for fmt in formats
    }


def _settled(entry: dict, settings) -> bool:
    """Whether a qa file with stamp entry ``entry`` is what a run with ``settings`` would write.

    Questions are collected in a fixed order of candidate states until enough are found, so a
    complete file stays valid while the candidate limit covers the states it tried, and a short
    file only while the same states would be tried again (all of them, or the same limit)."""
    got, tried, candidates = entry["got"], entry["tried"], entry["candidates"]
    limit = settings.candidates_per_task
    if got == settings.questions_per_task:
        return tried <= limit and _settled_unsolvable(entry, settings)
    searched = got < settings.questions_per_task and tried == min(limit, candidates)
    return searched and _settled_unsolvable(entry, settings)


def _settled_unsolvable(entry: dict, settings) -> bool:
    """The same for the records about unsolvable problems (a file without them, made before the share: none)."""
    wanted = math.ceil(settings.unsolvable_share * settings.questions_per_task) if "unsolvable" in entry else 0
    if "unsolvable" not in entry:
        return True
    got, tried = entry["unsolvable"], entry.get("unsolvable_tried", 0)
    if got == wanted:
        return tried <= settings.candidates_per_task
    return got < wanted and tried == min(settings.candidates_per_task, entry.get("unsolvable_candidates", 0))


def shortfall(counts: dict, got: int, settings) -> str | None:
    """Why a qa file has fewer than ``questions_per_task`` questions, and what would give more."""
    wanted = settings.questions_per_task
    if got >= wanted:
        return None
    detail = f"{counts['skipped']} skipped, {counts['rejected']} not verified"
    if counts["tried"] < counts["candidates"]:
        return (
            f"{got} of {wanted} questions from the first {counts['tried']} of {counts['candidates']} candidate "
            f"states ({detail}); raise qa.candidates_per_task (or the domain's own candidates_per_task)"
        )
    return (
        f"{got} of {wanted} questions: all {counts['candidates']} candidate states tried ({detail}); the states "
        f"cannot give more (more problems, states.max_per_problem or larger qa planner budgets may)"
    )


def prepare(ctx: StageContext) -> StageWork:
    """One unit per (task, format) file that is missing, stale or not settled for the budgets."""
    work = StageWork(StageReport("qa", ctx.domain))
    report = work.report
    settings = qa_settings(ctx)
    wanted = domain_qa_files(ctx.config, ctx.domain)
    book = work.keep(ctx.stamp_book("qa"))
    made_from: dict[Any, dict] = dict(stamps(ctx, {f for _, f in wanted}))  # by format; by (task, format) too

    def commit(task_name: str, fmt: str, made: tuple[list[dict], dict]) -> None:
        records, counts = made
        solvable = len(records) - counts.get("unsolvable", 0)
        short = shortfall(counts, solvable, settings)
        if short:
            report.short.append(f"{task_name} {fmt}: {short}")
        target = qa_file(ctx, task_name, fmt)
        # the template a record carries is its text's: the export stage writes it (a reworded template redoes
        # the export only; its semantic parts, which shape the questions, are in the stamps)
        symbolic = [{k: v for k, v in r.items() if k != "template"} for r in records]
        atomic_write_text(target, jsonl_text(symbolic), durable=False)
        book.record(
            target.name,
            target,
            made_from.get((task_name, fmt), made_from[fmt]),
            wanted=settings.questions_per_task,
            got=solvable,
            tried=counts["tried"],
            candidates=counts["candidates"],
            shortfall=short,
            **{k: counts[k] for k in ("unsolvable", "unsolvable_tried", "unsolvable_candidates") if k in counts},
        )
        report.done += 1

    unsolvable = sorted(ctx.unsolvable_dir.glob("u*.pddl"))
    asking = {(t, f) for t, f in wanted if unsolvable_wanted(ctx, t, f) and unsolvable}
    if asking:  # the unsolvable problems and their states: inputs of the plan tasks' records only
        inputs = digest_of(input_digests(ctx.root, [*unsolvable, ctx.unsolvable_dir / "states.jsonl"]))
        made_from |= {(t, f): {**made_from[f], "unsolvable": inputs} for t, f in asking}
    stale = []
    for t, f in wanted:
        target, entry = qa_file(ctx, t, f), book.entry(qa_file(ctx, t, f).name)
        stamp = made_from.get((t, f), made_from[f])
        if entry is not None and book.fresh(target.name, target, stamp) and _settled(entry, settings):
            report.skipped += 1
            if entry["shortfall"]:
                report.short.append(f"{t} {f}: {entry['shortfall']} (unchanged since the last run)")
        else:
            stale.append((t, f, target))
    spread = ctx.jobs if len(stale) == 1 else 1  # one unit runs in this process: its states may be spread
    for t, f, target in stale:
        work.units.append(
            Unit(f"{ctx.domain}/qa/{kind_of(t, f)}", _generate, (ctx, t, f, spread), partial(commit, t, f), target)
        )

    def finish() -> None:
        report.items = sum(
            len(qa_file(ctx, t, f).read_text().splitlines()) for t, f in wanted if qa_file(ctx, t, f).exists()
        )

    work.finish = finish
    return work
