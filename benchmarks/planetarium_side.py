"""`bench_equiv.py --planetarium CHECKOUT`: acp's checker and Planetarium's, side by side on the same pairs.

Planetarium (github.com/BatsResearch/planetarium) is not part of acp: it runs from an installed copy in
its own environment (``--planetarium-python``, the interpreter of a venv where it and its fork of the
``pddl`` package are installed), in a subprocess that reads the pairs as JSON lines and times one call of
``planetarium.evaluate(truth, candidate, domain, is_placeholder, check_solveable=False)`` per pair
(its solvability step needs Fast Downward and VAL binaries). Nothing of Planetarium is copied into acp:
the pairs are read from the checkout at run time.

The pairs: the ones its own tests evaluate (tests/test_evaluate.py, the PDDL of tests/problem_fixtures.py
and of that file's fixtures), and five perturbations (benchmarks/bench_equiv.py) of nine of its fixture
problems over its four domains. acp checks each pair with a fresh checker, the problem caches emptied
and a fresh planner cache (one cold call; the domain is read once per process, as Planetarium reads its
domains at import), solvability included; Planetarium's domain files are acp's domains.
"""

from __future__ import annotations

import ast
import json
import random
import re
import statistics
import subprocess
import time
from pathlib import Path

# The pairs of Planetarium's tests/test_evaluate.py, by fixture name, in the order its tests evaluate them.
_BW = ("blocksworld_missing_clears", "blocksworld_fully_specified", "blocksworld_missing_ontables")
_ROVER = ("rover_single_line_equiv_1", "rover_single_line_equiv_1a", "rover_single_line_equiv_1b")
TEST_PAIRS = (
    [(a, b) for a in _BW for b in _BW]
    + [("blocksworld_underspecified", "blocksworld_underspecified")]
    + [(a, "blocksworld_underspecified") for a in _BW]
    + [("blocksworld_missing_ontables", f"blocksworld_{b}") for b in ("wrong_init", "unparseable", "unsolveable")]
    + [
        ("blocksworld_underspecified", "blocksworld_wrong_init"),
        ("rover_single_line_equiv", "rover_single_line_equiva"),
    ]
    + [(a, b) for a in _ROVER for b in _ROVER]
    + [
        ("floortile_no_white1", "floortile_no_white1a"),
        ("floortile_disconnected_tile1", "floortile_disconnected_tile1a"),
        ("floortile_one_color_one_robot1", "floortile_one_color_one_robot1a"),
        ("floortile_no_available_colors", "floortile_no_available_colors_a"),
        ("blocksworld_fully_specified", "blocksworld_fully_specified_wrong_domain"),
    ]
)
# Fixture problems whose perturbations make the other pairs (two or three per domain).
PERTURBED = (
    "blocksworld_fully_specified",
    "blocksworld_underspecified",
    "gripper_fully_specified",
    "gripper_underspecified_1",
    "rover_single_line_fully_specified",
    "rover_single_line_fully_specified_4",
    "floortile_fully_specified",
    "floortile_no_white1",
    "floortile_disconnected_tile1",
)

_DRIVER = r"""
import json, sys, time
import planetarium
for line in sys.stdin:
    pair = json.loads(line)
    start = time.perf_counter()
    try:
        verdict = list(planetarium.evaluate(pair["truth"], pair["candidate"], pair["domain"],
                                            is_placeholder=pair["placeholder"], check_solveable=False))
    except Exception as err:  # noqa: BLE001 - a pair it cannot evaluate is reported, not fatal
        verdict = "error: " + type(err).__name__
    print(json.dumps({"ms": (time.perf_counter() - start) * 1000, "verdict": verdict}), flush=True)
"""


def fixtures(checkout: Path) -> dict[str, str]:
    """The PDDL text each fixture function of Planetarium's tests returns, by function name."""
    out = {}
    for name in ("tests/problem_fixtures.py", "tests/test_evaluate.py"):
        tree = ast.parse((checkout / name).read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                for stmt in node.body:
                    value = stmt.value if isinstance(stmt, ast.Return) else None
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        out[node.name] = value.value
    return out


def _domain_of(text: str) -> str:
    found = re.search(r"\(:domain\s+([^\s()]+)", text, flags=re.IGNORECASE)
    return found.group(1).lower() if found else ""


def pairs(checkout: Path, perturbations) -> list[dict]:
    """Every pair: source (tests or perturbed), name, domain name, truth, candidate."""
    texts = fixtures(checkout)
    domains = {p.stem: p.read_text() for p in (checkout / "planetarium" / "domains").glob("*.pddl")}
    out = []
    for truth, candidate in TEST_PAIRS:
        domain = _domain_of(texts[truth])
        out.append(
            {"source": "tests", "name": f"{truth} / {candidate}", "domain": domain, "domain_text": domains[domain]}
            | {"truth": texts[truth], "candidate": texts[candidate]}
        )
    for truth in PERTURBED:
        domain = _domain_of(texts[truth])
        text = texts[truth].lower()
        for kind, candidate in perturbations(domains[domain], text, random.Random(f"planetarium/{truth}")):
            out.append(
                {"source": "perturbed", "name": f"{truth} / {kind}", "domain": domain, "domain_text": domains[domain]}
                | {"truth": text, "candidate": candidate}
            )
    return out


def run_planetarium(python: str, items: list[dict]) -> list[dict]:
    """Planetarium's verdict and milliseconds on each pair, from its own interpreter."""
    lines = "".join(
        json.dumps({"truth": i["truth"], "candidate": i["candidate"], "domain": i["domain_text"], "placeholder": False})
        + "\n"
        for i in items
    )
    run = subprocess.run([python, "-c", _DRIVER], input=lines, capture_output=True, text=True, timeout=3600)
    if run.returncode != 0:
        raise SystemExit(f"Planetarium's checker failed ({python}): {run.stderr[-2000:]}")
    return [json.loads(line) for line in run.stdout.splitlines()]


def run_acp(items: list[dict], cold_checker) -> list[dict]:
    """acp's verdict and milliseconds on each pair (``cold_checker(domain_text)``: a fresh checker, caches emptied)."""
    out = []
    for item in items:
        checker = cold_checker(item["domain_text"])
        start = time.perf_counter()
        result = checker.check(item["truth"], item["candidate"], False)
        ms = (time.perf_counter() - start) * 1000
        out.append({"ms": ms, "verdict": [result.parseable, result.solvable, result.equivalent]})
    return out


def report(items: list[dict], planetarium: list[dict], acp: list[dict]) -> None:
    """The side-by-side table (per source and domain), and every pair where acp is not the faster or the
    two say different things about equivalence (Planetarium's solvable flag is False when it is not checked)."""
    print("\nside by side with Planetarium's checker (one cold call per pair; ms)")
    print(
        f"{'pairs':28} {'n':>3} {'Planetarium med':>16} {'max':>8} {'acp med':>8} {'p90':>8} {'max':>8}"
        f" {'acp faster':>11}"
    )
    groups: dict[tuple[str, str], list[int]] = {}
    for index, item in enumerate(items):
        groups.setdefault((item["source"], item["domain"]), []).append(index)
        groups.setdefault((item["source"], "all"), []).append(index)
        groups.setdefault(("all", "all"), []).append(index)
    for (source, domain), indices in sorted(groups.items(), key=lambda kv: (kv[0][0] == "all", kv[0])):
        theirs = sorted(planetarium[i]["ms"] for i in indices)
        ours = sorted(acp[i]["ms"] for i in indices)
        p90 = ours[min(len(ours) - 1, -(-9 * len(ours) // 10) - 1)]
        faster = sum(acp[i]["ms"] < planetarium[i]["ms"] for i in indices)
        print(
            f"{source + ' ' + domain:28} {len(indices):3d} {statistics.median(theirs):16.1f} {theirs[-1]:8.1f}"
            f" {statistics.median(ours):8.1f} {p90:8.1f} {ours[-1]:8.1f} {faster:7d} of {len(indices)}"
        )
    for index, item in enumerate(items):
        theirs, ours = planetarium[index], acp[index]
        flag = "" if ours["ms"] < theirs["ms"] else "  <- acp slower"
        if isinstance(theirs["verdict"], str) or theirs["verdict"][2] != ours["verdict"][2]:
            flag += "  <- verdicts differ"
        if flag:
            print(
                f"  {item['name']}: Planetarium {theirs['verdict']} {theirs['ms']:.1f} ms, "
                f"acp {ours['verdict']} {ours['ms']:.1f} ms{flag}"
            )
