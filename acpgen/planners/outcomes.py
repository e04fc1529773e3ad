"""Outcome of one planner run: the :class:`Status` enum and the exit-code table.

Fast Downward and K* (whose driver is Fast Downward's) share one set of exit codes
(``driver/returncodes.py`` of the wheels). Their meaning for acp, as established by running the
planners on small solvable and unsolvable tasks:

* ``0`` solved. ``10``/``11`` unsolvable: the translator or the search *proved* that no plan
  exists (the search configurations acp uses are complete and prune only safely; Fast Downward
  itself reports ``12`` instead of ``11`` when a configuration cannot give a proof).
* ``12`` "search ended without a plan": for Fast Downward an incomplete search, so an *error*
  (no proof). K* always ends with ``12`` when it finds no plan -- also when the translator
  already proved the task unsolvable -- and, because its search is an exhaustive A* with an
  admissible heuristic, that *is* a proof (``complete=True``). The one exception is K*'s own
  ``max_time`` stop, which also exits ``12`` but logs ``search::time limit``: a timeout.
* ``2``/``3``/``21``/``23``/``24`` timeout; ``1``/``20``/``22`` error "out of memory" (``1`` is
  also what a crashing Python driver returns, so the stderr tail is kept in the message).
* ``13`` (no plan within a cost bound) is an error except where a caller asked for a bound.
* ``30``-``37`` error (critical/input/unsupported); ``34`` "unsupported" makes callers retry with
  a configuration that supports the feature (e.g. axioms). Anything else: error.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass
from enum import Enum

from acpgen.planners.run import ToolRun


class Status(str, Enum):
    """How a planner call ended."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    TIMEOUT = "timeout"
    ERROR = "error"
    #: the search did the work it was given (``Limits.work``) without an answer: undecided, and the
    #: same on every machine
    BUDGET = "budget"


SEARCH_UNSOLVED_INCOMPLETE = 12
SEARCH_UNSOLVABLE_WITHIN_BOUND = 13
SEARCH_UNSUPPORTED = 34

#: exit code -> (status, short reason); see the module docstring for the decisions.
EXIT_CODES: dict[int, tuple[Status, str]] = {
    0: (Status.SOLVED, "success"),
    1: (Status.ERROR, "out of memory"),
    2: (Status.TIMEOUT, "plan found, then out of time"),
    3: (Status.TIMEOUT, "plan found, then out of memory and time"),
    10: (Status.UNSOLVABLE, "translator proved the task unsolvable"),
    11: (Status.UNSOLVABLE, "search proved the task unsolvable"),
    12: (Status.ERROR, "search incomplete: no plan found, no proof of unsolvability"),
    13: (Status.ERROR, "no plan within the given cost bound"),
    20: (Status.ERROR, "out of memory (translator)"),
    21: (Status.TIMEOUT, "out of time (translator)"),
    22: (Status.ERROR, "out of memory (search)"),
    23: (Status.TIMEOUT, "out of time (search)"),
    24: (Status.TIMEOUT, "out of memory and time (search)"),
    30: (Status.ERROR, "translator critical error"),
    31: (Status.ERROR, "translator input error"),
    32: (Status.ERROR, "search critical error"),
    33: (Status.ERROR, "search input error"),
    34: (Status.ERROR, "search does not support a feature of the task"),
    35: (Status.ERROR, "driver critical error"),
    36: (Status.ERROR, "driver input error"),
    37: (Status.ERROR, "driver unsupported"),
}

KSTAR_TIME_LIMIT_MARKER = "search::time limit"


@dataclass(frozen=True)
class Outcome:
    """Status of one run and a short human-readable reason."""

    status: Status
    reason: str


def classify(run: ToolRun, *, complete: bool = False) -> Outcome:
    """Map a finished run to an :class:`Outcome`.

    ``complete`` marks K*-style searches whose exit code 12 is a proof of unsolvability.
    """
    if run.timed_out:
        return Outcome(Status.TIMEOUT, f"wall-clock limit reached after {run.wall_time:.1f}s")
    code = run.returncode
    if code < 0:
        if -code == signal.SIGXCPU:
            return Outcome(Status.TIMEOUT, "CPU time limit reached (SIGXCPU)")
        return Outcome(
            Status.ERROR,
            f"killed by signal {signal.Signals(-code).name}"
            if -code in signal.valid_signals()
            else f"killed by signal {-code}",
        )
    if code == SEARCH_UNSOLVED_INCOMPLETE and complete:
        if KSTAR_TIME_LIMIT_MARKER in run.stdout:
            return Outcome(Status.TIMEOUT, "K* time limit (max_time) reached before any plan was found")
        return Outcome(Status.UNSOLVABLE, "exhaustive search found no plan")
    status, reason = EXIT_CODES.get(code, (Status.ERROR, "unknown exit code"))
    return Outcome(status, reason)


def describe(run: ToolRun, reason: str, lines: int = 4) -> str:
    """A one-line message: exit code, reason and the last lines of stderr (or stdout)."""
    tail = run.tail(lines)
    head = f"exit {run.returncode}: {reason}"
    return f"{head} | {tail}" if tail else head
