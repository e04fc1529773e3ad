"""Answers written in words, as models write them: each task reads a proven answer in the domain template's
English (numbered markdown steps with an explanation under each, sentences with connectives, a lead-in, a
verb and the action's objects) as the same answer, and a provably wrong twin of it (an element left out, a
plan's last step left out) as wrong. The expected verdicts come from the records' proven answers, not from
the reader."""

from __future__ import annotations

import re

import pytest

import acpgen
from acpgen.nl.describe import Describer
from acpgen.pddl.tarski_io import read_strings
from acpgen.tasks.base import template_of
from tests.conftest import CI

TASKS = ("plan", "app", "land", "nexta", "areach", "prog", "just", "rac_exec", "pver", "val")


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> dict[tuple[str, str], list[dict]]:
    cache = tmp_path_factory.mktemp("words-cache")
    return {  # the questions about solvable problems (those about problems no plan solves: tests/tasks/test_plan.py)
        (domain, task): [
            r for r in acpgen.generate(domain, task, n=2, seed=5, config=CI, cache_dir=cache) if r.get("solvable", 1)
        ]
        for domain in ("ferry", "grippers")
        for task in TASKS
    }


def words(record: dict) -> Describer:
    lifted = read_strings(record["PDDL_domain"], record["PDDL_problem"])
    template = template_of(record, lifted)
    assert template is not None
    return Describer(template, lifted)


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def markdown_steps(describer: Describer, actions: list[str]) -> str:
    """Numbered bold steps, each with an explanation line under it that names no action."""
    lines = ["Here is a plan that reaches the goal:", ""]
    for number, action in enumerate(actions, 1):
        lines += [
            f"{number}. **{sentence(describer.action(action))}**",
            "   - This keeps the other objects where they are.",
        ]
    return "\n".join(lines)


def connected(describer: Describer, actions: list[str]) -> str:
    """Sentences led by connectives ("First, ... Next, ... Finally, ...")."""
    leads = ["First", *["Next"] * (len(actions) - 2), "Finally"] if len(actions) > 1 else ["First"]
    return " ".join(f"{lead}, {describer.action(a)}." for lead, a in zip(leads, actions))


def test_plans_written_in_words_read_as_their_actions(records):
    for domain in ("ferry", "grippers"):
        for record in records[(domain, "plan")]:
            describer, plan = words(record), record["answer"]
            for response in (markdown_steps(describer, plan), connected(describer, plan)):
                assert acpgen.score(record, response).score == 1.0, response
                # the twin without its last step does not reach the goal
                twin = response.replace(markdown_steps(describer, plan), markdown_steps(describer, plan[:-1]))
                if twin == response:
                    twin = connected(describer, plan[:-1])
                assert acpgen.score(record, twin).score == 0.0, twin


def test_a_step_named_by_its_verb_and_objects_is_read_whatever_the_other_words(records):
    record = records[("ferry", "plan")][0]
    steps = []
    for action in record["answer"]:
        name, *args = action.strip("()").split()
        steps.append(f"{name.capitalize()} " + " over to ".join(args) if name == "sail" else f"{name} {' '.join(args)}")
    response = "\n".join(f"Step {i}: {step}" for i, step in enumerate(steps, 1))
    assert acpgen.score(record, response).score == 1.0, response
    # a verb whose objects make no action of the task is a step that cannot be read: the plan is invalid
    broken = response.replace(steps[0], steps[0].split()[0] + " the ferry somewhere")
    verdict = acpgen.score(record, broken)
    assert verdict.score == 0.0 and verdict.details["failure_class"] == "unreadable_step", verdict.reason


def test_a_plan_restated_under_a_heading_is_one_plan(records):
    record = records[("ferry", "plan")][0]
    plan = record["answer"]
    worked = "\n".join(f"Step {i}: {a} - this step moves us closer" for i, a in enumerate(plan, 1))
    for heading in ("**Action Sequence:**", "### Final Plan", "Plan:"):
        response = f"Let me work it out.\n{worked}\n\n{heading}\n" + "\n".join(plan)
        assert acpgen.score(record, response).score == 1.0, response


def test_set_answers_in_words_after_a_lead_in(records):
    for domain in ("ferry", "grippers"):
        for task in ("app", "rac_exec"):
            for record in records[(domain, task)]:
                describer, actions = words(record), record["answer"]
                if len(actions) < 2:
                    continue
                lead = "The actions that can be performed then are: "
                response = lead + ", ".join(describer.action(a) for a in actions) + "."
                assert acpgen.score(record, response).score == 1.0, response
                twin = lead + ", ".join(describer.action(a) for a in actions[1:]) + "."
                assert acpgen.score(record, twin).score == 0.0, twin


def test_single_answers_in_a_sentence(records):
    for domain in ("ferry", "grippers"):
        for record in records[(domain, "land")]:
            describer = words(record)
            yes, no = record["answer"]["yes"], record["answer"]["no"]
            assert acpgen.score(record, f"The answer is: {describer.atom(yes[0])}.").score == 1.0
            if no:
                assert acpgen.score(record, f"The answer is: {describer.atom(no[0])}.").score == 0.0
        for record in records[(domain, "nexta")]:
            describer, answer = words(record), record["answer"]
            response = f"The best next action is to {describer.action(answer['yes'][0])}."
            assert acpgen.score(record, response).score == 1.0, response
            for wrong in answer["no"][:1]:
                assert acpgen.score(record, f"The best next action is to {describer.action(wrong)}.").score == 0.0
        for record in records[(domain, "areach")]:
            describer = words(record)
            answer = record["answer"]
            if answer:
                response = f"Such an action is to {describer.action(answer[0])}."
                assert acpgen.score(record, response).score == 1.0, response


def test_effects_in_words_under_their_labels(records):
    for domain in ("ferry", "grippers"):
        for record in records[(domain, "prog")]:
            describer, answer = words(record), record["answer"]

            def listed(atoms: list[str], describer: Describer = describer) -> str:
                return ", ".join(describer.atom(a) for a in atoms) or "none"

            response = f"Positive effects: {listed(answer['pos'])}.\nNegative effects: {listed(answer['neg'])}."
            assert acpgen.score(record, response).score == 1.0, response
            swapped = f"Positive effects: {listed(answer['neg'])}.\nNegative effects: {listed(answer['pos'])}."
            assert acpgen.score(record, swapped).score == 0.0, swapped


def test_a_shortened_plan_in_words(records):
    for domain in ("ferry", "grippers"):
        for record in records[(domain, "just")]:
            describer = words(record)
            reference = acpgen.reference_answer(record)
            actions = re.findall(r"\([^()]*\)", reference)
            response = "Simplified plan: " + ", ".join(describer.action(a) for a in actions)
            assert acpgen.score(record, response).score == 1.0, response
            # the given plan itself is not shorter than the given plan
            unchanged = "Simplified plan: " + ", ".join(describer.action(a) for a in record["plan"])
            assert acpgen.score(record, unchanged).score == 0.0, unchanged


def test_the_strict_reading_counts_what_the_lenient_one_leaves_out(records):
    record = next(r for r in records[("ferry", "app")] if len(r["answer"]) >= 2)
    describer = words(record)
    response = ", ".join(describer.action(a) for a in record["answer"]) + ", and the weather is fine"
    lenient = acpgen.score(record, response)
    assert lenient.score == 1.0 and lenient.details["strict_score"] == 0.0, lenient
    assert "read as nothing: 'the weather is fine'" in lenient.details["strict_reason"]


def test_a_negative_step_number_names_no_step(records):
    record = records[("ferry", "pver")][0]
    assert acpgen.score(record, "-1").status == "parse_error"
