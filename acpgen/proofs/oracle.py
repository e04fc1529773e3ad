"""Decisions behind the PSPACE-hard checks: reachability, action reachability, landmarks, h*.

Each question is first settled by cheap sound arguments (static atoms, delete relaxation,
reachability evidence from exploration and random walks), exactly by exhaustive exploration when
the reachable state space fits ``max_states``; beyond that, a short greedy search in-process finds the
paths that prove the positive answers (a state reachable, a plan avoiding an atom, a plan as short as a
known lower bound), and only what it does not find goes to a planner on a PDDL task rendered from the
ground task (:mod:`acpgen.pddl.encode`). A planner that
times out or fails is asked once more with a larger budget; if it still gives no answer the
decision is *undecided* — never silently "no".
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from acpgen.enums import StrEnum
from acpgen.pddl.encode import (
    Encoding,
    atom_bit_of,
    lifted_never_achieved,
    lifted_query,
)
from acpgen.pddl.explore import Search, StateSpace, explore, greedy_search, random_walks, reachable_within
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.lmcut import lmcut
from acpgen.pddl.model import GroundAction, split_canonical, union
from acpgen.pddl.mutexes import Mutexes, mutexes
from acpgen.pddl.sas import SasTask, sas_query
from acpgen.pddl.semantics import execute, relaxed_reachable
from acpgen.planners import Limits, PlannerResult, Planners, Status
from acpgen.proofs.closed_form import FORMULAS, closed_form
from acpgen.proofs.lifted_space import LiftedSpace, lifted_goal_reachable, lifted_space

log = logging.getLogger(__name__)


#: the most atoms :meth:`Oracle.witness_atoms` asks a planner about at once (``narrow``: the qa stage's)
WITNESS_BATCH, NARROW_BATCH = 32, 8


class Method(StrEnum):
    """How a check was decided."""

    CURRENT = "current"  # the fact or precondition holds in the current state
    STATIC = "static"  # fixed by the task whatever the state (static facts, unsatisfiable conditions, types)
    RELAXED = "relaxed"  # the delete relaxation
    H2 = "h2"  # h² mutexes: no reachable state holds the atoms together (acpgen.pddl.mutexes)
    EXPLORED = "explored"  # exhaustive exploration, or evidence found by exploration and random walks
    SEARCH = "search"  # acp's own greedy search: a path it found, or none in all it could reach (greedy_search)
    LMCUT = "lmcut"  # acp's own LM-cut estimate: a lower bound on the optimal plan length (acpgen.pddl.lmcut)
    LIFTED = "lifted"  # exhaustive exploration by the separate lifted interpreter (acpgen.proofs.lifted_space)
    PLAN = "plan"  # a planner's plan, executed by acp: one that avoids an atom, or as short as a proven lower bound
    RHW = "rhw"  # Fast Downward's RHW landmarks
    PLANNER = "planner"  # a planner's answer on a compiled query
    CHEAP = "cheap"  # undecided by the cheap checks (a planner was not allowed)
    SIMULATOR = "simulator"  # executing actions
    TRIVIAL = "trivial"  # holds in the state or the goal (landmarks)
    FORMULA = "formula"  # an optimal plan length in closed form (acpgen.proofs.closed_form)


@dataclass(frozen=True)
class Decision:
    """Answer of a check: ``value`` True/False, or None when undecided (with ``detail`` why)."""

    value: bool | None
    method: Method
    detail: str = ""

    @property
    def decided(self) -> bool:
        return self.value is not None


@dataclass(frozen=True)
class CostDecision:
    """Optimal plan length (None = no plan exists), or undecided when ``decided`` is False."""

    cost: int | None
    decided: bool
    method: Method
    detail: str = ""


#: random walks from the state by default: their atoms and actions are reachable for sure, evidence for many atoms at
#: once (the qa stage asks about many; scoring one answer asks about few, which the greedy search settles sooner)
WALKS = 40


class Oracle:
    """Checks about one ground task from one state (normally the task's initial state)."""

    def __init__(
        self,
        task: GroundTask,
        planners: Planners | None = None,
        max_states: int = 20000,
        limits: Limits = Limits(time=20.0),
        retry_factor: float = 4.0,
        state: int | None = None,
        walks: int = WALKS,
        walk_length: int = 50,
        second_opinion: bool = False,
        lifted_states: int = 0,
        search_states: int = 1000,
        formulas: tuple[str, ...] = FORMULAS,
    ):
        self.task = task
        #: the closed forms (:mod:`acpgen.proofs.closed_form`) a first opinion may take an optimal cost from
        self.formulas = formulas
        #: optimal costs by the planners' second configuration (re-proving what the first one found)
        self.second_opinion = second_opinion
        #: before any planner call, explore spaces of at most this many states with the lifted interpreter
        self.lifted_states = lifted_states
        #: before a planner is asked for a path, acp's greedy search looks for one among this many states (0: never)
        self.search_states = search_states
        #: optimal costs known exactly without a search of their own: the states along an optimal plan found
        self._known_costs: dict[int, int] = {}
        self.state = task.init if state is None else state
        self.planners = planners or Planners()
        self.max_states = max_states
        self.limits = limits
        self.retry_factor = retry_factor
        self.walks, self.walk_length = walks, walk_length
        self.planner_calls = 0
        self.evidence_plans = 8
        #: the second configuration ran out of time or budget on the oracle's own state (see :meth:`_optimal_search`)
        self._second_out_of_time = False
        #: atoms of the states on paths acp executed from the state (a greedy search's or a planner's, found for
        #: one question): each is reachable, so a later question about it needs no search of its own
        self._witnessed = 0

    # ----- shared machinery (each computed once, on first use) ----------------------------
    @functools.cached_property
    def explored(self) -> StateSpace:
        """Breadth-first exploration of at most ``max_states`` states (complete or not)."""
        return explore(self.task, self.state, max(1, self.max_states))

    @property
    def space(self) -> StateSpace | None:
        """The whole reachable state space, or None when it exceeds ``max_states``."""
        return self.explored if self.explored.complete else None

    @functools.cached_property
    def _walked(self) -> tuple[int, set[int]]:
        """Atoms and action positions seen on the random walks from the state."""
        return random_walks(self.task, self.state, self.walks, self.walk_length)

    @functools.cached_property
    def seen_atoms(self) -> int:
        """Atoms seen in explored states or on random walks: reachable for sure. When the walks saw every atom the
        delete relaxation reaches, the explored states can add none (their atoms are among those): a bounded
        exploration is then not made for this."""
        if self.explored.complete:
            return self.explored.reachable_atoms
        walked, relaxed = self._walked[0], self.relaxed[0]
        return walked if walked & relaxed == relaxed else walked | self.explored.reachable_atoms

    @functools.cached_property
    def seen_actions(self) -> set[str]:
        """Actions seen applied in explored states or on random walks: applicable for sure (as :attr:`seen_atoms`,
        the bounded exploration is not made when the walks applied every action the delete relaxation reaches)."""
        actions = self.task.actions
        if self.explored.complete:
            used = self.explored.reachable_action_indices()
        else:
            used = set(self._walked[1])
            if not {action.name for action in self.relaxed[1]} <= {actions[i].name for i in used}:
                used |= self.explored.reachable_action_indices()
        return {actions[i].name for i in used}

    @functools.cached_property
    def _lifted_fits(self) -> bool:
        """Whether the separate lifted interpreter answers about the state: ``lifted_states`` is not 0 and the space
        from the state has at most that many states. The grounded explorer, tens of times faster, tells whether the
        space is small enough: only the route is chosen with it, the answers come from the interpreter's own
        exploration."""
        return self.lifted_states > 0 and reachable_within(self.task, self.state, self.lifted_states)

    @functools.cached_property
    def lifted(self) -> LiftedSpace | None:
        """The space reachable from the state explored by the separate lifted interpreter, when it has at
        most ``lifted_states`` states (else, or with ``lifted_states`` 0, None)."""
        if not self._lifted_fits:
            return None
        return lifted_space(self.task.lifted, self.task.atoms.atoms(self.state), self.lifted_states)

    def _lifted_node(self, state: int) -> int | None:
        """The number of a state in :attr:`lifted` (None without it or outside it)."""
        space = self.lifted
        return None if space is None else space.node_of(frozenset(self.task.atoms.atoms(state)))

    @functools.cached_property
    def relaxed(self) -> tuple[int, list[GroundAction]]:
        """Atoms and actions reachable from the state in the delete relaxation."""
        return relaxed_reachable(self.task, self.state)

    def _ask(self, query, encoding: Encoding, retry: bool = True) -> PlannerResult:
        """``query`` within the oracle's limits, counted; a call that runs out of time or fails is asked once more
        with ``retry_factor`` times the budget, unless ``retry`` is False (evidence that nothing depends on)."""
        result = query(encoding.domain, encoding.problem, self.limits)
        self.planner_calls += 1  # cached or not: a question's number of calls is the same in every run
        if retry and result.status in (Status.TIMEOUT, Status.ERROR, Status.BUDGET) and self.retry_factor > 1:
            result = query(encoding.domain, encoding.problem, self.limits.scaled(self.retry_factor))
            self.planner_calls += 1
        return result

    def _reachable_by_planner(self, pos: int, neg: int, name: str) -> Decision:
        """Whether a state with ``pos`` and without ``neg`` is reachable from the state, by a planner (see
        :meth:`_planned`). The atoms of the states its plan passes through, executed by acp, are witnessed."""
        result = self._planned(pos, neg, name)
        if result.status == Status.SOLVED and result.plans:
            self._witness_plan(result.plans[0])
        return self._decision(result)

    def _witness_plan(self, plan: tuple[str, ...]) -> None:
        """The atoms of the states a planner's plan passes through from the state, when acp executes it, are
        reachable."""
        run = execute(self.task, self.state, Encoding.decode(plan), trace=True)
        if run.applicable:
            self._witnessed |= union(run.states)

    def _planned(self, pos: int, neg: int, name: str, retry: bool = True) -> PlannerResult:
        """A planner's path from the state to a state with ``pos`` and without ``neg``: a first opinion asks it
        on acp's own grounding in SAS form before anything is translated (a second opinion's proof stays the
        translator's: a procedure apart from acp's grounding)."""
        sas = None
        if not self.second_opinion:
            sas = (
                self._sas.text(self.state, self._covered)
                if (pos, neg) == (self.task.goal_pos, self.task.goal_neg)
                else sas_query(self.task, self.state, pos, neg, self._covered)
            )
        return self._ask(
            functools.partial(self.planners.solve, sas=sas), lifted_query(self.task, self.state, pos, neg, name), retry
        )

    def _solvable(self, encoding: Encoding) -> Decision:
        """Whether the encoding's goal is reachable, by a planner."""
        return self._decision(self._ask(self.planners.solve, encoding))

    @staticmethod
    def _decision(result: PlannerResult) -> Decision:
        if result.status == Status.SOLVED:
            return Decision(True, Method.PLANNER)
        if result.status == Status.UNSOLVABLE:
            return Decision(False, Method.PLANNER)
        return Decision(None, Method.PLANNER, f"planner {result.status.value}: {result.message}")

    def _search(self, pos: int, neg: int, avoid: int = 0, start: int | None = None) -> Search:
        """The greedy search from ``start`` (default: the state) for a state with ``pos`` and without
        ``neg``, through no state with an atom of ``avoid``, within ``search_states`` states."""
        if self.search_states <= 0:
            return Search(None, False)
        origin = self.state if start is None else start
        if (pos, neg, avoid, origin) == (self.task.goal_pos, self.task.goal_neg, 0, self.state):
            return self._goal_search  # asked by the goal's decision and by the landmarks' plan: searched once
        return greedy_search(self.task, pos, neg, self.search_states, (origin,), avoid)

    @functools.cached_property
    def _goal_search(self) -> Search:
        """The greedy search from the state for a plan."""
        return greedy_search(self.task, self.task.goal_pos, self.task.goal_neg, self.search_states, (self.state,))

    @functools.cached_property
    def _mutexes(self) -> Mutexes | None:
        """h² of the task, when the state is its initial state (h² starts there); None otherwise, or for a
        task h² does not analyse."""
        return mutexes(self.task) if self.state == self.task.init else None

    def _apart(self, pos: int, neg: int) -> Decision | None:
        """False when h² proves that no state reachable from the state holds ``pos`` without ``neg``; else
        None. Asked only where a planner would be next (h² is a fixpoint over the actions, not free; see
        :meth:`_in_process`), and not by a second opinion, whose proof stays the planner's (a different
        procedure from the first)."""
        if self.second_opinion:
            return None
        found = self._mutexes
        if found is not None and not found.together(pos, neg):
            return Decision(False, Method.H2)
        return None

    def _in_process(self, pos: int, neg: int) -> Decision | None:
        """Whether a state with ``pos`` and without ``neg`` is reachable, when the greedy search or h²
        settles it (else None): what is asked before a planner is."""
        return self._searched(pos, neg) or self._apart(pos, neg)

    def _searched(self, pos: int, neg: int, avoid: int = 0) -> Decision | None:
        """Whether such a state is reachable, when the greedy search settles it: True with a path found,
        False when it searched every state reachable (avoided states aside) and found none; else None."""
        search = self._search(pos, neg, avoid)
        if search.path is not None:
            self._witnessed |= union(search.path)
            return Decision(True, Method.SEARCH)
        if search.complete:
            return Decision(False, Method.SEARCH, "none among all the states reachable")
        return None

    # ----- the checks ---------------------------------------------------------------------
    def atom_reachable(self, atom_bit: int, planner: bool = True) -> Decision:
        """Can the atom hold in some state reachable from the state? (``planner=False``: cheap checks only)"""
        if self.state & atom_bit:
            return Decision(True, Method.CURRENT)
        if not self.relaxed[0] & atom_bit:
            return Decision(False, Method.RELAXED)
        if self.space is not None:
            return Decision(bool(self.space.reachable_atoms & atom_bit), Method.EXPLORED)
        if self.lifted is not None:  # before the random walks' evidence: the exploration decides either way
            return Decision(self.task.atoms.atoms(atom_bit)[0] in self.lifted.atoms, Method.LIFTED)
        if self.seen_atoms & atom_bit:
            return Decision(True, Method.EXPLORED)
        if self._witnessed & atom_bit:
            return Decision(True, Method.SEARCH, "on a path found for another question")
        if not planner:
            return Decision(None, Method.CHEAP, "needs a planner")
        return self._in_process(atom_bit, 0) or self._reachable_by_planner(atom_bit, 0, "reach")

    def witness_atoms(self, atom_bits: Sequence[int], narrow: bool = False) -> None:
        """Ask a planner for states holding several of the atoms at once, so that the atoms :meth:`atom_reachable`
        is then asked about need no call each: the atoms the cheap checks leave open are put in batches of at
        most :data:`WITNESS_BATCH` atoms that h² allows together and that name each of their objects at one place
        only, one position of one predicate (greedily, in the order given), and a planner plans for each batch in
        turn, within the oracle's budget and without a retry; the atoms of the states on a plan found, executed by
        acp, are witnessed (reachable). A witness is a path, so no atom is decided otherwise than on its own (a
        lone search over its budget may have left it undecided); a batch without a plan ends the batching, and
        every atom left is decided on its own. (One place per object keeps batches clear of sets each pair of
        which h² allows but no state holds, such as blocks on one another in a circle, each block at both places
        of ``on``, where a greedy search would search on without reporting its work; cars at one location share
        it at one place, so a batch may hold many: ferry with 50 cars, 14-19 → 3-4 calls for a state's 66-83
        open atoms.) ``narrow``: batches of at most :data:`NARROW_BATCH` atoms sharing no object at all, those the
        qa stage's questions were drawn with (the calls a state's question may make are capped,
        ``qa.max_planner_calls``, so other batches would change which states give a question)."""
        found = self._mutexes
        if found is None:
            return
        pending = [bit for bit in atom_bits if self.atom_reachable(bit, planner=False).value is None]
        while len(pending) > 1:
            batch, rest = 0, []
            used: dict[str, tuple[str, int]] = {}  # an object of the batch -> its one place (predicate, position)
            for bit in pending:
                predicate, objects = split_canonical(self.task.atoms.atoms(bit)[0])
                places = {obj: (predicate, i) for i, obj in enumerate(objects)}
                if narrow:
                    apart = not used.keys() & places.keys()
                else:
                    apart = len(places) == len(objects) and all(used.get(o, p) == p for o, p in places.items())
                if (
                    batch.bit_count() < (NARROW_BATCH if narrow else WITNESS_BATCH)
                    and apart
                    and found.together(batch | bit)
                ):
                    batch = batch | bit
                    used.update(places)
                else:
                    rest.append(bit)
            if batch.bit_count() < 2:
                return
            result = self._planned(batch, 0, "reach", retry=False)
            if result.status != Status.SOLVED or not result.plans:
                return
            self._witness_plan(result.plans[0])
            pending = [bit for bit in rest if not self._witnessed & bit]

    def facts_reachable(self, mask: int) -> Decision:
        """Can all atoms of ``mask`` hold together in some state reachable from the state?"""
        if self.state & mask == mask:
            return Decision(True, Method.CURRENT)
        if self.relaxed[0] & mask != mask:
            return Decision(False, Method.RELAXED)
        if any(s & mask == mask for s in self.explored.states):
            return Decision(True, Method.EXPLORED)
        if self.space is not None:
            return Decision(False, Method.EXPLORED)
        if self.lifted is not None:
            return Decision(self.lifted.facts_together(self.task.atoms.atoms(mask)), Method.LIFTED)
        return self._in_process(mask, 0) or self._reachable_by_planner(mask, 0, "reach")

    def action_reachable(self, action: GroundAction, planner: bool = True) -> Decision:
        """Is the action applicable in some state reachable from the state? (``planner=False``: cheap checks only)"""
        if not action.precondition:
            return Decision(False, Method.STATIC)
        if action.applicable(self.state):
            return Decision(True, Method.CURRENT)
        reached = self.relaxed[0]
        if not any(reached & pos == pos for pos, _ in action.precondition):
            return Decision(False, Method.RELAXED)
        if self.space is not None:
            return Decision(action.name in self.seen_actions, Method.EXPLORED)
        if self.lifted is not None:  # before the random walks' evidence: the exploration decides either way
            return Decision(action.name in self.lifted.actions, Method.LIFTED)
        if action.name in self.seen_actions:
            return Decision(True, Method.EXPLORED)
        if not planner:
            return Decision(None, Method.CHEAP, "needs a planner")
        return self._some_disjunct_reachable(action)

    def _some_disjunct_reachable(self, action: GroundAction) -> Decision:
        """Whether a state with one of the action's relaxed-reachable precondition disjuncts is reachable:
        the greedy search and h² first, then a planner for each disjunct they leave open."""
        reached = self.relaxed[0]
        open_disjuncts = []
        method = Method.SEARCH
        for pos, neg in action.precondition:
            if reached & pos == pos:
                searched = self._in_process(pos, neg)
                if searched is not None and searched.value:
                    return searched
                if searched is None:
                    open_disjuncts.append((pos, neg))
                elif searched.method == Method.H2:
                    method = Method.H2
        if not open_disjuncts:  # every disjunct relaxed-unreachable, searched through or apart by h²
            return Decision(False, method)
        undecided = None
        for pos, neg in open_disjuncts:
            decision = self._reachable_by_planner(pos, neg, "areach")
            if decision.value:
                return decision
            undecided = undecided or (decision if decision.value is None else None)
        return undecided or Decision(False, Method.PLANNER)

    def is_landmark(self, atom_bit: int) -> Decision:
        """Must every plan from the state pass through a state where the atom holds?

        Atoms true in the state count as landmarks (trivially); callers that want non-trivial
        landmarks exclude state and goal atoms first. If no plan exists at all, every atom is a
        landmark vacuously; the caller decides how to treat dead ends.
        """
        if self.state & atom_bit:
            return Decision(True, Method.CURRENT)
        if self.space is not None:
            return Decision(not self.space.goal_reachable_avoiding(atom_bit), Method.EXPLORED)
        if self.lifted is not None:
            return Decision(not self.lifted.goal_reachable_avoiding(self.task.atoms.atoms(atom_bit)[0]), Method.LIFTED)
        if not self.relaxed[0] & atom_bit:
            # An unreachable atom is a landmark exactly when no plan exists.
            solvable = self.goal_reachable()
            return Decision(None if solvable.value is None else not solvable.value, solvable.method, solvable.detail)
        # A plan that avoids the atom disproves it. Most atoms are on no plan at all: the atoms that plans from the
        # state pass through are collected once, and settle every other atom.
        on_plan, found_by = self._plan_evidence
        if on_plan is not None and not on_plan & atom_bit:
            return Decision(False, found_by)
        if self._relaxed_landmark(atom_bit):
            return Decision(True, Method.RELAXED)
        # Else a plan that avoids it found by the greedy search, or one of several plans from a planner (one
        # planner call answers every atom of the state).
        avoiding = self._searched(self.task.goal_pos, self.task.goal_neg, avoid=atom_bit)
        if avoiding is not None:
            return (
                Decision(False, Method.SEARCH) if avoiding.value else Decision(True, Method.SEARCH, "no plan avoids it")
            )
        if any(not atoms & atom_bit for atoms in self._plans_atoms):
            return Decision(False, Method.PLAN)
        if self._rhw_landmarks & atom_bit:
            return Decision(True, Method.RHW)
        decision = self._solvable(lifted_never_achieved(self.task, self.state, atom_bit))
        return Decision(None if decision.value is None else not decision.value, decision.method, decision.detail)

    @functools.cached_property
    def _rhw_landmarks(self) -> int:
        """Atoms that Fast Downward's RHW method proves to be landmarks (sound; 0 if it fails)."""
        found = 0
        encoding = self._goal_query("landmarks")
        result = self.planners.landmarks(encoding.domain, encoding.problem, self.limits)
        for landmark in result.landmarks:
            if len(landmark.atoms) == 1 and not (landmark.disjunctive or landmark.conjunctive):
                bit = atom_bit_of(self.task, landmark.atoms[0])
                if bit is not None:
                    found |= 1 << bit
        return found

    def _relaxed_landmark(self, atom_bit: int) -> bool:
        """Sound test: without the actions (or rules) adding the atom, the goal is not even relaxed-reachable."""
        without = [a for a in self.relaxed[1] if not a.add & atom_bit]
        reached, _ = relaxed_reachable(self.task, self.state, without, underivable=atom_bit)
        return reached & self.task.goal_pos != self.task.goal_pos

    @functools.cached_property
    def _plan_evidence(self) -> tuple[int | None, Method]:
        """The atoms a plan from the state passes through (None without a plan), and what found the plan: the
        greedy search, else (and for a second opinion, always) the planner, whose plan decides the goal
        reachable and is asked once (the planner's cache answers it again). A second opinion's plan thus comes
        from another procedure than the first opinion's greedy search, and on the translator's grounding rather
        than acp's. acp computed or executed the plan's states, so whatever found it, an atom on none of them is
        proven no landmark (alfworld: a plan passes through tens of its thousands of atoms)."""
        path = None if self.second_opinion else self._search(self.task.goal_pos, self.task.goal_neg).path
        if path is not None:
            return union(path), Method.SEARCH
        result = self._planned(self.task.goal_pos, self.task.goal_neg, "goal")
        states = (
            self._plan_states(self.state, result.plans[0]) if result.status == Status.SOLVED and result.plans else None
        )
        return (None if states is None else union(states)), Method.PLAN

    @functools.cached_property
    def _plans_atoms(self) -> list[int]:
        """For several plans from the state, the atoms each one passes through (non-landmark evidence).

        The top-k planner is asked once, within the oracle's limits, never again with a larger budget: its plans
        only spare the atoms they avoid a call of their own, which decides each of them without it. (On floortile's
        landmark questions a retry ran out of time 4 times in 5, 18.7 s each.)"""
        encoding = self._goal_query("plans")
        result = self._ask(lambda d, p, limits: self.planners.top_k(d, p, self.evidence_plans, limits), encoding, False)
        if not result.plans:
            result = self._ask(self.planners.solve, encoding)
        runs = (self._plan_states(self.state, plan) for plan in result.plans)
        return [union(states) for states in runs if states is not None]

    def _plan_states(self, state: int, plan: tuple[str, ...]) -> tuple[int, ...] | None:
        """The states a planner's plan passes through from ``state`` when acp executes it to a goal state; None
        when it does not (a plan that does not apply is logged)."""
        run = execute(self.task, state, Encoding.decode(plan), trace=True)
        if not run.applicable:
            log.warning("a planner plan does not apply from step %s on; ignoring the plan", run.failed_at)
        return run.states if run.applicable and self.task.is_goal(run.state) else None

    def goal_reachable(self) -> Decision:
        """Does a plan exist from the state? (decided once per oracle)"""
        return self._goal_decision

    @functools.cached_property
    def _goal_decision(self) -> Decision:
        if not self.task.goal_satisfiable:
            return Decision(False, Method.STATIC)
        if self.relaxed[0] & self.task.goal_pos != self.task.goal_pos:
            return Decision(False, Method.RELAXED)
        if self.space is not None:
            return Decision(self.space.goal_reachable(), Method.EXPLORED)
        lifted = self._lifted_goal_reachable()
        if lifted is not None:
            return Decision(lifted, Method.LIFTED)
        goal = self.task.goal_pos, self.task.goal_neg
        return self._searched(*goal) or self._reachable_by_planner(*goal, "goal")

    def _lifted_goal_reachable(self) -> bool | None:
        """Whether a plan exists from the state, by the separate lifted interpreter, for a space of at most
        ``lifted_states`` states (as :attr:`lifted`): its exploration when made already, else its search up to the
        first goal state (the whole space only when no goal state is reachable); None otherwise."""
        if not self._lifted_fits:
            return None
        if "lifted" in self.__dict__ and self.lifted is not None:  # explored for another question: its distances
            return self.lifted.optimal_cost() is not None  # may be known too
        return lifted_goal_reachable(self.task.lifted, self.task.atoms.atoms(self.state), self.lifted_states)

    @functools.cached_property
    def _sas(self) -> SasTask:
        """The goal query in SAS form, written once; each optimal-cost question adds its state."""
        return SasTask(self.task, self.task.goal_pos, self.task.goal_neg)

    @functools.cached_property
    def _covered(self) -> int:
        """Atoms of the task's own grounding: reachable from its initial state in the delete relaxation."""
        return self.relaxed[0] if self.state == self.task.init else relaxed_reachable(self.task, self.task.init)[0]

    def _goal_query(self, name: str, state: int | None = None) -> Encoding:
        state = self.state if state is None else state
        return lifted_query(self.task, state, self.task.goal_pos, self.task.goal_neg, name)

    def _optimal_search(self, search, encoding: Encoding, state: int, first: PlannerResult | None) -> PlannerResult:
        """An optimal search (``search(domain, problem, limits, check)``) from ``state``. A second opinion asks the
        second configuration first with a quarter of the budget and, where it does not finish, the first one
        (``first``: its answer, when the caller has it already). Once the second configuration has run out of time
        on the oracle's own state, it is not asked about the others: they are the states around it, as hard to
        search, and each try would spend its quarter of the budget for nothing (satellite with 5 satellites: 58
        successors of a state, 3 s each, none finished)."""
        if self.second_opinion and not self._second_out_of_time:
            quick = self.limits.scaled(0.25)
            quick = replace(quick, time=max(1.0, quick.time))
            result = search(encoding.domain, encoding.problem, quick, True)
            self.planner_calls += 1
            if result.status in (Status.SOLVED, Status.UNSOLVABLE):
                return result
            if result.status in (Status.TIMEOUT, Status.BUDGET) and state == self.state:
                self._second_out_of_time = True
        return first or self._first_configuration(search, encoding)

    def _first_configuration(self, search, encoding: Encoding) -> PlannerResult:
        """The optimal search's first configuration (retried with a larger budget, see :meth:`_ask`)."""
        return self._ask(lambda domain, problem, limits: search(domain, problem, limits, False), encoding)

    def optimal_cost(self, state: int | None = None, at_least: int | None = None) -> CostDecision:
        """h*(state): optimal plan length from ``state`` (default: the oracle's state).

        ``at_least``: a lower bound on h*(state) the caller has proven (a successor of a state with
        optimal cost c has at least c - 1); a plan of that length is then optimal, and no optimal search is needed.
        Such a plan is looked for by the greedy search and, by a second opinion, asked of the first configuration:
        acp executes it, so the proof that the state is that close to the goal is the plan itself, whatever
        found it (the lower bound being the second opinion's own)."""
        state = self.state if state is None else state
        if not self.task.goal_satisfiable:
            return CostDecision(None, True, Method.STATIC)
        if self.space is not None and self.space.holds(state):
            return CostDecision(self.space.optimal_cost(state), True, Method.EXPLORED)
        node = self._lifted_node(state)
        if node is not None and self.lifted is not None:
            return CostDecision(self.lifted.optimal_cost(node), True, Method.LIFTED)
        if state in self._known_costs:
            return CostDecision(self._known_costs[state], True, Method.PLANNER, "on an optimal plan found before")
        if not self.second_opinion and self._formula is not None:  # a first opinion: the re-proof searches
            cost = self._formula(state)
            if cost is not None:
                return CostDecision(cost, True, Method.FORMULA)
        reached, _ = relaxed_reachable(self.task, state)
        if reached & self.task.goal_pos != self.task.goal_pos:
            return CostDecision(None, True, Method.RELAXED)
        if at_least is not None:
            path = self._search(self.task.goal_pos, self.task.goal_neg, start=state).path
            if path is not None and len(path) - 1 == at_least:
                return CostDecision(at_least, True, Method.SEARCH, "a plan as long as the lower bound")
        sas = self._sas.text(state, self._covered)
        if sas is not None:  # the search on acp's own grounding, without translating the PDDL again
            search, encoding = (
                lambda task, _, limits, check: self.planners.optimal_sas(task, limits, check),
                Encoding(sas, ""),
            )
        else:
            search, encoding = self.planners.optimal, self._goal_query("opt", state)
        first = None
        if at_least is not None and self.second_opinion:
            first = self._first_configuration(search, encoding)
            plan = first.plans[0] if first.status == Status.SOLVED and first.plans else ()
            if plan and self._remember_suffixes(state, at_least, plan):
                return CostDecision(at_least, True, Method.PLAN, "a planner's plan as long as the lower bound")
        result = self._optimal_search(search, encoding, state, first)
        if result.status == Status.SOLVED:
            cost = min(result.costs) if result.costs else len(result.plans[0])
            self._remember_suffixes(state, cost, result.plans[0] if result.plans else ())
            return CostDecision(cost, True, Method.PLANNER)
        if result.status == Status.UNSOLVABLE:
            return CostDecision(None, True, Method.PLANNER)
        return CostDecision(None, False, Method.PLANNER, f"planner {result.status.value}: {result.message}")

    @functools.cached_property
    def _formula(self) -> Callable[[int], int | None] | None:
        """The closed form of the task's optimal costs, when it has the structure of one
        (:mod:`acpgen.proofs.closed_form`)."""
        return closed_form(self.task, self.formulas)

    def plan_length(self) -> int | None:
        """The length of the greedy search's plan from the state, an upper bound on its h* found without a planner
        (None when it found none); :meth:`cost_at_least` of the state at that length proves it optimal."""
        path = self._search(self.task.goal_pos, self.task.goal_neg).path
        return None if path is None else len(path) - 1

    def cost_at_least(self, state: int, bound: int) -> bool:
        """Whether h*(``state``) >= ``bound`` is proven without a search: acp's own LM-cut estimate of the state, a
        lower bound on its optimal plan length computed apart from the planners (:mod:`acpgen.pddl.lmcut`), is at
        least ``bound``, or no plan exists. False proves nothing (a task with derived predicates is not
        estimated)."""
        if not self.task.goal_satisfiable:
            return True
        if self.task.axioms is not None:
            return False
        estimate = lmcut(self.task, state, enough=bound)
        return estimate is None or estimate >= bound

    def _remember_suffixes(self, state: int, cost: int, plan: tuple[str, ...]) -> bool:
        """Every suffix of an optimal plan is optimal: the states along a plan of ``cost`` steps from
        ``state`` have optimal costs cost, cost - 1, ... (kept only when the plan executes, reaches the
        goal and has exactly ``cost`` steps: whether it does)."""
        states = self._plan_states(state, plan) if len(plan) == cost else None
        if states is None:
            return False
        for steps_done, reached in enumerate(states):
            self._known_costs.setdefault(reached, cost - steps_done)
        return True

    def optimal_plan(self) -> tuple[CostDecision, list[str] | None]:
        """An optimal plan from the oracle's state with its cost: read off the explored space when it is
        complete (descending h*, the first action by name at each state), else Fast Downward's optimal
        search. The plan is None when no plan exists or the search gave no answer (see the decision)."""
        if not self.task.goal_satisfiable:
            return CostDecision(None, True, Method.STATIC), None
        if self.space is not None:
            distances = self.space.goal_distances()
            if distances[0] < 0:
                return CostDecision(None, True, Method.EXPLORED), None
            at, plan = 0, []
            while distances[at] > 0:
                action, at = next((a, j) for a, j in self.space.successors[at] if distances[j] == distances[at] - 1)
                plan.append(self.task.actions[action].name)
            return CostDecision(len(plan), True, Method.EXPLORED), plan
        if self.lifted is not None:
            found = self.lifted.optimal_plan()
            return CostDecision(None if found is None else len(found), True, Method.LIFTED), found
        query = self._goal_query("optplan")
        result = self._optimal_search(self.planners.optimal, query, self.state, None)
        if result.status == Status.SOLVED and result.plans:
            plan = query.decode(result.plans[0])
            return CostDecision(len(plan), True, Method.PLANNER), plan
        if result.status == Status.UNSOLVABLE:
            return CostDecision(None, True, Method.PLANNER), None
        return CostDecision(None, False, Method.PLANNER, f"planner {result.status.value}: {result.message}"), None
