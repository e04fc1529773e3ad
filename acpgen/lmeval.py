"""`acp export lm-eval`: lm-evaluation-harness task files for a generated dataset, scored by acp.

For every task with a test split under ``DATASET/<task>/`` one YAML file ``acpgen_<task>_gen.yaml``
is written (all tagged ``acpgen_gen_2shot``): the local JSONL splits as the dataset (test split
evaluated, two few-shot examples taken in order from the dev split), the ``**Question**: ...
**Final Answer**:`` prompt and the stop sequences of the reference ACPBench-Hard tasks, greedy
decoding. The metric is acp's own: ``process_results`` parses the raw generation with acp's
lenient parser and scores it symbolically (planners where needed). A planner that cannot decide
does not become a silent 0: it is reported as the ``undecided`` metric, and `acp score` on the
``--log_samples`` files re-scores every response (with retries and larger budgets).

The task names start with ``acpgen_`` so that they never clash with lm-eval's built-in ``acp_*``
tasks. lm-eval must run in an environment where acp is installed (the hook module imports it).
"""

from __future__ import annotations

import json
from pathlib import Path

from acpgen.artefacts import atomic_write_text
from acpgen.errors import DataError
from acpgen.tasks import TASKS

TAG = "acpgen_gen_2shot"
HOOK_MODULE = "acpgen_lm_eval_hooks"
STOP = ["\n\n\n\n", "\n\n", "**Question**:", "**Question:**", "Q:"]


def task_name(task: str) -> str:
    return f"acpgen_{task}_gen"


def _yaml_string(text: str) -> str:
    # A JSON string is a valid YAML double-quoted scalar.
    return json.dumps(text, ensure_ascii=False)


def task_yaml(task: str, test_file: Path, dev_file: Path) -> str:
    prompt = "**Question**: {{context}} {{question}} " + TASKS[task].instruction + " **Final Answer**:"
    lines = [
        f"# lm-evaluation-harness task written by `acp export lm-eval` for the acp {task} task.",
        f"task: {task_name(task)}",
        "tag:",
        f"  - {TAG}",
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
        f"doc_to_text: {_yaml_string(prompt)}",
        f"doc_to_target: !function {HOOK_MODULE}.doc_to_target",
        f"process_results: !function {HOOK_MODULE}.process_results",
        "generation_kwargs:",
        "  until:",
        *(f"    - {_yaml_string(s)}" for s in STOP),
        "  do_sample: false",
        "  temperature: 0.0",
        "  max_gen_toks: 1000",
        "metric_list:",
        "  - metric: score",
        "    aggregation: mean",
        "    higher_is_better: true",
        "  - metric: undecided",
        "    aggregation: mean",
        "    higher_is_better: false",
        "  - metric: parse_error",
        "    aggregation: mean",
        "    higher_is_better: false",
        "metadata:",
        "  version: 1.0",
    ]
    return "\n".join(lines) + "\n"


HOOKS = '''"""Hooks of the acpgen_* lm-eval tasks (written by `acp export lm-eval`): acp's parser and scorer."""

from acpgen.lmeval import doc_to_target, process_results  # noqa: F401
'''


def export_lm_eval(dataset: Path, out: Path) -> list[Path]:
    """Write the task YAML files and the hook module; returns the YAML files."""
    dataset = Path(dataset).resolve()
    written = []
    for task in TASKS:
        test_file, dev_file = dataset / task / "test.gen.jsonl", dataset / task / "dev.gen.jsonl"
        if not test_file.exists():
            continue
        if not dev_file.exists() or len(dev_file.read_text().splitlines()) < 2:
            raise DataError(
                f"{dev_file}: the two few-shot examples of {task} come from the dev split, which needs "
                f"at least 2 records (build the dataset with `make dataset`)"
            )
        path = out / f"{task_name(task)}.yaml"
        atomic_write_text(path, task_yaml(task, test_file, dev_file))
        written.append(path)
    if not written:
        raise DataError(f"{dataset}: no <task>/test.gen.jsonl files; point to a folder written by `acp dataset`")
    atomic_write_text(out / f"{HOOK_MODULE}.py", HOOKS)
    return written


# ----- hooks called by lm-eval -----------------------------------------------------------------------
def _record(doc: dict) -> dict:
    """The record as acp wrote it: the dataset loader fills absent keys with None."""
    return {k: v for k, v in doc.items() if v is not None}


def doc_to_target(doc: dict) -> str:
    """A few-shot example's answer, written the way a model is asked to answer (one line)."""
    record = _record(doc)
    return " ".join(TASKS[record["task"]].to_responses(record)[0].split())


_PLANNERS = None


def process_results(doc: dict, results: list[str]) -> dict[str, float]:
    """Score the first generation with acp: score 1/0, plus undecided and parse_error indicators."""
    global _PLANNERS
    from acpgen.planners import PlannerSetup
    from acpgen.scoring import score_one
    from acpgen.tasks import PARSE_ERROR, UNDECIDED, RecordContext, ScoreOptions

    if _PLANNERS is None:
        _PLANNERS = PlannerSetup().build()
    record = _record(doc)
    verdict = score_one(RecordContext(record, ScoreOptions(), _PLANNERS), record["task"], results[0] if results else "")
    undecided = verdict.status == UNDECIDED
    return {
        "score": 0.0 if undecided else float(verdict.score),
        "undecided": float(undecided),
        "parse_error": float(verdict.status == PARSE_ERROR),
    }
