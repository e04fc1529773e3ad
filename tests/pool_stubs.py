"""Functions for the scoring pool's workers in tests (a worker imports them by name: tests/ is on the sys.path it
gets): acp's own scoring calls, held up or ended on a marker in the response, so that budgets and deaths are
tested without depending on how fast the machine is. Tests put them in place of `acpgen.api._score_call` and
`acpgen.training.batch._reward_call` (monkeypatch), which the pool is then handed."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

from acpgen import api
from acpgen.training import batch

#: a response holding it sleeps for a minute before it is scored
SLEEP = "<sleep>"
#: a response holding it sleeps for a second before it is scored
NAP = "<nap>"
#: ``<sleep-once:PATH>``: sleeps for a minute unless PATH exists; it writes its worker's pid to PATH first
SLEEP_ONCE = re.compile(r"<sleep-once:([^>]+)>")
#: ``<die-once:PATH>``: its worker exits at once unless PATH exists (made first); ``<die-once:always>``: always
DIE_ONCE = re.compile(r"<die-once:([^>]+)>")


def held_up(response: Any) -> None:
    """Sleep or end the process as the response's markers say."""
    text = response if isinstance(response, str) else ""
    if SLEEP in text:
        time.sleep(60)
    if NAP in text:
        time.sleep(1)
    once = SLEEP_ONCE.search(text)
    if once and not Path(once.group(1)).exists():
        Path(once.group(1)).write_text(str(os.getpid()))
        time.sleep(60)
    die = DIE_ONCE.search(text)
    if die and (die.group(1) == "always" or not Path(die.group(1)).exists()):
        if die.group(1) != "always":
            Path(die.group(1)).write_text(str(os.getpid()))
        os._exit(3)


def score_call(record: dict, response: str | None, options: dict[str, bool]) -> api.Score:
    held_up(response)
    return api._score_call(record, response, options)


def reward_call(record: dict, response: Any, strict: bool) -> batch.Reward:
    held_up(response)
    return batch._reward_call(record, response, strict)


def fails(record: dict, response: Any, strict: bool) -> batch.Reward:
    raise ValueError(f"no reward for {response!r}")


def echo(value: Any, seconds: float = 0.0) -> Any:
    """``value``, after ``seconds``."""
    time.sleep(seconds)
    return value
