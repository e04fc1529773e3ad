"""The README's tour runs as written: every command of the console blocks of "Five minutes with acp" is run in
an empty folder outside the checkout, in order, and prints the lines the README shows (timings aside; "..." stands
for lines the README leaves out). A `cat FILE` block writes FILE as shown; `swapped.pddl` is made as the README
says, from `p001.pddl` with the cars c0 and c1 renamed into each other. Then the python blocks of "Python API" run
in that folder, and each line marked ``# prints: ...`` prints what the mark says."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from acpgen.cli import cli

ROOT = Path(__file__).resolve().parents[1]
CONSOLE = re.compile(r"```console\n(.*?)\n```", re.S)
SECONDS = re.compile(r"\(\d+(?:\.\d+)? s\)")


def section(title: str) -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def commands(text: str) -> list[tuple[str, list[str]]]:
    """(command, the lines shown after it) of every console block, in order."""
    out: list[tuple[str, list[str]]] = []
    for block in CONSOLE.findall(text):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            else:
                out[-1][1].append(line)
    return out


def shown_in(shown: list[str], printed: str) -> bool:
    """Whether the shown lines appear in the printed ones in order (timings aside, "..." skips lines)."""
    lines = [SECONDS.sub("", line).rstrip() for line in printed.splitlines()]
    position = 0
    for line in shown:
        if line.strip() == "...":
            continue
        want = SECONDS.sub("", line).rstrip()
        while position < len(lines) and lines[position] != want:
            position += 1
        if position == len(lines):
            return False
        position += 1
    return True


PYTHON = re.compile(r"```python\n(.*?)\n```", re.S)
PRINTS = re.compile(r"#\s*prints:\s*(.*)$")


def test_the_five_minute_tour_and_the_python_api_run_as_written_outside_the_checkout(tmp_path, monkeypatch, capsys):
    assert ROOT not in tmp_path.parents
    monkeypatch.chdir(tmp_path)
    run_tour()
    blocks = PYTHON.findall(section("Python API"))
    assert len(blocks) >= 2
    for number, block in enumerate(blocks):
        expected = [m.group(1).strip() for line in block.splitlines() if (m := PRINTS.search(line))]
        capsys.readouterr()
        exec(compile(block, f"README.md (Python API, block {number + 1})", "exec"), {})
        printed = capsys.readouterr().out.splitlines()
        assert printed == expected, (number, printed, expected)


def run_tour() -> None:
    steps = commands(section("Five minutes with acp"))
    assert [c.split()[:2] for c, _ in steps][:2] == [["acp", "generate"], ["cat", "model.jsonl"]]
    for command, shown in steps:
        words = shlex.split(command)
        if words[0] == "cat":
            Path(words[1]).write_text("\n".join(shown) + "\n")
            continue
        if "swapped.pddl" in words:
            problem = Path("out/ferry/problems/p001.pddl").read_text()
            swapped = re.sub(r"\bc0\b", "c_tmp", problem)
            swapped = re.sub(r"\bc1\b", "c0", swapped).replace("c_tmp", "c1")
            assert swapped != problem
            Path("swapped.pddl").write_text(swapped)
        assert words[0] == "acp", command
        result = CliRunner().invoke(cli, words[1:], catch_exceptions=False)
        assert result.exit_code == 0, f"{command}\n{result.output}"
        assert shown_in(shown, result.output), (
            f"{command}: the README shows\n" + "\n".join(shown) + (f"\nbut it printed\n{result.output}")
        )


def test_the_python_api_page_runs_as_written(monkeypatch, capsys):
    # docs/integrations/python-api.md: its first block needs nothing, its second a checkout (the page says so).
    monkeypatch.chdir(ROOT)
    blocks = PYTHON.findall((ROOT / "docs" / "integrations" / "python-api.md").read_text())
    assert len(blocks) >= 2
    for number, block in enumerate(blocks):
        expected = [m.group(1).strip() for line in block.splitlines() if (m := PRINTS.search(line))]
        capsys.readouterr()
        exec(compile(block, f"python-api.md (block {number + 1})", "exec"), {})
        assert capsys.readouterr().out.splitlines() == expected, number


def test_the_readme_says_how_acp_is_reached_after_make_setup():
    # `make setup` installs into .venv and leaves the shell's PATH alone: the tour's bare `acp` needs one of these
    install = section("Install")
    assert "make setup" in install and "source .venv/bin/activate" in install and ".venv/bin/acp" in install
    assert (ROOT / ".venv" / "bin" / "acp").exists() or not (ROOT / ".venv").exists()
