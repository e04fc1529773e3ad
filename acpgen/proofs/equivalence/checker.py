"""The decision: is a candidate problem the truth's? (:class:`EquivalenceChecker`, :func:`equivalent`)

Goals are conjunctions, so the set of reachable goal states of a goal G is also selected by its
*closure*: G plus every fluent literal that holds in all of them. Two goals select the same
reachable goal states iff their closures are equal, so after closing both goals the question is an
isomorphism of coloured graphs (see :class:`ProblemGraph`). When neither goal has a negative
literal, closing under positive atoms is enough (a positive closure is then canonical too) and the
graphs stay small; otherwise both polarities are closed.

The closure ranges over the atoms some action adds or deletes (the others keep their initial value in
every reachable state, and the graphs carry the initial state). It is bounded first without searching
the whole state space: reachable goal states refute candidates (the plan of the solvability test,
greedy searches (``SEARCH_STATES`` states each) for a goal state without each remaining candidate,
started near the goal states found and guided toward an action that changes the candidate, and a
sweep from every goal state found over the goal states one action away), and invariants prove
candidates in (:mod:`acpgen.pddl.mutexes`: h² mutexes and at-least-one sets, e.g. "every hoist is
free when every crate sits on a pallet"; atoms implied by a goal atom, and atoms every action achieving
a goal atom needs and that no action can change while the goal atom holds: see
:mod:`acpgen.proofs.equivalence.reachability`). That gives bounds (the
sure literals, and the unrefuted candidates that may be in), and bounds that already differ in the
number of goal literals of some predicate decide non-equivalence. Only the candidates still open are
settled: by the whole state space when it has at most ``max_states`` states, else by the planner (a
portfolio of greedy searches, :meth:`acpgen.planners.Planners.solve`), one query each bounded by the
planner time limit, sound both ways: "is there a reachable goal state where p is false?" — a plan
removes p (and every other candidate its end state lacks), a proof of unsolvability puts p in the
closure, and any other planner outcome makes the whole answer undecided (never a silent "no").
A candidate with the truth's initial state whose goal literals include the truth's or are included in
them (a goal fact added or dropped) needs neither closure in full: the two select the same goal states
exactly when each literal one goal has more holds in every reachable goal state of the other, so only
those literals are asked about.

Placeholder mode: the truth's goal names no particular objects ("build one tower of three
blocks"), so the goal may be realised by any objects. Following Planetarium, the initial states
are matched by one bijection and the closed goals by another, chosen independently: the two
problems are equivalent when their initial-state graphs are isomorphic and their closed goals,
each together with its problem's static facts (the initial atoms of predicates no action changes:
grid adjacency, available colours, ...), are isomorphic. Without the static facts a goal about
one tile of a grid would match a goal about a tile elsewhere on the grid.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from acpgen.errors import PddlError
from acpgen.pddl.encode import lifted_query
from acpgen.pddl.explore import GreedySearch, explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import LiftedTask, bits, declared_domain_name, split_canonical, without_comments
from acpgen.pddl.mutexes import Mutexes, mutexes
from acpgen.pddl.sas import sas_query
from acpgen.pddl.semantics import execute
from acpgen.pddl.tarski_io import read_strings
from acpgen.planners import Limits, Planners, Status
from acpgen.proofs.equivalence.graph import ProblemGraph
from acpgen.proofs.equivalence.reachability import (
    GoalStates,
    changing_atoms,
    goal_out_of_reach,
    implied,
    kept_after_goal,
)
from acpgen.proofs.oracle import Oracle

#: states one greedy search may generate when looking for a goal state that refutes a closure candidate
SEARCH_STATES = 2000
#: states of a state space explored in full before a planner is asked whether a problem is solvable
SMALL_SPACE = 2000
#: the solvability search's bounds: most plans are found within the first; the second goes on from it
PLAN_SEARCH_STATES = (500, 5000)
#: the most changing atoms of a task whose h² mutexes the closure uses (0.2 s at 780 atoms on alfworld,
#: 1.4 s at 1,800; a planner's proof that a candidate is in the closure takes longer, or never comes)
H2_ATOMS = 1000
_PROBLEM_DOMAIN = re.compile(r"\(\s*:domain\s+([^\s()]+)", re.IGNORECASE)


@dataclass(frozen=True)
class Equivalence:
    """The verdict on a candidate problem: ``None`` means undecided (a planner could not answer)."""

    parseable: bool
    solvable: bool | None
    equivalent: bool | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "parseable": self.parseable,
            "solvable": self.solvable,
            "equivalent": self.equivalent,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Closure:
    """A closed goal as masks over the task's atoms; ``undecided`` names why it could not be computed."""

    pos: int = 0
    neg: int = 0
    undecided: str = ""
    open_pos: int = 0  # bounds only: candidates neither refuted nor proven yet
    open_neg: int = 0


def problem_domain_name(problem_text: str) -> str | None:
    """The NAME of a problem's ``(:domain NAME)``, lower case; None when it has none."""
    found = _PROBLEM_DOMAIN.search(without_comments(problem_text))
    return found.group(1).lower() if found else None


@dataclass
class _Parsed:
    task: GroundTask
    oracle: Oracle
    closures: dict[tuple[bool, int, int], Closure] = field(default_factory=dict)  # by (negatives, focus)
    bounds: dict[tuple[bool, int, int], Closure] = field(default_factory=dict)
    witness: tuple[int, ...] = ()  # the states from the initial state to a reachable goal state (a search's)
    solvable: bool | None = None
    mutexes: Mutexes | None = None  # the task's h² pairs (None: not computed, or the task is too large)
    mutexes_done: bool = False
    base: _Parsed | None = None  # the parse whose grounding this one shares (a candidate on the truth's task)
    borrowed: bool = False  # the witness is a prefix of the base's (see EquivalenceChecker._on_the_truths_way)


class EquivalenceChecker:
    """Decides equivalence of candidate problems against truth problems over one domain.

    The analysis of a problem (grounding, solvability, closed goal) is kept by its text, so one
    truth scored against many candidates is analysed once.
    """

    def __init__(
        self,
        domain_text: str,
        planners: Planners | None = None,
        max_states: int = 20000,
        limits: Limits = Limits(time=20.0),
        retry_factor: float = 4.0,
        lifted_states: int = 0,
    ) -> None:
        self.domain_text = domain_text
        self.planners = planners or Planners()
        self.max_states = max_states
        self.lifted_states = lifted_states  # the oracles' bound for the lifted interpreter's exploration
        self.limits = limits
        self.retry_factor = retry_factor
        self.search_states = min(max_states, SEARCH_STATES)
        self._parsed: dict[str, _Parsed] = {}
        self._carried_parses: dict[tuple[str, str], _Parsed] = {}  # candidates on a truth's task (see _carried)
        self._initial_graphs: dict[str, ProblemGraph] = {}  # see _initial_graph
        declared = declared_domain_name(domain_text)
        if declared is None:
            raise PddlError("the domain text defines no domain (no '(define (domain NAME)' found)")
        self.domain_name = declared.lower()

    # ----- parsing and analysis ---------------------------------------------------------------
    def _parse(self, problem_text: str, source: str) -> _Parsed:
        found = self._parsed.get(problem_text)
        if found is None:
            # PDDL is case-insensitive but the parser is not for its keywords; acp lower-cases every name anyway.
            task = GroundTask.from_strings(self.domain_text, problem_text.lower(), source)
            found = self._parsed[problem_text] = _Parsed(task, self._oracle(task))
        return found

    def _oracle(self, task: GroundTask) -> Oracle:
        return Oracle(
            task,
            self.planners,
            max_states=self.max_states,
            limits=self.limits,
            retry_factor=self.retry_factor,
            lifted_states=self.lifted_states,
            search_states=0,  # the checker runs its own greedy searches (solvable, refute) before the oracle
        )

    def closure(self, parsed: _Parsed, negatives: bool, focus: tuple[int, int] = (-1, -1)) -> Closure:
        """The goal closed under the fluent literals true in every reachable goal state (``negatives``:
        negative literals too). Assumes the goal is reachable. ``focus``: the atoms whose positive and
        negative literals are asked about (by default all); the closure is exact on them and may leave out
        others (a planner is asked about focused candidates only)."""
        key = (negatives, *focus)
        if key not in parsed.closures:
            bounds = self.bounds(parsed, negatives, focus)
            settle = not bounds.undecided and bounds.open_pos | bounds.open_neg
            parsed.closures[key] = self._settle(parsed, bounds, negatives) if settle else bounds
        return parsed.closures[key]

    def bounds(self, parsed: _Parsed, negatives: bool, focus: tuple[int, int] = (-1, -1)) -> Closure:
        """The closure as far as it is known without a planner: ``pos``/``neg`` are in it for sure (the
        goal's own literals, or all of it when the state space was explored), ``open_pos``/``open_neg``
        are the candidates among ``focus`` no goal state found so far refutes (see :func:`_refute`)."""
        key = (negatives, *focus)
        if key not in parsed.bounds:
            parsed.bounds[key] = self._bounds(parsed, negatives, focus)
        return parsed.bounds[key]

    def _bounds(self, parsed: _Parsed, negatives: bool, focus: tuple[int, int]) -> Closure:
        task = parsed.task
        changing = changing_atoms(task)
        # Goal states found by searches refute candidates (exact: each is a reachable goal state).
        witnesses = GoalStates(task, self.search_states, (focus[0], focus[1] if negatives else 0))
        if not parsed.witness:
            first = self._goal_state(parsed, task.goal_pos, task.goal_neg)
            if first is None or isinstance(first, str):
                return Closure(undecided=first or "the planner found no goal state of a solvable problem")
            parsed.witness = first
        if parsed.borrowed:  # a goal state of its own first: the truth's plan passes by, it does not aim
            own = (
                GreedySearch(task, task.goal_pos, task.goal_neg).run(min(self.max_states, PLAN_SEARCH_STATES[-1])).path
            )
            if own:
                witnesses.add(own)
        witnesses.add(parsed.witness)
        pos, neg = task.goal_pos & changing, task.goal_neg & changing
        open_pos = changing & ~pos & witnesses.always & focus[0]
        open_neg = (changing & ~neg & ~witnesses.ever & focus[1]) if negatives else 0
        # Candidates the invariants prove are in the closure for sure (exact: see acpgen.pddl.mutexes).
        found = self._mutexes(parsed)
        if found is not None and open_pos | open_neg:
            proven = found.implied(task.goal_pos, task.goal_neg, open_pos)
            pos, open_pos = pos | proven, open_pos & ~proven
            ruled_out = found.excluded(task.goal_pos | pos, task.goal_neg) & open_neg
            neg, open_neg = neg | ruled_out, open_neg & ~ruled_out
        kept, gone = kept_after_goal(task, open_pos, found)
        kept |= implied(task, task.goal_pos, open_pos & ~kept)  # true wherever a goal atom is
        pos, open_pos = pos | (open_pos & kept), open_pos & ~kept
        neg, open_neg = neg | (open_neg & gone), open_neg & ~gone
        for bit in bits(open_pos):
            if witnesses.always >> bit & 1:
                witnesses.refute(task.goal_pos, task.goal_neg | 1 << bit, 1 << bit)
        open_pos &= witnesses.always
        for bit in bits(open_neg):
            if not witnesses.ever >> bit & 1:
                witnesses.refute(task.goal_pos | 1 << bit, task.goal_neg, 1 << bit)
        open_neg &= ~witnesses.ever
        return Closure(pos, neg, open_pos=open_pos, open_neg=open_neg)

    def _mutexes(self, parsed: _Parsed) -> Mutexes | None:
        if parsed.base is not None:  # h² depends on the initial state and the actions, which the two share
            return self._mutexes(parsed.base)
        if not parsed.mutexes_done:
            parsed.mutexes, parsed.mutexes_done = mutexes(parsed.task, max_atoms=H2_ATOMS), True
        return parsed.mutexes

    def _settle(self, parsed: _Parsed, bounds: Closure, negatives: bool) -> Closure:
        """The candidates neither refuted nor proven: the closure read off the whole state space when it
        has at most ``max_states`` states; else each asked to the planner ("is there a reachable goal
        state where p is false?"): a plan refutes p and every candidate its end state refutes, a proof
        of unsolvability puts p in the closure, anything else leaves the closure undecided."""
        task = parsed.task
        space = parsed.oracle.space
        if space is not None:  # the state space fits max_states: the closure is read off it
            changing = changing_atoms(task)
            always, ever = -1, 0
            for state in space.states:
                if task.is_goal(state):
                    always &= state
                    ever |= state
            return Closure(always & changing, changing & ~ever if negatives else 0)
        pos, neg, open_pos, open_neg = bounds.pos, bounds.neg, bounds.open_pos, bounds.open_neg
        for bit in bits(open_pos):
            if not open_pos >> bit & 1:
                continue  # refuted by an earlier witness
            found = self._goal_state(parsed, task.goal_pos, task.goal_neg | 1 << bit)
            if isinstance(found, str):
                return Closure(undecided=found)
            if found is None:
                pos |= 1 << bit
            else:
                open_pos &= found[-1]
                open_neg &= ~found[-1]
        for bit in bits(open_neg):
            if not open_neg >> bit & 1:
                continue
            found = self._goal_state(parsed, task.goal_pos | 1 << bit, task.goal_neg)
            if isinstance(found, str):
                return Closure(undecided=found)
            if found is None:
                neg |= 1 << bit
            else:
                open_neg &= ~found[-1]
        return Closure(pos, neg)

    def _goal_state(self, parsed: _Parsed, pos: int, neg: int) -> tuple[int, ...] | str | None:
        """The states of a plan from the initial state to a reachable state with all of ``pos`` and none of
        ``neg``; None when the planner proved there is none; a reason string when it could not decide (a
        call that times out or fails is asked once more with ``retry_factor`` times the budget)."""
        task = parsed.task
        encoding = lifted_query(task, task.init, pos, neg, "closure")
        sas = sas_query(task, task.init, pos, neg, parsed.oracle.relaxed[0])  # the oracle's state is task.init
        result = self.planners.solve(self.domain_text, encoding.problem, self.limits, portfolio=True, sas=sas)
        if result.status in (Status.TIMEOUT, Status.ERROR, Status.BUDGET) and self.retry_factor > 1:
            bigger = self.limits.scaled(self.retry_factor)
            result = self.planners.solve(self.domain_text, encoding.problem, bigger, portfolio=True, sas=sas)
        if result.status == Status.UNSOLVABLE:
            return None
        if result.status != Status.SOLVED or not result.plans:
            return f"planner {result.status.value} on a goal-closure query: {result.message}"
        run = execute(task, task.init, encoding.decode(result.plans[0]), trace=True)
        if not run.applicable or run.state & pos != pos or run.state & neg:
            return "planner returned a plan that does not reach the queried state"
        return run.states

    def solvable(self, problem_text: str) -> bool | None:
        """Whether a problem's goal is reachable (None: undecided); PddlError if it does not parse."""
        return self._solvable(self._parse(problem_text, "the problem"))

    def _solvable(self, parsed: _Parsed) -> bool | None:
        """A greedy search finds the plans of most solvable problems in a few hundred states; when it does
        not, h² may prove the goal unreachable, and the search goes on, 10 times longer; only then is the oracle
        asked (exhaustive exploration, then a planner)."""
        if parsed.solvable is None:
            task = parsed.task
            if goal_out_of_reach(task):
                parsed.solvable = False
                return False
            if parsed.base is not None and self._on_the_truths_way(parsed):
                return True
            search = GreedySearch(task, task.goal_pos, task.goal_neg)  # the longer search goes on from the shorter
            for budget in (min(self.max_states, bound) for bound in PLAN_SEARCH_STATES):
                parsed.witness = tuple(search.run(budget).path or ())
                if parsed.witness:
                    break
                found = self._mutexes(parsed)
                if found is not None and not found.together(task.goal_pos, task.goal_neg):
                    parsed.solvable = False
                    return False
            if parsed.witness:
                parsed.solvable = True
            else:
                parsed.solvable = self._solvable_beyond_search(parsed)
        return parsed.solvable

    @staticmethod
    def _on_the_truths_way(parsed: _Parsed) -> bool:
        """A candidate on the truth's task (see :meth:`_carried`) whose goal holds in a state of the truth's
        plan, which is reachable from the initial state they share: solvable, that plan's prefix its
        witness (a goal with a fact less, say, needs no search of its own)."""
        assert parsed.base is not None
        for i, state in enumerate(parsed.base.witness):
            if parsed.task.is_goal(state):
                parsed.witness, parsed.solvable, parsed.borrowed = parsed.base.witness[: i + 1], True, True
                return True
        return False

    def _solvable_beyond_search(self, parsed: _Parsed) -> bool | None:
        """Solvability when the searches found no plan: relaxed reachability, then a complete exploration
        of at most ``SMALL_SPACE`` states, then the oracle (which explores up to ``max_states`` states only
        when that bound is small too, else asks a planner for a plan or a proof that none exists)."""
        task = parsed.task
        if parsed.oracle.relaxed[0] & task.goal_pos != task.goal_pos:
            return False
        small = explore(task, task.init, min(self.max_states, SMALL_SPACE))
        if small.complete:
            return any(task.is_goal(state) for state in small.states)
        if self.max_states <= SMALL_SPACE:
            return parsed.oracle.goal_reachable().value
        found = self._goal_state(parsed, task.goal_pos, task.goal_neg)
        if isinstance(found, str):
            return None
        if found is not None:
            parsed.witness = found
        return found is not None

    # ----- the decision -------------------------------------------------------------------------
    def check(
        self,
        truth_text: str,
        candidate_text: str,
        placeholder: bool = False,
        *,
        truth_name: str = "the truth problem",
        candidate_name: str = "the candidate problem",
    ) -> Equivalence:
        """Decide whether ``candidate_text`` is the problem ``truth_text`` (which must parse: PddlError
        naming it ``truth_name`` otherwise). A candidate that does not parse is not equivalent, the reason
        naming it ``candidate_name`` (`acp equivalent` names the two files).

        The initial states are compared first, on the parsed problems: when they differ, only the
        candidate's solvability is left to report. When they match, the candidate is the truth's
        grounded task with the candidate's goal carried onto the truth's objects by the matching
        bijection (a grounding depends on the objects and the initial state only), so it is not
        grounded again."""
        truth_lifted = self._read(truth_text, truth_name)
        try:
            candidate_lifted = self._read(candidate_text, candidate_name)
        except PddlError as err:
            return Equivalence(False, False, False, f"unparseable: {err}")
        declared = problem_domain_name(candidate_text)
        if declared != self.domain_name:
            reason = f"the candidate declares domain {declared}, not {self.domain_name}"
            return Equivalence(True, False, False, reason)
        onto = self._initial_graph(candidate_text, candidate_lifted).objects_onto(
            self._initial_graph(truth_text, truth_lifted)
        )
        if onto is None:
            different = _count_difference(truth_lifted, candidate_lifted)
            solvable = self._solvable(self._parse(candidate_text, candidate_name))
            return Equivalence(True, solvable, False, f"initial states differ ({different})")
        truth = self._parse(truth_text, truth_name)
        truth_solvable = self._solvable(truth)
        if truth_solvable is None:
            return Equivalence(True, None, None, "cannot decide whether the truth problem is solvable")
        candidate = self._carried(truth_text, truth, candidate_text, candidate_lifted, onto, candidate_name)
        if self._same_goal(truth, candidate) or self._raw_match(truth.task, candidate.task):
            return Equivalence(True, truth_solvable, True, "equivalent (same goal up to renaming)")
        candidate_solvable = self._solvable(candidate)
        if candidate_solvable is None:
            return Equivalence(True, None, None, "cannot decide whether the candidate is solvable")
        if not truth_solvable or not candidate_solvable:
            both = truth_solvable == candidate_solvable
            reason = "both problems are unsolvable" if both else "the candidate is unsolvable"
            if not truth_solvable and candidate_solvable:
                reason = "the truth problem is unsolvable but the candidate is solvable"
            return Equivalence(True, candidate_solvable, both, reason)
        nested = self._nested(truth, candidate)
        if nested is not None:
            return nested
        negatives = bool(truth.task.goal_neg or candidate.task.goal_neg)
        t_bounds, c_bounds = self.bounds(truth, negatives), self.bounds(candidate, negatives)
        decided = not (t_bounds.undecided or c_bounds.undecided)
        apart = _bounds_apart(truth.task, t_bounds, candidate.task, c_bounds) if decided else ""
        if apart:
            return Equivalence(True, True, False, f"goals differ after closing both ({apart})")
        t_closed, c_closed = self.closure(truth, negatives), self.closure(candidate, negatives)
        for name, closed in (("truth", t_closed), ("candidate", c_closed)):
            if closed.undecided:
                return Equivalence(True, True, None, f"cannot close the {name}'s goal: {closed.undecided}")
        t_task, c_task = truth.task, candidate.task
        if placeholder:
            t_goal = self._goal_graph(t_task, t_closed, self._init_graph(t_task.lifted, static_only=True))
            c_goal = self._goal_graph(c_task, c_closed, self._init_graph(c_task.lifted, static_only=True))
            same = t_goal.isomorphic(c_goal)
            reason = "closed goals match up to renaming" if same else "closed goals differ"
        else:
            t_whole = self._goal_graph(t_task, t_closed, self._init_graph(t_task.lifted))
            c_whole = self._goal_graph(c_task, c_closed, self._init_graph(c_task.lifted))
            same = t_whole.isomorphic(c_whole)
            reason = "equivalent after closing both goals" if same else "goals differ after closing both"
        return Equivalence(True, True, same, reason)

    def _nested(self, truth: _Parsed, candidate: _Parsed) -> Equivalence | None:
        """The verdict on a solvable candidate on the truth's task (see :meth:`_carried`) whose goal
        literals include the truth's, or are included in them (a goal fact added or dropped); None for
        any other candidate. Every goal state of the goal with more literals (the inner one) is a goal
        state of the other (the outer one), so the two select the same goal states exactly when each
        extra literal holds in every reachable goal state of the outer goal; then the closures are
        equal. Otherwise one extra literal is in the inner closure and not in the outer, which the inner
        closure contains, so the closed goals differ in size and no bijection matches them. Only the
        extra literals are asked about, not the whole closure of either goal."""
        if candidate.base is not truth:
            return None
        t, c = truth.task, candidate.task
        if c.goal_pos & t.goal_pos == t.goal_pos and c.goal_neg & t.goal_neg == t.goal_neg:
            outer, inner, name = truth, candidate, "the candidate's"
        elif t.goal_pos & c.goal_pos == c.goal_pos and t.goal_neg & c.goal_neg == c.goal_neg:
            outer, inner, name = candidate, truth, "the truth's"
        else:
            return None
        changing = changing_atoms(t)
        extra_pos = inner.task.goal_pos & ~outer.task.goal_pos & changing
        extra_neg = inner.task.goal_neg & ~outer.task.goal_neg & changing
        differ = f"goals differ: {name} extra goal literals do not always hold"
        if outer.witness and (extra_pos & ~outer.witness[-1] or extra_neg & outer.witness[-1]):
            return Equivalence(True, True, False, differ)  # the goal state the solvability search reached
        closed = self.closure(outer, bool(extra_neg), (extra_pos, extra_neg))
        if closed.undecided:
            return Equivalence(True, True, None, f"cannot close the goal: {closed.undecided}")
        if extra_pos & ~closed.pos or extra_neg & ~closed.neg:
            return Equivalence(True, True, False, differ)
        return Equivalence(True, True, True, f"equivalent: {name} extra goal literals hold in every goal state")

    def _initial_graph(self, problem_text: str, lifted: LiftedTask) -> ProblemGraph:
        """The initial-state graph of a problem text, with its canonical form, built once per text (a truth
        is compared with each of its candidates); never extended (see :meth:`_goal_graph`)."""
        if problem_text not in self._initial_graphs:
            self._initial_graphs[problem_text] = self._init_graph(lifted)
        return self._initial_graphs[problem_text]

    def _read(self, problem_text: str, source: str) -> LiftedTask:
        """The parsed problem (lower case, see :meth:`_parse`); PddlError if it does not parse."""
        return read_strings(self.domain_text, problem_text.lower(), source)

    def _carried(
        self,
        truth_text: str,
        truth: _Parsed,
        candidate_text: str,
        lifted: LiftedTask,
        onto: dict[str, str],
        candidate_name: str = "the candidate problem",
    ) -> _Parsed:
        """The candidate as the truth's task with the candidate's goal renamed by ``onto`` (a bijection
        of the candidate's objects onto the truth's under which the initial states are equal). Should
        the renamed initial state not be the truth's, the candidate is grounded on its own instead."""
        key = (truth_text, candidate_text)
        found = self._carried_parses.get(key)
        if found is not None:
            return found
        renamed_init = {(p, tuple(onto.get(a, a) for a in args)) for p, args in lifted.init}
        same_types = all(truth.task.lifted.objects.get(onto.get(o, o)) == t for o, t in lifted.objects.items())
        if renamed_init != truth.task.lifted.init or not same_types:
            return self._parse(candidate_text, candidate_name)
        goal = tuple(dataclasses.replace(lit, args=tuple(onto.get(a, a) for a in lit.args)) for lit in lifted.goal)
        task = truth.task.with_goal(goal)
        found = self._carried_parses[key] = _Parsed(task, self._oracle(task), base=truth)
        return found

    @staticmethod
    def _init_graph(lifted: LiftedTask, static_only: bool = False) -> ProblemGraph:
        """The initial facts as a graph; ``static_only``: only the facts no action changes (atoms of static
        predicates), with which a placeholder goal is matched, so a goal about one tile of a grid cannot
        match a goal about a tile at another place of the grid (Planetarium copies them into the goal
        graph as well)."""
        graph = ProblemGraph(lifted)
        static = lifted.static_predicates
        for predicate, args in sorted(lifted.init):
            if not static_only or predicate in static:
                graph.add("static" if static_only else "init", predicate, args)
        return graph

    @staticmethod
    def _goal_graph(task: GroundTask, closed: Closure, graph: ProblemGraph) -> ProblemGraph:
        graph.add_atoms("goal", task.atoms.atoms(closed.pos))
        graph.add_atoms("goal", task.atoms.atoms(closed.neg), positive=False)
        return graph

    @staticmethod
    def _same_goal(truth: _Parsed, candidate: _Parsed) -> bool:
        """The candidate on the truth's task (see :meth:`_carried`) with the truth's own fluent goal
        literals, both satisfiable: the identity matches them outright."""
        t, c = truth.task, candidate.task
        same = (t.goal_pos, t.goal_neg) == (c.goal_pos, c.goal_neg)
        return candidate.base is truth and same and t.goal_satisfiable and c.goal_satisfiable

    def _raw_match(self, truth: GroundTask, candidate: GroundTask) -> bool:
        """Initial states and fluent goal literals match under one bijection (sound without closing)."""
        if not (truth.goal_satisfiable and candidate.goal_satisfiable):
            return False
        graphs = []
        for task in (truth, candidate):
            graphs.append(self._goal_graph(task, Closure(task.goal_pos, task.goal_neg), self._init_graph(task.lifted)))
        return graphs[0].isomorphic(graphs[1])


def _literal_counts(task: GroundTask, pos: int, neg: int) -> Counter[tuple[str, bool]]:
    """Goal literals by predicate and polarity (the colours of goal nodes in a :class:`ProblemGraph`)."""
    counts: Counter[tuple[str, bool]] = Counter()
    for mask, positive in ((pos, True), (neg, False)):
        counts.update((split_canonical(atom)[0], positive) for atom in task.atoms.atoms(mask))
    return counts


def _bounds_apart(truth: GroundTask, t: Closure, candidate: GroundTask, c: Closure) -> str:
    """Why no closures within the two bounds can be isomorphic ('' when they might be): one closure
    surely has more literals of some predicate and polarity than the other can have at most."""
    t_low, c_low = _literal_counts(truth, t.pos, t.neg), _literal_counts(candidate, c.pos, c.neg)
    t_high = t_low + _literal_counts(truth, t.open_pos, t.open_neg)
    c_high = c_low + _literal_counts(candidate, c.open_pos, c.open_neg)
    for colour in sorted(set(t_low) | set(c_low)):
        sign = "" if colour[1] else "not "
        if t_low[colour] > c_high[colour]:
            return (
                f"the truth's has at least {t_low[colour]} {sign}{colour[0]}, the candidate's at most {c_high[colour]}"
            )
        if c_low[colour] > t_high[colour]:
            return (
                f"the candidate's has at least {c_low[colour]} {sign}{colour[0]}, the truth's at most {t_high[colour]}"
            )
    return ""


def _count_difference(truth: LiftedTask, candidate: LiftedTask) -> str:
    """A short account of how two non-isomorphic initial states differ (counts by type and predicate)."""
    t_types = Counter(truth.objects.values())
    c_types = Counter(candidate.objects.values())
    if t_types != c_types:
        return f"objects by type {dict(sorted(t_types.items()))} vs {dict(sorted(c_types.items()))}"
    t_preds = Counter(p for p, _ in truth.init)
    c_preds = Counter(p for p, _ in candidate.init)
    if t_preds != c_preds:
        diff = {p: (t_preds[p], c_preds[p]) for p in sorted(set(t_preds) | set(c_preds)) if t_preds[p] != c_preds[p]}
        return f"facts per predicate (truth, candidate): {diff}"
    return "same counts, different structure"


def equivalent(
    domain_text: str,
    truth_text: str,
    candidate_text: str,
    placeholder: bool = False,
    planners: Planners | None = None,
    max_states: int = 20000,
    limits: Limits = Limits(time=20.0),
) -> Equivalence:
    """One equivalence check (see :class:`EquivalenceChecker` for many against one domain)."""
    checker = EquivalenceChecker(domain_text, planners, max_states=max_states, limits=limits)
    return checker.check(truth_text, candidate_text, placeholder)
