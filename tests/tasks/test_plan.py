"""plan and optplan (acpgen.tasks.plan, acpgen.tasks.optimal_plan): reading written plans, judging them with
partial credit, and re-proving stored plans — on the two-car ferry of tests/tasks/hand_ferry.py, whose unique
optimal plan (6 steps) and states are worked out by hand there. Every expected message, prefix and goal share
below is read off the ferry domain's PDDL by hand (the board precondition lists (at ?car ?loc), (at-ferry ?loc),
(empty-ferry) in that order; the goal is (at c0 l1) and (at c1 l0))."""

from __future__ import annotations

import random

import hand_ferry
import pytest

from acpgen.config import QAConfig
from acpgen.nl.answers import ParseError
from acpgen.nl.plan_steps import read_steps
from acpgen.pddl.lmcut import lmcut
from acpgen.planners import Limits, PlannerResult, Status
from acpgen.proofs.plans import lifted_verdict, unified_planning_verdict
from acpgen.tasks import PARSE_ERROR, SCORED, TASKS, UNDECIDED, RecordContext, ScoreOptions
from acpgen.tasks.base import OK, WRONG, QAItem

PLAN = hand_ferry.OPTIMAL_PLAN


def score(task: str, response: str, **fields):
    record = hand_ferry.record(PLAN, **fields)
    ctx = RecordContext(record)
    try:
        answer = TASKS[task].parse(response)
    except ParseError as error:
        return PARSE_ERROR, str(error), {}
    verdict = TASKS[task].score(ctx, answer)
    return verdict.score, verdict.reason, verdict.details


# ----- reading --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "response",
    [
        "\n".join(PLAN),
        " ".join(PLAN),
        "Here is the plan (6 steps):\n" + "\n".join(f"{i + 1}. {a}" for i, a in enumerate(PLAN)) + "\nDone (i.e. all).",
        "\n".join(f"Step {i + 1}: {a.upper()}" for i, a in enumerate(PLAN)),
        "\n".join(a.strip("()") for a in PLAN),
        "Plan:\n" + "\n".join(f"- {a.strip('()').replace(' ', ', ', 1)}." for a in PLAN),
        "\n".join(f"{a.strip('()').split()[0]}({', '.join(a.strip('()').split()[1:])})" for a in PLAN),
        "<think>(sail l0 l1) first?</think>\n```\n" + "\n".join(PLAN) + "\n```",
        "Let me think. Final answer:\n" + "\n".join(PLAN),
    ],
    ids=[
        "lines",
        "one-line",
        "numbered+prose",
        "step-labels+upper",
        "bare",
        "bullets+commas",
        "calls",
        "think",
        "marker",
    ],
)
def test_every_written_form_reads_as_the_six_steps(response):
    assert [step.action for step in read_steps(response)] == PLAN


def test_a_line_between_steps_is_a_step_never_skipped():
    steps = read_steps("(board c0 l0)\nthen the ferry sails over\n(sail l0 l1)")
    assert [s.action for s in steps] == ["(board c0 l0)", "(then the ferry sails over)", "(sail l0 l1)"]


# Runs of "(" and groups inside groups: each top-level group is one step, unreadable when it holds another
# group; a group still open at the end is an unreadable step; a stray ")" is one. (Read by hand.)
@pytest.mark.parametrize(
    ("response", "steps"),
    [
        ("((board c0 l0))\n(sail l0 l1)", [None, "(sail l0 l1)"]),
        ("(board c0 l0)\n(((sail l0 l1)", ["(board c0 l0)", None]),
        ("(board c0 l0)\n(sail (l0) l1)\n(debark c0 l1)", ["(board c0 l0)", None, "(debark c0 l1)"]),
        ("(board c0 l0) ) (sail l0 l1)", ["(board c0 l0)", None, "(sail l0 l1)"]),
        ("(board c0 l0)\n((\n(sail l0 l1)", ["(board c0 l0)", None]),
        ("(board c0 l0)\n" * 3, ["(board c0 l0)"] * 3),
    ],
)
def test_runs_of_parentheses_and_nested_groups(response, steps):
    assert [step.action if step.name is not None else None for step in read_steps(response)] == steps


@pytest.mark.parametrize("response", ["", "  \n\n", "Final answer:", "<think>(sail l0 l1)</think>"])
def test_an_answer_without_steps_is_a_parse_error(response):
    with pytest.raises(ParseError):
        read_steps(response)


def test_a_refusal_in_words_is_read_as_a_step_and_fails_as_unknown():
    result, _, details = score("plan", "I cannot find a plan.")
    assert result == 0.0 and details["failure"] == "step 1 (i cannot find a plan): there is no action named i"


# ----- the corpus of broken plans, by hand --------------------------------------------------------------
# name -> (response, score, valid, reaches_goal, optimal, prefix, goal_fraction, failure class, failure text)
SWAPPED = [PLAN[1], PLAN[0], *PLAN[2:]]
CORPUS = {
    "optimal": ("\n".join(PLAN), 1.0, True, True, True, 6, 1.0, None, None),
    # after (sail l0 l1) the ferry is at l1 and c0 still at l0: board c0 l0 needs (at-ferry l0)
    "wrong order": (
        "\n".join(SWAPPED), 0.0, False, False, False, 1, 0.0, "not_executable",
        "step 2 (board c0 l0): precondition (at-ferry l0) is false",
    ),
    # without (debark c0 l1) the ferry still carries c0 when c1 is to be boarded: (empty-ferry) is false
    "missing step": (
        "\n".join(PLAN[:2] + PLAN[3:]), 0.0, False, False, False, 2, 0.0, "not_executable",
        "step 3 (board c1 l1): precondition (empty-ferry) is false",
    ),
    "wrong arity": (
        "(board c0 l0)\n(sail l0)\n" + "\n".join(PLAN[2:]), 0.0, False, False, False, 1, 0.0, "unreadable_step",
        "step 2 (sail l0): sail takes 2 arguments, not 1",
    ),
    "unknown object": (
        "(board c9 l0)\n" + "\n".join(PLAN[1:]), 0.0, False, False, False, 0, 0.0, "unreadable_step",
        "step 1 (board c9 l0): unknown object c9",
    ),
    "unknown action": (
        "(load c0 l0)\n" + "\n".join(PLAN[1:]), 0.0, False, False, False, 0, 0.0, "unreadable_step",
        "step 1 (load c0 l0): there is no action named load",
    ),
    "wrong type": (
        "(board l0 c0)\n" + "\n".join(PLAN[1:]), 0.0, False, False, False, 0, 0.0, "unreadable_step",
        "step 1 (board l0 c0): l0 is not of type car",
    ),
    # the first five steps: c0 is at l1 (one of the two goal facts), c1 still aboard
    "goal not reached": (
        "\n".join(PLAN[:5]), 0.0, True, False, False, 5, 0.5, "goal_not_reached",
        "the goal does not hold after the last step",
    ),
    # board and debark c0 at l0 first (back where it was), then the optimal plan: 8 steps, a plan
    "valid but suboptimal": (
        "\n".join(["(board c0 l0)", "(debark c0 l0)", *PLAN]), 1.0, True, True, False, 8, 1.0, None, None,
    ),
    # one more sail after the goal holds: the cars stay where they are, the goal still holds
    "redundant step after the goal": (
        "\n".join([*PLAN, "(sail l0 l1)"]), 1.0, True, True, False, 7, 1.0, "extra_steps",
        "the goal already held after step 6 of 7",
    ),
    "truncated": (
        "\n".join(PLAN[:5]) + "\n(debark c1", 0.0, False, False, False, 5, 0.5, "unreadable_step",
        "step 6 (debark c1: cannot be read as an action",
    ),
    "injected pddl": (
        "(define (problem x) (:domain ferry) (:goal (and)))", 0.0, False, False, False, 0, 0.0, "unreadable_step",
        None,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(CORPUS))
def test_broken_plans_score_as_derived_by_hand(name):
    response, expected, valid, reaches, optimal, prefix, fraction, failure_class, failure = CORPUS[name]
    result, reason, details = score("plan", response)
    assert result == expected, reason
    assert (details["valid"], details["reaches_goal"]) == (valid, reaches)
    assert (details["prefix"], details["goal_fraction"], details.get("failure_class")) == (
        prefix,
        fraction,
        failure_class,
    )
    if failure is not None:
        assert details["failure"] == failure
    assert details.get("cost") == (len(read_steps(response)) if valid else None)
    # the ferry record stores no optimal cost: optplan searches for it, only for a plan (6, derived in the corpus);
    # plan does not search (validity needs no optimum): it knows a plan optimal only when acp's LM-cut bound of the
    # state reaches the plan's length, and leaves the optimum unknown otherwise
    optplan, _, searched = score("optplan", response)
    assert searched["optimal"] == optimal and searched.get("optimal_cost") == (6 if valid and reaches else None)
    task = RecordContext(hand_ferry.record(PLAN)).task
    proven = valid and reaches and lmcut(task, task.init) >= len(read_steps(response))
    assert details["optimal"] == (True if proven else None if valid and reaches else False)
    assert details.get("optimal_cost") == (6 if proven else None)
    # optplan: 1 only for the optimal plan
    assert optplan == (1.0 if name == "optimal" else 0.0)


@pytest.mark.parametrize("name", list(CORPUS))
def test_the_two_independent_validators_agree_with_the_scorer(name):
    response, expected = CORPUS[name][:2]
    steps = [step.action for step in read_steps(response)]
    ctx = RecordContext(hand_ferry.record(PLAN))
    lifted = lifted_verdict(ctx.task.lifted, steps)
    assert (lifted.executes and lifted.reaches_goal) == (expected == 1.0)
    external = unified_planning_verdict(hand_ferry.DOMAIN, hand_ferry.PROBLEM, steps)
    assert external is not None  # the test extra installs unified-planning
    assert external.reaches_goal == (expected == 1.0)


def test_the_lifted_interpreter_names_the_first_failing_step():
    ctx = RecordContext(hand_ferry.record(PLAN))
    assert lifted_verdict(ctx.task.lifted, SWAPPED).first_failure == 1
    assert lifted_verdict(ctx.task.lifted, PLAN[:2] + PLAN[3:]).first_failure == 2


def test_twenty_thousand_steps_are_judged_not_dropped():
    response = "\n".join([*PLAN, *(["(sail l0 l1)", "(sail l1 l0)"] * 10_000)])
    result, _, details = score("plan", response)
    assert result == 1.0 and details["cost"] == 20_006 and details["failure_class"] == "extra_steps"
    result, _, details = score("plan", response + "\n(sail l1 l0)")  # the ferry is at l0 by then
    assert result == 0.0 and details["failure"].startswith("step 20007 (sail l1 l0): precondition (at-ferry l1)")


# ----- generation and validation ----------------------------------------------------------------------------
@pytest.mark.parametrize("state", range(len(hand_ferry.STATES) - 1))
def test_generated_plans_are_the_unique_optimal_suffix(state):
    ctx = RecordContext(hand_ferry.record(None, hand_ferry.problem(state)))
    fields = TASKS["plan"].generate(ctx, QAItem({}, None), random.Random(0), QAConfig())
    assert fields == {"answer": PLAN[state:], "optimal_cost": 6 - state}
    record = hand_ferry.record(fields["answer"], hand_ferry.problem(state), optimal_cost=fields["optimal_cost"])
    assert TASKS["plan"].validate(RecordContext(record)).verdict == OK
    assert TASKS["optplan"].validate(RecordContext(record)).verdict == OK


def test_validation_rejects_a_suboptimal_or_broken_stored_plan():
    longer = hand_ferry.record(["(board c0 l0)", "(debark c0 l0)", *PLAN], optimal_cost=8)
    assert TASKS["plan"].validate(RecordContext(longer)).verdict == WRONG
    broken = hand_ferry.record(SWAPPED, optimal_cost=6)
    check = TASKS["plan"].validate(RecordContext(broken))
    assert check.verdict == WRONG and "lifted interpreter" in check.reason


def test_the_last_state_gives_no_question():
    # one step from the goal: a plan of one step is not asked for
    ctx = RecordContext(hand_ferry.record(None, hand_ferry.problem(5)))
    assert TASKS["plan"].generate(ctx, QAItem({}, None), random.Random(0), QAConfig()) is None


class TimeoutPlanners:
    """Every planner call times out (the optimal cost cannot be decided beyond exploration)."""

    def _timeout(self, *args, **kwargs):
        return PlannerResult(Status.TIMEOUT, message="simulated timeout")

    solve = optimal = optimal_sas = _timeout


def test_an_unknown_optimal_cost_leaves_only_optimality_undecided():
    record = hand_ferry.record(PLAN)  # no optimal_cost stored
    options = ScoreOptions(max_states=1, limits=Limits(time=1), retry_factor=1.0)
    longer = "\n".join(["(board c0 l0)", "(debark c0 l0)", *PLAN])
    for task, expected in (("plan", (1.0, SCORED)), ("optplan", (0.0, UNDECIDED))):
        verdict = TASKS[task].score(RecordContext(record, options, TimeoutPlanners()), read_steps(longer))
        assert (verdict.score, verdict.status) == expected and verdict.details["optimal"] is None
    # an invalid plan is still 0, decided
    verdict = TASKS["optplan"].score(RecordContext(record, options, TimeoutPlanners()), read_steps("\n".join(SWAPPED)))
    assert (verdict.score, verdict.status) == (0.0, SCORED) and verdict.details["optimal"] is False


def test_twenty_thousand_steps_are_read_and_judged_as_text():
    """A plan of 20,000 steps (the optimal plan, then board/debark c1 over and over): every step is read, the
    plan executes (c1 can be boarded and put back at l0 forever) and reaches the goal, with steps after it."""
    padding = ["(board c1 l0)", "(debark c1 l0)"] * 9997
    result, reason, details = score("plan", "\n".join(PLAN + padding))
    assert result == 1.0 and details["prefix"] == 20000 and details["failure_class"] == "extra_steps"
    assert reason == "the goal already held after step 6 of 20000"
    result, _, details = score("optplan", "\n".join(PLAN + padding))
    assert result == 0.0 and details["cost"] == 20000 and details["optimal_cost"] == 6
