"""Benchmark of `acp generate` stages 1-3: problems, plans and states per second for each domain.

Usage: python benchmarks/bench_generate.py [--config pipeline.yaml] [--problems N] [--domain D ...]
Each domain runs its first N configured sizes (default 3) into a temporary folder; the rates
are items produced per second of wall-clock time of the stage.
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time
from pathlib import Path

from acpgen.config import load_config
from acpgen.generation.stages import STAGES, StageContext, count_artefacts
from acpgen.planners import PlannerSetup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=None)
    parser.add_argument("--problems", type=int, default=3)
    parser.add_argument("--domain", action="append", default=None)
    args = parser.parse_args()
    config = load_config(args.config)
    planners = PlannerSetup().build()
    print(f"{'domain':12} {'problems/s':>11} {'plans/s':>9} {'states/s':>9}   (problems, plans, states)")
    for name in args.domain or list(config.domains):
        settings = config.domains[name]
        domains = {name: dataclasses.replace(settings, problems=args.problems)}
        with tempfile.TemporaryDirectory() as out:
            ctx = StageContext(name, dataclasses.replace(config, domains=domains), Path(out), planners, progress=False)
            seconds = {}
            for stage, run in STAGES.items():
                start = time.perf_counter()
                run(ctx)
                seconds[stage] = time.perf_counter() - start
            counts = count_artefacts(ctx)
        rates = [
            counts[k] / seconds[s] for k, s in (("problems", "problems"), ("plans", "plans"), ("states", "states"))
        ]
        print(
            f"{name:12} {rates[0]:11.2f} {rates[1]:9.2f} {rates[2]:9.1f}   "
            f"({counts['problems']}, {counts['plans']}, {counts['states']})"
        )


if __name__ == "__main__":
    main()
