"""The stamp sidecars (acpgen.generation.stamps.StampBook): saved together while a stage's units are recorded,
and whole when the stage closes."""

from __future__ import annotations

import json

from acpgen import artefacts
from acpgen.generation import stamps
from acpgen.generation.stages.base import StageReport, StageWork
from acpgen.generation.stamps import StampBook


def _made(tmp_path, names):
    files = []
    for name in names:
        path = tmp_path / "plans" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"made {name}\n")
        files.append(path)
    return files


def test_entries_recorded_within_a_second_are_saved_together_and_the_stage_saves_the_rest(tmp_path, monkeypatch):
    monkeypatch.setattr(stamps, "SAVE_EVERY", 3600.0)  # no save while recording: only the stage's close saves
    monkeypatch.setattr(artefacts.os, "sync", lambda: None)  # (the close's flush of the disk: the test below)
    work = StageWork(StageReport("plans", "ferry"))
    book = work.keep(StampBook(tmp_path, "plans"))
    files = _made(tmp_path, ["p01.json", "p02.json", "p03.json"])
    for path in files:
        book.record(path.name, path, {"code": "x"})
    assert not book.path.exists()  # a run killed now makes the three files again
    work.close()
    assert sorted(json.loads(book.path.read_text())) == ["p01.json", "p02.json", "p03.json"]
    again = StampBook(tmp_path, "plans")
    assert all(again.fresh(path.name, path, {"code": "x"}) for path in files)
    assert not again.fresh("p01.json", files[0], {"code": "y"})


def test_an_entry_after_a_second_is_saved_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(stamps, "SAVE_EVERY", 0.0)  # every record is a second after the last save
    book = StampBook(tmp_path, "plans")
    for count, path in enumerate(_made(tmp_path, ["p01.json", "p02.json"]), start=1):
        book.record(path.name, path, {"code": "x"})
        assert len(json.loads(book.path.read_text())) == count


def test_a_stage_flushes_its_files_to_the_disk_when_it_closes(monkeypatch):
    # the files of the stages before the export are written without a flush each: the stage flushes them all at
    # once when it closes, before a later stage reads them (none in a scratch folder, which is removed afterwards)
    flushed = []
    monkeypatch.setattr(artefacts.os, "sync", lambda: flushed.append(1))
    StageWork(StageReport("states", "ferry")).close()
    assert flushed == [1]
    with artefacts.scratch_folder():
        StageWork(StageReport("states", "ferry")).close()
    assert flushed == [1]
