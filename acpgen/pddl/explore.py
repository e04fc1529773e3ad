"""Exhaustive exploration of the reachable state space of small tasks.

When every state reachable from a state fits under a bound, reachability of atoms and actions,
landmarks and optimal costs are decided exactly by graph search, without a planner.
"""

from __future__ import annotations

import heapq
import random
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import GroundAction, bits, union

_T = TypeVar("_T")


_Lists = tuple[list[int], list[list[tuple[int, int]]]]  # states in breadth-first order, their successor lists


class StateSpace:
    """The states reachable from ``root`` with their successor lists: ``states`` in breadth-first order from the
    root, ``successors`` per state as (action index in ``task.actions``, state position), ``index`` from a state to
    its position; ``complete`` False when the exploration stopped at its bound (only positive evidence is valid).
    Without the lists, ``search`` makes them when first asked for (a question may need only what is known
    without them: whether the space is complete, or what a problem's graph answers)."""

    def __init__(
        self,
        task: GroundTask,
        root: int,
        states: list[int] | None,
        successors: list[list[tuple[int, int]]] | None,
        index: dict[int, int] | None,
        complete: bool = True,
        search: Callable[[], _Lists] | None = None,
    ) -> None:
        self.task = task
        self.root = root
        self.complete = complete
        self._lists = None if states is None or successors is None or index is None else (states, successors, index)
        self._search = search
        self._distances: list[int] | None = None
        self._predecessors: list[list[int]] | None = None
        self._atoms: int | None = None
        self._counts: dict[int, int] = {}  # states reachable from a state, by its position (see reachable_size)

    def _listed(self) -> tuple[list[int], list[list[tuple[int, int]]], dict[int, int]]:
        if self._lists is None:  # made whole before it is shared (explorations may be read on threads)
            assert self._search is not None
            states, successors = self._search()
            self._lists = states, successors, dict(zip(states, range(len(states))))
        return self._lists

    @property
    def states(self) -> list[int]:
        return self._listed()[0]

    @property
    def successors(self) -> list[list[tuple[int, int]]]:
        return self._listed()[1]

    @property
    def index(self) -> dict[int, int]:
        return self._listed()[2]

    @property
    def held(self) -> int:
        """How many states its lists hold now (0 before they are made: counting them does not make them)."""
        return 0 if self._lists is None else len(self._lists[0])

    def holds(self, state: int) -> bool:
        """Whether ``state`` is one of its states."""
        return state in self.index

    @property
    def reachable_atoms(self) -> int:
        """The atoms of its states (computed once: a reachability question asks it for each atom)."""
        if self._atoms is None:
            self._atoms = union(self.states)
        return self._atoms

    def reachable_action_indices(self) -> set[int]:
        return {a for succ in self.successors for a, _ in succ}

    def predecessors(self) -> list[list[int]]:
        """Per state, the positions of the states with an action leading to it."""
        if self._predecessors is None:
            # made whole before it is shared (explorations may be read on threads)
            self._predecessors = _reversed(self.successors, len(self.states))
        return self._predecessors

    def goal_distances(self) -> list[int]:
        """h* of every state (-1 for dead ends), by backward breadth-first search."""
        if self._distances is None:
            goals = [i for i, state in enumerate(self.states) if self.task.is_goal(state)]
            self._distances = _distances_to(goals, self.predecessors())
        return self._distances

    def goal_reachable(self) -> bool:
        """Whether a plan exists from the root of a complete space: some state of it satisfies the goal (the
        distances of every state to the goal are not needed for that)."""
        if self._distances is not None:
            return self._distances[0] >= 0
        return any(self.task.is_goal(state) for state in self.states)

    def optimal_cost(self, state: int | None = None) -> int | None:
        """Optimal plan length from ``state`` (default: the root); None if no plan exists."""
        index = 0 if state is None else self.index[state]
        value = self.goal_distances()[index]
        return None if value < 0 else value

    def top_quality_plans(self, bound: int, k: int, max_steps: int = 200_000) -> list[list[int]] | None:
        """The ``k`` cheapest plans from the root of cost at most ``bound`` (all of them if fewer), as
        lists of action indices, cheapest first and, at equal cost, in the order of their action names;
        None when finding them would take more than ``max_steps`` search steps. A plan may pass through
        goal states before its last state (it is still a plan); an action that leaves the state as it
        is (a self-loop) is in no plan, as in K*. The search extends a prefix only by an
        action whose successor can still reach the goal within the cost left (h* of every state,
        :meth:`goal_distances`), so it enumerates paths of each cost in turn, depth first (the task's
        actions are sorted by name, and each state's successors by action position)."""
        dist = self.goal_distances()
        if dist[0] < 0 or bound < dist[0]:
            return []
        found: list[list[int]] = []
        steps = 0
        for cost in range(dist[0], bound + 1):
            # depth-first over (state, steps left, prefix), children pushed in reverse name order
            stack: list[tuple[int, int, list[int]]] = [(0, cost, [])]
            while stack:
                steps += 1
                if steps > max_steps:
                    return None
                state, left, prefix = stack.pop()
                if left == 0:
                    if self.task.is_goal(self.states[state]):
                        found.append(prefix)
                        if len(found) == k:
                            return found
                    continue
                for action, nxt in reversed(self.successors[state]):  # by position: by name
                    if nxt != state and 0 <= dist[nxt] <= left - 1:
                        stack.append((nxt, left - 1, prefix + [action]))
        return found

    def for_goal(self, task: GroundTask) -> StateSpace:
        """This space answering for ``task``, its task with another goal (:meth:`GroundTask.with_goal`): the same
        states, successors and predecessors; the goal's own distances."""
        view = StateSpace(task, self.root, *self._listed(), complete=self.complete)
        view._predecessors, view._counts = self.predecessors(), self._counts
        return view

    def reachable_size(self, state: int) -> int:
        """How many states are reachable from ``state`` (itself included), one of the states of a complete
        exploration. The states that reach it back (its strongly connected component: those it reaches that
        reach it) reach exactly the same states, so one count serves all of them: in a domain whose actions can
        be undone, the first state asked about counts and the others look the count up."""
        at = self.index[state]
        known = self._counts.get(at)
        if known is not None:
            return known
        reached = self.reachable_from(at)
        back = _distances_to([at], self.predecessors())  # the states that reach it
        for i in reached:
            if back[i] >= 0:  # its component
                self._counts[i] = len(reached)
        return len(reached)

    def reachable_from(self, at: int) -> set[int]:
        """The positions of the states reachable from the state at position ``at`` (itself included)."""
        return _reachable(self.successors, at)

    def goal_reachable_avoiding(self, atom_bit: int) -> bool:
        """Whether some path from the root reaches the goal through states without ``atom_bit``."""
        if self.states[0] & atom_bit:
            return False
        seen = {0}
        queue = deque([0])
        while queue:
            i = queue.popleft()
            if self.task.is_goal(self.states[i]):
                return True
            for _, j in self.successors[i]:
                if j not in seen and not self.states[j] & atom_bit:
                    seen.add(j)
                    queue.append(j)
        return False


def explore(task: GroundTask, root: int, max_states: int) -> StateSpace:
    """Breadth-first exploration from ``root`` of at most ``max_states`` states.

    When more states exist the result has ``complete=False``: its states are reachable (positive
    evidence), but atoms or actions it does not contain may still be reachable.

    A problem's first complete exploration in this process keeps its successor lists for all the tasks that step
    alike (:class:`_Steps`): an exploration of the same problem from one of its states, or with another goal, on
    another grounding of it, walks those lists instead of generating the successors again. The result is the same.
    When every state of that graph reaches every other, an exploration from one of them finds them all, or stops at
    its bound when the graph is larger: it is then read off the graph (:class:`_GraphSpace`), its lists made only
    when asked for.
    """
    key = _stepping(task)
    steps = _steps(key, task)
    alike = steps.task.atoms is task.atoms  # this grounding's own graph: its atoms, no renumbering
    origin = steps.translated(task, root)
    found, renumber = None, None
    if origin is not None and origin in steps.ids:
        size = steps.size()
        if max_states >= 1 and steps.strongly_connected(size):
            read = _GraphSpace.over(task, root, steps, size, origin, max_states)
            if read is not None:
                _note(task, root, min(size, max_states), read.complete)
                return read
            # else an atom of the graph has no number in this grounding: explored in its own atoms below
        else:
            found = steps.breadth_first(origin, max_states)
            renumber = _same if alike else _renumbering(steps.task, task, found[0])
    if found is None or renumber is None:  # a state the problem's graph does not know: explored in its own atoms
        own = steps if alike else _Steps(task)
        if steps.exceeds(task, root, max_states):  # more states than the bound: the search to it when asked for
            _note(task, root, max_states, False)
            return StateSpace(task, root, None, None, None, False, lambda: own.breadth_first(root, max_states)[:2])
        found, renumber = own.breadth_first(root, max_states), _same
        if own.states and not steps.states:  # the problem's first complete exploration: its graph from now on
            _adopt(key, own)
        elif not found[2]:
            steps.beyond(task, root, max_states)
    order, successors, complete = found
    states = order if renumber is _same else [renumber(state) for state in order]
    _note(task, root, len(states), complete)
    return StateSpace(task, root, states, successors, dict(zip(states, range(len(states)))), complete=complete)


def _breadth_first(steps: _Steps, root: int, max_states: int) -> tuple[list[int], list[list[tuple[int, int]]], bool]:
    """(the states found from ``root`` in breadth-first order, up to ``max_states``; their successor lists as
    (action position, state position); whether that was all of them). A state whose successors add one state too
    many keeps those found before it. From a state ``steps`` knows the search walks its graph; otherwise it
    generates the successors, and a search that finds every state leaves them there (a bounded one does not: in a
    space larger than the bound, searches from other states would mostly need others)."""
    known = steps.ids.get(root)
    if known is not None:
        return _walk(steps, known, max_states)
    task = steps.task
    index = {root: 0}
    order = [root]
    successors: list[list[tuple[int, int]]] = []
    head = 0
    while head < len(order):
        state = order[head]
        head += 1
        succ: list[tuple[int, int]] = []
        for position, action in task.successors(state):
            nxt = action.apply(state)
            j = index.get(nxt)
            if j is None:
                if len(order) >= max_states:
                    successors.append(succ)
                    return order, successors, False
                j = index[nxt] = len(order)
                order.append(nxt)
            succ.append((position, j))
        successors.append(succ)
    steps.add(order, successors)
    return order, successors, True


def _walk(steps: _Steps, root: int, max_states: int) -> tuple[list[int], list[list[tuple[int, int]]], bool]:
    """:func:`_breadth_first` from the state numbered ``root`` in ``steps``' graph, on the graph alone (it holds the
    successors of every state it holds: complete explorations only)."""
    graph = steps.graph
    position = [-1] * len(graph)
    position[root] = 0
    order = [root]
    successors: list[list[tuple[int, int]]] = []
    for at in order:  # the list grows as the search goes
        succ: list[tuple[int, int]] = []
        for action, nxt in graph[at]:
            j = position[nxt]
            if j < 0:
                if len(order) >= max_states:
                    successors.append(succ)
                    return [steps.states[i] for i in order], successors, False
                j = position[nxt] = len(order)
                order.append(nxt)
            succ.append((action, j))
        successors.append(succ)
    return [steps.states[i] for i in order], successors, True


class _Steps:
    """The graph of a problem's complete explorations, for the tasks that step alike (see :data:`_STEPS`): its states
    (numbered in the atoms of the grounding that explored them), each with its successors as (the action's position
    in the actions, the next state's number in the graph), by position. It holds the successors of every state it
    holds."""

    def __init__(self, task: GroundTask) -> None:
        self.task = task
        self.states: list[int] = []
        self.ids: dict[int, int] = {}  # state -> its number in ``states``
        self.graph: list[list[tuple[int, int]]] = []
        #: the last searches, by root and bound: the questions of several tasks about one state explore from it
        self._searched: OrderedDict[tuple[int, int], tuple[list[int], list[list[tuple[int, int]]], bool]] = (
            OrderedDict()
        )
        #: facts of the graph by its size when computed, the goals' distances among them (the last asked kept)
        self._derived: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        #: states (in this graph's atoms) from which a search stopped at its bound, by the largest such bound: each
        #: reaches more states than that (see :meth:`exceeds`)
        self._beyond: dict[int, int] = {}

    def size(self) -> int:
        """How many states the graph holds now (their lists all there: :meth:`add` holds the lock). The facts
        below are of the graph's first ``size`` states: a search on another thread may add states, and no state
        before them leads to one of those."""
        with _STEPS_LOCK:
            return len(self.graph)

    def _fact(self, name: tuple[Any, ...], size: int, compute: Callable[[], _T]) -> _T:
        """A fact of the graph's first ``size`` states, computed once."""
        key = (*name, size)
        with _STEPS_LOCK:
            found = self._derived.get(key)
            if found is not None:
                self._derived.move_to_end(key)
        if found is None:
            found = compute()
            with _STEPS_LOCK:
                self._derived[key] = found
                while len(self._derived) > _FACTS_KEPT:
                    self._derived.popitem(last=False)
        return found

    def translated(self, task: GroundTask, state: int) -> int | None:
        """A state of ``task`` (a grounding that steps alike) in the graph's atoms; None when one of its atoms has no
        number there."""
        return state if task.atoms is self.task.atoms else self.task.atoms.known_mask(task.atoms.atoms(state))

    def _predecessors(self, size: int) -> list[list[int]]:
        return self._fact(("predecessors",), size, lambda: _reversed(self.graph, size))

    def strongly_connected(self, size: int) -> bool:
        """Whether every state reaches every other: all are reached from the first, and all reach it."""

        def compute() -> bool:
            return (
                size > 0
                and len(_reachable(self.graph, 0)) == size
                and min(_distances_to([0], self._predecessors(size))) >= 0
            )

        return self._fact(("connected",), size, compute)

    def atoms(self, size: int) -> int:
        """The atoms of its states."""

        return self._fact(("atoms",), size, lambda: union(self.states[:size]))

    def actions(self, size: int) -> frozenset[int]:
        """The positions of the actions on its edges."""
        return self._fact(("actions",), size, lambda: frozenset(a for at in range(size) for a, _ in self.graph[at]))

    def distances(self, pos: int, neg: int, size: int) -> list[int]:
        """Per state, the fewest steps to a state with the atoms of ``pos`` and none of ``neg`` (-1: none), by
        backward breadth-first search."""

        def compute() -> list[int]:
            goals = [at for at in range(size) if self.states[at] & pos == pos and not self.states[at] & neg]
            return _distances_to(goals, self._predecessors(size))

        return self._fact(("distances", pos, neg), size, compute)

    def add(self, order: list[int], successors: list[list[tuple[int, int]]]) -> None:
        """Add a complete exploration: ``order``'s states with ``successors`` by position in ``order``. A state is
        numbered (in ``ids``) once its successor list is there, for the searches on other threads."""
        with _STEPS_LOCK:
            base = len(self.states)
            if base == 0:  # the problem's first exploration: its numbers are its positions, its lists the graph's
                self.graph.extend(successors)
                self.states.extend(order)
                self.ids.update(zip(order, range(len(order))))
                return
            number: list[int] = []
            new: list[int] = []  # positions in ``order`` of the states the graph did not hold
            for position, state in enumerate(order):
                at = self.ids.get(state)
                if at is None:
                    at = base + len(new)
                    new.append(position)
                number.append(at)
            if not new:
                return
            self.graph.extend([[(action, number[j]) for action, j in successors[position]] for position in new])
            self.states.extend([order[position] for position in new])
            self.ids.update({order[position]: base + k for k, position in enumerate(new)})

    def beyond(self, task: GroundTask, root: int, bound: int) -> None:
        """Note that ``root``, a state of ``task`` (a grounding that steps alike), reaches more than ``bound``
        states (a search from it stopped at that bound)."""
        state = self.translated(task, root)
        if state is not None:
            with _STEPS_LOCK:
                if len(self._beyond) < _BEYOND_KEPT or state in self._beyond:
                    self._beyond[state] = max(bound, self._beyond.get(state, 0))

    def exceeds(self, task: GroundTask, root: int, bound: int) -> bool:
        """Whether ``root``, a state of ``task``, is proven to reach more than ``bound`` states: acp's greedy search
        finds, within :data:`_PROOF_STATES` states, a path from it to the first state noted (:meth:`beyond`) to
        reach more than that; all those states are then reachable from ``root`` too. A state noted itself needs no
        search. False proves nothing."""
        own = self.translated(task, root)
        with _STEPS_LOCK:
            if own is not None and self._beyond.get(own, 0) >= bound:
                return True  # the state itself was noted: a search from it stopped at the bound before
            known = next((state for state, over in self._beyond.items() if over >= bound), None)
        target = None if known is None else task.atoms.known_mask(self.task.atoms.atoms(known))
        if target is None:
            return False
        if target == root:
            return True
        others = ((1 << len(task.atoms.names)) - 1) & ~target
        path = greedy_search(task, target, others, _PROOF_STATES, starts=(root,)).path
        return path is not None and path[-1] == target  # the state itself (no atom numbered since the mask was made)

    def breadth_first(self, root: int, max_states: int) -> tuple[list[int], list[list[tuple[int, int]]], bool]:
        """:func:`_breadth_first` from ``root``, the same search given again when it was one of the last made."""
        key = root, max_states
        with _STEPS_LOCK:
            found = self._searched.get(key)
        if found is None:
            found = _breadth_first(self, root, max_states)
            with _STEPS_LOCK:
                self._searched[key] = found
                while len(self._searched) > _SEARCHES_KEPT:
                    self._searched.popitem(last=False)
        return found


def _reversed(successors: list[list[tuple[int, int]]], size: int) -> list[list[int]]:
    """Per state of the first ``size``, the states with an action leading to it (``successors``: per state,
    (action, next state); those of the first ``size`` lead only among them)."""
    found: list[list[int]] = [[] for _ in range(size)]
    for at in range(size):
        for _, nxt in successors[at]:
            found[nxt].append(at)
    return found


def _distances_to(goals: list[int], predecessors: list[list[int]]) -> list[int]:
    """Per state, the fewest steps to one of ``goals`` (-1: none), by backward breadth-first search."""
    found = [-1] * len(predecessors)
    for at in goals:
        found[at] = 0
    queue = deque(goals)
    while queue:
        at = queue.popleft()
        for before in predecessors[at]:
            if found[before] < 0:
                found[before] = found[at] + 1
                queue.append(before)
    return found


def _reachable(successors: list[list[tuple[int, int]]], at: int) -> set[int]:
    """The states reachable from the state ``at`` (itself included); ``successors``: per state, (action, next state)."""
    seen = {at}
    stack = [at]
    while stack:
        for _, nxt in successors[stack.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


class _GraphSpace(StateSpace):
    """The space from ``root`` when ``root`` is among the first ``size`` states of a problem's graph
    (:class:`_Steps`), which all reach each other: complete when they are at most ``bound``, and then its atoms,
    actions and optimal costs come from the graph. The lists an exploration gives (states in breadth-first order
    from the root up to the bound, renumbered into the task's atoms) are made when first asked for: most questions
    about a state ask only for those answers, or only whether its space is complete."""

    def __init__(
        self,
        task: GroundTask,
        root: int,
        steps: _Steps,
        size: int,
        origin: int,
        renumber: Callable[[int], int],
        bound: int,
    ) -> None:
        super().__init__(task, root, None, None, None, size <= bound, self._graph_lists)
        self._steps, self._size, self._origin, self._renumber, self._bound = steps, size, origin, renumber, bound

    @classmethod
    def over(cls, task: GroundTask, root: int, steps: _Steps, size: int, origin: int, bound: int) -> _GraphSpace | None:
        """The space from ``root`` (``origin`` in the graph's atoms) up to ``bound`` states; None when one of the
        graph's atoms has no number in ``task``."""
        alike = task.atoms is steps.task.atoms
        renumber = _same if alike else _renumbering(steps.task, task, [steps.atoms(size)])
        return None if renumber is None else cls(task, root, steps, size, origin, renumber, bound)

    def _graph_lists(self) -> _Lists:
        """The lists: the graph's breadth-first order from the root up to the bound, in the task's atoms."""
        order, successors, _ = self._steps.breadth_first(self._origin, min(self._bound, self._size))
        return (order if self._renumber is _same else [self._renumber(state) for state in order]), successors

    def _in_graph(self, state: int) -> int | None:
        """The state's number in the graph (None: not one of its states)."""
        own = self._steps.translated(self.task, state)
        at = None if own is None else self._steps.ids.get(own)
        return at if at is not None and at < self._size else None

    def holds(self, state: int) -> bool:
        return self._in_graph(state) is not None if self.complete else super().holds(state)

    @property
    def reachable_atoms(self) -> int:
        if self._atoms is None:
            self._atoms = self._renumber(self._steps.atoms(self._size)) if self.complete else super().reachable_atoms
        return self._atoms

    def reachable_action_indices(self) -> set[int]:
        return set(self._steps.actions(self._size)) if self.complete else super().reachable_action_indices()

    def for_goal(self, task: GroundTask) -> StateSpace:
        if not self.complete:
            return super().for_goal(task)
        # ``task`` numbers the atoms of this one's task alike (and a new goal's atoms after them)
        return _GraphSpace(task, self.root, self._steps, self._size, self._origin, self._renumber, self._bound)

    def reachable_size(self, state: int) -> int:
        if not self.complete:
            return super().reachable_size(state)
        if self._in_graph(state) is None:
            raise KeyError(state)
        return self._size  # every state of the graph reaches every other

    def goal_reachable(self) -> bool:
        return self.optimal_cost() is not None  # the graph's distances to a goal, shared by its questions

    def optimal_cost(self, state: int | None = None) -> int | None:
        task = self.task
        if not self.complete:
            return super().optimal_cost(state)
        if not task.goal_satisfiable:
            return None
        at = self._steps.ids[self._origin] if state is None else self._in_graph(state)
        if at is None:
            raise KeyError(state)
        pos = self._steps.translated(task, task.goal_pos)
        if pos is None:  # an atom of the goal in no state of the graph
            return None
        # an atom the goal forbids that is in no state of the graph is never there
        neg = task.goal_neg
        if task.atoms is not self._steps.task.atoms:
            known = self._steps.task.atoms
            neg = known.known_mask(a for a in task.atoms.atoms(neg) if a in known.index) or 0
        value = self._steps.distances(pos, neg, self._size)[at]
        return None if value < 0 else value


# The complete explorations of this process, by how their tasks step: the problem apart from its initial state and goal
# (``LiftedTask.dynamics_key``: the domain, objects and static facts), the ground actions and rules by name. Two
# groundings of one problem from two of its states, or with two goals (two questions' texts), number their atoms
# apart, but with the same actions and rules a state has the same successors in both. Most recently used last;
# bounded by the states they hold together (a problem alone over the bound starts again).
_Key = tuple[str, tuple[str, ...], tuple[tuple[int, tuple[str, ...]], ...]]  # dynamics, actions, rules
_STEPS: OrderedDict[_Key, _Steps] = OrderedDict()
_STEPS_LOCK = threading.Lock()
_STEPS_STATES = 100_000
_SEARCHES_KEPT = 8  # per problem
_BEYOND_KEPT = 4096  # per problem: states noted to reach more states than a bound (an int each)
_PROOF_STATES = 2000  # states the greedy search may generate to prove that a state reaches more than a bound
_FACTS_KEPT = 24  # per problem: its graph's facts kept (each goal's distances one)


def _stepping(task: GroundTask) -> _Key:
    return task.lifted.dynamics_key, task.action_names, task.rule_names


def _adopt(key: _Key, steps: _Steps) -> None:
    with _STEPS_LOCK:
        _STEPS[key] = steps


def _steps(key: _Key, task: GroundTask) -> _Steps:
    with _STEPS_LOCK:
        found = _STEPS.get(key)
        if found is None or len(found.states) > _STEPS_STATES:
            found = _STEPS[key] = _Steps(task)
        _STEPS.move_to_end(key)
        while len(_STEPS) > 1 and sum(len(s.states) for s in _STEPS.values()) > _STEPS_STATES:
            _STEPS.popitem(last=False)
    return found


def _renumbering(source: GroundTask, target: GroundTask, states: list[int]) -> Callable[[int], int] | None:
    """A function giving ``states`` of ``source`` (and any state over their atoms) in ``target``'s atom numbering;
    None when one of their atoms has no number in ``target``."""
    used = union(states)
    names, index = source.atoms.names, target.atoms.index
    bit_of: dict[int, int] = {}
    for b in bits(used):
        found = index.get(names[b])
        if found is None:
            return None
        bit_of[b] = found
    if all(b == n for b, n in bit_of.items()):
        return _same
    chunks: list[tuple[int, list[int]]] | None = None  # (shift, the target mask of each value of the 8 bits there)

    def tables() -> list[tuple[int, list[int]]]:
        """The tables, made on the first renumbering (a space asked only for costs or membership needs none),
        published whole (another thread may renumber meanwhile)."""
        nonlocal chunks
        made = []
        for shift in range(0, used.bit_length(), 8):
            if not (used >> shift) & 255:
                continue
            table = [0] * 256
            for value in range(1, 256):
                low = value & -value
                b = shift + low.bit_length() - 1
                table[value] = table[value ^ low] | (1 << bit_of[b] if b in bit_of else 0)
            made.append((shift, table))
        chunks = made
        return made

    def renumber(state: int) -> int:
        out = 0
        for shift, table in chunks if chunks is not None else tables():
            out |= table[(state >> shift) & 255]
        return out

    return renumber


def _same(state: int) -> int:
    return state


def _note(task: GroundTask, root: int, count: int, complete: bool) -> None:
    """Remember that ``count`` states are reachable from ``root`` (complete) or more than ``count`` (not)."""
    known = task.explored_sizes.get(root)
    if known is None or (not known[1] and (complete or count > known[0])):
        task.explored_sizes[root] = (count, complete)


def reachable_within(task: GroundTask, root: int, bound: int) -> bool:
    """Whether at most ``bound`` states are reachable from ``root``. An earlier exploration of the grounding from
    ``root`` that settles it (the same texts grounded again in this process share what their explorations
    found: a question's generation, then its re-proof) answers without exploring again."""
    known = task.explored_sizes.get(root)
    if known is not None:
        count, complete = known
        if complete:
            return count <= bound
        if count >= bound:  # more than ``count`` states
            return False
    return explore(task, root, bound).complete


def random_walk(
    task: GroundTask, state: int, rng: random.Random, length: int, look_ahead: bool = False
) -> list[tuple[GroundAction, int]]:
    """Up to ``length`` actions applicable in turn from ``state``, each drawn with ``rng`` among the applicable
    ones, with the state it leads to; the walk ends early in a state where no action applies. ``look_ahead``:
    before the last step, only actions after which some action applies are drawn among."""
    walked: list[tuple[GroundAction, int]] = []
    for step in range(length):
        options = task.applicable(state)
        if look_ahead and step < length - 1:
            options = [a for a in options if task.applicable(a.apply(state))]
        if not options:
            break
        action = rng.choice(options)
        state = action.apply(state)
        walked.append((action, state))
    return walked


def random_walks(task: GroundTask, root: int, walks: int, length: int, seed: int = 0) -> tuple[int, set[int]]:
    """Positive reachability evidence from seeded random walks: (atoms seen, action indices applied).

    Breadth-first exploration stays near the root; walks reach deep states cheaply, so atoms and
    actions far away are confirmed reachable without a planner call.
    """
    rng = random.Random(seed)
    atoms, used = root, set()
    known: dict[int, list[tuple[int, GroundAction]]] = {}  # the walks pass the states near the root again and again
    for _ in range(walks):
        state = root
        for _ in range(length):
            options = known.get(state)
            if options is None:
                options = known[state] = task.successors(state)
            if not options:
                break
            position, action = rng.choice(options)
            used.add(position)
            state = action.apply(state)
            atoms |= state
    return atoms, used


@dataclass(frozen=True)
class Search:
    """What a greedy search found: ``path``, the states from a start to a state found (None: none found);
    ``complete``, whether it generated every state reachable from its starts (avoided states aside)
    before it stopped -- a search that found nothing and is complete proves that no such state exists."""

    path: list[int] | None
    complete: bool


def greedy_search(
    task: GroundTask,
    pos: int,
    neg: int,
    max_states: int,
    starts: tuple[int, ...] = (),
    avoid: int = 0,
    estimate: Callable[[int], int] | None = None,
) -> Search:
    """Greedy best-first search for a reachable state holding ``pos`` and none of ``neg``, within
    ``max_states`` generated states. The search starts from the initial state, or from ``starts``
    (states known to be reachable), and never enters a state holding an atom of ``avoid`` (a path found
    passes through no such state, starts included). It is guided by ``estimate`` (default: the number
    of literals still unmet); ties go to the state generated first.

    A path found is positive evidence that needs no planner: a reachable state, a plan (to a goal
    state), a plan that avoids an atom (a non-landmark), or an upper bound on a state's optimal cost.
    A search that runs out of states without finding one proves nothing unless it is complete."""
    return GreedySearch(task, pos, neg, starts, avoid, estimate).run(max_states)


class GreedySearch:
    """:func:`greedy_search` as an object that can be run on with a larger bound: ``run(n)`` then
    ``run(m)`` (m > n) finds what one ``run(m)`` finds, without generating the first states again."""

    def __init__(
        self,
        task: GroundTask,
        pos: int,
        neg: int,
        starts: tuple[int, ...] = (),
        avoid: int = 0,
        estimate: Callable[[int], int] | None = None,
    ) -> None:
        self.task, self.pos, self.neg, self.avoid = task, pos, neg, avoid

        def unmet(state: int) -> int:
            return (pos & ~state).bit_count() + (neg & state).bit_count()

        self.guide = estimate or unmet
        starting = starts or (task.init,)
        self.frontier = [(self.guide(start), -i, start) for i, start in enumerate(starting) if not start & avoid]
        heapq.heapify(self.frontier)
        self.parent: dict[int, int | None] = {start: None for _, _, start in self.frontier}
        self.counter = 0
        self.found: Search | None = None

    def run(self, max_states: int) -> Search:
        """The search on until a state is found or ``max_states`` states in all have been generated."""
        if self.found is not None:
            return self.found
        task, pos, neg, avoid, guide = self.task, self.pos, self.neg, self.avoid, self.guide
        frontier, parent = self.frontier, self.parent
        counter = self.counter
        while frontier and counter < max_states:
            _, _, state = heapq.heappop(frontier)
            if state & pos == pos and not state & neg:
                path = [state]
                while (before := parent[path[-1]]) is not None:
                    path.append(before)
                self.counter, self.found = counter, Search(path[::-1], not frontier)
                return self.found
            for _, action in task.successors(state):
                nxt = action.apply(state)
                if nxt not in parent and not nxt & avoid:
                    parent[nxt] = state
                    counter += 1
                    heapq.heappush(frontier, (guide(nxt), counter, nxt))
        self.counter = counter
        return Search(None, not frontier)
