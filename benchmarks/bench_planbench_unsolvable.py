"""PlanBench's published results on its unsolvable configs, scored by acp (`docs/benchmarks.md`, "PlanBench's
unsolvable results").

PLANBENCH is a checkout of github.com/karthikv792/LLMs-Planning (nothing of it is part of acp). Its
``llm_planning_analysis/results/unsolvable_blocksworld/<engine>/<task>.json`` and
``.../unsolvable_obfuscated_randomized_blocksworld/<engine>/<task>.json`` hold models' answers to problems whose
goal no plan reaches (a cycle of blocks, a block on two others); the right answer is to say so. Each file is
scored as ``acp score --planbench-domain --planbench-instances`` scores it (unsolvable_blocksworld: its config's
domain file and instance folder; the obfuscated config ships no instances, so its PDDL prompts' problems, as
``acp score --planbench``): every instance is proven unsolvable by two procedures before an answer is scored (an
instance not proven makes its answers undecided); an answer whose final statement says no plan exists scores 1,
a plan 0.

Per file: the answers (a null response is one, a parse error), acp's verdicts (scored 1, scored 0, parse errors,
undecided) beside PlanBench's (``llm_correct``, true when PlanBench's extracted plan holds "no plan possible";
None where it scored no plan; the hand labels ``correct`` of two files: 1 for an answer that says no plan exists,
0 for a plan, -1 an empty plan, -2 no answer), then what the answers say, each class read by acp's rule: ``plan``
(a plan is read, no sentence says no plan exists: every one must score 0), ``statement`` (a sentence says no plan
exists, no plan is read: at least 95% must score 1), ``both`` (how the one reading rule read them: the statement
last, or the plan), ``neither`` (no plan and no statement: an empty answer, an empty plan, "No answer."). With
``--examples``, the answers of the ``both`` class and those of the hand-labelled files where acp and the label
differ.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from acpgen.evaluation.planbench import (
    answer_text,
    planbench_predictions,
    translate,
    wording_of,
)
from acpgen.evaluation.planbench.reading import before_new_problem
from acpgen.evaluation.records import Prediction
from acpgen.evaluation.scoring import score_predictions
from acpgen.nl.plan_steps import no_plan_statement
from acpgen.pddl.tarski_io import read_strings
from acpgen.planners import Limits
from acpgen.tasks import PARSE_ERROR, SCORED, UNDECIDED, ScoreOptions

PART = Path("llm_planning_analysis")
#: the result folders and, for those whose instances PlanBench ships, the domain file and instance folder
CONFIGS = {
    "unsolvable_blocksworld": (
        "unsolvable_blocksworld/generated_domain.pddl",
        "unsolvable_blocksworld/generated_basic",
    ),
    "unsolvable_obfuscated_randomized_blocksworld": None,  # no instances: the PDDL of its prompts
}
CLASSES = ("plan", "statement", "both", "neither")


@dataclass
class FileResult:
    name: str
    n: int = 0
    ones: int = 0
    zeros: int = 0
    parse_errors: int = 0
    undecided: int = 0
    planbench: Counter[str] = field(default_factory=Counter)  # llm_correct
    labels: Counter[str] = field(default_factory=Counter)  # the hand labels, "correct"
    classes: Counter[str] = field(default_factory=Counter)
    ones_by_class: Counter[str] = field(default_factory=Counter)
    both_read_as_statement: int = 0
    label_disagreements: list[dict] = field(default_factory=list)
    both_examples: list[dict] = field(default_factory=list)


def says(prediction: Prediction) -> tuple[bool, bool]:
    """(a plan is read in the answer, some sentence of it says no plan exists), each on its own, rule aside."""
    raw = prediction.line["llm_raw_response"]
    record = prediction.record
    lifted = read_strings(record["PDDL_domain"], record["PDDL_problem"])
    wording = wording_of(record["domain"])
    if wording is not None and not all(action in lifted.schemas for action in wording.actions):
        wording = None
    plan = bool(translate(raw, wording, lifted=lifted))
    return plan, no_plan_statement(before_new_problem(answer_text(raw))) is not None


def score_file(root: Path, path: Path, options: ScoreOptions, examples: int) -> FileResult:
    folder = path.relative_to(root / PART / "results").parts[0]
    where = CONFIGS[folder]
    files = (root / PART / "instances" / where[0], root / PART / "instances" / where[1]) if where else (None, None)
    predictions = planbench_predictions(path, *files)
    data = json.loads(path.read_text(encoding="utf-8"))
    instances = {instance["instance_id"]: instance for instance in data["instances"]}
    result = FileResult(str(path.relative_to(root / PART / "results").with_suffix("")))
    for item in score_predictions(predictions, options, progress=False):
        verdict, line = item.verdict, item.prediction.line
        instance = instances[line["instance_id"]]
        result.n += 1
        one = verdict.status == SCORED and verdict.score == 1
        result.ones += one
        result.zeros += verdict.status == SCORED and verdict.score == 0
        result.parse_errors += verdict.status == PARSE_ERROR
        result.undecided += verdict.status == UNDECIDED
        result.planbench[str(instance.get("llm_correct"))] += 1
        if "correct" in instance:
            result.labels[str(instance["correct"])] += 1
            if (instance["correct"] == 1) != one and len(result.label_disagreements) < examples:
                result.label_disagreements.append(example(item, instance))
        plan, statement = says(item.prediction)
        kind = CLASSES[0 if plan and not statement else 1 if statement and not plan else 2 if plan else 3]
        result.classes[kind] += 1
        result.ones_by_class[kind] += one
        if kind == "both":
            result.both_read_as_statement += bool(verdict.details.get("says_no_plan"))
            if len(result.both_examples) < examples:
                result.both_examples.append(example(item, instance))
    return result


def example(item, instance: dict) -> dict:
    return {
        "instance": instance["instance_id"],
        "label": instance.get("correct"),
        "score": item.verdict.score,
        "status": item.verdict.status,
        "reason": item.verdict.reason[:200],
        "response": (item.prediction.line["llm_raw_response"] or "")[-600:],
    }


def table(results: list[FileResult]) -> str:
    head = (
        "| file | answers | acp 1 | acp 0 | parse errors | undecided | PlanBench llm_correct true / false / none "
        "| hand label 1 / 0 / -1 / -2 | plan only (scored 0) | statement only (scored 1) | both: read as statement "
        "/ as plan | neither |"
    )
    lines = [head, "|" + "---|" * 12]
    for r in [*results, total(results)]:
        labels = " / ".join(str(r.labels[k]) for k in ("1", "0", "-1", "-2")) if r.labels else "-"
        pb = " / ".join(str(r.planbench[k]) for k in ("True", "False", "None"))
        c, o = r.classes, r.ones_by_class
        lines.append(
            f"| {r.name} | {r.n} | {r.ones} | {r.zeros} | {r.parse_errors} | {r.undecided} | {pb} | {labels} "
            f"| {c['plan']} ({c['plan'] - o['plan']}) | {c['statement']} ({o['statement']}) "
            f"| {r.both_read_as_statement} / {c['both'] - r.both_read_as_statement} | {c['neither']} |"
        )
    return "\n".join(lines)


def total(results: list[FileResult]) -> FileResult:
    out = FileResult("all")
    for r in results:
        for name in ("n", "ones", "zeros", "parse_errors", "undecided", "both_read_as_statement"):
            setattr(out, name, getattr(out, name) + getattr(r, name))
        for name in ("planbench", "labels", "classes", "ones_by_class"):
            getattr(out, name).update(getattr(r, name))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("planbench", type=Path, help="a checkout of github.com/karthikv792/LLMs-Planning")
    parser.add_argument("--planner-timeout", type=float, default=20.0, help="seconds per planner call")
    parser.add_argument("--examples", type=int, default=0, help="answers printed per file (both class, label differs)")
    args = parser.parse_args()
    results_dir = args.planbench / PART / "results"
    paths = sorted(p for folder in CONFIGS for p in (results_dir / folder).glob("*/*.json"))
    if not paths:
        sys.exit(f"{args.planbench}: no result files of PlanBench's unsolvable configs under {results_dir}")
    options = ScoreOptions(limits=Limits(time=args.planner_timeout))
    results = [score_file(args.planbench, path, options, args.examples) for path in paths]
    print(table(results))
    checks = total(results)
    plans, statements = checks.classes["plan"], checks.classes["statement"]
    share = checks.ones_by_class["statement"] / statements if statements else float("nan")
    print(
        f'\nonly a plan: {plans} answers, {checks.ones_by_class["plan"]} scored 1 (target 0); only "no plan exists": '
        f"{statements}, {checks.ones_by_class['statement']} scored 1 ({share:.1%}; target >= 95%)"
    )
    for r in results:
        for title, items in (("both", r.both_examples), ("acp differs from the hand label", r.label_disagreements)):
            for item in items:
                head = f"--- {r.name} #{item['instance']} [{title}] label {item['label']}: {item['score']} "
                print(f"\n{head}{item['status']}: {item['reason']}\n    " + item["response"].replace("\n", "\n    "))


if __name__ == "__main__":
    main()
