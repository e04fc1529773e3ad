"""`make bench-scale`: how `acp dataset` would scale over more workers.

Runs `acp dataset` (library call, fresh work and dataset folders each time) on 1 and on 2 workers
-- a Dask LocalCluster (``--executor dask``, the default) or the local process pool (``--executor
local``, what `make dataset` uses) -- timing the whole run and recording the time of every unit
(generation: a problem or a file of one stage of one domain; self-check: a shard of records,
validation then scoring) into ``SCRATCH/units-<workers>.json``. The unit times of the 1-worker run
(or of the 2-worker run with ``--workers 2``, when the 1-worker run of a large config is too long
to make) feed a list-scheduling simulation of the makespan on 1, 2, 8, 32 and 128 workers: units
are handed out in the run's order, each to the worker that is free first. ``--simulate FILE``
prints the table from a units file without running anything.

Assumptions of the simulation: a unit costs on W workers what it cost in the recorded run (no
contention for cores, disk or the planner cache; no planner result reused across units); the
stages run one after the other (a stage needs the previous stage's files of its domain), as do
the two check phases; a check-phase record costs its shard's time divided by the shard's
records, and the check phase is re-sharded for W workers as acp does (about four shards per
worker); the client's own work (preparing stages, writing files, splitting, the manifest) and
the executor's overhead are left out, so the simulated times are lower bounds.
"""

from __future__ import annotations

import argparse
import heapq
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from acpgen.config import load_config
from acpgen.data import DEFAULT_CONFIG
from acpgen.executors import DaskExecutor, Executor, UnitOutcome, shard_size
from acpgen.generation.benchmark import build_dataset
from acpgen.generation.stages import STAGES

WORKERS = (1, 2, 8, 32, 128)


class Recording:
    """Keeps every outcome of an executor's map calls, by the description of the call (a stage name,
    "validating" or "scoring")."""

    def __init__(self, executor: Executor):
        self.executor = executor
        self.outcomes: dict[str, list[UnitOutcome]] = {}
        original = executor.map

        def map(fn, units, names, *, desc="units", progress=True):
            kept = self.outcomes.setdefault(desc, [])
            for outcome in original(fn, units, names, desc=desc, progress=progress):
                kept.append(outcome)
                yield outcome

        executor.map = map  # type: ignore[method-assign]


def makespan(costs: list[float], workers: int) -> float:
    """List scheduling: each unit, in order, to the worker that is free first."""
    free = [0.0] * workers
    for cost in costs:
        heapq.heappush(free, heapq.heappop(free) + cost)
    return max(free)


def record_costs(outcomes: list[dict]) -> list[float]:
    """Per-record cost of a check phase: each shard's time spread evenly over its records."""
    costs: list[float] = []
    for outcome in outcomes:
        first, last = (int(x) for x in outcome["name"].removeprefix("records ").split("-"))
        count = last - first + 1
        costs += [outcome["seconds"] / count] * count
    return costs


def simulate(units: dict[str, list[dict]], workers: int) -> tuple[float, float]:
    """(simulated makespan, largest unit) on ``workers`` workers, from recorded unit times."""
    total = largest = 0.0
    for stage in STAGES:
        costs = [o["seconds"] for o in units.get(stage, [])]
        if costs:
            total += makespan(costs, workers)
            largest = max(largest, *costs)
    for phase in ("validating", "scoring"):
        records = record_costs(units.get(phase, []))
        size = shard_size(len(records), workers)
        shards = [sum(records[i : i + size]) for i in range(0, len(records), size)]
        if shards:
            total += makespan(shards, workers)
            largest = max(largest, *shards)
    return total, largest


def run(config_path: Path, workers: int, scratch: Path, kind: str) -> tuple[float, dict[str, list[dict]]]:
    """One `acp dataset` from scratch on ``workers`` workers: its seconds and its units' times."""
    work = scratch / f"work-{workers}"
    shutil.rmtree(work, ignore_errors=True)
    config = load_config(config_path).with_overrides(out=str(work))
    with DaskExecutor(workers) if kind == "dask" else Executor(workers) as executor:  # a cluster's start: not timed
        recording = Recording(executor)
        start = time.perf_counter()
        built = build_dataset(config, scratch / f"dataset-{workers}", jobs=workers, executor=executor, progress=True)
        seconds = time.perf_counter() - start
    if built.stage_failures or built.checks.problems:
        print(f"warning: the {workers}-worker run had problems: {built.stage_failures + built.checks.problems}")
    units = {
        phase: [{"name": o.name, "seconds": o.seconds, "worker": o.worker, "ok": o.ok} for o in found]
        for phase, found in recording.outcomes.items()
    }
    record = {
        "config": str(config_path),
        "executor": kind,
        "workers": workers,
        "seconds": seconds,
        "records": built.checks.records,
        "stage_seconds": built.seconds,
        "units": units,
    }
    (scratch / f"units-{workers}.json").write_text(json.dumps(record, indent=1) + "\n")
    stages = ", ".join(f"{name} {value:.1f} s" for name, value in built.seconds.items())
    print(f"{workers} worker(s), {kind}: {seconds:.1f} s, {built.checks.records} records ({stages})")
    return seconds, units


def table(units: dict[str, list[dict]], measured: dict[int, float], source: str) -> None:
    counts = {phase: len(found) for phase, found in units.items()}
    print(f"unit times from {source}; units: {counts}")
    every = sorted((o for found in units.values() for o in found), key=lambda o: -o["seconds"])
    print("largest units: " + ", ".join(f"{o['name']} {o['seconds']:.1f} s" for o in every[:5]))
    print()
    print("| workers | simulated makespan (s) | largest unit (s) | speed-up | measured (s) |")
    print("|---:|---:|---:|---:|---:|")
    one = simulate(units, 1)[0]
    for workers in WORKERS:
        span, largest = simulate(units, workers)
        real = f"{measured[workers]:.1f}" if workers in measured else ""
        print(f"| {workers} | {span:.1f} | {largest:.1f} | {one / span:.2f}x | {real} |")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG)
    parser.add_argument("--scratch", type=Path, default=None, help="Folder for the runs (default: a temporary one).")
    parser.add_argument("--executor", choices=("dask", "local"), default="dask")
    parser.add_argument("--workers", default="1,2", help="Worker counts to run, comma-separated (default: 1,2).")
    parser.add_argument("--simulate", type=Path, default=None, help="Only print the table of a units-<W>.json file.")
    args = parser.parse_args()
    if args.simulate:
        recorded = json.loads(args.simulate.read_text())
        table(recorded["units"], {recorded["workers"]: recorded["seconds"]}, str(args.simulate))
        return
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="acp-bench-scale-"))
    scratch.mkdir(parents=True, exist_ok=True)
    measured: dict[int, float] = {}
    units: dict[int, dict[str, list[dict]]] = {}
    for workers in (int(w) for w in args.workers.split(",")):
        measured[workers], units[workers] = run(args.config, workers, scratch, args.executor)
    base = min(units)
    table(units[base], measured, f"the {base}-worker run ({args.executor})")


if __name__ == "__main__":
    main()
