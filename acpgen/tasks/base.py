"""What every task module shares: the scoring context of one record, verdicts, options.

A task module owns its question generation and its answer scoring, so the two cannot disagree.
Scoring functions are pure: they read the record and the parsed answer, ask the record's
:class:`~acpgen.proofs.oracle.Oracle` when a stored answer does not settle the question, and return a
:class:`Verdict`.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from acpgen.config import QAConfig
from acpgen.enums import StrEnum
from acpgen.errors import DataError, PddlError
from acpgen.nl.answer_reader import Reader
from acpgen.nl.answers import ParseError, after_plan_heading, answer_section
from acpgen.nl.pddl_words import described_template
from acpgen.nl.ramified import template_for
from acpgen.nl.template import TEMPLATES_DIR, DomainTemplate, TemplateError, load_template, template_from_text
from acpgen.nl.template_patterns import PatternDecl
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import GroundAction, LiftedTask
from acpgen.pddl.tarski_io import read_strings
from acpgen.planners import Limits, Planners
from acpgen.proofs.closed_form import FORMULAS
from acpgen.proofs.oracle import Decision, Oracle

if TYPE_CHECKING:  # acpgen.tasks.choice and acpgen.nl.describe import this module
    from acpgen.nl.describe import Describer
    from acpgen.tasks.choice import ChoiceFormats


T = TypeVar("T")


class ScoreStatus(StrEnum):
    """How an answer was scored: ``scored`` (0 or 1), ``parse_error`` (0), ``undecided`` (not counted)."""

    SCORED = "scored"
    PARSE_ERROR = "parse_error"
    UNDECIDED = "undecided"


class Outcome(StrEnum):
    """Verdict of re-proving a stored answer (`acp validate`).

    ``error``: the checker itself raised (a bug or a malformed record it did not expect); never
    counted as ``wrong``.
    """

    OK = "ok"
    WRONG = "wrong"
    UNPROVEN = "unproven"
    ERROR = "error"


SCORED, PARSE_ERROR, UNDECIDED = ScoreStatus.SCORED, ScoreStatus.PARSE_ERROR, ScoreStatus.UNDECIDED
OK, WRONG, UNPROVEN, ERROR = Outcome.OK, Outcome.WRONG, Outcome.UNPROVEN, Outcome.ERROR


@dataclass(frozen=True)
class Check:
    """Outcome of re-proving a record's stored answer (`acp validate`)."""

    verdict: Outcome
    reason: str = ""


@dataclass(frozen=True)
class Verdict:
    """Score of one answer: ``status`` says how it was scored; ``reason`` says why."""

    score: float
    status: ScoreStatus
    reason: str
    #: further fields of the score row: measures of a set answer (precision, recall, F1) or flags
    #: (t2p: parseable, solvable, equivalent; True/False, None when undecided)
    details: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def correct(cls, reason: str = "correct") -> Verdict:
        return cls(1.0, ScoreStatus.SCORED, reason)

    @classmethod
    def wrong(cls, reason: str) -> Verdict:
        return cls(0.0, ScoreStatus.SCORED, reason)

    @classmethod
    def undecided(cls, reason: str) -> Verdict:
        return cls(0.0, ScoreStatus.UNDECIDED, reason)

    @classmethod
    def parse_error(cls, reason: str) -> Verdict:
        return cls(0.0, ScoreStatus.PARSE_ERROR, f"parse_error: {reason}")

    @classmethod
    def from_decision(cls, decision: Decision, if_true: str, if_false: str, expect: bool = True) -> Verdict:
        """Score 1 when the decision equals ``expect``; undecided when the check gave no answer."""
        if decision.value is None:
            return cls.undecided(decision.detail or "check undecided")
        if decision.value == expect:
            return cls.correct(f"{if_true if decision.value else if_false} ({decision.method})")
        return cls.wrong(f"{if_true if decision.value else if_false} ({decision.method})")


class Worded(list):  # type: ignore[type-arg]
    """A list answer read in the words of the domain's template, with the parts of its answer section that
    read as nothing (``unread``): the lenient reading leaves them out, the strict one counts them."""

    def __init__(self, items: Iterable[Any], unread: Iterable[str] = ()):
        super().__init__(items)
        self.unread = list(unread)


def readings(verdict: Verdict, unread: list[str], strict: bool) -> Verdict:
    """A verdict under the reading asked for (``strict``: the reading for rewards), the other reading's score
    and reason in its details where the two differ: an answer that is right once the parts read as nothing
    (``unread``) are left out is wrong under the strict reading (``strict_score``, ``strict_reason`` in a
    lenient verdict; ``lenient_score``, ``lenient_reason`` in a strict one)."""
    if not unread or verdict.score != 1.0 or verdict.status != ScoreStatus.SCORED:
        return verdict
    note = f"{len(unread)} part(s) read as nothing: {unread[0][:80]!r}"
    if strict:
        extra = {"lenient_score": verdict.score, "lenient_reason": f"{verdict.reason}; {note}"}
        return Verdict(0.0, ScoreStatus.SCORED, f"strict reading; {note}", {**verdict.details, **extra})
    extra = {"strict_score": 0.0, "strict_reason": f"strict reading; {note}"}
    return Verdict(verdict.score, verdict.status, f"{verdict.reason}; {note}", {**verdict.details, **extra})


def _says_none(section: str) -> bool:
    """Whether a section may say in words that the answer is empty ("nothing", "no actions", "the empty set"; the
    PDDL reader reads "None" and "[]"): substring searches, as :meth:`acpgen.nl.answer_reader.Reader.may_name`."""
    lower = section.lower()
    return any(word in lower for word in ("nothing", "no action", "no fluent", "no fact", "no propert", "the empty"))


def worded_set(ctx: RecordContext, section: str, atoms: bool) -> Worded | None:
    """The facts (``atoms``) or actions an answer section names in the template's words, with what it
    leaves unread (:class:`Worded`); None when it names none and does not say "none"."""
    if not ctx.reader.may_name(section, atoms) and not _says_none(section):
        return None
    reading = ctx.reader.read_section(section, atoms)
    if not reading.items and not reading.none:
        return None
    return Worded(reading.items, reading.unread)


def worded_plan(ctx: RecordContext, section: str) -> list[str] | None:
    """The actions of a sequence written in words (after a plan heading such as "Simplified plan:"), one a
    line, several a sentence or separated by commas (:meth:`acpgen.nl.answer_reader.Reader.steps`); None
    unless every step it names reads as one action of the task."""
    steps = ctx.reader.steps(after_plan_heading(section))
    if not steps or any(action is None for _, _, action in steps):
        return None
    return [action for _, _, action in steps if action is not None]


def in_words(parse: Callable[[str], T], response: str, words: Callable[[str], T | None]) -> T:
    """The answer ``parse`` reads (PDDL syntax); when the text holds nothing of the kind in PDDL syntax, the
    answer ``words`` reads in the response's answer section (:func:`acpgen.nl.answers.answer_section`) in the
    words of the domain's template, or the parse error when that reads none either."""
    try:
        return parse(response)
    except ParseError as err:
        if not err.nothing:  # a truncated action, None where an action is required: no words to read
            raise
        found = words(answer_section(response))
        if found is None:
            raise err from None
        return found


@dataclass(frozen=True)
class ScoreOptions:
    """How answers are judged.

    Which stored answer sets are trusted: by default only those of records acp proved itself
    (:func:`proven_by_acp`); the answers to any other record (reference data, hand-made records)
    are re-proven. ``recheck``: re-prove every answer. ``trust_stored``: trust every stored answer
    set, acp's or not (the reading of the ACPBench papers' scorers, which inherits the provably
    wrong answers of the reference data).
    ``strict_just``: accept only the removal of one action or of two consecutive actions.
    ``strict_reading``: the reading for rewards: a part of a set answer that the reader cannot read
    as a fact or an action (the reasoning-about-actions answers; in an answer in PDDL syntax, any word
    outside its groups) makes the answer wrong, instead of being left out with a note in the reason
    (the lenient reading, for evaluation). The other answers are strict already: a plan's unreadable
    step makes it invalid, a single answer is the first candidate, and a set of actions or atoms
    must equal the true set, which text that is no action or atom cannot change.
    ``max_states``: exhaustive exploration bound before planners are used. Exploring costs about
    4-7 µs per state here, a Fast Downward query 10-50 ms, but a space larger than the bound is explored
    to the bound for nothing: on `make bench-score` 1,000 states took 10.6 s, 5,000 12.6 s and 20,000
    23.5 s, with the same verdicts. ``search_states``: the in-process greedy search's bound (see the field).
    """

    recheck: bool = False
    trust_stored: bool = False
    strict_just: bool = False
    strict_reading: bool = False
    max_states: int = 1000
    #: before a planner is asked for a path (a state reached, a plan avoiding an atom, a plan as short as a
    #: lower bound), acp's greedy search looks for one among this many states (0: never)
    search_states: int = 1000
    limits: Limits = field(default_factory=lambda: Limits(time=20.0))
    retry_factor: float = 4.0  # a planner timeout is retried once with this factor (<= 1: no retry)
    #: the closed forms of optimal costs a first opinion may use (:mod:`acpgen.proofs.closed_form`)
    formulas: tuple[str, ...] = FORMULAS
    #: random walks whose atoms and actions are reachable for sure: evidence about many atoms at once, which the qa
    #: stage wants (:data:`acpgen.proofs.oracle.WALKS`); an answer asks about few, which the greedy search towards each
    #: settles sooner (scoring the reference test records' reach, areach and land answers: 23.1 s with 40 walks, 11.1
    #: s without, the same verdicts)
    walks: int = 0
    #: a record's state grounded over an earlier grounding of its problem's other states (``GroundTask.from_strings``
    #: with ``share``): the same verdicts; its ground actions and atom order are that grounding's, which the qa stage
    #: (whose questions follow a state's own atom order) and the dataset's self-check (whose planner queries are the
    #: qa stage's, answered from the cache) do not want (scoring answers to the reference test records: 817 groundings
    #: -> 110, 18.1-24.2 s -> 15.8-16.3 s on 2 processes)
    shared_grounding: bool = True
    #: re-proving (the qa stage's verification, `acp validate`): optimal costs by the planners' second
    #: configuration (A* with CEGAR, :data:`acpgen.planners.suite.CHECK_SEARCHES`) when it finishes within a quarter
    #: of the budget, else by the first configuration again (:meth:`acpgen.proofs.oracle.Oracle.optimal_cost`)
    second_opinion: bool = False
    #: re-proving: spaces of at most this many states are explored by the separate lifted interpreter
    #: (:mod:`acpgen.proofs.lifted_space`) before any planner is asked (0: never)
    lifted_states: int = 0
    #: `acp validate`: plans are also judged by validators outside acp (unified-planning's), which read the
    #: PDDL themselves and cost seconds per record on large problems; the qa stage's second proof is the
    #: lifted interpreter
    external_validators: bool = False


def proven_by_acp(record: dict[str, Any]) -> bool:
    """Whether acp proved the record's stored answer: its qa stage writes the ``uid`` field (with
    ``task``) only into records whose answer it generated and re-proved by a second route."""
    return isinstance(record.get("uid"), str) and "task" in record


@cache
def _template(domain: str, directory: Path) -> DomainTemplate | None:
    try:
        return load_template(domain, directory)
    except (TemplateError, OSError):
        return None


def template_of(record: dict[str, Any], lifted: LiftedTask) -> DomainTemplate | None:
    """The domain template of a record, checked against its PDDL: the one the record carries (``template``:
    a user's), else acp's own template of its ``domain``; None when there is none that fits (answers are
    then read in PDDL syntax only: :func:`missing_template` says why). Never ``ACP_TEMPLATES_DIR``: a score
    depends only on the record and the response. An obfuscated record's words come from its renamed PDDL
    (:func:`acpgen.nl.pddl_words.described_template`)."""
    if record.get("obfuscation"):
        return described_template(lifted)
    domain = record.get("domain")
    carried = record.get("template")
    template: DomainTemplate | None
    if isinstance(carried, str):
        try:
            template = template_from_text(carried, str(domain or lifted.domain_name), _carried_label(record))
        except TemplateError:
            return None
    else:
        template = _template(str(domain), TEMPLATES_DIR) if domain else None
    if template is None:
        return None
    try:
        template = template_for(template, lifted)
        template.check(lifted)
    except (TemplateError, PddlError):
        return None
    return template


def _carried_label(record: dict[str, Any]) -> str:
    return f"the template carried by the {record.get('domain') or 'domain'} records"


def missing_template(record: dict[str, Any], lifted: LiftedTask) -> str | None:
    """Why a record written in English has no template to read it with (None when it has one, or is PDDL
    only): said with every answer that reads as nothing, never a silent parse error."""
    if record.get("representation", "nl") == "pddl" or record.get("obfuscation") or "context" not in record:
        return None
    if template_of(record, lifted) is not None:
        return None
    domain = record.get("domain") or lifted.domain_name
    carried = record.get("template")
    if isinstance(carried, str):
        try:
            template_from_text(carried, str(domain), _carried_label(record)).check(lifted)
        except (TemplateError, PddlError) as err:
            return f"the template the record carries does not fit its domain: {err}"
    if (TEMPLATES_DIR / f"{domain}.yaml").is_file():
        return f"acp's template of {domain} does not fit the record's PDDL domain (a domain of the same name?)"
    return (
        f"the record's domain {domain!r} is not one of acp's and the record carries no template, so its English "
        f"cannot be read (records that `acp generate --template` writes carry theirs): only PDDL syntax is read"
    )


#: the readers of the last tasks read (:attr:`RecordContext.reader`), with the lifted task each was made for
_READERS: OrderedDict[tuple[int, Any, Any, Any], tuple[LiftedTask, Reader]] = OrderedDict()


class RecordContext:
    """One record plus its ground task and oracle, built lazily and once for all its answers."""

    def __init__(
        self, record: dict[str, Any], options: ScoreOptions = ScoreOptions(), planners: Planners | None = None
    ):
        self.record = record
        self.options = options
        self._planners = planners
        #: what a task derives from the record once for all its answers (t2p: the equivalence checker,
        #: which keeps the truth's analysis)
        self.memo: dict[str, Any] = {}

    @cached_property
    def task(self) -> GroundTask:
        record = self.record
        return GroundTask.from_strings(
            record["PDDL_domain"], record["PDDL_problem"], f"record {record.get('id')}", self.options.shared_grounding
        )

    @cached_property
    def lifted(self) -> LiftedTask:
        """The record's lifted task, read without grounding it: the separate interpreter and the readers of
        text need no more (and grounding is most of a reasoning-about-actions record's check)."""
        if "task" in self.__dict__:
            return self.task.lifted
        return read_strings(self.record["PDDL_domain"], self.record["PDDL_problem"], f"record {self.record.get('id')}")

    @cached_property
    def planners(self) -> Planners:
        """The planners of the record's checks (the default ones when none were given); unlike
        :attr:`oracle`, reaching them grounds nothing."""
        return self._planners or Planners()

    @cached_property
    def oracle(self) -> Oracle:
        return Oracle(self.task, self.planners, **oracle_options(self.options))

    @property
    def answer(self) -> Any:
        return self.record.get("answer")

    @cached_property
    def reader(self) -> Reader:
        """The reader of answers against the record's task: its objects and actions, in PDDL syntax or in the
        words of the domain's template (:func:`template_of`; PDDL syntax and action names only without one).
        One per lifted task and template, kept for the last tasks read (a training loop scores the same
        records again and again, and their ground tasks are kept by :mod:`acpgen.api`); reading grounds nothing."""
        key = (id(self.lifted), self.record.get("domain"), self.record.get("obfuscation"), self.record.get("template"))
        kept = _READERS.get(key)
        if kept is not None and kept[0] is self.lifted:
            _READERS.move_to_end(key)
            return kept[1]
        reader = Reader(self.lifted, template_of(self.record, self.lifted))
        _READERS[key] = (self.lifted, reader)
        if len(_READERS) > 512:
            _READERS.popitem(last=False)
        return reader

    @cached_property
    def recheck(self) -> bool:
        """Whether answers to this record are re-proven instead of compared with its stored sets."""
        if self.options.recheck:
            return True
        return not self.options.trust_stored and not proven_by_acp(self.record)


def lowered(items: Iterable[object]) -> list[str]:
    """Stored answer strings in canonical form (lower case, single spaces)."""
    return [" ".join(str(x).lower().split()) for x in items]


def known_action(task: GroundTask, name: str) -> GroundAction:
    """The ground action ``name`` names; DataError when it names none (a record naming an unknown action)."""
    action = task.action(name)
    if action is None:
        raise DataError(f"{name} is not a type-correct action of the task's PDDL")
    return action


def unknown_actions(task: GroundTask, names: list[str]) -> list[str]:
    return [n for n in names if task.action(n) is None]


def unknown_atoms(task: GroundTask, atoms: list[str]) -> list[str]:
    return [a for a in atoms if not task.is_valid_atom(a)]


def check_each(
    ctx: RecordContext, score: Callable[[RecordContext, T], Verdict], answers: Iterable[T], expect: float = 1.0
) -> Check:
    """Re-prove stored answers one by one with the task's own scorer (run under ``recheck``)."""
    for answer in answers:
        verdict = score(ctx, answer)
        if verdict.status == UNDECIDED:
            return Check(UNPROVEN, f"{answer or 'None'}: {verdict.reason}")
        if verdict.score != expect:
            return Check(WRONG, f"{answer or 'None'}: {verdict.reason}")
    return Check(OK)


def find_witness(candidates: Iterable[T], decide: Callable[[T], Decision], target: bool) -> tuple[T | None, bool]:
    """The first candidate whose decision is ``target`` (witness, True); else (None, all decided)."""
    undecided = False
    for candidate in candidates:
        value = decide(candidate).value
        if value is target:
            return candidate, True
        undecided |= value is None
    return None, not undecided


def score_none(
    ctx: RecordContext,
    stored_empty: bool,
    search: Callable[[], tuple[object, bool]],
    found: str,
    none_exists: str,
) -> Verdict:
    """Score the answer "None" (no atom/action with the asked property exists).

    Trusting stored sets, "None" is right exactly when the stored set is empty; under
    ``--recheck`` ``search()`` looks for a witness (see :func:`find_witness`).
    """
    if not ctx.recheck:
        return Verdict.correct("stored answer is None") if stored_empty else Verdict.wrong("stored answer is not None")
    witness, decided = search()
    if witness is not None:
        return Verdict.wrong(f"{witness} {found}")
    return Verdict.correct(none_exists) if decided else Verdict.undecided("some candidate undecided")


_ACTION_GROUP = re.compile(r"\([^()]*\)")


def plan_from_question(question: str) -> list[str]:
    """The action sequence quoted in a val/just question (between the first and last ``"``)."""
    first, last = question.find('"'), question.rfind('"')
    quoted = question[first + 1 : last] if 0 <= first < last else question
    return [" ".join(g.lower().split()) for g in _ACTION_GROUP.findall(quoted)]


def record_plan(record: dict[str, Any]) -> list[str]:
    """The plan of a val/just record: structured field ``plan`` if present, else from the question."""
    if record.get("plan"):
        return lowered(record["plan"])
    return plan_from_question(record["question"])


def on_plan_before_goal(state: dict[str, Any]) -> bool:
    """A state on a stored plan, not yet a goal state (val and just need the rest of the plan)."""
    return state.get("source") == "plan" and not state.get("goal")


def oracle_options(options: ScoreOptions) -> dict[str, Any]:
    """The options a record's oracle is made with: what it may explore and ask the planners (how answers
    are read does not change what it proves)."""
    return {
        "max_states": options.max_states,
        "search_states": options.search_states,
        "limits": options.limits,
        "retry_factor": options.retry_factor,
        "second_opinion": options.second_opinion,
        "lifted_states": options.lifted_states,
        "formulas": options.formulas,
        "walks": options.walks,
    }


def goal_ahead(state: dict[str, Any]) -> bool:
    """A state from which the goal is still to be reached and not ruled out by the relaxation."""
    return not state.get("goal") and state.get("relaxed_goal_reachable", True)


@dataclass(frozen=True)
class QAItem:
    """A sampled state offered to a task's question generator.

    ``state``: the record of ``states.jsonl``; ``suffix``: the rest of a stored plan from this
    state (None for rollout states).
    """

    state: dict[str, Any]
    suffix: list[str] | None
    wrong_actions: tuple[tuple[str, ...], ...] = ()  # argument types of the domain's wrong-action texts
    #: the PDDL texts of all the domain's problems (for what is a property of the domain, not of one state:
    #: the fluent types of the reasoning-about-actions tasks)
    domain_problems: tuple[str, ...] = ()
    #: the abstract patterns the domain's template declares (t2p; ``acpgen.nl.template_patterns``)
    patterns: tuple[PatternDecl, ...] = ()


class ActionCase(Protocol):
    """Writes a ground action name in the domain's own case (see :mod:`acpgen.generation.stages.export`)."""

    def __call__(self, action: str) -> str: ...


class Words(Protocol):
    """What a task needs from a describer to word its questions (see :mod:`acpgen.nl.describe`)."""

    def action(self, action: str) -> str: ...

    def atom(self, atom: str) -> str: ...

    def wrong_action(self, index: int, args: list[str]) -> str: ...


class Task(ABC):
    """The contract of a task module: everything acp knows about one task lives in its subclass.

    A task module defines one subclass and exports an instance as ``TASK``; the registry
    (:mod:`acpgen.tasks`) lists the modules. Generation, scoring, validation, the question texts'
    keys (``acpgen/data/templates/questions.yaml``), the context parts, the lm-eval instruction and the answer
    shape of exported records are all answered here, so that the stages, the describer, the
    exporters and the CLI never name a task.
    """

    #: short name (``app``); also the key of the open-ended question in ``acpgen/data/templates/questions.yaml``
    name: ClassVar[str]
    #: the reference ``group`` of open-ended records (``applicable_actions_gen``)
    gen_group: ClassVar[str]
    #: the benchmark family the task belongs to: ``acpbench`` (the ACPBench / ACPBench-Hard tasks),
    #: ``rac`` (reasoning about actions and change) or ``t2p`` (text to PDDL); exporters group tasks by
    #: it (lm-eval tags)
    family: ClassVar[str] = "acpbench"
    #: one line for ``acp tasks``
    description: ClassVar[str]
    #: optional context parts after the state, in order: "goal", "actions", "propositions"
    context_parts: ClassVar[tuple[str, ...]] = ()
    #: what an lm-eval prompt asks the answer to look like (appended to the question)
    instruction: ClassVar[str]
    #: structured record fields that the open-ended question text needs ("action", "plan")
    question_fields: ClassVar[tuple[str, ...]] = ()
    #: question texts the task brings itself, by dotted key (``{"mytask": "Which ...?"}``); the
    #: built-in tasks keep theirs in ``acpgen/data/templates/questions.yaml``, which overrides these
    questions: ClassVar[dict[str, str]] = {}
    #: the boolean and multiple-choice formats (ACPBench), or None
    choice: ClassVar[ChoiceFormats | None] = None
    #: the formats in which the task also asks about problems no plan solves (``generate_unsolvable``; the plan
    #: tasks), beside its questions per task: ``qa.unsolvable_share`` of them more
    unsolvable_formats: ClassVar[tuple[str, ...]] = ()
    #: what, besides the problem's size, makes a question of this task harder (the steps of a difficulty,
    #: ``acpgen.training.adaptive``): ``distance``, the remaining plan length of the state asked about;
    #: ``sequence``, the length of the action sequence asked about; ``none``, the problem's size alone
    difficulty_steps: ClassVar[str] = "distance"
    #: whether a question needs its state's optimal plan length (``nexta``, ``optplan``): at a level whose
    #: ``optimum_sizes`` differ from its ``sizes`` (level 5: its problems are beyond what an optimal search proves
    #: at speed), the task draws its problems from those sizes (:mod:`acpgen.generation.levels`)
    needs_optimum: ClassVar[bool] = False

    # ----- records ------------------------------------------------------------------------------
    def required_fields(self, record: dict[str, Any]) -> tuple[str, ...]:
        """The fields an open-ended record of this task must have to be scored and validated (checked
        once where records are read, so a record that lacks one is an error naming the file, the line
        and the field, not a traceback from the middle of scoring)."""
        return ("answer", "PDDL_domain", "PDDL_problem")

    # ----- generation --------------------------------------------------------------------------
    def accepts(self, state: dict[str, Any]) -> bool:
        """Whether a sampled state (a line of ``states.jsonl``) can give a question."""
        return True

    @abstractmethod
    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        """The stored fields of an open-ended question about the record's state (``answer`` and the
        structured fields the question needs), or None to skip the state. ``settings`` is the qa
        section of the configuration."""

    def generate_unsolvable(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        """The stored fields of a question about a state of a problem no plan solves (the record's ``solvable`` is
        False; :meth:`validate` re-proves it), or None to skip the state; only for the formats of
        :attr:`unsolvable_formats`."""
        return None

    # ----- scoring and validation ---------------------------------------------------------------
    @abstractmethod
    def parse(self, response: str) -> Any:
        """The answer in a raw model response; :class:`acpgen.nl.answers.ParseError` when there is none."""

    def read(self, ctx: RecordContext, response: str) -> Any:
        """The answer in a raw model response, read against the record's task (:attr:`RecordContext.reader`):
        what the scorer scores. By default :meth:`parse`; a task whose answers name actions or facts also
        reads them in the words of the domain's template. ``ParseError`` when there is no answer."""
        return self.parse(response)

    @abstractmethod
    def score(self, ctx: RecordContext, answer: Any) -> Verdict:
        """Score a parsed answer against the record (stored answers, or re-proven under ``recheck``)."""

    @abstractmethod
    def validate(self, ctx: RecordContext) -> Check:
        """Re-prove the record's stored answer by an independent route."""

    @abstractmethod
    def to_responses(self, record: dict[str, Any]) -> list[str]:
        """Model-style responses, one per stored correct answer."""

    # ----- text and export ----------------------------------------------------------------------
    def context(self, describer: Describer, record: dict[str, Any], representation: str) -> str:
        """The context of an exported open-ended record: by default the problem's state and the task's
        ``context_parts`` in the representation asked for. A task whose answer is the problem itself
        (t2p) words it differently."""
        return describer.context(self.context_parts, representation, record["PDDL_domain"], record["PDDL_problem"])

    def question_values(self, record: dict[str, Any], words: Words, pddl_actions: bool) -> dict[str, str]:
        """Values of the placeholders of the open-ended question text (``pddl_actions``: name
        actions in PDDL syntax, for contexts that hold only the PDDL)."""
        values: dict[str, str] = {}
        if "action" in record:
            values["action"] = record["action"] if pddl_actions else words.action(record["action"])
        if "plan" in record:
            values["plan"] = " ".join(record["plan"])
        return values

    def export_answer(self, answer: Any, case: ActionCase) -> Any:
        """The stored answer in the reference shape of exported records (action names in the domain's case)."""
        return answer

    def answer_elements(self, answer: Any) -> set[Any] | None:
        """The elements of a parsed answer when the task's answers are sets (for partial-credit
        measures such as Jaccard similarity in `acp report`); None when they are not."""
        return None

    def stored_elements(self, record: dict[str, Any]) -> set[Any] | None:
        """The elements of a record's stored (true) answer, comparable with `answer_elements`."""
        return None

    def question_keys(self) -> list[str]:
        """Keys of ``acpgen/data/templates/questions.yaml`` this task's texts use (the template check requires them)."""
        keys = [self.name]
        if self.choice is not None:
            keys += self.choice.question_keys(self.name)
        return keys

    def choice_formats(self) -> ChoiceFormats:
        """The task's boolean and multiple-choice formats; ValueError when it has none."""
        if self.choice is None:
            raise ValueError(f"task {self.name} has no bool or mcq format")
        return self.choice

    def group(self, fmt: str) -> str:
        """The reference ``group`` of this task's records in a format (gen, bool, mcq)."""
        if fmt == "gen":
            return self.gen_group
        choice = self.choice_formats()
        return {"bool": choice.bool_group, "mcq": choice.mcq_group}[fmt]
