"""The adaptive source (`acpgen.adaptive`, issue 60): a simulated learner that solves a record iff its difficulty is
at most its skill. The top difficulty settles where the learner's skill ends and follows it when the skill rises
(the median difficulty drawn within 1 of the skill); records are made at the difficulty they carry (the size's
position and the steps it is made from); the same seed and rewards give the same records, with generation in
this process or ahead in a background one.

The rule is also checked against batches made here (``make_batch`` replaced by records that carry only what the
rule reads), so that many skills and settings run in a second; the learner on records `acpgen.generate` makes
runs in `make test-slow`."""

from __future__ import annotations

import re
import statistics

import pytest

import acpgen
from acpgen.config import load_config
from acpgen.errors import ConfigError, DataError
from acpgen.training import adaptive
from acpgen.training.adaptive import AdaptiveSettings, cell_config, splits


def learn(source, skill: int, updates: int) -> list[int]:
    """The difficulties of ``updates`` records drawn and rewarded by a learner of ``skill``."""
    drawn = []
    for _, record in zip(range(updates), source):
        drawn.append(record["difficulty"])
        source.update(record, 1.0 if record["difficulty"] <= skill else 0.0)
    return drawn


@pytest.fixture
def quick(monkeypatch):
    """Batches that carry what the rule reads: a record per draw at the batch's difficulty, none past 12."""

    def make_batch(batch):
        if batch.difficulty > 12:
            return []
        return [
            {"id": f"{batch.difficulty}-{batch.number}-{k}", "task": batch.task, "domain": batch.domain,
             "difficulty": batch.difficulty}
            for k in range(batch.n)
        ]  # fmt: skip

    monkeypatch.setattr(adaptive, "make_batch", make_batch)


@pytest.mark.parametrize(("skill", "raised"), [(3, 5), (1, 4), (6, 8)])
def test_the_difficulty_settles_at_the_skill_and_follows_it(quick, skill, raised):
    source = acpgen.adaptive(tasks=["plan"], domains=["ferry"], seed=0, workers=0)
    settled = learn(source, skill, 300)
    assert abs(statistics.median(settled[-100:]) - skill) <= 1
    assert max(settled) <= skill + 1  # never more than one past what the learner solves
    followed = learn(source, raised, 300)
    assert abs(statistics.median(followed[-100:]) - raised) <= 1


def test_undecided_rewards_and_other_difficulties_do_not_move_it(quick):
    source = acpgen.adaptive(tasks=["plan"], domains=["ferry"], seed=0, workers=0, start=3)
    for record in (next(source) for _ in range(100)):
        source.update(record, None)
    assert source.tops == {("plan", "ferry"): 3}
    with pytest.raises(DataError, match="not one of this source's"):
        source.update({"task": "plan", "domain": "grippers", "difficulty": 3}, 1.0)


def test_a_difficulty_past_the_reach_is_not_drawn(quick):
    source = acpgen.adaptive(tasks=["app"], domains=["ferry"], seed=0, workers=0, start=11)
    drawn = learn(source, 100, 400)  # solves everything: the top would climb without end
    assert max(drawn) == 12 and source.tops == {("app", "ferry"): 12}


def test_settings_are_checked():
    for bad in ({"window": 0}, {"threshold": 1.5}, {"workers": -1}, {"batch": True}):
        with pytest.raises(ConfigError, match=next(iter(bad))):
            AdaptiveSettings(**bad)
    with pytest.raises(ConfigError, match="not configured"):
        acpgen.adaptive(tasks=["plan"], domains=["nowhere"])
    with pytest.raises(ConfigError, match="no mcq format"):
        acpgen.adaptive(tasks=["nexta"], domains=["ferry"], format="mcq")


def test_a_difficulty_is_split_into_a_size_and_steps():
    assert splits(1, 10, "distance")[0] == (0, 1)
    assert splits(6, 10, "distance")[0] == (2, 4)
    assert splits(25, 10, "sequence")[0] == (9, 16)  # the largest size: the steps grow on
    assert all(p + s == 7 for p, s in splits(7, 10, "distance")) and len(splits(7, 10, "distance")) == 7
    assert splits(4, 10, "none") == [(3, 0)] and splits(11, 10, "none") == []
    config = cell_config(load_config(), "ferry", 2, 4, "distance")
    assert config.domains["ferry"].sizes == ({"locations": 3, "cars": 2},) and config.states.goal_distance == (4, 4)
    assert cell_config(load_config(), "ferry", 9, 3, "sequence").plans.search == "satisficing"


def objects(record: dict) -> int:
    names = re.search(r"\(:objects([^)]*)\)", record["PDDL_problem"]).group(1)
    return len([w for w in names.split() if w != "-"]) - names.count(" - ")


def test_records_are_made_at_the_difficulty_they_carry(tmp_path):
    sizes = load_config().domain("ferry").sizes
    source = acpgen.adaptive(tasks=["plan", "rac_state", "t2p"], domains=["ferry"], seed=1, workers=0, start=6)
    for record in (next(source) for _ in range(24)):
        d, kind = record["difficulty"], record["task"]
        size, steps = (d - 1, 0) if kind == "t2p" else splits(d, len(sizes), "distance")[0]
        assert objects(record) == sum(sizes[size].values()), record["id"]
        if kind == "plan":
            assert record["optimal_cost"] == steps
        if kind == "rac_state":
            assert record["sequence_length"] == steps


def test_the_same_seed_and_rewards_give_the_same_records_made_here_or_ahead():
    def run(workers: int) -> list[int]:
        with acpgen.adaptive(tasks=["plan"], domains=["ferry"], seed=7, workers=workers, batch=4) as source:
            drawn = []
            for record in (next(source) for _ in range(40)):
                drawn.append(record["id"])
                source.update(record, 1.0 if record["difficulty"] <= 4 else 0.0)
            return drawn

    assert run(0) == run(1)


@pytest.mark.slow
def test_a_learner_on_generated_records():
    # ferry plan records made by acpgen.generate: the learner's skill 3, then 5 (about 10 s)
    with acpgen.adaptive(tasks=["plan"], domains=["ferry"], seed=0, workers=1) as source:
        settled = learn(source, 3, 300)
        assert abs(statistics.median(settled[-100:]) - 3) <= 1
        followed = learn(source, 5, 300)
        assert abs(statistics.median(followed[-100:]) - 5) <= 1
