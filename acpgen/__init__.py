"""acp: generator and symbolic scorer of planning-reasoning benchmarks (ACPBench, ACPBench-Hard).

The library API (`acpgen.api`) is imported on first use, so ``import acpgen`` stays cheap:
``acpgen.generate``, ``acpgen.load``, ``acpgen.score``, ``acpgen.score_many``,
``acpgen.reference_answer``, ``acpgen.validate``, ``acpgen.equivalent``, ``acpgen.equivalent_pairs`` and
``acpgen.Score``; and
``acpgen.adaptive``, a source of records whose difficulty follows the learner (`acpgen.training.adaptive`).
"""

from __future__ import annotations

from typing import Any

from acpgen.version import __version__

_API = (
    "generate",
    "load",
    "score",
    "score_many",
    "reference_answer",
    "equivalent",
    "equivalent_pairs",
    "validate",
    "Score",
    "GenerationShortfall",
)
#: the adaptive source of records for training (`acpgen.training.adaptive`), loaded on first use too
_TRAINING = ("adaptive", "AdaptiveSource")
__all__ = ["__version__", *_API, *_TRAINING]


def __getattr__(name: str) -> Any:
    if name in _API:
        from acpgen import api

        return getattr(api, name)
    if name in _TRAINING:
        from acpgen.training import adaptive

        return getattr(adaptive, name)
    raise AttributeError(f"module 'acpgen' has no attribute {name!r}")
