"""Rewards (acpgen.training.rewards): acp's exact score with the strict reading and the partial-credit
signals, on ferry records made with the CI configuration. The expected signals follow from how each
answer is made: a stored answer scores 1 on every signal; an app answer missing one action of n has
precision 1 and recall (n-1)/n; the first step of a stored plan executes and does not reach the goal."""

from __future__ import annotations

import pytest
from conftest import lifted_run

import acpgen
from acpgen.training.rewards import SIGNALS, reward, text_of


def test_stored_answers_score_one_on_every_signal(rl_records):
    for records in rl_records.values():
        for record in records:
            result = reward(record, acpgen.reference_answer(record))
            assert (result.value, result.status) == (1.0, "scored"), record["uid"]
            assert result.signals == dict.fromkeys(SIGNALS, 1.0)


def test_a_set_answer_missing_one_element(rl_records):
    record = next(r for r in rl_records["app"] if len(r["answer"]) >= 2)
    n = len(record["answer"])
    result = reward(record, "\n".join(record["answer"][:-1]))
    assert result.value == 0.0
    assert result.signals["precision"] == 1.0
    assert result.signals["recall"] == pytest.approx((n - 1) / n, abs=1e-4)
    assert result.signals["f1"] == pytest.approx(2 * (n - 1) / n / (1 + (n - 1) / n), abs=1e-4)
    assert result.signals["goal_fraction"] == result.signals["plan_prefix"] == 0.0  # no such signal: the score


def test_a_plan_prefix(rl_records):
    record = next(r for r in rl_records["plan"] if r["optimal_cost"] >= 2)
    result = reward(record, record["answer"][0])
    assert (result.value, result.signals["plan_prefix"]) == (0.0, 1.0)
    assert result.signals["goal_fraction"] == pytest.approx(lifted_run(record, record["answer"][:1])[1])
    assert 0.0 <= result.signals["goal_fraction"] < 1.0
    # the plan backwards: its first step (the plan's last action) does not execute in the state
    backwards = reward(record, "\n".join(reversed(record["answer"])))
    expected = acpgen.score(record, "\n".join(reversed(record["answer"])), strict=True)
    assert backwards.value == expected.score == 0.0
    assert backwards.signals["plan_prefix"] == expected.details["prefix"] / len(record["answer"])
    executable, progress = lifted_run(record, list(reversed(record["answer"])))
    assert backwards.signals["plan_prefix"] == executable / len(record["answer"])
    assert backwards.signals["goal_fraction"] == pytest.approx(progress)


def test_goal_fraction_pays_for_progress_only(rl_records):
    """Issue 47: the share of the goal true at the start is no credit. A non-answer earns 0 on every signal; a
    plan whose first step cannot be applied makes no progress (0), whatever share of the goal held already; each
    prefix of the stored plan earns the progress the separate lifted interpreter measures, the whole plan 1."""
    shares_held = []
    for record in rl_records["plan"]:
        plan = record["answer"]
        for text in ("", "I am not sure", "I am not sure what to do next.", record["question"]):
            assert reward(record, text).signals == dict.fromkeys(SIGNALS, 0.0), text
        backwards = "\n".join(reversed(plan))
        if lifted_run(record, list(reversed(plan)))[0] == 0:  # its first step does not execute
            stuck = reward(record, backwards)
            assert stuck.signals["goal_fraction"] == 0.0 and stuck.signals["plan_prefix"] == 0.0
            shares_held.append(acpgen.score(record, backwards).details["goal_fraction"])  # what the signal paid
        for k in range(1, len(plan) + 1):
            result = reward(record, "\n".join(plan[:k]))
            assert result.signals["goal_fraction"] == pytest.approx(lifted_run(record, plan[:k])[1])
        assert reward(record, "\n".join(plan)).signals["goal_fraction"] == 1.0
    assert shares_held and max(shares_held) > 0  # the share of the goal held at the start, no longer paid


def test_strict_and_lenient_readings(rl_records):
    record = rl_records["rac_state"][0]
    noisy = acpgen.reference_answer(record).rstrip(".") + "; the weather is fine."
    lenient, strict = reward(record, noisy, strict=False), reward(record, noisy)
    assert (lenient.value, strict.value) == (1.0, 0.0)
    assert "read as nothing" in strict.reason


@pytest.mark.parametrize(
    "response",
    [None, "", "I do not know", "(" * 5000, {"role": "assistant"}, [{"type": "image"}], 42, ["a", None, 3.5]],
)
def test_malformed_answers_are_parse_errors_never_exceptions(rl_records, response):
    for records in rl_records.values():
        result = reward(records[0], response)
        assert result.value == 0.0 and result.status in ("parse_error", "scored")


def test_an_undecided_answer_has_no_value(rl_records):
    broken = dict(rl_records["app"][0], PDDL_problem="(define (problem broken")
    result = reward(broken, "(sail l0 l1)")
    assert (result.value, result.status) == (None, "undecided")


def test_the_text_of_chat_completions():
    assert text_of("plain") == "plain"
    assert text_of([{"role": "assistant", "content": "(sail l0 l1)"}]) == "(sail l0 l1)"
    conversation = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "first"},
        {"role": "assistant", "content": [{"type": "text", "text": "last"}]},
    ]
    assert text_of(conversation) == "last"
    assert text_of([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]) == "a\nb"
    assert text_of(None) is None


def test_the_readme_training_examples_import_what_exists():
    import ast

    from test_api import readme_section_blocks

    blocks = readme_section_blocks("Training environments")
    assert blocks  # TRL's lines; the other adapters' are on their pages (tests/adapters/test_doc_snippets.py)
    for block in blocks:
        for node in ast.walk(ast.parse(block)):
            if isinstance(node, ast.ImportFrom):
                module = __import__(node.module, fromlist=[a.name for a in node.names])
                assert all(hasattr(module, alias.name) for alias in node.names), node.module
