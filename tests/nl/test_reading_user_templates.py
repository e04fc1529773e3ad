"""Reading English the way a user's template writes it: a record of the courier test domain (its template puts
the subject first, "driver {d} boards van {v} in city {c}", where acp's own templates start with a verb) that
carries its template. Lists cut at semicolons with a last "and", a one-step plan led by "Simply", explanation
lines under plan steps that start like an action but state facts, and effects with one list "none" and the
other in words."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

import acpgen
from acpgen.tasks import TASKS, RecordContext

COURIER = FIXTURES / "byod" / "courier"
PROBLEM = """(define (problem p) (:domain courier)
  (:objects rome paris - city v1 - van ann - driver box1 - parcel)
  (:init (van-at v1 rome) (driving ann v1) (parcel-at box1 rome) (road rome paris) (road paris rome))
  (:goal (and (parcel-at box1 paris) (driver-at ann paris))))"""


def record(task: str, answer, **fields) -> dict:
    base = {"id": 1, "group": TASKS[task].gen_group, "task": task, "domain": "courier", "answer": answer}
    pddl = {"PDDL_domain": (COURIER / "domain.pddl").read_text(), "PDDL_problem": PROBLEM}
    return {**base, **pddl, "template": (COURIER / "template.yaml").read_text(), **fields}


def test_a_list_cut_at_semicolons_with_a_last_and():
    app = record("app", ["(alight ann v1 rome)", "(drive v1 ann rome paris)", "(load box1 v1 rome)"])
    text = (
        "The answer is: driver ann leaves van v1 in city rome; drive van v1 with driver ann from city rome to city "
        "paris; and load parcel box1 into van v1 in city rome."
    )
    assert acpgen.score(app, text).score == 1.0
    assert acpgen.score(app, text.replace("; and load parcel box1 into van v1 in city rome", "")).score == 0.0


PLAN = ["(load box1 v1 rome)", "(drive v1 ann rome paris)", "(unload box1 v1 paris)", "(alight ann v1 paris)"]
STEPS = """Here is the plan:

1. **Load parcel box1 into van v1 in city rome.**
   - Now parcel box1 is in van v1.
2. **Drive van v1 with driver ann from city rome to city paris.**
   - Now van v1 is in city paris.
3. **Unload parcel box1 from van v1 in city paris.**
   - Now parcel box1 is in city paris.
4. **Driver ann leaves van v1 in city paris.**
   - Now driver ann is in city paris and van v1 has no driver."""


def test_explanation_lines_that_state_facts_are_not_steps():
    plan = record("plan", PLAN, optimal_cost=4)
    assert [step.text for step in TASKS["plan"].read(RecordContext(plan), STEPS)] == PLAN
    assert acpgen.score(plan, STEPS).score == 1.0
    without_last = STEPS[: STEPS.index("4.")]
    assert acpgen.score(plan, without_last).score == 0.0


@pytest.mark.parametrize("lead", ["Simply", "Just", "Only"])
def test_a_one_step_plan_led_by_simply(lead):
    ctx = RecordContext(record("plan", PLAN, optimal_cost=4))
    read = TASKS["plan"].read(ctx, f"{lead} driver ann leaves van v1 in city rome.")
    assert [step.text for step in read] == ["(alight ann v1 rome)"]


def test_effects_with_one_list_none_and_the_other_in_words():
    prog = record("prog", {"pos": [], "neg": ["(parcel-at box1 rome)"]}, action="(load box1 v1 rome)")
    ctx = RecordContext(prog)
    read = TASKS["prog"].read(ctx, "Positive effects: none. Negative effects: parcel box1 is in city rome.")
    assert [list(x) for x in read] == [[], ["(parcel-at box1 rome)"]]
    read = TASKS["prog"].read(ctx, "Positive effects: parcel box1 is in van v1. Negative effects: nothing.")
    assert [list(x) for x in read] == [["(in-van box1 v1)"], []]
