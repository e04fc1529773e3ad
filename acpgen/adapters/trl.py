"""acp for TRL's ``GRPOTrainer`` (the extra ``rl``: ``pip install 'acpgen[rl]'``; TRL 1.16).

* Reward functions, ``GRPOTrainer(reward_funcs=[acp_reward, ...])``: TRL calls each with ``prompts``,
  ``completions`` and every dataset column as keyword lists (here the record, column ``acp_record``:
  a JSON string, or the record itself), in the standard format (a completion is a string) or the
  conversational one (a list of messages: the last assistant message is read). Each returns one float
  per completion (acp's exact score with the strict reading, or a partial-credit signal of
  `acpgen.training.rewards`), or None — which TRL leaves out of the reward — only for an answer acp
  cannot decide (a planner ran out of time, or its scoring took longer than its budget). Malformed text
  is a parse error with reward 0, never an exception. A batch is scored at once on worker processes
  (`acpgen.training.batch`: ``workers``, default the cores this process may use; ``budget``, 60 s per answer)
  and once for all the reward functions of a step; its undecided answers are a warning on this module's logger
  and the metric ``acp/undecided`` in the trainer's logs (their share of the batch).
* :func:`trl_dataset`: an acp split (records, or a records file or folder) as the dataset TRL expects:
  a ``prompt`` column (the record's prompt, or a one-message conversation with ``conversational=True``)
  and the record in ``acp_record``.
* :class:`AcpPlanningEnv`, for ``GRPOTrainer(environment_factory=AcpPlanningEnv)``: one multi-step episode
  (`acpgen.training.episode`) per rollout; ``reset(**row)`` starts it from the row's record and returns
  how to act (TRL appends it to the prompt), the tool ``act`` applies the model's action(s) and returns
  the exact consequence, and ``get_reward`` gives the episode's reward.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

try:
    import trl  # noqa: F401 - the library these functions are written for; fails early without the extra
    from datasets import Dataset, IterableDataset
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"acpgen.adapters.trl needs the trl package ({err}); install it with `pip install 'acpgen[rl]'`"
    ) from err

from acpgen.adapters.prompts import prompt
from acpgen.api import load
from acpgen.errors import DataError
from acpgen.evaluation.records import record_task
from acpgen.tasks import split_kind
from acpgen.training.adaptive import AdaptiveSource
from acpgen.training.batch import DEFAULT_BUDGET, rewards_many
from acpgen.training.episode import Episode, EpisodeSettings, episode_context
from acpgen.training.rewards import SIGNALS, Reward

RECORD_COLUMN = "acp_record"
log = logging.getLogger(__name__)


def record_of(value: Any) -> dict[str, Any]:
    """A record from a dataset cell: the record itself, or its JSON text."""
    if isinstance(value, str):
        value = json.loads(value)
    if not isinstance(value, dict):
        raise DataError(f"the {RECORD_COLUMN} column holds a record (a dict or its JSON), not {type(value).__name__}")
    return value


def reward_function(
    signal: str = "score", *, strict: bool = True, workers: int | None = None, budget: float | None = DEFAULT_BUDGET
) -> Callable[..., list[float | None]]:
    """A TRL reward function giving ``signal`` (one of `acpgen.training.rewards.SIGNALS`) per completion; each
    batch is scored at once (`acpgen.training.batch.rewards_many`) on ``workers`` processes (None: the cores this
    process may use; 1: in this process), ``budget`` seconds per answer (None: no limit)."""
    if signal not in SIGNALS:
        raise ValueError(f"signal {signal!r}: choose from {', '.join(SIGNALS)}")

    def rewards(completions: list[Any], **columns: Any) -> list[float | None]:
        cells = columns.get(RECORD_COLUMN)
        if cells is None or len(cells) != len(completions):
            raise DataError(f"acp rewards read the record from the dataset column {RECORD_COLUMN!r} (trl_dataset)")
        results = _batch_rewards(list(completions), list(cells), strict, workers, budget, columns.get("log_metric"))
        return [None if result.value is None else result.signals[signal] for result in results]

    rewards.__name__ = "acp_reward" if signal == "score" else f"acp_{signal}"
    rewards.__qualname__ = rewards.__name__
    return rewards


#: the last batch scored, with its rewards: GRPOTrainer calls every reward function with the same completions and
#: records in a step (acp_reward, acp_f1, ...), and the batch is scored once for all of them
_LAST: tuple[tuple, list[Reward]] | None = None


def _batch_rewards(
    completions: list[Any],
    cells: list[Any],
    strict: bool,
    workers: int | None,
    budget: float | None,
    log_metric: Callable[[str, float], None] | None,
) -> list[Reward]:
    """The rewards of a batch, scored once for the reward functions of one step; a batch with undecided answers
    is a warning on this module's logger and, in a GRPOTrainer, the metric ``acp/undecided`` (their share)."""
    global _LAST
    key = (completions, cells, strict, workers, budget)
    if _LAST is not None and _LAST[0] == key:  # the same objects: compared by identity first
        return _LAST[1]
    read: dict[str, dict[str, Any]] = {}  # each record read once (the cells of a prompt's completions are equal)
    batch = []
    for cell in cells:
        if not isinstance(cell, str):
            batch.append(record_of(cell))
            continue
        if cell not in read:
            read[cell] = record_of(cell)
        batch.append(read[cell])
    results = rewards_many(batch, completions, strict=strict, workers=workers, budget=budget, logger=log)
    if log_metric is not None:
        log_metric("acp/undecided", sum(r.status == "undecided" for r in results) / max(1, len(results)))
    _LAST = (key, results)
    return results


acp_reward = reward_function("score")
acp_f1 = reward_function("f1")
acp_goal_fraction = reward_function("goal_fraction")
acp_plan_prefix = reward_function("plan_prefix")


def adaptive_dataset(source: AdaptiveSource, *, conversational: bool = False) -> IterableDataset:
    """An endless TRL dataset drawn from an adaptive source (`acpgen.adaptive`): rows as :func:`trl_dataset`'s,
    drawn when TRL reads them, so a row read after the source's difficulty moved is drawn at the new one. Train
    with ``GRPOConfig(max_steps=..., shuffle_dataset=False)`` (an endless dataset has no length; TRL's shuffle
    buffer would draw 1,000 rows ahead of the rewards) and :func:`adaptive_rewards` among the reward functions,
    which tells the source each reward."""

    def rows() -> Iterator[dict[str, Any]]:
        for record in source:
            yield _row(record, conversational)

    return IterableDataset.from_generator(rows)


def adaptive_rewards(
    source: AdaptiveSource, reward_func: Callable[..., list[float | None]] | None = None
) -> Callable[..., list[float | None]]:
    """``reward_func`` (default :data:`acp_reward`) telling ``source`` the reward of every completion (its
    record from the ``acp_record`` column; an undecided one, None, is not counted), for ``reward_funcs``."""
    inner = reward_func or acp_reward

    def rewards(completions: list[Any], **columns: Any) -> list[float | None]:
        values = inner(completions, **columns)
        for cell, value in zip(columns[RECORD_COLUMN], values):
            source.update(record_of(cell), value)
        return values

    rewards.__name__ = rewards.__qualname__ = f"{getattr(inner, '__name__', 'acp_reward')}_adaptive"
    return rewards


def _row(record: dict[str, Any], conversational: bool) -> dict[str, Any]:
    """A record as a dataset row: its prompt and, in ``acp_record``, its JSON."""
    kind = record_task(record)
    if kind is None:
        raise DataError(f"record {record.get('id')}: no known task")
    text = prompt(record, *split_kind(kind))
    return {
        "prompt": [{"role": "user", "content": text}] if conversational else text,
        RECORD_COLUMN: json.dumps(record, sort_keys=True),
    }


def trl_dataset(records: str | Path | Iterable[dict[str, Any]], *, conversational: bool = False) -> Dataset:
    """The records as a TRL dataset: ``prompt`` (text, or ``[{"role": "user", "content": text}]``) and
    ``acp_record`` (the record as JSON: records of different tasks have different fields)."""
    rows = [_row(record, conversational) for record in (load(records) if isinstance(records, (str, Path)) else records)]
    if not rows:
        raise DataError("no record to make a dataset of")
    return Dataset.from_list(rows)


def episode_dataset(records: str | Path | Iterable[dict[str, Any]], settings: EpisodeSettings | None = None) -> Dataset:
    """Rows for :class:`AcpPlanningEnv`: the episode's state, goal and actions as a conversational
    ``prompt`` (``reset`` appends how to act) and the record in ``acp_record``. The prompt is what the
    episode shows (`acpgen.training.episode.episode_context`): the record's own context where `acp generate`
    wrote that text (the plan tasks' records, nexta, val, pver), else described from its PDDL; no episode is
    started (its optimal cost is worked out at ``reset``)."""
    rows = []
    described: dict[tuple[str, ...], str] = {}
    for record in load(records) if isinstance(records, (str, Path)) else records:
        context = episode_context(record, settings, described)
        message = {"role": "user", "content": context}
        rows.append({"prompt": [message], RECORD_COLUMN: json.dumps(record, sort_keys=True)})
    if not rows:
        raise DataError("no record to make a dataset of")
    return Dataset.from_list(rows)


class AcpPlanningEnv:
    """One acp episode per rollout, for ``environment_factory`` (see the module docstring). The settings
    are class attributes; a subclass changes them (``max_steps``, ``invalid_penalty``, ``states``)."""

    max_steps: int | None = None
    invalid_penalty: float = 0.1
    states: str = "nl"

    def __init__(self) -> None:
        self.episode: Episode | None = None

    def reset(self, **row: Any) -> str:
        """Start the episode of the row's record; what to do, appended to the prompt."""
        settings = EpisodeSettings(self.max_steps, self.invalid_penalty, self.states)
        self.episode = Episode(record_of(row.get(RECORD_COLUMN)), settings)
        return f"\n\n{self.episode.instruction} Call the act tool with your action(s)."

    def act(self, actions: str) -> str:
        """Apply one action, or several in order, to the current state.

        Args:
            actions: The action as (name arg1 arg2 ...), or several such actions, one per line.

        Returns:
            The exact consequence: the actions applied, the first that could not be applied and why,
            and the new state, or that the goal holds.
        """
        if self.episode is None:
            return "No episode: the environment was not reset."
        return self.episode.step(actions).text

    def get_reward(self) -> float:
        """The episode's reward (0 until the goal holds)."""
        return self.episode.reward if self.episode is not None else 0.0
