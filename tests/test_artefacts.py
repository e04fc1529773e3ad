"""Atomic file output: complete files or an error naming the target, never temporary files left behind; files
with the mode the process's umask gives."""

from __future__ import annotations

import re
import stat
import subprocess
import sys

import pytest

from acpgen import artefacts
from acpgen.artefacts import atomic_write_text, remove_stale_temporaries
from acpgen.errors import AcpError


def test_atomic_write_creates_the_folder_and_replaces_the_file(tmp_path):
    target = tmp_path / "a" / "b" / "out.txt"
    atomic_write_text(target, "first\n")
    atomic_write_text(target, "second\n")
    assert target.read_text(encoding="utf-8") == "second\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["out.txt"]


def test_a_write_that_fails_names_the_target_and_leaves_nothing(tmp_path):
    (tmp_path / "blocker").write_text("x")
    target = tmp_path / "blocker" / "out.txt"
    with pytest.raises(AcpError, match=re.escape(f"cannot write {target}: ")):  # the folder cannot be made
        atomic_write_text(target, "text")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "out.txt").mkdir()  # a folder in the way: the final rename fails
    with pytest.raises(AcpError, match=re.escape(f"cannot write {folder / 'out.txt'}: ")):
        atomic_write_text(folder / "out.txt", "text")
    assert [p.name for p in folder.iterdir()] == ["out.txt"]  # the temporary file is gone


def test_stale_temporaries_are_removed(tmp_path):
    (tmp_path / ".out.txt.abc.tmp").write_text("half")
    (tmp_path / "out.txt").write_text("whole")
    assert remove_stale_temporaries(tmp_path) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    assert remove_stale_temporaries(tmp_path / "missing") == 0


def test_files_are_flushed_to_the_disk_except_in_a_scratch_folder_or_when_not_durable(tmp_path, monkeypatch):
    flushed: list[int] = []
    monkeypatch.setattr(artefacts.os, "fsync", flushed.append)
    artefacts.atomic_write_text(tmp_path / "a.txt", "a")
    assert len(flushed) == 1
    artefacts.atomic_write_text(tmp_path / "b.txt", "b", durable=False)  # the planner cache's entries
    with artefacts.scratch_folder():
        artefacts.atomic_write_text(tmp_path / "c.txt", "c")
    artefacts.atomic_write_text(tmp_path / "d.txt", "d")  # flushed again after the scratch folder
    assert len(flushed) == 2
    assert [(tmp_path / n).read_text() for n in ("a.txt", "b.txt", "c.txt", "d.txt")] == ["a", "b", "c", "d"]


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_written_files_keep_the_processes_umask(tmp_path, umask, mode):
    # A new process (the mode is read from the umask when acp is imported), as a user's shell would start acp:
    # the record files, `acp score`'s output and `acp template init`'s start all get 0666 less the umask.
    out = tmp_path / "run"
    script = f"""
import os, sys
os.umask({umask:#o})
from click.testing import CliRunner
from acpgen.cli import cli
args = ["generate", "--domain", "ferry", "--level", "1", "--tasks", "app", "--formats", "gen", "--out", {str(out)!r}]
assert CliRunner().invoke(cli, args).exit_code == 0
domain = {str(out / "ferry" / "domain.pddl")!r}
assert CliRunner().invoke(cli, ["template", "init", domain, "-o", {str(out / "start.yaml")!r}]).exit_code == 0
"""
    subprocess.run([sys.executable, "-c", script], check=True, timeout=300)
    written = [out / "ferry" / "app.gen.jsonl", out / "ferry" / "qa" / "app.jsonl", out / "start.yaml"]
    assert {oct(stat.S_IMODE(p.stat().st_mode)) for p in written} == {oct(mode)}
