"""`make bench-planbench PLANBENCH=path`: acp's score against PlanBench's own verdicts on its published results.

PLANBENCH is a checkout of github.com/karthikv792/LLMs-Planning (nothing of it is part of acp). Its
result files are ``<part>/results/<domain>/<engine>/<task>.json`` and
``<part>/results_backprompting/<domain>/<engine>/<task>.json`` under ``plan-bench`` (the benchmark's
own results) and ``llm_planning_analysis`` (later engines); each answered instance holds the model's
``llm_raw_response`` (backprompting files: the dialogue, ``messages``), what PlanBench read from it
(``extracted_llm_plan``) and its verdict (``llm_correct``; ``correct`` or ``act_correct`` in some
files). Every result file is scored by acp as ``acp score --planbench-domain --planbench-instances``
does, with the domain file and instance folder of ``<part>/configs/<domain>.yaml`` (the
``generalized_instance_dir`` for task 5; blocksworld's for Obfuscated Randomized Blocksworld, whose
instances are blocksworld's renamed and which has no config), or, for the domains whose instance
files are not the ones their prompts show (obfuscated_randomized_logistics, mystery_new), as ``acp
score --planbench`` does, on the PDDL each prompt shows; in this one process, the files of one domain
folder scored together as ``acp score FILES...`` scores them (an instance's answers in several files share
its record, grounded once). A file acp does not score is listed with acp's reason. The planners get
``--planner-timeout`` seconds a call (2 by default, not acp's 20): only the optimality files (task 2, acp's
``optplan``) ask them, for the optimal cost of each valid plan (the plan task scores validity and takes an
optimum only from acp's LM-cut bound); the optplan answers whose optimum stayed undecided, out of acp's
accuracy, are counted at the end.

Per file: answers scored (n), acp's accuracy, PlanBench's (over the answers that have a verdict),
agreements, each disagreement's class and the rate: answers read and scored per second of wall time
(one process, the planners' results of earlier files warm; a folder's time shared among its files by
their answers) and per CPU second (this process and the planner processes it ran), which other jobs on
the machine change less. Then the totals per part,
per engine and for task 1. The classes compare acp's reading with PlanBench's ``extracted_llm_plan``:

acp 1, PlanBench 0 (acp's plan is valid: executed by acp's lifted interpreter on the grounded task
and, as a second route, by unified-planning's validator, whose verdict is counted in the summary):

* ``pb-same``: both read the same plan; PlanBench's verdict is wrong.
* ``pb-outside``: PlanBench read the plan plus steps outside it (a restatement, an explanation after
  ``[PLAN END]``, each step twice): its plan is acp's with steps added around it.
* ``pb-none``: PlanBench read no step at all.
* ``pb-earlier``: PlanBench read another plan the answer states before its last one (the first
  ``[PLAN]`` block of an answer that revises it).
* ``pb-misread``: any other difference (a line PlanBench skips or misreads, objects taken in the
  order named, an LLM translation that adds or drops a step).

acp 0, PlanBench 1:

* ``acp-unreadable``: acp met a line that names an action and cannot be read exactly.
* ``acp-noplan``: acp read no step at all.
* ``acp-final``: acp's plan is the last one the answer states, PlanBench's an earlier one.
* ``acp-other``: acp read every step, and its plan fails where PlanBench's passes: the two read
  different plans (``acp-other`` with the same plan would be a validator difference; none is expected).

optplan (task 2) adds ``cost``: both found the plan valid and disagree on its optimality.

Files whose verdicts came from an LLM's reading of the answer (PlanBench's ``text_to_plan_with_llm``;
their instances carry ``raw_translation``) are marked ``llm`` in the table: their disagreements
compare acp with a translation, not with PlanBench's parser.

``--examples N`` prints N disagreements of each class (file, instance, acp's reason, both plans).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from acpgen.errors import DataError
from acpgen.evaluation.planbench import ACTION_GROUP, planbench_predictions, task_kind, translate, wording_of
from acpgen.evaluation.records import Prediction
from acpgen.evaluation.scoring import Scored, score_predictions
from acpgen.nl.answers import ParseError
from acpgen.nl.plan_steps import read_steps
from acpgen.pddl.tarski_io import read_strings
from acpgen.planners import Limits
from acpgen.proofs.plans import unified_planning_verdict
from acpgen.tasks import PARSE_ERROR, UNDECIDED, ScoreOptions

PARTS = ("plan-bench", "llm_planning_analysis")
SHORT = {"plan-bench": "pb", "llm_planning_analysis": "lpa"}  # the table's names of the two parts
#: the folders of result files under each part
RESULTS = ("results", "results_backprompting")
#: result folders scored on another config's domain file and instances: Obfuscated Randomized Blocksworld's
#: instances are blocksworld's, renamed (PlanBench ships no config or instances of its own for them)
SAME_INSTANCES = {
    "obfuscated_randomized_blocksworld": "blocksworld",
    "obfuscated_randomized_blocksworld_3": "blocksworld_3",
}
#: result folders whose instances are the PDDL their prompts show: PlanBench's config of
#: obfuscated_randomized_logistics obfuscates its instance files with other names than those prompts, and
#: mystery_new has no config
FROM_PROMPTS = ("obfuscated_randomized_logistics", "mystery_new")
CLASSES = (
    "pb-same",
    "pb-outside",
    "pb-none",
    "pb-earlier",
    "pb-misread",
    "acp-unreadable",
    "acp-noplan",
    "acp-final",
    "acp-other",
    "cost",
)


@dataclass
class FileResult:
    path: str
    engine: str
    task: str
    llm: bool  # PlanBench's verdicts come from an LLM's translation
    n: int = 0
    undecided: int = 0  # optplan answers whose optimum acp could not decide: not in its accuracy
    acp: int = 0
    judged: int = 0  # answers with a PlanBench verdict
    planbench: int = 0
    agree: int = 0
    classes: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    cpu: float = 0.0  # CPU seconds of this process and the planner processes it waited for
    examples: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))


def planbench_plan(instance: dict[str, Any]) -> list[str]:
    """PlanBench's ``extracted_llm_plan`` as actions ``(name arg ...)`` (a text of lines, or the text of a list)."""
    text = instance.get("extracted_llm_plan") or ""
    if isinstance(text, list):
        text = "\n".join(str(step) for step in text)
    return ["(" + " ".join(group.lower().split()) + ")" for group in ACTION_GROUP.findall(str(text)) if group.strip()]


def acp_plan(item: Scored) -> list[str] | None:
    """The steps acp read, as actions (a step it could not read as its text); None when it read none."""
    try:
        steps = read_steps(item.prediction.response)
    except ParseError:
        return None
    return [step.action if step.name is not None else step.text for step in steps]


def planbench_verdict(instance: dict[str, Any]) -> bool | None:
    for key in ("llm_correct", "correct", "act_correct"):
        if instance.get(key) is not None:
            return bool(instance[key])
    return None


def contains(outer: list[str], inner: list[str]) -> bool:
    return any(outer[i : i + len(inner)] == inner for i in range(len(outer) - len(inner) + 1))


def blocks_of(item: Scored) -> list[tuple[list[str], bool]]:
    """The blocks of steps acp found in the answer (steps as ``(name arg ...)``) and whether it read each."""
    record, line = item.prediction.record, item.prediction.line
    lifted = read_strings(record["PDDL_domain"], record["PDDL_problem"])
    wording = wording_of(record["domain"])
    if wording is not None and not all(action in lifted.schemas for action in wording.actions):
        wording = None
    blocks: list[tuple[list[str], bool]] = []
    translate(line["llm_raw_response"], wording, lifted=lifted, blocks=blocks)
    return blocks


def earlier(item: Scored, theirs: list[str]) -> bool:
    """Whether PlanBench's plan is (the start of) another block of the answer than the one acp read."""
    return bool(theirs) and any(
        (not chosen and steps[: len(theirs)] == theirs) or (steps == theirs[: len(steps)] and len(steps) > 1)
        for steps, chosen in blocks_of(item)
    )


def classify(item: Scored, instance: dict[str, Any]) -> str:
    """The class of a disagreement (see the module docstring)."""
    ours, theirs = acp_plan(item), planbench_plan(instance)
    details = item.verdict.details
    if item.verdict.score == 1:
        if ours == theirs:
            return "pb-same"
        if not theirs:
            return "pb-none"
        if ours and len(theirs) > len(ours) and contains(theirs, ours):
            return "pb-outside"
        return "pb-earlier" if earlier(item, theirs) else "pb-misread"
    if item.verdict.status == PARSE_ERROR or ours is None:
        return "acp-noplan"
    if details.get("failure_class") == "unreadable_step":
        return "acp-unreadable"
    if details.get("valid") and details.get("reaches_goal"):
        return "cost"
    return "acp-final" if earlier(item, theirs) else "acp-other"


def cpu_seconds() -> float:
    """User and system CPU time of this process and of its children that ended (the planners)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def config_of(part: Path, domain: str) -> dict[str, Any] | None:
    path = part / "configs" / f"{domain}.yaml"
    if not path.is_file():
        return None
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else None


def result_files(root: Path, only: list[str], exclude: list[str]) -> list[tuple[Path, Path]]:
    """(part folder, result file) of every ``<part>/results*/<domain>/.../*.json``, filtered by path; not the files
    of the ``unsolvable_*`` configs, whose right answer is that no plan exists (benchmarks/bench_planbench_unsolvable.py
    compares those)."""
    found = []
    for name in PARTS:
        part = root / name
        for results in RESULTS:
            for path in sorted((part / results).glob("*/**/*.json")):
                text = str(path.relative_to(root))
                if relative(part, path).parts[1].startswith("unsolvable"):
                    continue
                if (not only or any(s in text for s in only)) and not any(s in text for s in exclude):
                    found.append((part, path))
    return found


def relative(part: Path, path: Path) -> Path:
    """The result file's path under its part's results folder (``results/...``, ``results_backprompting/...``)."""
    return next(path.relative_to(part) for results in RESULTS if (part / results) in path.parents)


def locate(part: Path, path: Path, task: str) -> tuple[Path, Path] | str | None:
    """The domain file and instance folder a result file is scored on (its config's; ``generalized_instance_dir``
    for task 5), None for the PDDL its prompts show, or why there are none."""
    folder = relative(part, path).parts[1]
    if folder in FROM_PROMPTS:
        return None
    config = config_of(part, SAME_INSTANCES.get(folder, folder))
    if config is None:
        return f"no config {folder}.yaml"
    generalization = task.startswith(("task_5", "t5"))
    instances = config.get("generalized_instance_dir") if generalization else config.get("instance_dir")
    if not instances or "domain_file" not in config:
        return f"config {folder}.yaml names no instance folder or domain file"
    return part / "instances" / config["domain_file"], part / "instances" / instances


@dataclass
class Loaded:
    """A result file read: its part, path, JSON, task and acp's predictions."""

    part: Path
    path: Path
    data: dict[str, Any]
    task: str
    predictions: list[Prediction]


def load_file(part: Path, path: Path, records: dict[tuple[Any, ...], dict[str, Any]]) -> Loaded | str:
    """The file's predictions, or why acp does not score it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        return f"unreadable JSON ({type(err).__name__})"
    if not isinstance(data, dict) or not isinstance(data.get("instances"), list):
        return "not a task file"
    task = str(data.get("task") or path.stem)
    try:
        task_kind(task)
    except DataError as err:
        return str(err).split(": ", 1)[-1].split(";")[0]
    where = locate(part, path, task)
    if isinstance(where, str):
        return where
    try:
        predictions = planbench_predictions(path, *(where or (None, None)), records=records)
    except DataError as err:
        return f"acp refuses it: {str(err).split(': ', 1)[-1][:150]}"
    return Loaded(part, path, data, task, predictions)


def score_folder(
    files: list[tuple[Path, Path]], options: ScoreOptions, examples: int, cross_check: Counter[str] | None
) -> tuple[list[FileResult], dict[Path, str]]:
    """The comparison of each file of one domain folder, scored together as ``acp score FILES...`` does (an
    instance's answers in several files share its record and grounding), and why the others are not scored;
    each file gets the folder's time in proportion to its answers."""
    start, cpu = time.perf_counter(), cpu_seconds()
    records: dict[tuple[Any, ...], dict[str, Any]] = {}
    loaded, refused = [], {}
    for part, path in files:
        read = load_file(part, path, records)
        if isinstance(read, str):
            refused[path] = read
        else:
            loaded.append(read)
    scored = score_predictions([p for file in loaded for p in file.predictions], options, progress=False)
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    total = max(1, len(scored))
    results, at = [], 0
    for file in loaded:
        mine = scored[at : at + len(file.predictions)]
        at += len(file.predictions)
        share = len(mine) / total
        results.append(compare(file, mine, seconds * share, cpu * share, examples, cross_check))
    return results, refused


def compare(
    file: Loaded, scored: list[Scored], seconds: float, cpu: float, examples: int, cross_check: Counter[str] | None
) -> FileResult:
    """A file's verdicts against PlanBench's."""
    data, part, path = file.data, file.part, file.path
    instances = {instance["instance_id"]: instance for instance in data["instances"]}
    llm = any("raw_translation" in instance for instance in data["instances"])
    name = f"{SHORT[part.name]}/{relative(part, path).with_suffix('')}"
    engine = str(data.get("engine") or path.parent.name)
    result = FileResult(name, engine, file.task, llm, seconds=seconds, cpu=cpu)
    for item in scored:
        instance = instances[item.prediction.line["instance_id"]]
        result.n += 1
        if item.verdict.status == UNDECIDED:
            result.undecided += 1
            continue
        ours = item.verdict.score == 1
        result.acp += ours
        theirs = planbench_verdict(instance)
        if theirs is None:
            continue
        result.judged += 1
        result.planbench += theirs
        if ours == theirs:
            result.agree += 1
            continue
        kind = classify(item, instance)
        result.classes[kind] += 1
        if ours and cross_check is not None:  # the second route: unified-planning's validator on acp's plan
            plan = acp_plan(item) or []
            record = item.prediction.record
            check = unified_planning_verdict(record["PDDL_domain"], record["PDDL_problem"], plan)
            cross_check["unavailable" if check is None else str(check.executes and check.reaches_goal)] += 1
        if len(result.examples[kind]) < examples:
            result.examples[kind].append(
                {
                    "instance": instance["instance_id"],
                    "reason": item.verdict.reason,
                    "acp": acp_plan(item),
                    "planbench": planbench_plan(instance),
                    "response": item.prediction.line["llm_raw_response"],
                }
            )
    return result


def row(name: str, results: list[FileResult]) -> str:
    n = sum(r.n for r in results)
    judged = sum(r.judged for r in results)
    classes = sum((r.classes for r in results), Counter())
    seconds = sum(r.seconds for r in results)
    cpu = sum(r.cpu for r in results)
    cells = " ".join(f"{classes[c]:>5}" if classes[c] else f"{'.':>5}" for c in CLASSES)
    decided = n - sum(r.undecided for r in results)
    acp = sum(r.acp for r in results) / decided if decided else float("nan")
    planbench = sum(r.planbench for r in results) / judged if judged else float("nan")
    llm = "llm" if any(r.llm for r in results) else ""
    return (
        f"{name:<78} {llm:>3} {n:>5} {acp:>6.3f} {planbench:>6.3f} {sum(r.agree for r in results):>5} "
        f"{judged - sum(r.agree for r in results):>5} {cells} {n / seconds if seconds else 0:>7.0f}"
        f" {n / cpu if cpu else 0:>7.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("planbench", type=Path, help="a checkout of github.com/karthikv792/LLMs-Planning")
    parser.add_argument("--only", action="append", default=[], help="score only files whose path holds this")
    parser.add_argument("--exclude", action="append", default=[], help="leave out files whose path holds this")
    parser.add_argument(
        "--planner-timeout",
        type=float,
        default=2.0,
        help="seconds per planner call, asked by the optimality files' valid plans only (acp's default is 20)",
    )
    parser.add_argument("--examples", type=int, default=0, help="disagreements printed per class and file")
    parser.add_argument(
        "--no-cross-check", action="store_true", help="do not ask unified-planning's validator about acp's valid plans"
    )
    parser.add_argument("--json", type=Path, default=None, help="write every file's figures and examples here")
    args = parser.parse_args()
    root = args.planbench
    if not all((root / part / "results").is_dir() for part in PARTS):
        sys.exit(f"{root}: not a PlanBench checkout (it needs {' and '.join(p + '/results' for p in PARTS)})")
    options = ScoreOptions(limits=Limits(time=args.planner_timeout))
    header = f"{'file':<78} {'':>3} {'n':>5} {'acp':>6} {'pb':>6} {'agree':>5} {'dis':>5} " + " ".join(
        f"{c[:5]:>5}" for c in CLASSES
    )
    print(header + f" {'ans/s':>7} {'ans/cpu':>7}")
    done: list[FileResult] = []
    refused: dict[str, str] = {}
    cross_check: Counter[str] | None = None if args.no_cross_check else Counter()
    folders: dict[tuple[Path, str], list[tuple[Path, Path]]] = defaultdict(list)
    for part, path in result_files(root, args.only, args.exclude):
        folders[(part, "/".join(relative(part, path).parts[:2]))].append((part, path))
    for files in folders.values():
        results, skipped = score_folder(files, options, args.examples, cross_check)
        refused |= {str(path.relative_to(root)): why for path, why in skipped.items()}
        for result in results:
            done.append(result)
            print(row(result.path, [result]), flush=True)
            for kind, items in result.examples.items():
                for example in items:
                    print(f"    {kind} instance {example['instance']}: {example['reason']}")
                    print(f"      acp:       {example['acp']}\n      planbench: {example['planbench']}")
    print()
    for name in PARTS:
        mine = [r for r in done if r.path.startswith(SHORT[name] + "/")]
        if mine:
            print(row(f"{SHORT[name]}: {name} ({len(mine)} files)", mine))
    print()
    for engine in sorted({r.engine for r in done}):
        mine = [r for r in done if r.engine == engine]
        print(row(f"engine {engine} ({len(mine)} files)", mine))
    print()
    task1 = [r for r in done if task_kind(r.task) == "plan" and r.task.startswith(("task_1", "t1"))]
    if task1:
        print(row(f"task 1 ({len(task1)} files)", task1))
    if done:
        print(row(f"all ({len(done)} files)", done))
    print(f"\nacp's valid plans that PlanBench rejects, by unified-planning's validator: {dict(cross_check or {})}")
    missing = {r.path: r.undecided for r in done if r.undecided}
    print(
        f"optplan answers whose optimal cost stayed undecided within {args.planner_timeout:g} s per planner call "
        f"(out of acp's accuracy): {missing or 'none'}"
    )
    reasons = Counter(reason.split(":")[0] if reason.startswith("acp") else reason for reason in refused.values())
    print(f"not scored: {len(refused)} files: " + "; ".join(f"{k} ({v})" for k, v in reasons.most_common()))
    for file, reason in refused.items():
        if reason.startswith("acp"):
            print(f"    {file}: {reason}")
    if args.json is not None:
        payload = {"files": [vars(r) | {"classes": dict(r.classes)} for r in done], "not_scored": refused}
        args.json.write_text(json.dumps(payload, indent=1))


if __name__ == "__main__":
    main()
