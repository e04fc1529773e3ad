"""Inspect AI evaluations of acp datasets, scored by acp's own parser and symbolic scorer.

One Inspect task per acp task and format, made from the task registry: ``acp_<task>_gen`` for
every task, ``acp_<task>_bool`` and ``acp_<task>_mcq`` for the tasks with those formats. Each
takes ``dataset``, a records file or folder (acp's output or the reference ACPBench records),
and evaluates the records of its task and format in it::

    inspect eval acpgen/acp_app_gen -T dataset=dataset --model openai/gpt-4o
    inspect eval acpgen/adapters/inspect_tasks.py@acp_reach_mcq -T dataset=/abs/path --model mockllm/model

The prompt is the record's context and question followed by the task's instruction (gen) or a
yes/no or A-D instruction; the target is the stored answer written as a model would write it
(`acp reference-answers`). The scorer is `acpgen.evaluation.scoring.score_one`: value 1 or 0, with acp's
``status`` and ``reason`` in the score metadata. An answer acp cannot decide (a planner ran out
of time) is returned as ``Score.unscored``: Inspect leaves it out of every metric and counts it
as ``unscored_samples`` of the scorer in the log, as `acp score` leaves undecided answers out of
its accuracy. Metrics: accuracy, stderr and ``parse_error`` (share of scored answers from which
no answer could be read).

Inspect runs the tasks of a file named as ``path.py@task`` from that file's folder, so a relative
``dataset`` is only found through the registered names (``acpgen/acp_app_gen``, the package's
``inspect_ai`` entry point) or the generic task ``acp``; name an absolute path otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

try:
    import anyio
    from inspect_ai import Task, task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, accuracy, metric, scorer, stderr
    from inspect_ai.solver import TaskState, generate
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"acpgen.adapters.inspect_tasks needs the inspect-ai package ({err}); "
        "install it with `pip install -e '.[inspect]'`"
    ) from err

from acpgen.adapters.prompts import prompt
from acpgen.config import FORMATS
from acpgen.errors import DataError
from acpgen.evaluation.records import Dataset
from acpgen.evaluation.scoring import score_answer
from acpgen.tasks import PARSE_ERROR, TASKS, UNDECIDED, Verdict, kind_of, task_formats
from acpgen.tasks.choice import to_response


def task_name(name: str, fmt: str) -> str:
    """The Inspect task name of an acp task in a format: ``acp_app_gen``."""
    return f"acp_{name}_{fmt}"


def targets(record: dict, name: str, fmt: str) -> list[str]:
    """The stored answers written as a model would write them (one per correct answer for gen)."""
    return TASKS[name].to_responses(record) if fmt == "gen" else [to_response(record, fmt)]


def load_samples(dataset: str | Path, name: str, fmt: str) -> list[Sample]:
    """Samples of the records of one task and format in a records file or folder."""
    if name not in TASKS or fmt not in FORMATS:
        raise DataError(f"no acp task {name!r} in format {fmt!r}; tasks: {', '.join(TASKS)}; formats: gen, bool, mcq")
    if (name, fmt) not in task_formats():
        raise DataError(f"task {name} has no {fmt} format (only gen)")
    path = Path(dataset)
    if not path.exists():
        raise DataError(
            f"{path}: no such file or folder (relative to {Path.cwd()}; Inspect runs the tasks of a file named as "
            f"path.py@task from that file's folder: pass an absolute path, "
            f"or name the task acpgen/{task_name(name, fmt)})"
        )
    kind = kind_of(name, fmt)
    records = Dataset.load(path).records
    chosen = [record for (k, _), record in records.items() if k == kind]
    if not chosen:
        found = Counter(k for k, _ in records)
        listed = ", ".join(f"{k} ({n})" for k, n in sorted(found.items())) or "none"
        raise DataError(f"{path}: no {kind} records (task {name}, format {fmt}); records found: {listed}")
    return [
        Sample(
            input=prompt(record, name, fmt),
            target=targets(record, name, fmt),
            id=str(record["id"]),
            metadata={"kind": kind, "record": record},
        )
        for record in chosen
    ]


# ----- scorer ----------------------------------------------------------------------------------------
def to_score(verdict: Verdict) -> Score:
    """An Inspect score: 1/0 with acp's status and reason; undecided answers are left unscored."""
    metadata = {"status": str(verdict.status), "reason": verdict.reason}
    if verdict.status == UNDECIDED:
        return Score.unscored(reason=str(UNDECIDED), explanation=verdict.reason, metadata=metadata)
    return Score(value=float(verdict.score), explanation=verdict.reason, metadata=metadata)


@metric
def parse_error() -> Metric:
    """Share of the scored answers from which acp could read no answer (undecided ones are not scored)."""

    def compute(scores: list[SampleScore]) -> float:
        if not scores:
            return 0.0
        errors = sum((s.score.metadata or {}).get("status") == str(PARSE_ERROR) for s in scores)
        return errors / len(scores)

    return compute


@scorer(metrics=[accuracy(), stderr(), parse_error()])
def acp_scorer() -> Scorer:
    """acp's parser and symbolic scorer, on the record stored in the sample's metadata."""

    async def score(state: TaskState, target: Target) -> Score:
        record, kind = state.metadata["record"], state.metadata["kind"]
        # acp scoring blocks (grounding, planner processes): run it off the event loop.
        verdict = await anyio.to_thread.run_sync(score_answer, record, kind, state.output.completion)
        return to_score(verdict)

    return score


# ----- tasks -------------------------------------------------------------------------------------------
def make_task(dataset: str | Path, name: str, fmt: str) -> Task:
    """The Inspect task evaluating the ``name``/``fmt`` records of ``dataset``."""
    return Task(
        dataset=MemoryDataset(load_samples(dataset, name, fmt), name=task_name(name, fmt), location=str(dataset)),
        solver=generate(),
        scorer=acp_scorer(),
    )


@task
def acp(dataset: str, task: str = "app", format: str = "gen") -> Task:
    """Any acp task and format: ``-T task=reach -T format=mcq``."""
    return make_task(dataset, task, format)


def _named_task(name: str, fmt: str) -> Callable[..., Task]:
    def create(dataset: str) -> Task:
        return make_task(dataset, name, fmt)

    create.__name__ = create.__qualname__ = task_name(name, fmt)
    create.__doc__ = f"acp {name} questions, {fmt} format, from the records at ``dataset``."
    return task(name=task_name(name, fmt))(create)


# acp_app_gen, acp_app_bool, ...: one module attribute per task and format of the registry.
TASK_FUNCTIONS: dict[str, Callable[..., Task]] = {task_name(n, f): _named_task(n, f) for n, f in task_formats()}
globals().update(TASK_FUNCTIONS)
