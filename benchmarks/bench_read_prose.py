"""`make bench-read-prose`: how well acp reads correct answers written the way real models write them.

For every record of the chosen tasks (gen, bool and mcq formats; made with `acpgen.generate` at
``--level`` for ``--domains``, saved in ``--cache`` and read from there by later runs with the same
settings unless ``--fresh``) and every stored correct answer (up to ``--answers`` per record: reach,
areach, land, nexta and just store several), each style of ``benchmarks/prose_styles.py`` writes the
answer as a model would: ``bare`` (the reference format, what `acpgen.reference_answer` writes),
``final_marker`` (reasoning, then ``**Final Answer**:``), ``revised`` (a wrong first attempt, "Wait,
let me reconsider.", the final answer), ``restated`` (worked through, then restated under a heading),
``markdown_steps`` (numbered bold steps in the template's English with an explanation line under
each), ``sentences`` (prose in the template's English) and ``pddl_lines`` (numbered PDDL lines). A
style that is not natural for an answer (numbered steps for a yes/no answer) writes nothing: n/a.

Each response is scored with ``acpgen.score(record, response)`` (the default, lenient reading) and with
``strict=True`` (the strict reading of rewards, ``ScoreOptions.strict_reading``). Recall is the share of
correct answers scoring 1. To measure false positives, each correct answer gets a wrong twin of the
same kind, written in the same style: a set missing its last element or with one element added, a plan
without its last (or first) step, another atom or action, an index, count or step number one off,
another verdict, the flipped yes/no, the next option letter, a PDDL problem without one goal or initial
atom. A twin is proven wrong before it is used: its ``bare`` rendering (the reference format, which acp
reads exactly) must score 0 with status ``scored``; the first candidate that does is kept, and answers
for which none does are counted (column ``skip``) and get no twin. A false positive is a twin that scores 1
in some style. Every missed correct answer and every false positive, with its response and the
verdict's reason, goes to ``<cache>/failures.jsonl``; the cells to ``<cache>/summary.json``.

**No plan exists.** The rows ``plan unsolvable`` and ``optplan unsolvable`` are records about a state from which
no plan reaches the goal (``"solvable": false``, no plan). Until acp's generation makes such records, the benchmark
makes them itself from its plan and optplan records: the goal gets one more atom that contradicts it (the first
goal atom with its two arguments swapped, or its last argument replaced by another object of its type: a block
on the block that stands on it, a car at two places), the first whose goal no plan reaches as
:func:`acpgen.proofs.unsolvable.prove_unsolvable` proves by two procedures (acp's own, no planner); a record for
which none is proven is left out. Their correct answer says that no plan exists, in each style's phrasing (an
empty plan with the statement in ``markdown_steps`` and ``pddl_lines``); each has two wrong twins in the same
style: a plan offered (applicable actions from the state, which cannot reach the goal), and the statement that
no plan exists scored on the record it was made from, whose state has a plan. Records without a plan that the
generation made are read as they are, with the first twin only.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import re
import sys
import time
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from common import chosen_domains
from prose_styles import NOPLAN, PLAN, STYLES, Answer, Words, bare, correct_answers, twin_candidates

import acpgen
from acpgen.api import ground_task
from acpgen.config import load_config
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import canonical, split_canonical
from acpgen.proofs.unsolvable import prove_unsolvable
from acpgen.tasks import TASKS, task_formats

READINGS = {"default": False, "strict": True}
MAX_TWIN_TRIES = 6
LABEL = 19  # characters of the task column


@dataclass
class Cell:
    """The scores of one row (task and format), style and reading."""

    n: int = 0  # correct answers written in this style
    ones: int = 0  # ... scoring 1
    parse_errors: int = 0
    undecided: int = 0
    twins: int = 0  # wrong twins written in this style
    false_positives: int = 0  # ... scoring 1

    def add(self, other: Cell) -> None:
        for name in ("n", "ones", "parse_errors", "undecided", "twins", "false_positives"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def text(self, full_n: int) -> str:
        if not self.n and not self.twins:
            return "n/a"
        recall = self.ones / self.n if self.n else float("nan")
        mark = "*" if self.n < full_n else " "
        return f"{recall:4.2f}{mark}{self.false_positives}/{self.parse_errors}"


@dataclass
class Row:
    """A task and format: its answers, twins and cells by (style, reading)."""

    answers: int = 0
    twins: int = 0
    skipped: int = 0
    cells: dict[tuple[str, str], Cell] = field(default_factory=lambda: defaultdict(Cell))


def row_name(record: dict) -> str:
    fmt = record.get("format", "gen")
    name = record["task"] if fmt == "gen" else f"{record['task']}.{fmt}"
    return f"{name} unsolvable" if record.get("solvable") is False else name


# ----- records -----------------------------------------------------------------------------------------
def load_records(args: argparse.Namespace, domains: list[str], tasks: list[str]) -> list[dict]:
    """The records of every domain (a built-in one's name, or the folder of a user's domain), task and format:
    those saved in ``<cache>/records`` for the same settings, else made with `acpgen.generate` (its stages
    write to ``<cache>/generated``) and saved there."""
    records = []
    for domain in domains:
        own = own_domain(domain)
        settings = {"n": args.n, "seed": args.seed, "level": None if own else args.level, "config": args.config}
        if own:  # the user's files, by content: an edited template makes the records again
            settings["files"] = sorted(f"{p.relative_to(domain)}:{hash_of(p)}" for p in Path(domain).rglob("*.*"))
        for task, fmt in task_formats(args.formats.split(","), tasks):
            path = args.cache / "records" / f"{Path(domain).name}.{task}.{fmt}.json"
            saved = json.loads(path.read_text(encoding="utf-8")) if path.exists() and not args.fresh else {}
            if saved.get("settings") != settings:
                saved = {"settings": settings, "records": generated(args, domain, task, fmt)}
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(saved) + "\n", encoding="utf-8")
            records += saved["records"]
    return records


def own_domain(domain: str) -> dict[str, Path] | None:
    """The files of a user's domain given as a folder (``domain.pddl``, ``problems/``, ``template.yaml``, the
    layout of tests/fixtures/byod/<name>), as `acpgen.generate` takes them; None for a built-in domain."""
    folder = Path(domain)
    if not (folder / "domain.pddl").is_file():
        return None
    return {
        "domain_file": folder / "domain.pddl",
        "problems": folder / "problems",
        "template": folder / "template.yaml",
    }


def hash_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def generated(args: argparse.Namespace, domain: str, task: str, fmt: str) -> list[dict]:
    own = own_domain(domain)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", acpgen.GenerationShortfall)
        made = acpgen.generate(
            None if own else domain,
            task,
            n=args.n,
            seed=args.seed,
            level=None if own else args.level,
            format=fmt,
            config=args.config,
            cache_dir=args.cache / "generated",
            **(own or {}),
        )
        records = list(made)
    for warning in caught:
        if issubclass(warning.category, acpgen.GenerationShortfall):
            print(f"note: {str(warning.message)[:160]}", file=sys.stderr)
    return records


# ----- records from whose state no plan exists ---------------------------------------------------------
def with_goal(problem: str, atoms: list[str]) -> str:
    """A PDDL problem text with its goal replaced by the conjunction of ``atoms``."""
    start = problem.find("(:goal")
    depth = 0
    for end in range(start, len(problem)):
        depth += {"(": 1, ")": -1}.get(problem[end], 0)
        if depth == 0:
            break
    return f"{problem[:start]}(:goal (and {' '.join(atoms)})){problem[end + 1 :]}"


def contradictions(task: GroundTask) -> list[str]:
    """Atoms that contradict the goal's first atom of two or more arguments: its first two arguments swapped,
    then its last argument replaced by another object of its type."""
    for atom in task.atoms.atoms(task.goal_pos):
        name, args = split_canonical(atom)
        if len(args) < 2:
            continue
        candidates = [canonical(name, (args[1], args[0], *args[2:]))]
        kinds = task.lifted.predicates.get(name, ())
        others = sorted(set(task.lifted.objects_of(kinds[-1])) - {args[-1]}) if kinds else []
        candidates += [canonical(name, (*args[:-1], other)) for other in others]
        return [c for c in candidates if task.is_valid_atom(c) and c != atom]
    return []


def unsolvable_from(record: dict) -> dict | None:
    """The record with one goal atom more that contradicts its goal, proven unsolvable (the benchmark's docstring);
    None when no candidate is proven. Its stored fields are those of the contract: ``"solvable": false``, no plan,
    no optimal cost; its uid marks it as proven (the benchmark proved it)."""
    task = ground_task(record)
    goal = task.atoms.atoms(task.goal_pos)
    for extra in contradictions(task)[:6]:
        problem = with_goal(record["PDDL_problem"], [*goal, extra])
        if prove_unsolvable(GroundTask.from_strings(record["PDDL_domain"], problem)).proven:
            made = {k: v for k, v in record.items() if k != "optimal_cost"}
            return made | {
                "PDDL_problem": problem,
                "answer": None,
                "solvable": False,
                "uid": f"{record['uid']}-no-plan",
            }
    return None


def unsolvable_records(records: list[dict]) -> list[tuple[dict, dict]]:
    """(record without a plan, the record it was made from) for the benchmark's plan and optplan records (those of
    solvable states: a generated record without a plan is read as it is)."""
    made = []
    for record in records:
        if record["task"] in ("plan", "optplan") and record.get("format", "gen") == "gen" and record["answer"]:
            unsolvable = unsolvable_from(record)
            if unsolvable is not None:
                made.append((unsolvable, record))
    return made


# ----- twins and scoring -------------------------------------------------------------------------------
def proven_twin(record: dict, answer: Answer, words: Words) -> Answer | None:
    """The first wrong twin whose bare rendering scores 0 (status scored); None when none does."""
    for tries, candidate in enumerate(twin_candidates(record, answer, words)):
        if tries >= MAX_TWIN_TRIES:
            break
        verdict = acpgen.score(record, bare(record, candidate, words))
        if verdict.status == "scored" and verdict.score == 0:
            return candidate
    return None


@dataclass(frozen=True)
class Case:
    """One response to score: a correct answer or its twin, in one style."""

    record: dict
    style: str
    response: str
    correct: bool
    expected: str  # the correct answer's bare rendering


def cases_of(record: dict, row: Row, styles: list[str], per_record: int, source: dict | None = None) -> Iterator[Case]:
    """The correct answers of a record and their twins in every style; ``source``: for a record without a plan, the
    record it was made from, on which "no plan exists" is a second twin (proven wrong: its bare form scores 0)."""
    words = Words(record)
    for answer in correct_answers(record)[:per_record]:
        twin = proven_twin(record, answer, words)
        row.answers += 1
        row.twins += twin is not None
        row.skipped += twin is None
        answer = dataclasses.replace(answer, other=twin)
        expected = bare(record, answer, words) or ""
        pairs = [(answer, True)] + ([(dataclasses.replace(twin, other=answer), False)] if twin else [])
        for style in styles:
            for written, correct in pairs:
                text = STYLES[style](record, written, words)
                if text is not None:
                    yield Case(record, style, text, correct, expected)
        if answer.kind == NOPLAN and source is not None:
            yield from _no_plan_twins(source, row, styles, expected)


def _no_plan_twins(source: dict, row: Row, styles: list[str], expected: str) -> Iterator[Case]:
    """ "No plan exists" on a record whose state has a plan, in every style (revised: its plan first)."""
    words = Words(source)
    said = Answer(NOPLAN, None, other=Answer(PLAN, list(source["answer"])))
    if acpgen.score(source, bare(source, said, words)).score != 0:
        return
    row.twins += 1
    for style in styles:
        text = STYLES[style](source, said, words)
        if text is not None:
            yield Case(source, style, text, False, expected)


def score_case(case: Case, row: Row, failures: list[dict]) -> None:
    for reading, strict in READINGS.items():
        verdict = acpgen.score(case.record, case.response, strict=strict)
        cell = row.cells[(case.style, reading)]
        one = verdict.status == "scored" and verdict.score == 1
        if case.correct:
            cell.n += 1
            cell.ones += one
            cell.parse_errors += verdict.status == "parse_error"
            cell.undecided += verdict.status == "undecided"
        else:
            cell.twins += 1
            cell.false_positives += one
        if one != case.correct:
            failures.append(failure(case, reading, verdict))


def failure(case: Case, reading: str, verdict: acpgen.Score) -> dict:
    record = case.record
    return {
        "id": record["id"],
        "uid": record.get("uid"),
        "domain": record.get("domain"),
        "task": row_name(record),
        "style": case.style,
        "reading": reading,
        "case": "missed" if case.correct else "false_positive",
        "status": verdict.status,
        "score": verdict.score,
        "reason": verdict.reason,
        "response": case.response,
        "correct_answer": case.expected,
    }


def check_bare(records: list[dict]) -> int:
    """Records whose first correct answer, written bare, differs from `acpgen.reference_answer`."""
    differ = 0
    for record in records:
        answer = correct_answers(record)[0]
        differ += bare(record, answer, Words(record)) != acpgen.reference_answer(record)
    return differ


# ----- the report -------------------------------------------------------------------------------------
def totals(rows: dict[str, Row], styles: list[str], reading: str) -> tuple[dict[str, Cell], dict[str, Cell]]:
    """The cells summed over styles (per row) and over rows (per style)."""
    by_row: dict[str, Cell] = defaultdict(Cell)
    by_style: dict[str, Cell] = defaultdict(Cell)
    for name, row in rows.items():
        for style in styles:
            cell = row.cells.get((style, reading))
            if cell is not None:
                by_row[name].add(cell)
                by_style[style].add(cell)
    return by_row, by_style


def print_table(rows: dict[str, Row], styles: list[str], reading: str) -> None:
    by_row, by_style = totals(rows, styles, reading)
    widths = [max(11, len(s) + 1) for s in styles]
    print(f"\nreading: {reading}" + (" (acpgen.score(..., strict=True))" if READINGS[reading] else " (acpgen.score)"))
    head = "".join(f"{s:>{w}}" for s, w in zip(styles, widths))
    print(f"{'task':{LABEL}}{'n':>4}{'twins':>6}{'skip':>5}{head}{'all':>11}")
    for name, row in rows.items():
        cells = "".join(f"{row.cells[(s, reading)].text(row.answers):>{w}}" for s, w in zip(styles, widths))
        print(f"{name:{LABEL}}{row.answers:>4}{row.twins:>6}{row.skipped:>5}{cells}{by_row[name].text(0):>11}")
    everything = Cell()
    for cell in by_style.values():
        everything.add(cell)
    answers = sum(r.answers for r in rows.values())
    twins, skipped = sum(r.twins for r in rows.values()), sum(r.skipped for r in rows.values())
    cells = "".join(f"{by_style[s].text(0):>{w}}" for s, w in zip(styles, widths))
    print(f"{'all':{LABEL}}{answers:>4}{twins:>6}{skipped:>5}{cells}{everything.text(0):>11}")
    undecided = sum(c.undecided for c in by_style.values())
    print(
        f"responses: {everything.n} correct ({everything.ones} scored 1), {everything.twins} wrong twins "
        f"({everything.false_positives} scored 1); undecided: {undecided}"
    )


def summary(rows: dict[str, Row]) -> dict:
    return {
        name: {
            "answers": row.answers,
            "twins": row.twins,
            "skipped": row.skipped,
            "cells": {f"{s}/{r}": dataclasses.asdict(c) for (s, r), c in sorted(row.cells.items())},
        }
        for name, row in rows.items()
    }


def reason_key(reason: str) -> str:
    """A verdict's reason with its particulars blanked (actions, atoms, quoted parts, numbers)."""
    text = re.sub(r"\b(step \d+) [^:]*:", r"\1 …:", reason)  # a plan step as read, before its verdict
    text = re.sub(r"\((?:[^()]|\([^()]*\))*\)", "(…)", text)
    text = re.sub(r"'[^']*'", "'…'", text)
    return re.sub(r"\d+", "N", text)[:110]


def print_examples(failures: list[dict], count: int) -> None:
    print(f"\nup to {count} failures per task and style (default reading first):")
    shown: Counter[tuple[str, str]] = Counter()
    for item in sorted(failures, key=lambda f: (f["task"], f["style"], f["reading"] != "default")):
        key = (item["task"], item["style"])
        if shown[key] >= count:
            continue
        shown[key] += 1
        print(f"--- {item['task']} / {item['style']} / {item['reading']} / {item['case']}: {item['reason'][:200]}")
        print("    " + item["response"][:700].replace("\n", "\n    "))


def print_reasons(failures: list[dict], count: int) -> None:
    print(f"\nthe {count} most common failure reasons per task (both readings; one example each):")
    by_task: dict[str, list[dict]] = defaultdict(list)
    for item in failures:
        by_task[item["task"]].append(item)
    for task, items in by_task.items():
        keys = Counter((i["case"], reason_key(i["reason"])) for i in items)
        print(f"{task}: {len(items)} failures")
        for (case, key), k in keys.most_common(count):
            example = next(i for i in items if (i["case"], reason_key(i["reason"])) == (case, key))
            short = example["response"][:160].replace("\n", " | ")
            print(f"  {k:>4} {case}: {key}\n       e.g. [{example['style']}, {example['reading']}] {short}")


# ----- main -----------------------------------------------------------------------------------------------
def chosen(text: str | None, known: list[str], what: str) -> list[str]:
    if not text:
        return known
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in known]
    if unknown:
        sys.exit(f"--{what}: unknown {', '.join(unknown)}; choose from {', '.join(known)}")
    return names


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=None, help="pipeline config to generate from (default: acp's)")
    parser.add_argument(
        "--domains",
        default="ferry,grippers,blocksworld",
        help="comma-separated built-in domains, or folders of your own (domain.pddl, problems/, template.yaml; "
        "e.g. tests/fixtures/byod/courier), generated without a level",
    )
    parser.add_argument("--tasks", default=None, help="comma-separated tasks (default: all 18)")
    parser.add_argument("--formats", default="gen,bool,mcq")
    parser.add_argument("--styles", default=None, help=f"comma-separated styles (default: {', '.join(STYLES)})")
    parser.add_argument("-n", "--n", type=int, default=15, help="records per domain, task and format")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", type=int, default=2)
    parser.add_argument("--answers", type=int, default=3, help="correct answers used per record at most")
    parser.add_argument("--cache", type=Path, default=Path("out/bench-read-prose"), help="records and results")
    parser.add_argument("--fresh", action="store_true", help="generate the records again (not from --cache)")
    parser.add_argument("--examples", type=int, default=0, help="print this many failures per task and style")
    parser.add_argument("--reasons", type=int, default=0, help="print the most common failure reasons per task")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    start = time.perf_counter()
    names = [d.strip() for d in args.domains.split(",") if d.strip()]
    own = [d for d in names if own_domain(d)]
    config = load_config(Path(args.config) if args.config else None)
    builtin = chosen_domains(config, ",".join(d for d in names if d not in own))
    domains = [d for d in names if d in own or d in builtin]
    tasks = chosen(args.tasks, list(TASKS), "tasks")
    styles = chosen(args.styles, list(STYLES), "styles")
    records = load_records(args, domains, tasks)
    made = unsolvable_records(records)
    generated = time.perf_counter()
    rows: dict[str, Row] = {}
    failures: list[dict] = []
    sources = {id(record): source for record, source in made}
    every = records + [record for record, _ in made]
    for record in sorted(every, key=lambda r: (list(TASKS).index(r["task"]), r.get("solvable") is False)):
        row = rows.setdefault(row_name(record), Row())
        for case in cases_of(record, row, styles, args.answers, sources.get(id(record))):
            score_case(case, row, failures)
    differ = check_bare(every)
    args.cache.mkdir(parents=True, exist_ok=True)
    with open(args.cache / "failures.jsonl", "w", encoding="utf-8") as out:
        out.writelines(json.dumps(f) + "\n" for f in failures)
    (args.cache / "summary.json").write_text(json.dumps(summary(rows), indent=1) + "\n", encoding="utf-8")
    print(
        f"{len(records)} records ({', '.join(domains)}; level {args.level}, n={args.n}, seed {args.seed}) and "
        f"{len(made)} made from their plan records without a plan; generation {generated - start:.1f} s, scoring "
        f"{time.perf_counter() - generated:.1f} s"
    )
    print(
        "cell: recall (share of correct answers scoring 1), then false positives/parse errors (proven-wrong twins "
        "scoring 1 / correct answers not read); *: the style is n/a for some answers of the row; n: correct answers; "
        "twins: their proven-wrong twins; skip: answers without one"
    )
    for reading in READINGS:
        print_table(rows, styles, reading)
    if differ:
        print(f"\nwarning: {differ} records whose bare rendering differs from acpgen.reference_answer")
    print(f"\n{len(failures)} failures (both readings) in {args.cache / 'failures.jsonl'}")
    if args.examples:
        print_examples(failures, args.examples)
    if args.reasons:
        print_reasons(failures, args.reasons)


if __name__ == "__main__":
    main()
