"""`make bench-levels`: per domain and difficulty level, what makes the questions hard, and how fast they come.

For every domain (``--domains``, default three small ones; ``--all`` for every configured domain) and
level 1-5, `acpgen.generate` makes ``--n`` records of ``--task`` into a fresh cache folder (with
``--problems`` problems per domain instead of the configured count, to keep the run short); the table
shows the mean of each feature of `acpgen.api.features` over the records (objects, propositions,
applicable actions, remaining plan length, optimal plan length and reachable states where the state
space was explored within the bound, with how many records had them), and the generation rate
(records per second, all stages from scratch).
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import statistics
import time
import warnings
from pathlib import Path

from common import chosen_domains

import acpgen
from acpgen.config import load_config
from acpgen.generation.levels import LEVELS, describe

FEATURES = ("objects", "propositions", "applicable", "plan_length", "optimal_plan_length", "reachable_states")


def mean_of(records: list[dict], key: str) -> str:
    values = [r["features"][key] for r in records if r["features"][key] is not None]
    if not values:
        return "-"
    text = f"{statistics.mean(values):.1f}"
    return text if len(values) == len(records) else f"{text} ({len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=None, help="pipeline config (default: pipeline.yaml)")
    parser.add_argument("--domains", default="ferry,grippers,blocksworld", help="comma-separated domains")
    parser.add_argument("--all", action="store_true", help="every domain of the config")
    parser.add_argument("--task", default="app")
    parser.add_argument("--n", type=int, default=3, help="records per domain and level")
    parser.add_argument("--problems", type=int, default=2, help="problems per domain (instead of the config's)")
    parser.add_argument("--out", type=Path, default=Path("out/bench-levels"), help="cache folders (made afresh)")
    args = parser.parse_args()
    config = load_config(args.config)
    domains = list(config.domains) if args.all else chosen_domains(config, args.domains)
    config = dataclasses.replace(
        config,
        domains={d: dataclasses.replace(e, problems=args.problems) for d, e in config.domains.items()},
    )
    header = f"{'domain':12} {'level':>5} {'records':>7} " + " ".join(f"{f:>20}" for f in FEATURES) + f" {'rec/s':>7}"
    print(header)
    for domain in domains:
        for level in LEVELS:
            cache = args.out / domain / f"level{level}"
            shutil.rmtree(cache, ignore_errors=True)
            start = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", acpgen.GenerationShortfall)
                records = list(
                    acpgen.generate(domain, args.task, n=args.n, level=level, config=config, cache_dir=cache)
                )
            seconds = time.perf_counter() - start
            cells = " ".join(f"{mean_of(records, f):>20}" for f in FEATURES) if records else ""
            print(f"{domain:12} {level:5d} {len(records):7d} {cells} {len(records) / seconds:7.2f}", flush=True)
    print("\nlevels (sizes drawn from; remaining plan steps):")
    for domain in domains:
        for row in describe(config, domain):
            high = row["distance"][1]
            steps = f"{row['distance'][0]}-{high}" if high is not None else f">={row['distance'][0]}"
            print(f"  {domain:12} {row['level']}: {steps:6} {row['sizes']}")


if __name__ == "__main__":
    main()
