"""Many pairs at once (`acp equivalent --pairs`): the pairs of a JSONL file (:func:`read_pairs`), their
verdicts (:func:`check_pairs`) and a verdict's output line (:func:`pair_line`).

The pairs are grouped by truth text and each group is one unit of an executor, checked by one
:class:`~acpgen.proofs.equivalence.checker.EquivalenceChecker`, so a truth is parsed, explored and its
goal closed once for all its candidates; the verdicts come back in the order of the pairs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acpgen.errors import DataError, PddlError
from acpgen.executors import Executor
from acpgen.pddl.model import declared_domain_name
from acpgen.planners import Limits, PlannerSetup
from acpgen.proofs.equivalence.checker import Equivalence, EquivalenceChecker


@dataclass(frozen=True)
class Pair:
    """One check of a batch: a candidate against a truth, both over the batch's domain."""

    truth: str
    candidate: str
    placeholder: bool = False


@dataclass(frozen=True)
class _TruthGroup:
    """A unit of a batch: one truth and every candidate checked against it (its analysis is shared)."""

    domain_text: str
    truth: str
    candidates: tuple[tuple[str, bool], ...]
    setup: PlannerSetup
    max_states: int
    limits: Limits
    retry_factor: float


def pair_line(pair_id: Any, verdict: Equivalence | str) -> dict[str, Any]:
    """A pair's line in `acp equivalent --pairs` output: its id and the verdict, or ``error`` when it was
    not checked."""
    if isinstance(verdict, str):
        return {"id": pair_id, "error": verdict}
    return {"id": pair_id, **verdict.to_json()}


def read_pairs(path: Path) -> list[tuple[Any, Pair]]:
    """The pairs of a JSONL file, one object per line: ``truth`` and ``candidate`` (PDDL problem texts),
    optionally ``placeholder`` (true/false) and ``id`` (any JSON value, given back with the verdict;
    default: the line number). A line that is not such an object is a DataError naming file and line."""
    try:
        lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise DataError(f"cannot read {path}: {err}") from err
    out = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as err:
            raise DataError(f"{path}:{number}: not JSON ({err.msg})") from err
        if not isinstance(item, dict):
            raise DataError(f"{path}:{number}: a pair is a JSON object with 'truth' and 'candidate'")
        for key in ("truth", "candidate"):
            if not isinstance(item.get(key), str):
                raise DataError(f"{path}:{number}: '{key}' is missing or not a string (the PDDL problem text)")
        if not isinstance(item.get("placeholder", False), bool):
            raise DataError(f"{path}:{number}: 'placeholder' must be true or false")
        pair = Pair(item["truth"], item["candidate"], item.get("placeholder", False))
        out.append((item.get("id", number), pair))
    if not out:
        raise DataError(f"{path}: no pairs (one JSON object per line: truth, candidate, placeholder, id)")
    return out


def _check_group(group: _TruthGroup) -> list[Equivalence | str]:
    checker = EquivalenceChecker(
        group.domain_text,
        group.setup.build(),
        max_states=group.max_states,
        limits=group.limits,
        retry_factor=group.retry_factor,
    )
    try:
        checker.solvable(group.truth)
    except PddlError as err:
        return [f"the truth does not parse: {err}"] * len(group.candidates)
    return [checker.check(group.truth, candidate, placeholder) for candidate, placeholder in group.candidates]


def check_pairs(
    domain_text: str,
    pairs: Sequence[Pair],
    *,
    setup: PlannerSetup | None = None,
    executor: Executor | None = None,
    max_states: int = 20000,
    limits: Limits = Limits(time=20.0),
    retry_factor: float = 4.0,
    progress: bool = False,
) -> Iterator[Equivalence | str]:
    """The verdict on every pair, in the order of ``pairs``: an :class:`Equivalence`, or a string saying
        why the pair could not be checked (its truth does not parse, a worker failed). The pairs are grouped
        by truth text and each group is one unit of ``executor`` (default: this process), so a truth is parsed,
        explored and closed once for all its candidates; planners are built once per unit (``setup``; a call that
    times out is retried once with ``retry_factor`` times the budget, as in :class:`EquivalenceChecker`)."""
    if declared_domain_name(domain_text) is None:
        raise PddlError("the domain text defines no domain (no '(define (domain NAME)' found)")
    setup = setup or PlannerSetup()
    order: dict[str, list[int]] = {}
    for index, pair in enumerate(pairs):
        order.setdefault(pair.truth, []).append(index)
    groups = [
        _TruthGroup(
            domain_text,
            truth,
            tuple((pairs[i].candidate, pairs[i].placeholder) for i in indices),
            setup,
            max_states,
            limits,
            retry_factor,
        )
        for truth, indices in order.items()
    ]
    names = [f"truth {n + 1} ({len(g.candidates)} candidates)" for n, g in enumerate(groups)]
    verdicts: dict[int, Equivalence | str] = {}
    done = 0
    executor = executor or Executor(1)
    for indices, outcome in zip(
        order.values(), executor.map(_check_group, groups, names, desc="truths", progress=progress)
    ):
        results: list[Equivalence | str] = (
            list(outcome.value) if outcome.ok else [f"not checked: {outcome.error}"] * len(indices)
        )
        verdicts.update(zip(indices, results))
        while done in verdicts:  # in the order of the pairs, as soon as they are known
            yield verdicts.pop(done)
            done += 1
