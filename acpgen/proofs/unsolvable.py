"""Proofs that no plan exists: a complete search that ends without a plan, and a second, different procedure.

A task's goal is unreachable from its initial state when two procedures of :data:`PROCEDURES` say so, one of
them a complete search (:data:`SEARCHES`: of the whole reachable space, or of a projection of it) and the other
either a certificate that needs no search (:data:`CERTIFICATES`) or a search of another kind:

* ``static``: a goal literal contradicts a fact no action changes (the goal names a static fact false in the
  state, or a fluent atom of impossible types);
* ``relaxed``: the delete relaxation from the state never reaches a goal atom (no action sequence, even one
  whose effects only add, makes it true): it names that atom;
* ``h2``: Haslum and Geffner's h² from the state (:mod:`acpgen.pddl.mutexes`): a goal atom no reachable state
  holds, or two goal atoms no reachable state holds together: it names them;
* ``invariant``: an at-least-one set of h² (:meth:`acpgen.pddl.mutexes.Mutexes.at_least_one`): the atoms of one
  predicate with one object in one place (every place of robot1), one of which every reachable state holds, none of
  them together with the goal (h²): a dead-end argument about the whole state ("robot1 always stands on a tile, and
  never on one the goal paints");
* ``projected``: a breadth-first search of every state of a projection of the task onto a pattern of atoms
  (:mod:`acpgen.pddl.projection`; at most :data:`PROJECTED_STATES`), grown from the goal atoms a certificate named,
  none a goal state: every plan of the task is a plan of the projection, so none exists (asked after a
  certificate: the few hundred states of robot1's places and the tiles it paints, where the task has millions);
* ``explored``: acp's grounded breadth-first exploration of every state reachable (at most ``max_states``), none
  a goal state;
* ``lifted``: the separate lifted interpreter's exploration (:mod:`acpgen.proofs.lifted_space`: its own reading
  of the PDDL and its own successor function), none a goal state (asked when the grounded exploration found at
  most ``lifted_states`` states: the interpreter is tens of times slower);
* ``planner``: Fast Downward on the PDDL task rendered from the state (its translator and eager greedy search
  with FF, which is complete) reports that no plan exists;
* ``astar``: the same with A* and the Cartesian abstraction heuristic (Fast Downward's second optimal
  configuration, ``acpgen.planners.suite.CHECK_SEARCHES``): a search of another kind, for a space too large
  to explore whose relaxations all reach the goal.

The certificates are tried first (a fixpoint over the actions: milliseconds), then the searches, smallest first
(a projection cannot find a plan: one that reaches its goal leaves the next search to answer); acp's exploration
visits at most :data:`FIRST_STATES` states before Fast Downward is asked, and the whole bound after it; after the
static facts refuted the goal, Fast Downward first, whose translator sees the contradiction before any search.
Fast Downward's translator settles a goal whose atoms its invariants keep apart, or one the relaxation never
reaches, before any search (it writes a task with no solution): on a large problem with such a goal the
``planner`` procedure is as quick as a certificate, while a goal that only a search refutes (a cycle of blocks)
costs a search of the whole space.
A task no two procedures settle (a space too large to explore whose every relaxation reaches the goal, and a
planner that runs out of its budget) is not proven: :class:`Unsolvable` says which procedures answered.
A procedure that finds a plan proves the task solvable, and the others are not asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from acpgen.pddl.encode import Encoding
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import bits, split_canonical
from acpgen.pddl.mutexes import Mutexes, mutexes
from acpgen.pddl.projection import grow_patterns, projected_goal_reachable
from acpgen.pddl.render import render_problem
from acpgen.pddl.semantics import relaxed_reachable
from acpgen.planners import DEFAULT_WORK, Limits, Planners, Status
from acpgen.proofs.lifted_space import lifted_goal_reachable

CERTIFICATES = ("static", "relaxed", "h2", "invariant")
#: the certificates that refute a goal on its own atoms (static facts, the relaxation, pairs): a goal no one of them
#: refutes is *deep*, its contradiction shown only by an invariant of the whole state or a search
SHALLOW = ("static", "relaxed", "h2")
SEARCHES = ("projected", "explored", "lifted", "planner", "astar")
#: the most states a projection's search visits (:mod:`acpgen.pddl.projection`)
PROJECTED_STATES = 20_000
#: the states acp's first exploration visits (at least the lifted interpreter's bound); a larger space is explored
#: to ``max_states`` after Fast Downward has been asked
FIRST_STATES = 20_000
PROCEDURES = CERTIFICATES + SEARCHES


@dataclass(frozen=True)
class Unsolvable:
    """What the procedures say about a task's goal: ``proven`` when two of them (one a complete search) found
    that no plan exists (``by``, in the order asked, with each one's ``reasons``); ``solvable`` when one found a
    plan (``by`` names it); neither when they could not settle it (``reasons`` say why)."""

    proven: bool
    solvable: bool
    by: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    #: the goal literal the certificates name as never holding (the first of the pair, for h²)
    literal: str | None = None

    @property
    def summary(self) -> str:
        """The proof in one line: the procedures and what each found (and, unproven, why not)."""
        named = [f"{name}: {why}" for name, why in zip(self.by, self.reasons)]
        return "; ".join(named + list(self.reasons[len(self.by) :]))


@dataclass
class _Attempt:
    task: GroundTask
    planners: Planners | None
    max_states: int
    lifted_states: int
    limits: Limits
    found: list[tuple[str, str]]
    explored_size: int | None = None  # the states of the space, when the grounded exploration covered it
    explored_bound: int = 0  # the bound of the grounded exploration so far (0: none yet)
    named: tuple[str, ...] = ()  # the goal atoms a certificate names as never holding (together)

    def certificate(self, name: str) -> bool | None:
        """True when the certificate proves the goal unreachable, else None (a certificate cannot prove a plan)."""
        task = self.task
        if name == "static":
            if task.goal_satisfiable:
                return None
            self.found.append((name, "a goal literal contradicts a fact no action changes"))
            return True
        if name == "relaxed":
            missing = task.goal_pos & ~relaxed_reachable(task, task.init)[0]
            if not missing:
                return None
            atom = _name(task, next(iter(bits(missing))))
            self.named = self.named or (atom,)
            self.found.append((name, f"{atom} is never true, even with the delete effects ignored"))
            return True
        found = self.mutexes
        if found is None:
            return None
        if name == "invariant":
            return self._invariant(found)
        if found.together(task.goal_pos, task.goal_neg):
            return None
        self.found.append((name, self._apart(found)))
        return True

    @cached_property
    def mutexes(self) -> Mutexes | None:
        return mutexes(self.task)

    def _invariant(self, found: Mutexes) -> bool | None:
        """An at-least-one set (one predicate, one object at one argument) whose every atom h² keeps from the goal."""
        task, goal, neg = self.task, self.task.goal_pos, self.task.goal_neg
        groups: dict[tuple[str, int, str], int] = {}
        for i in bits(found.changing):
            name, args = split_canonical(_name(task, i))
            for k, arg in enumerate(args):
                groups[(name, k, arg)] = groups.get((name, k, arg), 0) | (1 << i)
        for (name, k, arg), members in sorted(groups.items()):
            if any(found.together(goal | (1 << i), neg) for i in bits(members)):
                continue
            if found.at_least_one(members):
                self.found.append(
                    (
                        "invariant",
                        f"every reachable state holds some ({name} ...) with {arg} as argument {k + 1}, "
                        "and none of them holds together with the goal (h²)",
                    )
                )
                return True
        return None

    def _apart(self, found: Mutexes) -> str:
        """The goal literals h² keeps apart: an atom no reachable state holds, or a pair."""
        task, goal = self.task, list(bits(self.task.goal_pos))
        for atom in goal:
            if not found.together(1 << atom, 0):
                self.named = self.named or (_name(task, atom),)
                return f"{_name(task, atom)} holds in no reachable state (h²)"
        for i, one in enumerate(goal):
            for other in goal[i + 1 :]:
                if not found.together((1 << one) | (1 << other), 0):
                    pair = (_name(task, one), _name(task, other))
                    self.named = self.named or pair
                    return f"{pair[0]} and {pair[1]} hold together in no reachable state (h²)"
        return "the goal's literals hold together in no reachable state (h²)"

    def search(self, name: str) -> bool | None:
        """True when the search ends without a plan, False when it finds one, None when it cannot tell."""
        task = self.task
        if name == "projected":
            return self._projected()
        if name == "explored":
            first = max(FIRST_STATES, self.lifted_states)
            bound = min(self.max_states, first) if not self.explored_bound else self.max_states
            if self.explored_size is not None or bound <= self.explored_bound:
                return None  # explored whole already, or as far as this bound
            self.explored_bound = bound
            space = explore(task, task.init, bound)
            if not space.complete:
                return None
            self.explored_size = len(space.states)
            if not task.goal_satisfiable:
                # "no goal state" would be the static facts' certificate again: the lifted interpreter reads the goal
                return None
            if space.goal_reachable():
                return False
            self.found.append((name, f"no goal state among the {len(space.states)} states reachable (acp's grounding)"))
            return True
        if name == "lifted":
            if self.lifted_states < 1 or self.explored_size is None or self.explored_size > self.lifted_states:
                return None  # larger than the interpreter's bound (the grounded exploration counted it)
            reached = lifted_goal_reachable(task.lifted, task.atoms.atoms(task.init), self.lifted_states)
            if reached is None:
                return None
            if reached:
                return False
            self.found.append((name, "no goal state in the space the separate lifted interpreter explores"))
            return True
        if self.planners is None:
            return None
        problem = render_problem(task, task.init, "acp-goal")  # a static literal the state contradicts included
        query = Encoding(task.lifted.domain_text, problem)
        if name == "planner":
            result = self.planners.solve(query.domain, query.problem, self.limits)
        else:
            result = self.planners.optimal(query.domain, query.problem, self.limits, check=True)
        if result.status == Status.SOLVED:
            return False
        if result.status != Status.UNSOLVABLE:
            return None
        kind = "eager greedy search with FF" if name == "planner" else "A* with the Cartesian abstractions"
        self.found.append((name, f"Fast Downward's {kind}: {result.message or 'no plan exists'}"))
        return True

    def _projected(self) -> bool | None:
        """True when a projection onto a pattern grown from the goal atoms a certificate named reaches no goal
        state (:mod:`acpgen.pddl.projection`: the focused growth, then the whole one, each until a projection is
        too large); None when none settles it (a projection cannot find a plan: one that reaches its goal proves
        nothing about the task)."""
        if not self.named:
            return None
        for focused in (True, False):
            for pattern in grow_patterns(self.task, list(self.named), focused):
                verdict = projected_goal_reachable(self.task, pattern, PROJECTED_STATES)
                if verdict is None:
                    break
                if verdict is False:
                    predicates = sorted({split_canonical(a)[0] for a in self.task.atoms.atoms(pattern)})
                    self.found.append(
                        (
                            "projected",
                            f"no goal state in the projection onto {pattern.bit_count()} atoms of "
                            f"{', '.join(predicates)}",
                        )
                    )
                    return True
        return None


def _name(task: GroundTask, atom: int) -> str:
    return task.atoms.atoms(1 << atom)[0]


def prove_unsolvable(
    task: GroundTask,
    planners: Planners | None = None,
    *,
    max_states: int = 200_000,
    lifted_states: int = 20_000,
    limits: Limits = Limits(work=DEFAULT_WORK),
) -> Unsolvable:
    """Whether no plan reaches ``task``'s goal from its initial state, proven by two procedures (module docstring):
    a certificate and a search, or two searches of different kinds. ``planners``: Fast Downward for a space too
    large to explore (None: acp's own procedures only)."""
    attempt = _Attempt(task, planners, max_states, lifted_states, limits, [])
    for name in CERTIFICATES:
        if attempt.certificate(name):
            break  # one certificate is enough: each next one is asked only where the ones before found nothing
    for name in _order(attempt):
        if len(attempt.found) >= 2 and attempt.found[-1][0] in SEARCHES:
            break
        answer = attempt.search(name)
        if answer is False:
            return Unsolvable(False, True, (name,), ("a plan exists",))
    searches = [name for name, _ in attempt.found if name in SEARCHES]
    proven = len(attempt.found) >= 2 and bool(searches)
    by, reasons = _listed(attempt.found)
    if not proven:
        missing = "no complete search ended" if not searches else "no second procedure agreed"
        reasons = (*reasons, f"not proven: {missing} (the space is larger than the bounds, the planner undecided)")
    return Unsolvable(proven, False, by, reasons, attempt.named[0] if attempt.named else None)


def _order(attempt: _Attempt) -> tuple[str, ...]:
    """The searches in the order asked: :data:`SEARCHES`, acp's exploration first to :data:`FIRST_STATES` and, when
    the space is larger, again to its whole bound after Fast Downward (whose search prunes the dead ends its
    heuristic sees: a large space it settles in a fraction of a second); Fast Downward first after the static facts
    refuted the goal (its translator sees a static contradiction before any search)."""
    order = ("projected", "explored", "lifted", "planner", "explored", "astar")
    if attempt.planners is None or not attempt.found or attempt.found[0][0] != "static":
        return order
    return ("planner", *(name for name in order if name != "planner"))


def _listed(found: list[tuple[str, str]]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(name for name, _ in found), tuple(why for _, why in found)
