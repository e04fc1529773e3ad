"""`make bench-scale`: how `acp dataset` would scale over Dask workers.

Runs `acp dataset` (library call, fresh work and dataset folders each time) on a Dask
LocalCluster of 1 and of 2 worker processes, timing the whole run and recording the time of
every unit (generation: a domain; self-check: a shard of records, validation then scoring).
The 1-worker unit times feed a list-scheduling simulation of the makespan on 1, 2, 8, 32 and 128
workers: units are handed out in the run's order, each to the worker that is free first.

Assumptions of the simulation: a unit costs on W workers what it cost on one (no contention
for cores, disk or the planner cache; no planner result reused across units); a check-phase
record costs its shard's time divided by the shard's records, and the check phase is re-sharded
for W workers as acp does (about four shards per worker); the client's own work (splitting,
writing, the manifest) and Dask's scheduling overhead are left out, so the simulated times are
lower bounds. The phases run one after the other (the self-check needs every domain).
"""

from __future__ import annotations

import argparse
import heapq
import shutil
import sys
import tempfile
import time
from pathlib import Path

from acpgen.config import load_config
from acpgen.dataset import build_dataset
from acpgen.executors import DaskExecutor, UnitOutcome, shard_size

WORKERS = (1, 2, 8, 32, 128)


class Recording(DaskExecutor):
    """A Dask executor that keeps every outcome, by the description of its map call."""

    def __init__(self, jobs: int):
        super().__init__(jobs)
        self.outcomes: dict[str, list[UnitOutcome]] = {}

    def map(self, fn, units, names, *, desc="units", progress=True):
        kept = self.outcomes.setdefault(desc, [])
        for outcome in super().map(fn, units, names, desc=desc, progress=progress):
            kept.append(outcome)
            yield outcome


def makespan(costs: list[float], workers: int) -> float:
    """List scheduling: each unit, in order, to the worker that is free first."""
    free = [0.0] * workers
    for cost in costs:
        heapq.heappush(free, heapq.heappop(free) + cost)
    return max(free)


def record_costs(outcomes: list[UnitOutcome]) -> list[float]:
    """Per-record cost of a check phase: each shard's time spread evenly over its records."""
    costs: list[float] = []
    for outcome in outcomes:
        first, last = (int(x) for x in outcome.name.removeprefix("records ").split("-"))
        count = last - first + 1
        costs += [outcome.seconds / count] * count
    return costs


def simulate(outcomes: dict[str, list[UnitOutcome]], workers: int) -> tuple[float, float]:
    """(simulated makespan, largest unit) on ``workers`` workers."""
    domains = [o.seconds for o in outcomes["domains"]]
    total, largest = makespan(domains, workers), max(domains)
    for phase in ("validating", "scoring"):
        records = record_costs(outcomes.get(phase, []))
        size = shard_size(len(records), workers)
        shards = [sum(records[i : i + size]) for i in range(0, len(records), size)]
        if shards:
            total += makespan(shards, workers)
            largest = max(largest, *shards)
    return total, largest


def run(config_path: Path, workers: int, scratch: Path) -> tuple[float, dict[str, list[UnitOutcome]]]:
    work = scratch / f"work-{workers}"
    config = load_config(config_path).with_overrides(out=str(work))
    with Recording(workers) as executor:  # the cluster's start is not timed
        start = time.perf_counter()
        built = build_dataset(config, scratch / f"dataset-{workers}", jobs=workers, executor=executor)
        seconds = time.perf_counter() - start
    if built.stage_failures or built.checks.problems:
        print(f"warning: the {workers}-worker run had problems: {built.stage_failures + built.checks.problems}")
    return seconds, executor.outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=Path("pipeline.yaml"))
    parser.add_argument("--scratch", type=Path, default=None, help="Folder for the runs (default: a temporary one).")
    args = parser.parse_args()
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="acp-bench-scale-"))
    measured = {}
    outcomes: dict[str, list[UnitOutcome]] = {}
    for workers in (1, 2):
        shutil.rmtree(scratch / f"work-{workers}", ignore_errors=True)
        measured[workers], ran = run(args.config, workers, scratch)
        if workers == 1:
            outcomes = ran
    units = {phase: len(found) for phase, found in outcomes.items()}
    print(f"config {args.config}; units of the 1-worker run: {units}")
    domains = sorted(outcomes["domains"], key=lambda o: -o.seconds)
    print("largest domain units: " + ", ".join(f"{o.name} {o.seconds:.1f} s" for o in domains[:3]))
    print()
    print("| workers | simulated makespan (s) | largest unit (s) | speed-up | measured (s) |")
    print("|---:|---:|---:|---:|---:|")
    one = simulate(outcomes, 1)[0]
    for workers in WORKERS:
        span, largest = simulate(outcomes, workers)
        real = f"{measured[workers]:.1f}" if workers in measured else ""
        print(f"| {workers} | {span:.1f} | {largest:.1f} | {one / span:.2f}x | {real} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
