"""The prompt of one record for a model that answers it directly (Inspect AI tasks, the reasoning-gym
adapter): the context, the question and how to answer. lm-eval's prompts (`acpgen.adapters.lmeval`) add
few-shot examples and chain-of-thought markers of their own."""

from __future__ import annotations

from acpgen.tasks import TASKS

BOOL_INSTRUCTION = "Answer yes or no, and end with **Final Answer**: Yes or **Final Answer**: No."
MCQ_INSTRUCTION = "Choose exactly one option, and end with **Final Answer**: and its letter (A, B, C or D)."


def prompt(record: dict, name: str, fmt: str) -> str:
    """What the model reads: context, question and how to answer (``name``: the task, ``fmt``: its format)."""
    instruction = {"gen": TASKS[name].instruction, "bool": BOOL_INSTRUCTION, "mcq": MCQ_INSTRUCTION}[fmt]
    return f"{record['context'].strip()}\n\n{record['question'].strip()} {instruction}"
