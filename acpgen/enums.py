"""The base of acp's string enums (statuses, verdicts, methods): members are their string values."""

from __future__ import annotations

from enum import Enum


class StrEnum(str, Enum):
    """An enum whose members read as their values in JSON, f-strings and comparisons with strings
    (:class:`enum.StrEnum` from Python 3.11 on; acp supports 3.10)."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)
