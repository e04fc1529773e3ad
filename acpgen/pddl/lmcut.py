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

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import GroundAction, bits
from acpgen.pddl.semantics import relaxed_reachable


def lmcut(task: GroundTask, state: int) -> int | None:
    """The LM-cut estimate of ``state`` in ``task`` (a lower bound on its optimal plan length); None when
    the goal is unreachable even with delete effects ignored (no plan exists). ValueError for a task with
    derived predicates."""
    if task.axioms is not None:
        raise ValueError("LM-cut is not computed for a task with derived predicates")
    goal = list(bits(task.goal_pos))
    if not goal:
        return 0
    reached, fired = relaxed_reachable(task, state)
    if task.goal_pos & ~reached:
        return None
    return _Relaxation(state, fired, goal).estimate()


class _Relaxation:
    """The delete relaxation of the actions that can fire from a state, one action per disjunct of a
    precondition, with two artificial facts: ``true`` (the state's facts and every empty precondition hold
    it) and ``goal`` (added by an action whose precondition is the goal)."""

    def __init__(self, state: int, fired: list[GroundAction], goal: list[int]) -> None:
        state_facts = list(bits(state))
        index: dict[int, int] = {}  # atom bit -> fact number

        def fact(bit: int) -> int:
            found = index.get(bit)
            if found is None:
                found = index[bit] = len(index) + 2  # 0: true, 1: goal
            return found

        for bit in state_facts:
            fact(bit)
        self.pre: list[list[int]] = []
        self.add: list[list[int]] = []
        for action in fired:
            adds = [fact(b) for b in bits(action.add)]
            for pos, _ in action.precondition:
                self.pre.append([fact(b) for b in bits(pos)] or [0])
                self.add.append(adds)
        self.pre.append([fact(b) for b in goal])  # the goal action, at no cost
        self.add.append([1])
        self.cost = [1] * (len(self.pre) - 1) + [0]
        self.facts = len(index) + 2
        self.starts = [0] + [index[b] for b in state_facts]
        self.users: list[list[int]] = [[] for _ in range(self.facts)]  # fact -> actions with it in a precondition
        for a, pre in enumerate(self.pre):
            for f in set(pre):
                self.users[f].append(a)
        self.adders: list[list[int]] = [[] for _ in range(self.facts)]  # fact -> actions that add it
        for a, adds in enumerate(self.add):
            for f in adds:
                self.adders[f].append(a)

    def estimate(self) -> int:
        total = 0
        while True:
            hmax, choice = self._hmax()
            if hmax[1] == 0:
                return total
            cut = self._cut(choice)
            least = min(self.cost[a] for a in cut)
            total += least
            for a in cut:
                self.cost[a] -= least

    def _hmax(self) -> tuple[list[float], list[int]]:
        """h^max of every fact with the current costs, and each action's precondition choice (the precondition
        reached last: one of greatest h^max; -1 for an action never enabled)."""
        inf = float("inf")
        hmax = [inf] * self.facts
        waiting = [len(set(pre)) for pre in self.pre]
        choice = [-1] * len(self.pre)
        queue = [(0, f) for f in self.starts]
        for f in self.starts:
            hmax[f] = 0
        heapq.heapify(queue)
        while queue:
            value, f = heapq.heappop(queue)
            if value > hmax[f]:
                continue
            for a in self.users[f]:
                waiting[a] -= 1
                if waiting[a] == 0:
                    choice[a] = f
                    reach = value + self.cost[a]
                    for g in self.add[a]:
                        if reach < hmax[g]:
                            hmax[g] = reach
                            heapq.heappush(queue, (reach, g))
        return hmax, choice

    def _cut(self, choice: list[int]) -> list[int]:
        """The actions from the part of the justification graph before the goal zone into the goal zone (the
        facts from which the goal is reached by actions of cost 0)."""
        zone = {1}
        stack = [1]
        while stack:
            f = stack.pop()
            for a in self.adders[f]:
                g = choice[a]
                if g >= 0 and self.cost[a] == 0 and g not in zone:
                    zone.add(g)
                    stack.append(g)
        before = set(self.starts) - zone
        stack = list(before)
        cut: list[int] = []
        while stack:
            f = stack.pop()
            for a in self.users[f]:
                if choice[a] != f:
                    continue
                if any(g in zone for g in self.add[a]):
                    cut.append(a)
                for g in self.add[a]:
                    if g not in zone and g not in before:
                        before.add(g)
                        stack.append(g)
        return cut
