"""Set measures (acpgen/tasks/measures.py): one rule for empty sets, values worked out by hand."""

from __future__ import annotations

import pytest

from acpgen.tasks.measures import set_measures


@pytest.mark.parametrize(
    "given, true, precision, recall, f1",
    [
        ({"a", "b"}, {"a", "b"}, 1.0, 1.0, 1.0),
        ({"a"}, {"a", "b"}, 1.0, 0.5, 2 / 3),  # 2 * 1 * 0.5 / 1.5
        ({"a", "c"}, {"a", "b"}, 0.5, 0.5, 0.5),
        ({"c"}, {"a", "b"}, 0.0, 0.0, 0.0),
        (set(), set(), 1.0, 1.0, 1.0),  # nothing asked, nothing named: perfect
        (set(), {"a"}, 0.0, 0.0, 0.0),  # an empty answer names nothing right
        ({"a"}, set(), 0.0, 0.0, 0.0),  # naming something where nothing is true names only wrong things
    ],
)
def test_precision_recall_f1(given, true, precision, recall, f1):
    m = set_measures(given, true)
    assert (m.precision, m.recall) == (precision, recall)
    assert m.f1 == pytest.approx(f1)


def test_every_scorer_reports_the_same_measures():
    """The API and `acp score` take their measures from the one scoring path (acpgen.evaluation.scoring)."""
    import acpgen
    from acpgen.evaluation.scoring import score_one
    from acpgen.tasks import RecordContext

    domain = (
        "(define (domain d) (:predicates (p ?x) (q ?x))"
        " (:action go :parameters (?x) :precondition (p ?x) :effect (q ?x)))"
    )
    problem = "(define (problem t) (:domain d) (:objects a b c) (:init (p a) (p b)) (:goal (q a)))"
    record = {"id": 1, "group": "applicable_actions_gen", "answer": ["(go a)", "(go b)"]}
    record.update(PDDL_domain=domain, PDDL_problem=problem)
    for response, expected in (("(go a)", (1.0, 0.5)), ("(go a) (go c)", (0.5, 0.5)), ("nothing", (0.0, 0.0))):
        verdict = score_one(RecordContext(record), "app", response)
        api = acpgen.score(record, response)
        assert (verdict.details["precision"], verdict.details["recall"]) == expected
        assert (api.precision, api.recall) == expected
