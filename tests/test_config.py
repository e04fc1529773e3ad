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
    result = CliRunner().invoke(cli, ["generate", "--domain", "atlantis", "--config", str(SMALL)])
    assert result.exit_code == 1 and "unknown domain 'atlantis'" in result.output
