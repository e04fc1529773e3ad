"""PlanBench's task files: which tasks acp scores, their instances as acp records, and the answers as
predictions (:func:`planbench_files`), scored by acp's plan scorer."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acpgen.errors import DataError, PddlError
from acpgen.evaluation.planbench.reading import no_plan_said, translate
from acpgen.evaluation.planbench.wording import (
    UNSOLVABLE,
    Wording,
    check_wording,
    config_name,
    fits_domain,
    read_config,
    wording_of,
)
from acpgen.evaluation.records import Prediction
from acpgen.evaluation.scoring import Scored, score_predictions
from acpgen.nl.answers import ParseError
from acpgen.nl.plan_steps import NO_PLAN_ANSWER, read_steps
from acpgen.pddl.model import LiftedTask
from acpgen.pddl.tarski_io import read_domain, read_strings
from acpgen.planners import PlannerSetup
from acpgen.proofs.plans import Failure, lifted_verdict
from acpgen.tasks import PARSE_ERROR, ScoreOptions

# ----- tasks ------------------------------------------------------------------------------------------
#: PlanBench's tasks whose answer is a plan for the instance itself, by the number in their names
#: (``task_1_plan_generation_zero_shot_pddl``, ``task_8_1_goal_shuffling``, ``t1``), and acp's task that
#: scores it
PLAN_TASKS = {"1": "plan", "2": "optplan", "5": "plan", "8_1": "plan", "8_2": "plan", "8_3": "plan"}
#: why the other tasks are not scored
OTHER_TASKS = {
    "3": "task 3 (plan verification) asks whether a given plan is valid, not for a plan",
    "4": "task 4 (plan reuse) asks for a plan of an instance its prompt changed, which the file does not hold",
    "6": "task 6 (replanning) asks for a plan of an instance its prompt changed, which the file does not hold",
    "7": "task 7 (plan execution) asks for the state a plan reaches, not for a plan",
}
_TASK_NUMBER = re.compile(r"^(?:task_?|t)(\d+(?:_\d+)?)(?![0-9])", re.IGNORECASE)


def task_kind(task: str) -> str:
    """acp's task for a PlanBench task name (``plan``, ``optplan``); DataError for a task without a plan."""
    match = _TASK_NUMBER.match(task.strip())
    number = match.group(1) if match else None
    if number is None or number not in PLAN_TASKS:
        why = OTHER_TASKS.get(number or "", "its name has no task number of PlanBench's plan tasks")
        raise DataError(
            f"PlanBench task {task!r} is not scored by acp: {why}; acp scores the plans of tasks 1, 2, 5 and "
            "8.1-8.3 (each with its zero-shot, PDDL, state-tracking and backprompting variants)"
        )
    return PLAN_TASKS[number]


# ----- the text of an answer --------------------------------------------------------------------------


@dataclass(frozen=True)
class TaskFile:
    """A PlanBench task file: PlanBench's name of the task, acp's task for it (``plan``,
    ``optplan``), the config's domain name, the engine (result files) and the instances; ``unsolvable``:
    the file is of one of PlanBench's ``unsolvable_*`` configs, whose instances have no plan."""

    path: Path
    task: str
    kind: str
    domain: str
    engine: str | None
    instances: list[dict[str, Any]] = field(repr=False)
    unsolvable: bool = False


def read_task_file(path: Path) -> TaskFile:
    """A PlanBench task file of a plan-writing task; DataError naming the file and the fix otherwise."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(
            f"{path}: no such file (a PlanBench task file: prompts/<domain>/<task>.json, or "
            "responses/ or results/<domain>/<engine>/<task>.json)"
        ) from None
    except (OSError, UnicodeDecodeError) as err:
        raise DataError(f"{path}: cannot read ({err})") from err
    except json.JSONDecodeError as err:
        raise DataError(
            f"{path}: invalid JSON ({err.msg} at line {err.lineno}, column {err.colno}); a PlanBench task file "
            "is one JSON object with an 'instances' list"
        ) from err
    if not isinstance(data, dict) or not isinstance(data.get("instances"), list):
        raise DataError(
            f"{path}: not a PlanBench task file (one JSON object with an 'instances' list, as PlanBench's "
            "prompts/, responses/ and results/ files); acp's own predictions are JSONL lines, scored "
            "without --planbench-domain"
        )
    task = str(data.get("task") or path.stem)
    try:
        kind = task_kind(task)
    except DataError as err:
        raise DataError(f"{path}: {err}") from None
    instances = data["instances"]
    for number, instance in enumerate(instances, 1):
        if not isinstance(instance, dict) or "instance_id" not in instance:
            raise DataError(f"{path}: instance {number} of the list has no 'instance_id'")
    engine = data.get("engine")
    domain = str(data.get("domain") or "planbench")
    unsolvable = config_name(domain).startswith(UNSOLVABLE)
    return TaskFile(path, task, kind, domain, None if engine is None else str(engine), instances, unsolvable)


def response_of(instance: dict[str, Any]) -> str | None:
    """The model's answer: ``llm_raw_response`` (None: not answered), or in a backprompting file the last
    answer of its dialogue (``messages``), the plan it ended with."""
    if "llm_raw_response" in instance:
        raw = instance["llm_raw_response"]
        return "" if raw is None else str(raw)
    messages = instance.get("messages")
    if isinstance(messages, list):
        answers = [m.get("content") for m in messages if isinstance(m, dict) and m.get("role") == "assistant"]
        if answers:
            return str(answers[-1] or "")
    return None


def prompt_of(instance: dict[str, Any]) -> str:
    """The prompt the model answered: ``query``, or the first message of a backprompting dialogue."""
    query = instance.get("query")
    if isinstance(query, str) and query:
        return query
    messages = instance.get("messages")
    if isinstance(messages, list):
        for message in messages:
            if isinstance(message, dict) and message.get("role") == "user":
                return str(message.get("content") or "")
    return ""


def _definition(text: str, after: str) -> str | None:
    """The ``(define ...)`` that follows the heading ``after`` in a prompt, up to its closing parenthesis."""
    at = text.rfind(after)  # the heading, not the prompt's words about it before
    start = text.find("(define", at) if at >= 0 else -1
    if start < 0:
        return None
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


_DOMAIN_NAME = re.compile(r"\(\s*(:?domain)\s+([^\s()]+)\s*\)", re.IGNORECASE)


def _named(text: str) -> str:
    """A PDDL text whose domain name (in ``(domain ...)`` and ``(:domain ...)``) starts with a letter, as PDDL
    wants: PlanBench's obfuscated prompts name some domains with a digit first (``6dpbhs``), made ``d-6dpbhs``;
    the name means nothing."""

    def fixed(match: re.Match[str]) -> str:
        name = match.group(2)
        return match.group(0) if name[:1].isalpha() else f"({match.group(1)} d-{name})"

    return _DOMAIN_NAME.sub(fixed, text)


def prompt_pddl(instance: dict[str, Any]) -> tuple[str, str] | None:
    """The domain and problem a PDDL prompt shows (``[DOMAIN]``, ``[QUERY PROBLEM]``), or None; a domain name that
    starts with a digit is made to start with a letter (``d-6dpbhs``)."""
    prompt = prompt_of(instance)
    domain, problem = _definition(prompt, "[DOMAIN]"), _definition(prompt, "[QUERY PROBLEM]")
    return (_named(domain), _named(problem)) if domain and problem else None


def _read_text(path: Path, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{path}: no such {what}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise DataError(f"{path}: cannot read the {what} ({err})") from err


def _ground_truth(instance: dict[str, Any], lifted: LiftedTask, wording: Wording | None) -> tuple[list[str], str]:
    """The instance's ground-truth plan as canonical actions ([] when it has none), and, when it does not
    solve the instance's problem, why."""
    truth = instance.get("ground_truth_plan")
    text = "\n".join(str(step) for step in truth) if isinstance(truth, list) else str(truth or "")
    try:
        steps = read_steps(translate(text, wording, lifted=lifted))
    except ParseError:
        return [], ""
    plan = [step.action for step in steps]
    verdict = lifted_verdict(lifted, plan)
    if verdict.executes and verdict.reaches_goal:
        return plan, ""
    if verdict.first_failure is not None:
        return plan, f"step {verdict.first_failure + 1} {plan[verdict.first_failure]} does not execute"
    return plan, "the goal does not hold after it"


@dataclass
class _Source:
    """Where the instances' PDDL comes from: a domain file and an instance folder, or each prompt."""

    domain: Path | None
    folder: Path | None
    domain_text: str = ""

    def pddl(self, file: TaskFile, instance: dict[str, Any], where: str) -> tuple[str, str, str]:
        """The instance's domain text, problem text and source name."""
        number = instance["instance_id"]
        if self.folder is None:
            shown = prompt_pddl(instance)
            if shown is None:
                raise DataError(
                    f"{where}: its prompt shows no PDDL ([DOMAIN] ... [QUERY PROBLEM] ...): pass --planbench-domain "
                    "and --planbench-instances, the domain file and instance folder of its config"
                )
            return shown[0], shown[1], f"{file.path}, instance {number}'s prompt"
        problem = self.folder / f"instance-{number}.pddl"
        if not problem.is_file():
            raise DataError(
                f"{where}: no PDDL for it: {problem} does not exist; pass --planbench-instances the instance "
                "folder of this task file (PlanBench's instances/<domain>/generated_basic, generated for task 5)"
            )
        return self.domain_text, _read_text(problem, "instance file"), str(problem)


def planbench_predictions(
    path: Path,
    domain: Path | None = None,
    instances: Path | None = None,
    config: Path | None = None,
    records: dict[tuple[Any, ...], dict[str, Any]] | None = None,
) -> list[Prediction]:
    """The answers of a PlanBench task file as acp predictions, each with its ``plan`` (or ``optplan``)
    record: ``domain`` is the task's domain PDDL file, ``instances`` the folder of its ``instance-N.pddl``
    files (neither: each instance's PDDL is the one its prompt shows, PlanBench's PDDL prompts),
    ``config`` a PlanBench config whose wording to read answers with (default: the built-in one of the
    file's domain, :data:`WORDINGS`; none: the domain's own names).

    Instances without an answer are left out (PlanBench does the same); an empty one is a prediction (a
    ``parse_error`` when scored). Each prediction's line, written by ``acp score -o``, holds the record
    id, ``instance_id``, ``planbench_task``, ``planbench_file``, ``engine``, the raw response, the
    ``response`` acp read (:func:`translate`) and PlanBench's ``llm_correct`` as ``planbench_correct``
    when the file has it; an answer whose final statement says that no plan exists (:func:`no_plan_said`) is read
    as acp's words for that (``response``: :data:`acpgen.nl.plan_steps.NO_PLAN_ANSWER`), its sentence in
    ``no_plan_statement``. The instances of an ``unsolvable_*`` config (and an instance whose ground truth is
    "unsolvable") become records that say no plan exists (``"solvable": false``, no plan), which the scorer
    proves before it scores an answer (it did not make them). ``records``: the records made so far, by their
    content; an instance's answers in several files share one record, which the scorer grounds once for all
    of them."""
    if (domain is None) != (instances is None):
        raise DataError("a PlanBench domain file and instance folder go together (or neither: PDDL from the prompts)")
    file = read_task_file(path)
    source = _Source(domain, None if instances is None else Path(instances))
    if source.folder is not None and not source.folder.is_dir():
        raise DataError(f"{source.folder}: no such folder (the folder of the task's instance-N.pddl files)")
    wording = read_config(config) if config is not None else wording_of(file.domain)
    if domain is not None:
        source.domain_text = _read_text(domain, "domain file")
        if wording is not None:
            check_wording(wording, read_domain(Path(domain)), f"{path} ({file.domain})")
    answered = [(instance, raw) for instance in file.instances if (raw := response_of(instance)) is not None]
    if not answered:
        raise DataError(
            f"{path}: no instance has an 'llm_raw_response' (a prompts file?): score a model's responses/ or "
            "results/ file"
        )
    predictions = []
    failures: list[str] = []  # instances whose ground truth does not solve them
    truths = 0  # instances with a ground truth
    for instance, raw in answered:
        prediction = _prediction(file, instance, raw, source, wording, config is not None, records)
        truths += bool(prediction.record["answer"]) or "ground_truth_unsolved" in prediction.line
        if "ground_truth_unsolved" in prediction.line:
            failures.append(f"{prediction.line['ground_truth_unsolved']} (instance {instance['instance_id']})")
        predictions.append(prediction)
    if len(failures) * 2 > truths:
        raise DataError(
            f"{path}: the file's ground_truth_plan does not solve {len(failures)} of its {truths} instances "
            f"({'; '.join(failures[:3])}): is the instance folder the one of this task file (PlanBench's "
            "instances/<domain>/generated_basic; generated for task 5), and the domain file its config's?"
        )
    return predictions


def _prediction(
    file: TaskFile,
    instance: dict[str, Any],
    raw: str,
    source: _Source,
    wording: Wording | None,
    configured: bool,
    records: dict[tuple[Any, ...], dict[str, Any]] | None = None,
) -> Prediction:
    """One answered instance as a prediction with its record (see :func:`planbench_predictions`)."""
    number = instance["instance_id"]
    where = f"{file.path}, instance {number}"
    domain_text, problem_text, name = source.pddl(file, instance, where)
    try:
        lifted = read_strings(domain_text, problem_text, source=name)
    except PddlError as err:
        raise DataError(str(err)) from err
    if source.folder is None and wording is not None and not fits_domain(wording, lifted):
        if configured:
            check_wording(wording, lifted, where)
        wording = None  # a built-in wording of another variant of the domain: its own names
    unsolvable = file.unsolvable or str(instance.get("ground_truth_plan") or "").strip().lower() == "unsolvable"
    truth, wrong = ([], "") if unsolvable else _ground_truth(instance, lifted, wording)
    record: dict[str, Any] = {
        "id": f"{file.domain}/{number}",
        "task": file.kind,
        "domain": file.domain,
        "PDDL_domain": domain_text,
        "PDDL_problem": problem_text,
        "answer": None if unsolvable else [] if wrong else truth,
    }
    if unsolvable:  # no plan exists, which the scorer proves before it scores an answer (the record is not acp's)
        record["solvable"] = False
    if records is not None:  # the same record for an instance's answers in several files
        shared = (record["id"], file.kind, domain_text, problem_text, tuple(record["answer"] or ()), unsolvable)
        record = records.setdefault(shared, record)
    line: dict[str, Any] = {
        "id": record["id"],
        "instance_id": number,
        "planbench_task": file.task,
        "planbench_file": str(file.path),
    }
    if file.engine is not None:
        line["engine"] = file.engine
    said = no_plan_said(raw, wording, lifted=lifted)
    line |= {"llm_raw_response": raw, "response": NO_PLAN_ANSWER if said else translate(raw, wording, lifted=lifted)}
    if said:
        line["no_plan_statement"] = said
    for key in ("llm_correct", "correct", "act_correct"):
        if key in instance:
            line["planbench_correct"] = instance[key]
            break
    if wrong:
        line["ground_truth_unsolved"] = wrong
    return Prediction(line, file.kind, record, line["response"])


def planbench_files(
    paths: Iterable[Path],
    domain: Path | None = None,
    instances: Path | None = None,
    config: Path | None = None,
    strict: bool = False,
) -> tuple[list[Prediction], dict[Path, str]]:
    """The predictions of every file acp scores (:func:`planbench_predictions`; the answers of several files
    to one instance share its record), and why each other file is not scored (its error; ``strict``: raised)."""
    predictions: list[Prediction] = []
    skipped: dict[Path, str] = {}
    records: dict[tuple[Any, ...], dict[str, Any]] = {}
    for path in paths:
        try:
            predictions += planbench_predictions(Path(path), domain, instances, config, records)
        except DataError as err:
            if strict:
                raise
            skipped[Path(path)] = str(err)
    return predictions, skipped


def score_planbench(
    paths: Iterable[Path],
    domain: Path | None = None,
    instances: Path | None = None,
    config: Path | None = None,
    options: ScoreOptions = ScoreOptions(),
    setup: PlannerSetup = PlannerSetup(),
    jobs: int = 1,
    skipped: dict[Path, str] | None = None,
) -> list[Scored]:
    """Score the answers of PlanBench task files (:func:`planbench_predictions`) with acp's plan scorer. A
    file acp does not score raises its DataError, or, given ``skipped``, is recorded there with why."""
    predictions, refused = planbench_files(paths, domain, instances, config, strict=skipped is None)
    if skipped is not None:
        skipped.update(refused)
    return score_predictions(predictions, options, setup, jobs=jobs, progress=False)


#: the columns of :func:`failure_rates`: no plan read at all, then the plan scorer's failure classes
FAILURE_COLUMNS = ("no_plan", *(failure.value for failure in Failure))
#: the column of :func:`failure_rates` for answers that say no plan exists (shown when some answer does)
SAYS_NO_PLAN = "says_no_plan"


def failure_rates(scored: Iterable[Scored]) -> str:
    """The share of plan answers by their first failure, per task and domain: ``no_plan`` (no step
    could be read: a parse error), then the plan scorer's classes (``extra_steps`` is a plan with
    steps after the goal held), then, when some answer says that no plan exists, ``says_no_plan``; a plan
    without extra steps is in no column. Empty without plan answers."""
    groups: dict[tuple[str, str], Counter[str | None]] = defaultdict(Counter)
    for item in scored:
        task = item.prediction.task
        if task not in ("plan", "optplan"):
            continue
        failure = "no_plan" if item.verdict.status == PARSE_ERROR else item.verdict.details.get("failure_class")
        if item.verdict.details.get(SAYS_NO_PLAN):
            failure = SAYS_NO_PLAN
        groups[(task, item.domain)][failure] += 1
    if not groups:
        return ""
    columns = FAILURE_COLUMNS + ((SAYS_NO_PLAN,) if any(c[SAYS_NO_PLAN] for c in groups.values()) else ())
    for task in {task for task, _ in groups}:
        domains = [counts for (t, _), counts in groups.items() if t == task]
        if len(domains) > 1:
            groups[(task, "all")] = sum(domains, Counter())
    width = max(len(name) for name in FAILURE_COLUMNS) + 2
    named = max(22, *(len(domain) + 2 for _, domain in groups))  # the domain column, as wide as its longest name
    lines = [f"{'task':8}{'domain':{named}}{'n':>5}" + "".join(f"{name:>{width}}" for name in columns)]
    for (task, domain), counts in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] == "all", kv[0][1])):
        total = sum(counts.values())
        cells = "".join(f"{counts[name] / total:{width}.2f}" for name in columns)
        lines.append(f"{task:8}{domain:{named}}{total:5d}" + cells)
    return "\n".join(lines)
