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
from acpgen.evaluation.scoring import score_one
from acpgen.nl.answers import ParseError
from acpgen.nl.plan_steps import read_steps
from acpgen.pddl.lmcut import lmcut
from acpgen.planners import Limits, PlannerResult, Status
from acpgen.proofs.plans import lifted_verdict, unified_planning_verdict
from acpgen.proofs.unsolvable import Unsolvable
from acpgen.tasks import PARSE_ERROR, SCORED, TASKS, UNDECIDED, RecordContext, ScoreOptions
from acpgen.tasks import plan as plan_task
from acpgen.tasks.base import OK, UNPROVEN, WRONG, QAItem

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


# ----- records about a state from which no plan reaches the goal ------------------------------------------
# The ferry of hand_ferry with the goal "c0 at l1 and c0 at l0": a car is at one place at a time (every action that
# puts it somewhere removes it from where it was, or it is aboard), so no state holds both, and no plan exists.
CONTRADICTION = hand_ferry.PROBLEM.replace("(:goal (and (at c0 l1) (at c1 l0)))", "(:goal (and (at c0 l1) (at c0 l0)))")
NO_PLAN_SAID = "There is no plan: the goal cannot be reached from the current state."
FOUND = "a plan exists: acp's exploration of the reachable states found one"  # the 16 states of the ferry


def unsolvable_record(task: str = "plan", proven: bool = True, **fields) -> dict:
    """A record as the contract writes it: "solvable": false, no plan, no optimal cost; with ``proven``, the fields
    that mark a record acp proved (its uid and task), so that its stored verdict is trusted."""
    assert CONTRADICTION != hand_ferry.PROBLEM
    record = hand_ferry.record(None, CONTRADICTION, solvable=False, **fields)
    return {**record, "uid": f"ferry/p001-s0000/{task}", "task": task} if proven else record


def scored(record: dict, task: str, response: str, **options):
    return score_one(RecordContext(record, ScoreOptions(**options)), task, response)


@pytest.mark.parametrize("task", ["plan", "optplan"])
@pytest.mark.parametrize("recheck", [False, True])
def test_no_plan_exists_scores_1_on_an_unsolvable_record(task, recheck):
    for response in (NO_PLAN_SAID, "Impossible: the goal needs c0 at two places at once.", "[]\nNo plan exists."):
        verdict = scored(unsolvable_record(task), task, response, recheck=recheck)
        assert (verdict.score, verdict.status) == (1.0, SCORED), verdict.reason
        assert verdict.details == {"says_no_plan": True}
        # trusted: the record says so; re-proven (--recheck): two procedures prove it (h2 sees the goal's two
        # atoms apart; the projection onto c0's three atoms, at l0, at l1 and on the ferry, every action of which
        # moves c0 from one to another, never holds two of them)
        assert verdict.reason == "correct: no plan exists from the state" + (
            " (proven: h2: (at c0 l0) and (at c0 l1) hold together in no reachable state (h²); projected: no goal "
            "state in the projection onto 3 atoms of at, on)"
            if recheck
            else ""
        )


@pytest.mark.parametrize("task", ["plan", "optplan"])
def test_a_plan_on_an_unsolvable_record_scores_0_without_partial_credit(task):
    # the optimal plan of the original goal executes: c0 ends at l1 and (at c0 l0) is false
    verdict = scored(unsolvable_record(task), task, "\n".join(PLAN))
    assert (verdict.score, verdict.status) == (0.0, SCORED)
    assert verdict.reason == (
        "the goal does not hold after the last step: (at c0 l0) is false; no plan exists from the state"
    )
    details = verdict.details
    assert (details["valid"], details["reaches_goal"], details["optimal"], details["says_no_plan"]) == (
        True, False, False, False,
    )  # fmt: skip
    # executable prefix and goal share would be 6 and 1/2: partial credit earns nothing for an impossible goal
    assert (details["steps"], details["prefix"], details["goal_fraction"]) == (6, 0, 0.0)
    # a step that fails is named, as on any record
    verdict = scored(unsolvable_record(task), task, "(sail l1 l0)")
    assert verdict.reason.startswith("step 1 (sail l1 l0): precondition (at-ferry l1) is false; no plan exists")
    assert (verdict.details["prefix"], verdict.details["goal_fraction"]) == (0, 0.0)


def test_a_plan_and_a_later_statement_is_read_as_the_statement_and_the_reverse_as_the_plan():
    record = unsolvable_record()
    both = "\n".join(PLAN) + "\n\nWait: c0 cannot be at two places, so no plan exists."
    assert scored(record, "plan", both).score == 1.0
    reverse = "No plan exists, or does it? Let me try.\n\n**Final Answer**:\n" + "\n".join(PLAN)
    verdict = scored(record, "plan", reverse)
    assert verdict.score == 0.0 and verdict.details["says_no_plan"] is False


@pytest.mark.parametrize("task", ["plan", "optplan"])
@pytest.mark.parametrize("recheck", [False, True])
def test_no_plan_exists_scores_0_on_a_solvable_record(task, recheck):
    record = {**hand_ferry.record(PLAN, optimal_cost=6), "uid": f"ferry/p/{task}", "task": task}
    verdict = scored(record, task, "No plan exists: the cars cannot swap.", recheck=recheck)
    assert (verdict.score, verdict.status, verdict.details) == (0.0, SCORED, {"says_no_plan": True})
    assert verdict.reason == "a plan exists: the record's stored plan has 6 steps"
    # a record without a stored plan: the oracle finds one (the 16 states of the ferry, explored)
    bare = hand_ferry.record([])
    verdict = scored(bare, task, "No plan exists.")
    assert (verdict.score, verdict.reason) == (0.0, "a plan exists: the goal is reachable from the state (explored)")


def test_a_plan_row_says_whether_the_answer_says_no_plan_exists():
    record = {**hand_ferry.record(PLAN, optimal_cost=6), "uid": "ferry/p/plan", "task": "plan"}
    assert scored(record, "plan", "\n".join(PLAN)).details["says_no_plan"] is False
    refusal = scored(record, "plan", "I cannot find a plan.")  # no statement: read in words, it names nothing
    assert refusal.status == PARSE_ERROR and "says_no_plan" not in refusal.details


def test_the_reference_answer_of_an_unsolvable_record_says_no_plan_exists_and_scores_1():
    for task in ("plan", "optplan"):
        record = unsolvable_record(task)
        (response,) = TASKS[task].to_responses(record)
        assert response == NO_PLAN_SAID
        assert scored(record, task, response).score == 1.0
        assert TASKS[task].export_answer(record["answer"], str) is None


def test_recheck_proves_unsolvability_and_an_unproven_record_is_undecided(monkeypatch):
    # a record acp did not prove is re-proven before an answer is scored (and --recheck re-proves acp's own)
    record = unsolvable_record(proven=False)
    assert scored(record, "plan", NO_PLAN_SAID).reason.startswith("correct: no plan exists from the state (proven: ")
    # nothing settles it: undecided, never a silent 0, for the statement and for a plan that fails
    unproven = Unsolvable(False, False, reasons=("not proven: no complete search ended",))
    monkeypatch.setattr(plan_task, "prove_unsolvable", lambda *args, **kwargs: unproven)
    for response in (NO_PLAN_SAID, "\n".join(PLAN[:2])):
        verdict = scored(record, "plan", response)
        assert verdict.status == UNDECIDED and verdict.reason.endswith(
            "whether a plan exists is undecided: not proven: no complete search ended"
        ), verdict.reason
    # a plan that reaches the goal proves the record wrong whatever the proofs say: scored as a plan
    solvable = hand_ferry.record(None, solvable=False)
    assert scored(solvable, "plan", "\n".join(PLAN)).score == 1.0


def test_a_record_that_is_solvable_after_all_scores_as_one(monkeypatch):
    # the record says no plan exists; re-proving finds one: "no plan exists" is wrong, a failing plan 0 as usual
    record = hand_ferry.record(None, solvable=False)
    verdict = scored(record, "plan", NO_PLAN_SAID)
    assert (verdict.score, verdict.status, verdict.reason) == (0.0, SCORED, FOUND)
    verdict = scored(record, "plan", "\n".join(PLAN[:5]))
    assert verdict.details["prefix"] == 5 and verdict.details["goal_fraction"] == 0.5  # partial credit as usual


def test_validation_re_proves_an_unsolvable_record():
    assert TASKS["plan"].validate(RecordContext(unsolvable_record())).verdict == OK
    assert TASKS["optplan"].validate(RecordContext(unsolvable_record("optplan"))).verdict == OK
    # the original goal: a plan exists, the record is wrong
    wrong = TASKS["plan"].validate(RecordContext(hand_ferry.record(None, solvable=False)))
    assert wrong.verdict == WRONG and wrong.reason == FOUND
    # an unsolvable record stores no plan
    stored = TASKS["plan"].validate(RecordContext({**unsolvable_record(), "answer": PLAN}))
    assert stored.verdict == WRONG and "stores no plan" in stored.reason


def test_validation_of_an_unsolvable_record_that_cannot_be_proven_is_unproven(monkeypatch):
    unproven = Unsolvable(
        False, False, ("explored",), ("no goal state among ...", "not proven: no second procedure agreed")
    )
    monkeypatch.setattr(plan_task, "prove_unsolvable", lambda *args, **kwargs: unproven)
    check = TASKS["plan"].validate(RecordContext(unsolvable_record()))
    assert check.verdict == UNPROVEN and "no second procedure agreed" in check.reason


def test_generation_hook_of_an_unsolvable_state():
    ctx = RecordContext(unsolvable_record())
    fields = TASKS["plan"].generate_unsolvable(ctx, QAItem({}, None), random.Random(0), QAConfig())
    assert fields == {"answer": None, "solvable": False}
