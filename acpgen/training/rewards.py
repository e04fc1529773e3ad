"""acp's exact score of one answer as a training reward, and its partial-credit signals: the one reward
definition of every training adapter (verifiers, TRL, reasoning-gym; OpenEnv serves episodes, whose reward is
`acpgen.training.episode`'s).

:func:`reward` is :func:`acpgen.score` with a reading mode, the named parameter ``strict`` (default True, the
reading for rewards; ``ScoreOptions(strict_reading=True)`` in the scorer; False: the lenient reading of
evaluation, `acp score`), never raising on the answer's text: a response that is not a string (None, a list of
message parts) is read as the text it holds, and what cannot be read is a ``parse_error`` with reward 0.
``value`` is None only when acp cannot decide (a planner ran out of time: status ``undecided``), so that a
trainer can leave the answer out instead of rewarding it 0.

The strict reading: a part of a set answer that reads as nothing makes it wrong (the scorer's
``strict_reading``), and text the response copies from its prompt is no answer: every verbatim copy (up to
white space) of the record's question and of the prompt's instruction (`acpgen.training.prompts`) is left out
before the response is read, so that repeating the question earns what an empty answer earns, 0.

Signals (:data:`SIGNALS`), each in [0, 1]: ``score`` (acp's exact score), ``precision``, ``recall`` and
``f1`` of a set answer (app, prog, the reasoning-about-actions sets), and for a stated plan (plan, optplan)
``goal_fraction``, the progress the plan makes: of the goal's literals false in the record's state, the share
true after the plan's executable prefix (literals already true earn nothing; `acpgen.proofs.plans.goal_progress`),
and ``plan_prefix``, the share of the plan's written steps that execute before the first that does not. An answer
with no plan (a parse error) earns 0 on every signal. A record without a signal gives its exact score for it,
so that weighting a signal never lowers the reward of a correct answer to a task without partial credit. On a record
no plan solves (``solvable`` false), every signal is the exact score: saying that no plan exists earns 1 on each, a
plan offered earns 0 on each (no credit for steps that execute or goal literals reached).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from acpgen.api import ground_task, score
from acpgen.evaluation.records import record_task
from acpgen.proofs.plans import execute, goal_progress
from acpgen.schema import is_unsolvable
from acpgen.tasks import TASKS, split_kind
from acpgen.training.prompts import instruction

SIGNALS = ("score", "precision", "recall", "f1", "goal_fraction", "plan_prefix")


@dataclass(frozen=True)
class Reward:
    """The reward of one answer: ``value`` (acp's score; None when undecided), ``status`` and
    ``reason`` as in :class:`acpgen.Score`, and every signal of :data:`SIGNALS`."""

    value: float | None
    status: str
    reason: str
    signals: dict[str, float] = field(default_factory=dict)

    @classmethod
    def undecided(cls, reason: str) -> Reward:
        """The reward of an answer acp could not decide: no value, every signal 0."""
        return cls(None, "undecided", reason, dict.fromkeys(SIGNALS, 0.0))


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


def _verbatim(text: str) -> re.Pattern[str] | None:
    words = text.split()
    return re.compile(r"\s+".join(map(re.escape, words))) if words else None


def without_echo(record: dict, text: str | None) -> str | None:
    """``text`` without its verbatim copies (up to white space) of the record's question and of its prompt's
    instruction: what the strict reading reads."""
    kind = record_task(record)
    if text is None or kind is None:
        return text
    name, fmt = split_kind(kind)
    for copied in (str(record.get("question") or ""), instruction(name, fmt)):
        pattern = _verbatim(copied)
        if pattern is not None:
            text = pattern.sub(" ", text)
    return text


def plan_progress(record: dict, text: str, prefix: int) -> float | None:
    """The goal progress of the first ``prefix`` steps of the plan in ``text`` (read as the plan scorer reads
    it) from the record's state (`acpgen.proofs.plans.goal_progress`); None when the goal holds there already."""
    kind = record_task(record)
    assert kind is not None
    task = ground_task(record)
    state = task.init
    for number, step in enumerate(TASKS[split_kind(kind)[0]].parse(text)[:prefix], 1):
        state, failure, _ = execute(task, state, step, number)
        if failure is not None:  # the scorer's prefix ends before this step; never reached
            break
    return goal_progress(task, state)


def _signals(record: dict, text: str | None, value: float, details: dict[str, Any]) -> dict[str, float]:
    signals = {name: value for name in SIGNALS}
    if is_unsolvable(record):  # no plan reaches the goal: a plan offered earns nothing on any signal
        return signals
    for name in ("precision", "recall", "f1"):
        if isinstance(details.get(name), (int, float)):
            signals[name] = float(details[name])
    prefix, steps = details.get("prefix"), details.get("steps")
    if isinstance(prefix, int) and isinstance(steps, int) and text is not None:  # a stated plan, judged
        signals["plan_prefix"] = prefix / max(1, steps)
        progress = plan_progress(record, text, prefix)
        signals["goal_fraction"] = value if progress is None else progress
    return signals


def reward(record: dict, response: Any, *, strict: bool = True) -> Reward:
    """The reward of ``response`` (any text a policy wrote) for ``record`` (see the module docstring); ``strict``:
    the reading mode (True: the strict reading of rewards; False: the lenient reading of evaluation)."""
    text = text_of(response)
    if strict:
        text = without_echo(record, text)
    result = score(record, text, strict=strict)
    if result.status == "undecided":
        return Reward.undecided(result.reason)
    if result.status == "parse_error":
        return Reward(0.0, result.status, result.reason, {name: 0.0 for name in SIGNALS})
    return Reward(result.score, result.status, result.reason, _signals(record, text, result.score, result.details))
