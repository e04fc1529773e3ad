"""The problems stage: problem i of a domain has the configured size sizes[(i - 1) % len(sizes)], and
every problem is one the planners could solve (its plans file holds a plan)."""

from __future__ import annotations

import json
import re

import yaml
from conftest import SMALL


def _objects_by_type(text: str) -> dict[str, int]:
    """Objects per type of a typed ``(:objects a b - t c - u)`` list, read with a regex written here."""
    listed = re.search(r"\(:objects([^)]*)\)", text)
    assert listed, text
    counts: dict[str, int] = {}
    names: list[str] = []
    tokens = listed.group(1).split()
    i = 0
    while i < len(tokens):
        if tokens[i] == "-":
            counts[tokens[i + 1]] = counts.get(tokens[i + 1], 0) + len(names)
            names = []
            i += 2
        else:
            names.append(tokens[i])
            i += 1
    return counts


def test_problems_cycle_through_the_configured_sizes(reference_run):
    settings = yaml.safe_load(SMALL.read_text())["domains"]["ferry"]
    sizes = settings["sizes"]
    problems = sorted((reference_run / "ferry" / "problems").glob("p*.pddl"))
    assert [p.stem for p in problems] == [f"p{i:03d}" for i in range(1, settings["problems"] + 1)]
    for i, path in enumerate(problems, start=1):
        size = sizes[(i - 1) % len(sizes)]
        assert _objects_by_type(path.read_text()) == {"car": size["cars"], "location": size["locations"]}, path.name


def test_every_problem_has_a_plan(reference_run):
    for path in sorted((reference_run / "ferry" / "problems").glob("p*.pddl")):
        plans = json.loads((reference_run / "ferry" / "plans" / f"{path.stem}.json").read_text())
        assert plans["plans"], path.name


def test_the_domain_lies_beside_the_problems(reference_run):
    from acpgen.data import DOMAINS_DIR

    assert (reference_run / "ferry" / "domain.pddl").read_text() == (DOMAINS_DIR / "ferry" / "domain.pddl").read_text()
