"""Profile of `make dataset` stage by stage on a reduced configuration (cProfile, one process).

Usage: python benchmarks/profile_dataset.py [--config pipeline.yaml] [--domains ferry,blocksworld,...]
       [--questions 4] [--out DIR] [--top 25]

Every stage of `acp dataset` runs for the chosen domains (default sizes, ``--questions``
questions per task and format) in this process under cProfile, so that the profile sees all
Python work: the plans stage's thread pool is replaced by a serial executor and the qa stage
runs its (task, format) units one after the other, each with a fresh planner cache as in a
worker process of `acp dataset -j 2`. Stages: problems, plans, states, qa-gen (open-ended
questions), qa-choice (boolean and multiple-choice), export, check (the validate and self-score
of `acp dataset`). For each stage DIR/<stage>.prof is written and the top lines by cumulative and
by own time are printed, with counters read from the profile (groundings, explorations, planner
runs by kind) and, for the qa stage, how busy two workers would be with the measured unit times.
Everything printed also goes to DIR/profile.md.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import io
import pstats
import tempfile
import time
from pathlib import Path

from common import chosen_domains

from acpgen.config import load_config
from acpgen.generation.benchmark import assemble, check_sizes, self_check, write_splits
from acpgen.generation.stages import StageContext, run_stage
from acpgen.generation.stages import plans as plans_stage
from acpgen.generation.stages import qa as qa_stage
from acpgen.planners import Limits
from acpgen.tasks import ScoreOptions, task_formats

DEFAULT_DOMAINS = "ferry,blocksworld,floortile,satellite"

#: (label, file name ending, function name) of the functions whose call counts the report shows.
COUNTERS = (
    ("groundings (GroundTask.from_strings)", "pddl/grounding.py", "from_strings"),
    ("exhaustive explorations", "pddl/explore.py", "explore"),
    ("random-walk evidence", "pddl/explore.py", "random_walks"),
    ("planner queries (cache lookups)", "planners/suite.py", "_lookup"),
    ("planner runs (subprocesses)", "planners/suite.py", "_run"),
    ("  K* (plans, optimal costs)", "planners/suite.py", "_kstar"),
    ("  Fast Downward search", "planners/suite.py", "_fast_downward"),
    ("  Fast Downward landmarks", "planners/suite.py", "landmarks"),
    ("  translator mutex groups", "planners/suite.py", "mutex_groups"),
    ("  diverse planning", "planners/suite.py", "diverse"),
    ("subprocess waits", "planners/run.py", "run_tool"),
)


class Recorder:
    """Wall-clock seconds of the work units (plans per problem, qa per task and format)."""

    def __init__(self):
        self.plans: list[tuple[str, str, float]] = []
        self.qa: list[tuple[str, str, str, float, int]] = []

    def install(self) -> None:
        plan_problem, generate = plans_stage.plan_problem, qa_stage._generate

        def timed_plan(ctx, problem):
            start = time.perf_counter()
            record = plan_problem(ctx, problem)
            self.plans.append((ctx.domain, problem.stem, time.perf_counter() - start))
            return record

        def timed_generate(ctx, task, fmt, spread=1):
            start = time.perf_counter()
            # A fresh planner cache per unit, as in a worker process of `acp dataset -j 2`.
            result = generate(dataclasses.replace(ctx, planners=None), task, fmt, spread)
            self.qa.append((ctx.domain, task, fmt, time.perf_counter() - start, len(result[0])))
            return result

        plans_stage.plan_problem = timed_plan
        qa_stage._generate = timed_generate


def schedule(durations: list[float], workers: int) -> float:
    """Makespan of units handed in order to the first free worker (what ``pool.map`` does)."""
    free = [0.0] * workers
    for seconds in durations:
        k = free.index(min(free))
        free[k] += seconds
    return max(free) if free else 0.0


def counters(stats: pstats.Stats) -> list[tuple[str, int, float]]:
    """(label, calls, cumulative seconds) of the functions of COUNTERS found in the profile."""
    rows = []
    for label, ending, name in COUNTERS:
        calls, seconds = 0, 0.0
        for (filename, _, funcname), (_, ncalls, _, cumtime, _) in stats.stats.items():
            if funcname == name and filename.endswith(ending):
                calls += ncalls
                seconds += cumtime
        rows.append((label, calls, seconds))
    return rows


def top_lines(stats: pstats.Stats, key: str, count: int) -> str:
    buffer = io.StringIO()
    stats.stream = buffer
    stats.sort_stats(key).print_stats(count)
    lines = buffer.getvalue().splitlines()
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls")), 0)
    return "\n".join(lines[start:])


class Report:
    def __init__(self, path: Path):
        self.path = path
        self.parts: list[str] = []

    def __call__(self, text: str = "") -> None:
        print(text, flush=True)
        self.parts.append(text)
        self.path.write_text("\n".join(self.parts) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=None)
    parser.add_argument("--domains", default=DEFAULT_DOMAINS, help=f"comma-separated (default {DEFAULT_DOMAINS})")
    parser.add_argument("--questions", type=int, default=4, help="questions per task and format (default 4)")
    parser.add_argument("--out", type=Path, default=None, help="folder of the profiles (default: a new temp folder)")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()

    base = load_config(args.config)
    names = chosen_domains(base, args.domains)
    out = args.out or Path(tempfile.mkdtemp(prefix="acp-profile-"))
    out.mkdir(parents=True, exist_ok=True)
    config = dataclasses.replace(
        base,
        out=str(out / "work"),
        qa=dataclasses.replace(base.qa, questions_per_task=args.questions),
        dataset=dataclasses.replace(base.dataset, test_per_domain=args.questions - 1, dev_per_task=len(names)),
        domains={d: base.domains[d] for d in names},
    )
    check_sizes(config, names)
    report = Report(out / "profile.md")
    recorder = Recorder()
    recorder.install()
    setup = config.planner.setup(config.out)
    planners = setup.build()
    contexts = [StageContext(d, config, Path(config.out), planners, jobs=1, progress=False) for d in names]
    gen_only = dataclasses.replace(config, qa=dataclasses.replace(config.qa, formats=("gen",)))
    gen_contexts = [dataclasses.replace(c, config=gen_only) for c in contexts]

    def check() -> None:
        assembly = assemble(config, names)
        files = write_splits(assembly, out / "dataset")
        options = ScoreOptions(
            max_states=config.qa.max_states,
            limits=Limits(time=config.qa.planner_time_limit, memory_mb=config.planner.memory_mb),
        )
        checks = self_check(files, setup, options, 1, False)
        report(f"check: {checks.records} records, validate {checks.validate}, {checks.answers_scored_1} score 1")

    stages = {
        "problems": lambda: [run_stage("problems", c) for c in contexts],
        "plans": lambda: [run_stage("plans", c) for c in contexts],
        "states": lambda: [run_stage("states", c) for c in contexts],
        "qa-gen": lambda: [run_stage("qa", c) for c in gen_contexts],
        "qa-choice": lambda: [run_stage("qa", c) for c in contexts],
        "export": lambda: [run_stage("export", c) for c in contexts],
        "check": check,
    }
    report(f"# Profile of `acp dataset` on {', '.join(names)} ({args.questions} questions per task and format)")
    report(f"\nartefacts and profiles in {out}")
    seconds = {}
    for name, run in stages.items():
        profile = cProfile.Profile()
        start = time.perf_counter()
        profile.enable()
        results = run()
        profile.disable()
        seconds[name] = time.perf_counter() - start
        profile.dump_stats(str(out / f"{name}.prof"))
        for stage_report in results or []:
            report(stage_report.summary())
            for failure in stage_report.failed:
                report(f"  failed: {failure}")
        stats = pstats.Stats(profile)
        report(f"\n## {name}: {seconds[name]:.1f} s wall (under the profiler)\n")
        report("| counter | calls | cumulative s |\n|---|---:|---:|")
        for label, calls, cum in counters(stats):
            report(f"| {label} | {calls} | {cum:.1f} |")
        for key in ("cumulative", "tottime"):
            report(f"\ntop {args.top} by {key}:\n```\n{top_lines(stats, key, args.top)}\n```")
    report("\n## stage times\n\n| stage | s |\n|---|---:|")
    for name, value in seconds.items():
        report(f"| {name} | {value:.1f} |")
    report_units(report, recorder)


def report_units(report: Report, recorder: Recorder) -> None:
    """Per-unit times, and the idle share of two workers per domain (the stages run domain by domain)."""
    report("\n## plans per problem\n\n| domain | problem | s |\n|---|---|---:|")
    for domain, problem, seconds in recorder.plans:
        report(f"| {domain} | {problem} | {seconds:.1f} |")
    report("\n## qa units (task, format), in the order a pool of 2 workers receives them\n")
    report("| domain | task | format | s | records |\n|---|---|---|---:|---:|")
    for domain, task, fmt, seconds, records in recorder.qa:
        report(f"| {domain} | {task} | {fmt} | {seconds:.1f} | {records} |")
    report("\n## two workers on the qa units (all formats at once per domain, as `acp dataset -j 2`)\n")
    report("| domain | work s | makespan s | idle share | longest unit s | ideal (work/2) s |")
    report("|---|---:|---:|---:|---:|---:|")
    total_work = total_span = 0.0
    order = {unit: k for k, unit in enumerate(task_formats())}
    for domain in dict.fromkeys(d for d, *_ in recorder.qa):
        units = sorted((order[(t, f)], s) for d, t, f, s, _ in recorder.qa if d == domain)
        durations = [s for _, s in units]
        span, work = schedule(durations, 2), sum(durations)
        total_work, total_span = total_work + work, total_span + span
        report(
            f"| {domain} | {work:.1f} | {span:.1f} | {1 - work / (2 * span):.0%} | {max(durations):.1f} "
            f"| {work / 2:.1f} |"
        )
    if total_span:
        report(f"| all | {total_work:.1f} | {total_span:.1f} | {1 - total_work / (2 * total_span):.0%} | | |")


if __name__ == "__main__":
    main()
