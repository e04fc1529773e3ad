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
from dataclasses import dataclass, field

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import GroundAction, bits


@dataclass
class StateSpace:
    """The states reachable from ``root`` with their successor lists."""

    task: GroundTask
    root: int
    states: list[int]
    successors: list[list[tuple[int, int]]]  # per state: (action index in task.actions, state index)
    index: dict[int, int]  # state -> position in ``states``
    complete: bool = True  # False: exploration stopped at the bound (only positive evidence is valid)
    _distances: list[int] | None = field(default=None, repr=False)
    _predecessors: list[list[int]] | None = field(default=None, repr=False)

    @property
    def reachable_atoms(self) -> int:
        union = 0
        for state in self.states:
            union |= state
        return union

    def reachable_action_indices(self) -> set[int]:
        return {a for succ in self.successors for a, _ in succ}

    def predecessors(self) -> list[list[int]]:
        """Per state, the positions of the states with an action leading to it."""
        if self._predecessors is None:
            found: list[list[int]] = [[] for _ in self.states]
            for i, succ in enumerate(self.successors):
                for _, j in succ:
                    found[j].append(i)
            self._predecessors = found  # made whole before it is shared (explorations may be read on threads)
        return self._predecessors

    def goal_distances(self) -> list[int]:
        """h* of every state (-1 for dead ends), by backward breadth-first search."""
        if self._distances is None:
            predecessors = self.predecessors()
            dist = [-1] * len(self.states)
            queue: deque[int] = deque()
            for i, state in enumerate(self.states):
                if self.task.is_goal(state):
                    dist[i] = 0
                    queue.append(i)
            while queue:
                i = queue.popleft()
                for j in predecessors[i]:
                    if dist[j] < 0:
                        dist[j] = dist[i] + 1
                        queue.append(j)
            self._distances = dist
        return self._distances

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

    def reachable_count(self, at: int) -> int:
        """How many states are reachable from the state at position ``at`` (itself included), in a complete
        exploration."""
        return len(self.reachable_from(at))

    def reachable_from(self, at: int) -> set[int]:
        """The positions of the states reachable from the state at position ``at`` (itself included)."""
        seen = {at}
        stack = [at]
        while stack:
            for _, j in self.successors[stack.pop()]:
                if j not in seen:
                    seen.add(j)
                    stack.append(j)
        return seen

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

    An earlier exploration in this process of the same problem with the same ground actions that expanded
    ``root`` and what it reaches (:func:`_read_off`) gives the result without generating successors again:
    the same states in the same order, with the same successor lists.
    """
    found = _read_off(task, root, max_states)
    if found is not None:
        return found
    index = {root: 0}
    states = [root]
    successors: list[list[tuple[int, int]]] = []
    head = 0
    while head < len(states):
        state = states[head]
        head += 1
        succ: list[tuple[int, int]] = []
        for position, action in task.successors(state):
            nxt = action.apply(state)
            j = index.get(nxt)
            if j is None:
                if len(states) >= max_states:
                    successors.append(succ)
                    return _explored(StateSpace(task, root, states, successors, index, complete=False))
                j = index[nxt] = len(states)
                states.append(nxt)
            succ.append((position, j))
        successors.append(succ)
    return _explored(StateSpace(task, root, states, successors, index))


# Explorations made in this process, by how their tasks step: the problem apart from its initial state and goal
# (``LiftedTask.dynamics_key``: the domain, objects and static facts) and the ground actions by name. Two
# groundings of one problem from two of its states, or with two goals (two questions' texts), number their atoms
# apart, but with the same actions a state has the same successors in both. Most recently used last; bounded by
# the states they hold together.
_KNOWN: OrderedDict[tuple[str, tuple[str, ...]], list[StateSpace]] = OrderedDict()
_KNOWN_LOCK = threading.Lock()
_KNOWN_STATES = 200_000
_KNOWN_PER_KEY = 8


def _stepping(task: GroundTask) -> tuple[str, tuple[str, ...]]:
    return task.lifted.dynamics_key, task.action_names


def _explored(space: StateSpace) -> StateSpace:
    """A fresh exploration, noted on its task and remembered for :func:`_read_off`."""
    task = space.task
    _note(task, space.root, len(space.states), space.complete)
    key = _stepping(task)
    with _KNOWN_LOCK:
        spaces = _KNOWN.setdefault(key, [])
        spaces.append(space)
        del spaces[:-_KNOWN_PER_KEY]
        _KNOWN.move_to_end(key)
        while len(_KNOWN) > 1 and sum(len(s.states) for found in _KNOWN.values() for s in found) > _KNOWN_STATES:
            _KNOWN.popitem(last=False)
    return space


def _read_off(task: GroundTask, root: int, max_states: int) -> StateSpace | None:
    """The exploration of ``task`` from ``root``, read off an earlier one (see :data:`_KNOWN`) in which ``root`` and
    every state the breadth-first search expands before it stops were expanded whole; None when there is none.
    The search visits the states and their successor lists in the order :func:`explore` generates them, so the
    result is the one it gives, its states renumbered into ``task``'s atoms."""
    with _KNOWN_LOCK:
        spaces = list(_KNOWN.get(_stepping(task), ()))
    for known in reversed(spaces):
        origin = known.task.atoms.known_mask(task.atoms.atoms(root)) if known.task.atoms is not task.atoms else root
        at = None if origin is None else known.index.get(origin)
        if at is None:
            continue
        replayed = _replay(known, at, max_states)
        if replayed is None:
            continue
        order, successors, complete = replayed
        renumber = _renumbering(known.task, task, [known.states[i] for i in order])
        if renumber is None:
            continue
        states = [renumber(known.states[i]) for i in order]
        _note(task, root, len(states), complete)
        return StateSpace(task, root, states, successors, {s: n for n, s in enumerate(states)}, complete=complete)
    return None


def _replay(known: StateSpace, at: int, max_states: int) -> tuple[list[int], list[list[tuple[int, int]]], bool] | None:
    """:func:`explore`'s loop from the state at position ``at`` of ``known``, on its successor lists: (positions
    in ``known`` of the states in the order found, their successor lists numbered in that order, complete); None
    when it would expand a state ``known`` did not expand whole."""
    whole = len(known.successors) - (0 if known.complete else 1)  # the last one of a bounded exploration is cut
    position = {at: 0}
    order = [at]
    successors: list[list[tuple[int, int]]] = []
    head = 0
    while head < len(order):
        i = order[head]
        head += 1
        if i >= whole:
            return None
        succ: list[tuple[int, int]] = []
        for action, j in known.successors[i]:
            p = position.get(j)
            if p is None:
                if len(order) >= max_states:
                    successors.append(succ)
                    return order, successors, False
                p = position[j] = len(order)
                order.append(j)
            succ.append((action, p))
        successors.append(succ)
    return order, successors, True


def _renumbering(source: GroundTask, target: GroundTask, states: list[int]) -> Callable[[int], int] | None:
    """A function giving ``states`` of ``source`` (and any state over their atoms) in ``target``'s atom numbering;
    None when one of their atoms has no number in ``target``."""
    used = 0
    for state in states:
        used |= state
    if source.atoms is target.atoms:
        return _same
    names, index = source.atoms.names, target.atoms.index
    bit_of: dict[int, int] = {}
    for b in bits(used):
        found = index.get(names[b])
        if found is None:
            return None
        bit_of[b] = found
    if all(b == n for b, n in bit_of.items()):
        return _same
    chunks: list[tuple[int, list[int]]] = []  # (shift, the target mask of each value of the 8 bits there)
    for shift in range(0, used.bit_length(), 8):
        if not (used >> shift) & 255:
            continue
        table = [0] * 256
        for value in range(1, 256):
            low = value & -value
            b = shift + low.bit_length() - 1
            table[value] = table[value ^ low] | (1 << bit_of[b] if b in bit_of else 0)
        chunks.append((shift, table))

    def renumber(state: int) -> int:
        out = 0
        for shift, table in chunks:
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
