"""acpgen.adapters.prompts: what a model reads in the Inspect AI tasks and the reasoning-gym datasets."""

from __future__ import annotations

import pytest

from acpgen.adapters.prompts import prompt
from acpgen.errors import DataError
from acpgen.tasks import TASKS

RECORD = {"context": "  The ferry is at l0.\n", "question": "Is (sail l0 l1) applicable?  "}


def test_bool_and_mcq_prompts_are_context_question_and_instruction():
    assert prompt(RECORD, "app", "bool") == (
        "The ferry is at l0.\n\nIs (sail l0 l1) applicable? "
        "Answer yes or no, and end with **Final Answer**: Yes or **Final Answer**: No."
    )
    assert prompt(RECORD, "app", "mcq").endswith(
        "applicable? Choose exactly one option, and end with **Final Answer**: and its letter (A, B, C or D)."
    )


def test_open_ended_prompts_end_with_the_tasks_own_instruction():
    for name in ("app", "nexta", "rac_state", "t2p"):
        text = prompt(RECORD, name, "gen")
        assert text.startswith("The ferry is at l0.\n\nIs (sail l0 l1) applicable? ")
        assert text.endswith(TASKS[name].instruction) and TASKS[name].instruction


def test_a_record_without_context_is_an_error_naming_it():
    with pytest.raises(DataError, match="record 7 \\(plan\\) has no context: not an exported record"):
        prompt({"id": 7, "question": "q"}, "plan", "gen")
