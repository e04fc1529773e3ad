"""What a ground task's actions allow, as masks over its atoms: the analysis behind the checker's
solvability test and its bounds on a goal's closure (:mod:`acpgen.proofs.equivalence.checker`).

The closure ranges over the atoms some action adds or deletes (:func:`changing_atoms`; the others keep
their initial value in every reachable state, and the graphs carry the initial state). A goal is out of
reach when no action can make one of its literals true (:func:`goal_out_of_reach`). Reachable goal states
refute closure candidates (:class:`GoalStates`: greedy searches for a goal state without each remaining
candidate, started near the goal states found and guided toward an action that changes the candidate,
and a sweep from every goal state found over the goal states one action away), and invariants prove
candidates in: atoms implied by a goal atom, by induction over the actions (:func:`implied`); atoms every
action achieving a goal atom needs and that no action can change while the goal atom holds, as when
alfworld's validation ends the episode with the objects where it found them, or when the gold miner,
once holding the gold, can no longer fire the laser that destroys it (:func:`kept_after_goal`, with the
h² mutexes of :mod:`acpgen.pddl.mutexes` when given). Each is exact: a goal state found is reachable,
and an invariant holds in every reachable state.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from acpgen.pddl.explore import greedy_search
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import GroundAction, bits
from acpgen.pddl.mutexes import Mutexes


def _effects(task: GroundTask) -> tuple[int, int]:
    """The atoms some action adds, and those some action deletes."""
    adds = deletes = 0
    for action in task.actions:
        adds |= action.add
        deletes |= action.delete
    return adds, deletes


def changing_atoms(task: GroundTask) -> int:
    """The atoms some action adds or deletes; every other atom keeps its initial value in every reachable
    state, so a closure leaves it out (the graphs carry the initial state anyway)."""
    adds, deletes = _effects(task)
    return adds | deletes


def goal_out_of_reach(task: GroundTask) -> bool:
    """Whether the goal is unreachable because no action can make one of its literals true: a positive
    atom neither initially true nor added by any action, or a negated one initially true and deleted by
    none. Exact for both: every action that can ever apply is among the task's ground actions, and a
    derived atom (which the rules may change in any state) is never judged so."""
    if not task.goal_satisfiable:
        return True
    adds, deletes = _effects(task)
    pos, neg = task.goal_pos & ~task.derived_mask, task.goal_neg & ~task.derived_mask
    return bool(pos & ~(task.init | adds) or neg & task.init & ~deletes)


def kept_after_goal(task: GroundTask, open_pos: int, found: Mutexes | None = None) -> tuple[int, int]:
    """Atoms true (first) and atoms false (second) in every reachable goal state, proven from the actions
    that achieve a goal atom G false initially. After the last achievement of G on a run to a goal state,
    G holds in every state up to its end. So if every achiever needs atom X (or adds it, or needs an atom
    Y that implies X in every reachable state, among ``open_pos``) and keeps it, and no action deleting X
    can apply while G holds, X holds in the goal state; likewise for an atom every achiever needs false
    (or deletes) that no action adding it can apply while G holds. An action cannot apply while G holds
    when each disjunct of its precondition needs an atom every achiever deletes and no action adds (gone
    for good, as when alfworld's validation ends the episode with the objects where it found them), or
    needs G false, or is mutex with G (h², ``found``). Tasks with derived atoms are left out."""
    if task.axioms is not None or not task.goal_satisfiable:
        return 0, 0
    added = 0
    for action in task.actions:
        added |= action.add
    kept, gone = 0, 0
    for goal in bits(task.goal_pos & ~task.init):
        achievers = [a for a in task.actions if a.add >> goal & 1]
        ended, needs_true, needs_false, touched = -1, -1, -1, 0
        for action in achievers:
            ended &= action.delete & ~added
            needs_true &= (_always_needed(action, positive=True) | action.add) & ~action.delete
            needs_false &= (_always_needed(action, positive=False) | action.delete) & ~action.add
            touched |= action.delete
        if not achievers or not (ended or found):
            continue

        def blocked(action: GroundAction, goal: int = goal, ended: int = ended) -> bool:
            """Whether ``action`` cannot apply in a state where the goal atom holds."""
            return all(
                pre & ended or pre_neg >> goal & 1 or (found is not None and not found.together(pre | 1 << goal))
                for pre, pre_neg in action.precondition
            )

        true_after = needs_true | implied(task, needs_true, open_pos & ~needs_true & ~touched)
        for atom in bits(true_after & ~kept):
            if all(blocked(a) for a in task.actions if a.delete >> atom & 1):
                kept |= 1 << atom
        for atom in bits(needs_false & ~gone):
            if all(blocked(a) for a in task.actions if a.add >> atom & 1):
                gone |= 1 << atom
    return kept, gone


def implied(task: GroundTask, sources: int, targets: int) -> int:
    """The atoms X of ``targets`` true in every reachable state where some atom Y of ``sources`` is true,
    by induction: not so initially, every action that adds Y adds X or needs and keeps it, and every
    action that deletes X deletes Y or needs it false (and does not add it)."""
    found = 0
    if not sources or not targets:
        return found
    keeps: dict[int, int] = {}  # Y -> the atoms every action adding Y adds, or needs and keeps
    for y in bits(sources):
        keeps[y] = -1
        for action in task.actions:
            if action.add >> y & 1:
                keeps[y] &= action.add | (_always_needed(action, positive=True) & ~action.delete)
    for x in bits(targets):
        guarded = -1  # the atoms every action deleting X deletes, or needs false, and does not add
        for action in task.actions:
            if (action.delete & ~action.add) >> x & 1:
                guarded &= (action.delete | _always_needed(action, positive=False)) & ~action.add
        for y, kept in keeps.items():
            if kept >> x & 1 and guarded >> y & 1 and not (task.init >> y & 1 and not task.init >> x & 1):
                found |= 1 << x
                break
    return found


def _always_needed(action: GroundAction, positive: bool) -> int:
    """The atoms every disjunct of an action's precondition needs true (``positive``) or false."""
    needed = -1
    for pre, pre_neg in action.precondition:
        needed &= pre if positive else pre_neg
    return needed if action.precondition else 0


def _greedy_search(
    task: GroundTask, pos: int, neg: int, max_states: int, starts: tuple[int, ...] = (), focus: int = 0
) -> list[int] | None:
    """The path :func:`acpgen.pddl.explore.greedy_search` finds toward ``pos`` / ``not neg``, with
    ``focus``: one literal of ``pos`` or ``neg`` (a bit) to change first; while it is unmet, the fewest
    unmet preconditions of an action that meets it are added to the estimate (the search for a goal
    state that refutes a closure candidate starts on the way to a goal state found before, where little
    but that literal is unmet)."""
    makers = [pre for a in task.actions if (a.add if focus & pos else a.delete) & focus for pre in a.precondition]
    if not makers:
        return greedy_search(task, pos, neg, max_states, starts).path

    def missing(state: int) -> int:
        unmet = (pos & ~state).bit_count() + (neg & state).bit_count()
        if (state & focus) == (focus & neg):
            unmet += min((p & ~state).bit_count() + (n & state).bit_count() for p, n in makers)
        return unmet

    return greedy_search(task, pos, neg, max_states, starts, estimate=missing).path


class GoalStates:
    """Reachable goal states found so far, with the atoms true in all of them (``always``) and in some
    (``ever``). Each state added is swept: goal states one action away are added too, breadth first,
    up to ``limit`` states in all (moving what the goal does not mention refutes many candidates at once).
    The states on the way to them are kept as starts of later searches."""

    def __init__(self, task: GroundTask, limit: int, focus: tuple[int, int] = (-1, -1)) -> None:
        self.task, self.limit = task, limit
        self.focus = focus  # the atoms asked about (positive, negative): a sweep ends once all are refuted
        self.seen: set[int] = set()
        self.found: list[int] = []  # the goal states added (the sweep's starts)
        self.on_the_way: list[int] = []  # reachable states on the paths to them
        self.always, self.ever = -1, 0

    def add(self, path: Sequence[int]) -> None:
        """A path of reachable states ending in a goal state."""
        self.on_the_way += path[:-1]
        self.found.append(path[-1])
        queue = deque([path[-1]])
        while queue and len(self.seen) < self.limit and self.open():
            state = queue.popleft()
            if state in self.seen:
                continue
            self.seen.add(state)
            self.always &= state
            self.ever |= state
            for _, action in self.task.successors(state):
                nxt = action.apply(state)
                if nxt not in self.seen and self.task.is_goal(nxt):
                    queue.append(nxt)

    def open(self) -> bool:
        """Whether an atom asked about is true in every goal state found so far (a positive one) or false
        in every one (a negative one)."""
        return bool(self.always & self.focus[0] or self.focus[1] & ~self.ever)

    def refute(self, pos: int, neg: int, focus: int) -> None:
        """Look for a reachable state with ``pos`` and without ``neg`` (a goal state without the closure
        candidate ``focus``), and add it when found: first short searches from the goal states found last
        and from the last states on the way to them (where little but the candidate is unmet; one search
        from all of them would stay on the plateau of the earliest), then one from the initial state and
        every state on the way, each guided toward an action that changes the candidate."""
        for start in [*self.found[-2:][::-1], *self.on_the_way[-4:][::-1]]:
            path = _greedy_search(self.task, pos, neg, self.limit // 8, (start,), focus)
            if path is not None:
                self.add(path)
                return
        path = _greedy_search(self.task, pos, neg, self.limit // 2, (self.task.init, *self.on_the_way), focus)
        if path is not None:
            self.add(path)
