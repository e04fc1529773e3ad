"""Benchmark of how generation cost grows with problem size, per domain.

Usage: python benchmarks/bench_scaling.py [--config pipeline.yaml] [--domains ferry,blocksworld,visitall]
       [--questions 1] [--formats gen] [--budget 60] [--max-states 100000]

For every configured size of a domain, the dataset's own problem of that size (problem i of the
config uses size i) is written into a temporary folder and the stages plans, states and qa run
on it alone, through the library's stage functions (one process, no parallel workers), with
``--questions`` questions per task and format. Reported per size: seconds for the plans stage
(one problem), seconds per question of the qa stage, the number of reachable states (exhaustive
breadth-first exploration from the initial state up to ``--max-states``; "> N" when the bound is
hit) and the peak resident memory of the measuring process and of its largest child (a planner).
Each size runs in its own process with a budget of ``--budget`` seconds; a size that does not
finish in time is reported as "timeout at N s" with what it finished before, never dropped.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import multiprocessing
import os
import queue as queues
import resource
import signal
import tempfile
import time
from pathlib import Path

from common import chosen_domains

from acpgen.artefacts import atomic_write_text
from acpgen.config import check_formats, load_config
from acpgen.generation.stages import STAGES, StageContext
from acpgen.generation.stages.problems import make_problem, problem_name
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask

DEFAULT_DOMAINS = "ferry,blocksworld,visitall"


def size_text(size: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in size.items())


def measure(config, domain: str, index: int, max_states: int, queue) -> None:
    """Runs in a child process: the stages on problem ``index``; each result is put on ``queue`` at once."""
    with tempfile.TemporaryDirectory(prefix="acp-scaling-") as out:
        planners = config.planner.setup().build()
        ctx = StageContext(domain, dataclasses.replace(config, out=out), Path(out), planners, progress=False)
        start = time.perf_counter()
        text = make_problem(ctx, index)
        atomic_write_text(ctx.problems_dir / f"{problem_name(index)}.pddl", text)
        queue.put(("problem", time.perf_counter() - start))
        task = GroundTask.from_strings(ctx.domain_text, text, f"{domain} problem {index}")
        queue.put(("size", (len(task.fluent_atoms()), len(task.actions))))
        for stage in ("plans", "states", "qa"):
            start = time.perf_counter()
            report = STAGES[stage](ctx)
            queue.put((stage, (time.perf_counter() - start, report.items, len(report.failed))))
            queue.put(("memory", peak_memory_mb()))
            if stage == "plans" and not report.done:
                queue.put(("note", "no plan: " + "; ".join(report.failed)[:80]))
                break
        start = time.perf_counter()
        space = explore(task, task.init, max_states)
        states = f"{len(space.states)}" if space.complete else f"> {max_states}"
        queue.put(("explore", (states, time.perf_counter() - start)))
    queue.put(("memory", peak_memory_mb()))
    queue.put(("done", None))


def peak_memory_mb() -> tuple[float, float]:
    """Peak resident memory (MB) of this process and of its largest finished child."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def run_size(config, domain: str, index: int, budget: float, max_states: int) -> dict:
    """Results of one size, from a child process stopped after ``budget`` seconds."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=measure, args=(config, domain, index, max_states, queue), daemon=False)
    start = time.perf_counter()
    child.start()
    results: dict = {}
    while True:
        left = budget - (time.perf_counter() - start)
        try:
            kind, value = queue.get(timeout=max(0.1, left))
        except queues.Empty:
            if left <= 0 or not child.is_alive():
                break
            continue
        if kind == "done":
            break
        results[kind] = value
    if child.is_alive():
        results["timeout"] = budget
        kill_tree(child.pid)
    child.join()
    results["wall"] = time.perf_counter() - start
    return results


def kill_tree(pid: int) -> None:
    """Stop the measuring child and the planners it started (paused first, so it starts no new one)."""
    os.kill(pid, signal.SIGSTOP)
    for target in _descendants(pid) + [pid]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(target, signal.SIGKILL)


def _descendants(pid: int) -> list[int]:
    """Process ids below ``pid`` (children of every thread), read from /proc."""
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        kids = []
        for children in Path(f"/proc/{parent}/task").glob("*/children"):
            try:
                kids += [int(x) for x in children.read_text().split()]
            except OSError:
                continue
        found.extend(kids)
        frontier.extend(kids)
    return found


def row(domain: str, size: dict, result: dict) -> str:
    atoms, actions = result.get("size", ("?", "?"))
    plans = result.get("plans")
    qa = result.get("qa")
    explored = result.get("explore")
    timeout = f"timeout at {result['timeout']:.0f} s" if "timeout" in result else ""
    plan_cell = f"{plans[0]:.1f} ({plans[1]} plans)" if plans else (timeout or result.get("note", "-"))
    if qa:
        questions = qa[1]
        qa_cell = f"{qa[0] / questions:.1f} ({questions} q)" if questions else f"0 q in {qa[0]:.0f} s"
    else:
        qa_cell = timeout if plans else "-"
    states_cell = explored[0] if explored else (timeout if qa else "-")
    own, child = result.get("memory", (0.0, 0.0))
    note = result.get("note", "")
    return (
        f"| {domain} | {size_text(size)} | {atoms} / {actions} | {plan_cell} | {qa_cell} | {states_cell} "
        f"| {own:.0f} / {child:.0f} | {result['wall']:.0f} | {note} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=None)
    parser.add_argument("--domains", default=DEFAULT_DOMAINS, help=f"comma-separated (default {DEFAULT_DOMAINS})")
    parser.add_argument("--questions", type=int, default=1, help="questions per task and format (default 1)")
    parser.add_argument("--formats", default="gen", help="question formats (default gen)")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds per size (default 60)")
    parser.add_argument("--max-states", type=int, default=100_000, help="exploration bound (default 100000)")
    args = parser.parse_args()
    base = load_config(args.config)
    names = chosen_domains(base, args.domains)
    config = dataclasses.replace(
        base, qa=dataclasses.replace(base.qa, questions_per_task=args.questions, formats=check_formats(args.formats))
    )
    print(
        f"plans: s for the one problem of the size; qa: s per question ({args.questions} per task, formats "
        f"{args.formats}); budget {args.budget:.0f} s per size\n"
    )
    print(
        "| domain | size | atoms / actions | plans s | qa s/question | reachable states | peak MB self / child "
        "| wall s | note |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for domain in names:
        for position, size in enumerate(base.domains[domain].sizes):
            result = run_size(config, domain, position + 1, args.budget, args.max_states)
            print(row(domain, size, result), flush=True)


if __name__ == "__main__":
    main()
