"""Judging a written plan exactly: which steps name actions of the task, how far it executes, what
it achieves, and where and why it fails first — by three procedures that share nothing.

* :func:`judge` runs on acp's grounded task (:class:`~acpgen.pddl.grounding.GroundTask`, bit masks);
  it gives the verdict and the partial-credit measures a scorer reports.
* :func:`lifted_verdict` runs the same steps on the separate lifted interpreter
  (:class:`~acpgen.proofs.change.world.LiftedWorld`: sets of atoms, schemas substituted step by step).
* :func:`unified_planning_verdict` asks unified-planning's own PDDL reader and
  ``SequentialPlanValidator`` (an optional dependency: ``pip install acpgen[plan]``); it returns None
  where that library is not installed or cannot read the domain, and the caller says so.

A step is read from text before it gets here (:mod:`acpgen.nl.plan_steps`); a step that names no
action of the task — unknown action or object, wrong number or types of arguments — is an
unreadable step, which makes the plan invalid: it is never dropped.
"""

from __future__ import annotations

import logging
import os
import tempfile
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from acpgen.enums import StrEnum
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import EQUALITY, LiftedTask, Literal, canonical
from acpgen.proofs.change.world import LiftedWorld

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Step:
    """One step as read from a written plan: the text as written, and the action name and arguments
    it was read as (lower case); ``name`` is None when the text could not be read as an action."""

    text: str
    name: str | None
    args: tuple[str, ...] = ()

    @property
    def action(self) -> str:
        """The step in acp's canonical form, ``(name arg ...)`` (the text as written if unreadable)."""
        return canonical(self.name, self.args) if self.name is not None else self.text


class Failure(StrEnum):
    """Why a plan is not a plan, or is a plan with steps after the goal was reached."""

    UNREADABLE = "unreadable_step"  # a step names no action of the task
    NOT_EXECUTABLE = "not_executable"  # a step's precondition is false when it is reached
    GOAL_NOT_REACHED = "goal_not_reached"  # every step executes; the goal does not hold at the end
    EXTRA_STEPS = "extra_steps"  # a plan, but the goal already held before its last step


@dataclass(frozen=True)
class PlanRun:
    """The verdict on a written plan and its partial-credit measures.

    ``prefix``: how many steps execute from the start (up to the first unreadable or inexecutable
    step); ``goal_fraction``: the share of the goal's literals true after that prefix;
    ``goal_at``: the number of steps after which the goal first held (None: never).
    """

    length: int
    prefix: int
    goal_fraction: float
    reaches_goal: bool
    goal_at: int | None
    failure: Failure | None
    message: str

    @property
    def valid(self) -> bool:
        """Every step names an action of the task and executes in turn."""
        return self.failure not in (Failure.UNREADABLE, Failure.NOT_EXECUTABLE)

    @property
    def is_plan(self) -> bool:
        return self.valid and self.reaches_goal


def resolve(task: GroundTask, step: Step) -> str | None:
    """Why ``step`` names no ground action of the task (unknown action or object, wrong arity or
    type), or None when it names one."""
    lifted = task.lifted
    if step.name is None:
        return "cannot be read as an action"
    schema = lifted.schemas.get(step.name)
    if schema is None:
        return f"there is no action named {step.name}"
    if len(step.args) != len(schema.params):
        return f"{step.name} takes {len(schema.params)} arguments, not {len(step.args)}"
    unknown = [a for a in step.args if a not in lifted.objects]
    if unknown:
        return f"unknown object{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}"
    for arg, (_, type_name) in zip(step.args, schema.params):
        if arg not in lifted.objects_of(type_name):
            return f"{arg} is not of type {type_name}"
    return None


def _literal_text(literal: Literal, binding: dict[str, str]) -> str:
    atom = canonical(literal.predicate, tuple(binding.get(a, a) for a in literal.args))
    return atom if literal.positive else f"(not {atom})"


def first_false_precondition(task: GroundTask, action: str, state: int) -> str:
    """The first precondition literal of ``action`` (a ground action name) that is false in ``state``,
    in words; for a disjunctive precondition, that no disjunct holds."""
    lifted = task.lifted
    step_name, *args = action.strip("()").split()
    schema = lifted.schemas[step_name]
    binding = {variable: arg for (variable, _), arg in zip(schema.params, args)}
    facts = set(task.atoms.atoms(state)) | {canonical(p, a) for p, a in lifted.init if p in task.static_predicates}
    false = []
    for conjunction in schema.precondition:
        for literal in conjunction:
            values = tuple(binding.get(a, a) for a in literal.args)
            if literal.predicate == EQUALITY:
                holds = (values[0] == values[1]) == literal.positive
            else:
                holds = (canonical(literal.predicate, values) in facts) == literal.positive
            if not holds:
                false.append(_literal_text(literal, binding))
                break
    if len(schema.precondition) == 1 and false:
        return f"precondition {false[0]} is false"
    return "no disjunct of its precondition holds"


def goal_fraction(task: GroundTask, state: int) -> float:
    """The share of the goal's literals that hold in ``state`` (1.0 for an empty goal)."""
    wanted = task.goal_pos.bit_count() + task.goal_neg.bit_count()
    if wanted == 0:
        return 1.0
    return ((state & task.goal_pos).bit_count() + (task.goal_neg & ~state).bit_count()) / wanted


def goal_progress(task: GroundTask, state: int, start: int | None = None) -> float | None:
    """The progress from ``start`` (default: the task's initial state) to ``state``: of the goal's literals false in
    ``start``, the share true in ``state`` (literals true in ``start`` earn nothing); None when every goal literal
    holds in ``start`` already (no progress to make)."""
    start = task.init if start is None else start
    pos, neg = task.goal_pos & ~start, task.goal_neg & start
    wanted = pos.bit_count() + neg.bit_count()
    if wanted == 0:
        return None
    return ((state & pos).bit_count() + (neg & ~state).bit_count()) / wanted


def execute(task: GroundTask, state: int, step: Step, number: int) -> tuple[int, Failure | None, str]:
    """Execute one step on the grounded task: the state after it and, when it cannot be executed,
    why (``unreadable_step`` or ``not_executable``) in the judge's words, ``step <number> (name
    arg ...): ...``; the state is unchanged then. The plan judge and multi-step episodes
    (:mod:`acpgen.training.episode`) take every step through here."""
    where = f"step {number} {step.action}"
    problem = resolve(task, step)
    if problem is not None:
        return state, Failure.UNREADABLE, f"{where}: {problem}"
    action = task.action(step.action)
    assert action is not None  # resolve() found the schema, arity and types
    if not action.applicable(state):
        return state, Failure.NOT_EXECUTABLE, f"{where}: {first_false_precondition(task, action.name, state)}"
    return action.apply(state), None, ""


def judge(task: GroundTask, steps: Sequence[Step], state: int | None = None) -> PlanRun:
    """Execute ``steps`` on the grounded task from ``state`` (default: its initial state)."""
    state = task.init if state is None else state
    goal_at = 0 if task.is_goal(state) else None
    for index, step in enumerate(steps):
        after, failure, message = execute(task, state, step, index + 1)
        if failure is not None:
            return PlanRun(len(steps), index, goal_fraction(task, state), False, goal_at, failure, message)
        state = after
        if goal_at is None and task.is_goal(state):
            goal_at = index + 1
    reached = task.is_goal(state)
    fraction = goal_fraction(task, state)
    if not reached:
        held = f" (it held after step {goal_at})" if goal_at else ""
        return PlanRun(len(steps), len(steps), fraction, False, goal_at, Failure.GOAL_NOT_REACHED,
                       f"the goal does not hold after the last step{held}")  # fmt: skip
    if goal_at is not None and goal_at < len(steps):
        return PlanRun(len(steps), len(steps), fraction, True, goal_at, Failure.EXTRA_STEPS,
                       f"the goal already held after step {goal_at} of {len(steps)}")  # fmt: skip
    return PlanRun(len(steps), len(steps), fraction, True, goal_at, None, "a plan")


# ----- the independent procedures ------------------------------------------------------------
@dataclass(frozen=True)
class PlanVerdict:
    """A plan verdict from an independent procedure: ``executes`` (every step names an action and
    executes in turn) and ``reaches_goal``; ``first_failure``: the 0-based index of the first step
    that does not execute (None if all do)."""

    executes: bool
    reaches_goal: bool
    first_failure: int | None


def lifted_verdict(lifted: LiftedTask, actions: Sequence[str]) -> PlanVerdict:
    """The plan on the lifted interpreter: names are matched against the schemas and objects there."""
    world = LiftedWorld(lifted, {})
    states, failed = world.run(list(actions))
    if failed is not None:
        return PlanVerdict(False, False, failed)
    end = states[-1]

    def holds(literal: Literal) -> bool:
        if literal.predicate == EQUALITY:
            return (literal.args[0] == literal.args[1]) == literal.positive
        return (canonical(literal.predicate, literal.args) in end) == literal.positive

    return PlanVerdict(True, all(holds(lit) for lit in lifted.goal), None)


def unified_planning_verdict(domain_text: str, problem_text: str, actions: Sequence[str]) -> PlanVerdict | None:
    """The plan judged by unified-planning's PDDL reader and ``SequentialPlanValidator``; None when
    unified-planning is not installed or cannot read the task (its reader refuses derived
    predicates, for one). Only ``executes and reaches_goal`` is compared: the library reports a
    failing plan without a step index, so ``first_failure`` is None."""
    try:
        import unified_planning.shortcuts as up_shortcuts
        from unified_planning.engines import SequentialPlanValidator, ValidationResultStatus
        from unified_planning.io import PDDLReader
    except ImportError:
        return None
    environment = up_shortcuts.get_environment()
    environment.credits_stream = None
    environment.error_used_name = False  # PDDL lets an action share a predicate's name (floortile's up, down, ...)
    with tempfile.TemporaryDirectory(prefix="acp-up-") as folder:
        domain, problem = Path(folder) / "domain.pddl", Path(folder) / "problem.pddl"
        domain.write_text(domain_text)
        problem.write_text(problem_text)
        reader = PDDLReader()
        try:
            with warnings.catch_warnings():  # "Name up already defined!": allowed, see error_used_name
                warnings.simplefilter("ignore", UserWarning)
                parsed = reader.parse_problem(os.fspath(domain), os.fspath(problem))
        except Exception as error:  # the library's own parse errors have no common base class
            log.info("unified-planning cannot read the task: %s", error)
            return None
        try:
            plan = reader.parse_plan_string(parsed, "\n".join(actions))
        except Exception:  # a step naming no action or object of the task
            return PlanVerdict(False, False, None)
    result = SequentialPlanValidator().validate(parsed, plan)
    ok = result.status == ValidationResultStatus.VALID
    return PlanVerdict(ok, ok, None)
