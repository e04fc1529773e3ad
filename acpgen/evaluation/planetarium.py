"""Planetarium's dataset schema, both ways: acp's t2p records as Planetarium rows, and its rows as t2p records.

A row of Planetarium's ``problems`` table (its Hugging Face dataset has the same columns) is one text-to-PDDL
pair: ``id`` (an integer), ``name``, ``domain`` (a key of its ``domains`` table, whose rows are ``name`` and
``domain_pddl``), ``init`` and ``goal`` (the names of the initial and goal configurations, such as ``on_table``
or ``stack``), ``num_objects``, ``problem_pddl`` (the truth), ``natural_language`` (the description),
``init_is_abstract`` and ``goal_is_abstract`` (0/1), ``init_num_propositions`` and ``goal_num_propositions``
(the facts of the truth's ``:init`` and the literals of its goal) and ``is_placeholder`` (0/1: the goal names no
particular objects, so any objects that fit it are right). Planetarium cuts its results by abstraction (the
two flags) and by size (the two counts added, in bands of 20: :func:`acpgen.tasks.text_to_pddl.size_band`).

:func:`row_of` writes a t2p record as such a row (``init``/``goal``: the record's pattern names, ``explicit``
for an explicit part; ``natural_language``: the record's context without the PDDL domain, which Planetarium
gives apart); :func:`record_of` reads a row back as a t2p record over the row's domain PDDL, so that
``acp score`` judges answers to Planetarium's own rows with acp's equivalence check (``parseable``,
``solvable``, ``equivalent``: the three rates Planetarium reports). :func:`write_rows` is ``acp export
planetarium``: one JSONL and one Parquet file per split, and the domains table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from acpgen.artefacts import atomic_write_text, jsonl_text, write_splits
from acpgen.errors import DataError, PddlError
from acpgen.evaluation.records import dataset_files, numbered_json_items, record_task
from acpgen.generators import DOMAINS, domain_file
from acpgen.pddl.model import declared_domain_name
from acpgen.pddl.tarski_io import read_strings
from acpgen.tasks.text_to_pddl import ABSTRACT, EXPLICIT, NO_PATTERN, pattern_class, size_band

COLUMNS = (
    "id",
    "name",
    "domain",
    "init",
    "goal",
    "num_objects",
    "problem_pddl",
    "natural_language",
    "init_is_abstract",
    "init_num_propositions",
    "goal_is_abstract",
    "goal_num_propositions",
    "is_placeholder",
)
#: the columns that tell a Planetarium row from other objects
_KEY_COLUMNS = ("problem_pddl", "natural_language", "init_is_abstract", "goal_is_abstract", "is_placeholder")
DOMAINS_FILE = "domains.jsonl"  # Planetarium's domains table: {"name", "domain_pddl"} per line
_PDDL_DOMAIN_MARK = "\n\nPDDL domain:"


def is_row(item: Mapping[str, Any]) -> bool:
    """Whether an object is a row of Planetarium's problems table."""
    return all(column in item for column in _KEY_COLUMNS)


# ----- acp records -> rows --------------------------------------------------------------------------------
def row_of(record: Mapping[str, Any]) -> dict[str, Any]:
    """A t2p record as a Planetarium row (its id is the record's, so predictions name either)."""
    if record.get("task") != "t2p" and record.get("group") != "text_to_pddl_gen":
        raise DataError(f"record {record.get('id')}: not a t2p record (Planetarium rows are text-to-PDDL pairs)")
    truth = str(record["PDDL_problem"])
    try:
        lifted = read_strings(str(record["PDDL_domain"]), truth, f"record {record.get('id')}")
    except PddlError as err:
        raise DataError(f"record {record.get('id')}: its PDDL does not parse ({err})") from err
    parts = {part: (record.get(f"{part}_pattern") or NO_PATTERN).get("name") or "" for part in ("init", "goal")}
    problem = str(record.get("problem", "")).removesuffix(".pddl")
    domain = str(record.get("domain") or lifted.domain_name)
    init, goal = parts["init"] or EXPLICIT, parts["goal"] or EXPLICIT
    return {
        "id": record["id"],
        "name": "_".join(p for p in (domain, f"{init}_to_{goal}", problem, str(record.get("state", ""))) if p),
        "domain": domain,
        "init": init,
        "goal": goal,
        "num_objects": sum(1 for o in lifted.objects if o not in lifted.constants),
        "problem_pddl": truth,
        "natural_language": str(record.get("context", "")).split(_PDDL_DOMAIN_MARK, 1)[0],
        "init_is_abstract": int(bool(parts["init"])),
        "init_num_propositions": len(lifted.init),
        "goal_is_abstract": int(bool(parts["goal"])),
        "goal_num_propositions": len(lifted.goal),
        "is_placeholder": int(bool(record.get("placeholder"))),
    }


def _split_of(record: Mapping[str, Any], path: Path) -> str:
    """A record's split: its ``split`` field, else the part of its file name before the first dot when it
    names one (``test.gen.jsonl``), else ``test``."""
    if record.get("split"):
        return str(record["split"])
    head = path.name.split(".", 1)[0]
    return head if head in ("test", "dev", "train") else "test"


def write_rows(dataset: Path, out: Path, parquet: bool = True) -> list[Path]:
    """``acp export planetarium``: the t2p records of a records file or folder as Planetarium rows,
    ``OUT/<split>.jsonl`` (and ``OUT/<split>.parquet`` through the ``datasets`` package), and the domains
    table ``OUT/domains.jsonl``; the paths written."""
    by_split: dict[str, list[dict[str, Any]]] = {}
    domains: dict[str, str] = {}
    for file in dataset_files(dataset):
        for _, record in numbered_json_items(file):
            if record_task(record) != "t2p":
                continue
            row = row_of(record)
            by_split.setdefault(_split_of(record, file), []).append(row)
            domains.setdefault(row["domain"], str(record["PDDL_domain"]))
    if not by_split:
        raise DataError(f"{dataset}: no t2p records (Planetarium rows are text-to-PDDL pairs)")
    written = write_splits(out, by_split)
    if parquet:
        written += [_write_parquet(rows, out / f"{split}.parquet") for split, rows in sorted(by_split.items())]
    table = [{"name": name, "domain_pddl": text} for name, text in sorted(domains.items())]
    atomic_write_text(out / DOMAINS_FILE, jsonl_text(table, sort_keys=False))
    return [*written, out / DOMAINS_FILE]


def _write_parquet(rows: list[dict[str, Any]], path: Path) -> Path:
    try:
        import datasets
    except ImportError as err:
        raise DataError("writing Parquet needs the datasets package (pip install 'acpgen[hf]')") from err
    datasets.disable_progress_bars()
    datasets.Dataset.from_list(rows).to_parquet(str(path))
    return path


# ----- rows -> acp records --------------------------------------------------------------------------------
def read_domains(pairs: Iterable[str], rows: Path | None = None) -> dict[str, str]:
    """Domain name -> PDDL text: the ``NAME=PATH`` pairs of ``--domain-file``, after the domains table
    (``domains.jsonl``) beside ``rows`` if there is one; DataError for a malformed pair or a missing file."""
    found: dict[str, str] = {}
    folder = None if rows is None else (rows if rows.is_dir() else rows.parent)
    if folder is not None and (folder / DOMAINS_FILE).is_file():
        for where, item in numbered_json_items(folder / DOMAINS_FILE):
            if not isinstance(item.get("name"), str) or not isinstance(item.get("domain_pddl"), str):
                raise DataError(f"{where}: a domains table row needs 'name' and 'domain_pddl'")
            found[item["name"]] = item["domain_pddl"]
    for pair in pairs:
        name, sep, path = pair.partition("=")
        if not sep or not name or not path:
            raise DataError(f"--domain-file {pair!r}: expected NAME=PATH (e.g. blocksworld=blocksworld.pddl)")
        try:
            found[name] = Path(path).read_text(encoding="utf-8")
        except OSError as err:
            raise DataError(f"--domain-file {pair!r}: cannot read {path} ({err})") from err
    return found


def _domain_text(row: Mapping[str, Any], domains: Mapping[str, str], where: str) -> str:
    name = str(row.get("domain", ""))
    if name in domains:
        return domains[name]
    if name in DOMAINS:
        return domain_file(name).read_text(encoding="utf-8")
    raise DataError(
        f"{where}: no PDDL for domain {name!r}: pass --domain-file {name}=PATH (Planetarium's domain files: "
        "blocksworld, gripper, floor-tile, rover-single) or put its domains table (domains.jsonl) beside the rows"
    )


def record_of(row: Mapping[str, Any], domains: Mapping[str, str], where: str) -> dict[str, Any]:
    """A Planetarium row as a t2p record over its domain's PDDL; DataError naming the row when a column is
    missing or its truth is no problem of that domain."""
    missing = [c for c in COLUMNS if c not in row and c not in ("name", "num_objects")]
    if missing:
        raise DataError(f"{where}: a Planetarium row without {', '.join(missing)}")
    domain_text = _domain_text(row, domains, where)
    truth = str(row["problem_pddl"])
    try:
        read_strings(domain_text, truth, where)
    except PddlError as err:
        raise DataError(
            f"{where}: its problem_pddl is no problem of the domain given for {row['domain']!r} ({err}); "
            f"pass that domain's file with --domain-file {row['domain']}=PATH"
        ) from err
    if declared_domain_name(domain_text) is None:
        raise DataError(f"{where}: the PDDL given for domain {row['domain']!r} declares no domain")
    parts = {
        part: (str(row[part]) if row.get(part) else EXPLICIT, bool(row[f"{part}_is_abstract"]))
        for part in ("init", "goal")
    }
    size = int(row["init_num_propositions"]) + int(row["goal_num_propositions"])
    return {
        "id": row["id"],
        "group": "text_to_pddl_gen",
        "task": "t2p",
        "domain": str(row["domain"]),
        "context": str(row["natural_language"]),
        "question": "",
        "answer": truth,
        "PDDL_domain": domain_text,
        "PDDL_problem": truth,
        "abstraction": "_".join(ABSTRACT if abstract else EXPLICIT for _, abstract in parts.values()),
        "placeholder": bool(row["is_placeholder"]),
        "size": size,
        "size_band": size_band(size),
        "pattern_class": pattern_class(parts["init"][0], parts["goal"][0]),
        "source": "planetarium",
    }
