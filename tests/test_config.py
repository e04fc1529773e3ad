"""acpgen.config: configuration errors name the key."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import SMALL

from acpgen.cli import cli
from acpgen.config import load_config
from acpgen.errors import ConfigError


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
    import yaml

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
    with pytest.raises(ConfigError, match=r"domains.ferry.candidates_per_task must be a positive number"):
        load_config(config)
