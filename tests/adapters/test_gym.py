"""The reasoning-gym adapter (acpgen.adapters.gym) against the installed reasoning-gym package."""

from __future__ import annotations

import json
import statistics

import pytest
import reasoning_gym
from conftest import FIXTURES

import acpgen
import acpgen.adapters.gym
from acpgen.tasks import TASKS

TINY = str(FIXTURES / "pipeline" / "api.yaml")


def test_every_task_is_registered():
    for task in TASKS:
        assert f"acp_{task}" in reasoning_gym.factory.DATASETS
    assert acpgen.adapters.gym.register() == []  # a second registration adds nothing


@pytest.mark.parametrize(("task", "fmt"), [("app", "gen"), ("reach", "bool")])
def test_create_iterate_and_score(task, fmt, tmp_path):
    data = reasoning_gym.create_dataset(
        f"acp_{task}", size=2, seed=5, domains=("ferry",), format=fmt, config=TINY, cache_dir=str(tmp_path)
    )
    entries = list(data)
    assert len(entries) == len(data) == 2
    records = list(acpgen.generate("ferry", task, n=2, seed=5, format=fmt, config=TINY, cache_dir=tmp_path))
    assert [e["metadata"]["record"] for e in entries] == records
    for entry, record in zip(entries, records):
        assert record["question"].strip() in entry["question"] and record["context"].strip() in entry["question"]
        assert entry["answer"] == acpgen.reference_answer(record)
        assert data.score_answer(entry["answer"], entry) == 1.0
        assert data.score_answer(None, entry) == 0.0
    if fmt == "bool":
        wrong = "**Final Answer**: No." if entries[0]["answer"].endswith("Yes.") else "**Final Answer**: Yes."
    else:
        wrong = "(sail l0 l0)"  # never applicable: a ferry sails between two different locations
    assert data.score_answer(wrong, entries[0]) == 0.0
    # The score function reasoning-gym hands out is acp's as well.
    assert reasoning_gym.get_score_answer_fn(f"acp_{task}")(entries[0]["answer"], entries[0]) == 1.0


def test_same_seed_same_items_in_a_fresh_cache(tmp_path):
    def items(folder):
        data = reasoning_gym.create_dataset(
            "acp_app", size=2, seed=5, domains=("ferry",), config=TINY, cache_dir=str(tmp_path / folder)
        )
        return [(e["question"], e["answer"]) for e in data]

    assert items("a") == items("b")


def test_too_large_a_size_and_bad_settings_are_errors(tmp_path):
    data = reasoning_gym.create_dataset("acp_app", size=50, seed=5, config=TINY, cache_dir=str(tmp_path))
    with pytest.raises(acpgen.errors.DataError, match=r"of 50 records .*from 4 seeds each"):
        data[0]
    with pytest.raises(acpgen.errors.ConfigError, match="no bool format"):
        reasoning_gym.create_dataset("acp_nexta", size=2, format="bool", config=TINY)
    with pytest.raises(acpgen.errors.ConfigError, match="choose from"):
        reasoning_gym.create_dataset("acp_app", size=2, format="yaml", config=TINY)


def test_a_level_reaches_the_records(tmp_path):
    data = reasoning_gym.create_dataset(
        "acp_app", size=2, seed=5, level=1, domains=("ferry",), config=TINY, cache_dir=str(tmp_path)
    )
    records = [entry["metadata"]["record"] for entry in data]
    assert [r["level"] for r in records] == [1, 1]
    assert all(1 <= r["features"]["plan_length"] <= 2 for r in records)
    assert all(data.score_answer(entry["answer"], entry) == 1.0 for entry in data)


# ----- curricula ------------------------------------------------------------------------------------
def test_every_task_has_a_curriculum_over_acps_levels():
    from reasoning_gym.coaching.attributes import RangeAttributeDefinition

    for task in TASKS:
        curriculum = reasoning_gym.factory.create_curriculum(f"acp_{task}")
        attribute = curriculum.attributes["level"]
        assert isinstance(attribute, RangeAttributeDefinition) and attribute.levels == [1, 2, 3, 4, 5]
        assert type(curriculum).task == task


def test_curriculum_levels_become_level_ranges():
    from reasoning_gym.coaching.base_curriculum import DefaultCurriculumContext, RangeAttributeMode

    curriculum = reasoning_gym.factory.create_curriculum("acp_plan")
    config = curriculum.generate_configuration({"domains": ("ferry",), "size": 4})
    assert (config.min_level, config.max_level, config.level) == (1, 1, None)
    curriculum.increment_attr_level("level")
    curriculum.increment_attr_level("level")
    config = curriculum.generate_configuration({"size": 4})
    assert (config.min_level, config.max_level) == (1, 3)  # reasoning-gym's default context: every level so far
    config.validate()
    assert config.levels() == [1, 2, 3]
    upper = curriculum.generate_configuration({}, DefaultCurriculumContext(mode=RangeAttributeMode.UPPER_BOUND))
    assert (upper.min_level, upper.max_level) == (3, 3)
    with pytest.raises(acpgen.errors.ConfigError, match="min <= max"):
        acpgen.adapters.gym.AcpDatasetConfig(min_level=3, max_level=2).validate()
    with pytest.raises(acpgen.errors.ConfigError, match="no level besides"):
        acpgen.adapters.gym.AcpDatasetConfig(level=1, min_level=1, max_level=2).validate()


def test_a_curriculum_configuration_draws_from_its_levels_in_turn(tmp_path, monkeypatch):
    curriculum = reasoning_gym.factory.create_curriculum("acp_app")
    curriculum.set_attr_level("level", 1)  # levels 1 and 2
    config = curriculum.generate_configuration(
        {
            "domains": ("ferry",),
            "size": 4,
            "seed": 5,
            "config": str(FIXTURES / "pipeline" / "ci.yaml"),
            "cache_dir": str(tmp_path),
        }
    )
    data = reasoning_gym.create_dataset("acp_app", **vars(config))
    records = [entry["metadata"]["record"] for entry in data]
    assert [r["level"] for r in records] == [1, 2, 1, 2]
    assert all(1 <= r["features"]["plan_length"] <= 2 for r in records[::2])
    assert all(3 <= r["features"]["plan_length"] <= 4 for r in records[1::2])
    assert all(data.score_answer(entry["answer"], entry) == 1.0 for entry in data)

    # the records a generate run made (here the dataset's own cache: one folder per level), reused with `split`:
    # read, not generated again (no planner runs), the same levels in turn, shuffled by the seed
    (tmp_path / "unrelated.jsonl").write_text(json.dumps({"id": 1, "note": "no record"}) + "\n")
    config.split, config.cache_dir = str(tmp_path), None
    with monkeypatch.context() as patched:
        patched.setattr(acpgen.adapters.gym, "generate", None)
        reused = reasoning_gym.create_dataset("acp_app", **vars(config))
        again = reasoning_gym.create_dataset("acp_app", **vars(config))
        entries = [reused[i] for i in range(len(reused))]
    assert [e["metadata"]["level"] for e in entries] == [1, 2, 1, 2]
    assert sorted(e["metadata"]["id"] for e in entries) == sorted(r["id"] for r in records)
    assert [e["metadata"]["id"] for e in entries] == [again[i]["metadata"]["id"] for i in range(4)]
    assert all(reused.score_answer(e["answer"], e) == 1.0 for e in entries)
    config.size = 5  # the split has 2 records per level
    with pytest.raises(acpgen.errors.DataError, match=r"4 of 5 records in .*ferry \(level 1\): 2"):
        reasoning_gym.create_dataset("acp_app", **vars(config))[0]


def test_reasoning_gyms_curriculum_experiment_scores_and_moves_up_a_level():
    """reasoning-gym's own training loop: a CurriculumExperiment over acp_plan (with the default configuration,
    as the experiment makes it) beside one of reasoning-gym's datasets. It scores by entry id, keeps the scores
    on its ScoreBoard under each entry's ``difficulty`` and raises the curriculum's level."""
    from reasoning_gym.coaching.curriculum_config import CurriculumAttributeConfig, CurriculumExperimentConfig
    from reasoning_gym.coaching.experiment import CurriculumExperiment

    curricula = {"acp_plan": CurriculumAttributeConfig({"level": 0}), "chain_sum": CurriculumAttributeConfig({"*": 0})}
    experiment = CurriculumExperiment("acp", CurriculumExperimentConfig(curricula), size=6, seed=3)
    entries = [experiment.get_dataset_entry(i) for i in range(6)]
    plans = [e for e in entries if e["metadata"]["source_dataset"] == "acp_plan"]
    assert plans and len(plans) < len(entries)  # both datasets drawn
    for entry in entries:
        entry_id = entry["metadata"]["entry_id"]
        assert experiment.score_answer_with_id(entry["answer"], entry_id) == 1.0
        assert experiment.score_answer_with_id("I am not sure", entry_id) == 0.0
    for entry in plans:
        assert entry["metadata"]["difficulty"] == {"level": (1, 1)} and entry["metadata"]["level"] == 1
    groups = experiment.score_board.aggregate()["acp_plan"].scores
    assert groups == {(("source", "acp_plan"), ("level", (1, 1))): [1.0, 0.0] * len(plans)}
    experiment.update_difficulty("acp_plan", "increment")
    data = experiment.composite.datasets["acp_plan"]
    assert (data.config.min_level, data.config.max_level) == (1, 2)
    entry = data[1]  # levels 1 and 2 in turn
    assert (entry["metadata"]["difficulty"], entry["metadata"]["level"]) == ({"level": (1, 2)}, 2)
    assert data.score_answer(entry["answer"], entry) == 1.0


def test_the_adaptive_dataset_follows_a_learner_through_score_answer():
    # A learner that answers a record right (its stored answer) iff its difficulty is at most 3: reasoning-gym's
    # loop over the entries, rewarded by score_answer, settles around 3 (acpgen.training.adaptive's rule).
    data = reasoning_gym.create_dataset(
        "acp_adaptive", size=160, seed=0, tasks=("plan",), domains=("ferry",), workers=0
    )
    drawn = []
    for entry in data:
        difficulty = entry["metadata"]["difficulty"]["difficulty"]
        assert entry["metadata"]["record"]["difficulty"] == difficulty and entry["metadata"]["task"] == "plan"
        drawn.append(difficulty)
        right = data.score_answer(entry["answer"] if difficulty <= 3 else "I cannot tell.", entry)
        assert right == (1.0 if difficulty <= 3 else 0.0)
    assert abs(statistics.median(drawn[-80:]) - 3) <= 1 and data.source.tops == {("plan", "ferry"): 4}
    assert data[5] is data[5]  # an entry, once drawn, stays
    data.close()
