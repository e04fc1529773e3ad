"""The prompt of one record for a model that answers it directly (Inspect AI tasks, the reasoning-gym, verifiers
and TRL adapters, re-exported by `acpgen.adapters.prompts`): the context, the question and how to answer.
lm-eval's prompts (`acpgen.adapters.lmeval`) add few-shot examples and chain-of-thought markers of their own."""

from __future__ import annotations

from acpgen.errors import DataError
from acpgen.tasks import TASKS

BOOL_INSTRUCTION = "Answer yes or no, and end with **Final Answer**: Yes or **Final Answer**: No."
MCQ_INSTRUCTION = "Choose exactly one option, and end with **Final Answer**: and its letter (A, B, C or D)."


def prompt(record: dict, name: str, fmt: str) -> str:
    """What the model reads: context, question and how to answer (``name``: the task, ``fmt``: its format)."""
    missing = [key for key in ("context", "question") if not isinstance(record.get(key), str)]
    if missing:
        raise DataError(
            f"record {record.get('id')!r} ({name}) has no {' and '.join(missing)}: not an exported record "
            "(`acp generate` writes them to OUT/<domain>/<task>.<format>.jsonl; qa/ holds its symbolic questions)"
        )
    return f"{record['context'].strip()}\n\n{record['question'].strip()} {instruction(name, fmt)}"


def instruction(name: str, fmt: str) -> str:
    """How to answer a question of task ``name`` in format ``fmt`` (the end of its prompt)."""
    return {"gen": TASKS[name].instruction, "bool": BOOL_INSTRUCTION, "mcq": MCQ_INSTRUCTION}[fmt]
