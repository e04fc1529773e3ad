"""Exhaustive exploration on the separate lifted interpreter: the in-process second proof of small spaces.

Generation decides reachability, landmarks and optimal costs of small state spaces on acp's grounded
task (:func:`acpgen.pddl.explore.explore`: bit masks, the relaxed grounding). Re-proving those answers
with a planner process costs tens of milliseconds per question; re-proving them by exploring the same
space with :class:`~acpgen.proofs.change.world.LiftedWorld` — sets of atoms, schemas matched against
them, nothing shared with the grounded task but the parsed PDDL — costs well under a millisecond per
state and is just as independent. :class:`LiftedSpace` is the space reachable from one state, up to a
bound; :class:`LiftedGraph` holds the states the interpreter has expanded for one problem (its domain,
objects and static facts; not its initial state, nor its goal) and is shared by every record of that problem
in a process (:func:`lifted_space`), whatever goal it asks about, so the records about the states of one
problem expand each state once.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Iterable, Iterator
from functools import cached_property
from typing import cast

from acpgen.pddl.model import EQUALITY, LiftedTask, Literal, canonical
from acpgen.proofs.change.world import Facts, LiftedWorld


class LiftedGraph:
    """The states the lifted interpreter has reached for one problem (any goal), with their successors."""

    def __init__(self, lifted: LiftedTask):
        self.world = LiftedWorld(lifted, {})
        self.states: list[Facts] = []
        self.index: dict[Facts, int] = {}
        #: per state: (action, next state) for every executable action (None: not expanded yet)
        self.edges: list[list[tuple[str, int]] | None] = []

    def node(self, facts: Facts) -> int:
        """The number of a state (a new one when it is not known yet)."""
        found = self.index.get(facts)
        if found is None:
            found = self.index[facts] = len(self.states)
            self.states.append(facts)
            self.edges.append(None)
        return found

    def successors(self, node: int) -> list[tuple[str, int]]:
        edges = self.edges[node]
        if edges is None:
            edges = self.edges[node] = [(a, self.node(f)) for a, f in self.world.successors(self.states[node])]
        return edges

    def is_goal(self, node: int, goal: tuple[Literal, ...]) -> bool:
        """Whether the state satisfies ``goal`` (ground literals)."""
        facts = self.states[node]
        for literal in goal:
            if literal.predicate == EQUALITY:
                holds = literal.args[0] == literal.args[1]
            else:
                holds = canonical(literal.predicate, literal.args) in facts
            if holds != literal.positive:
                return False
        return True

    def _breadth_first(self, start: int, limit: int) -> Iterator[int | None]:
        """The states reachable from ``start`` in breadth-first order (``start`` first), expanded as they are asked
        for; after the first ``limit`` of them, None when there are more."""
        seen, queue = {start}, deque([start])
        yield start
        while queue:
            for _, nxt in self.successors(queue.popleft()):
                if nxt not in seen:
                    if len(seen) >= limit:
                        yield None
                        return
                    seen.add(nxt)
                    queue.append(nxt)
                    yield nxt

    def reaches_goal(self, start: int, goal: tuple[Literal, ...], limit: int) -> bool | None:
        """Whether a state satisfying ``goal`` is reachable from ``start``: breadth-first, stopping at the first
        goal state; None when more than ``limit`` states are reachable and none of the first ``limit`` is a goal
        state."""
        for node in self._breadth_first(start, limit):
            if node is None:
                return None
            if self.is_goal(node, goal):
                return True
        return False

    def closure(self, start: int, limit: int) -> list[int] | None:
        """The states reachable from ``start`` in breadth-first order; None when there are more than ``limit``."""
        order = list(self._breadth_first(start, limit))
        return None if order[-1] is None else cast(list[int], order)


class LiftedSpace:
    """The whole state space reachable from one state, explored by the lifted interpreter, and the goal asked about."""

    def __init__(self, graph: LiftedGraph, start: int, members: list[int], goal: tuple[Literal, ...]):
        self.graph = graph
        self.goal = goal
        self.start = start
        self.members = members

    def node_of(self, facts: Facts) -> int | None:
        """The state's number when it belongs to this space, else None."""
        node = self.graph.index.get(self.graph.world.derive(facts))
        return node if node is not None and node in self._member_set else None

    @cached_property
    def _member_set(self) -> frozenset[int]:
        return frozenset(self.members)

    @cached_property
    def atoms(self) -> frozenset[str]:
        """Every atom true in some state of the space."""
        return frozenset().union(*(self.graph.states[n] for n in self.members))

    @cached_property
    def actions(self) -> frozenset[str]:
        """Every action executable in some state of the space."""
        return frozenset(a for n in self.members for a, _ in self.graph.successors(n))

    def facts_together(self, atoms: Iterable[str]) -> bool:
        """Whether some state of the space holds all of ``atoms``."""
        wanted = frozenset(atoms)
        return any(wanted <= self.graph.states[n] for n in self.members)

    @cached_property
    def goal_distances(self) -> dict[int, int]:
        """Optimal plan length from every state of the space that can reach the goal (backward breadth-first)."""
        before: dict[int, list[int]] = {n: [] for n in self.members}
        for node in self.members:
            for _, nxt in self.graph.successors(node):
                before[nxt].append(node)
        distances = {n: 0 for n in self.members if self.graph.is_goal(n, self.goal)}
        queue = deque(distances)
        while queue:
            node = queue.popleft()
            for prev in before[node]:
                if prev not in distances:
                    distances[prev] = distances[node] + 1
                    queue.append(prev)
        return distances

    def optimal_cost(self, node: int | None = None) -> int | None:
        """The optimal plan length from a state of the space (default: its start); None when no plan exists."""
        return self.goal_distances.get(self.start if node is None else node)

    def optimal_plan(self) -> list[str] | None:
        """An optimal plan from the start (at each state the first action by name that descends), or None."""
        distances, node, plan = self.goal_distances, self.start, []
        if node not in distances:
            return None
        while distances[node] > 0:
            wanted = distances[node] - 1
            action, node = next((a, n) for a, n in self.graph.successors(node) if distances.get(n) == wanted)
            plan.append(action)
        return plan

    def goal_reachable_avoiding(self, atom: str) -> bool:
        """Whether some plan from the start never passes through a state where ``atom`` holds."""
        if atom in self.graph.states[self.start]:
            return False
        seen, queue = {self.start}, deque([self.start])
        while queue:
            node = queue.popleft()
            if self.graph.is_goal(node, self.goal):
                return True
            for _, nxt in self.graph.successors(node):
                if nxt not in seen and atom not in self.graph.states[nxt]:
                    seen.add(nxt)
                    queue.append(nxt)
        return False


# Graphs by problem (domain text, objects, static facts; not the goal), most recently used last.
_GRAPHS: OrderedDict[str, LiftedGraph] = OrderedDict()
_MAX_GRAPHS = 64
_MAX_STATES = 200_000  # states held by all graphs together


def _graph(lifted: LiftedTask) -> LiftedGraph:
    key = lifted.dynamics_key
    graph = _GRAPHS.get(key)
    if graph is None:
        graph = _GRAPHS[key] = LiftedGraph(lifted)
    _GRAPHS.move_to_end(key)
    while len(_GRAPHS) > 1 and (
        len(_GRAPHS) > _MAX_GRAPHS or sum(len(g.states) for g in _GRAPHS.values()) > _MAX_STATES
    ):
        _GRAPHS.popitem(last=False)
    return graph


def lifted_goal_reachable(lifted: LiftedTask, facts: Iterable[str], limit: int) -> bool | None:
    """Whether the goal of ``lifted`` is reachable from the state ``facts`` (see :meth:`LiftedGraph.reaches_goal`):
    a goal state found ends the search, so a solvable question needs no more of its space than lies before that
    state; None when more than ``limit`` states are reachable and the search met no goal state."""
    graph = _graph(lifted)
    return graph.reaches_goal(graph.node(graph.world.derive(frozenset(facts))), lifted.goal, limit)


def lifted_space(lifted: LiftedTask, facts: Iterable[str], limit: int) -> LiftedSpace | None:
    """The space reachable from the state ``facts`` (its atoms, static ones included) of the problem
    ``lifted``, or None when it has more than ``limit`` states. States expanded for an earlier call
    about the same problem in this process are not expanded again."""
    graph = _graph(lifted)
    start = graph.node(graph.world.derive(frozenset(facts)))
    members = graph.closure(start, limit)
    return None if members is None else LiftedSpace(graph, start, members, lifted.goal)
