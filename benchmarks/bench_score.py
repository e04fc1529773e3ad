"""Benchmark of `acp score`: answers per second on the dev records' stored answers plus perturbed ones.

Usage: python benchmarks/bench_score.py DATASET [--jobs N]
Perturbed answers are near misses derived from each record (an action dropped, effect lists
swapped, the index shifted, an atom of the state, a non-optimal action, the unsimplified plan),
so scoring them exercises the same checks as wrong model answers, planners included.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from acpgen.pddl.grounding import GroundTask
from acpgen.records import Dataset, Prediction, reference_predictions
from acpgen.scoring import Summary, score_predictions
from acpgen.tasks import ScoreOptions
from acpgen.tasks.base import record_plan


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    dataset = Dataset.load(args.dataset)
    rng = random.Random(0)
    gold, wrong = [], []
    for line in reference_predictions(dataset):
        task, record = dataset.resolve(line)
        gold.append(Prediction(line, task, record, line["response"]))
    for (task, _), record in sorted(dataset.records.items()):
        response = perturbed(task, record, rng)
        wrong.append(Prediction({"id": record["id"], "task": task, "response": response}, task, record, response))
    for label, options in (("stored sets trusted", ScoreOptions()), ("--recheck", ScoreOptions(recheck=True))):
        for name, items in (("stored answers", gold), ("perturbed answers", wrong)):
            start = time.perf_counter()
            results = score_predictions(items, options, jobs=args.jobs, progress=False)
            elapsed = time.perf_counter() - start
            total = Summary.of(results).cells[("all", "all")]
            print(
                f"{label:20} {name:18} {len(items):5} answers  {len(items) / elapsed:8.1f} answers/s"
                f"  accuracy {total.accuracy:.3f}  undecided {total.undecided}"
            )


if __name__ == "__main__":
    main()
