"""acpgen.training.failures: a run whose every rollout failed is reported once, with its likely cause; a run
with one rollout that ran is not reported."""

from __future__ import annotations

import logging
from types import SimpleNamespace

from acpgen.training.failures import FailureWatch, episode_errors, likely_cause

UV = "harness setup: RuntimeError: failed to prepare uv script: curl: (6) Could not resolve host"


def test_every_rollout_failed_is_reported_once_with_its_cause(caplog, monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")  # no uv
    watch = FailureWatch("acp-tasks")
    assert watch.message() is None  # no episode yet
    for _ in range(3):
        watch.record([("HarnessError", UV)])
    with caplog.at_level(logging.WARNING):
        text = watch.report(logging.getLogger("acp-test"))
        assert watch.report(logging.getLogger("acp-test")) is None  # once
    assert text is not None and text.startswith("acp-tasks: all 3 rollout(s) failed")
    assert "`uv` is not on PATH" in text and "(3 of 3): HarnessError: harness setup" in text
    assert [r.getMessage() for r in caplog.records] == [text]


def test_one_rollout_that_ran_is_no_failed_run():
    watch = FailureWatch("acp-episodes")
    watch.record([("ProviderError", "upstream stream ended before its terminal event")])
    watch.record([])
    assert watch.message() is None and watch.report(logging.getLogger("acp-test")) is None


def test_causes_and_errors_of_an_episode(monkeypatch, tmp_path):
    assert "model endpoint" in likely_cause("ProviderError", "upstream stream ended")
    assert "harness error" in likely_cause("HarnessError", "the program exited with 1")
    uv = tmp_path / "uv"
    uv.write_text("#!/bin/sh\nexit 1\n")
    uv.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert "PyPI" in likely_cause("HarnessError", UV)  # uv is there but could not prepare the program
    error = SimpleNamespace(type="HarnessError", message="boom")
    episode = SimpleNamespace(errors=[error], traces=[SimpleNamespace(errors=[error]), SimpleNamespace(errors=[])])
    assert episode_errors(episode) == [("HarnessError", "boom")] * 2
