"""The prompt of one record for a model that answers it directly (Inspect AI tasks, the reasoning-gym, verifiers
and TRL adapters): `acpgen.training.prompts`, where the rewards read it too (a response that repeats the question
or the instruction is no answer)."""

from __future__ import annotations

from acpgen.training.prompts import BOOL_INSTRUCTION, MCQ_INSTRUCTION, instruction, prompt

__all__ = ["BOOL_INSTRUCTION", "MCQ_INSTRUCTION", "instruction", "prompt"]
