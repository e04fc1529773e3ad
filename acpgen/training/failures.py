"""Runs whose rollouts all fail: an environment counts its episodes and their errors, and says once, loudly,
when every one of them failed, naming the likely cause.

An evaluation or training loop can finish "successfully" with nothing but failed rollouts: verifiers'
``vf-eval`` exits 0 when its harness could not start (``uv`` missing: "failed to prepare uv script") or the
model endpoint refused every request, and reports it only as an ``err`` rate. acp's verifiers environments
keep a :class:`FailureWatch` over the episodes they run and call :meth:`FailureWatch.report` when they stop;
the warning goes to the environment's logger when logging is configured for it, else to standard error (a
CLI that owns the terminal, as ``vf-eval``'s dashboard does, routes only its own loggers).
"""

from __future__ import annotations

import logging
import shutil
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

UV_SCRIPT = "failed to prepare uv script"


def likely_cause(kind: str, message: str) -> str:
    """What an error of a rollout most likely means, in words a user can act on."""
    if UV_SCRIPT in message:
        if shutil.which("uv") is None:
            return (
                "`uv` is not on PATH: verifiers runs its chat harness as a uv script. The extra `rl` installs uv "
                "into the virtualenv: activate it, or put its bin folder on PATH"
            )
        return (
            "uv could not prepare verifiers' chat program (uv fetches the program's dependencies from PyPI on "
            "first use: is the package index reachable?)"
        )
    if kind == "ProviderError" or "status code" in message.lower():
        return (
            "the model endpoint failed: check the model (-m), the endpoint (--client.base-url, ending in /v1), "
            "that it streams chat completions, and the variable holding its key (--client.api-key-var)"
        )
    if kind == "HarnessError":
        return "a harness error (the program that runs the model could not start or run)"
    return f"a {kind}"


@dataclass
class FailureWatch:
    """Episodes seen, those that failed and their first errors; :meth:`report` warns once when every episode
    failed."""

    name: str
    episodes: int = 0
    failed: int = 0
    errors: Counter[tuple[str, str]] = field(default_factory=Counter)
    reported: bool = False

    def record(self, errors: Iterable[tuple[str, str]]) -> None:
        """One episode and its errors, as ``(type, message)`` pairs (none: it ran)."""
        errors = list(errors)
        self.episodes += 1
        if errors:
            self.failed += 1
            kind, message = errors[0]
            self.errors[(kind, message.strip().splitlines()[0][:300] if message.strip() else "")] += 1

    def message(self) -> str | None:
        """The warning when every episode failed (None otherwise, and before any episode)."""
        if not self.episodes or self.failed < self.episodes:
            return None
        (kind, message), count = self.errors.most_common(1)[0]
        return (
            f"{self.name}: all {self.episodes} rollout(s) failed, none was scored; likely cause: "
            f"{likely_cause(kind, message)}. Most common error ({count} of {self.failed}): {kind}: {message}"
        )

    def report(self, logger: logging.Logger) -> str | None:
        """Warn once when every episode failed: on ``logger`` when logging is configured for it, else on standard
        error. The message, or None."""
        text = self.message()
        if text is None or self.reported:
            return None
        self.reported = True
        if logger.hasHandlers():
            logger.warning(text)
        else:
            print(f"WARNING {text}", file=sys.stderr, flush=True)
        return text


def episode_errors(episode: object) -> list[tuple[str, str]]:
    """The errors of a finished episode (verifiers' ``Episode``: its own, then its traces'), as ``(type, message)``."""
    errors = list(getattr(episode, "errors", None) or [])
    for trace in getattr(episode, "traces", None) or []:
        errors += list(getattr(trace, "errors", None) or [])
    return [(str(getattr(e, "type", type(e).__name__)), str(getattr(e, "message", e))) for e in errors]


class WatchedRollouts:
    """A verifiers environment's mixin (first among its bases; verifiers itself is not imported here): it counts
    the environment's episodes and their errors in ``self.failures`` (a :class:`FailureWatch` its ``__init__``
    sets), and when the environment stops after a run whose every rollout failed it warns once, on the logger of
    the environment's module."""

    failures: FailureWatch

    async def run_episode(self, task: object, ctx: object, **kwargs: object) -> object:
        episode = await super().run_episode(task, ctx, **kwargs)  # type: ignore[misc]
        self.failures.record(episode_errors(episode))
        return episode

    async def stop(self) -> None:
        try:
            await super().stop()  # type: ignore[misc]
        finally:
            self.failures.report(logging.getLogger(type(self).__module__))
