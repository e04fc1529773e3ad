"""`acp export hf`: a dataset written by `acp dataset` as a folder the Hugging Face hub reads.

The folder has one config per task and format (``app_gen``, ``app_bool``, ``reach_mcq``, ...),
each split as a JSON Lines file (``data/<config>/<split>.jsonl``), and a dataset card
(``README.md``) whose YAML header declares the configs, their data files and the type of every
field, so that ``datasets.load_dataset(OUT, name=config)`` reads the records without guessing.

Field types are inferred from every record of a config (both splits). Objects become structs
(the union of their keys; a key a record lacks is null), lists become lists of the merged type of
their elements. A field whose values cannot be given one type (for example a val sequence that
mixes action names and wrong-action objects) is stored in that config as a JSON string, and the
card names it. The export needs neither `datasets` nor the network.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from acpgen.artefacts import atomic_write_text, jsonl_text
from acpgen.errors import DataError
from acpgen.evaluation.records import read_json_items
from acpgen.generation.benchmark import SPLITS
from acpgen.tasks import TASKS, task_formats

FORMAT_NAMES = {
    "gen": "open-ended (ACPBench-Hard)",
    "bool": "yes/no (ACPBench)",
    "mcq": "multiple choice, A-D (ACPBench)",
}
INT64 = (-(2**63), 2**63 - 1)

# What each record field holds (acpgen/schema.py declares them); a field not listed is shown without text.
FIELD_TEXTS = {
    "id": "signed 64-bit id, stable for a seed and config, unique across the dataset",
    "group": "the reference group name of the task and format",
    "context": "the planning problem in words (and/or PDDL, see `representation`)",
    "question": "the question",
    "answer": "the stored answer (gen: the task's answer shape; bool: yes/no; mcq: A-D)",
    "choices": "mcq: the option texts and their labels",
    "query": "mcq: the question without its options",
    "PDDL_domain": "the PDDL domain",
    "PDDL_problem": "the PDDL problem, with the question's state as `:init`",
    "task": "the task's short name",
    "format": "bool or mcq",
    "domain": "the planning domain",
    "problem": "the generated problem file the question comes from",
    "state": "the question's state (its atoms)",
    "uid": "the question's key within the generation run",
    "representation": "nl, pddl or pddl+nl: what the context contains",
    "plan": "val, just: the plan or action sequence the question shows",
    "action": "prog: the action whose effects are asked for",
    "sequence": "val bool/mcq: the action sequence of the question",
    "variant": "which question text was used",
    "claim": "bool: the claim behind the question",
    "options": "mcq: the claims behind the four options",
    "split": "test or dev",
}

PRETTY_NAME = "acp: generated ACPBench and ACPBench-Hard questions"
BIBTEX = """\
@inproceedings{kokel2025acpbench,
  title     = {{ACPBench}: Reasoning about Action, Change, and Planning},
  author    = {Kokel, Harsha and Katz, Michael and Srinivas, Kavitha and Sohrabi, Shirin},
  booktitle = {Proceedings of the Thirty-Ninth {AAAI} Conference on Artificial Intelligence ({AAAI} 2025)},
  publisher = {{AAAI} Press},
  year      = {2025}
}

@misc{kokel2025acpbenchhard,
  title         = {{ACPBench} Hard: Unrestrained Reasoning about Action, Change, and Planning},
  author        = {Kokel, Harsha and Katz, Michael and Srinivas, Kavitha and Sohrabi, Shirin},
  year          = {2025},
  eprint        = {2503.24378},
  archivePrefix = {arXiv},
  primaryClass  = {cs.AI}
}"""


# -- field types ------------------------------------------------------------------------------
# A type is None (not known yet: only nulls or empty lists seen), ("value", dtype),
# ("list", element type) or ("struct", {name: type}) with the names in first-seen order.


class Mismatch(Exception):
    """Two values of one field have no common type."""


def type_of(value: Any):
    if value is None:
        return None
    if isinstance(value, bool):
        return ("value", "bool")
    if isinstance(value, int):
        if not INT64[0] <= value <= INT64[1]:
            raise Mismatch(f"integer {value} is outside int64")
        return ("value", "int64")
    if isinstance(value, float):
        return ("value", "float64")
    if isinstance(value, str):
        return ("value", "string")
    if isinstance(value, list):
        element = None
        for item in value:
            element = merge(element, type_of(item))
        return ("list", element)
    if isinstance(value, dict):
        return ("struct", {str(k): type_of(v) for k, v in value.items()})
    raise Mismatch(f"a {type(value).__name__} is no JSON value")


def merge(a, b):
    """The type of a field that holds values of types ``a`` and ``b``; Mismatch if none exists."""
    if a is None:
        return b
    if b is None:
        return a
    if a[0] != b[0]:
        raise Mismatch(f"{describe_type(a)} and {describe_type(b)}")
    if a[0] == "value":
        if a != b:
            raise Mismatch(f"{a[1]} and {b[1]}")
        return a
    if a[0] == "list":
        return ("list", merge(a[1], b[1]))
    fields = dict(a[1])
    for name, kind in b[1].items():
        fields[name] = merge(fields.get(name), kind)
    return ("struct", fields)


def describe_type(kind) -> str:
    """A compact text of a type for the card: list<string>, struct{neg: list<string>, ...}."""
    if kind is None:
        return "string"
    if kind[0] == "value":
        return kind[1]
    if kind[0] == "list":
        return f"list<{describe_type(kind[1])}>"
    return "struct{" + ", ".join(f"{n}: {describe_type(k)}" for n, k in kind[1].items()) + "}"


def yaml_feature(name: str | None, kind) -> dict[str, Any]:
    """One feature in the list form of the card's ``dataset_info.features`` (a type never seen
    with a value, only nulls or empty lists, is declared as string)."""
    head: dict[str, Any] = {} if name is None else {"name": name}
    if kind is None or kind[0] == "value":
        return {**head, "dtype": "string" if kind is None else kind[1]}
    if kind[0] == "list":
        inner = yaml_feature(None, kind[1])
        simple = list(inner) == ["dtype"] or list(inner) == ["struct"]  # the short forms datasets writes
        return {**head, "list": next(iter(inner.values())) if simple else inner}
    return {**head, "struct": [yaml_feature(n, k) for n, k in kind[1].items()]}


# -- configs ----------------------------------------------------------------------------------


@dataclass
class HubConfig:
    """One task and format: its records per split, field types and the fields stored as JSON text."""

    task: str
    fmt: str
    sources: dict[str, Path]
    records: dict[str, list[dict]] = field(default_factory=dict)
    columns: dict[str, Any] = field(default_factory=dict)  # name -> type, in record key order
    json_columns: dict[str, str] = field(default_factory=dict)  # name -> why it is JSON text

    @property
    def name(self) -> str:
        return f"{self.task}_{self.fmt}"

    def path(self, split: str) -> str:
        return f"data/{self.name}/{split}.jsonl"


def find_configs(dataset: Path) -> list[HubConfig]:
    """The task/format configs of DATASET/<task>/<split>.<format>.jsonl, in registry order."""
    found: dict[tuple[str, str], dict[str, Path]] = {}
    for path in sorted(dataset.glob("*/*.jsonl")):
        split, _, fmt = path.name[: -len(".jsonl")].partition(".")
        task = path.parent.name
        if split not in SPLITS or fmt not in FORMAT_NAMES:
            continue
        if task not in TASKS:
            raise DataError(
                f"{path}: no task named {task!r} is registered (known: {', '.join(TASKS)}); "
                f"remove the folder or install the package that provides the task"
            )
        found.setdefault((task, fmt), {})[split] = path
    if not found:
        raise DataError(
            f"{dataset}: no <task>/<split>.<format>.jsonl files (e.g. app/test.gen.jsonl); "
            f"pass a folder written by `acp dataset`"
        )
    order = {key: i for i, key in enumerate(task_formats())}
    return [HubConfig(t, f, found[(t, f)]) for t, f in sorted(found, key=lambda key: order[key])]


def load_config_records(config: HubConfig) -> None:
    """Read both splits, infer every field's type over all their records, mark mixed fields as JSON text."""
    config.records = {split: read_json_items(path) for split, path in config.sources.items()}
    everything = [r for split in SPLITS for r in config.records.get(split, [])]
    names: dict[str, None] = {}
    for record in everything:
        names.update(dict.fromkeys(record))
    for name in names:
        kind = None
        try:
            for record in everything:
                kind = merge(kind, type_of(record.get(name)))
        except Mismatch as err:
            config.json_columns[name] = str(err)
            kind = ("value", "string")
        config.columns[name] = kind


def hub_rows(config: HubConfig, split: str) -> list[dict]:
    """The records of a split with the JSON-text fields encoded (every value, null included)."""
    rows = []
    for record in config.records.get(split, []):
        row = dict(record)
        for name in config.json_columns:
            row[name] = json.dumps(record.get(name), ensure_ascii=False)
        rows.append(row)
    return rows


# -- the card ---------------------------------------------------------------------------------


def size_category(total: int) -> str:
    for bound, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if total < bound:
            return label
    return "n>1M"


def card_header(configs: list[HubConfig], license_id: str) -> dict[str, Any]:
    formats = {c.fmt for c in configs}
    categories = ["question-answering"]
    if "gen" in formats:
        categories.append("text-generation")
    if "mcq" in formats:
        categories.append("multiple-choice")
    total = sum(len(rows) for c in configs for rows in c.records.values())
    return {
        "license": license_id,
        "pretty_name": PRETTY_NAME,
        "language": ["en"],
        "task_categories": categories,
        "tags": ["planning", "pddl", "reasoning", "acpbench", "acpbench-hard", "synthetic"],
        "size_categories": [size_category(total)],
        "configs": [
            {
                "config_name": c.name,
                "data_files": [{"split": s, "path": c.path(s)} for s in SPLITS if s in c.sources],
            }
            for c in configs
        ],
        "dataset_info": [
            {
                "config_name": c.name,
                "features": [yaml_feature(n, k) for n, k in c.columns.items()],
            }
            for c in configs
        ],
    }


def table(header: list[str], rows: Iterable[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def card_body(configs: list[HubConfig], manifest: dict[str, Any]) -> list[str]:
    first = configs[0].name
    tasks = list(dict.fromkeys(c.task for c in configs))
    lines = [
        f"# {PRETTY_NAME}",
        "",
        "Planning-reasoning questions generated by acp in the formats of ACPBench "
        "(yes/no and multiple choice) and ACPBench-Hard (open-ended), with provably correct stored answers: "
        "every answer was re-proven by a second route (simulator, exhaustive exploration or a planner) "
        "before it was written.",
        "",
        "```python",
        "from datasets import load_dataset",
        f'ds = load_dataset("PATH_OR_REPO", "{first}", split="test")',
        "```",
        "",
        "## Configs and splits",
        "",
        "One config per task and format; the numbers are records per split.",
        "",
    ]
    rows = [
        [
            f"`{c.name}`",
            c.task,
            FORMAT_NAMES[c.fmt],
            *(str(len(c.records.get(s, []))) for s in SPLITS),
            f"`{describe_type(c.columns.get('answer'))}`",
        ]
        for c in configs
    ]
    lines += table(["config", "task", "format", *SPLITS, "answer type"], rows)
    lines += ["", "## Tasks", ""]
    lines += table(["task", "what is asked"], ([f"`{t}`", TASKS[t].description] for t in tasks))
    lines += ["", "## Fields", ""]
    names = list(dict.fromkeys(n for c in configs for n in c.columns))
    lines += table(["field", "meaning"], ([f"`{n}`", FIELD_TEXTS.get(n, "")] for n in names))
    mixed = [(c.name, n, why) for c in configs for n, why in c.json_columns.items()]
    lines.append("")
    if mixed:
        lines += [
            "Fields whose values have no common type across a config's records are stored there as JSON "
            "text (read them with `json.loads`; every value is encoded, null as `null`):",
            "",
        ]
        lines += [f"* `{config}`: `{name}` ({why})" for config, name, why in mixed]
    else:
        lines.append("Every field has one type within its config; none is stored as JSON text.")
    lines += [
        "",
        "## Scoring",
        "",
        "Answers are scored by acp's exact symbolic scorer, not by string match: open-ended answers are parsed "
        "leniently, every atom and action is matched against the grounded planning task, and the claims that "
        "are hard to decide (reachability, landmarks, optimal next actions) are decided by planners; yes/no "
        "and A-D answers are read from the response's final answer. Score model outputs with",
        "",
        "```bash",
        "acp score predictions.jsonl --dataset data -o scores.jsonl",
        "```",
        "",
        "with acp installed (`make setup` in its repository), from this folder (`--dataset` also takes the "
        'folder `acp dataset` wrote), where each line of `predictions.jsonl` is `{"id": <record id>, '
        '"response": "<model output>"}`; `acp reference-answers data -o gold.jsonl` writes the stored answers '
        "in that form, a check that they all score 1. An answer a planner cannot decide in time is reported "
        "as undecided and left out of the accuracy, never counted as wrong.",
        "",
        "## How it was made",
        "",
    ]
    versions = manifest.get("versions") or {}
    checks = manifest.get("checks") or {}
    made = [
        ("acp version", manifest.get("acp_version")),
        ("seed", manifest.get("seed")),
        ("config sha256", manifest.get("config_sha256")),
        ("code version", manifest.get("code_version")),
        ("representation", manifest.get("representation")),
        ("domains", ", ".join(manifest.get("domains") or [])),
        ("tool versions", ", ".join(f"{k} {v}" for k, v in versions.items())),
        ("stored answers re-proven", ", ".join(f"{k}: {v}" for k, v in (checks.get("validate") or {}).items())),
    ]
    if "answers" in checks:
        made.append(("stored answers scoring 1", f"{checks.get('answers_scored_1')} of {checks['answers']}"))
    lines += [
        "Built with `acp dataset` from its `pipeline.yaml`; the same seed and config give the same records "
        "(`manifest.json` of the source folder):",
        "",
    ]
    lines += table(["", ""], ([k, f"`{v}`"] for k, v in made if v not in (None, "")))
    lines += [
        "",
        "## Citation",
        "",
        "The tasks and formats are those of ACPBench (yes/no, multiple choice) and ACPBench-Hard (open-ended):",
        "",
        "```bibtex",
        BIBTEX,
        "```",
        "",
    ]
    return lines


def dataset_card(configs: list[HubConfig], manifest: dict[str, Any], license_id: str) -> str:
    header = yaml.safe_dump(card_header(configs, license_id), sort_keys=False, allow_unicode=True, width=1000)
    return "---\n" + header + "---\n\n" + "\n".join(card_body(configs, manifest))


# -- export -----------------------------------------------------------------------------------


def read_manifest(dataset: Path) -> dict[str, Any]:
    path = dataset / "manifest.json"
    if not path.is_file():
        raise DataError(f"{path}: missing; export a folder written by `acp dataset` (it writes the manifest)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise DataError(f"{path}: not JSON ({err.msg}); rebuild the dataset with `acp dataset`") from err
    if not isinstance(manifest, dict):
        raise DataError(f"{path}: not a JSON object; rebuild the dataset with `acp dataset`")
    return manifest


def export_hf(dataset: Path, out: Path, license_id: str = "apache-2.0") -> list[Path]:
    """Write OUT/data/<config>/<split>.jsonl and OUT/README.md for DATASET; returns the files written.

    JSONL files of earlier exports under OUT/data that this export does not write are removed, so
    the folder holds exactly the configs of the card."""
    dataset, out = Path(dataset), Path(out)
    manifest = read_manifest(dataset)
    configs = find_configs(dataset)
    written = []
    for config in configs:
        load_config_records(config)
        for split in (s for s in SPLITS if s in config.sources):
            path = out / config.path(split)
            atomic_write_text(path, jsonl_text(hub_rows(config, split), sort_keys=False))
            written.append(path)
    card = out / "README.md"
    atomic_write_text(card, dataset_card(configs, manifest, license_id))
    written.append(card)
    keep = set(written)
    for stale in sorted((out / "data").glob("*/*.jsonl")):
        if stale not in keep:
            stale.unlink()
            if not any(stale.parent.iterdir()):
                stale.parent.rmdir()
    return written
