"""acp's own planning vocabulary: lifted schemas and ground tasks, free of tarski types.

Canonical text form of atoms and actions everywhere in acp: ``(name arg1 arg2)``, lower case,
single spaces; a nullary atom is ``(name)``. Plan length is the cost of a plan everywhere:
``:action-costs`` declarations are accepted and ignored (every action costs 1).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

EQUALITY = "="


def bits(mask: int) -> Iterator[int]:
    """Positions of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def union(states: Iterable[int]) -> int:
    """The atoms of any of ``states`` (bit masks over one grounding's atoms)."""
    found = 0
    for state in states:
        found |= state
    return found


_COMMENT = re.compile(r";[^\n]*")


def without_comments(pddl_text: str) -> str:
    """PDDL text with its ``;`` comments removed (for the few places that look at the text itself)."""
    return _COMMENT.sub("", pddl_text)


_DOMAIN_NAME = re.compile(r"\(\s*define\s*\(\s*domain\s+([^\s()]+)", re.IGNORECASE)


def declared_domain_name(pddl_text: str) -> str | None:
    """The NAME of ``(define (domain NAME) ...)``; None when the text defines no domain (a problem file)."""
    found = _DOMAIN_NAME.search(without_comments(pddl_text))
    return found.group(1) if found else None


def declared_requirements(domain_text: str) -> str:
    """The domain's ``:requirements`` flags, space-separated as declared ("" when it declares none)."""
    match = re.search(r"\(\s*:requirements\s+([^()]*)\)", without_comments(domain_text), flags=re.IGNORECASE)
    return " ".join(match.group(1).split()) if match else ""


def derived_rules_text(domain_text: str) -> list[str]:
    """The ``(:derived ...)`` blocks of a domain, verbatim (comments removed), in file order."""
    text = without_comments(domain_text)
    blocks = []
    for match in re.finditer(r"\(\s*:derived\b", text, flags=re.IGNORECASE):
        depth = 0
        for end in range(match.start(), len(text)):
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            if depth == 0:
                blocks.append(" ".join(text[match.start() : end + 1].split()))
                break
    return blocks


def canonical(name: str, args: tuple[str, ...] | list[str] = ()) -> str:
    """Canonical text of an atom or action: ``(name a b)`` in lower case."""
    return "(" + " ".join((name, *args)).lower() + ")"  # one lower() for the whole text


def split_canonical(text: str) -> tuple[str, tuple[str, ...]]:
    """Inverse of :func:`canonical` for well-formed canonical strings."""
    inner = text.strip()[1:-1].split()
    return inner[0], tuple(inner[1:])


@dataclass(frozen=True, slots=True)
class Literal:
    """A possibly negated atom over variables (``?x``) and object names; ``=`` is equality."""

    predicate: str
    args: tuple[str, ...]
    positive: bool = True

    @property
    def is_equality(self) -> bool:
        return self.predicate == EQUALITY


@dataclass(frozen=True, slots=True)
class Schema:
    """A lifted action: precondition in disjunctive normal form, unconditional add/delete effects."""

    name: str
    params: tuple[tuple[str, str], ...]  # (variable, type)
    precondition: tuple[tuple[Literal, ...], ...]  # disjunction of conjunctions
    add: tuple[Literal, ...]
    delete: tuple[Literal, ...]


@dataclass(frozen=True, slots=True)
class Axiom:
    """A derived-predicate rule ``(:derived (predicate ?x ...) body)``.

    ``params`` are the rule's variables: the head's ``arity`` variables first, then the variables of
    the body's existential quantifiers (renamed apart). ``body`` is in disjunctive normal form, like a
    precondition; universal quantifiers are already expanded over the problem's objects.
    """

    predicate: str
    params: tuple[tuple[str, str], ...]  # (variable, type): head variables, then existential ones
    arity: int
    body: tuple[tuple[Literal, ...], ...]  # disjunction of conjunctions

    @property
    def head(self) -> tuple[str, ...]:
        return tuple(v for v, _ in self.params[: self.arity])


@dataclass(frozen=True)
class LiftedTask:
    """A parsed domain + problem: everything needed to ground, in acp's vocabulary."""

    domain_name: str
    problem_name: str
    supertypes: dict[str, tuple[str, ...]]  # type -> itself and all its ancestors
    objects: dict[str, str]  # object -> declared type (constants included)
    predicates: dict[str, tuple[str, ...]]  # predicate -> argument types
    schemas: dict[str, Schema]
    init: frozenset[tuple[str, tuple[str, ...]]]
    goal: tuple[Literal, ...]  # a conjunction of ground literals
    constants: frozenset[str] = frozenset()  # objects declared in the domain
    domain_text: str = ""  # the domain as read, reused verbatim for planner queries
    axioms: tuple[Axiom, ...] = ()  # derived-predicate rules, in the order of the domain file
    strata: tuple[tuple[str, ...], ...] = ()  # derived predicates by stratum, lowest first

    @cached_property
    def dynamics_key(self) -> str:
        """A digest of what the transitions between the problem's states depend on: the domain text, the objects
        and the static facts (not the goal, not the initial state's changing facts). Two tasks with the same key
        have the same states and successors, however they number their atoms."""
        static = self.static_predicates
        parts = (
            self.domain_text,
            repr(sorted(self.objects.items())),
            repr(sorted((p, a) for p, a in self.init if p in static)),
        )
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    @property
    def derived_predicates(self) -> frozenset[str]:
        """Predicates defined by axioms (never in an action effect)."""
        return frozenset(a.predicate for a in self.axioms)

    def objects_of(self, type_name: str) -> tuple[str, ...]:
        """Objects whose declared type is ``type_name`` or one of its subtypes, sorted."""
        return self._objects_by_type.get(type_name, ())

    @cached_property
    def _objects_by_type(self) -> dict[str, tuple[str, ...]]:
        """The sorted objects of every type, worked out once (readers ask for them per atom they check)."""
        found: dict[str, list[str]] = {}
        for obj, declared in sorted(self.objects.items()):
            for type_name in self.supertypes.get(declared, (declared,)):
                found.setdefault(type_name, []).append(obj)
        return {type_name: tuple(objs) for type_name, objs in found.items()}

    @property
    def static_predicates(self) -> frozenset[str]:
        """Predicates no action adds or deletes and no axiom defines."""
        changed = {lit.predicate for s in self.schemas.values() for lit in (*s.add, *s.delete)}
        changed.update(a.predicate for a in self.axioms)
        return frozenset(p for p in self.predicates if p not in changed)


@dataclass(frozen=True, slots=True)
class GroundAction:
    """A ground action over atom bit masks.

    ``precondition`` is a tuple of disjuncts ``(positive_mask, negative_mask)``; the action is
    applicable in a state when one disjunct holds (static literals are already evaluated, so an
    empty tuple means the action is never applicable). Effects: ``s' = (s & ~delete) | add``.
    """

    name: str
    precondition: tuple[tuple[int, int], ...]
    add: int
    delete: int

    def applicable(self, state: int) -> bool:
        return any(state & pos == pos and not state & neg for pos, neg in self.precondition)

    def apply(self, state: int) -> int:
        return (state & ~self.delete) | self.add


@dataclass(frozen=True, slots=True)
class DerivingAction(GroundAction):
    """A ground action of a task with axioms: after the effects, the derived atoms are evaluated again.

    ``close`` maps a state to the same state with its derived atoms recomputed (see
    :mod:`acpgen.pddl.axioms`). Tasks without axioms use plain :class:`GroundAction` objects.
    """

    close: Callable[[int], int] = field(default=lambda state: state, compare=False, repr=False)

    def apply(self, state: int) -> int:
        return self.close((state & ~self.delete) | self.add)


@dataclass
class AtomTable:
    """Numbering of ground atoms (bit positions); grows when new atoms are named."""

    names: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)

    def id(self, atom: str) -> int:
        found = self.index.get(atom)
        if found is None:
            found = self.index[atom] = len(self.names)
            self.names.append(atom)
        return found

    def mask(self, atoms: Iterable[str]) -> int:
        value = 0
        for atom in atoms:
            value |= 1 << self.id(atom)
        return value

    def known_mask(self, atoms: Iterable[str]) -> int | None:
        """The mask of atoms all numbered already (None when one is not; the table does not grow)."""
        value = 0
        for atom in atoms:
            found = self.index.get(atom)
            if found is None:
                return None
            value |= 1 << found
        return value

    def atoms(self, mask: int) -> list[str]:
        """Atom names of the set bits of ``mask``, in bit order."""
        return [self.names[i] for i in bits(mask)]
