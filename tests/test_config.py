"""acpgen.config: the shipped configurations load; a wrong key or value is refused with its file and key."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import FIXTURES, SMALL

import acpgen
from acpgen.cli import cli
from acpgen.config import REPRESENTATIONS, load_config
from acpgen.data import DEFAULT_CONFIG
from acpgen.errors import ConfigError
from acpgen.nl.describe import REPRESENTATIONS as DESCRIBED

SHIPPED = [
    DEFAULT_CONFIG,
    *sorted((FIXTURES / "pipeline").glob("*.yaml")),
    FIXTURES / "byod" / "byod.yaml",
    Path(__file__).parents[1] / "benchmarks" / "scale.yaml",
]


def test_config_errors_name_the_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("seed: 1\nplans: {quality: 2}\n")
    with pytest.raises(ConfigError, match=r"unknown key.*quality"):
        load_config(bad)
    bad.write_text("seed: 1\nplans: {search: greedy}\n")
    with pytest.raises(ConfigError, match=r"plans.search must be one of top-quality, satisficing, not 'greedy'"):
        load_config(bad)
    result = CliRunner().invoke(cli, ["generate", "--domain", "atlantis", "--config", str(SMALL)])
    assert result.exit_code == 1 and "unknown domain 'atlantis'" in result.output


def test_a_domain_may_try_more_candidate_states_than_the_qa_default(tmp_path):
    """``domains.<d>.candidates_per_task`` replaces ``qa.candidates_per_task`` for that domain: with one state
    tried per task, ferry cannot give three questions; with its own limit of 40 it can."""
    raw = yaml.safe_load(SMALL.read_text())
    raw["qa"].update(candidates_per_task=1, tasks=["app"], formats=["gen"])
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(raw))
    args = ["generate", "--domain", "ferry", "--config", str(config), "-j", "1"]
    short = CliRunner().invoke(cli, [*args, "--strict", "--out", str(tmp_path / "short")])
    assert short.exit_code == 1 and "from the first 1 of" in short.output
    raw["domains"]["ferry"]["candidates_per_task"] = 40
    config.write_text(yaml.safe_dump(raw))
    enough = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "enough")])
    assert enough.exit_code == 0, enough.output
    assert len((tmp_path / "enough" / "ferry" / "app.gen.jsonl").read_text().splitlines()) == 3
    raw["domains"]["ferry"]["candidates_per_task"] = 0
    config.write_text(yaml.safe_dump(raw))
    with pytest.raises(ConfigError, match=r"domains.ferry.candidates_per_task must be a whole number >= 1 or null"):
        load_config(config)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_shipped_configs_load(path):
    config = load_config(path)
    assert config.qa.questions_per_task >= 1 and all(entry.problems >= 1 for entry in config.domains.values())


def _small_with(tmp_path: Path, text: str) -> Path:
    """SMALL with the sections of ``text`` (YAML) merged in, as a file."""
    raw = yaml.safe_load(SMALL.read_text())
    for key, value in yaml.safe_load(text).items():
        raw[key] = {**raw[key], **value} if isinstance(value, dict) and isinstance(raw.get(key), dict) else value
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


def _refused(tmp_path: Path, text: str) -> str:
    """The message of the ConfigError that loading SMALL with ``text`` raises, after the file's name."""
    path = _small_with(tmp_path, text)
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: "), message
    return message.removeprefix(f"{path}: ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # a negative count
        ("qa: {questions_per_task: -3}", "qa.questions_per_task must be a whole number >= 1, not -3"),
        ("states: {rollout_length: -1}", "states.rollout_length must be a whole number >= 0, not -1"),
        ("executor: {retries: -1}", "executor.retries"),
        # zero where at least 1 is needed (0 is fine where it means something)
        ("qa: {questions_per_task: 0}", "qa.questions_per_task must be a whole number >= 1, not 0"),
        ("planner: {memory_mb: 0}", "planner.memory_mb must be a whole number >= 1, not 0"),
        ("plans: {work: 0}", "plans.work must be a whole number >= 1 or null, not 0"),
        ("qa: {reach_stored: 0}", "qa.reach_stored must be a whole number >= 1, not 0"),
        ("dataset: {validate_jobs: 0}", "dataset.validate_jobs must be a whole number >= 1, not 0"),
        ("executor: {workers: 0}", "executor.workers must be a whole number >= 1 or null, not 0"),
        ("plans: {time_limit: 0}", "plans.time_limit must be a number of seconds > 0, not 0"),
        ("plans: {quality_bound: 0.9}", "plans.quality_bound must be a number >= 1.0, not 0.9"),
        # a string where a number is needed
        ("qa: {max_states: lots}", "qa.max_states must be a whole number >= 1, not 'lots'"),
        ("planner: {time_limit: 1e3}", "planner.time_limit must be a number of seconds > 0, not '1e3'"),
        ("seed: one", "seed must be a whole number, not 'one'"),
        # a bool where a whole number is needed
        ("qa: {max_planner_calls: true}", "qa.max_planner_calls must be a whole number >= 0, not True"),
        ("export: {level: true}", "export.level must be one of 1, 2, 3, 4, 5 or null, not True"),
        # a value that is none of the choices, a list of the wrong items, a pair out of order
        ("export: {representation: html}", "export.representation must be one of nl, pddl, pddl+nl, not 'html'"),
        ("planner: {backend: docker}", "planner.backend must be one of local, apptainer, not 'docker'"),
        ("qa: {sequence_lengths: [0, 5]}", "qa.sequence_lengths must be a list (each item a whole number >= 1)"),
        ("states: {goal_distance: [4, 2]}", "states.goal_distance must be [low, high] with 0 <= low <= high"),
        ("out: 5", "out must be a string, not 5"),
        # a bad level
        ("levels: {6: {sizes: [0, 1]}}", "levels: 6 is no level; a level is one of 1, 2, 3, 4, 5"),
        ("levels: {2: {sizes: [low, high]}}", "levels.2.sizes must be [from, to] with 0 <= from < to <= 1"),
        ("levels: {3: {distance: [2, true]}}", "levels.3.distance must be [low, high] with 0 <= low <= high"),
        ("levels: {4: {lengths: [true]}}", "levels.4.lengths must be a list of action sequence lengths"),
        ("levels: {5: {search: greedy}}", "levels.5.search must be absent or a plans.search: one of"),
        (
            "levels: {1: [0, 1]}",
            "levels.1 must be a mapping with the keys sizes, distance, lengths, search and optimum",
        ),
        ("levels: [1, 2]", "levels must be a mapping of levels (1-5) to their settings"),
        # a bad domain entry or size value
        ("domains: {ferry: {problems: 0, sizes: [{locations: 2, cars: 2}]}}", "domains.ferry.problems must be a"),
        ("domains: {ferry: {problems: 1, max_attempts: 0, sizes: [{locations: 2, cars: 2}]}}", "max_attempts"),
        ("domains: {ferry: {problems: 1, sizes: [{locations: 2, cars: -2}]}}", "domains.ferry.sizes[0].cars must"),
        ("domains: {ferry: {problems: 1, sizes: [{locations: 2.5, cars: 2}]}}", "sizes[0].locations must be a"),
        ("domains: {ferry: {problems: 1, sizes: [{locations: 2, cars: '3'}]}}", "ferry.sizes[0].cars must be a"),
        ("domains: {ferry: {problems: 1, sizes: []}}", "domains.ferry.sizes must be a non-empty list of mappings"),
        ("domains: {ferry: {problems: 1}}", "domains.ferry: missing key(s) sizes"),
    ],
)
def test_a_wrong_value_is_refused_with_its_file_and_key(tmp_path, text, message):
    assert message in _refused(tmp_path, text)


def test_zero_is_taken_where_it_means_something(tmp_path):
    text = """
    plans: {explicit_states: 0}
    states: {rollouts_per_state: 0, rollout_length: 0}
    qa: {max_planner_calls: 0, verify_lifted_states: 0, planner_work: null}
    dataset: {dev_per_task: 0}
    executor: {retries: 0}
    levels: {1: {distance: [0, null], lengths: []}}
    """
    config = load_config(_small_with(tmp_path, text))
    assert (config.plans.explicit_states, config.states.rollouts_per_state, config.qa.max_planner_calls) == (0, 0, 0)
    assert config.dataset.dev_per_task == 0 and config.levels[1]["distance"] == [0, None]


def test_the_representations_are_those_the_describer_knows():
    assert REPRESENTATIONS == DESCRIBED


def test_overrides_are_checked_as_the_file_is():
    """`with_overrides` (the command line's options, the Python API's arguments) cannot bypass the checks."""
    config = load_config(SMALL)
    with pytest.raises(ConfigError, match=r"^seed must be a whole number, not 'x'$"):
        config.with_overrides(seed="x")
    with pytest.raises(ConfigError, match=r"^qa.questions_per_task must be a whole number >= 1, not -1$"):
        config.with_overrides(qa=dataclasses.replace(config.qa, questions_per_task=-1))
    with pytest.raises(ConfigError, match=r"^export.representation must be one of nl, pddl, pddl\+nl, not 'yaml'$"):
        next(acpgen.generate("ferry", "app", n=1, config=SMALL, representation="yaml"))
    bad = dataclasses.replace(config, states=dataclasses.replace(config.states, max_per_problem=0))
    with pytest.raises(ConfigError, match=r"^states.max_per_problem must be a whole number >= 1, not 0$"):
        next(acpgen.generate("ferry", "app", n=1, config=bad))
    assert config.with_overrides(seed=9).seed == 9


def test_generate_refuses_a_bad_config_before_writing_anything(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(SMALL.read_text().replace("questions_per_task: 3", "questions_per_task: -3"))
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["generate", "--domain", "ferry", "--config", str(bad), "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert f"{bad}: qa.questions_per_task must be a whole number >= 1, not -3" in result.output
    assert not list(tmp_path.rglob("*.jsonl"))
