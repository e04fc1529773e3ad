"""Reading records and predictions: reference JSON lists, JSONL, gzip, folders, lm-eval samples.

Record ids are not unique across the reference files, so a record is keyed by ``(task, id)``;
a prediction names its record by ``id`` and, where needed, ``task`` or ``group``.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from acpgen.errors import DataError
from acpgen.tasks import BY_GROUP, CHOICE_GROUPS, TASKS, missing_fields, split_kind
from acpgen.tasks.choice import to_response

_SUFFIXES = (".json", ".jsonl", ".json.gz", ".jsonl.gz", ".parquet")

#: turns an object that is no acp record (a peer's row: Planetarium, ActionReasoningBench) into one, or None
Foreign = Callable[[str, dict], "dict | None"]


def _open_text(path: Path) -> str:
    try:
        if path.name.endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                return handle.read()
        return path.read_text(encoding="utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as err:
        raise DataError(f"{path}: cannot read ({err})") from err


def read_json_items(path: Path) -> list[dict]:
    """Objects of a JSON list file or a JSONL file (optionally gzip-compressed)."""
    return [item for _, item in numbered_json_items(path)]


def numbered_json_items(path: Path) -> list[tuple[str, dict]]:
    """(where, object) pairs of a JSON list file or a JSONL file: ``where`` is ``FILE:LINE`` for a JSONL
    line and ``FILE, item N`` for an item of a JSON list; a Parquet file's rows are ``FILE, row N``."""
    if path.name.endswith(".parquet"):
        return [(f"{path}, row {i}", row) for i, row in enumerate(_parquet_rows(path), 1)]
    text = _open_text(path)
    stripped = text.lstrip()
    items: list[tuple[str, object]] = []
    if stripped.startswith("["):
        try:
            loaded = json.loads(text)
        except json.JSONDecodeError as err:
            raise DataError(f"{path}: invalid JSON ({err.msg} at line {err.lineno})") from err
        items = [(f"{path}, item {i}", item) for i, item in enumerate(loaded, 1)]
    else:
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                items.append((f"{path}:{number}", json.loads(line)))
            except json.JSONDecodeError as err:
                raise DataError(f"{path}:{number}: invalid JSON line ({err.msg})") from err
    out = []
    for where, item in items:
        if not isinstance(item, dict):
            raise DataError(f"{where}: not a JSON object")
        out.append((where, item))
    return out


def _parquet_rows(path: Path) -> list[dict]:
    """The rows of a Parquet file (read with pyarrow, which the ``hf`` extra's ``datasets`` brings)."""
    try:
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError as err:
        raise DataError(f"{path}: reading Parquet needs pyarrow (pip install 'acpgen[hf]')") from err
    try:
        return list(pq.read_table(path).to_pylist())
    except (OSError, ValueError) as err:
        raise DataError(f"{path}: cannot read as Parquet ({err})") from err


def check_fields(where: str, kind: str, record: dict) -> None:
    """DataError naming the place, the record and the fields it lacks (:func:`acpgen.tasks.missing_fields`)."""
    missing = missing_fields(kind, record)
    if missing:
        raise DataError(
            f"{where}: {kind} record {record.get('id')!r} has no {', '.join(repr(m) for m in missing)} field "
            f"(is this a records file? `acp score PREDICTIONS --dataset RECORDS`)"
        )


def record_task(record: dict) -> str | None:
    """Kind of a record: the task name for gen records ("app"), "<task>.<format>" for boolean and
    multiple-choice records ("app.bool"); from acp's ``task``/``format`` fields or the reference
    ``group``. None if the record belongs to no known task."""
    task, fmt, group = record.get("task"), record.get("format"), record.get("group", "")
    if task in TASKS and fmt in ("bool", "mcq"):
        return f"{task}.{fmt}"
    if group in CHOICE_GROUPS:
        return "{}.{}".format(*CHOICE_GROUPS[group])
    if task in TASKS:
        return task
    found = BY_GROUP.get(group)
    return found.name if found else None


# Files of acp's own output folders that are not its exported records (a folder OUT or OUT/D of `acp generate` can be
# read directly: its records are OUT/D/<task>.<format>.jsonl). qa/ holds the qa stage's symbolic questions (no
# context, no question text): the same questions before export, which read with them would count every record twice.
_ARTEFACTS = ("export.json", "manifest.json", "states.jsonl")
_ARTEFACT_DIRS = ("plans", "states", "problems", "unsolvable", "qa", "lm_eval", "stamps", "planner-cache")


def problem_of(record: dict) -> tuple[str, str]:
    """The problem a record asks about, as a key that puts the records of one problem side by side: the names acp's
    records carry (``domain``, ``problem``), else the PDDL texts with the problem's initial state left out (the
    records of the reference data ask about many states of each problem, written as its initial state)."""
    if "domain" in record and "problem" in record:
        return str(record["domain"]), str(record["problem"])
    domain, problem = str(record.get("PDDL_domain", "")), str(record.get("PDDL_problem", ""))
    start, end = problem.find("(:init"), problem.find("(:goal")
    return domain, problem[:start] + problem[end:] if 0 <= start < end else problem


def _is_artefact(relative: Path) -> bool:
    return relative.name in _ARTEFACTS or any(part in _ARTEFACT_DIRS for part in relative.parts[:-1])


def dataset_files(path: Path) -> list[Path]:
    """The record files at ``path``: the file itself, or every record file under a folder, leaving out the
    intermediate files of acp's output folders (qa/, plans/, states/, problems/, unsolvable/, stamps/...): a folder
    of `acp generate` output gives exactly its exported records. A folder passed itself is read, whatever its name."""
    path = Path(path)
    if path.is_dir():
        files = sorted(
            p
            for p in path.rglob("*")
            if p.is_file() and p.name.endswith(_SUFFIXES) and not _is_artefact(p.relative_to(path))
        )
        if not files:
            raise DataError(f"{path}: no record files (*.json, *.jsonl, optionally .gz) in this folder")
        return files
    if not path.exists():
        raise DataError(f"{path}: no such file or folder")
    return [path]


@dataclass
class Dataset:
    """Generative records indexed by (task, id); records of other formats are counted, not kept."""

    records: dict[tuple[str, str], dict]
    skipped: int = 0

    @classmethod
    def load(
        cls, path: Path, files: list[Path] | None = None, *, complete: bool = True, foreign: Foreign | None = None
    ) -> Dataset:
        """Records of a file or folder (or of exactly ``files``). ``complete``: every record must have the
        fields its task needs to be scored (DataError naming the file, the line and the field); a report,
        which reads only stored answers, passes False. ``foreign`` turns a peer's row into a record
        (:mod:`acpgen.evaluation.peers`)."""
        records: dict[tuple[str, str], dict] = {}
        skipped = 0
        for file in files if files is not None else dataset_files(path):
            for where, item in numbered_json_items(file):
                record = item
                if foreign is not None and record_task(item) is None:
                    record = foreign(where, item) or item
                task = record_task(record)
                if task is None or "id" not in record:
                    skipped += 1
                    continue
                if complete:
                    check_fields(where, task, record)
                records[(task, str(record["id"]))] = record
        if not records and skipped:
            raise DataError(
                f"{path}: no records here: {skipped} object(s) without a known task or group and id "
                "(a predictions file? records are the questions, e.g. OUT/<domain>/*.jsonl)"
            )
        return cls(records, skipped)

    def resolve(self, prediction: dict) -> tuple[str, dict]:
        """The (task, record) a prediction refers to; DataError if none or several match."""
        if "id" not in prediction:
            raise DataError("a prediction has no 'id' field")
        rid = str(prediction["id"])
        wanted = prediction.get("task")
        if wanted is not None and prediction.get("format") in ("bool", "mcq") and "." not in wanted:
            wanted = f"{wanted}.{prediction['format']}"
        if wanted is None and prediction.get("group"):
            wanted = record_task({"group": prediction["group"]})
            if wanted is None:
                raise DataError(f"prediction for id {rid}: unknown group {prediction['group']!r}")
        if wanted is not None:
            record = self.records.get((wanted, rid))
            if record is None:
                raise DataError(f"no {wanted} record with id {rid} in the dataset")
            return wanted, record
        matches = [(t, r) for (t, i), r in self.records.items() if i == rid]
        if not matches:
            raise DataError(f"no record with id {rid} in the dataset")
        if len(matches) > 1:
            tasks = ", ".join(sorted(t for t, _ in matches))
            raise DataError(f"id {rid} is ambiguous (tasks {tasks}): add a 'task' or 'group' field to the prediction")
        return matches[0]


@dataclass(frozen=True)
class Prediction:
    """One model output to score, with the input line it came from."""

    line: dict
    task: str
    record: dict
    response: str | None  # None: the line's response is null (no answer; read as acpgen.score reads None)
    sample: int = 0  # index among several responses of one lm-eval sample line


def is_lm_eval_sample(item: dict) -> bool:
    return "doc" in item and "resps" in item


def iter_predictions(path: Path, dataset: Dataset | None) -> Iterator[Prediction]:
    """Predictions of a JSONL file: ``{"id", "response", ...}`` lines, or lm-eval ``samples_*.jsonl`` lines."""
    for number, item in enumerate(read_json_items(Path(path)), 1):
        if is_lm_eval_sample(item):
            record = item["doc"]
            task = record_task(record)
            if task is None:
                raise DataError(f"{path}:{number}: the sample's doc has no known gen group ({record.get('group')!r})")
            check_fields(f"{path}:{number}", task, record)
            responses = [r for group in item["resps"] for r in (group if isinstance(group, list) else [group])]
            for k, response in enumerate(responses):
                yield Prediction(item, task, record, _text(response), k)
            continue
        if dataset is None:
            raise DataError(f"{path}:{number}: not an lm-eval sample line; pass --dataset with the records")
        if "response" not in item:
            raise DataError(f"{path}:{number}: prediction has no 'response' field")
        try:
            task, record = dataset.resolve(item)
        except DataError as err:
            raise DataError(f"{path}:{number}: {err}") from None
        yield Prediction(item, task, record, _text(item["response"]))


def _text(response: object) -> str | None:
    """A response as text; None (JSON null) stays None: no answer at all, a parse error wherever it is scored."""
    return None if response is None else str(response)


def reference_predictions(dataset: Dataset) -> Iterator[dict]:
    """Prediction lines carrying each record's stored answer as a model would write it.

    For tasks with several correct answers (reach, areach, land, nexta) one line per stored
    correct element; for just one line per stored removal. Useful to check a dataset and a scorer.
    """
    for (kind, _rid), record in sorted(dataset.records.items()):
        task, fmt = split_kind(kind)
        responses = TASKS[task].to_responses(record) if fmt == "gen" else [to_response(record, fmt)]
        for response in responses:
            yield {"id": record["id"], "task": kind, "response": response}
