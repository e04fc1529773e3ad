"""Difficulty levels (acpgen.generation.levels): sizes and goal distances per level, `--level` and `level=`."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FIXTURES

import acpgen
from acpgen.cli import cli
from acpgen.config import load_config
from acpgen.data import DOMAINS_DIR
from acpgen.errors import ConfigError
from acpgen.generation.levels import DEFAULT_LEVELS, LEVELS, Level, at_level, describe, levels_of, task_groups
from acpgen.pddl.grounding import GroundTask
from acpgen.proofs.features import state_features
from acpgen.tasks import TASKS

TINY = FIXTURES / "pipeline" / "api.yaml"


def test_every_size_belongs_to_a_level_and_levels_go_from_small_to_large():
    for count in range(1, 12):
        chosen = [Level(DEFAULT_LEVELS[n].sizes, (0, None)).size_indices(count) for n in LEVELS]
        assert all(chosen), count  # never an empty level
        assert set().union(*map(set, chosen)) == set(range(count))
        assert [c[0] for c in chosen] == sorted(c[0] for c in chosen)
        assert [c[-1] for c in chosen] == sorted(c[-1] for c in chosen)
    # 5 sizes: one each; 10 sizes: two each
    assert [Level(DEFAULT_LEVELS[n].sizes, (0, None)).size_indices(5) for n in LEVELS] == [[0], [1], [2], [3], [4]]
    assert Level(DEFAULT_LEVELS[5].sizes, (0, None)).size_indices(10) == [8, 9]
    # 7 sizes: a partition; 3 sizes: neighbouring levels share
    assert [Level(DEFAULT_LEVELS[n].sizes, (0, None)).size_indices(7) for n in LEVELS] == [
        [0],
        [1],
        [2, 3],
        [4],
        [5, 6],
    ]
    assert [Level(DEFAULT_LEVELS[n].sizes, (0, None)).size_indices(3) for n in LEVELS] == [[0], [0], [1], [1], [2]]


def test_pipeline_yaml_states_the_default_levels():
    config = load_config()
    assert levels_of(config) == DEFAULT_LEVELS
    ferry = describe(config, "ferry")
    assert ferry[0]["sizes"] == [{"locations": 2, "cars": 2}, {"locations": 2, "cars": 5}]
    assert ferry[4]["sizes"] == [{"locations": 2, "cars": 50}, {"locations": 5, "cars": 50}]
    assert [row["distance"] for row in ferry] == [(1, 2), (3, 4), (5, 7), (8, 11), (12, None)]


def test_at_level_changes_only_the_named_domains_sizes_and_the_state_distance():
    config = load_config()
    with pytest.raises(ConfigError, match="nexta, optplan draw from other sizes"):
        at_level(config, ["ferry"], 5)  # every task: the two groups of level 5 run apart
    others = tuple(t for t in TASKS if t not in ("nexta", "optplan"))
    assert task_groups(config, 5) == [others, ("nexta", "optplan")]
    assert task_groups(config, 4) == [tuple(TASKS)]
    config = config.with_overrides(qa=dataclasses.replace(config.qa, tasks=others))
    hard = at_level(config, ["ferry"], 5)
    assert hard.domains["ferry"].sizes == ({"locations": 2, "cars": 50}, {"locations": 5, "cars": 50})
    assert hard.domains["ferry"].problems == config.domains["ferry"].problems
    assert hard.domains["rovers"] == config.domains["rovers"]
    assert hard.states.goal_distance == (12, None)
    assert (hard.plans.search, config.plans.search, at_level(config, ["ferry"], 4).plans.search) == (
        "satisficing",
        "top-quality",
        "top-quality",
    )
    assert hard.qa.sequence_lengths == (19,)
    assert config.states.goal_distance is None and config.qa.sequence_lengths is None
    with pytest.raises(ConfigError, match="choose 1"):
        at_level(config, ["ferry"], 6)


def test_level_5_gives_the_tasks_that_need_optima_level_4s_sizes():
    config = load_config()
    level_4 = describe(config, "ferry")[3]["sizes"]
    assert level_4 == [{"locations": 2, "cars": 20}, {"locations": 5, "cars": 10}]
    assert describe(config, "ferry")[4]["optimum_sizes"] == level_4
    for task in ("nexta", "optplan"):
        one = config.with_overrides(qa=dataclasses.replace(config.qa, tasks=(task,)))
        hard = at_level(one, ["ferry"], 5)
        assert list(hard.domains["ferry"].sizes) == level_4
        assert hard.states.goal_distance == (12, None) and hard.plans.search == "satisficing"
    # below level 5 they share the level's sizes
    nexta = config.with_overrides(qa=dataclasses.replace(config.qa, tasks=("nexta",)))
    assert at_level(nexta, ["ferry"], 4).domains["ferry"].sizes == tuple(level_4)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({7: {"sizes": [0, 1]}}, "a level is one of"),
        ({1: {"sizes": [0.5, 0.2]}}, "from < to"),
        ({1: {"distance": [3, 1]}}, "low <= high"),
        ({1: {"depth": 3}}, "keys sizes, distance, lengths, search and optimum_sizes"),
        ({1: {"optimum_sizes": [0.8, 0.6]}}, r"optimum_sizes must be \[from, to\]"),
        ({1: {"lengths": [0]}}, "each at least 1"),
        ({1: {"search": "greedy"}}, r"search: one of top-quality, satisficing"),
    ],
)
def test_bad_levels_sections_are_refused(raw, message, tmp_path):
    path = tmp_path / "c.yaml"
    text = TINY.read_text() + "levels: " + json.dumps({str(k): v for k, v in raw.items()}).replace('"7"', "7")
    path.write_text(text.replace('"1"', "1"))
    with pytest.raises(ConfigError, match=message):
        levels_of(load_config(path))


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_level_records_equal_the_cli_and_carry_level_and_features(tmp_path):
    result = CliRunner().invoke(
        cli,
        ["generate", "--domain", "ferry", "--config", str(TINY), "--out", str(tmp_path / "cli"), "--level", "1"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    states = _lines(tmp_path / "cli" / "ferry" / "states.jsonl")
    assert states and all(s["source"] == "plan" and 1 <= s["plan_cost_to_go"] <= 2 for s in states)
    expected = _lines(tmp_path / "cli" / "ferry" / "app.gen.jsonl")
    got = list(acpgen.generate("ferry", "app", n=2, level=1, config=TINY, cache_dir=tmp_path / "api"))
    assert got == expected
    assert all(list(r)[-2:] == ["level", "features"] for r in _lines(tmp_path / "cli" / "ferry" / "reach.bool.jsonl"))
    by_id = {s["id"]: s for s in states}
    for record in got:
        assert list(record)[-2:] == ["level", "features"] and record["level"] == 1
        feats = record["features"]
        assert feats["plan_length"] == by_id[record["state"]]["plan_cost_to_go"]
        assert feats["applicable"] == len(record["answer"]) == by_id[record["state"]]["applicable"]
        assert feats["objects"] == 4  # 2 locations, 2 cars
        assert feats["state_atoms"] == len(by_id[record["state"]]["atoms"])
        assert feats["reachable_states"] > 1  # 2 locations, 2 cars: a small space, explored whole
        assert 1 <= feats["optimal_plan_length"] <= feats["plan_length"]


@pytest.mark.parametrize("task", ["nexta", "rac_state"])
def test_the_qa_stage_gives_the_features_an_exploration_of_the_records_own_state_gives(tmp_path, task):
    # The qa stage settles them on one exploration of the record's problem in the record's domain (for
    # rac_state, here a ramification variant: rules in the record's PDDL, a space explored from the first
    # state asked about), else reads them off the generating oracle's exploration of the record's state; the
    # export then takes them from the qa file. An exploration of the exported record's own PDDL must agree.
    records = list(acpgen.generate("ferry", task, n=2, level=1, config=TINY, cache_dir=tmp_path))
    assert records
    qa_lines = [
        json.loads(line) for path in tmp_path.rglob(f"qa/{task}.jsonl") for line in path.read_text().splitlines()
    ]
    assert len(qa_lines) >= len(records) and all("features" in line for line in qa_lines)
    assert task != "rac_state" or all(record["ramifications"] for record in records)
    for record in records:
        expected = state_features(GroundTask.from_strings(record["PDDL_domain"], record["PDDL_problem"]))
        assert list(record["features"]) == list(expected)
        assert {**record["features"], "plan_length": None} == expected


def test_level_is_refused_with_a_users_domain(tmp_path):
    result = CliRunner().invoke(
        cli,
        ["generate", "--domain-file", str(DOMAINS_DIR / "ferry" / "domain.pddl"), "--problems", str(tmp_path)]
        + ["--level", "2", "--out", str(tmp_path / "o")],
    )
    assert result.exit_code != 0 and "--level goes with --domain" in result.output


def test_a_level_sets_the_sequence_length_of_reasoning_about_actions_questions(tmp_path):
    records = list(acpgen.generate("ferry", "rac_state", n=1, level=2, config=TINY, cache_dir=tmp_path))
    assert records and all(r["sequence_length"] == 5 == len(r["sequence"]) for r in records)
    assert all(r["level"] == 2 and 3 <= r["features"]["plan_length"] <= 4 for r in records)


def test_a_level_run_of_both_kinds_of_tasks_puts_those_that_need_optima_apart(tmp_path):
    # a level whose optimum tasks draw from the first of two sizes, the others from the second
    config = tmp_path / "levels.yaml"
    text = TINY.read_text().replace(
        "      - {locations: 2, cars: 2}", "      - {locations: 2, cars: 2}\n      - {locations: 3, cars: 2}"
    )
    text = text.replace("tasks: [app, reach]", "tasks: [app, nexta]").replace("problems: 1", "problems: 2")
    config.write_text(text + "levels:\n  2: {sizes: [0.5, 1.0], distance: [1, 2], optimum_sizes: [0.0, 0.5]}\n")
    out = tmp_path / "cli"
    args = ["generate", "--domain", "ferry", "--config", str(config), "--out", str(out), "--level", "2"]
    result = CliRunner().invoke(cli, [*args, "--formats", "gen"], catch_exceptions=False)
    assert result.exit_code == 0, result.output + result.stderr
    assert (
        "the questions of nexta come from smaller sizes (levels.2.optimum_sizes); their artefacts and records go "
        f"to {out}/optimum" in result.stderr
    )
    app, nexta = _lines(out / "ferry" / "app.gen.jsonl"), _lines(out / "optimum" / "ferry" / "nexta.gen.jsonl")
    assert (
        not (out / "ferry" / "nexta.gen.jsonl").exists() and not (out / "optimum" / "ferry" / "app.gen.jsonl").exists()
    )
    assert app and nexta
    assert "ferry: 2 problems" in result.stdout and "ferry (optimum/): 2 problems" in result.stdout
    assert {r["features"]["objects"] for r in app} == {5}  # 3 locations, 2 cars
    assert {r["features"]["objects"] for r in nexta} == {4}  # 2 locations, 2 cars
    assert list(acpgen.generate("ferry", "nexta", n=2, level=2, config=config, cache_dir=tmp_path / "api")) == nexta
