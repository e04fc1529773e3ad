"""docs/byod.md's walk runs as written: the switches-and-doors domain (tests/fixtures/byod/switches: its PDDL and
problems, as a user's files under my/) taken from `acp template init` to scores of answers in the template's words,
in an empty folder outside the checkout. Each console command prints the lines the page shows (timings aside,
"..." skips lines); between `template init` and `template check` the two TODO texts are written, as the page
asks, and nothing else is reworded."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

from click.testing import CliRunner
from conftest import FIXTURES
from test_readme import ROOT, commands, shown_in

from acpgen.cli import cli

SWITCHES = FIXTURES / "byod" / "switches"
TODOS = {
    "description": "A robot walks between rooms, switches lights and unlocks doors with a key.",
    "size": "This problem has {n:room|room|rooms} and {n:switch|switch|switches}.",
}


def written(template: Path) -> None:
    """The page's step: the TODO texts of the description and the size written."""
    lines = []
    for line in template.read_text().splitlines():
        key = line.split(":", 1)[0]
        lines.append(f'{key}: "{TODOS[key]}"' if key in TODOS and "TODO" in line else line)
    template.write_text("\n".join(lines) + "\n")


def test_the_bring_your_own_domain_walk_runs_as_written(tmp_path, monkeypatch):
    assert ROOT not in tmp_path.parents
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my").mkdir()
    shutil.copy(SWITCHES / "domain.pddl", tmp_path / "my" / "domain.pddl")
    shutil.copytree(SWITCHES / "problems", tmp_path / "my" / "problems")
    steps = commands((ROOT / "docs" / "byod.md").read_text())
    assert [c.split()[:3] for c, _ in steps][:2] == [["acp", "template", "init"], ["acp", "template", "check"]]
    for command, shown in steps:
        words = shlex.split(command)
        if words[0] == "cat":
            Path(words[1]).write_text("\n".join(shown) + "\n")
            continue
        if words[1:3] == ["template", "check"]:
            written(Path("my.yaml"))
        result = CliRunner().invoke(cli, words[1:], catch_exceptions=False)
        assert result.exit_code == 0, f"{command}\n{result.output}"
        assert shown_in(shown, result.output), (
            f"{command}: the page shows\n" + "\n".join(shown) + f"\nbut got\n{result.output}"
        )
