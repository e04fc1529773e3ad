"""What a reference-context reader returns."""

from __future__ import annotations

import re
from dataclasses import dataclass

from acpgen.errors import DataError


@dataclass(frozen=True)
class Reading:
    """A reference context read back: objects with their types, the state, and the goal if stated.

    Atoms are canonical strings ``(pred arg ...)``; ``init`` holds every fact of the state, static
    facts included (as the PDDL ``:init`` of a reference gen record); ``goal`` is None when the
    context has no goal sentence.
    """

    objects: dict[str, str]
    init: frozenset[str]
    goal: tuple[str, ...] | None


class ReadError(DataError):
    """A reference context does not have the structure its domain's reader expects."""


def names(text: str) -> list[str]:
    """Object names of a reference enumeration: 'c0, c3, and c5' / 'c0 and c3' / 'c0' -> ['c0', 'c3', 'c5']."""
    text = text.strip().rstrip(".").strip()
    if not text:
        return []
    parts = re.split(r",\s*(?:and\s+)?|\s+and\s+", text)
    return [p.strip() for p in parts if p.strip()]


def atom(pred: str, *args: str) -> str:
    return "(" + " ".join([pred, *args]) + ")"
