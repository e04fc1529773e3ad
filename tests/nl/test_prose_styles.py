"""The answer styles of `make bench-read-prose` (benchmarks/prose_styles.py) write well-formed text.

The styles are checked on hand-made ferry records (two locations, two cars): a plan and the applicable
actions of its state, and a yes/no record. How acp reads the texts is what the benchmark measures,
not this test.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import acpgen
from acpgen.data import DOMAINS_DIR

sys.path.append(str(Path(__file__).resolve().parents[2] / "benchmarks"))  # after the tests' own modules
from prose_styles import (
    STYLES,
    Answer,
    Words,
    bare,
    correct_answers,
    markdown_steps,
    pddl_lines,
    sentences,
    twin_candidates,
)

PROBLEM = """(define (problem two-cars) (:domain ferry)
 (:objects c0 c1 - car l0 l1 - location)
 (:init (at-ferry l0) (empty-ferry) (at c0 l0) (at c1 l1) (not-eq l0 l1) (not-eq l1 l0))
 (:goal (and (at c0 l1))))"""
PLAN = ["(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)"]


def ferry_record(task: str, answer, **fields) -> dict:
    return {
        "id": 12,
        "task": task,
        "domain": "ferry",
        "answer": answer,
        "PDDL_domain": (DOMAINS_DIR / "ferry" / "domain.pddl").read_text(),
        "PDDL_problem": PROBLEM,
        **fields,
    }


@pytest.fixture(scope="module")
def plan_record() -> dict:
    return ferry_record("plan", PLAN, group="plan_generation_gen", optimal_cost=3)


@pytest.fixture(scope="module")
def app_record() -> dict:
    return ferry_record("app", ["(board c0 l0)", "(sail l0 l1)"], group="applicable_actions_gen")


def test_bare_is_the_reference_answer(plan_record, app_record):
    for record in (plan_record, app_record):
        (answer,) = correct_answers(record)
        assert bare(record, answer, Words(record)) == acpgen.reference_answer(record)


def test_markdown_steps_of_a_plan_has_one_bold_numbered_line_per_step(plan_record):
    (answer,) = correct_answers(plan_record)
    words = Words(plan_record)
    lines = markdown_steps(plan_record, answer, words).splitlines()
    steps = [line for line in lines if re.match(r"\d+\. \*\*.+\*\*$", line)]
    assert steps == [f"{i}. **{words.sentence(words.action(a))}**" for i, a in enumerate(PLAN, 1)]
    assert steps[1] == "2. **Sail the ferry from location l0 to location l1.**"  # the template's English
    explanations = [lines[lines.index(s) + 1] for s in steps]
    assert all(line.startswith("   - ") for line in explanations)
    assert explanations[1] == f"   - Now {words.atom('(at-ferry l1)')}."  # what the step makes true
    assert not re.match(r"\d", lines[0])  # an intro line comes first


def test_sentences_and_pddl_lines_of_a_plan(plan_record):
    (answer,) = correct_answers(plan_record)
    words = Words(plan_record)
    text = sentences(plan_record, answer, words)
    assert text.startswith("First, board car c0 onto the ferry at location l0. ")
    assert text.endswith("Finally, debark car c0 from the ferry at location l1.")
    assert pddl_lines(plan_record, answer, words).splitlines() == [f"{i}. {a}" for i, a in enumerate(PLAN, 1)]


def test_wrong_twins_differ_from_the_correct_answer(plan_record, app_record):
    for record in (plan_record, app_record):
        (answer,) = correct_answers(record)
        words = Words(record)
        twin = next(twin_candidates(record, answer, words))
        assert twin.kind == answer.kind and twin.value != answer.value
        for style in ("bare", "markdown_steps", "pddl_lines", "sentences"):
            assert STYLES[style](record, twin, words) != STYLES[style](record, answer, words)
    (plan,) = correct_answers(plan_record)
    assert next(twin_candidates(plan_record, plan, Words(plan_record))).value == PLAN[:-1]


def test_revised_needs_a_first_attempt_and_ends_with_the_final_answer(app_record):
    (answer,) = correct_answers(app_record)
    words = Words(app_record)
    assert STYLES["revised"](app_record, answer, words) is None
    twin = next(twin_candidates(app_record, answer, words))
    text = STYLES["revised"](app_record, Answer(answer.kind, answer.value, other=twin), words)
    first, final = text.split("Wait, let me reconsider.")
    assert bare(app_record, twin, words) in first
    assert final.rstrip().endswith("**Final Answer**: (board c0 l0) (sail l0 l1)")


def test_styles_that_do_not_fit_a_yes_no_answer_write_nothing():
    record = ferry_record("app", "no", format="bool", group="applicable_actions_bool", claim={"action": "(sail l1 l0)"})
    (answer,) = correct_answers(record)
    words = Words(record)
    assert (answer.kind, answer.value) == ("yesno", "no")
    assert markdown_steps(record, answer, words) is None and pddl_lines(record, answer, words) is None
    assert sentences(record, answer, words).startswith("No, ")
    assert next(twin_candidates(record, answer, words)).value == "yes"


def test_no_plan_exists_is_written_in_every_style_and_its_twin_is_a_plan():
    # the goal c0 at l1 and at l0: no plan reaches it (a car is at one place at a time)
    record = ferry_record(
        "plan",
        None,
        group="plan_generation_gen",
        solvable=False,
        PDDL_problem=PROBLEM.replace("(at c0 l1))", "(at c0 l1) (at c0 l0))"),
    )
    words = Words(record)
    (answer,) = correct_answers(record)
    assert answer == Answer("noplan", None)
    assert bare(record, answer, words) == acpgen.reference_answer(record)
    twin = next(twin_candidates(record, answer, words))
    assert twin.kind == "plan" and len(twin.value) == 2  # actions applicable in turn from the state
    answer = Answer("noplan", None, other=twin)
    texts = {name: style(record, answer, words) for name, style in STYLES.items()}
    assert all(texts.values()), texts  # every style says it
    assert "(none)" in texts["markdown_steps"] and texts["pddl_lines"].startswith("[]\n")  # an empty plan with it
    assert texts["revised"].index(twin.value[0]) < texts["revised"].index("Final Answer")  # the plan first
    for name, text in texts.items():
        assert acpgen.score(record, text).score == 1.0, (name, text)
