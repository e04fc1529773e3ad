"""Stage 5, export: qa/<task>[.<format>].jsonl -> OUT/D/<task>.<format>.jsonl, reference schemas.

Each symbolic question gets its context and question text from the domain's template
(`templates/<domain>.yaml`, see `acpgen.nl`), in the representation the configuration asks
for (nl, pddl or pddl+nl). Records keep the reference key order (``id, group, context,
question, answer, PDDL_domain, PDDL_problem``), followed by acp's structured fields (``task``,
``domain``, ``problem``, ``state``, ``uid``, ``representation`` and the question's ``plan`` or
``action``), which the scorer and validator read instead of parsing prose. Action names in
answers and plans take the domain's own case (logistics actions are upper case in its PDDL).

The stage is cheap and deterministic; a file is rewritten only when its qa input, the template
files (by content), the representation or ``EXPORT_FORMAT`` changed (recorded in ``export.json``).
"""

from __future__ import annotations

import hashlib
import json
import re
import time

from tqdm import tqdm

from acpgen.artefacts import atomic_write_text, jsonl_text
from acpgen.errors import ConfigError
from acpgen.nl.describe import REPRESENTATIONS, Describer
from acpgen.pddl.tarski_io import read_strings
from acpgen.stages.base import StageContext, StageReport
from acpgen.stages.qa import qa_file, qa_files
from acpgen.tasks import TASKS

REFERENCE_KEYS = ("id", "group", "context", "question", "answer", "PDDL_domain", "PDDL_problem")
STRUCTURED_KEYS = ("task", "domain", "problem", "state", "uid", "representation", "plan", "action")
# bool and mcq records: the reference keys, then the PDDL and the claims that `acp validate` re-proves.
CHOICE_KEYS = {
    "bool": ("id", "group", "context", "question", "answer"),
    "mcq": ("id", "group", "context", "question", "choices", "query", "answer"),
}
CHOICE_STRUCTURED = (
    "task",
    "format",
    "domain",
    "problem",
    "state",
    "uid",
    "representation",
    "PDDL_domain",
    "PDDL_problem",
    "action",
    "plan",
    "sequence",
    "variant",
    "claim",
    "options",
)
ACTION_ANSWERS = ("app", "areach")  # answers that are lists of actions
EXPORT_FORMAT = 4  # raise when the rendering code changes, so that exported files are rewritten
ANSWER_KEY_ORDER = ("pos", "neg", "yes", "no", "maybe", "opt")  # the reference order of answer objects


class ActionCase:
    """Writes action names as the domain declares them (``(load-truck ...)`` -> ``(LOAD-TRUCK ...)``)."""

    def __init__(self, domain_text: str):
        self.names = {m.lower(): m for m in re.findall(r"\(:action\s+([^\s()]+)", domain_text, flags=re.IGNORECASE)}

    def __call__(self, action: str) -> str:
        inner = action.strip()[1:-1].split(" ", 1)
        if not inner or inner[0].lower() not in self.names:
            return action
        return "(" + " ".join([self.names[inner[0].lower()], *inner[1:]]) + ")"

    def answer(self, task: str, answer):
        if task in ACTION_ANSWERS:
            return [self(a) for a in answer]
        if task == "just":
            return [[self(x) for x in entry[:-1]] + [entry[-1]] for entry in answer]
        if task == "nexta":
            return {k: ([self(a) for a in v] if isinstance(v, list) else v) for k, v in answer.items()}
        return answer


def _reference_order(answer):
    if not isinstance(answer, dict):
        return answer
    return {
        key: answer[key]
        for key in sorted(
            answer, key=lambda k: ANSWER_KEY_ORDER.index(k) if k in ANSWER_KEY_ORDER else len(ANSWER_KEY_ORDER)
        )
    }


def export_record(record: dict, describer: Describer, representation: str, case: ActionCase) -> dict:
    """A qa record as an exported record: reference fields first, then the structured ones."""
    task = record["task"]
    cased = dict(record)
    if "plan" in record:
        cased["plan"] = [case(a) for a in record["plan"]]
    if "action" in record:
        cased["action"] = case(record["action"])
    out = {
        "id": record["id"],
        "group": record["group"],
        "context": describer.context(task, representation, record["PDDL_domain"], record["PDDL_problem"]),
        "question": describer.question(task, cased, representation),
        "answer": _reference_order(case.answer(task, record["answer"])),
        "PDDL_domain": record["PDDL_domain"],
        "PDDL_problem": record["PDDL_problem"],
    }
    return _with_structured(out, cased, STRUCTURED_KEYS, representation)


def _with_structured(out: dict, record: dict, keys: tuple[str, ...], representation: str) -> dict:
    """The exported record followed by the structured fields the record has, in ``keys`` order."""
    for key in keys:
        if key == "representation":
            out[key] = representation
        elif key in record:
            out[key] = record[key]
    return out


def export_choice_record(record: dict, describer: Describer, representation: str) -> dict:
    """A symbolic bool/mcq record with its text, in the reference key order plus the claims."""
    task = record["task"]
    text = describer.choice_question(task, record, TASKS[task].choice.words)
    out = {
        "id": record["id"],
        "group": record["group"],
        "context": describer.choice_context(task, representation, record["PDDL_domain"], record["PDDL_problem"]),
        **text,
        "answer": record["answer"],
    }
    out = {key: out[key] for key in CHOICE_KEYS[record["format"]]}
    return _with_structured(out, record, CHOICE_STRUCTURED, representation)


def export_task(ctx: StageContext, task: str, representation: str, fmt: str = "gen") -> list[dict]:
    case = ActionCase(ctx.domain_text)
    records = []
    for line in qa_file(ctx, task, fmt).read_text().splitlines():
        record = json.loads(line)
        lifted = read_strings(record["PDDL_domain"], record["PDDL_problem"], f"{ctx.domain} record {record['uid']}")
        describer = ctx.source.describer(lifted)
        if fmt == "gen":
            records.append(export_record(record, describer, representation, case))
        else:
            records.append(export_choice_record(record, describer, representation))
    return records


def run(ctx: StageContext) -> StageReport:
    start = time.perf_counter()
    report = StageReport("export", ctx.domain)
    representation = ctx.config.export.representation
    if representation not in REPRESENTATIONS:
        raise ConfigError(f"export.representation is '{representation}'; use one of {', '.join(REPRESENTATIONS)}")
    meta_file = ctx.root / "export.json"
    meta = json.loads(meta_file.read_text()) if meta_file.exists() else {}
    ctx.source.check_representation(representation)
    templates_digest = ctx.source.templates_digest()
    bar = tqdm(qa_files(ctx.config.qa.formats), desc=f"{ctx.domain} export", disable=not ctx.progress)
    for task, fmt in bar:
        source = qa_file(ctx, task, fmt)
        target = ctx.root / f"{task}.{fmt}.jsonl"
        if not source.exists():
            report.failed.append(f"{task} {fmt}: no {source.relative_to(ctx.root)} (run the qa stage first)")
            continue
        stamp = {
            "representation": representation,
            "qa_sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
            "templates_sha256": templates_digest,
            "format": EXPORT_FORMAT,
        }
        key = task if fmt == "gen" else f"{task}.{fmt}"
        if target.exists() and meta.get(key) == stamp:
            report.skipped += 1
            continue
        records = export_task(ctx, task, representation, fmt)
        atomic_write_text(target, jsonl_text(records, sort_keys=False))
        meta[key] = stamp
        atomic_write_text(meta_file, json.dumps(meta, indent=1, sort_keys=True) + "\n")
        report.done += 1
    report.items = sum(
        len((ctx.root / f"{t}.{f}.jsonl").read_text().splitlines())
        for t, f in qa_files(ctx.config.qa.formats)
        if (ctx.root / f"{t}.{f}.jsonl").exists()
    )
    report.seconds = time.perf_counter() - start
    return report
