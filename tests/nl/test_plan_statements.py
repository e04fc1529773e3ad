"""Answers that say no plan exists (acpgen.nl.plan_steps: no_plan_statement, read_plan): the phrasings models use, the
negations, conditions, hedges and qualifications that are no such statement, and the one reading rule for an
answer that offers a plan and also says no plan exists (its final statement counts). Every expectation is read
off the text by hand; the plans are steps of the ferry domain (board, sail, debark)."""

from __future__ import annotations

import json

import pytest
from conftest import FIXTURES

from acpgen.data import DOMAINS_DIR
from acpgen.nl.answers import ParseError
from acpgen.nl.plan_steps import NO_PLAN_ANSWER, NoPlan, no_plan_statement, read_plan
from acpgen.tasks import RecordContext

FERRY = {
    "domain": "ferry",
    "PDDL_domain": (DOMAINS_DIR / "ferry" / "domain.pddl").read_text(),
    "PDDL_problem": """(define (problem p) (:domain ferry)
  (:objects c0 - car l0 l1 - location)
  (:init (at c0 l0) (at-ferry l0) (empty-ferry) (not-eq l0 l1) (not-eq l1 l0))
  (:goal (and (at c0 l1))))""",
    "answer": None,
}
READER = RecordContext(FERRY).reader
PLAN = "(board c0 l0)\n(sail l0 l1)\n(debark c0 l1)"
STEPS = ["(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)"]

SAYS_NO_PLAN = [
    NO_PLAN_ANSWER,
    "No plan exists.",
    "There is no plan.",
    "There is no valid plan for this problem.",
    "There is no such plan.",
    "No sequence of actions can achieve the goal from the initial state.",
    "There is no sequence of actions that reaches the goal.",
    "There isn't a valid plan.",
    "There isn\u2019t any plan that reaches the goal.",
    "Such a plan does not exist.",
    "No solution exists for the given problem.",
    "No plan possible.",
    "(no plan exists)",
    "The goal is impossible.",
    "The goal state is unreachable from the current state.",
    "The goal is unachievable.",
    "The goal you've specified is not achievable as it contains a contradiction.",
    "This problem is unsolvable.",
    "The task is infeasible.",
    "The goal cannot be achieved.",
    "The goal cannot be reached from here.",
    "The goal conditions cannot be satisfied.",
    "The goal can\u2019t be accomplished with these actions.",
    "The goal can never be reached.",
    "The problem cannot be solved.",
    "It is impossible to reach the goal.",
    "It is not possible to find a plan that reaches the goal.",
    "It is not possible to achieve all the goals simultaneously.",
    "The goal is impossible to achieve.",
    "We cannot reach the goal from this state.",
    "Impossible.",
    "Unsolvable",
    "It is impossible.",
    "Given the constraints, this goal is not feasible, so there is no plan.",
    "Therefore, the goal is unattainable.",
    "It seems there is no way to reach the goal.",
    "Plan: (none) \u2014 the goal cannot be reached.",
    "[]\nThe goal cannot be reached from the current state.",
    "Plan: []\nNo plan exists: the goal is unreachable.",
    "The answer is that no plan can achieve the specified goal.",
    "<think>Let me try (board c0 l0) first.</think>\nNo plan exists.",
    "**Final Answer**: There is no plan.",
    "The goal requires c0 at l0 and at l1 at once, which is impossible: no plan exists.",
]


@pytest.mark.parametrize("response", SAYS_NO_PLAN)
def test_the_phrasings_models_use_say_no_plan_exists(response):
    for reader in (None, READER):
        answer = read_plan(response, reader)
        assert isinstance(answer, NoPlan) and answer == [], answer
        assert answer.statement


NOT_A_STATEMENT = [
    # negated
    "It is not impossible.",
    "It is not true that no plan exists.",
    "The goal is not unreachable.",
    # about something else
    "This plan is not the only possible one.",
    "I cannot find a plan.",
    "It is impossible to stack two blocks at once.",
    "This is not possible because the ferry is at l1.",
    "No plan is needed.",
    # conditional or hedged
    "If the ferry sails first, the goal cannot be reached.",
    "Without boarding c0 first, the goal cannot be reached.",
    "There may be no plan.",
    "Perhaps the goal is unreachable.",
    # a question
    "Is there no plan?",
]


def says_no_plan(response: str, reader=READER) -> bool:
    try:
        return isinstance(read_plan(response, reader), NoPlan)
    except ParseError:  # nothing read: neither a plan nor the statement
        return False


@pytest.mark.parametrize("response", NOT_A_STATEMENT)
def test_negations_conditions_hedges_and_other_subjects_are_no_statement(response):
    assert no_plan_statement(response) is None
    assert not says_no_plan(response, None) and not says_no_plan(response, READER)


# statements qualified by what follows them: a plan, or a plan shorter than another
QUALIFIED = [
    "The goal cannot be reached without first boarding c0.",
    "Note: no plan exists that is shorter than this one.",
    "No plan can reach the goal in fewer than three steps.",
    "The goal cannot be reached directly.",
    "The goal cannot be reached in one step.",
]


@pytest.mark.parametrize("remark", QUALIFIED)
def test_a_qualified_statement_is_a_remark_and_the_plan_is_read(remark):
    assert no_plan_statement(remark) is None
    for text in (f"{remark}\n{PLAN}", f"{PLAN}\n{remark}"):
        assert [step.action for step in read_plan(text, READER)] == STEPS


# ----- the one reading rule -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("response", "no_plan"),
    [
        # the statement after the plan: the statement
        (f"{PLAN}\nBut wait: no plan exists, c0 is needed at two places.", True),
        (f"Plan:\n{PLAN}\n\nNote: the goal cannot be reached from the current state.", True),
        # the plan after the statement: the plan
        (f"No plan exists for the goal as written. If you meant c0 at l1:\n{PLAN}", False),
        (f"The goal is unreachable.\n\nWait, let me reconsider.\n**Final Answer**:\n{PLAN}", False),
        # a final-answer marker decides which part is the answer section
        (f"{PLAN}\n\nWait, let me reconsider. **Final Answer**: There is no valid plan.", True),
        (f"There is no valid plan.\n\n**Final Answer**:\n{PLAN}", False),
        # the plan in words, after the statement: the plan
        (
            "No plan exists, I thought. It does:\n1. Board car c0 onto the ferry at location l0.\n2. Sail the ferry "
            "from location l0 to location l1.\n3. Debark car c0 from the ferry at location l1.",
            False,
        ),
        # words after the statement that name no action: an atom of the goal, an empty plan, a remark
        ("No plan exists: the goal needs (at c0 l0) and (at c0 l1) together.", True),
        ("The goal cannot be reached.\n**Plan:**\n(none)", True),
        ("The goal cannot be reached.\nPlan: []", True),
    ],
)
def test_the_final_statement_decides_between_a_plan_and_no_plan(response, no_plan):
    answer = read_plan(response, READER)
    assert isinstance(answer, NoPlan) is no_plan
    if not no_plan:
        assert [step.action for step in answer] == STEPS


def test_an_empty_plan_without_a_statement_is_no_answer_as_before():
    with pytest.raises(ParseError):
        read_plan("[]", READER)
    assert not isinstance(read_plan("(none)", READER), NoPlan)  # a step naming no action: the plan is invalid


def test_the_statement_is_the_sentence_that_says_it():
    text = f"{PLAN}\nTo be sure: **no plan exists** (the goal is contradictory).\n"
    answer = read_plan(text, READER)
    assert isinstance(answer, NoPlan)
    assert answer.statement == "To be sure: no plan exists (the goal is contradictory)."


def test_reading_stays_linear_in_the_length_of_the_text():
    # an answer of 20,000 words of prose and steps: read in well under a second (no backtracking over runs)
    import time

    text = ("the goal cannot be " + "very " * 5000 + "hard. ") * 4 + PLAN
    start = time.perf_counter()
    read_plan(text, READER)
    no_plan_statement("no " * 20000 + "plan exists.")
    assert time.perf_counter() - start < 2.0


# ----- real answers: PlanBench's results on its unsolvable configs (tests/fixtures/planbench/real) --------
REAL = FIXTURES / "planbench" / "real" / "results"


def _response(name: str, number: int) -> str:
    data = json.loads((REAL / name).read_text())
    return next(i["llm_raw_response"] for i in data["instances"] if i["instance_id"] == number)


# (file, instance) -> whether the answer's final statement says no plan exists (read by hand; the answers are in
# PDDL syntax or in PlanBench's words, which only the plan reader of acpgen.evaluation.planbench reads: the
# statement is read here on its own)
O1_PDDL = "unsolvable_blocksworld/o1-preview_chat/task_1_plan_generation_zero_shot_pddl.json"
OBFUSCATED = "unsolvable_obfuscated_randomized_blocksworld/o1-preview_chat/task_1_plan_generation_zero_shot_pddl.json"
PLANBENCH = {
    (O1_PDDL, 11): True,
    (O1_PDDL, 13): True,
    (O1_PDDL, 15): True,
    (O1_PDDL, 54): True,
    (O1_PDDL, 70): True,
    # a statement, then "Specifically, the goal requires ...": an explanation, no step of a plan
    (O1_PDDL, 72): True,
    # "No plan is needed since the goal is already satisfied in the initial state."
    (O1_PDDL, 19): False,
    (O1_PDDL, 4): False,
    # "... you may need to clarify your goal": hedged
    ("unsolvable_blocksworld/gpt-4o-mini-2024-07-18_chat/task_1_plan_generation_zero_shot.json", 3): False,
    (OBFUSCATED, 22): True,
    (OBFUSCATED, 37): True,
    # "Unable to generate a plan that meets the goal conditions ...": the model's failure
    (OBFUSCATED, 46): False,
}


@pytest.mark.parametrize(("name", "number"), list(PLANBENCH), ids=[f"{n.split('/')[0]}-{i}" for n, i in PLANBENCH])
def test_real_answers_of_planbench_s_unsolvable_configs(name, number):
    assert (no_plan_statement(_response(name, number)) is not None) is PLANBENCH[(name, number)]


@pytest.mark.parametrize(("name", "number"), list(PLANBENCH), ids=[f"{n.split('/')[0]}-{i}" for n, i in PLANBENCH])
def test_read_plan_takes_the_final_statement_of_real_answers(name, number):
    """read_plan without a reader (the training episode's, PDDL syntax only): no plan offered after a statement."""
    try:
        said = isinstance(read_plan(_response(name, number)), NoPlan)
    except ParseError:
        said = False
    assert said is PLANBENCH[(name, number)]


# Sentences of real answers in PlanBench's published results (llm_planning_analysis/results/...), verbatim, with what
# each says: found by running the reader over every answer of its plan files, not written here
REAL_SENTENCES = {
    # llama-3.1-405b, blocksworld 496: hedged inside the sentence
    "This suggests that the goal might be impossible to achieve given the initial conditions and the allowed "
    "actions.": False,
    # qwen-qwq, blocksworld 274: about the prompt, not the task
    "Wait, there is no plan provided for the second scenario in the statement. It just lists the initial "
    "conditions and the goal": False,
    # claude-3.5-sonnet, mystery blocksworld 84: steps called impossible, the goal not
    "The given plan does not achieve the stated goal and contains impossible steps given the initial "
    "conditions.": False,
    # o1-mini, obfuscated blocksworld 64 and 487: "action plan", and a statement in underscores (markdown emphasis)
    "Therefore, **no valid action plan exists** to reach the desired goal from the current state.": True,
    "**Plan:**\n\n_No valid plan exists to achieve the goal with the available actions._": True,
}


@pytest.mark.parametrize("sentence", list(REAL_SENTENCES))
def test_sentences_of_real_answers(sentence):
    assert (no_plan_statement(sentence) is not None) is REAL_SENTENCES[sentence]
