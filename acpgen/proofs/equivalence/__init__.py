"""Are two PDDL problems over one domain the same planning problem? (text-to-PDDL scoring, `acp equivalent`)

Definition (Planetarium's, for any STRIPS domain acp reads): problems P and Q over one domain are
equivalent when some bijection of their objects (each object onto one of the same declared type,
the domain's constants onto themselves) maps P's initial state onto Q's and makes P's goal and Q's
goal select the same reachable goal states. Both goals are closed under the fluent literals true in
all their reachable goal states, and the closed problems are compared as coloured graphs up to
renaming; an answer a planner could not give leaves the verdict undecided, never a silent "no".

The modules, each importing only those listed before it:

- :mod:`~acpgen.proofs.equivalence.graph`: a problem as a coloured graph (:class:`ProblemGraph`), its
  canonical form (nauty) and the bijection of objects under which two graphs are equal.
- :mod:`~acpgen.proofs.equivalence.reachability`: what a ground task's actions allow, as masks over its
  atoms: the atoms that can change, a goal no action can reach, literals proven true in every reachable
  goal state (invariants), and searches for reachable goal states that refute the others.
- :mod:`~acpgen.proofs.equivalence.checker`: the decision (:class:`EquivalenceChecker`, which keeps each
  problem's analysis by its text; :class:`Equivalence`, the verdict; :func:`equivalent`, one check): the
  initial states matched, solvability, the goals' closures (:class:`Closure`) bounded, settled and compared,
  the placeholder mode.
- :mod:`~acpgen.proofs.equivalence.pairs`: many pairs (`acp equivalent --pairs`: :class:`Pair`,
  :func:`read_pairs`, :func:`check_pairs`, :func:`pair_line`), one unit of an executor per truth.

Other modules import from here.
"""

from acpgen.proofs.equivalence.checker import (
    H2_ATOMS,
    PLAN_SEARCH_STATES,
    SEARCH_STATES,
    SMALL_SPACE,
    Closure,
    Equivalence,
    EquivalenceChecker,
    equivalent,
    problem_domain_name,
)
from acpgen.proofs.equivalence.graph import ProblemGraph
from acpgen.proofs.equivalence.pairs import Pair, check_pairs, pair_line, read_pairs

__all__ = [
    "H2_ATOMS",
    "PLAN_SEARCH_STATES",
    "SEARCH_STATES",
    "SMALL_SPACE",
    "Closure",
    "Equivalence",
    "EquivalenceChecker",
    "Pair",
    "ProblemGraph",
    "check_pairs",
    "equivalent",
    "pair_line",
    "problem_domain_name",
    "read_pairs",
]
