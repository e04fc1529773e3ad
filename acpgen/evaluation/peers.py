"""The peers' own rows as acp records: Planetarium's text-to-PDDL rows (:mod:`acpgen.evaluation.planetarium`)
and ActionReasoningBench's question rows (:mod:`acpgen.evaluation.arb`), for ``acp score --dataset``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from acpgen.evaluation import arb, planetarium
from acpgen.evaluation.records import Foreign


def reader(domains: Mapping[str, str]) -> Foreign:
    """A converter of peer rows into records (``domains``: Planetarium domain name -> PDDL text); objects
    that are no peer row are left alone (None)."""

    def convert(where: str, item: dict[str, Any]) -> dict[str, Any] | None:
        if planetarium.is_row(item):
            return planetarium.record_of(item, domains, where)
        if arb.is_row(item):
            return arb.record_of(item, where)
        return None

    return convert
