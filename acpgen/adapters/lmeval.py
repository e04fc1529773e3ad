"""`acp export lm-eval`: lm-evaluation-harness task files for a generated dataset, scored by acp.

For every task and format with a test split ``DATASET/<task>/test.<format>.jsonl`` one YAML file
``acpgen_<task>_<format>.yaml`` is written: the local JSONL splits as the dataset (test split
evaluated, two few-shot examples taken in order from the dev split), greedy decoding, and acp's
own metric: ``process_results`` reads the raw generation with acp's lenient parser and scores it.

* gen (ACPBench-Hard): the ``**Question**: ... **Final Answer**:`` prompt and the stop sequences of
  the reference tasks; answers scored symbolically (planners where needed). A planner that cannot
  decide does not become a silent 0: it is reported as the ``undecided`` metric, and `acp score`
  on the ``--log_samples`` files re-scores every response (with retries and larger budgets).
* bool and mcq (ACPBench): a chain-of-thought prompt ending in ``**Thoughts**:``; the model is asked
  to reason and to end with ``**Final Answer**: Yes/No`` (or a letter A-D), read with acp's yes/no
  and option readers (the same as `acp score`). The few-shot examples are dev records; acp has no
  hand-written reasoning for them, so their answers show the shape only: one true sentence, then
  the final answer.

Tags group the tasks as the reference ACPBench tasks of lm-eval are grouped: one tag per format
and shot setting (``acpgen_gen_2shot``, ``acpgen_bool_cot_2shot``, ``acpgen_mcq_cot_2shot``) and
one per paper (``acpgen_bench_hard`` for gen, ``acpgen_bench`` for bool and mcq). Tasks of another
family (``Task.family``) keep the format tag and get their family's tag instead of the paper's:
the reasoning-about-actions tasks (``rac_*``) are tagged ``acpgen_rac``.

A dataset folder holds one context representation (``acp dataset --representation``). Tasks of a
dataset whose records are in the PDDL form get the suffix ``_with_pddl`` in their names and tags
(``acpgen_app_gen_with_pddl``, tag ``acpgen_bench_hard_with_pddl``), those in the PDDL+NL form
``_with_pddl_nl``; exporting an nl and a pddl dataset into one ``--out`` folder gives both.

The task names start with ``acpgen_`` so that they never clash with lm-eval's built-in ``acp_*``
tasks. lm-eval must run in an environment where acp is installed (the hook module imports it).
"""

from __future__ import annotations

import json
from pathlib import Path

from acpgen.artefacts import atomic_write_text
from acpgen.errors import DataError
from acpgen.evaluation.records import record_task
from acpgen.generation.benchmark import split_file
from acpgen.tasks import TASKS, split_kind, task_formats
from acpgen.tasks.choice import to_response

HOOK_MODULE = "acpgen_lm_eval_hooks"
#: Name suffix of the tasks and tags per context representation (the records' "representation").
SUFFIXES = {"nl": "", "pddl": "_with_pddl", "pddl+nl": "_with_pddl_nl"}
TAG = "acpgen_gen_2shot"
# The gen tasks stop at a blank line (a one-line answer); the chain-of-thought formats may reason
# over several paragraphs and stop only at the next question or a long gap.
STOP = {
    "gen": ["\n\n\n\n", "\n\n", "**Question**:", "**Question:**", "Q:"],
    "bool": ["\n\n\n\n", "**Question**:", "**Question:**", "Q:"],
    "mcq": ["\n\n\n\n", "**Question**:", "**Question:**", "Q:"],
}
MAX_TOKENS = {"gen": 1000, "bool": 1024, "mcq": 1024}
BOOL_INSTRUCTION = (
    "Work it out step by step from the current state, and end with a line **Final Answer**: Yes "
    "or **Final Answer**: No."
)
MCQ_INSTRUCTION = (
    "Work it out step by step, checking each option against the current state, and end with a "
    "line **Final Answer**: followed by the letter (A, B, C or D) of the option that is true."
)
#: The metrics each format reports (gen: planners may leave an answer undecided).
METRICS = {
    "gen": (("score", True), ("undecided", False), ("parse_error", False)),
    "bool": (("score", True), ("parse_error", False)),
    "mcq": (("score", True), ("parse_error", False)),
}


def task_name(task: str, fmt: str = "gen", representation: str = "nl") -> str:
    return f"acpgen_{task}_{fmt}{SUFFIXES[representation]}"


#: The paper tag of a task family and format: ACPBench-Hard (gen) and ACPBench (bool, mcq) as the reference
#: groups its tasks; every format of the reasoning-about-actions family under one tag of its own.
FAMILY_TAGS = {
    ("acpbench", "gen"): "acpgen_bench_hard",
    ("acpbench", "bool"): "acpgen_bench",
    ("acpbench", "mcq"): "acpgen_bench",
    ("rac", "gen"): "acpgen_rac",
    ("rac", "bool"): "acpgen_rac",
    ("rac", "mcq"): "acpgen_rac",
    ("t2p", "gen"): "acpgen_t2p",
    ("plan", "gen"): "acpgen_plan",
    ("plan", "bool"): "acpgen_plan",
    ("plan", "mcq"): "acpgen_plan",
}


def format_tag(fmt: str) -> str:
    """The tag of a format and its shot setting (without the representation suffix)."""
    return "acpgen_gen_2shot" if fmt == "gen" else f"acpgen_{fmt}_cot_2shot"


def tags(fmt: str, representation: str = "nl", family: str = "acpbench") -> list[str]:
    """The tags of a task: its format and shot setting, and its paper (as the reference groups them);
    ``family`` is the task's :attr:`~acpgen.tasks.base.Task.family`."""
    suffix = SUFFIXES[representation]
    try:
        paper = FAMILY_TAGS[(family, fmt)]
    except KeyError:
        known = sorted({f for f, _ in FAMILY_TAGS})
        raise DataError(f"no lm-eval tag for task family {family!r} in format {fmt!r} (families: {known})") from None
    return [f"{format_tag(fmt)}{suffix}", f"{paper}{suffix}"]


def _yaml_string(text: str) -> str:
    # A JSON string is a valid YAML double-quoted scalar.
    return json.dumps(text, ensure_ascii=False)


def prompt(task: str, fmt: str) -> str:
    """The Jinja prompt of a task and format (context and question are record fields)."""
    if fmt == "gen":
        return "**Question**: {{context}} {{question}} " + TASKS[task].instruction + " **Final Answer**:"
    instruction = BOOL_INSTRUCTION if fmt == "bool" else MCQ_INSTRUCTION
    return "**Question**: {{context}} {{question}} " + instruction + " **Thoughts**:"


def task_yaml(task: str, test_file: Path, dev_file: Path, fmt: str = "gen", representation: str = "nl") -> str:
    lines = [
        f"# lm-evaluation-harness task written by `acp export lm-eval` for the acp {task} task, {fmt} format,",
        f"# {representation} contexts.",
        f"task: {task_name(task, fmt, representation)}",
        "tag:",
        *(f"  - {tag}" for tag in tags(fmt, representation, TASKS[task].family)),
        "dataset_path: json",
        "dataset_kwargs:",
        "  data_files:",
        f"    test: {_yaml_string(str(test_file))}",
        f"    dev: {_yaml_string(str(dev_file))}",
        "test_split: test",
        "fewshot_split: dev",
        "num_fewshot: 2",
        "fewshot_config:",
        "  sampler: first_n",
        "output_type: generate_until",
        f"doc_to_text: {_yaml_string(prompt(task, fmt))}",
        f"doc_to_target: !function {HOOK_MODULE}.doc_to_target",
        f"process_results: !function {HOOK_MODULE}.process_results",
        "generation_kwargs:",
        "  until:",
        *(f"    - {_yaml_string(s)}" for s in STOP[fmt]),
        "  do_sample: false",
        "  temperature: 0.0",
        f"  max_gen_toks: {MAX_TOKENS[fmt]}",
        "metric_list:",
    ]
    for metric, higher in METRICS[fmt]:
        lines += [f"  - metric: {metric}", "    aggregation: mean", f"    higher_is_better: {str(higher).lower()}"]
    lines += ["metadata:", "  version: 1.0"]
    return "\n".join(lines) + "\n"


HOOKS = '''"""Hooks of the acpgen_* lm-eval tasks (written by `acp export lm-eval`): acp's parser and scorer."""

from acpgen.adapters.lmeval import doc_to_target, process_results  # noqa: F401
'''


def _representation(path: Path) -> str:
    """The one context representation of a records file ("nl" for records without the field)."""
    found = set()
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            found.add(json.loads(line).get("representation") or "nl")
        except (json.JSONDecodeError, AttributeError):
            raise DataError(f"{path}:{number}: not a JSON record; point to a folder written by `acp dataset`") from None
    unknown = found - set(SUFFIXES)
    if unknown:
        raise DataError(f"{path}: unknown representation {sorted(unknown)} (known: {', '.join(SUFFIXES)})")
    if len(found) > 1:
        raise DataError(
            f"{path}: records of several representations {sorted(found)}; build one dataset per "
            f"representation with `acp dataset --representation`"
        )
    return found.pop() if found else "nl"


def export_lm_eval(dataset: Path, out: Path) -> list[Path]:
    """Write the task YAML files (every task and format of the dataset) and the hook module.

    Returns the YAML files. The task names carry the dataset's representation (see :data:`SUFFIXES`).
    """
    dataset = Path(dataset).resolve()
    splits: list[tuple[str, str, Path, Path]] = []
    for task, fmt in task_formats():
        test_file, dev_file = split_file(dataset, task, "test", fmt), split_file(dataset, task, "dev", fmt)
        if not test_file.exists():
            continue
        if not dev_file.exists() or len(dev_file.read_text().splitlines()) < 2:
            raise DataError(
                f"{dev_file}: the two few-shot examples of {task} ({fmt}) come from the dev split, which "
                f"needs at least 2 records (build the dataset with `make dataset`)"
            )
        splits.append((task, fmt, test_file, dev_file))
    if not splits:
        raise DataError(f"{dataset}: no <task>/test.<format>.jsonl files; point to a folder written by `acp dataset`")
    seen = {path: _representation(path) for _, _, test_file, dev_file in splits for path in (test_file, dev_file)}
    if len(set(seen.values())) > 1:
        listing = "; ".join(f"{path.relative_to(dataset)}: {rep}" for path, rep in sorted(seen.items()))
        raise DataError(
            f"{dataset}: files of different representations ({listing}); a dataset folder holds one "
            f"representation: build one per representation with `acp dataset --representation`"
        )
    representation = next(iter(seen.values()))
    written = []
    for task, fmt, test_file, dev_file in splits:
        path = out / f"{task_name(task, fmt, representation)}.yaml"
        atomic_write_text(path, task_yaml(task, test_file, dev_file, fmt, representation))
        written.append(path)
    atomic_write_text(out / f"{HOOK_MODULE}.py", HOOKS)
    return written


# ----- hooks called by lm-eval -----------------------------------------------------------------------
def _record(doc: dict) -> dict:
    """The record as acp wrote it: the dataset loader fills absent keys with None."""
    return {k: v for k, v in doc.items() if v is not None}


def _kind(record: dict) -> str:
    kind = record_task(record)
    if kind is None:
        raise DataError(f"record {record.get('id')}: no known task (group {record.get('group')!r})")
    return kind


def doc_to_target(doc: dict) -> str:
    """A few-shot example's answer, written the way a model is asked to answer.

    gen: the stored answer on one line. bool/mcq: one true sentence (acp has no worked reasoning for
    a record), then the ``**Final Answer**:`` line that acp's readers take.
    """
    record = _record(doc)
    task, fmt = split_kind(_kind(record))
    if fmt == "gen":
        return " ".join(TASKS[task].to_responses(record)[0].split())
    if fmt == "bool":
        truth = str(record["answer"]).strip().lower() == "yes"
        thought = "Checked against the current state, the statement " + ("holds." if truth else "does not hold.")
    else:
        thought = f"Checked against the current state, only option {str(record['answer']).strip().upper()} is true."
    return f"{thought} {to_response(record, fmt)}"


def process_results(doc: dict, results: list[str]) -> dict[str, float]:
    """Score the first generation with acp: score 1/0 and parse_error, plus undecided for gen."""
    from acpgen.evaluation.scoring import score_answer
    from acpgen.tasks import PARSE_ERROR, UNDECIDED

    record = _record(doc)
    kind = _kind(record)
    verdict = score_answer(record, kind, results[0] if results else "")
    undecided = verdict.status == UNDECIDED
    metrics = {"score": 0.0 if undecided else float(verdict.score), "parse_error": float(verdict.status == PARSE_ERROR)}
    if split_kind(kind)[1] == "gen":
        metrics["undecided"] = float(undecided)
    return metrics
