"""What every task module shares: the scoring context of one record, verdicts, options.

A task module owns its question generation and its answer scoring, so the two cannot disagree.
Scoring functions are pure: they read the record and the parsed answer, ask the record's
:class:`~acpgen.oracle.Oracle` when a stored answer does not settle the question, and return a
:class:`Verdict`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from acpgen.oracle import Decision, Oracle
from acpgen.pddl.grounding import GroundTask
from acpgen.planners import Limits, Planners

SCORED, PARSE_ERROR, UNDECIDED = "scored", "parse_error", "undecided"
OK, WRONG, UNPROVEN = "ok", "wrong", "unproven"
ERROR = "error"  # `acp validate`: the check itself raised (never counted as a wrong answer)


@dataclass(frozen=True)
class Check:
    """Outcome of re-proving a record's stored answer (`acp validate`)."""

    verdict: str  # ok | wrong | unproven | error
    reason: str = ""


@dataclass(frozen=True)
class Verdict:
    """Score of one answer: ``status`` is scored / parse_error / undecided; ``reason`` says why."""

    score: float
    status: str
    reason: str

    @classmethod
    def correct(cls, reason: str = "correct") -> Verdict:
        return cls(1.0, SCORED, reason)

    @classmethod
    def wrong(cls, reason: str) -> Verdict:
        return cls(0.0, SCORED, reason)

    @classmethod
    def undecided(cls, reason: str) -> Verdict:
        return cls(0.0, UNDECIDED, reason)

    @classmethod
    def from_decision(cls, decision: Decision, if_true: str, if_false: str, expect: bool = True) -> Verdict:
        """Score 1 when the decision equals ``expect``; undecided when the check gave no answer."""
        if decision.value is None:
            return cls.undecided(decision.detail or "check undecided")
        if decision.value == expect:
            return cls.correct(f"{if_true if decision.value else if_false} ({decision.method})")
        return cls.wrong(f"{if_true if decision.value else if_false} ({decision.method})")


@dataclass(frozen=True)
class ScoreOptions:
    """How answers are judged.

    ``recheck``: re-prove every answer instead of trusting stored answer sets.
    ``strict_just``: accept only the removal of one action or of two consecutive actions.
    ``max_states``: exhaustive exploration bound before planners are used.
    """

    recheck: bool = False
    strict_just: bool = False
    max_states: int = 20000
    limits: Limits = field(default_factory=lambda: Limits(time=20.0))
    retry_factor: float = 4.0  # a planner timeout is retried once with this factor (<= 1: no retry)


class RecordContext:
    """One record plus its ground task and oracle, built lazily and once for all its answers."""

    def __init__(self, record: dict, options: ScoreOptions = ScoreOptions(), planners: Planners | None = None):
        self.record = record
        self.options = options
        self._planners = planners

    @cached_property
    def task(self) -> GroundTask:
        source = f"record {self.record.get('id')}"
        return GroundTask.from_strings(self.record["PDDL_domain"], self.record["PDDL_problem"], source)

    @cached_property
    def oracle(self) -> Oracle:
        return Oracle(
            self.task,
            self._planners,
            max_states=self.options.max_states,
            limits=self.options.limits,
            retry_factor=self.options.retry_factor,
        )

    @property
    def answer(self) -> Any:
        return self.record.get("answer")


def lowered(items) -> list[str]:
    """Stored answer strings in canonical form (lower case, single spaces)."""
    return [" ".join(str(x).lower().split()) for x in items]


def unknown_actions(task: GroundTask, names: list[str]) -> list[str]:
    return [n for n in names if task.action(n) is None]


def unknown_atoms(task: GroundTask, atoms: list[str]) -> list[str]:
    return [a for a in atoms if not task.is_valid_atom(a)]


def check_each(ctx: RecordContext, score: Callable, answers, expect: float = 1.0) -> Check:
    """Re-prove stored answers one by one with the task's own scorer (run under ``recheck``)."""
    for answer in answers:
        verdict = score(ctx, answer)
        if verdict.status == UNDECIDED:
            return Check(UNPROVEN, f"{answer or 'None'}: {verdict.reason}")
        if verdict.score != expect:
            return Check(WRONG, f"{answer or 'None'}: {verdict.reason}")
    return Check(OK)


def find_witness(candidates, decide: Callable[[Any], Decision], target: bool) -> tuple[Any, bool]:
    """The first candidate whose decision is ``target`` (witness, True); else (None, all decided)."""
    undecided = False
    for candidate in candidates:
        value = decide(candidate).value
        if value is target:
            return candidate, True
        undecided |= value is None
    return None, not undecided


def score_none(ctx: RecordContext, stored_empty: bool, search, found: str, none_exists: str) -> Verdict:
    """Score the answer "None" (no atom/action with the asked property exists).

    Trusting stored sets, "None" is right exactly when the stored set is empty; under
    ``--recheck`` ``search()`` looks for a witness (see :func:`find_witness`).
    """
    if not ctx.options.recheck:
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


def record_plan(record: dict) -> list[str]:
    """The plan of a val/just record: structured field ``plan`` if present, else from the question."""
    if record.get("plan"):
        return lowered(record["plan"])
    return plan_from_question(record["question"])


def on_plan_before_goal(state: dict) -> bool:
    """A state on a stored plan, not yet a goal state (val and just need the rest of the plan)."""
    return state.get("source") == "plan" and not state.get("goal")


def goal_ahead(state: dict) -> bool:
    """A state from which the goal is still to be reached and not ruled out by the relaxation."""
    return not state.get("goal") and state.get("relaxed_goal_reachable", True)


@dataclass(frozen=True)
class QAItem:
    """A sampled state offered to a task's question generator.

    ``state``: the record of ``states.jsonl``; ``suffix``: the rest of a stored plan from this
    state (None for rollout states).
    """

    state: dict
    suffix: list[str] | None
    wrong_actions: tuple[tuple[str, ...], ...] = ()  # argument types of the domain's wrong-action texts


@dataclass(frozen=True)
class Task:
    """A task: short name, reference group names, answer parser, scorer."""

    name: str
    gen_group: str
    description: str
    parse: Callable[[str], Any]
    score: Callable[[RecordContext, Any], Verdict]
    to_responses: Callable[[dict], list[str]]  # model-style responses, one per stored correct answer
    validate: Callable[[RecordContext], Check]  # re-prove the stored answer (context built with recheck)
    # (context, item, random.Random, QAConfig) -> the stored fields of a question, or None to skip the state
    generate: Callable[[RecordContext, QAItem, Any, Any], dict | None]
    accepts: Callable[[dict], bool] = lambda state: True  # which sampled states can give a question
    choice: Any = None  # acpgen.tasks.choice.ChoiceSpec: the task's boolean and multiple-choice formats
