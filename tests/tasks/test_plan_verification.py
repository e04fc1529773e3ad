"""pver (acpgen.tasks.plan_verification): near misses of a plan, their verdicts, reading and scoring
verdicts, re-proving stored ones and the yes/no and multiple-choice claims — on the two-car ferry of
tests/tasks/hand_ferry.py. Every verdict below is worked out by hand from the ferry domain's PDDL: sail needs
(not-eq ?from ?to) and (at-ferry ?from); board needs (at ?car ?loc), (at-ferry ?loc), (empty-ferry); debark
needs (on ?car) and (at-ferry ?loc)."""

from __future__ import annotations

import random

import hand_ferry
import pytest

from acpgen.config import QAConfig
from acpgen.nl.answers import ParseError
from acpgen.pddl.grounding import GroundTask
from acpgen.proofs.claims import PlanClaim, claim_from_dict
from acpgen.tasks import TASKS, RecordContext
from acpgen.tasks.base import OK, WRONG, QAItem
from acpgen.tasks.plan_verification import GOAL, INVALID, STEP, VALID, PlanCheck, near_misses, parse_check

PLAN = hand_ferry.OPTIMAL_PLAN  # b0 = (board c0 l0), s01, d0 = (debark c0 l1), b1 = (board c1 l1), s10, d1
TASK = TASKS["pver"]

# sequence -> its verdict, by hand
BY_HAND = {
    # the plan itself, and with one more sail after the goal holds (the cars stay: still a plan)
    "plan": (PLAN, PlanCheck(VALID)),
    "sail after the goal": ([*PLAN, "(sail l0 l1)"], PlanCheck(VALID)),
    # the first five and four steps apply; c1 is still aboard or at l1, so (at c1 l0) is false
    "last step cut": (PLAN[:5], PlanCheck(GOAL)),
    "last two steps cut": (PLAN[:4], PlanCheck(GOAL)),
    # step dropped: s01 applies, then d0 needs (on c0)
    "first step dropped": (PLAN[1:], PlanCheck(STEP, 2)),
    # b0, then d0 needs (at-ferry l1): the ferry is at l0
    "second step dropped": ([PLAN[0], *PLAN[2:]], PlanCheck(STEP, 2)),
    # b0, s01, then b1 needs (empty-ferry): c0 is aboard
    "third step dropped": ([*PLAN[:2], *PLAN[3:]], PlanCheck(STEP, 3)),
    # b0 s01 d0 s10 (back at l0), then d1 needs (on c1)
    "fourth step dropped": ([*PLAN[:3], *PLAN[4:]], PlanCheck(STEP, 5)),
    # b0 s01 d0 b1, then d1 needs (at-ferry l0): the ferry is at l1
    "fifth step dropped": ([*PLAN[:4], PLAN[5]], PlanCheck(STEP, 5)),
    # s01 first: then b0 needs (at-ferry l0)
    "steps 1 and 2 swapped": ([PLAN[1], PLAN[0], *PLAN[2:]], PlanCheck(STEP, 2)),
    "steps 2 and 3 swapped": ([PLAN[0], PLAN[2], PLAN[1], *PLAN[3:]], PlanCheck(STEP, 2)),
    "steps 3 and 4 swapped": ([*PLAN[:2], PLAN[3], PLAN[2], *PLAN[4:]], PlanCheck(STEP, 3)),
    # b0 s01 d0 s10, then b1 needs (at-ferry l1)
    "steps 4 and 5 swapped": ([*PLAN[:3], PLAN[4], PLAN[3], PLAN[5]], PlanCheck(STEP, 5)),
    "steps 5 and 6 swapped": ([*PLAN[:4], PLAN[5], PLAN[4]], PlanCheck(STEP, 5)),
    # a location where a car goes, a car left out, an action the domain does not have, another car
    "arguments reversed": (["(board l0 c0)", *PLAN[1:]], PlanCheck(STEP, 1)),
    "argument missing": ([*PLAN[:3], "(board c1)", *PLAN[4:]], PlanCheck(STEP, 4)),
    "unknown action": (["(load c0 l0)", *PLAN[1:]], PlanCheck(STEP, 1)),
    # c1 is at l1, not at l0
    "other car boarded": (["(board c1 l0)", *PLAN[1:]], PlanCheck(STEP, 1)),
}


def ctx_for(sequence: list[str], answer: str = "valid") -> RecordContext:
    return RecordContext(hand_ferry.record(answer, plan=sequence))


@pytest.mark.parametrize("name", list(BY_HAND))
def test_every_sequence_gets_its_verdict_by_hand_from_both_procedures(name):
    sequence, expected = BY_HAND[name]
    ctx = ctx_for(sequence, expected.text())
    assert TASK.validate(ctx).verdict == OK  # the lifted interpreter (and unified-planning) agree
    assert TASK.score(ctx, expected).score == 1.0  # the record carries no uid: the grounded judge re-proves it
    for other in {v for _, v in BY_HAND.values()} - {expected}:
        assert TASK.score(ctx, other).score == 0.0


def test_a_wrong_stored_verdict_is_caught():
    ctx = ctx_for(PLAN[1:], "step 1")  # it is step 2
    check = TASK.validate(ctx)
    assert check.verdict == WRONG and "step 2" in check.reason


def test_near_misses_of_the_plan_are_the_hand_made_ones():
    task = GroundTask.from_strings(hand_ferry.DOMAIN, hand_ferry.PROBLEM)
    found = {tuple(seq): kind for kind, seq in near_misses(task, PLAN, random.Random(1))}
    expected_kinds = {
        "plan": "plan",
        "last step cut": "truncated",
        "last two steps cut": "truncated",
        "first step dropped": "step_dropped",
        "second step dropped": "step_dropped",
        "third step dropped": "step_dropped",
        "fourth step dropped": "step_dropped",
        "fifth step dropped": "step_dropped",  # the sixth dropped is the last step cut
        "steps 1 and 2 swapped": "steps_swapped",
        "steps 5 and 6 swapped": "steps_swapped",
        "arguments reversed": "arguments_reversed",
    }
    for name, kind in expected_kinds.items():
        assert found[tuple(BY_HAND[name][0])] == kind, name
    # one replaced object, one reversal (every ferry action has two arguments) and one missing argument per step
    for kind, count in (("object_replaced", 6), ("arguments_reversed", 6), ("argument_missing", 6)):
        assert sum(k == kind for k in found.values()) == count, kind


@pytest.mark.parametrize("seed", range(12))
def test_generated_records_carry_the_verdict_of_their_sequence(seed):
    ctx = ctx_for(PLAN)
    fields = TASK.generate(ctx, QAItem({"id": "s"}, list(PLAN)), random.Random(seed), QAConfig())
    assert fields is not None
    known = {tuple(seq): verdict for seq, verdict in BY_HAND.values()}
    record = hand_ferry.record(fields["answer"], plan=fields["plan"])
    assert TASK.validate(RecordContext(record)).verdict == OK
    if tuple(fields["plan"]) in known:
        assert fields["answer"] == known[tuple(fields["plan"])].text()


def test_the_three_kinds_are_drawn():
    ctx = ctx_for(PLAN)
    answers = {
        TASK.generate(ctx, QAItem({"id": "s"}, list(PLAN)), random.Random(seed), QAConfig())["answer"].split()[0]
        for seed in range(40)
    }
    assert answers == {"valid", "step", "goal"}


# ----- reading -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("valid", PlanCheck(VALID)),
        ("**Final Answer**: Valid.", PlanCheck(VALID)),
        ("Yes, it is a plan.", PlanCheck(VALID)),
        ("step 3", PlanCheck(STEP, 3)),
        ("3", PlanCheck(STEP, 3)),
        ("Final answer: Step #4", PlanCheck(STEP, 4)),
        ("The first failing step is step 2: (debark c0 l1) needs (on c0).", PlanCheck(STEP, 2)),
        ("The 5th step cannot be applied.", PlanCheck(STEP, 5)),
        ("goal not reached", PlanCheck(GOAL)),
        ("Every step applies, but the goal is not reached.", PlanCheck(GOAL)),
        ("All steps can be applied, but after step 5 the goal does not hold.", PlanCheck(GOAL)),
        ("It does not reach the goal.", PlanCheck(GOAL)),
        ("Step 2 fails, so the goal is not reached.", PlanCheck(STEP, 2)),
        ("The plan is invalid.", PlanCheck(INVALID)),
        ("<think>step 2?</think> valid", PlanCheck(VALID)),
        ("There is no failing step: the plan is valid.", PlanCheck(VALID)),
    ],
)
def test_verdicts_are_read_from_answers(response, expected):
    assert parse_check(response) == expected


@pytest.mark.parametrize("response", ["", "I don't know", "step 0", "<think>valid</think>"])
def test_an_answer_without_a_verdict_is_a_parse_error(response):
    with pytest.raises(ParseError):
        parse_check(response)


def test_an_unspecific_invalid_scores_0_with_a_reason():
    verdict = TASK.score(ctx_for(PLAN[1:]), PlanCheck(INVALID))
    assert verdict.score == 0.0 and "without saying where" in verdict.reason


# ----- a state from which no plan exists ----------------------------------------------------------------------
# The ferry with the goal "c0 at l1 and at l0": no state holds both (a car is at one place at a time), so no plan
# exists, and every sequence fails at a step or ends with the goal not reached.
CONTRADICTION = hand_ferry.PROBLEM.replace("(:goal (and (at c0 l1) (at c1 l0)))", "(:goal (and (at c0 l1) (at c0 l0)))")


def unsolvable_ctx(sequence: list[str], answer: str) -> RecordContext:
    return RecordContext(hand_ferry.record(answer, CONTRADICTION, plan=sequence, solvable=False))


@pytest.mark.parametrize(
    "response",
    ["No plan exists.", "There is no valid plan from this state.", "The goal cannot be reached from this state."],
)
def test_no_plan_exists_is_read_as_the_verdict_invalid(response):
    # no verdict of the task: the sequence is no plan, where it fails unsaid ("No valid plan" is no "valid")
    check = parse_check(response)
    assert check == PlanCheck(INVALID) and check.no_plan


def test_no_plan_exists_scores_0_on_an_unsolvable_record_with_a_reason():
    # the original optimal plan executes; c0 ends at l1, (at c0 l0) false: goal not reached
    ctx = unsolvable_ctx(PLAN, "goal not reached")
    assert TASK.validate(ctx).verdict == OK
    verdict = TASK.score(ctx, parse_check("No plan exists from this state."))
    assert verdict.score == 0.0
    assert (
        verdict.reason == "says no plan exists from the state, not where the sequence fails; expected goal not reached"
    )
    assert TASK.score(ctx, parse_check("goal not reached")).score == 1.0


def test_an_unsolvable_record_never_stores_valid():
    check = TASK.validate(unsolvable_ctx(PLAN, "valid"))
    assert check.verdict == WRONG and "no sequence from a state without a plan is valid" in check.reason


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("suffix", [None, PLAN])
def test_questions_about_an_unsolvable_state_carry_a_proven_verdict(seed, suffix):
    ctx = unsolvable_ctx(PLAN, "goal not reached")
    fields = TASK.generate_unsolvable(ctx, QAItem({}, suffix), random.Random(seed), QAConfig())
    assert fields is not None and fields["solvable"] is False and fields["answer"] != "valid"
    assert fields["perturbation"] != ("plan" if suffix is None else "walk")
    record = hand_ferry.record(fields["answer"], CONTRADICTION, plan=fields["plan"], solvable=False)
    assert TASK.validate(RecordContext(record)).verdict == OK  # the lifted interpreter agrees


def test_a_stored_answer_reads_back():
    for text in ("valid", "goal not reached", "step 12"):
        assert PlanCheck.from_text(text).text() == text


# ----- yes/no and multiple choice -----------------------------------------------------------------------
def test_claims_are_the_plan_and_near_misses_that_name_actions_only():
    ctx = ctx_for(PLAN)
    claims = TASK.choice_formats().claims(ctx, QAItem({"id": "s"}, list(PLAN)), random.Random(3), QAConfig())
    assert claims is not None
    assert PlanClaim(list(PLAN)) in claims.true
    by_hand_false = {tuple(s) for s, v in BY_HAND.values() if v.kind != VALID and "(board l0 c0)" not in s}
    readable_false = {tuple(c.steps) for c in claims.false}
    assert not any("(board l0 c0)" in c.steps or "(board c1)" in c.steps for c in claims.false)
    assert {tuple(BY_HAND[n][0]) for n in ("last step cut", "first step dropped", "steps 4 and 5 swapped")} <= (
        readable_false & by_hand_false
    )
    spec = TASK.choice_formats()
    for claim in claims.true + claims.false:
        assert spec.decide(ctx, claim).value == (claim in claims.true)


def test_a_plan_claim_round_trips_through_json():
    claim = PlanClaim(["(board c0 l0)", "(sail l0 l1)"])
    assert claim_from_dict(claim.to_dict()) == claim and claim.to_dict() == {"steps": ["(board c0 l0)", "(sail l0 l1)"]}
