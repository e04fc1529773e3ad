"""PlanBench's own files, scored exactly: its task files turned into acp ``plan`` records and predictions.

A PlanBench task file (``prompts/<domain>/task_1_plan_generation.json``, and the same file with the
model's answers under ``responses/`` or ``results/<domain>/<engine>/``) is one JSON object: ``task``
(``task_1_plan_generation``, or ``t1`` in some result files), ``domain`` (PlanBench's config name:
``blocksworld``, ``mystery_blocksworld``, ``random_blocksworld``, ``..._3``, ``logistics``),
optionally ``engine``, and ``instances``: a list of objects with ``instance_id``, ``query``,
``ground_truth_plan`` (a text of PDDL actions, one a line, or a list of them; in task 8 the plan in
words) and, once a model answered, ``llm_raw_response``. Instance N is the problem
``instance-N.pddl`` of the task's instance folder (PlanBench's ``instances/<domain>/generated_basic``;
``generated`` for task 5, plan generalization), over the domain file of its config.

Each instance with an ``llm_raw_response`` becomes a record of acp's ``plan`` task (``optplan`` for
task 2, plan optimality) and a prediction, scored by acp's plan scorer: validity, goal, optimality
against acp's own optimal cost (the ground-truth plan is stored as the record's answer, but its
length is not taken as the optimum: acp decides that itself, or reports it undecided), prefix,
goal share and the first failure and its class.

**Reading an answer** (:func:`translate`, whose text goes to acp's plan reader,
:mod:`acpgen.nl.plan_steps`):

1. the plan block: reasoning and markdown removed as for every acp answer, then the text up to the
   first ``[PLAN END]``, after the first ``[PLAN]`` before it, and before any ``[STATEMENT]`` after that;
   when the plan is restated after a heading line ``Final plan:``, the text after the last such heading;
2. with a wording (:class:`Wording`: PlanBench's config's ``actions`` and ``encoded_objects``, built
   in for the blocksworld family, or read from ``--planbench-config``), a line is an action in words
   when, less numbering (``1.``, ``Step 2:``), bullets, markdown heading marks, a final full stop or
   colon and a final remark in parentheses, it is one action's wording (``unstack the red block from
   on top of the blue block``, ``feast object b from object c``, ``xptxjrdkbi3pqsqr object a from
   object b``) in any case, with words of the wording after the first left out if at all (``unstack
   red block from blue block``), no word added (but for ``on the table`` after put-down and ``from
   the table`` after pick-up), and an object's name (``red block``, or ``red`` as PlanBench's ground
   truths write it; markdown's ``_object a_`` too) in each slot. When some line of the block is, the
   block is read in acp's line form, one step a line: an action in words is that action; a line of
   PDDL actions is those actions; a line that names an action without being one (it starts with an
   action's first word, ``pick up the block``, or holds an action's wording among other words,
   ``Action: pick up the red block``, ``Next, unstack the red block from the blue block``) is a
   step acp cannot read; and a line that names no action (a heading, ``This is possible because
   the red block is clear.``, ``Preconditions: ...``, a closing remark) is no step;
3. otherwise the block goes to acp's reader as written, PDDL actions whose arguments are object
   names of the wording (``(unstack yellow orange)``, as in PlanBench's ground truths) written with
   the objects.

acp's reader skips only lines that name no action: a line that names one and cannot be read exactly
is a step, and makes the plan invalid. PlanBench's own reader (``utils/text_to_pddl.py``) skips every
line in which it finds no action word, or not as many object names as the action takes, and scores
the rest (a plan whose unreadable line it skips can pass); it reads an action out of any line with
an action word, remarks and restatements included, and reads the whole response, also after
``[PLAN END]``; it takes the objects in the order the line names them (``stack the red block under
the blue block`` is its ``(stack red blue)``; here, no step); it finds no action in ``(pick-up a)``,
so it reads no PDDL-form answer of the blocksworld family; and it leaves out
empty responses, which acp counts as ``parse_error``.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from acpgen.errors import DataError
from acpgen.evaluation.records import Prediction
from acpgen.evaluation.scoring import Scored, score_predictions
from acpgen.nl.answers import ParseError, answer_section
from acpgen.nl.plan_steps import read_steps
from acpgen.pddl.model import LiftedTask, canonical
from acpgen.pddl.tarski_io import read_domain, read_strings
from acpgen.planners import PlannerSetup
from acpgen.proofs.plans import Failure, lifted_verdict
from acpgen.tasks import PARSE_ERROR, ScoreOptions

#: PlanBench's tasks whose answer is a plan for the instance file itself (by the names its files
#: use, long and short), and acp's task that scores it. Task 4 (plan reuse) and task 6 (replanning)
#: are judged against an instance the prompt changed, which their result files no longer hold;
#: tasks 3 and 7 ask for a verdict on a plan and for a state, not for a plan.
PLAN_TASKS = {
    "task_1_plan_generation": "plan",
    "t1": "plan",
    "task_2_plan_optimality": "optplan",
    "t2": "optplan",
    "task_5_plan_generalization": "plan",
    "t5": "plan",
    "task_8_1_goal_shuffling": "plan",
    "t8_1": "plan",
    "task_8_2_full_to_partial": "plan",
    "t8_2": "plan",
    "task_8_3_partial_to_full": "plan",
    "t8_3": "plan",
}

_THE = re.compile(r"\bthe\b")
_BLANKS = re.compile(r"\s+")
_BLOCK = re.compile(r"\s+block$", re.IGNORECASE)
# numbering and bullets before a step: "1.", "2)", "Step 3:", "- "; never a bare number, so that
# the randomized wording's words (1jpkithdyjmlikck) keep their digits
_LEADING = re.compile(r"^\s*(?:#+\s*)?(?:[-*\u2022>]\s*)?(?:step\s*\d+\s*[.):-]?\s*|\d+\s*[.):-]\s*)?", re.IGNORECASE)
_TRAILING = " \t\r\f\v.;,:"  # stripped after a step (str.rstrip: linear where a regex would backtrack)
_EMPHASIS = re.compile(r"(?<!\w)_+|_+(?!\w)")  # markdown's _object a_, not the _ inside a name
ACTION_GROUP = re.compile(r"\(([^()]*)\)")  # a parenthesised group with nothing nested: an action
_FINAL_PLAN = re.compile(r"^[ \t#>-]*final\s+plan[ \t]*:?[ \t]*$", re.IGNORECASE | re.MULTILINE)


def _body(line: str) -> str:
    """A line without numbering, bullets, heading marks and final punctuation."""
    return _LEADING.sub("", line, count=1).rstrip(_TRAILING)


def _pddl_line(body: str) -> bool:
    """Whether a line's body is PDDL actions only: one or more groups ``( ... )`` and nothing else."""
    return bool(ACTION_GROUP.search(body)) and not ACTION_GROUP.sub("", body).strip()


def _without_remark(text: str) -> str:
    """The text without a final remark in parentheses: "(now holding the red block)" after a step."""
    start = text.rfind("(")
    if text.endswith(")") and start >= 0 and ")" not in text[start:-1]:
        return text[:start].rstrip(_TRAILING)
    return text


def _plain(text: str) -> str:
    """Lower case, without the word "the" and markdown's underscores, single blanks."""
    return _BLANKS.sub(" ", _THE.sub(" ", _EMPHASIS.sub(" ", text.lower()))).strip()


@dataclass(frozen=True)
class Wording:
    """How a PlanBench config writes its domain's actions and objects in words: ``actions`` maps an
    action to its template (``stack the {} on top of the {}``), ``objects`` an object to its name
    (``red block``): the config's ``actions`` and ``encoded_objects``."""

    actions: Mapping[str, str]
    objects: Mapping[str, str]
    #: phrases a line of an action may end with, naming no object and changing nothing ("put down
    #: the red block on the table": the table is where put-down puts a block)
    endings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def arity(self, action: str) -> int:
        return self.actions[action].count("{}")

    @cached_property
    def names(self) -> dict[str, str]:
        """The object each way of naming it stands for: the config's name and, for ``red block``,
        ``red`` too (PlanBench's ground-truth plans write ``(unstack yellow orange)``)."""
        out: dict[str, str] = {}
        for obj, name in self.objects.items():
            for form in {_plain(name), _plain(_BLOCK.sub("", name.strip()))}:
                if out.setdefault(form, obj.lower()) != obj.lower():
                    raise DataError(f"the PlanBench wording names objects {out[form]} and {obj} alike ({form!r})")
        return out

    @cached_property
    def _patterns(self) -> list[tuple[str, re.Pattern[str]]]:
        """A pattern for each action: its wording word by word, each word after the first optional, an
        object's name in each slot (matched against a line in :func:`_plain` form and a final blank)."""
        if not self.names:
            return []
        slot = "(" + "|".join(re.escape(name) for name in sorted(self.names, key=len, reverse=True)) + ") "
        patterns = []
        for action, template in self.actions.items():
            words = _plain(template.replace("{}", " {} ")).split()
            parts = [slot if word == "{}" else f"(?:{re.escape(word)} )?" for word in words]
            if words and words[0] != "{}":
                parts[0] = re.escape(words[0]) + " "
            endings = [re.escape(_plain(ending)) + " " for ending in self.endings.get(action, ())]
            if endings:
                parts.append(f"(?:{'|'.join(endings)})?")
            patterns.append((action, re.compile("".join(parts))))
        return patterns

    @cached_property
    def verbs(self) -> frozenset[str]:
        """The first word of each action's wording (``pick``, ``unstack``, ``feast``)."""
        firsts = (_plain(template.replace("{}", " {} ")).split()[:1] for template in self.actions.values())
        return frozenset(words[0] for words in firsts if words and words[0] != "{}")

    @cached_property
    def _inside(self) -> list[re.Pattern[str]]:
        """:attr:`_patterns` found anywhere in a line, from a word's start."""
        return [re.compile(" " + pattern.pattern) for _, pattern in self._patterns]

    def holds_action(self, line: str) -> bool:
        """Whether a line that is no action's wording names one all the same: it starts with the first
        word of an action's wording (``pick up the block``), or an action's wording is part of it
        (``Action: pick up the red block``, ``Next, unstack the red block from the blue block``), a final
        remark in parentheses left out. A line that does neither (``This is possible because the red
        block is clear.``, ``Preconditions:``, ``The overcome action lets object d crave object c.``)
        names no action."""
        body = _body(line)
        first = _EMPHASIS.sub(" ", body.lower()).split()[:1]  # the first word as written, "the" too
        if first and first[0] in self.verbs:
            return True
        padded = f" {_plain(_without_remark(body))} "
        return any(pattern.search(padded) for pattern in self._inside)

    def step(self, line: str) -> str | None:
        """The PDDL action a line names in words, or None: the line is no action's wording (or is
        the wording of more than one)."""
        body = _plain(_without_remark(_body(line))) + " "
        found = []
        for action, pattern in self._patterns:
            match = pattern.fullmatch(body)
            if match is not None:
                found.append(canonical(action, [self.names[name] for name in match.groups()]))
        return found[0] if len(found) == 1 else None

    def rename(self, line: str, objects: Collection[str] = ()) -> str:
        """The line with each PDDL action ``(name arg ...)`` whose arguments are all object names of
        this wording, and none an object of the instance (``objects``), written with the objects."""

        def one(match: re.Match[str]) -> str:
            words = match.group(1).lower().replace(",", " ").split()
            if not words or words[0] not in self.actions or len(words) - 1 != self.arity(words[0]):
                return match.group(0)
            args = words[1:]
            if any(arg in objects or arg not in self.names for arg in args):
                return match.group(0)
            return canonical(words[0], [self.names[arg] for arg in args])

        return ACTION_GROUP.sub(one, line)


def _wording(
    actions: Mapping[str, str], objects: Mapping[str, str], endings: Mapping[str, tuple[str, ...]] | None = None
) -> Wording:
    return Wording(
        {k.lower(): str(v) for k, v in actions.items()}, {k.lower(): str(v) for k, v in objects.items()}, endings or {}
    )


_LETTERS = "abcdefghijkl"
_COLOURS = ("red", "blue", "orange", "yellow", "white", "magenta", "black", "cyan", "green", "violet", "silver", "gold")
_OBJECT_LETTERS = {letter: f"object {letter}" for letter in _LETTERS}

#: The wordings of PlanBench's own configs (``configs/<domain>.yaml``: ``actions``,
#: ``encoded_objects``), by the ``domain`` its task files name; the ``_3`` configs (three-block
#: instances) word their answers alike. Mystery Blocksworld has a domain file of its own (attack,
#: feast, succumb, overcome); Randomized Blocksworld words the 4-operator domain's actions.
WORDINGS = {
    "blocksworld": _wording(
        {
            "pick-up": "pick up the {}",
            "put-down": "put down the {}",
            "stack": "stack the {} on top of the {}",
            "unstack": "unstack the {} from on top of the {}",
        },
        {letter: f"{colour} block" for letter, colour in zip(_LETTERS, _COLOURS)},
        {"put-down": ("on the table",), "pick-up": ("from the table",)},
    ),
    "mystery_blocksworld": _wording(
        {
            "attack": "attack {}",
            "succumb": "succumb {}",
            "overcome": "overcome {} from {}",
            "feast": "feast {} from {}",
        },
        _OBJECT_LETTERS,
    ),
    "random_blocksworld": _wording(
        {
            "pick-up": "1jpkithdyjmlikck {}",
            "put-down": "9big8ruzarkkquyu {}",
            "stack": "2ijg9q8swj2shjel {} from {}",
            "unstack": "xptxjrdkbi3pqsqr {} from {}",
        },
        _OBJECT_LETTERS,
    ),
}


def wording_of(domain: str) -> Wording | None:
    """The built-in wording of PlanBench's config ``domain`` (None: answers are read as PDDL only); its
    zero-shot result files name the domain ``blocksworld_zero_shot``, ``mystery_blocksworld_zero_shot_3``."""
    return WORDINGS.get(re.sub(r"(?:_zero_shot|_3)+$", "", domain))


def read_config(path: Path) -> Wording:
    """The wording of a PlanBench config file (``configs/<domain>.yaml``)."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        raise DataError(f"{path}: cannot read the PlanBench config ({err})") from err
    actions = data.get("actions") if isinstance(data, dict) else None
    objects = data.get("encoded_objects") if isinstance(data, dict) else None
    if not isinstance(actions, dict) or not isinstance(objects, dict):
        raise DataError(
            f"{path}: not a PlanBench config: it needs the mappings 'actions' and 'encoded_objects' "
            "(PlanBench's configs/<domain>.yaml)"
        )
    patterns = [str(name) for name in objects.values() if "{}" in str(name)]
    if patterns:
        raise DataError(
            f"{path}: its encoded_objects are patterns ({patterns[0]!r}), as in PlanBench's logistics and depots "
            "configs; acp reads answers in words only with configs that name every object (the blocksworld "
            "family). Leave --planbench-config out to read answers written as PDDL actions."
        )
    return _wording(actions, objects)


def check_wording(wording: Wording, domain: LiftedTask, where: str) -> None:
    """DataError unless every action of the wording is an action of the domain with as many parameters."""
    wrong = [
        f"{action}/{wording.arity(action)}"
        for action in wording.actions
        if action not in domain.schemas or len(domain.schemas[action].params) != wording.arity(action)
    ]
    if wrong:
        raise DataError(
            f"{where}: its answers are worded for the actions {', '.join(wrong)}, which the domain file does not "
            "declare with those parameters: pass the domain file of this task's config (PlanBench's "
            "instances/<domain_file>, e.g. instances/blocksworld/mystery/generated_domain.pddl for "
            "mystery_blocksworld), or --planbench-config with the config that words its answers"
        )


# ----- answers ----------------------------------------------------------------------------------
def plan_block(response: str) -> str:
    """The plan block of a response: reasoning and markdown removed (as for every acp answer), the
    text up to the first ``[PLAN END]``, after the first ``[PLAN]`` before it, and before ``[STATEMENT]``;
    of that, the text after the last heading line ``Final plan`` that has text after it, if any."""
    section = answer_section(response)
    lower = section.lower()
    end = lower.find("[plan end]")
    if end >= 0:
        section, lower = section[:end], lower[:end]
    start = lower.find("[plan]")
    if start >= 0:
        section, lower = section[start + len("[plan]") :], lower[start + len("[plan]") :]
    statement = lower.find("[statement]")
    block = section[:statement] if statement >= 0 else section
    # a plan worked through step by step and then restated under "Final plan:": the restatement
    for heading in reversed(list(_FINAL_PLAN.finditer(block))):
        if block[heading.end() :].strip():
            return block[heading.end() :]
    return block


def translate(response: str, wording: Wording | None, objects: Collection[str] = ()) -> str:
    """A PlanBench answer as acp's plan reader takes it (see the module docstring): the plan block,
    and with a wording, object names in PDDL actions replaced by the objects (``objects``: the
    instance's, which are never renamed); when some line of the block is an action's wording, the
    block in acp's line form: one step a line, the actions in words replaced by PDDL actions."""
    block = plan_block(response)
    if wording is None:
        return block.strip()
    lines = [wording.rename(line, objects) for line in block.splitlines() if line.strip()]
    actions = [wording.step(line) for line in lines]
    if not any(actions):
        return "\n".join(lines)
    out = []
    for line, action in zip(lines, actions):
        if action is not None:
            out.append(action[1:-1])
        elif _pddl_line(body := _body(line)):  # a line of PDDL actions: one step a line, without parentheses
            out += [group.strip() for group in ACTION_GROUP.findall(body)]
        elif wording.holds_action(line):  # words naming an action: one step (an unreadable one) of the line
            out.append(line.replace("(", " ").replace(")", " "))
        # any other line names no action: a heading, a remark, a precondition or effect written out
    return "\n".join(out)


# ----- task files -------------------------------------------------------------------------------
@dataclass(frozen=True)
class TaskFile:
    """A PlanBench task file: PlanBench's name of the task, acp's task for it (``plan``,
    ``optplan``), the config's domain name, the engine (result files) and the instances."""

    path: Path
    task: str
    kind: str
    domain: str
    engine: str | None
    instances: list[dict[str, Any]] = field(repr=False)


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
    if task not in PLAN_TASKS:
        plans = ", ".join(name for name in PLAN_TASKS if name.startswith("task_"))
        raise DataError(
            f"{path}: PlanBench task {task!r} is not scored by acp: it scores the plans of {plans}, written "
            "for the instance files (task 4 and 6 change the instance; tasks 3 and 7 ask for no plan)"
        )
    instances = data["instances"]
    for number, instance in enumerate(instances, 1):
        if not isinstance(instance, dict) or "instance_id" not in instance:
            raise DataError(f"{path}: instance {number} of the list has no 'instance_id'")
    engine = data.get("engine")
    domain = str(data.get("domain") or "planbench")
    return TaskFile(path, task, PLAN_TASKS[task], domain, None if engine is None else str(engine), instances)


def _read_text(path: Path, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{path}: no such {what}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise DataError(f"{path}: cannot read the {what} ({err})") from err


def _ground_truth(instance: dict[str, Any], where: str, lifted: LiftedTask, wording: Wording | None) -> list[str]:
    """The instance's ground-truth plan as canonical actions ([] when it has none); DataError when it
    does not solve the instance's problem (the instance folder is not this task's)."""
    truth = instance.get("ground_truth_plan")
    text = "\n".join(str(step) for step in truth) if isinstance(truth, list) else str(truth or "")
    try:
        steps = read_steps(translate(text, wording, lifted.objects))
    except ParseError:
        return []
    plan = [step.action for step in steps]
    verdict = lifted_verdict(lifted, plan)
    if not (verdict.executes and verdict.reaches_goal):
        failure = (
            f"step {verdict.first_failure + 1} {plan[verdict.first_failure]} does not execute"
            if verdict.first_failure is not None
            else "the goal does not hold after it"
        )
        raise DataError(
            f"{where}: the file's ground_truth_plan does not solve it ({failure}): is the instance folder "
            "the one of this task file (PlanBench's instances/<domain>/generated_basic; generated for "
            "task 5), and the domain file its config's?"
        )
    return plan


def _instance(
    file: TaskFile, instance: dict[str, Any], domain_text: str, folder: Path, wording: Wording | None
) -> tuple[dict[str, Any], LiftedTask]:
    """The acp record of one instance, and its parsed task."""
    number = instance["instance_id"]
    where = f"{file.path}, instance {number}"
    problem = folder / f"instance-{number}.pddl"
    if not problem.is_file():
        raise DataError(
            f"{where}: no PDDL for it: {problem} does not exist; pass --planbench-instances the instance "
            "folder of this task file (PlanBench's instances/<domain>/generated_basic, generated for task 5)"
        )
    problem_text = _read_text(problem, "instance file")
    lifted = read_strings(domain_text, problem_text, source=str(problem))
    record = {
        "id": f"{file.domain}/{number}",
        "task": file.kind,
        "domain": file.domain,
        "PDDL_domain": domain_text,
        "PDDL_problem": problem_text,
        "answer": _ground_truth(instance, where, lifted, wording),
    }
    return record, lifted


def planbench_predictions(path: Path, domain: Path, instances: Path, config: Path | None = None) -> list[Prediction]:
    """The answers of a PlanBench task file as acp predictions, each with its ``plan`` (or
    ``optplan``) record: ``domain`` is the task's domain PDDL file, ``instances`` the folder of its
    ``instance-N.pddl`` files, ``config`` a PlanBench config whose wording to read answers with
    (default: the built-in one of the file's domain, :data:`WORDINGS`; none: PDDL actions only).

    Instances without ``llm_raw_response`` are left out (PlanBench does the same); an empty one is
    a prediction (a ``parse_error`` when scored). Each prediction's line, written by ``acp score -o``,
    holds the record id, ``instance_id``, ``planbench_task``, ``planbench_file``, ``engine``, the raw
    response, the ``response`` acp read (:func:`translate`) and PlanBench's ``llm_correct`` as
    ``planbench_correct`` when the file has it."""
    file = read_task_file(path)
    folder = Path(instances)
    if not folder.is_dir():
        raise DataError(f"{folder}: no such folder (the folder of the task's instance-N.pddl files)")
    domain_text = _read_text(domain, "domain file")
    wording = read_config(config) if config is not None else wording_of(file.domain)
    if wording is not None:
        check_wording(wording, read_domain(Path(domain)), f"{path} ({file.domain})")
    answered = [instance for instance in file.instances if "llm_raw_response" in instance]
    if not answered:
        raise DataError(
            f"{path}: no instance has an 'llm_raw_response' (a prompts file?): score a model's responses/ or "
            "results/ file"
        )
    predictions = []
    for instance in answered:
        record, lifted = _instance(file, instance, domain_text, folder, wording)
        raw = instance["llm_raw_response"]
        raw = "" if raw is None else str(raw)
        line: dict[str, Any] = {
            "id": record["id"],
            "instance_id": instance["instance_id"],
            "planbench_task": file.task,
            "planbench_file": str(file.path),
        }
        if file.engine is not None:
            line["engine"] = file.engine
        line |= {"llm_raw_response": raw, "response": translate(raw, wording, lifted.objects)}
        if "llm_correct" in instance:
            line["planbench_correct"] = instance["llm_correct"]
        predictions.append(Prediction(line, file.kind, record, line["response"]))
    return predictions


def score_planbench(
    paths: Iterable[Path],
    domain: Path,
    instances: Path,
    config: Path | None = None,
    options: ScoreOptions = ScoreOptions(),
    setup: PlannerSetup = PlannerSetup(),
    jobs: int = 1,
) -> list[Scored]:
    """Score the answers of PlanBench task files (:func:`planbench_predictions`) with acp's plan scorer."""
    predictions = [p for path in paths for p in planbench_predictions(Path(path), domain, instances, config)]
    return score_predictions(predictions, options, setup, jobs=jobs, progress=False)


#: the columns of :func:`failure_rates`: no plan read at all, then the plan scorer's failure classes
FAILURE_COLUMNS = ("no_plan", *(failure.value for failure in Failure))


def failure_rates(scored: Iterable[Scored]) -> str:
    """The share of plan answers by their first failure, per task and domain: ``no_plan`` (no step
    could be read: a parse error), then the plan scorer's classes (``extra_steps`` is a plan with
    steps after the goal held); a plan without extra steps is in no column. Empty without plan answers."""
    groups: dict[tuple[str, str], Counter[str | None]] = defaultdict(Counter)
    for item in scored:
        task = item.prediction.task
        if task not in ("plan", "optplan"):
            continue
        failure = "no_plan" if item.verdict.status == PARSE_ERROR else item.verdict.details.get("failure_class")
        groups[(task, item.domain)][failure] += 1
    if not groups:
        return ""
    for task in {task for task, _ in groups}:
        domains = [counts for (t, _), counts in groups.items() if t == task]
        if len(domains) > 1:
            groups[(task, "all")] = sum(domains, Counter())
    width = max(len(name) for name in FAILURE_COLUMNS) + 2
    lines = [f"{'task':8}{'domain':22}{'n':>5}" + "".join(f"{name:>{width}}" for name in FAILURE_COLUMNS)]
    for (task, domain), counts in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] == "all", kv[0][1])):
        total = sum(counts.values())
        cells = "".join(f"{counts[name] / total:{width}.2f}" for name in FAILURE_COLUMNS)
        lines.append(f"{task:8}{domain:22}{total:5d}" + cells)
    return "\n".join(lines)
