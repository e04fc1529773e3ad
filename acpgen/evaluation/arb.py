"""ActionReasoningBench's question schema: acp's reasoning-about-actions records as its rows, and back.

A question of ActionReasoningBench is one JSON object with ``question_id`` (a string), ``domain_name``,
``instance_id``, ``initial_state_nl``, ``action_sequence`` (the actions performed), ``plan_length`` (their
number), ``question_category`` (``fluent_tracking``, ``state_tracking``, ``action_executability``,
``effects``, ``numerical_reasoning``, ``composite``), ``question_name``, ``question``, ``answer_type``
(``free_answer`` or ``true_false_answer``), ``answer`` (a string: ``True``/``False``, a count, the fluents or
actions in words joined by commas and a final "and", or ``None``), ``fluent_type`` (``base_fluents``,
``derived_fluents``, ``persistent_fluents`` for the single-valued ones, ``static_fluents``, ``all_fluents``),
``fluent_sign_question`` (``pos``, ``neg``, ``pos_neg``: true fluents, false ones or both) and
``question_subcategories`` (the categories a numerical or composite question combines).

:func:`row_of` writes an acp record (open-ended: ``free_answer``; yes/no: ``true_false_answer``; acp's
multiple-choice records have no counterpart) as such a row; the fluent type acp calls ``fluents`` (every
type but the static one) has no ActionReasoningBench name and is written ``non_static_fluents``. ActionReasoningBench's
own rows hold no PDDL, so acp cannot judge answers to them; a row acp wrote carries its acp record under
``acp``, and :func:`record_of` reads the row back as that record after checking that every column is
still what the record gives (a changed column is an error naming it). ``acp score`` then judges a free
answer exactly as acp's task does (the answer column, as written, scores 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from acpgen.artefacts import write_splits
from acpgen.errors import DataError
from acpgen.evaluation.records import dataset_files, numbered_json_items, record_task
from acpgen.proofs.change.literals import literal_atom
from acpgen.tasks import TASKS
from acpgen.tasks.sequences import answer_words

CATEGORIES = {
    "fluent": "fluent_tracking",
    "state": "state_tracking",
    "executability": "action_executability",
    "effects": "effects",
    "numerical": "numerical_reasoning",
    "composite": "composite",
}
FLUENT_TYPES = {
    "static": "static_fluents",
    "base": "base_fluents",
    "derived": "derived_fluents",
    "self_derived": "persistent_fluents",
    "all": "all_fluents",
    "fluents": "non_static_fluents",
}
ANSWER_TYPES = {"gen": "free_answer", "bool": "true_false_answer"}
#: the categories a numerical or composite question of acp combines, by its variant
SUBCATEGORIES = {
    ("numerical", "executable"): ["action_executability"],
    ("numerical", "object_true"): ["fluent_tracking"],
    ("numerical", "true"): ["state_tracking"],
    ("composite", "fluents_before"): ["fluent_tracking", "action_executability"],
    ("composite", "executable_before"): ["action_executability"],
    ("composite", "holds_before"): ["fluent_tracking", "action_executability"],
}
#: the polarity of the fluents an open-ended question asks for, by its variant (actions: pos_neg, as the
#: peer writes its action questions)
_SIGNS = {"true": "pos", "false": "neg", "both": "pos_neg", "added": "pos", "deleted": "neg", "fluents_before": "pos"}
#: the columns a row must keep as its acp record gives them
_CHECKED = (
    "question_id",
    "domain_name",
    "instance_id",
    "action_sequence",
    "plan_length",
    "question_category",
    "question_name",
    "question",
    "answer_type",
    "answer",
    "fluent_type",
    "fluent_sign_question",
)


def is_row(item: Mapping[str, Any]) -> bool:
    """Whether an object is an ActionReasoningBench question row."""
    return all(key in item for key in ("question_id", "question_category", "answer_type"))


def join_words(items: list[str]) -> str:
    """``a, b and c``; ``None`` for no item (the peer's answer to an empty list)."""
    if not items:
        return "None"
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _answer(record: Mapping[str, Any], fmt: str) -> str:
    answer = record["answer"]
    if fmt == "bool":
        return "True" if str(answer).lower() == "yes" else "False"
    if isinstance(answer, list):
        return join_words(answer_words(dict(record)))
    return str(answer)


def _sign(record: Mapping[str, Any], fmt: str) -> str:
    variant = str(record.get("variant", ""))
    if fmt == "gen":
        return _SIGNS.get(variant, "pos_neg")
    claim = record.get("claim") or {}
    value = claim.get("value") if isinstance(claim, dict) else None
    literals = value if isinstance(value, list) else [value]
    texts = [v for v in literals if isinstance(v, str)]
    if variant in ("holds", "holds_before", "holds_after", "all_hold") and len(texts) == len(literals):
        signs = {literal_atom(v)[1] for v in texts}
        return "pos" if signs == {True} else "neg" if signs == {False} else "pos_neg"
    return "pos_neg"


def _context_state(context: str) -> str:
    """The state part of a reasoning-about-actions context: the text from its first 'Currently,' on (the
    domain description before it is the peer's separate domain description)."""
    at = context.find("Currently,")
    return context[at:].strip() if at >= 0 else context.strip()


def row_of(record: Mapping[str, Any]) -> dict[str, Any]:
    """An acp reasoning-about-actions record (gen or bool) as an ActionReasoningBench row, its record under ``acp``."""
    kind = record_task(dict(record)) or ""
    task, _, fmt = kind.partition(".")
    fmt = fmt or "gen"
    if TASKS.get(task) is None or TASKS[task].family != "rac" or fmt not in ANSWER_TYPES:
        raise DataError(f"record {record.get('id')}: not an open-ended or yes/no reasoning-about-actions record")
    category, variant = str(record["category"]), str(record.get("variant", ""))
    sequence = list(record["sequence"])
    return {
        "question_id": str(record["id"]),
        "domain_name": str(record.get("domain", "")),
        "instance_id": str(record.get("problem", "")).removesuffix(".pddl"),
        "initial_state_nl": _context_state(str(record.get("context", ""))),
        "action_sequence": sequence,
        "plan_length": len(sequence),
        "question_category": CATEGORIES[category],
        "question_name": f"{task}.{variant}" if variant else task,
        "question": str(record.get("question", "")),
        "answer_type": ANSWER_TYPES[fmt],
        "answer": _answer(record, fmt),
        "fluent_type": FLUENT_TYPES.get(str(record.get("fluent_type")), "all_fluents"),
        "fluent_sign_question": _sign(record, fmt),
        "question_subcategories": SUBCATEGORIES.get((category, variant), []),
        "acp": dict(record),
    }


def record_of(row: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The acp record of a row acp wrote, once every column is checked against it; DataError for a row of
    the peer's own data (no PDDL to judge with) or a column that differs from what the record gives."""
    record = row.get("acp")
    if not isinstance(record, dict):
        raise DataError(
            f"{where}: an ActionReasoningBench row without acp's record ('acp'): acp judges only rows it wrote "
            "(`acp export arb`), since the peer's rows hold no PDDL"
        )
    expected = row_of(record)
    for column in _CHECKED:
        if row.get(column) != expected[column]:
            raise DataError(
                f"{where}: column {column!r} is {row.get(column)!r}, but its acp record gives {expected[column]!r}"
            )
    return record


def write_rows(dataset: Path, out: Path) -> list[Path]:
    """``acp export arb``: the open-ended and yes/no reasoning-about-actions records of a records file or
    folder as ActionReasoningBench rows, ``OUT/<split>.jsonl`` per split (the split of a record: its
    ``split`` field, or its file name's first part: ``test.gen.jsonl``); the paths written."""
    by_split: dict[str, list[dict[str, Any]]] = {}
    for file in dataset_files(dataset):
        head = file.name.split(".", 1)[0]
        for _, record in numbered_json_items(file):
            kind = record_task(record) or ""
            task, _, fmt = kind.partition(".")
            if task not in TASKS or TASKS[task].family != "rac" or (fmt or "gen") not in ANSWER_TYPES:
                continue
            split = str(record.get("split") or (head if head in ("test", "dev", "train") else "test"))
            by_split.setdefault(split, []).append(row_of(record))
    if not by_split:
        raise DataError(f"{dataset}: no open-ended or yes/no reasoning-about-actions records")
    return write_splits(out, by_split)
