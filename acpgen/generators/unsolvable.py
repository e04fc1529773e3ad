"""Problems whose goal no plan reaches, made from a domain's solvable problems (the plan tasks' impossible ones).

Two kinds, each a candidate that `acpgen.proofs.unsolvable` must prove before it is used:

* **deep**: a goal whose contradiction only a search of the state space shows (no static fact, delete
  relaxation or h² pair refutes it), where the domain admits one:

  - blocksworld: blocks stacked in a cycle (``a`` on ``b``, ``b`` on ``c``, ``c`` on ``a``; three blocks or more: h²
    refutes a cycle of two, since it sees pairs);
  - depots: crates stacked in a cycle of three or more, as blocksworld's;
  - floortile: every tile painted, the robots' rows included: a robot stands on a tile it cannot paint (a tile is
    painted from a neighbour while clear, and a robot never stands on a painted one), so one tile is left at the end.

  The other domains admit none at acp's sizes: their actions undo one another (ferry, grippers, logistics, swap,
  satellite, depots' moves, grid's keys and locks, visitall's walks, alfworld's), so a goal made of consistent
  facts stays reachable, and what cannot be undone is seen by the relaxation or by h² (goldminer: gold the laser
  destroys is gone for good, but h² keeps "robot on the gold's cell" and "gold there" apart once the laser is the
  only way in; rovers: a sample taken once is taken by one rover, visible in the relaxation).

* **shallow**: the solvable problem's goal with one more atom that h² (Haslum and Geffner's h², from the initial
  state) proves never holds together with it, an atom of the same predicate with one argument changed first
  ("car c1 at l0" beside "car c1 at l2", "block a on b" beside "block a on d"): the contradiction of PlanBench's
  unsolvable blocksworld ("b on a and b on d"); or two more atoms that never hold together ("the robot at x and
  at y": visitall, whose goal facts never exclude one another). Where h² does not analyse the domain (alfworld,
  whose derived predicates it leaves out), a fact of a static predicate that the initial state does not hold.

A deep candidate is drawn first where the domain has one (:func:`deep_goal`), and a shallow one otherwise or when
the deep one is not proven (:func:`shallow_goal`); both keep the problem's name, objects and initial state (nothing
in the problem's text tells it from a solvable one but its goal).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from acpgen.generators.base import ProblemSpec
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import split_canonical
from acpgen.pddl.mutexes import mutexes

DEEP, SHALLOW = "deep", "shallow"


def _cycle(spec: ProblemSpec, rng: random.Random, kind: str | None) -> ProblemSpec | None:
    """The goal with a cycle of three or four ``on`` atoms among objects of ``kind`` (any: None), in place of the
    goal atoms that name them."""
    members = sorted(o for o, t in spec.objects.items() if kind is None or t == kind)
    if len(members) < 3:
        return None
    ring = rng.sample(members, rng.choice([k for k in (3, 4) if k <= len(members)]))
    cycle = [f"(on {a} {b})" for a, b in zip(ring, ring[1:] + ring[:1])]
    kept = [g for g in spec.goal if not set(split_canonical(g)[1]) & set(ring)]
    return ProblemSpec(spec.name, spec.objects, spec.init, (*kept, *cycle))


def _paint_everything(spec: ProblemSpec, rng: random.Random) -> ProblemSpec | None:
    """Floortile's goal with every tile painted: the tiles of the goal as they are, the others in a colour drawn."""
    painted = {split_canonical(g)[1][0] for g in spec.goal}
    colors = sorted(o for o, t in spec.objects.items() if t == "color")
    rest = sorted(o for o, t in spec.objects.items() if t == "tile" and o not in painted)
    if not rest or not colors:
        return None
    extra = tuple(f"(painted {tile} {rng.choice(colors)})" for tile in rest)
    return ProblemSpec(spec.name, spec.objects, spec.init, spec.goal + extra)


#: the domains that admit deep unsolvable goals, and how one is drawn
DEEP_GOALS: dict[str, Callable[[ProblemSpec, random.Random], ProblemSpec | None]] = {
    "blocksworld": lambda spec, rng: _cycle(spec, rng, None),
    "depots": lambda spec, rng: _cycle(spec, rng, "Crate"),
    "floortile": _paint_everything,
}


def deep_goal(domain: str, spec: ProblemSpec, rng: random.Random) -> ProblemSpec | None:
    """A deep candidate of ``domain`` made from ``spec`` (None where the domain admits none, or ``spec`` gives none)."""
    make = DEEP_GOALS.get(domain)
    return None if make is None else make(spec, rng)


def shallow_goal(spec: ProblemSpec, task: GroundTask, rng: random.Random) -> ProblemSpec | None:
    """``spec``'s goal with what h² proves never holds with it (``task``: ``spec`` grounded): one more atom of a goal
    atom's predicate with one argument changed, else any one more fluent atom, else two more atoms that never hold
    together; atoms that name an object twice ("block a on a") last. None when h² finds nothing."""
    found = mutexes(task)
    if found is None:
        return None
    goal, table = task.goal_pos, task.atoms
    fluent = sorted(table.atoms(found.changing), key=_repeats)
    goal_atoms = table.atoms(goal)
    rng.shuffle(goal_atoms)

    def apart(atom: str, more: int = 0) -> bool:
        return atom not in spec.goal and not found.together(goal | more | (1 << table.index[atom]), task.goal_neg)

    def extended(*atoms: str) -> ProblemSpec:
        return ProblemSpec(spec.name, spec.objects, spec.init, (*spec.goal, *atoms))

    for target in goal_atoms:
        name, args = split_canonical(target)
        alike = [a for a in fluent if split_canonical(a)[0] == name and _one_apart(split_canonical(a)[1], args)]
        chosen = _fewest_repeats([a for a in alike if apart(a)])
        if chosen:
            return extended(rng.choice(chosen))
    chosen = _fewest_repeats([a for a in fluent if apart(a)])
    if chosen:
        return extended(rng.choice(chosen))
    alone = [a for a in fluent if a not in spec.goal and found.together(goal | (1 << table.index[a]), task.goal_neg)]
    rng.shuffle(alone)
    for first in alone[:50]:
        bit = 1 << table.index[first]
        partners = _fewest_repeats([a for a in alone if a != first and apart(a, bit)])
        if partners:
            return extended(first, rng.choice(partners))
    return None


def static_goal(spec: ProblemSpec, task: GroundTask, rng: random.Random) -> ProblemSpec | None:
    """``spec``'s goal with a fact of a static predicate (one no action changes) that the initial state does not
    hold: the trivial contradiction, for a domain h² does not analyse (alfworld's derived predicates)."""
    lifted = task.lifted
    static = sorted(lifted.static_predicates - lifted.derived_predicates)
    held = {f"({p} {' '.join(args)})" if args else f"({p})" for p, args in lifted.init}
    rng.shuffle(static)
    for name in static:
        types = lifted.predicates.get(name, ())
        choices = [lifted.objects_of(t) for t in types]
        if not types or not all(choices):
            continue
        for _ in range(20):
            args = [rng.choice(c) for c in choices]
            atom = f"({name} {' '.join(args)})"
            if atom not in held and len(set(args)) == len(args):
                return ProblemSpec(spec.name, spec.objects, spec.init, (*spec.goal, atom))
    return None


def _repeats(atom: str) -> int:
    args = split_canonical(atom)[1]
    return len(args) - len(set(args))


def _fewest_repeats(atoms: list[str]) -> list[str]:
    """The atoms that name an object twice the fewest times (a block on itself is a last resort), in order."""
    least = min((_repeats(a) for a in atoms), default=0)
    return [a for a in atoms if _repeats(a) == least]


def _one_apart(args: tuple[str, ...], others: tuple[str, ...]) -> bool:
    return len(args) == len(others) and sum(a != b for a, b in zip(args, others)) == 1
