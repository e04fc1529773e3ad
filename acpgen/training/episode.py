"""One multi-step episode on a record's state: the model acts, acp answers with the exact consequence.

An episode starts from the state of any open-ended record with PDDL (acp's or a reference record;
the plan tasks' records carry an optimal plan and its cost): the prompt is the state, the goal and the
actions, in the domain's English (or PDDL), and how to act. Each turn the model writes the next
action, ``(name arg ...)``, or several, one per line, applied in order. Actions are read with the
plan-step reader (:func:`acpgen.nl.plan_steps.read_steps`) and executed one by one on the grounded
task by the plan judge's own step (:func:`acpgen.proofs.plans.execute`): raw text never reaches a
planner, and the failure messages are the plan scorer's ("step 2 (board c0 l0): precondition
(at-ferry l0) is false"). The answer to a turn names the actions applied, the first one that could
not be (the state is then unchanged and the actions after it in the turn are not applied), and the
new state, or that the goal holds.

Budget and reward. Every action read counts against ``max_steps`` (default: twice the optimal cost
plus two), and so does a turn from which no action can be read. The episode ends when the goal holds
or the budget is spent. The reward is ``optimal_cost / cost`` when the goal is reached (1.0 for an
optimal plan; when the optimal cost is unknown, 1.0 for any plan), minus ``invalid_penalty`` per
invalid step (one that names no action of the task, cannot be applied, or a turn with no action),
and never below 0; an episode that does not reach the goal scores 0. A reward cannot be raised by
noise: text that is not an action is an invalid step, and long texts are read in linear time.

No plan. A turn whose text states that no plan reaches the goal ("No plan exists: the goal cannot be
reached", read as a plan answer is read: :func:`acpgen.nl.plan_steps.read_plan`) ends the episode. The answer is
exact: the record's state is proven unsolvable when the record says so (``solvable`` false, a problem acp made and
proved unsolvable), and then the declaration earns 1 (minus the penalty of the invalid steps before it); from a
solvable record's state a plan exists (its stored one, or the oracle's), and the declaration earns 0, the feedback
saying how many steps the plan from the start has.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from acpgen.api import ground_task
from acpgen.data import TEMPLATES_DIR
from acpgen.errors import ConfigError, DataError
from acpgen.evaluation.scoring import shared_planners
from acpgen.nl.answers import ParseError
from acpgen.nl.describe import PDDL_INTRO, Describer
from acpgen.nl.plan_steps import NoPlan, read_plan
from acpgen.nl.template import TEMPLATES_ENV
from acpgen.pddl.model import split_canonical
from acpgen.pddl.tarski_io import read_strings
from acpgen.proofs.oracle import Oracle
from acpgen.proofs.plans import Step, execute, goal_fraction
from acpgen.schema import is_unsolvable
from acpgen.tasks import TASKS
from acpgen.tasks.base import Task, template_of

REPRESENTATIONS = ("nl", "pddl")
#: the groups of records that store an optimal plan (plan, optplan)
PLAN_GROUPS = frozenset({TASKS["plan"].gen_group, TASKS["optplan"].gen_group})
INSTRUCTION = (
    "Reach the goal by acting. Each turn, write the next action as (name arg1 arg2 ...), or several "
    "actions, one per line, to apply them in order. You are told the new state after your actions, or "
    "why an action cannot be applied (the state is then unchanged and the actions after it are not "
    "applied). You have {budget} actions in all; invalid ones count. The goal must hold after your last "
    "action; shorter plans score higher. If no plan can reach the goal, say so (No plan exists.) to end the episode."
)


@dataclass(frozen=True)
class EpisodeSettings:
    """How an episode is played: ``max_steps`` (None: twice the optimal cost plus two, at least 4),
    ``invalid_penalty`` (subtracted from the reward per invalid step), ``representation`` (``nl``:
    states in the domain's English, PDDL atoms for a domain without a template; ``pddl``: atoms)."""

    max_steps: int | None = None
    invalid_penalty: float = 0.1
    representation: str = "nl"

    def __post_init__(self) -> None:
        if self.representation not in REPRESENTATIONS:
            raise ConfigError(f"episode representation {self.representation!r}: choose {' or '.join(REPRESENTATIONS)}")
        if self.max_steps is not None and self.max_steps < 1:
            raise ConfigError(f"max_steps must be at least 1, not {self.max_steps}")
        if self.invalid_penalty < 0:
            raise ConfigError(f"invalid_penalty must not be negative, not {self.invalid_penalty}")


@dataclass(frozen=True)
class Feedback:
    """acp's answer to one turn: ``text`` (what the model reads next), ``done``, ``reward`` (the
    episode's reward so far; final when done), the actions ``applied`` this turn (canonical form) and
    the first ``failure`` of the turn in the judge's words (None when every action was applied)."""

    text: str
    done: bool
    reward: float
    applied: tuple[str, ...] = ()
    failure: str | None = None


@dataclass
class _Progress:
    state: int
    steps: int = 0  # actions read (and turns without one), each counts against the budget
    cost: int = 0  # actions applied
    invalid: int = 0
    failures: list[str] = field(default_factory=list)
    trajectory: list[str] = field(default_factory=list)
    declared: bool = False  # the model said that no plan reaches the goal (the episode is over)


class Episode:
    """One episode from a record's state (see the module docstring). ``prompt`` is the first
    observation; :meth:`step` takes the model's text and returns the :class:`Feedback`."""

    def __init__(self, record: dict[str, Any], settings: EpisodeSettings | None = None):
        if not isinstance(record, dict) or "PDDL_domain" not in record or "PDDL_problem" not in record:
            raise DataError("an episode starts from a record with PDDL_domain and PDDL_problem (an open-ended record)")
        self.record = record
        self.settings = settings or EpisodeSettings()
        self.task = ground_task(record)
        template = template_of(record, self.task.lifted)
        self._describer = Describer(template, self.task.lifted) if template is not None else None
        self.optimal_cost = self._optimal_cost()
        optimal = self.optimal_cost if self.optimal_cost is not None else 4
        self.max_steps = self.settings.max_steps or max(4, 2 * optimal + 2)
        self._progress = _Progress(self.task.init)

    # ----- what the model reads ---------------------------------------------------------------
    @property
    def context(self) -> str:
        """The first state, the goal and the actions (in English, or the PDDL domain and problem)."""
        return _context(self.record, self._describer, self.settings.representation)

    @property
    def instruction(self) -> str:
        """How to act, with the step budget."""
        return INSTRUCTION.format(budget=self.max_steps)

    @property
    def prompt(self) -> str:
        """The first observation: :attr:`context`, then :attr:`instruction`."""
        return f"{self.context}\n\n{self.instruction}"

    def describe(self, state: int | None = None) -> str:
        """A state (default: the current one) as the model reads it: "Currently, ..." in English, or
        its fluent atoms in PDDL."""
        state = self._progress.state if state is None else state
        atoms = self.task.atoms.atoms(state & ~self.task.static_mask & ~self.task.derived_mask)
        if self._describer is None or self.settings.representation == "pddl":
            return "The state is: " + (" ".join(sorted(atoms)) or "(no fluent holds)") + "."
        static = {(p, a) for p, a in self.task.lifted.init if p in self.task.static_predicates}
        init = frozenset(static | {split_canonical(atom) for atom in atoms})
        return Describer(self._describer.template, dataclasses.replace(self.task.lifted, init=init)).state_part()

    # ----- acting -----------------------------------------------------------------------------
    def step(self, text: str | None) -> Feedback:
        """Apply the actions of one turn's text (see the module docstring)."""
        if self.done:
            return Feedback("The episode is over.", True, self.reward)
        progress = self._progress
        try:
            steps: list[Step] = read_plan(str(text or ""))
        except ParseError:
            steps = []
        if isinstance(steps, NoPlan):
            return self._declared(steps.statement)
        lines: list[str] = []
        applied: list[str] = []
        failure = None
        if not steps:
            progress.steps += 1
            progress.invalid += 1
            failure = f"step {progress.steps}: no action could be read (write one as (name arg1 arg2 ...))"
            progress.failures.append(failure)
        for index, step in enumerate(steps):
            if self.done:
                lines.append(self._unapplied(len(steps) - index))
                break
            failure = self._apply(step, applied)
            if failure is not None:
                if index + 1 < len(steps):
                    lines.append(f"The {len(steps) - index - 1} action(s) after it were not applied.")
                break
        return Feedback(self._answer(applied, failure, lines), self.done, self.reward, tuple(applied), failure)

    def _declared(self, statement: str) -> Feedback:
        """The model said that no plan reaches the goal: the episode ends with the exact answer."""
        self._progress.declared = True
        if self.unsolvable:
            text = f"Right: no plan reaches the goal from the first state (proven). Reward: {self.reward:.2f}."
        else:
            steps = f" of {self.optimal_cost} step(s)" if self.optimal_cost is not None else ""
            text = f"Wrong: a plan{steps} reaches the goal from the first state. Reward: 0.00."
        return Feedback(f"You said: {statement[:200]}\n{text}", True, self.reward, (), None)

    def play(self, turns: Iterable[str | None]) -> list[Feedback]:
        """Apply the turns in order until the episode is over; the feedback of each turn applied."""
        feedback = []
        for text in turns:
            if self.done:
                break
            feedback.append(self.step(text))
        return feedback

    def _apply(self, step: Step, applied: list[str]) -> str | None:
        progress = self._progress
        progress.steps += 1
        after, failure, message = execute(self.task, progress.state, step, progress.steps)
        if failure is not None:
            progress.invalid += 1
            progress.failures.append(message)
            return message
        progress.state = after
        progress.cost += 1
        progress.trajectory.append(step.action)
        applied.append(step.action)
        return None

    def _unapplied(self, count: int) -> str:
        if self.goal_reached:
            return f"The goal already held; the {count} action(s) after it were not applied."
        return f"No actions left: the {count} action(s) after the last one allowed were not applied."

    def _answer(self, applied: list[str], failure: str | None, notes: list[str]) -> str:
        lines = [f"Applied: {', '.join(applied)}."] if applied else []
        if failure is not None:
            lines.append(f"{failure}; the state is unchanged." if not applied else f"Then {failure}.")
        lines += notes
        if self.goal_reached:
            best = f" (optimal: {self.optimal_cost})" if self.optimal_cost is not None else ""
            lines.append(f"The goal holds after {self._progress.cost} action(s){best}. Reward: {self.reward:.2f}.")
        elif self.steps_left == 0:
            lines.append(f"{self.describe()} No actions left: the goal does not hold. Reward: 0.00.")
        else:
            lines.append(f"{self.describe()} {self.steps_left} action(s) left.")
        return "\n".join(lines)

    # ----- where the episode stands -------------------------------------------------------------
    @property
    def goal_reached(self) -> bool:
        return self.task.is_goal(self._progress.state)

    @property
    def steps_left(self) -> int:
        return max(0, self.max_steps - self._progress.steps)

    @property
    def unsolvable(self) -> bool:
        """Whether no plan reaches the goal from the first state (the record's ``solvable`` is false: acp proved it)."""
        return is_unsolvable(self.record)

    @property
    def done(self) -> bool:
        return self.goal_reached or self.steps_left == 0 or self._progress.declared

    @property
    def reward(self) -> float:
        """``optimal_cost / cost`` once the goal holds (1.0 without a known optimal cost) minus
        ``invalid_penalty`` per invalid step, at least 0; 0 until the goal holds. Saying that no plan exists: 1
        minus the penalty when none does from the first state, else 0."""
        progress = self._progress
        if progress.declared:
            return max(0.0, 1.0 - self.settings.invalid_penalty * progress.invalid) if self.unsolvable else 0.0
        if not self.goal_reached:
            return 0.0
        efficiency = 1.0 if not self.optimal_cost or not progress.cost else min(1.0, self.optimal_cost / progress.cost)
        return max(0.0, efficiency - self.settings.invalid_penalty * progress.invalid)

    def summary(self) -> dict[str, Any]:
        """The episode's outcome and measures (for logs, metrics and the OpenEnv state)."""
        progress = self._progress
        return {
            "record": self.record.get("id"),
            "domain": self.record.get("domain"),
            "done": self.done,
            "goal_reached": self.goal_reached,
            "declared_no_plan": self._progress.declared,
            "reward": self.reward,
            "steps": progress.steps,
            "max_steps": self.max_steps,
            "cost": progress.cost,
            "optimal_cost": self.optimal_cost,
            "invalid_steps": progress.invalid,
            "goal_fraction": round(goal_fraction(self.task, progress.state), 4),
            "trajectory": list(progress.trajectory),
            "failures": list(progress.failures),
        }

    # ----- optimal costs and plans --------------------------------------------------------------
    def _optimal_cost(self) -> int | None:
        if self.unsolvable:
            return None
        stored = self.record.get("optimal_cost")
        if stored not in (None, ""):
            return int(stored)
        if self.task.is_goal(self.task.init):
            return 0
        with shared_planners() as planners:
            decision = Oracle(self.task, planners).optimal_cost()
        return decision.cost if decision.decided else None

    def optimal_plan(self) -> list[str] | None:
        """An optimal plan from the episode's first state: the record's stored plan (plan and
        optplan records), else one found by the oracle; None when there is none or none was found."""
        if self.unsolvable:
            return None
        if self.record.get("group") in PLAN_GROUPS:
            return [str(a).lower() for a in self.record["answer"]]
        with shared_planners() as planners:
            _, plan = Oracle(self.task, planners).optimal_plan()
        return plan


#: the context parts of an episode's first observation, after the state
CONTEXT_PARTS = ("goal", "actions")


def _context(record: dict[str, Any], describer: Describer | None, representation: str) -> str:
    if describer is not None and representation == "nl":
        return describer.nl_context(CONTEXT_PARTS).strip()
    return (
        f"{PDDL_INTRO}\n\nPDDL domain:\n```pddl\n{record['PDDL_domain'].strip()}\n```\n\n"
        f"PDDL problem:\n```pddl\n{record['PDDL_problem'].strip()}\n```"
    )


def _written_alike(record: dict[str, Any], representation: str) -> bool:
    """Whether the record's own ``context`` is the text of its episode's :attr:`Episode.context`: an acp record
    (``representation`` set by `acp generate`) in the same representation, of a task whose context is the state,
    the goal and the actions (plan, optplan, nexta, val, pver) worded by the default rule; in English, with words
    from acp's own template for the domain (a run with other templates, ``ACP_TEMPLATES_DIR``, wrote others) or
    from its renamed PDDL (an obfuscated record)."""
    task = TASKS.get(str(record.get("task")))
    if task is None or record.get("representation") != representation or not isinstance(record.get("context"), str):
        return False
    if representation == "pddl":
        return type(task).context is Task.context
    if task.context_parts != CONTEXT_PARTS or type(task).context is not Task.context:
        return False
    if record.get("obfuscation"):
        return True
    return not os.environ.get(TEMPLATES_ENV) and (TEMPLATES_DIR / f"{record.get('domain')}.yaml").is_file()


def episode_context(
    record: dict[str, Any], settings: EpisodeSettings | None = None, described: dict[tuple[str, ...], str] | None = None
) -> str:
    """:attr:`Episode.context` of the record's episode without starting it (no grounding, no optimal cost): the
    record's own ``context`` where `acp generate` wrote that very text (:func:`_written_alike`: the plan tasks'
    records, and those of nexta, val and pver), else described from the record's parsed PDDL. ``described``: a
    memo of descriptions by PDDL text, shared by the calls of one dataset (records of one state share it)."""
    settings = settings or EpisodeSettings()
    if "PDDL_domain" not in record or "PDDL_problem" not in record:
        raise DataError("an episode starts from a record with PDDL_domain and PDDL_problem (an open-ended record)")
    if _written_alike(record, settings.representation):
        return str(record["context"]).strip()
    if settings.representation == "pddl":
        return _context(record, None, "pddl")
    domain, problem = str(record["PDDL_domain"]), str(record["PDDL_problem"])
    key = (domain, problem, str(record.get("domain")), str(bool(record.get("obfuscation"))))
    if described is not None and key in described:
        return described[key]
    lifted = read_strings(domain, problem, f"record {record.get('id')}")
    template = template_of(record, lifted)
    text = _context(record, Describer(template, lifted) if template is not None else None, "nl")
    if described is not None:
        described[key] = text
    return text
