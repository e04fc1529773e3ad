"""`make bench-gen`: streaming generation rate per level, domain and task, and a training split's rate and memory.

Table mode (default): for every level (``--levels``), domain (``--domains``) and task (``--tasks``),
`acpgen.generate` makes ``--n`` open-ended records from scratch (a fresh cache folder: problems, plans,
states, questions proven twice, English records; ``--jobs`` processes), and the table gives records per
second (wall clock, everything included) with the level's overall rate on the last line of each
level. With ``--questions-only`` a cell's time is that of the questions alone: a first, untimed call with
n=1 makes the cell's problems, plans and states, and the timed call resumes from them.

The package is imported before the first cell (``acpgen.generate`` imports the API on first use: 0.3-0.5 s once
per process, not a cost per record); everything else a cell needs is timed, the translator's server started
by its first translation included.

Unsolvable mode (``--unsolvable``): per level and domain, the plan tasks (plan, optplan, pver) from scratch with
``qa.unsolvable_share`` 0 (the solvable records' rate), then with share 1 resuming in the same cache folder (the
extra time is the unsolvable problems, their proofs, states and records: their rate); issue 61's target is the
second at least the first.

Split mode (``--split N``): records of every task, the domains and levels 1-3 in turn, streamed to one
JSONL file (``--out``/split.jsonl, written as they come, never held in memory) until N records are
written (the tasks of a level and domain share one cache folder, as one `acp generate --tasks all` run
would: the problems, plans and states are made once for them); prints the rate every ``--every`` records
and, at the end, the rate and the peak resident memory of this process and of its worker processes.

With ``--reasoning-core-python PY`` the table mode also times Reasoning Core's planning generator after each level
(``reasoning_core_side.py``: its own venv, one process) and prints acp's rate over its rate.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import resource
import shutil
import time
import warnings
from pathlib import Path

import reasoning_core_side
from common import chosen_domains

import acpgen
import acpgen.api  # imported here, once per process: not in the first cell's time
from acpgen.config import load_config
from acpgen.tasks import TASKS


def generate(
    domain: str, task: str, n: int, level: int, seed: int, jobs: int, cache: Path, config, fresh: bool = True
) -> list[dict]:
    if fresh:
        shutil.rmtree(cache, ignore_errors=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a shortfall shows in the count
        made = acpgen.generate(domain, task, n=n, seed=seed, level=level, config=config, cache_dir=cache, jobs=jobs)
        return list(made)


def table(args, config, domains: list[str], tasks: list[str]) -> None:
    what = "once the problems, plans and states exist" if args.questions_only else "from scratch"
    print(f"records per second {what} (n={args.n} per cell, {args.jobs} processes); cells: records/s (records)")
    print(f"{'level':>5} {'domain':12} " + " ".join(f"{t:>11}" for t in tasks))
    for level in args.levels:
        made, spent = 0, 0.0
        for domain in domains:
            cells = []
            for task in tasks:
                if args.questions_only:  # the problems, plans and states first, untimed (their stages resume)
                    generate(domain, task, 1, level, args.seed, args.jobs, args.cache, config)
                start = time.perf_counter()
                records = generate(
                    domain, task, args.n, level, args.seed, args.jobs, args.cache, config, fresh=not args.questions_only
                )
                seconds = time.perf_counter() - start
                made, spent = made + len(records), spent + seconds
                cells.append(f"{len(records) / seconds:6.1f} ({len(records):2})")
            print(f"{level:>5} {domain:12} " + " ".join(f"{c:>11}" for c in cells), flush=True)
        print(f"{level:>5} {'all':12} {made / spent:.1f} records/s ({made} records in {spent:.0f} s)", flush=True)
        if args.reasoning_core_python:
            peer = reasoning_core_side.rate(args.reasoning_core_python, level)
            print(
                f"{level:>5} {'peer':12} Reasoning Core's planning generator at its level {level}: {peer:.1f} items/s "
                f"(one process); acp / Reasoning Core = {made / spent / peer:.3f}",
                flush=True,
            )


def unsolvable(args, config, domains: list[str]) -> None:
    print(f"records per second of the plan tasks from scratch (n={args.n} per task, {args.jobs} processes)")
    print(f"{'level':>5} {'domain':12} {'solvable':>16} {'unsolvable':>16} {'ratio':>6}")
    for level in args.levels:
        for domain in domains:
            rates = []
            for share in (0.0, 1.0):
                shared = config.with_overrides(qa=dataclasses.replace(config.qa, unsolvable_share=share))
                start, records = time.perf_counter(), []
                for task in ("plan", "optplan", "pver"):
                    records += generate(domain, task, args.n, level, args.seed, args.jobs, args.cache, shared, False)
                made = sum(r.get("solvable", True) is (share == 0.0) for r in records)
                rates.append((made / (time.perf_counter() - start), made))
            shutil.rmtree(args.cache, ignore_errors=True)
            (solvable, n_solvable), (impossible, n_impossible) = rates
            print(
                f"{level:>5} {domain:12} {solvable:9.2f} ({n_solvable:3}) {impossible:9.2f} ({n_impossible:3}) "
                f"{impossible / solvable if solvable else float('nan'):6.2f}",
                flush=True,
            )


def peak_mb() -> tuple[float, float]:
    """Peak resident memory of this process and of its largest finished child process (MB)."""
    return (
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    )


def split(args, config, domains: list[str], tasks: list[str]) -> None:
    args.out.mkdir(parents=True, exist_ok=True)
    target = args.out / "split.jsonl"
    written, start = 0, time.perf_counter()
    seeds = itertools.count(args.seed)
    with target.open("w") as out:
        while written < args.split:
            seed = next(seeds)
            for level, domain, task in itertools.product((1, 2, 3), domains, tasks):
                # the tasks of one level and domain share the problems, plans and states (as `acp generate
                # --tasks all` does): the first task's call makes them, the others' resume from them
                first = task == tasks[0]
                for record in generate(domain, task, args.n, level, seed, args.jobs, args.cache, config, fresh=first):
                    out.write(json.dumps(record) + "\n")
                    written += 1
                    if written % args.every == 0:
                        rate = written / (time.perf_counter() - start)
                        memory = peak_mb()[0]
                        print(f"{written:>8} records, {rate:.1f} records/s, peak memory {memory:.0f} MB", flush=True)
                    if written >= args.split:
                        break
                if written >= args.split:
                    break
    seconds = time.perf_counter() - start
    own, child = peak_mb()
    print(
        f"{written} records in {seconds:.0f} s: {written / seconds:.1f} records/s; peak memory {own:.0f} MB "
        f"(largest worker {child:.0f} MB); {target} {target.stat().st_size / 1e6:.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=None, help="pipeline config (default: pipeline.yaml)")
    parser.add_argument("--domains", default="ferry,grippers,blocksworld", help="comma-separated domains")
    parser.add_argument("--tasks", default="app,reach,nexta,rac_state,t2p", help="comma-separated tasks, or all")
    parser.add_argument("--levels", default="1,2", help="comma-separated levels (table mode)")
    parser.add_argument("--n", type=int, default=20, help="records per level, domain and task")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--questions-only",
        action="store_true",
        help="table mode: time only the questions (a first call with n=1 makes the problems, plans and states)",
    )
    parser.add_argument(
        "--unsolvable",
        action="store_true",
        help="records/s of the plan tasks' unsolvable records against solvable ones",
    )
    parser.add_argument(
        "--reasoning-core-python",
        default="",
        help="table mode: also time Reasoning Core's planning generator at each level, with this interpreter "
        "(a venv where `pip install reasoning-core` was run; see reasoning_core_side.py)",
    )
    parser.add_argument("--split", type=int, default=0, help="build a training split of this many records")
    parser.add_argument("--every", type=int, default=1000, help="split mode: report the rate every so many records")
    parser.add_argument("--out", type=Path, default=Path("out/bench-gen"), help="split mode: output folder")
    parser.add_argument("--cache", type=Path, default=Path("out/bench-gen/cache"), help="generation cache folder")
    args = parser.parse_args()
    args.levels = [int(x) for x in args.levels.split(",")]
    config = load_config(args.config)
    domains = chosen_domains(config, args.domains)
    tasks = list(TASKS) if args.tasks == "all" else [t.strip() for t in args.tasks.split(",")]
    if args.reasoning_core_python:
        reasoning_core_side.check(args.reasoning_core_python)
    if args.unsolvable:
        shutil.rmtree(args.cache, ignore_errors=True)
        unsolvable(args, config, domains)
    else:
        (split if args.split else table)(args, config, domains, tasks)


if __name__ == "__main__":
    main()
