"""`acp validate`: re-prove the stored answer of every record by an independent route.

app, prog and val answers are recomputed from the PDDL; every stored reach, areach, land and
nexta element is re-proven (delete relaxation, exhaustive exploration or planners, whichever
settles it), and justification lists are compared with the complete set of valid removals.
A check that raises is reported with verdict ``error`` (the exception's type, message and place),
never as a wrong answer: malformed stored answers are ``wrong`` only where a task module says so.
"""

from __future__ import annotations

import dataclasses
import traceback
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from acpgen.errors import PddlError
from acpgen.evaluation.records import problem_of
from acpgen.evaluation.reference_records import to_record
from acpgen.executors import Executor, record_shard_size, shards
from acpgen.nl.reference.base import ReadError
from acpgen.planners import Limits
from acpgen.tasks import TASKS, RecordContext, ScoreOptions, split_kind
from acpgen.tasks.base import ERROR, UNPROVEN, Check, Outcome
from acpgen.tasks.choice import verify as verify_choice


@dataclass(frozen=True)
class RecordCheck:
    id: object
    task: str
    verdict: Outcome
    reason: str

    def as_dict(self) -> dict:
        return {"id": self.id, "task": self.task, "verdict": self.verdict, "reason": self.reason}


def validation_options(max_states: int = ScoreOptions.max_states, planner_timeout: float = 20.0) -> ScoreOptions:
    """How `acp validate` and `acpgen.validate` re-prove: optimal costs by a second configuration, plans also
    judged by validators outside acp, a planner call timing out retried once with 4 times the budget."""
    return ScoreOptions(
        max_states=max_states, limits=Limits(time=planner_timeout), second_opinion=True, external_validators=True
    )


def check_record(task: str, record: dict, options: ScoreOptions, planners=None) -> RecordCheck:
    """Re-prove one record's stored answer (``task`` is the record kind: "app", "app.bool", ...)."""
    ctx = RecordContext(record, options, planners)
    name, fmt = split_kind(task)
    try:
        if fmt == "gen":
            check = TASKS[name].validate(ctx)
        elif "PDDL_problem" not in record or ("claim" not in record and "options" not in record):
            check = _check_reference_choice(task, record, options, planners)
        else:
            check = verify_choice(TASKS[name].choice_formats(), ctx, record)
    except PddlError as err:
        check = Check(UNPROVEN, f"record PDDL error: {err}")
    except Exception as err:
        check = Check(ERROR, raised(err))
    return RecordCheck(record.get("id"), task, check.verdict, check.reason)


def verdict_counts(results: list[RecordCheck]) -> dict[Outcome, int]:
    """How many checks gave each verdict (every verdict present, 0 where none did)."""
    return {verdict: sum(r.verdict == verdict for r in results) for verdict in Outcome}


def raised(err: Exception) -> str:
    """The exception's type and message, and where it was raised (innermost frame)."""
    frames = traceback.extract_tb(err.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"check raised {type(err).__name__}: {err}{where}"


def _check_reference_choice(kind: str, record: dict, options: ScoreOptions, planners) -> Check:
    """A reference bool/mcq record: read its prose into PDDL and claims, then re-prove the claims."""
    try:
        converted = to_record(kind, record)
    except ReadError as err:
        return Check(UNPROVEN, f"reference prose not read: {err}")
    return verify_choice(
        TASKS[split_kind(kind)[0]].choice_formats(), RecordContext(converted, options, planners), converted
    )


def _check_shard(args) -> list[RecordCheck]:
    """A shard of (task, record) pairs in one worker, with planners built once for the shard."""
    items, options, setup = args
    planners = setup.build()
    return [check_record(task, record, options, planners) for task, record in items]


def validate_records(
    items: list[tuple[str, dict]],
    options: ScoreOptions,
    setup,
    jobs: int = 1,
    progress: bool = True,
    executor: Executor | None = None,
) -> list[RecordCheck]:
    """Check (task, record) pairs; results in input order.

    The records of one problem are checked one after the other (:func:`~acpgen.evaluation.records.problem_of`:
    each is grounded from the joins of the problem's first); they go to the workers (``jobs`` > 1, or a remote
    ``executor``: Dask) in shards of consecutive records (:func:`~acpgen.executors.record_shard_size`). A unit that
    failed as a whole (its worker died more often than the executor retries) gives each of its records the verdict
    ``error`` with the reason."""
    order = sorted(range(len(items)), key=lambda i: problem_of(items[i][1]))
    checked = _validate_in_order([items[i] for i in order], options, setup, jobs, progress, executor)
    return [check for _, check in sorted(zip(order, checked), key=lambda pair: pair[0])]


def _validate_in_order(
    items: list[tuple[str, dict]], options: ScoreOptions, setup, jobs: int, progress: bool, executor: Executor | None
) -> list[RecordCheck]:
    options = dataclasses.replace(options, recheck=True)
    executor = executor or Executor(jobs)
    if not executor.remote and jobs <= 1:
        bar = tqdm(total=len(items), desc="validating", unit="record", disable=not progress)
        planners = setup.build()
        results = []
        for task, record in items:
            results.append(check_record(task, record, options, planners))
            bar.update()
        bar.close()
        return results
    size = record_shard_size(executor, len(items))
    parts = shards(items, size)
    names = [f"records {i * size + 1}-{i * size + len(part)}" for i, part in enumerate(parts)]
    results = []
    units = [(part, options, setup) for part in parts]
    for part, outcome in zip(parts, executor.map(_check_shard, units, names, desc="validating", progress=progress)):
        if outcome.ok:
            results.extend(outcome.value)
        else:
            reason = f"the unit '{outcome.name}' failed: {outcome.error}"
            results.extend(RecordCheck(record.get("id"), task, ERROR, reason) for task, record in part)
    return results
