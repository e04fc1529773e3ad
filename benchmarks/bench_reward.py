"""`make bench-reward`: latency of `acpgen.score` per task on warm records, one process.

Records: the kinds of a records file or folder (``--dataset``, e.g. a `make dataset` output or the
reference dev records), or by default records made with `acpgen.generate` from a small configuration
(``--config``, ``--domains``, ``--per-task`` records per task and domain; cached in ``--cache``).
Each record is scored once before timing (warm: the planners exist, the process has imported
everything); then ``--repeat`` rounds score, for every record, its stored answer as a model writes
it (`acpgen.reference_answer`) and a wrong answer, and the median and 99th percentile of the
per-call latency are printed per task and format, with the share of calls at most 5 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from common import percentile

import acpgen
from acpgen.evaluation.records import record_task

TARGET_MS = 5.0
WRONG = {"gen": "(no-such-action x)", "bool": "**Final Answer**: Maybe.", "mcq": "**Final Answer**: E."}


def generated(config: str, domains: list[str], per_task: int, cache: Path, formats: list[str]) -> list[dict]:
    from acpgen.tasks import task_formats

    records = []
    for task, fmt in task_formats(formats):
        for domain in domains:
            records += acpgen.generate(domain, task, n=per_task, format=fmt, config=config, cache_dir=cache)
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, help="records file or folder to time (instead of generating)")
    parser.add_argument("--config", default="tests/fixtures/pipeline/ci.yaml", help="pipeline config to generate from")
    parser.add_argument("--domains", default="ferry,grippers", help="domains to generate (comma-separated)")
    parser.add_argument("--formats", default="gen,bool,mcq")
    parser.add_argument("--per-task", type=int, default=3, help="generated records per task, format and domain")
    parser.add_argument("--cache", type=Path, default=Path("out/bench-reward"), help="generation cache folder")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds over the records")
    args = parser.parse_args()
    if args.dataset:
        records = acpgen.load(args.dataset)
    else:
        domains = [d.strip() for d in args.domains.split(",") if d.strip()]
        records = generated(args.config, domains, args.per_task, args.cache, args.formats.split(","))
    answers = [
        (r, acpgen.reference_answer(r), WRONG[(record_task(r) or "").partition(".")[2] or "gen"]) for r in records
    ]
    for record, right, _ in answers:  # warm-up
        acpgen.score(record, right)
    times: dict[str, list[float]] = defaultdict(list)
    scores: dict[str, list[float]] = defaultdict(list)
    for _ in range(args.repeat):
        for record, right, wrong in answers:
            kind = record_task(record) or "?"
            for response in (right, wrong):
                start = time.perf_counter()
                result = acpgen.score(record, response)
                times[kind].append((time.perf_counter() - start) * 1000)
                scores[kind].append(result.score if response is right else 1 - result.score)
    print(f"{'kind':16} {'records':>7} {'calls':>6} {'median ms':>10} {'p99 ms':>8} {'<=5 ms':>7} {'as expected':>11}")
    worst = 0.0
    for kind in sorted(times):
        values = times[kind]
        median, p99 = statistics.median(values), percentile(values, 0.99)
        worst = max(worst, median)
        share = sum(v <= TARGET_MS for v in values) / len(values)
        expected = sum(scores[kind]) / len(scores[kind])
        records_n = len(values) // (2 * args.repeat)
        print(f"{kind:16} {records_n:7d} {len(values):6d} {median:10.2f} {p99:8.2f} {share:7.0%} {expected:11.0%}")
    print(f"largest median: {worst:.2f} ms (target {TARGET_MS} ms)", file=sys.stderr)


if __name__ == "__main__":
    main()
