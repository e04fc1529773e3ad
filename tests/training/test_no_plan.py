"""A record no plan solves (issue 61) in the training environments: an episode ends when the model says that no plan
exists, and the answer is exact (reward 1 on a record acp proved unsolvable, 0 on a solvable one); the rewards of a
plan offered for an unsolvable record are 0 on every signal, partial credit included, and "no plan exists" earns 1 on
every signal."""

from __future__ import annotations

from pathlib import Path

import pytest

from acpgen.data import DOMAINS_DIR
from acpgen.training.episode import Episode
from acpgen.training.rewards import SIGNALS, reward

FERRY = (Path(DOMAINS_DIR) / "ferry" / "domain.pddl").read_text()
#: car c0 must end at both locations: h² keeps the two goal facts apart (the contradiction of the shallow ones)
UNSOLVABLE = """(define (problem p) (:domain ferry) (:objects c0 c1 - car l0 l1 - location)
 (:init (at c0 l0) (at c1 l0) (at-ferry l0) (empty-ferry) (not-eq l0 l1) (not-eq l1 l0))
 (:goal (and (at c0 l1) (at c1 l1) (at c0 l0))))"""


def record(problem: str, solvable: bool) -> dict:
    base = {"id": 7, "group": "plan_generation_gen", "task": "plan", "domain": "ferry", "uid": "ferry/u001-s0000/plan"}
    fields = {"answer": None, "solvable": False} if not solvable else {"answer": PLAN, "optimal_cost": len(PLAN)}
    return {**base, "PDDL_domain": FERRY, "PDDL_problem": problem, **fields}


PLAN = ["(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)", "(sail l1 l0)", "(board c1 l0)", "(sail l0 l1)",
        "(debark c1 l1)"]  # fmt: skip
SOLVABLE = UNSOLVABLE.replace(" (at c0 l0))))", ")))")
SAYS = "I checked every way of moving the cars. No plan exists: the goal cannot be reached."


def test_an_episode_ends_when_the_model_says_no_plan_exists_and_the_answer_is_exact():
    episode = Episode(record(UNSOLVABLE, solvable=False))
    assert "No plan exists" in episode.prompt  # the instruction says how
    first = episode.step("(board c0 l0)")
    assert not first.done and first.applied == ("(board c0 l0)",)
    said = episode.step(SAYS)
    assert said.done and said.reward == 1.0 and "Right: no plan reaches the goal" in said.text
    assert episode.summary()["declared_no_plan"] and episode.optimal_plan() is None

    wrong = Episode(record(SOLVABLE, solvable=True))
    said = wrong.step(SAYS)
    assert said.done and said.reward == 0.0 and f"a plan of {len(PLAN)} step(s) reaches the goal" in said.text


def test_an_invalid_step_before_the_statement_costs_its_penalty():
    episode = Episode(record(UNSOLVABLE, solvable=False))
    episode.step("(fly c0 l1)")
    said = episode.step(SAYS)
    assert said.done and said.reward == pytest.approx(1.0 - episode.settings.invalid_penalty)


def test_the_rewards_of_a_plan_for_an_unsolvable_record_are_zero_on_every_signal():
    unsolvable = record(UNSOLVABLE, solvable=False)
    offered = reward(unsolvable, "\n".join(PLAN))  # executes and reaches two of the three goal facts
    assert offered.value == 0.0 and offered.signals == dict.fromkeys(SIGNALS, 0.0), offered
    honest = reward(unsolvable, SAYS)
    assert honest.value == 1.0 and honest.signals == dict.fromkeys(SIGNALS, 1.0), honest
    solvable = reward(record(SOLVABLE, solvable=True), SAYS)
    assert solvable.value == 0.0 and solvable.signals["goal_fraction"] == 0.0, solvable
