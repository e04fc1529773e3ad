"""`make bench-plan`: the plan tasks per domain and level — optimal costs, exact scoring of perturbed plans, latency.

For every domain (``--domains``, default three small ones; ``--all`` for every configured domain) and
level (``--levels``), `acpgen.generate` makes ``--n`` plan records into a fresh cache folder (with
``--problems`` problems per domain instead of the configured count, to keep the run short). The first
table gives, per domain and level, the records made, the minimum, median and maximum of their proven
optimal costs, the histogram of those costs (cost:records) and the generation rate from scratch.

Then every record is scored as a ``plan`` and as an ``optplan`` record (the same record under the
other task's group: both tasks generate the same fields) with ``acpgen.score``, on its stored plan
(`acpgen.reference_answer`) and on perturbed plans: the near misses of
`acpgen.tasks.plan_verification.near_misses` on the record's grounded task (steps cut off, one step
dropped, neighbours swapped, an object replaced, arguments reversed, the last argument missing), the
plan with one extra step after the goal (an action applicable there, one that keeps the goal where
there is one) and the plan with an unreadable step in its middle. Each score is compared with the
verdict of acp's separate lifted interpreter (`acpgen.proofs.plans.lifted_verdict`: a plan for
``plan``; a plan of the optimal cost for ``optplan``). The second table gives, per perturbation kind,
the mean score under both tasks, the agreement with the lifted interpreter and the failure classes.

Latency per answer, median and 99th percentile in ms of the wall clock and of this process's CPU time
(on a shared machine the CPU time leaves out the time other processes held the core), per task and
level and per domain: warm is ``acpgen.score`` on a record it has scored before (its ground task kept,
as in a training loop); cold is ``acpgen.score`` on a copy of the record whose problem text ends with
a comment of its own, so that the process parses and grounds it afresh (the domain's parse is kept,
as when a dataset is scored), for up to ``--cold`` answers per record and task. The details (failure
class) come from `acpgen.evaluation.scoring.score_one` on one `acpgen.tasks.RecordContext` per
record. A stored plan that does not score 1, or scores that differ between the three ways of scoring,
are listed and make the exit status 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import random
import shutil
import statistics
import sys
import time
import warnings
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from common import chosen_domains, percentile

import acpgen
from acpgen.config import load_config
from acpgen.evaluation.scoring import score_one
from acpgen.generation.levels import LEVELS
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.semantics import execute
from acpgen.proofs.plans import lifted_verdict
from acpgen.tasks import TASKS, RecordContext
from acpgen.tasks.base import lowered
from acpgen.tasks.plan_verification import near_misses

PLAN_TASKS = ("plan", "optplan")
KINDS = (
    "stored",
    "truncated",
    "step_dropped",
    "steps_swapped",
    "object_replaced",
    "arguments_reversed",
    "argument_missing",
    "extra_step",
    "unreadable_step",
)
UNREADABLE = "(do something!)"  # not a PDDL name: the reader keeps it as an unreadable step


Clocked = tuple[float, float]


def clocked(record: dict, text: str) -> tuple[acpgen.Score, Clocked]:
    """``acpgen.score(record, text)`` and its wall-clock and CPU time in ms (the CPU time leaves out the
    time other processes held the core)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = acpgen.score(record, text)
    return result, ((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000)


@dataclass
class Tally:
    """What the scoring of every answer adds up to."""

    scores: defaultdict[tuple[str, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    agree: Counter[tuple[str, str]] = field(default_factory=Counter)  # (task, kind): as the lifted interpreter says
    classes: Counter[tuple[str, str]] = field(default_factory=Counter)  # (kind, failure class)
    # (task, domain, level): (wall ms, CPU ms) of every timed score
    warm: defaultdict[tuple[str, str, int], list[Clocked]] = field(default_factory=lambda: defaultdict(list))
    cold: defaultdict[tuple[str, str, int], list[Clocked]] = field(default_factory=lambda: defaultdict(list))
    problems: list[str] = field(default_factory=list)
    copies: itertools.count = field(default_factory=itertools.count)  # numbers the cold copies of records


# ----- generation ---------------------------------------------------------------------------------------
def generate(domain: str, level: int, args: argparse.Namespace, config) -> tuple[list[dict], float]:
    cache = args.out / domain / f"level{level}"
    shutil.rmtree(cache, ignore_errors=True)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", acpgen.GenerationShortfall)  # a shortfall shows in the count
        made = acpgen.generate(domain, "plan", n=args.n, seed=args.seed, level=level, config=config, cache_dir=cache)
        records = list(made)
    return records, time.perf_counter() - start


def histogram(costs: list[int]) -> str:
    return " ".join(f"{cost}:{count}" for cost, count in sorted(Counter(costs).items()))


def cost_cells(domain: str, level: int, records: list[dict], seconds: float) -> list[str]:
    costs = [int(r["optimal_cost"]) for r in records]
    spread = [str(min(costs)), f"{statistics.median(costs):g}", str(max(costs))] if costs else ["-"] * 3
    return [domain, str(level), str(len(records)), *spread, histogram(costs) or "-", f"{len(records) / seconds:.2f}"]


# ----- answers ------------------------------------------------------------------------------------------
def as_task(record: dict, name: str) -> dict:
    """The record as a record of ``name`` (plan and optplan records have the same fields)."""
    return dict(record, group=TASKS[name].gen_group, task=name)


def extra_step(task: GroundTask, plan: list[str], rng: random.Random) -> list[str] | None:
    """The plan and one more step applicable after it (one that keeps the goal where one does); None if none
    applies, or if the plan does not execute (its own score says so)."""
    run = execute(task, task.init, plan)
    if not run.applicable:
        return None
    state = run.state
    applicable = sorted(task.applicable(state), key=lambda a: a.name)
    keeping = [a for a in applicable if task.is_goal(a.apply(state))]
    pool = keeping or applicable
    return plan + [rng.choice(pool).name] if pool else None


def candidates(task: GroundTask, plan: list[str], rng: random.Random) -> list[tuple[str, list[str]]]:
    """(kind, steps) of the perturbed plans of ``plan``."""
    out = [(kind, steps) for kind, steps in near_misses(task, plan, rng) if kind != "plan"]
    longer = extra_step(task, plan, rng)
    if longer is not None:
        out.append(("extra_step", longer))
    middle = len(plan) // 2
    out.append(("unreadable_step", plan[:middle] + [UNREADABLE] + plan[middle:]))
    return out


def expected(is_plan: bool, length: int, optimal: int, name: str) -> float:
    """The score of a sequence the lifted interpreter judged: 1 for a plan (``optplan``: of the optimal cost)."""
    return float(is_plan and (name == "plan" or length == optimal))


# ----- scoring ------------------------------------------------------------------------------------------
def where(record: dict, name: str) -> str:
    return f"{record['domain']} level {record.get('level')} {record['uid']} (id {record['id']}, {name})"


def unseen(record: dict, count: int) -> dict:
    """The record with a comment of its own after its problem: the same task, but a text this process has
    neither parsed nor grounded (its domain's text is unchanged, so the domain's parse is reused)."""
    return dict(record, PDDL_problem=f"{record['PDDL_problem']}\n; bench-plan cold copy {count}\n")


def score_answer(record: dict, name: str, answer: tuple[str, str, float], ctx: RecordContext, cold: bool, tally: Tally):
    """Score one answer (kind, text, lifted expectation) warm, with details, and cold if asked."""
    kind, text, expect = answer
    key = (name, record["domain"], record.get("level") or 0)
    result, times = clocked(record, text)
    tally.warm[key].append(times)
    verdict = score_one(ctx, name, text)
    scores = {result.score, verdict.score}
    if cold:
        cold_result, times = clocked(unseen(record, next(tally.copies)), text)
        scores.add(cold_result.score)
        tally.cold[key].append(times)
    if len(scores) > 1:
        tally.problems.append(f"{where(record, name)} {kind}: the scoring routes differ {sorted(scores)} on {text!r}")
    if kind == "stored" and result.score != 1.0:
        tally.problems.append(f"{where(record, name)}: stored plan scores {result.score} ({result.reason})")
    tally.scores[(name, kind)].append(result.score)
    tally.agree[(name, kind)] += result.score == expect
    if name == "plan":
        tally.classes[(kind, str(verdict.details.get("failure_class") or "none"))] += 1


def score_record(record: dict, args: argparse.Namespace, tally: Tally) -> None:
    rng = random.Random(f"{args.seed}:{record['uid']}")
    stored = acpgen.reference_answer(record)
    plan = lowered(record["answer"])
    optimal = int(record["optimal_cost"])
    task = RecordContext(record).task
    perturbed = candidates(task, plan, rng)
    verdicts = [lifted_verdict(task.lifted, lowered(steps)) for _, steps in perturbed]  # the same for both tasks
    judged = [(kind, steps, v.executes and v.reaches_goal) for (kind, steps), v in zip(perturbed, verdicts)]
    for name in PLAN_TASKS:
        variant = as_task(record, name)
        acpgen.score(variant, stored)  # warm-up: the ground task is kept from here on
        answers = [("stored", stored, 1.0)] + [
            (kind, "\n".join(steps), expected(is_plan, len(steps), optimal, name)) for kind, steps, is_plan in judged
        ]
        timed_cold = set(rng.sample(range(len(answers)), min(args.cold, len(answers))))
        ctx = RecordContext(variant)
        for index, answer in enumerate(answers):
            score_answer(variant, name, answer, ctx, index in timed_cold, tally)


# ----- tables -------------------------------------------------------------------------------------------
def timing(values: list[Clocked]) -> list[str]:
    """n, then the median and the p99 of the wall-clock and of the CPU times (ms)."""
    if not values:
        return ["0", "-", "-", "-", "-"]
    wall, cpu = [w for w, _ in values], [c for _, c in values]
    cells = [f"{statistics.median(wall):.2f}", f"{statistics.median(cpu):.2f}"]
    return [str(len(values)), *cells, f"{percentile(wall, 0.99):.2f}", f"{percentile(cpu, 0.99):.2f}"]


def pooled(tally: Tally, label: str, pattern: tuple[str | None, str | None, int | None]) -> list[str]:
    """A latency row: ``label`` and the warm and cold timings of the (task, domain, level) keys that
    match ``pattern`` (None matches everything)."""

    def matches(key: tuple[str, str, int]) -> bool:
        return all(want is None or want == part for want, part in zip(pattern, key))

    warm = [v for key, values in tally.warm.items() if matches(key) for v in values]
    cold = [v for key, values in tally.cold.items() if matches(key) for v in values]
    return [label, *timing(warm), *timing(cold)]


def accuracy_rows(tally: Tally) -> list[list[str]]:
    rows = []
    for kind in KINDS:
        answers = len(tally.scores[("plan", kind)])
        if not answers:
            continue
        means = [f"{statistics.mean(tally.scores[(name, kind)]):.3f}" for name in PLAN_TASKS]
        agree = [f"{tally.agree[(name, kind)]}/{answers}" for name in PLAN_TASKS]
        classes = " ".join(f"{c}:{n}" for (k, c), n in sorted(tally.classes.items()) if k == kind)
        rows.append([kind, str(answers), *means, *agree, classes])
    return rows


def latency_rows(tally: Tally) -> list[list[str]]:
    """Per task: a row per level and one for all levels."""
    levels = sorted({level for _, _, level in tally.warm})
    rows = []
    for name in PLAN_TASKS:
        for level in levels:
            rows.append([name, *pooled(tally, str(level), (name, None, level))])
        rows.append([name, *pooled(tally, "all", (name, None, None))])
    return rows


def domain_latency_rows(tally: Tally) -> list[list[str]]:
    """Per domain, both tasks and every level together."""
    domains = sorted({domain for _, domain, _ in tally.warm})
    return [pooled(tally, domain, (None, domain, None)) for domain in domains]


def class_totals(tally: Tally) -> str:
    totals: Counter[str] = Counter()
    for (_, failure_class), count in tally.classes.items():
        totals[failure_class] += count
    return " ".join(f"{c}:{n}" for c, n in sorted(totals.items()))


def show(header: list[str], rows: list[list[str]], widths: list[int]) -> None:
    for row in [header, *rows] if header else rows:
        print(" ".join(f"{cell:<{-w}}" if w < 0 else f"{cell:>{w}}" for cell, w in zip(row, widths)).rstrip())


def markdown(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows]) + "\n"


COST_HEADER = ["domain", "level", "records", "min", "median", "max", "optimal costs (cost:records)", "records/s"]
COST_WIDTHS = [-12, 5, 7, 4, 6, 4, -40, 9]
ACCURACY_HEADER = ["kind", "answers", "plan", "optplan", "plan=lifted", "optplan=lifted", "failure classes"]
TIMES = ["median ms", "CPU ms", "p99 ms", "CPU ms"]
LATENCY_HEADER = ["task", "level", "warm n", *TIMES, "cold n", *TIMES]
DOMAIN_LATENCY_HEADER = ["domain", "warm n", *TIMES, "cold n", *TIMES]


# ----- the run ------------------------------------------------------------------------------------------
def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=None, help="pipeline config (default: pipeline.yaml)")
    parser.add_argument("--domains", default="ferry,grippers,blocksworld", help="comma-separated domains")
    parser.add_argument("--all", action="store_true", help="every domain of the config")
    parser.add_argument("--levels", default="1,2,3", help="comma-separated levels (1-5)")
    parser.add_argument("--n", type=int, default=6, help="plan records per domain and level")
    parser.add_argument("--problems", type=int, default=2, help="problems per domain (instead of the config's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cold", type=int, default=20, help="answers per record and task also timed cold")
    parser.add_argument("--out", type=Path, default=Path("out/bench-plan"), help="cache folders (made afresh)")
    parser.add_argument("--markdown", type=Path, help="also write the three tables as markdown to this file")
    args = parser.parse_args()
    args.levels = [int(v) for v in args.levels.split(",") if v.strip()]
    if not args.levels or set(args.levels) - set(LEVELS):
        parser.error(f"--levels: comma-separated levels out of {', '.join(map(str, LEVELS))}")
    return args


def report(tally: Tally, cost_rows: list[list[str]], markdown_file: Path | None) -> None:
    accuracy, latency, by_domain = accuracy_rows(tally), latency_rows(tally), domain_latency_rows(tally)
    print("\nscores of stored and perturbed plans (mean score; answers whose score the lifted interpreter gives):")
    show(ACCURACY_HEADER, accuracy, [-18, 7, 7, 7, 12, 14, -1])
    print(f"failure classes (plan), all answers: {class_totals(tally)}")
    print("\nlatency per answer, wall clock and CPU time of this process (warm: acpgen.score, ground task kept;")
    print("cold: parsed and grounded afresh):")
    widths = [7, 9, 7, 8, 7] * 2
    show(LATENCY_HEADER, latency, [-7, 5, *widths])
    print()
    show(DOMAIN_LATENCY_HEADER, by_domain, [-12, *widths])
    if markdown_file:
        tables = [
            (COST_HEADER, cost_rows),
            (ACCURACY_HEADER, accuracy),
            (LATENCY_HEADER, latency),
            (DOMAIN_LATENCY_HEADER, by_domain),
        ]
        markdown_file.write_text("\n".join(markdown(header, rows) for header, rows in tables))


def main() -> None:
    args = arguments()
    config = load_config(args.config)
    domains = list(config.domains) if args.all else chosen_domains(config, args.domains)
    config = dataclasses.replace(
        config, domains={d: dataclasses.replace(e, problems=args.problems) for d, e in config.domains.items()}
    )
    tally, cost_rows, spent = Tally(), [], Counter[str]()
    show(COST_HEADER, [], COST_WIDTHS)
    for domain in domains:
        for level in args.levels:
            records, seconds = generate(domain, level, args, config)
            cost_rows.append(cost_cells(domain, level, records, seconds))
            show([], [cost_rows[-1]], COST_WIDTHS)
            sys.stdout.flush()
            start = time.perf_counter()
            for record in records:
                score_record(record, args, tally)
            spent["generation"] += seconds
            spent["scoring"] += time.perf_counter() - start
    report(tally, cost_rows, args.markdown)
    print(f"\n{spent['generation']:.0f} s generating, {spent['scoring']:.0f} s scoring (wall clock)")
    for problem in tally.problems:
        print(f"PROBLEM: {problem}", file=sys.stderr)
    if tally.problems:
        sys.exit(1)


if __name__ == "__main__":
    main()
