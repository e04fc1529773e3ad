"""acp's exact score of one answer as a training reward, and its partial-credit signals.

:func:`reward` is :func:`acpgen.score` with the strict reading by default (``strict=True``: a part of a
set answer that reads as nothing makes it wrong; `acpgen.tasks.ScoreOptions`), never raising on the
answer's text: a response that is not a string (None, a list of message parts) is read as the text it
holds, and what cannot be read is a ``parse_error`` with reward 0. ``value`` is None only when acp
cannot decide (a planner ran out of time: status ``undecided``), so that a trainer can leave the
answer out instead of rewarding it 0.

Signals (:data:`SIGNALS`), each in [0, 1]: ``score`` (acp's exact score), ``precision``, ``recall`` and
``f1`` of a set answer (app, prog, the reasoning-about-actions sets), ``goal_fraction`` (the share of
the goal's literals that hold after the executable prefix of a plan, plan and optplan) and
``plan_prefix`` (the share of a plan's written steps that execute before the first that does not).
A record without a signal gives its exact score for it, so that weighting a signal never lowers the
reward of a correct answer to a task without partial credit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from acpgen.api import score

SIGNALS = ("score", "precision", "recall", "f1", "goal_fraction", "plan_prefix")


@dataclass(frozen=True)
class Reward:
    """The reward of one answer: ``value`` (acp's score; None when undecided), ``status`` and
    ``reason`` as in :class:`acpgen.Score`, and every signal of :data:`SIGNALS`."""

    value: float | None
    status: str
    reason: str
    signals: dict[str, float] = field(default_factory=dict)


def text_of(response: Any) -> str | None:
    """The text of a response as trainers hand it over: a string, a chat message (``content``), a list
    of messages (the last assistant message's content) or of content parts (their text); None stays None."""
    if response is None or isinstance(response, str):
        return response
    if isinstance(response, dict):
        return text_of(response.get("content"))
    if isinstance(response, (list, tuple)):
        messages = [m for m in response if isinstance(m, dict) and "role" in m]
        if messages:
            replies = [m for m in messages if m.get("role") == "assistant"] or messages
            return text_of(replies[-1])
        parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in response]
        return "\n".join(str(p) for p in parts if p)
    return str(response)


def _signals(value: float, details: dict[str, Any]) -> dict[str, float]:
    signals = {name: value for name in SIGNALS}
    for name in ("precision", "recall", "f1", "goal_fraction"):
        if isinstance(details.get(name), (int, float)):
            signals[name] = float(details[name])
    if isinstance(details.get("prefix"), int) and isinstance(details.get("steps"), int):
        signals["plan_prefix"] = details["prefix"] / max(1, details["steps"])
    return signals


def reward(record: dict, response: Any, *, strict: bool = True) -> Reward:
    """The reward of ``response`` (any text a policy wrote) for ``record`` (see the module docstring)."""
    result = score(record, text_of(response), strict=strict)
    if result.status == "undecided":
        return Reward(None, result.status, result.reason, {name: 0.0 for name in SIGNALS})
    return Reward(result.score, result.status, result.reason, _signals(result.score, result.details))
