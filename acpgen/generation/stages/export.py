"""Stage 5, export: qa/<task>[.<format>].jsonl -> OUT/D/<task>.<format>.jsonl, reference schemas.

Each symbolic question gets its context and question text from the domain's template
(`acpgen/data/templates/<domain>.yaml`, see `acpgen.nl`), in the representation the configuration asks
for (nl, pddl or pddl+nl). Records keep the reference key order (``id, group, context,
question, answer, PDDL_domain, PDDL_problem``), followed by acp's structured fields (``task``,
``domain``, ``problem``, ``state``, ``uid``, ``representation`` and the question's ``plan`` or
``action``), which the scorer and validator read instead of parsing prose. Action names in
answers and plans take the domain's own case (logistics actions are upper case in its PDDL).

The stage is cheap and deterministic; a file is rewritten only when its stamp changed: its qa
input, the template files (by content), the representation, the PDDL domain or the code
(recorded in ``stamps/export.json``).
"""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path

from acpgen.artefacts import atomic_write_text, jsonl_text
from acpgen.errors import ConfigError
from acpgen.generation.stages.base import StageContext, StageReport, StageWork, Unit
from acpgen.generation.stages.qa import domain_qa_files, qa_file
from acpgen.generation.stamps import digest_of, input_digests
from acpgen.nl.describe import REPRESENTATIONS, Describer
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import LiftedTask
from acpgen.pddl.tarski_io import read_strings
from acpgen.proofs.features import NAMES, state_features
from acpgen.schema import REFERENCE_KEYS, STRUCTURED_KEYS
from acpgen.tasks import TASKS


class ActionCase:
    """Writes action names as the domain declares them (``(load-truck ...)`` -> ``(LOAD-TRUCK ...)``)."""

    def __init__(self, domain_text: str):
        self.names = {m.lower(): m for m in re.findall(r"\(:action\s+([^\s()]+)", domain_text, flags=re.IGNORECASE)}

    def __call__(self, action: str) -> str:
        inner = action.strip()[1:-1].split(" ", 1)
        if not inner or inner[0].lower() not in self.names:
            return action
        return "(" + " ".join([self.names[inner[0].lower()], *inner[1:]]) + ")"


def export_file(root: Path, task: str, fmt: str) -> Path:
    """The exported records of a task and format in a domain folder: ``<root>/<task>.<format>.jsonl``."""
    return Path(root) / f"{task}.{fmt}.jsonl"


def export_record(record: dict, describer: Describer, representation: str, case: ActionCase) -> dict:
    """A qa record as an exported record: reference fields first, then the structured ones."""
    task = TASKS[record["task"]]
    cased = dict(record)
    if "plan" in record:
        cased["plan"] = [case(a) for a in record["plan"]]
    if "action" in record:
        cased["action"] = case(record["action"])
    out = {
        "id": record["id"],
        "group": record["group"],
        "context": task.context(describer, record, representation),
        "question": describer.question(task, cased, representation),
        "answer": task.export_answer(record["answer"], case),
        "PDDL_domain": record["PDDL_domain"],
        "PDDL_problem": record["PDDL_problem"],
    }
    return _with_structured(out, cased, STRUCTURED_KEYS["gen"], representation)


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
    task = TASKS[record["task"]]
    text = describer.choice_question(task, record)
    out = {
        "id": record["id"],
        "group": record["group"],
        "context": describer.choice_context(
            task.choice_formats().goal_in_context, representation, record["PDDL_domain"], record["PDDL_problem"]
        ),
        **text,
        "answer": record["answer"],
    }
    out = {key: out[key] for key in REFERENCE_KEYS[record["format"]]}
    return _with_structured(out, record, STRUCTURED_KEYS[record["format"]], representation)


def export_task(ctx: StageContext, task: str, representation: str, fmt: str = "gen") -> list[dict]:
    case = ActionCase(ctx.domain_text)
    level = ctx.config.export.level
    states = _states_by_id(ctx) if level is not None else {}
    records = []
    carried = ctx.source.carried_template
    for line in qa_file(ctx, task, fmt).read_text().splitlines():
        record = json.loads(line)
        if carried is not None:  # a user's template: whoever reads the record reads its English with it
            record["template"] = carried
        made = record.pop("features", None)  # the qa stage's, when it ran for a difficulty level
        lifted = read_strings(record["PDDL_domain"], record["PDDL_problem"], f"{ctx.domain} record {record['uid']}")
        describer = ctx.source.describer(lifted)
        if level is not None:  # records of a difficulty level end with it and with their state's features
            record.update(level=level, features=_features(record, lifted, states.get(record["state"]), made))
        if fmt == "gen":
            records.append(export_record(record, describer, representation, case))
        else:
            records.append(export_choice_record(record, describer, representation))
    return records


# The features of a state by its record's PDDL: the records of every task about one state share them (the
# exploration behind them is the costly part; the state line adds only the stored plan's remaining length).
_FEATURES: dict[tuple[str, str], dict] = {}


def _features(record: dict, lifted: LiftedTask, state: dict | None, made: dict | None = None) -> dict:
    """The features of the record's state: those the qa stage computed from its own exploration (``made``),
    else those of an exploration here."""
    key = (record["PDDL_domain"], record["PDDL_problem"])
    if key not in _FEATURES:
        if len(_FEATURES) > 4096:
            _FEATURES.clear()
        _FEATURES[key] = {name: made[name] for name in NAMES} if made else state_features(GroundTask(lifted))
    return {**_FEATURES[key], "plan_length": (state or {}).get("plan_cost_to_go")}


def _states_by_id(ctx: StageContext) -> dict[str, dict]:
    """The lines of the domain's ``states.jsonl`` by state id."""
    lines = ctx.states_file.read_text().splitlines() if ctx.states_file.exists() else []
    return {state["id"]: state for state in map(json.loads, lines)}


def stamp(ctx: StageContext, source: Path, representation: str) -> dict:
    """What an exported file is made from: its qa file, the domain's template and the shared question
    texts (by content), the representation, the PDDL domain (action case) and the code; with a difficulty
    level also the level and the states file (the features' plan lengths)."""
    level = ctx.config.export.level
    config = {"representation": representation} if level is None else {"representation": representation, "level": level}
    return {
        **ctx.base_stamp(),
        "config": digest_of(config),
        "inputs": input_digests(ctx.root, [source] + ([ctx.states_file] if level is not None else [])),
        "templates": ctx.source.templates_digest(),
    }


def prepare(ctx: StageContext) -> StageWork:
    """One unit per exported file that is missing or stale."""
    work = StageWork(StageReport("export", ctx.domain))
    report = work.report
    representation = ctx.config.export.representation
    if representation not in REPRESENTATIONS:
        raise ConfigError(f"export.representation is '{representation}'; use one of {', '.join(REPRESENTATIONS)}")
    ctx.source.check_representation(representation)
    book = work.keep(ctx.stamp_book("export"))
    (ctx.root / "export.json").unlink(missing_ok=True)  # the stamps of acp before stamps/export.json

    def commit(target: Path, made_from: dict, records: list[dict]) -> None:
        atomic_write_text(target, jsonl_text(records, sort_keys=False))
        book.record(target.name, target, made_from)
        report.done += 1

    for task, fmt in domain_qa_files(ctx.config, ctx.domain):
        source = qa_file(ctx, task, fmt)
        target = export_file(ctx.root, task, fmt)
        if not source.exists():
            report.failed.append(f"{task} {fmt}: no {source.relative_to(ctx.root)} (run the qa stage first)")
            continue
        made_from = stamp(ctx, source, representation)
        if book.fresh(target.name, target, made_from):
            report.skipped += 1
            continue
        args = (ctx, task, representation, fmt)
        work.units.append(
            Unit(f"{ctx.domain}/export/{target.name}", export_task, args, partial(commit, target, made_from), target)
        )

    def finish() -> None:
        written = [export_file(ctx.root, t, f) for t, f in domain_qa_files(ctx.config, ctx.domain)]
        report.items = sum(len(path.read_text().splitlines()) for path in written if path.exists())

    work.finish = finish
    return work
