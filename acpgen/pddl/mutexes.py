"""Facts true in every reachable state of a ground task, proven without searching the state space.

Two sound arguments, both over the task's relaxed-reachable ground actions (every action that can
ever be applied is among them, see :mod:`acpgen.pddl.grounding`):

* **h² mutexes** (Haslum and Geffner's h^m for m = 2): the pairs of atoms that may hold together in
  some reachable state, computed as a fixpoint from the initial state. Negative preconditions are
  ignored (more actions apply, so more pairs are reached: the pairs left out still never hold
  together). A pair left out is a mutex: no reachable state has both atoms.
* **At-least-one sets**: a set X of atoms with a member true in the initial state, such that every
  action that may delete a true member of X (a member that h² allows together with the action's
  precondition) adds a member of X. By induction over any run, every reachable state has a member of X.

Together they prove that a goal implies an atom l: take X = {l} plus the atoms that no reachable state
holds together with l, nor together with the goal; if X is an at-least-one set, every reachable goal
state holds a member of X, and only l can be it (the members mutex with l make X one object's
alternatives, such as the places of a crate, rather than every atom the goal rules out). Atoms no
action adds or deletes keep their initial value and are left out (they are *constant*); tasks with
derived predicates are not handled (:func:`mutexes` gives None).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import bits

#: tasks with more atoms that actions change are not analysed (h² costs about the square of it)
MAX_ATOMS = 500


@dataclass
class Mutexes:
    """The h² pairs of one task: :meth:`row` of atom ``i`` is the mask of changing atoms that may hold together
    with it (itself included) in a reachable state; ``reachable`` the changing atoms that may hold at all.

    ``rows`` holds the pairs as the fixpoint found them: whole for the atoms of some precondition (``read``, the
    rows the fixpoint reads), and for any other atom the pairs stored with it, its other pairs being stored with
    the atom added together with it; :meth:`row` completes such a row on first use."""

    task: GroundTask
    changing: int  # atoms some action adds or deletes (the others are constant)
    reachable: int
    rows: dict[int, int]
    read: int  # atoms whose row in ``rows`` is whole
    actions: list[tuple[int, int, int, int]] = field(default_factory=list)  # (pre, compatible, add, delete)
    _whole: dict[int, int] = field(default_factory=dict, repr=False, compare=False)  # the other rows, completed

    def row(self, i: int) -> int:
        """The changing atoms that may hold together with atom ``i`` in a reachable state (0: ``i`` never holds)."""
        if (self.read >> i) & 1:
            return self.rows.get(i, 0)
        found = self._whole.get(i)
        if found is None:
            found, bit = self.rows.get(i, 0), 1 << i
            for other, together in self.rows.items():
                if together & bit:
                    found |= 1 << other
            self._whole[i] = found
        return found

    def compatible(self, mask: int) -> int:
        """Changing atoms that may hold in a reachable state together with all atoms of ``mask`` (constant
        atoms of ``mask`` ask nothing; an unreachable one leaves no atom)."""
        found = self.reachable
        for i in bits(mask & self.changing):
            found &= self.row(i)
        return found

    def together(self, pos: int, neg: int = 0) -> bool:
        """Whether h² allows a reachable state with all atoms of ``pos`` and none of ``neg`` (False: no
        reachable state has them)."""
        init, constant = self.task.init, ~self.changing
        if pos & constant & ~init or neg & constant & init:
            return False
        pos &= self.changing
        return self.compatible(pos) & pos == pos

    def excluded(self, pos: int, neg: int = 0) -> int:
        """Changing atoms false in every reachable state where all of ``pos`` hold and none of ``neg``."""
        return (self.changing & ~self.compatible(pos)) | (neg & self.changing)

    def at_least_one(self, members: int) -> bool:
        """Whether every reachable state holds some atom of ``members`` (see the module docstring)."""
        if not self.task.init & members:
            return False
        for _, compatible, add, delete in self.actions:
            if compatible & delete & ~add & members and not add & members:
                return False
        return True

    def implied(self, pos: int, neg: int, candidates: int) -> int:
        """The atoms of ``candidates`` true in every reachable state where ``pos`` holds and ``neg`` does
        not. Each atom proven joins ``pos``, which may exclude more atoms for the next proofs."""
        proven = 0
        progress = True
        while progress:
            progress = False
            excluded = self.excluded(pos | proven, neg)
            for bit in bits(candidates & ~proven & ~excluded):
                atom = 1 << bit
                if self.at_least_one(atom | excluded & ~self.row(bit)):
                    proven |= atom
                    progress = True
        return proven


def mutexes(task: GroundTask, max_atoms: int = MAX_ATOMS) -> Mutexes | None:
    """The h² pairs of ``task``; None for a task with derived predicates or more than ``max_atoms``
    changing atoms."""
    if task.axioms is not None:
        return None
    changing = 0
    for action in task.actions:
        changing |= action.add | action.delete
    if changing.bit_count() > max_atoms:
        return None
    disjuncts = [
        (pos & changing, action.add, action.delete & ~action.add)
        for action in task.actions
        for pos, _ in action.precondition
    ]
    read = 0  # the atoms of some precondition: the rows the fixpoint reads, kept whole
    for pre, _, _ in disjuncts:
        read |= pre
    reachable, rows = _fixpoint(disjuncts, task.init & changing, read)
    found = Mutexes(task, changing, reachable, rows, read)
    for pre, add, delete in disjuncts:
        if pre & reachable == pre:
            compatible = found.compatible(pre)
            if compatible & pre == pre:
                found.actions.append((pre, compatible, add, delete))
    return found


def _fixpoint(disjuncts: list[tuple[int, int, int]], init: int, read: int) -> tuple[int, dict[int, int]]:
    """h²'s reachable atoms and rows from ``init`` for the disjuncts (precondition, add, delete), the rows of the
    atoms of ``read`` whole (see :class:`Mutexes`)."""
    # the atoms of each disjunct's precondition and of its add list, listed once (the fixpoint visits
    # every disjunct on every pass)
    listed = [(tuple(bits(pre)), tuple(bits(add))) for pre, add, _ in disjuncts]
    reachable = init
    rows = dict.fromkeys(bits(init), init)
    seen = [-1] * len(disjuncts)  # the compatible atoms each disjunct was last applied with
    progress = True
    while progress:
        progress = False
        grown: dict[int, int] = {}  # the rows of the atoms added in this pass, as they were before it
        for k, (pre, add, delete) in enumerate(disjuncts):
            if pre & reachable != pre:
                continue
            pre_atoms, add_atoms = listed[k]
            compatible = reachable
            for i in pre_atoms:
                compatible &= rows[i]
            if compatible & pre != pre:
                continue
            compatible &= ~delete
            if compatible == seen[k]:
                continue
            seen[k] = compatible
            progress = True
            reachable |= add
            together = compatible | add
            for i in add_atoms:
                row = rows.get(i, 0)
                grown.setdefault(i, row)
                rows[i] = row | together
        _mirror(rows, grown, read)
    return reachable, rows


def _mirror(rows: dict[int, int], grown: dict[int, int], read: int) -> None:
    """Each pair a pass found is stored with the atom added; the rows the fixpoint reads (``read``) get it too, once
    per pair (giving every compatible atom the added ones at each step visited each pair many times). A pair made
    known only now may let a disjunct apply: the next pass sees it (any order of these monotone steps reaches the
    same least fixpoint). ``grown``: the rows of the atoms added in the pass, as they were before it. The atoms one
    action adds gain the same pairs: grouped by what they gained, each row is visited once per group (h² of alfworld's
    largest problem: 0.19 s instead of 0.41 s)."""
    groups: dict[int, int] = {}  # the pairs gained -> the atoms that gained them
    for i, before in grown.items():
        new = rows[i] & ~before & read
        if new:
            groups[new] = groups.get(new, 0) | 1 << i
    for new, added in groups.items():
        while new:  # bits(new), written out: this loop is most of the fixpoint's time
            low = new & -new
            rows[low.bit_length() - 1] |= added
            new ^= low
