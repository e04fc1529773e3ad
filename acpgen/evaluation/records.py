"""Reading records and predictions: reference JSON lists, JSONL, gzip, folders, lm-eval samples.

Record ids are not unique across the reference files, so a record is keyed by ``(task, id)``;
a prediction names its record by ``id`` and, where needed, ``task`` or ``group``.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from acpgen.errors import DataError
from acpgen.tasks import BY_GROUP, CHOICE_GROUPS, TASKS, split_kind
from acpgen.tasks.choice import to_response

_SUFFIXES = (".json", ".jsonl", ".json.gz", ".jsonl.gz")


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
    text = _open_text(path)
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as err:
            raise DataError(f"{path}: invalid JSON ({err.msg} at line {err.lineno})") from err
    else:
        items = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise DataError(f"{path}:{number}: invalid JSON line ({err.msg})") from err
    bad = next((i for i, item in enumerate(items) if not isinstance(item, dict)), None)
    if bad is not None:
        raise DataError(f"{path}: item {bad + 1} is not a JSON object")
    return items


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


# Files of acp's own output folders that hold no records (a domain folder OUT/D can be read directly).
_ARTEFACTS = ("export.json", "manifest.json", "states.jsonl")
_ARTEFACT_DIRS = ("plans", "states", "problems", "lm_eval", "stamps", "planner-cache")


def _is_artefact(relative: Path) -> bool:
    return relative.name in _ARTEFACTS or any(part in _ARTEFACT_DIRS for part in relative.parts[:-1])


def dataset_files(path: Path) -> list[Path]:
    """The record files at ``path``: the file itself, or every record file under a folder."""
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
    def load(cls, path: Path, files: list[Path] | None = None) -> Dataset:
        """Records of a file or folder (or of exactly ``files``)."""
        records: dict[tuple[str, str], dict] = {}
        skipped = 0
        for file in files if files is not None else dataset_files(path):
            for record in read_json_items(file):
                task = record_task(record)
                if task is None or "id" not in record:
                    skipped += 1
                    continue
                records[(task, str(record["id"]))] = record
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
    response: str
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
            responses = [r for group in item["resps"] for r in (group if isinstance(group, list) else [group])]
            for k, response in enumerate(responses):
                yield Prediction(item, task, record, str(response), k)
            continue
        if dataset is None:
            raise DataError(f"{path}:{number}: not an lm-eval sample line; pass --dataset with the records")
        if "response" not in item:
            raise DataError(f"{path}:{number}: prediction has no 'response' field")
        try:
            task, record = dataset.resolve(item)
        except DataError as err:
            raise DataError(f"{path}:{number}: {err}") from None
        yield Prediction(item, task, record, str(item["response"] or ""))


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
