"""`make bench-batch`: answers per second of `acpgen.score_many` on one process and on two, on batches as a trainer
scores them.

Records: `acpgen.generate` at ``--level`` (default 2) for ``--domains`` x every task x the formats gen, bool and
mcq (``--per-task`` records each, saved in ``--cache`` and read from there by later runs with the same settings),
and the reference dev records of nexta (tests/fixtures/acpbench-dev), whose answers acp re-proves: an action
that is not stored needs an optimal planner call. Answers: a batch of ``--batch`` answers (1,024) is
``--batch / --group`` records (128) that ``--group`` answers each (8, as GRPO's completions of a prompt): the
stored answer as a model writes it, the correct answer in the styles models write (benchmarks/prose_styles.py:
``revised``, ``restated``, ``markdown_steps``, ``sentences``, ``final_marker``), and a wrong twin (the first of
prose_styles.py's candidates) in three of them; a nexta dev record answers its stored action and the other
actions applicable in its state (``--planner-records`` such records per batch). Every answer comes after
reasoning, as a model's does: sentences about the record's state with a model's connectives, ``--reasoning``
characters at the median (4,000, about a thousand tokens; log-normal).

A first batch readies the scorer as a trainer's first steps do (each process's one-time costs: imports on
first use, the domains' templates, parsing each PDDL domain, the planners' warm translator; it holds records of
every dev domain in several states, and eight nexta dev records); it is printed, not counted. Then each of
``--steps`` batches has records the scorer has not seen (a trainer's next step), and the first of them is
scored again (``warm``: the records seen).

Each number of processes (``--workers``, default 1 and 2; 1 scores in the process, N >= 2 on N workers) runs in
a fresh Python process, in alternating ``--rounds``: nothing is cached from one run to the next. The pool is
started, and each worker has imported acp, before the clock starts (its start is printed apart: a trainer
starts it once). Printed: answers/s per batch; per number of processes, the rate on new records (all their
answers over the time of all their batches) and the warm rate, medians over the rounds, and their ratio to one
process; whether every run gave the same scores (score, status, reason) in order.
``--shares``: also the batches split in fixed shares (by a hash of the record's PDDL) between independent
processes that know nothing of each other, run at once and one after the other: what the machine gives two
processes on this work with no pool at all.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import statistics
import subprocess
import sys
import time
import warnings
import zlib
from pathlib import Path

from prose_styles import STYLES, Words, bare, correct_answers, twin_candidates

import acpgen
from acpgen.evaluation.records import record_task
from acpgen.tasks import task_formats

DEV = Path("tests/fixtures/acpbench-dev")
#: nexta dev records in the first batch (their planner calls start each worker's warm translator)
READYING = 8
CONNECTIVES = ("Let me check:", "So", "Note that", "Hmm,", "Next,", "Wait,", "Then", "Recall that", "Also,", "Now")
CORRECT_STYLES = ("revised", "restated", "markdown_steps", "sentences", "final_marker", "pddl_lines")
WRONG_STYLES = ("bare", "restated", "sentences", "final_marker", "revised")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", default="ferry,grippers,blocksworld")
    parser.add_argument("--level", type=int, default=2)
    parser.add_argument("--per-task", type=int, default=5, help="records per domain, task and format")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=1024, help="answers per batch")
    parser.add_argument("--group", type=int, default=8, help="answers per record in a batch")
    parser.add_argument("--steps", type=int, default=4, help="batches of records not seen before")
    parser.add_argument("--planner-records", type=int, default=2, help="nexta dev records per batch")
    parser.add_argument("--reasoning", type=int, default=4000, help="median characters of reasoning before an answer")
    parser.add_argument("--workers", default="1,2", help="numbers of processes to compare (comma-separated)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each number of processes, alternating")
    parser.add_argument("--cache", type=Path, default=Path("out/bench-batch"), help="records and batches")
    parser.add_argument("--shares", action="store_true", help="also: fixed shares on independent processes (no pool)")
    parser.add_argument("--run", type=int, help=argparse.SUPPRESS)  # one run: this many processes
    parser.add_argument("--run-share", help=argparse.SUPPRESS)  # one run: share K/N in this process
    return parser.parse_args()


# ----- records and answers ------------------------------------------------------------------------------------
def load_records(args: argparse.Namespace) -> list[dict]:
    """The generated records, from ``<cache>/records.json`` when made with the same settings."""
    settings = {"domains": args.domains, "level": args.level, "per_task": args.per_task, "seed": args.seed}
    path = args.cache / "records.json"
    saved = json.loads(path.read_text()) if path.exists() else {}
    if saved.get("settings") != settings:
        records = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", acpgen.GenerationShortfall)
            for domain in [d.strip() for d in args.domains.split(",") if d.strip()]:
                for task, fmt in task_formats(["gen", "bool", "mcq"]):
                    records += acpgen.generate(domain, task, n=args.per_task, seed=args.seed, level=args.level,
                                               format=fmt, cache_dir=args.cache / "generated")  # fmt: skip
                    print(f"generated {domain} {task}.{fmt}: {len(records)} records", file=sys.stderr)
        saved = {"settings": settings, "records": records}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(saved))
    return saved["records"]


def reasoned(record: dict, answer: str, rng: random.Random, median: int) -> str:
    """The answer after reasoning as a model writes it before answering: sentences about the record's state (its
    context, in a shuffled order) with a model's connectives, about ``median`` characters at the median
    (log-normal, at most eight times that)."""
    sentences = [s.strip() for s in str(record.get("context") or "").split(". ") if s.strip()]
    if not sentences or median <= 0:
        return answer
    length = min(8 * median, int(median * rng.lognormvariate(0, 0.8)))
    parts, size = [], 0
    while size < length:
        part = f"{rng.choice(CONNECTIVES)} {rng.choice(sentences).rstrip('.')}."
        parts.append(part)
        size += len(part) + 1
    return " ".join(parts) + "\n\n" + answer


def group_of(record: dict, size: int) -> list[str]:
    """``size`` answers to one record: the stored one, the correct one in models' styles, a wrong twin in some."""
    words = Words(record)
    answers = [acpgen.reference_answer(record)]
    correct = correct_answers(record)
    if correct:
        answer = correct[0]
        twin = next((t for t in twin_candidates(record, answer, words) if bare(record, t, words)), None)
        written = [STYLES[s](record, answer, words) for s in CORRECT_STYLES]
        wrong = [STYLES[s](record, twin, words) for s in WRONG_STYLES] if twin is not None else []
        first, then = written[:4] + wrong[:3], written[4:] + wrong[3:]  # four styles and three twins, then the rest
        answers += [t for t in first + then if t]
    while len(answers) < size:
        answers.append(answers[len(answers) % max(1, len(answers))] + "\n\nThat is my final answer.")
    return answers[:size]


def nexta_group(record: dict, size: int) -> list[str]:
    """A nexta dev record's stored action and the other actions applicable in its state (optimal searches)."""
    task = acpgen.api.ground_task(record)
    stored = acpgen.reference_answer(record)
    others = sorted({a.name for _, a in task.successors(task.init)} - {stored})
    answers = [stored] + [f"The next action should be {a}. **Final Answer**: {a}" for a in others]
    while len(answers) < size:
        answers.append(answers[len(answers) % len(answers)])
    return answers[:size]


def batches(args: argparse.Namespace, records: list[dict]) -> list[list[tuple[dict, str]]]:
    """The batch that readies the scorer, then ``--steps`` batches of records not seen before (see the module
    docstring)."""
    per_batch = args.batch // args.group
    rng = random.Random(args.seed)
    pool = records[:]
    rng.shuffle(pool)
    dev = acpgen.load(DEV)
    nexta = [r for r in dev if r["group"] == "goal_closer_gen"]
    rng.shuffle(nexta)
    generated = per_batch - args.planner_records
    if len(pool) < (args.steps + 1) * generated or len(nexta) < (args.steps + 1) * args.planner_records + READYING:
        sys.exit(f"{len(pool)} records and {len(nexta)} nexta records for {args.steps} batches: raise --per-task")
    out = []
    for step in range(args.steps + 1):
        chosen = pool[step * generated : (step + 1) * generated]
        batch = [(r, a) for r in chosen for a in group_of(r, args.group)]
        batch += [(r, a) for r in nexta[READYING + step * args.planner_records :][: args.planner_records]
                  for a in nexta_group(r, args.group)]  # fmt: skip
        out.append(batch)
    # the first batch also has planner calls of more records, and reads every PDDL domain of the dev records in
    # several states (parsing a domain takes tens of milliseconds; the warm translator starts in a third of a
    # second): so that every worker has done it once, as it has after a trainer's first steps
    by_domain: dict[str, dict[str, dict]] = {}
    for record in dev:
        if "PDDL_domain" in record and record["group"] != "goal_closer_gen":
            by_domain.setdefault(record["PDDL_domain"], {}).setdefault(record["PDDL_problem"], record)
    readying = [(r, acpgen.reference_answer(r)) for states in by_domain.values() for r in list(states.values())[:8]]
    readying += [(r, a) for r in nexta[:READYING] for a in nexta_group(r, 2)]
    out[0] = out[0][: len(out[0]) - len(readying)] + readying
    for batch in out:
        rng.shuffle(batch)
        batch[:] = [(r, reasoned(r, a, rng, args.reasoning)) for r, a in batch]
    return out


# ----- one run ------------------------------------------------------------------------------------------------
def one_run(workers: int, path: Path) -> dict:
    """Score the saved batches on ``workers`` processes in this (fresh) process; the times and the scores."""
    from acpgen.evaluation import pool

    steps = pickle.loads(path.read_bytes())
    toy = {"id": 0, "group": "applicable_actions_bool", "answer": "no"}
    start = time.perf_counter()
    acpgen.score_many([toy] * 4, ["No"] * 4, workers=workers)
    if workers > 1:  # every worker started, with acp imported
        shared = pool.shared_pool(workers)
        while not all(w.ready and "acpgen.api" in w.modules for w in shared._workers):
            time.sleep(0.01)
    started = time.perf_counter() - start
    times, scores = [], []
    for batch in steps + steps[1:2]:
        records, answers = [r for r, _ in batch], [a for _, a in batch]
        start = time.perf_counter()
        result = acpgen.score_many(records, answers, workers=workers)
        times.append(time.perf_counter() - start)
        scores.append([(s.score, s.status, s.reason) for s in result])
    return {"start": started, "times": times, "scores": scores}


def share_run(share: str, path: Path) -> dict:
    """``K/N``: score in this process, one answer after the other, the answers of the saved batches whose record
    PDDL falls to share K of N (by a hash the same in every process); the time of the batches of new records."""
    part, parts = (int(x) for x in share.split("/"))

    def mine(record: dict) -> bool:
        text = f"{record.get('PDDL_domain')}{record.get('PDDL_problem')}"
        return zlib.crc32(text.encode()) % parts == part

    steps = pickle.loads(path.read_bytes())
    for record, answer in steps[0]:
        if mine(record):
            acpgen.score(record, answer)
    start = time.perf_counter()
    count = 0
    for batch in steps[1:]:
        for record, answer in batch:
            if mine(record):
                acpgen.score(record, answer)
                count += 1
    return {"answers": count, "seconds": time.perf_counter() - start}


def shares(args: argparse.Namespace, made: list, workers: int) -> None:
    """The same batches split in fixed shares between ``workers`` processes that know nothing of each other (no
    pool), run at once and then one after the other: what two processes can do on this machine at best."""
    command = [sys.executable, __file__, "--cache", str(args.cache), "--run-share"]
    total = sum(len(b) for b in made[1:])
    for together in (True, False):
        runs = []
        if together:
            started = [subprocess.Popen([*command, f"{k}/{workers}"], stdout=subprocess.PIPE, text=True)
                       for k in range(workers)]  # fmt: skip
            runs = [json.loads(p.communicate()[0].splitlines()[-1]) for p in started]
        else:
            for k in range(workers):
                done = subprocess.run([*command, f"{k}/{workers}"], capture_output=True, text=True, check=True)
                runs.append(json.loads(done.stdout.splitlines()[-1]))
        seconds = [round(r["seconds"], 2) for r in runs]
        if together:
            print(f"{workers} independent processes, a fixed share each, at once: {seconds} s for "
                  f"{[r['answers'] for r in runs]} answers, {total / max(seconds):,.0f} answers/s")  # fmt: skip
        else:
            print(f"the same one after the other: {seconds} s, {sum(seconds):.2f} s in all")


def main() -> None:
    args = parse_args()
    path = args.cache / "batches.pkl"
    if args.run is not None:
        print(json.dumps(one_run(args.run, path)))
        return
    if args.run_share is not None:
        print(json.dumps(share_run(args.run_share, path)))
        return
    records = load_records(args)
    made = batches(args, records)
    path.write_bytes(pickle.dumps(made))
    kinds = sorted({record_task(r) or "?" for batch in made for r, _ in batch})
    lengths = sorted(len(a) for batch in made for _, a in batch)
    median, p90 = lengths[len(lengths) // 2], lengths[len(lengths) * 9 // 10]
    print(f"{len(made)} batches of {len(made[0])} answers, {len(kinds)} kinds of record; answer length median "
          f"{median}, p90 {p90}, max {lengths[-1]} characters")  # fmt: skip
    counts = [int(w) for w in args.workers.split(",")]
    runs: dict[int, list[dict]] = {w: [] for w in counts}
    timed = made[1:] + made[1:2]  # the batches of new records, then the first of them again
    for round_ in range(args.rounds):
        for workers in counts if round_ % 2 == 0 else counts[::-1]:
            command = [sys.executable, __file__, "--run", str(workers), "--cache", str(args.cache)]
            done = subprocess.run(command, capture_output=True, text=True, check=True)
            run = json.loads(done.stdout.splitlines()[-1])
            runs[workers].append(run)
            rates = [len(b) / t for b, t in zip(timed, run["times"][1:])]
            print(f"round {round_ + 1}, {workers} process(es): start {run['start']:.2f} s, first batch "
                  f"{run['times'][0]:.2f} s; answers/s per batch {', '.join(f'{r:,.0f}' for r in rates[:-1])}; "
                  f"warm {rates[-1]:,.0f}")  # fmt: skip
    same = all(run["scores"] == runs[counts[0]][0]["scores"] for group in runs.values() for run in group)
    base_cold = base_warm = None
    for workers in counts:
        # a run's rate on new records: all their answers over the time of all their batches
        cold = [sum(map(len, made[1:])) / sum(run["times"][1:-1]) for run in runs[workers]]
        warm = [len(made[1]) / run["times"][-1] for run in runs[workers]]
        per_batch = [len(b) / t for run in runs[workers] for b, t in zip(made[1:], run["times"][1:-1])]
        cold_rate, warm_rate = statistics.median(cold), statistics.median(warm)
        base_cold, base_warm = base_cold or cold_rate, base_warm or warm_rate
        print(f"{workers} process(es): {cold_rate:,.0f} answers/s on new records (median of {len(cold)} runs; "
              f"batches {min(per_batch):,.0f}-{max(per_batch):,.0f}), {warm_rate:,.0f} warm; "
              f"{cold_rate / base_cold:.2f}x / {warm_rate / base_warm:.2f}x")  # fmt: skip
    print(f"the same scores in every run: {'yes' if same else 'NO'}")
    if args.shares:
        shares(args, made, max(counts))
    reference = runs[counts[0]][0]["scores"]
    for workers, group in runs.items():
        for run in group:
            for step, (want, got) in enumerate(zip(reference, run["scores"])):
                for index, (a, b) in enumerate(zip(want, got)):
                    if a != b:
                        record = timed[step - 1][index][0] if step else made[0][index][0]
                        print(
                            f"  {workers} process(es), batch {step}, answer {index} ({record_task(record)}): {a} / {b}"
                        )


if __name__ == "__main__":
    main()
