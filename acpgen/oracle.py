"""Decisions behind the PSPACE-hard checks: reachability, action reachability, landmarks, h*.

Each question is first settled by cheap sound arguments (static atoms, delete relaxation), then
exactly by exhaustive exploration when the reachable state space fits ``max_states``, and only
beyond that by a planner on a propositional encoding built from the ground task. A planner that
times out or fails is asked once more with a larger budget; if it still gives no answer the
decision is *undecided* — never silently "no".
"""

from __future__ import annotations

from dataclasses import dataclass

from acpgen.pddl.encode import Encoding, encode, goal_of, never_achieved
from acpgen.pddl.explore import StateSpace, explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import GroundAction
from acpgen.pddl.semantics import relaxed_reachable
from acpgen.planners import Limits, Planners, PlannerResult, Status


@dataclass(frozen=True)
class Decision:
    """Answer of a check: ``value`` True/False, or None when undecided (with ``detail`` why)."""

    value: bool | None
    method: str  # static | relaxed | explored | planner
    detail: str = ""

    @property
    def decided(self) -> bool:
        return self.value is not None


@dataclass(frozen=True)
class CostDecision:
    """Optimal plan length (None = no plan exists), or undecided when ``decided`` is False."""

    cost: int | None
    decided: bool
    method: str
    detail: str = ""


class Oracle:
    """Checks about one ground task from one state (normally the task's initial state)."""

    def __init__(self, task: GroundTask, planners: Planners | None = None, max_states: int = 20000,
                 limits: Limits = Limits(time=20.0), retry_factor: float = 4.0, state: int | None = None):
        self.task = task
        self.state = task.init if state is None else state
        self.planners = planners or Planners()
        self.max_states = max_states
        self.limits = limits
        self.retry_factor = retry_factor
        self._space: StateSpace | None | bool = False  # False = not tried yet
        self._relaxed: tuple[int, list[GroundAction]] | None = None

    # ----- shared machinery ---------------------------------------------------------------
    @property
    def space(self) -> StateSpace | None:
        """The explored state space, or None when it exceeds ``max_states``."""
        if self._space is False:
            self._space = explore(self.task, self.state, self.max_states) if self.max_states > 0 else None
        return self._space  # type: ignore[return-value]

    @property
    def relaxed(self) -> tuple[int, list[GroundAction]]:
        if self._relaxed is None:
            self._relaxed = relaxed_reachable(self.task, self.state)
        return self._relaxed

    def _ask(self, query, encoding: Encoding) -> PlannerResult:
        result = query(encoding.domain, encoding.problem, self.limits)
        if result.status in (Status.TIMEOUT, Status.ERROR):
            bigger = Limits(time=self.limits.time * self.retry_factor, memory_mb=self.limits.memory_mb)
            result = query(encoding.domain, encoding.problem, bigger)
        return result

    def _solvable(self, encoding: Encoding) -> Decision:
        result = self._ask(self.planners.solve, encoding)
        if result.status == Status.SOLVED:
            return Decision(True, "planner")
        if result.status == Status.UNSOLVABLE:
            return Decision(False, "planner")
        return Decision(None, "planner", f"planner {result.status.value}: {result.message}")

    # ----- the checks ---------------------------------------------------------------------
    def atom_reachable(self, atom_bit: int) -> Decision:
        """Can the atom hold in some state reachable from the state?"""
        if self.state & atom_bit:
            return Decision(True, "static")
        if not self.relaxed[0] & atom_bit:
            return Decision(False, "relaxed")
        if self.space is not None:
            return Decision(bool(self.space.reachable_atoms & atom_bit), "explored")
        return self._solvable(encode(self.task, self.state, ((atom_bit, 0),), self.relaxed[1], "reach"))

    def action_reachable(self, action: GroundAction) -> Decision:
        """Is the action applicable in some state reachable from the state?"""
        if not action.precondition:
            return Decision(False, "static")
        if action.applicable(self.state):
            return Decision(True, "static")
        reached = self.relaxed[0]
        if not any(reached & pos == pos for pos, _ in action.precondition):
            return Decision(False, "relaxed")
        if self.space is not None:
            return Decision(any(action.applicable(s) for s in self.space.states), "explored")
        return self._solvable(encode(self.task, self.state, action.precondition, self.relaxed[1], "areach"))

    def is_landmark(self, atom_bit: int) -> Decision:
        """Must every plan from the state pass through a state where the atom holds?

        Atoms true in the state count as landmarks (trivially); callers that want non-trivial
        landmarks exclude state and goal atoms first. If no plan exists at all, every atom is a
        landmark vacuously; the caller decides how to treat dead ends.
        """
        if self.state & atom_bit:
            return Decision(True, "static")
        if self.space is not None:
            return Decision(not self.space.goal_reachable_avoiding(atom_bit), "explored")
        if not self.relaxed[0] & atom_bit:
            # An unreachable atom is a landmark exactly when no plan exists.
            solvable = self.goal_reachable()
            return Decision(None if solvable.value is None else not solvable.value, solvable.method, solvable.detail)
        decision = self._solvable(never_achieved(self.task, self.state, atom_bit))
        return Decision(None if decision.value is None else not decision.value, decision.method, decision.detail)

    def goal_reachable(self) -> Decision:
        if not self.task.goal_satisfiable:
            return Decision(False, "static")
        if self.relaxed[0] & self.task.goal_pos != self.task.goal_pos:
            return Decision(False, "relaxed")
        if self.space is not None:
            return Decision(self.space.optimal_cost() is not None, "explored")
        return self._solvable(encode(self.task, self.state, goal_of(self.task), self.relaxed[1], "goal"))

    def optimal_cost(self, state: int | None = None) -> CostDecision:
        """h*(state): optimal plan length from ``state`` (default: the oracle's state)."""
        state = self.state if state is None else state
        if not self.task.goal_satisfiable:
            return CostDecision(None, True, "static")
        if self.space is not None and state in self.space.index:
            return CostDecision(self.space.optimal_cost(state), True, "explored")
        reached, relevant = relaxed_reachable(self.task, state)
        if reached & self.task.goal_pos != self.task.goal_pos:
            return CostDecision(None, True, "relaxed")
        result = self._ask(self.planners.optimal, encode(self.task, state, goal_of(self.task), relevant, "opt"))
        if result.status == Status.SOLVED:
            return CostDecision(min(result.costs) if result.costs else len(result.plans[0]), True, "planner")
        if result.status == Status.UNSOLVABLE:
            return CostDecision(None, True, "planner")
        return CostDecision(None, False, "planner", f"planner {result.status.value}: {result.message}")
