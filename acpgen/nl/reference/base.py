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


# Separators of a reference enumeration ("a, b, and c", "a and b").
LIST_SEPARATOR = re.compile(r",\s*(?:and\s+)?|\s+and\s+")
# The vocabulary sentence of gen contexts, up to a goal sentence that may follow it (just records).
VOCABULARY = re.compile(r" ?The available (?:actions|propositions) are:.*?(?= ?The goal is to reach|$)")


def normalise(context: str) -> str:
    """The context on one line with single blanks, without the vocabulary sentence."""
    return VOCABULARY.sub("", " ".join(context.split())).strip()


def opens_with(context: str, opening: str) -> bool:
    return " ".join(context.split()).startswith(opening)


GOAL_SENTENCE = "The goal is to reach a state where the following facts hold: "


def split_goal(context: str) -> tuple[str, str | None]:
    """(description and state, goal enumeration or None): normalised, vocabulary dropped (the goal
    sentence comes after the state, before or after the vocabulary)."""
    text = normalise(context)
    start = text.find(GOAL_SENTENCE)
    if start < 0:
        return text, None
    return text[:start].strip(), text[start + len(GOAL_SENTENCE) :].strip().rstrip(".").strip()


def read_fact(text: str, patterns, domain: str) -> str:
    """The atom of the first (regex, build) pair whose regex matches the whole phrase."""
    text = text.strip().rstrip(".")
    for pattern, build in patterns:
        match = pattern.fullmatch(text)
        if match:
            return build(match)
    raise ReadError(f"{domain}: unknown fact phrasing {text!r}")


def begin(context: str, opening: str, domain: str) -> tuple[str, str | None]:
    """Check that the context opens like its domain's; then (description and state, goal or None)."""
    text = " ".join(context.split())
    if not text.startswith(opening):
        raise ReadError(f"{domain}: context does not open with {opening!r}: {text[:80]!r}")
    return split_goal(text)
