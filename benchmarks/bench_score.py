"""Benchmark of `acp score --recheck` against lm-evaluation-harness's ACPBench-Hard scorer, same answers.

Usage: python benchmarks/bench_score.py DATASET [--jobs 1,2] [--examples 3]
       python benchmarks/bench_score.py --heldout ACPBENCH [--jobs 2]

DATASET holds reference gen records (the bundled dev records: 8 tasks x 40). The answers are each
record's stored answers, as `acp reference-answers` writes them, plus one perturbed answer per
record: a near miss derived from the record (an action dropped, effect lists swapped, the index
shifted, an atom or action of the task, a non-optimal action, the unsimplified plan), so scoring
it exercises the same checks as wrong model answers, planners included.

``--heldout ACPBENCH`` (a checkout of github.com/IBM/ACPBench, read at run time, nothing copied) scores
answers that are not stored ones instead: two per record of the reference *test* records
(dataset/<task>/test.gen.json.gz, 8 tasks x 130), drawn with a fixed seed from the record, its task's
atoms and actions: a partial and an overfull action list (app), one list of effects only and one with a
fact too many (prog), atoms of the task (reach, land), ground actions (areach), the stored plan with one
action or two neighbours removed (just), actions the stored answer does not call optimal (nexta), the
index shifted either way (val). Most of them ask the planners, as a model's wrong answers do.

Both scorers see every answer, in one run, with 1 and with 2 processes:
* acp: `score_predictions` with ``recheck=True`` (as `acp score --recheck`), a fresh planner cache
  per run;
* the reference: lm-eval's own `ACP_grammar_filter` (with the `grammar_task` and `clean` settings
  of the installed task YAML files), `take_first`, then `process_acp_results(doc, results)` of
  `lm_eval/tasks/acpbench/gen_2shot/acp_utils.py`, exactly as lm-eval calls it for one sample.
  It needs the `pddl` package (lm-eval's `acpbench` extra pins pddl 0.4.2), which acp does not
  install: `make bench-score` installs it into .venv first.
An exception inside the reference scorer (which would stop an lm-eval run) is counted as
``error`` with its type. The report gives answers per second of each, the ratio, and where the
two verdicts differ, per task, with examples.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import resource
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import yaml

from acpgen.evaluation.records import Dataset, Prediction, reference_predictions
from acpgen.evaluation.scoring import score_predictions
from acpgen.pddl import tarski_io
from acpgen.pddl.grounding import GroundTask
from acpgen.tasks import TASKS, ScoreOptions
from acpgen.tasks.base import record_plan

#: acp task -> lm-eval task YAML of gen_2shot
LM_EVAL_YAML = {
    "app": "app.yaml",
    "prog": "prog.yaml",
    "reach": "reach.yaml",
    "areach": "act_reach.yaml",
    "val": "val.yaml",
    "just": "just.yaml",
    "land": "land.yaml",
    "nexta": "next_act.yaml",
}


def perturbed(task: str, record: dict, rng: random.Random) -> str:
    """A near-miss response for a record (derived from its stored answer and its state)."""
    answer = record["answer"]
    if task == "app":
        return " ".join(answer[1:])
    if task == "prog":
        return f"[{', '.join(answer['neg'])}] [{', '.join(answer['pos'])}]"
    if task == "val":
        return str(int(answer) + 1)
    if task == "just":
        return " ".join(record_plan(record))
    if task == "nexta":
        others = answer["no"] + answer["maybe"]
        return rng.choice(others) if others else answer["yes"][0]
    ground = GroundTask.from_strings(record["PDDL_domain"], record["PDDL_problem"])
    if task == "areach":
        return rng.choice(ground.actions).name
    return rng.choice([a for a in ground.fluent_atoms()])


def heldout(task: str, record: dict, rng: random.Random) -> list[tuple[str, str]]:
    """Two (kind, response) answers to a record that are not its stored answer (see the module's text)."""
    answer = record["answer"]
    ground = GroundTask.from_strings(record["PDDL_domain"], record["PDDL_problem"])
    actions = [a.name for a in ground.actions]
    atoms = list(ground.fluent_atoms())
    if task == "app":
        extra = [a for a in actions if a not in answer] or actions
        partial = rng.sample(answer, max(len(answer) - 1, 1)) if answer else [rng.choice(actions)]
        return [("partial", " ".join(partial)), ("overfull", " ".join([*answer, rng.choice(extra)]))]
    if task == "prog":
        extra = [a for a in atoms if a not in answer["pos"] and a not in answer["neg"]] or atoms
        effects_only = f"Positive effects: {' '.join(answer['pos'])}"
        overfull = f"Positive effects: {' '.join([*answer['pos'], rng.choice(extra)])}\nNegative effects: " + " ".join(
            answer["neg"]
        )
        return [("partial", effects_only), ("overfull", overfull)]
    if task in ("reach", "land"):
        return [("atom", a) for a in rng.sample(atoms, min(2, len(atoms)))]
    if task == "areach":
        return [("action", a) for a in rng.sample(actions, min(2, len(actions)))]
    if task == "val":
        return [("shifted", str(int(answer) + 1)), ("shifted", str(max(int(answer) - 1, 0)))]
    if task == "just":
        plan = record_plan(record)
        one = rng.randrange(len(plan))
        pair = rng.randrange(max(len(plan) - 1, 1))
        without_one = plan[:one] + plan[one + 1 :]
        without_pair = plan[:pair] + plan[pair + 2 :]
        return [("removal", "Simplified plan: " + " ".join(p)) for p in (without_one, without_pair)]
    if task == "nexta":
        others = answer["no"] + answer["maybe"] or actions
        return [("action", rng.choice(others)), ("action", rng.choice(actions))]
    raise ValueError(task)


def heldout_answers(checkout: Path) -> list[tuple[str, Prediction]]:
    """Two held-out answers per reference test record of an IBM/ACPBench checkout."""
    files = [checkout / "dataset" / task / "test.gen.json.gz" for task in LM_EVAL_YAML]
    for packed in files:
        if not packed.is_file():
            raise SystemExit(f"{packed}: not found; --heldout takes a checkout of github.com/IBM/ACPBench")
    dataset = Dataset.load(files[0], files)
    rng = random.Random(0)
    items = []
    for (task, _), record in sorted(dataset.records.items()):
        for kind, response in heldout(task, record, rng):
            line = {"id": record["id"], "task": task, "response": response}
            items.append((kind, Prediction(line, task, record, response)))
    return items


def answers(dataset: Dataset) -> list[tuple[str, Prediction]]:
    """(kind, prediction): every stored answer of the gen records, then one perturbed answer per record."""
    rng = random.Random(0)
    items = []
    for line in reference_predictions(dataset):
        task, record = dataset.resolve(line)
        if task in TASKS:
            items.append(("stored", Prediction(line, task, record, line["response"])))
    for (task, _), record in sorted(dataset.records.items()):
        if task in TASKS:
            response = perturbed(task, record, rng)
            line = {"id": record["id"], "task": task, "response": response}
            items.append(("perturbed", Prediction(line, task, record, response)))
    return items


# ----- the reference scorer (lm-eval), one answer at a time -------------------------------------
_FILTERS: dict[str, object] = {}


def _reference_filter(task: str):
    """lm-eval's ACP_grammar_filter configured as the installed task YAML configures it."""
    if task not in _FILTERS:
        from lm_eval.tasks.acpbench.gen_2shot import acp_utils

        config = yaml.safe_load((Path(acp_utils.__file__).parent / LM_EVAL_YAML[task]).read_text())
        steps = config["filter_list"][0]["filter"]
        grammar = next(s for s in steps if s["function"] == "ACP_grammar_filter")
        if [s["function"] for s in steps] != ["ACP_grammar_filter", "take_first"]:
            raise SystemExit(f"{LM_EVAL_YAML[task]}: unexpected lm-eval filter chain {steps}; update bench_score.py")
        kwargs = {k: v for k, v in grammar.items() if k != "function"}
        _FILTERS[task] = acp_utils.ACPGrammarFilter(**kwargs)
    return _FILTERS[task]


def reference_score(item: tuple[str, dict, str]) -> tuple[str, str]:
    """(verdict, detail): verdict "1", "0" or "error" of lm-eval's process_acp_results for one response."""
    from lm_eval.tasks.acpbench.gen_2shot import acp_utils

    task, doc, response = item
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            filtered = _reference_filter(task).apply([[response]], [doc])
            results = [filtered[0][0]]  # take_first
            score = acp_utils.process_acp_results(doc, results)["score"]
    except Exception as err:
        return "error", f"{type(err).__name__}: {str(err).splitlines()[0][:80] if str(err) else ''}"
    return ("1" if score == 1 else "0"), printed.getvalue().strip().splitlines()[0][:80] if printed.getvalue() else ""


def run_reference(items: list[tuple[str, dict, str]], jobs: int) -> list[tuple[str, str]]:
    if jobs <= 1:
        return [reference_score(item) for item in items]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(reference_score, items, chunksize=4))


def run_acp(predictions: list[Prediction], jobs: int, trust_stored: bool = False) -> list[tuple[str, str]]:
    options = ScoreOptions(trust_stored=True) if trust_stored else ScoreOptions(recheck=True)
    tarski_io.clear_caches()  # every run starts cold: no PDDL text parsed by an earlier run
    scored = score_predictions(predictions, options, jobs=jobs, progress=False)
    out = []
    for s in scored:
        verdict = "undecided" if s.verdict.status == "undecided" else str(int(s.verdict.score))
        out.append((verdict, f"{s.verdict.status}: {s.verdict.reason}"))
    return out


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and of every finished child: workers and planners."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(run, *args) -> tuple[list, float, float]:
    """(result, wall seconds, CPU seconds) of ``run(*args)``."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = run(*args)
    return result, time.perf_counter() - wall, cpu_seconds() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path, nargs="?", help="reference gen records (not with --heldout)")
    parser.add_argument("--heldout", type=Path, help="a checkout of IBM/ACPBench: its test records, held-out answers")
    parser.add_argument("--jobs", default="1,2", help="process counts, comma-separated (default 1,2)")
    parser.add_argument("--examples", type=int, default=3, help="examples shown per task and disagreement")
    args = parser.parse_args()
    try:
        from lm_eval.tasks.acpbench.gen_2shot import acp_utils  # noqa: F401
    except ModuleNotFoundError as err:
        raise SystemExit(
            f"lm-eval's ACPBench scorer cannot be imported ({err}); run `make bench-score`, which installs "
            "its missing dependency (pddl==0.4.2) into .venv"
        ) from None
    if (args.dataset is None) == (args.heldout is None):
        parser.error("give DATASET or --heldout ACPBENCH")
    if args.heldout is not None:
        items = heldout_answers(args.heldout)
    else:
        items = answers(Dataset.load(args.dataset))
    predictions = [p for _, p in items]
    reference_items = [(p.task, p.record, p.response) for p in predictions]
    counts = Counter(kind for kind, _ in items)
    tasks = len({p.task for p in predictions})
    kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    print(f"{len(items)} answers: {kinds}; {tasks} tasks\n")
    print("Wall-clock rates depend on the machine's load; CPU seconds (this process, its workers and every")
    print("planner they ran) do not. The ratio is the reference's time over acp's (higher: acp faster).\n")
    print("| scorer | processes | wall s | answers/s | CPU s | answers per CPU s | ratio wall | ratio CPU |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    verdicts = {}
    for jobs in [int(j) for j in args.jobs.split(",")]:
        verdicts["acp"], acp_wall, acp_cpu = timed(run_acp, predictions, jobs)
        verdicts["reference"], ref_wall, ref_cpu = timed(run_reference, reference_items, jobs)
        _, trust_wall, trust_cpu = timed(run_acp, predictions, jobs, True)
        n = len(items)
        print(
            f"| acp score --recheck | {jobs} | {acp_wall:.1f} | {n / acp_wall:.2f} | {acp_cpu:.1f} | {n / acp_cpu:.2f} "
            f"| {ref_wall / acp_wall:.2f}x | {ref_cpu / acp_cpu:.2f}x |"
        )
        print(
            f"| acp score --trust-stored (the reference's reading) | {jobs} | {trust_wall:.1f} | {n / trust_wall:.2f} "
            f"| {trust_cpu:.1f} | {n / trust_cpu:.2f} | {ref_wall / trust_wall:.2f}x | {ref_cpu / trust_cpu:.2f}x |"
        )
        print(
            f"| lm-eval process_acp_results | {jobs} | {ref_wall:.1f} | {n / ref_wall:.2f} | {ref_cpu:.1f} "
            f"| {n / ref_cpu:.2f} | | |",
            flush=True,
        )
    print_agreement(items, verdicts["acp"], verdicts["reference"], args.examples)


def count(rows: dict, a: str | None = None, r: str | None = None, same: bool = False) -> int:
    """Answers of ``rows`` ((task, kind, acp, reference) -> count) with the given verdicts."""
    return sum(
        v
        for (_, _, x, y), v in rows.items()
        if (a is None or x == a) and (r is None or y == r) and (not same or x == y)
    )


def print_agreement(items, acp, reference, examples: int) -> None:
    rows = Counter()
    shown: dict[tuple, list[str]] = {}
    for (kind, prediction), (a, a_detail), (r, r_detail) in zip(items, acp, reference):
        key = (prediction.task, kind, a, r)
        rows[key] += 1
        if a != r:
            text = prediction.response.replace("\n", " ")
            text = text if len(text) <= 70 else text[:67] + "..."
            shown.setdefault(key, [])
            if len(shown[key]) < examples:
                shown[key].append(f"id {prediction.record['id']}: `{text}` acp [{a_detail}] ref [{r_detail}]")
    print("\nverdicts per task and answer kind (acp / reference: 1, 0, undecided, error):\n")
    print("| task | answers | acp 1 | ref 1 | agree | acp 1, ref 0 | acp 0, ref 1 | acp undecided | ref error |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for task in TASKS:
        for kind in sorted({kind for (t, kind, _, _) in rows if t == task}):
            mine = {k: v for k, v in rows.items() if k[0] == task and k[1] == kind}
            total = sum(mine.values())
            if not total:
                continue

            print(
                f"| {task} | {kind} {total} | {count(mine, a='1')} | {count(mine, r='1')} "
                f"| {count(mine, same=True)} "
                f"| {count(mine, '1', '0')} | {count(mine, '0', '1')} | {count(mine, a='undecided')} "
                f"| {count(mine, r='error')} |"
            )
    print("\nexamples of disagreement:\n")
    for (task, kind, a, r), lines in sorted(shown.items()):
        print(f"- {task} {kind}, acp {a} / reference {r}: {rows[(task, kind, a, r)]} answers")
        for line in lines:
            print(f"  - {line}")


if __name__ == "__main__":
    main()
