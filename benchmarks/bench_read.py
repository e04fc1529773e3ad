"""`make bench-read`: how long `acpgen.score` takes to read long, repetitive and adversarial answers.

A model in training writes whatever it likes, and a reward function must answer in bounded time
whatever the text. For one warm open-ended record of every task (made with `acpgen.generate` from a
small configuration, cached in ``--cache``), responses of each shape below are built at each length
(``--lengths`` characters) and scored ``--repeat`` times; the table gives, per task, the slowest
shape's median time at each length, and the last line the 99th percentile over all calls of the
largest length against the target (50 ms).

Shapes: the stored answer repeated; prose with an action now and then; unbalanced opening
parentheses; an action whose closing parenthesis never comes (a long run of names); a name and
then blanks; nested brackets; final-answer markers without content; unknown names in parentheses;
English fact sentences separated by commas and "and" (what the reasoning-about-actions reader cuts
into pieces); the record's own ground actions and fluent atoms in PDDL, one after another; the same in the
domain's English (its template's words): answers made of names every reader knows, the costliest to read.
``--strict``: with the strict reading of rewards (`acpgen.score(..., strict=True)`).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from common import percentile

import acpgen
from acpgen.nl.describe import Describer
from acpgen.nl.ramified import template_for
from acpgen.nl.template import load_template
from acpgen.pddl.grounding import GroundTask
from acpgen.tasks import TASKS

TARGET_MS = 50.0


def own_words(record: dict) -> tuple[str, str]:
    """The record's ground actions and fluent atoms, in PDDL and in its domain's English."""
    task = GroundTask.from_strings(record["PDDL_domain"], record["PDDL_problem"])
    actions, atoms = list(task.action_names), task.fluent_atoms()
    describe = Describer(template_for(load_template(record["domain"]), task.lifted), task.lifted)
    english = [describe.action(a) for a in actions] + [describe.atom(a) for a in atoms]
    return " ".join(actions + atoms) + " ", ", ".join(english) + ", "


def shapes(record: dict) -> dict[str, str]:
    """One seed text per shape; each is repeated (or padded) up to the length asked for."""
    answer = acpgen.reference_answer(record)
    pddl, english = own_words(record)
    return {
        "repeated answer": answer + "\n",
        "prose": "The ferry should go from one place to another (see above) because it is empty, and then ",
        "open parens": "(",
        "unclosed action": "(sail l0 l1 c0 c1 ",
        "blanks": "(a" + " " * 50,
        "brackets": "[",
        "markers": "Final answer: ",
        "unknown names": "(frobnicate x y) ",
        "english facts": "car c0 is at location l1, the ferry is empty and car c1 is on the ferry, ",
        "own pddl": pddl,
        "own english": english,
    }


def stretched(seed: str, length: int) -> str:
    return (seed * (length // max(1, len(seed)) + 1))[:length]


def records_of(config: str, domain: str, cache: Path) -> list[dict]:
    return [next(iter(acpgen.generate(domain, name, n=1, config=config, cache_dir=cache))) for name in TASKS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="tests/fixtures/pipeline/ci.yaml", help="pipeline config to generate from")
    parser.add_argument("--domain", default="ferry")
    parser.add_argument("--lengths", default="1000,20000,200000", help="response lengths in characters")
    parser.add_argument("--repeat", type=int, default=3, help="calls per task, shape and length")
    parser.add_argument("--cache", type=Path, default=Path("out/bench-read"), help="generation cache folder")
    parser.add_argument(
        "--strict", action="store_true", help="the strict reading of rewards (acpgen.score(strict=True))"
    )
    args = parser.parse_args()
    lengths = [int(n) for n in args.lengths.split(",")]
    records = records_of(args.config, args.domain, args.cache)
    largest: list[float] = []
    header = f"{'task':12}" + "".join(f"{n:>10,}" for n in lengths) + "  slowest shape at the largest length"
    print(f"slowest shape's median ms per answer, by response length (characters); {args.domain}, 1 process")
    print(header)
    for record in records:
        seeds = shapes(record)
        for text in seeds.values():  # warm: the record is grounded and its oracle made once
            acpgen.score(record, text[:100])
        row, worst = [], ("", 0.0)
        for length in lengths:
            slowest = 0.0
            for shape, seed in seeds.items():
                text = stretched(seed, length)
                times = []
                for _ in range(args.repeat):
                    response = (text + " ")[:-1]  # a new string each call, as a model's every answer is
                    start = time.perf_counter()
                    acpgen.score(record, response, strict=args.strict)
                    times.append((time.perf_counter() - start) * 1000)
                median = statistics.median(times)
                slowest = max(slowest, median)
                if length == lengths[-1]:
                    largest += times
                    worst = max(worst, (shape, median), key=lambda w: w[1])
            row.append(slowest)
        print(f"{record['task']:12}" + "".join(f"{ms:>10.1f}" for ms in row) + f"  {worst[0]} ({worst[1]:.0f} ms)")
    p99 = percentile(largest, 0.99)
    verdict = "meets" if p99 <= TARGET_MS else "misses"
    print(f"p99 at {lengths[-1]:,} characters over {len(largest)} calls: {p99:.1f} ms", end=" ")
    print(f"({verdict} the {TARGET_MS:.0f} ms target)")


if __name__ == "__main__":
    main()
