"""Partial credit for set answers: precision, recall and F1 of a given set against the true set.

One rule for empty sets, used everywhere a score reports these measures: an empty set measured
against an empty set is perfect (1, 1, 1); otherwise an empty side gives 0. So an empty answer to a
question whose true set has elements has precision 0 and recall 0 (it names nothing right), and an
answer that names elements where the true set is empty has precision 0 and recall 0 (it names only
wrong ones). F1 is the harmonic mean of precision and recall, 0 when both are 0.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SetMeasures:
    precision: float
    recall: float
    f1: float

    def as_details(self) -> dict[str, float]:
        """The measures as fields of a score row, rounded to 4 digits."""
        return {"precision": round(self.precision, 4), "recall": round(self.recall, 4), "f1": round(self.f1, 4)}


def set_measures(given: Set[Any], true: Set[Any]) -> SetMeasures:
    """Precision, recall and F1 of ``given`` against ``true`` (the module docstring has the rule for empty sets)."""
    if not given and not true:
        return SetMeasures(1.0, 1.0, 1.0)
    common = len(given & true)
    precision = common / len(given) if given else 0.0
    recall = common / len(true) if true else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return SetMeasures(precision, recall, f1)
