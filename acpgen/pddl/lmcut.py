"""LM-cut (Helmert and Domshlak, 2009): an admissible estimate of a state's optimal plan length, in process.

The estimate is a sum of disjunctive action landmarks of the delete relaxation. Each round computes h^max
with the current action costs, and a precondition choice function (a precondition of greatest h^max for
each action). This gives a justification graph whose cut between the state and the goal is a landmark:
every relaxed plan holds one of its actions. The round adds the cut's least cost to the estimate and takes
it off the cost of each action of the cut. The rounds stop when the goal's h^max is 0.

Every action costs 1 (acp's plans are counted in steps). The relaxation also drops negative preconditions
and negative goals; a precondition of several disjuncts counts as one action per disjunct. Each of these
only lowers the estimate, so it stays a lower bound on the optimal plan length. Tasks with derived
predicates are not estimated.

acp uses it as a proof apart from the planners' searches. An estimate of at least ``c`` proves that no plan
of fewer than ``c`` steps exists; no search is needed.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from weakref import WeakKeyDictionary

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import GroundAction, bits
from acpgen.pddl.semantics import relaxed_reachable


def lmcut(task: GroundTask, state: int, enough: int | None = None) -> int | None:
    """The LM-cut estimate of ``state`` in ``task`` (a lower bound on its optimal plan length); None when
    the goal is unreachable even with delete effects ignored (no plan exists). ``enough``: the rounds stop once
    the estimate reaches it (the value returned is then at least ``enough``, at most the whole estimate: a lower
    bound still, for a caller that asks only whether the estimate reaches ``enough``). ValueError for a task with
    derived predicates."""
    if task.axioms is not None:
        raise ValueError("LM-cut is not computed for a task with derived predicates")
    if not task.goal_pos:
        return 0
    reached, fired = relaxed_reachable(task, state)
    if task.goal_pos & ~reached:
        return None
    relaxation = _RELAXATIONS.get(task)
    if relaxation is None:
        relaxation = _RELAXATIONS[task] = _Relaxation(task)
    return relaxation.estimate(state, fired, enough)


class _Relaxation:
    """The delete relaxation of a task's actions, one action per disjunct of a precondition, with two artificial
    facts: ``true`` (0: the state's facts and every empty precondition hold it) and ``goal`` (1: added by an
    action whose precondition is the goal, the last). An atom's fact is its bit + 2. Built once per task; an
    estimate starts from a state with every action at cost 1.

    Where two facts have the same h^max, the one ranked first is settled first, and an action's precondition
    choice is the one of its preconditions settled last. The rank follows the order in which the state's
    facts (bit order), then the atoms of the actions that can fire from it (in the order relaxed reachability
    fires them: add effects, then each disjunct's atoms, bit order) first appear: the estimate does not depend
    on how the task's actions are listed. Actions that cannot fire never get all their preconditions settled,
    so they never take part in a cut."""

    def __init__(self, task: GroundTask) -> None:
        self.pre: list[list[int]] = []
        self.add: list[list[int]] = []
        for action in task.actions:
            adds = [b + 2 for b in bits(action.add)]
            for pos, _ in action.precondition:
                self.pre.append([b + 2 for b in bits(pos)] or [0])
                self.add.append(adds)
        self.pre.append([b + 2 for b in bits(task.goal_pos)])  # the goal action, at no cost
        self.add.append([1])
        self.needed = [len(set(pre)) for pre in self.pre]  # each action's distinct precondition facts
        self.users: list[list[int]] = []  # fact -> actions with it in a precondition
        self.adders: list[list[int]] = []  # fact -> actions that add it
        self._grow(max(f for facts in (*self.pre, *self.add) for f in facts) + 1)
        for a, pre in enumerate(self.pre):
            for f in set(pre):
                self.users[f].append(a)
        for a, adds in enumerate(self.add):
            for f in adds:
                self.adders[f].append(a)

    def _grow(self, facts: int) -> None:
        """Room for ``facts`` facts (a state may hold atoms numbered after the task's actions were built)."""
        while len(self.users) < facts:
            self.users.append([])
            self.adders.append([])

    def estimate(self, state: int, fired: list[GroundAction], enough: int | None) -> int:
        self._grow(state.bit_length() + 2)
        starts = [0] + [b + 2 for b in bits(state)]
        rank = _ranks(state, fired, len(self.users))
        cost = [1] * (len(self.pre) - 1) + [0]
        total = 0
        while enough is None or total < enough:
            hmax, choice = self._hmax(starts, rank, cost)
            if hmax[1] == 0:
                return total
            cut = self._cut(choice, starts, cost)
            least = min(cost[a] for a in cut)
            total += least
            for a in cut:
                cost[a] -= least
        return total

    def _hmax(self, starts: list[int], rank: list[int], cost: list[int]) -> tuple[list[float], list[int]]:
        """h^max of every fact with the current costs, and each action's precondition choice (the precondition
        settled last: one of greatest h^max; -1 for an action never enabled)."""
        inf = float("inf")
        hmax = [inf] * len(self.users)
        waiting = list(self.needed)
        choice = [-1] * len(self.pre)
        queue = [(0, rank[f], f) for f in starts]
        for f in starts:
            hmax[f] = 0
        heapq.heapify(queue)
        while queue:
            value, _, f = heapq.heappop(queue)
            if value > hmax[f]:
                continue
            for a in self.users[f]:
                waiting[a] -= 1
                if waiting[a] == 0:
                    choice[a] = f
                    reach = value + cost[a]
                    for g in self.add[a]:
                        if reach < hmax[g]:
                            hmax[g] = reach
                            heapq.heappush(queue, (reach, rank[g], g))
        return hmax, choice

    def _cut(self, choice: list[int], starts: list[int], cost: list[int]) -> list[int]:
        """The actions from the part of the justification graph before the goal zone into the goal zone (the
        facts from which the goal is reached by actions of cost 0)."""
        zone = {1}
        stack = [1]
        while stack:
            f = stack.pop()
            for a in self.adders[f]:
                g = choice[a]
                if g >= 0 and cost[a] == 0 and g not in zone:
                    zone.add(g)
                    stack.append(g)
        before = set(starts) - zone
        stack = list(before)
        cut: list[int] = []
        while stack:
            f = stack.pop()
            for a in self.users[f]:
                if choice[a] != f:
                    continue
                adds = self.add[a]
                if not zone.isdisjoint(adds):
                    cut.append(a)
                for g in adds:
                    if g not in zone and g not in before:
                        before.add(g)
                        stack.append(g)
        return cut


def _ranks(state: int, fired: list[GroundAction], facts: int) -> list[int]:
    """Each fact's rank (see :class:`_Relaxation`): ``true`` 0, ``goal`` 1, then the state's facts and the fired
    actions' atoms in order of first appearance."""
    rank = [0] * facts
    rank[1] = 1
    seen, n = 0, 2
    for mask in _appearances(state, fired):
        new = mask & ~seen
        if new:
            seen |= new
            for b in bits(new):
                rank[b + 2] = n
                n += 1
    return rank


def _appearances(state: int, fired: list[GroundAction]) -> Iterator[int]:
    """The state, then each fired action's add effects and its disjuncts' atoms, in turn."""
    yield state
    for action in fired:
        yield action.add
        for pos, _ in action.precondition:
            yield pos


_RELAXATIONS: WeakKeyDictionary[GroundTask, _Relaxation] = WeakKeyDictionary()
