"""What a reasoning-about-actions question asks, and its answer in a :class:`~acpgen.proofs.change.world.World`.

A question is a category (fluent tracking, state tracking, action executability, effects of
actions, numerical, composite) with a variant, over an action sequence from the record's state,
optionally about one object (``object``), one further action (``action``) and a fluent type.
:func:`answer` computes the free answer; :func:`claim_holds` decides one boolean claim. Both are
written once over the :class:`World` interface, so the core and the separate interpreter give
them independently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from acpgen.errors import DataError
from acpgen.pddl.model import split_canonical
from acpgen.proofs.change.literals import literal_atom, mentions, negated
from acpgen.proofs.change.world import Facts, World

# kinds of free answers
LITERALS, ACTIONS, NUMBER = "literals", "actions", "number"

#: category -> free-answer variant -> answer kind
GEN_VARIANTS: dict[str, dict[str, str]] = {
    "fluent": {"true": LITERALS, "false": LITERALS, "both": LITERALS},
    "state": {"true": LITERALS, "false": LITERALS},
    "executability": {"first": ACTIONS, "executable": ACTIONS},
    "effects": {"added": LITERALS, "deleted": LITERALS},
    "numerical": {"executable": NUMBER, "object_true": NUMBER, "true": NUMBER},
    "composite": {"fluents_before": LITERALS, "executable_before": ACTIONS},
}
#: category -> boolean variants (the claim's ``about``)
BOOL_VARIANTS: dict[str, tuple[str, ...]] = {
    "fluent": ("holds",),
    "state": ("all_hold",),
    "executability": ("first", "executable"),
    "effects": ("holds_after",),
    "numerical": ("executable", "object_true"),
    "composite": ("holds_before",),
}
#: variants asked about a sequence with one inexecutable action
WITH_INEXECUTABLE = {"first", "fluents_before", "executable_before", "holds_before"}
#: the fluent types a question may be about (acpgen.pddl.fluents), one at a time; ``all``: every type at once,
#: ``fluents``: every type but the static one (a mix of base, derived and self-derived fluents)
FLUENT_TYPES = ("static", "base", "derived", "self_derived")
MIXES = ("all", "fluents")


#: variants whose answer depends on the question's fluent type (the others name their literals, or ask
#: about actions)
TYPED_VARIANTS = frozenset({"true", "false", "both", "added", "deleted", "object_true", "fluents_before"})


def uses_fluent_type(category: str, variant: str) -> bool:
    """Whether the answer to a question of this category and variant depends on its fluent type."""
    return variant in TYPED_VARIANTS and category != "executability"


def record_types(types: Mapping[str, str]) -> dict[str, list[str]]:
    """A domain's fluent types as records store them: fluent type -> its predicates, every type present
    (one shape in every record, so a file mixing domains loads as one table)."""
    return {kind: sorted(p for p, t in types.items() if t == kind) for kind in FLUENT_TYPES}


def types_of_record(stored: Mapping[str, Any]) -> dict[str, str]:
    """Predicate -> fluent type from a record's ``fluent_types`` (:func:`record_types`)."""
    out: dict[str, str] = {}
    for kind, predicates in stored.items():
        if kind not in FLUENT_TYPES or not isinstance(predicates, list):
            raise DataError(f"fluent_types: {kind!r} is no fluent type, or its predicates are not a list")
        out.update({str(p): kind for p in predicates})
    return dict(sorted(out.items()))


def of_type(types: Mapping[str, str], atom: str, wanted: str) -> bool:
    """Whether an atom's predicate has the fluent type ``wanted`` (or belongs to the mix ``wanted``)."""
    kind = types.get(split_canonical(atom)[0])
    return kind is not None and kind_matches(kind, wanted)


def kind_matches(kind: str, wanted: str) -> bool:
    """Whether a predicate of fluent type ``kind`` is one of the type or mix ``wanted``."""
    if wanted == "all":
        return True
    if wanted == "fluents":
        return kind != "static"
    return kind == wanted


@dataclass(frozen=True)
class Question:
    """The structured fields of a question (stored in its record)."""

    category: str
    variant: str
    sequence: tuple[str, ...]
    fluent_type: str | None = None
    object: str | None = None
    action: str | None = None

    @classmethod
    def of_record(cls, record: dict[str, Any], variant: str | None = None) -> Question:
        try:
            return cls(
                record["category"],
                variant or record["variant"],
                tuple(a.lower() for a in record["sequence"]),
                record.get("fluent_type"),
                record.get("object"),
                record["action"].lower() if record.get("action") else None,
            )
        except KeyError as err:
            raise DataError(f"record {record.get('id')}: no field {err} (a reasoning-about-actions record)") from None

    def fields(self, types: Mapping[str, str]) -> dict[str, Any]:
        """The record fields of the question; ``types``: the domain's fluent types it was asked with."""
        out: dict[str, Any] = {
            "category": self.category,
            "variant": self.variant,
            "sequence": list(self.sequence),
            "sequence_length": len(self.sequence),
            "fluent_type": self.fluent_type,
            "fluent_types": record_types(types),
        }
        if self.object is not None:
            out["object"] = self.object
        if self.action is not None:
            out["action"] = self.action
        return out


def _about(world: World, q: Question, kind: str) -> Callable[[str], bool]:
    """Whether an atom is one the question is about: of the fluent type ``kind``, mentioning its object (if any)."""
    return lambda a: of_type(world.types, a, kind) and (q.object is None or mentions(a, q.object))


def _relevant(world: World, q: Question, wanted: str | None = None) -> list[str]:
    """The atoms a question is about: of its fluent type, mentioning its object (if any)."""
    return list(filter(_about(world, q, wanted or q.fluent_type or "all"), world.atoms))


def _relevant_in(world: World, q: Question, facts: Facts) -> list[str]:
    """The atoms of ``facts`` (a state along the question's sequence) the question is about. They are atoms of
    :attr:`World.atoms` (the atoms some reachable state makes true), so these are :func:`_relevant`'s atoms
    true in the state, found without computing that set (h² from the question's state: the costly part)."""
    return sorted(filter(_about(world, q, q.fluent_type or "all"), facts))


def _literals(atoms: list[str], facts: Facts, polarity: str) -> list[str]:
    true = [a for a in atoms if a in facts]
    false = [negated(a) for a in atoms if a not in facts]
    return sorted({"true": true, "false": false, "both": true + false}[polarity])


def _final(world: World, q: Question) -> Facts:
    states, failed = world.run(list(q.sequence))
    if failed is not None:
        raise DataError(f"action {failed} of the sequence, {q.sequence[failed]}, is not executable")
    return states[-1]


def _before_first_failure(world: World, q: Question) -> tuple[Facts, int]:
    states, failed = world.run(list(q.sequence))
    if failed is None:
        raise DataError("the sequence has no inexecutable action")
    return states[-1], failed


def _after_action(world: World, q: Question) -> tuple[Facts, Facts]:
    before = _final(world, q)
    after = world.step(before, q.action or "")
    if after is None:
        raise DataError(f"the action {q.action} is not executable after the sequence")
    return before, after


#: the states :func:`surely_unfit` explores from a question's state for atoms of :attr:`World.atoms` (an alfworld
#: question whose false literals are asked about lists hundreds; its sequence's states show a few), in a state of
#: more than ``UNFIT_FACTS`` facts (h² from a smaller one costs less than the exploration: satellite, grid)
UNFIT_STATES = 1000
UNFIT_FACTS = 150


def surely_unfit(world: World, q: Question, most: int) -> bool:
    """Whether the free answer of a question about false literals (variants ``false`` and ``both``, the answers
    that need :attr:`World.atoms`: h² from the question's state) surely lists no item or more than ``most``,
    decided without those atoms. An atom of a static predicate is listed only when the initial state holds it,
    and then every state does: no answer lists a false one. Every atom true in a reachable state is listed: those
    of the states along the sequence and, when they do not decide, of the first :data:`UNFIT_STATES` states
    reachable from the question's state (:meth:`World.reached`); the answer lists at least those false at the end
    (``false``), or all of them (``both``). False for any other question (its answer needs no h²: check the
    answer itself), for a sequence that is not executable (:func:`answer` says why), and where the answer costs
    less than the exploration (the listed atoms known already, a state of at most :data:`UNFIT_FACTS` facts)."""
    if q.category not in ("fluent", "state") or q.variant not in ("false", "both"):
        return False
    states, failed = world.run(list(q.sequence))
    if failed is not None:
        return False
    wanted = q.fluent_type or "all"
    if q.variant == "false" and all(
        p in world.lifted.static_predicates for p, kind in world.types.items() if kind_matches(kind, wanted)
    ):
        return True
    along = frozenset().union(*states)
    if _lists_more(world, q, along, states[-1], most):
        return True
    if world.universe_known() or len(world.init) <= UNFIT_FACTS:
        return False
    return _lists_more(world, q, along | world.reached(UNFIT_STATES), states[-1], most)


def _lists_more(world: World, q: Question, listed: Facts, final: Facts, most: int) -> bool:
    """Whether the answer lists more than ``most`` items given that it lists the atoms of ``listed`` (:func:`answer`
    of variant ``false`` or ``both``, ``final`` the state at the end)."""
    seen = set(_relevant_in(world, q, listed))
    return len(seen - final if q.variant == "false" else seen) > most


def answer(world: World, q: Question) -> Any:
    """The free answer: sorted literals or actions, or a number (one type per category: a dataset
    loader such as Hugging Face ``datasets`` needs one type per field of a file)."""
    c, v = q.category, q.variant
    if c in ("fluent", "state"):
        if v == "true":
            return _relevant_in(world, q, _final(world, q))
        return _literals(_relevant(world, q), _final(world, q), v)
    if c == "executability":
        if v == "first":  # a set of one action: every free answer of a task has one type (a list here)
            _, failed = world.run(list(q.sequence))
            return [] if failed is None else [q.sequence[failed]]
        return world.executable(_final(world, q))
    if c == "effects":
        before, after = _after_action(world, q)
        return _relevant_in(world, q, after - before if v == "added" else before - after)
    if c == "numerical":
        final = _final(world, q)
        if v == "executable":
            return len(world.executable(final))
        return len(_relevant_in(world, q, final))
    if c == "composite":
        state, _ = _before_first_failure(world, q)
        if v == "fluents_before":
            return _relevant_in(world, q, state)
        return world.executable(state)
    raise DataError(f"unknown question category {c!r}")


def literal_holds(facts: Facts, literal: str) -> bool:
    atom, positive = literal_atom(literal)
    return (atom in facts) == positive


def claim_holds(world: World, q: Question, about: str, value: Any) -> bool:
    """Whether a boolean claim holds: ``about`` is the boolean variant, ``value`` a literal, a list of
    literals, an action or a number."""
    if about == "holds":
        return literal_holds(_final(world, q), value)
    if about == "all_hold":
        final = _final(world, q)
        return all(literal_holds(final, lit) for lit in value)
    if about == "first":
        return bool(answer(world, Question(q.category, "first", q.sequence)) == [value])
    if about == "executable" and q.category == "executability":
        return world.step(_final(world, q), value) is not None
    if about == "holds_after":
        return literal_holds(_after_action(world, q)[1], value)
    if about in ("executable", "object_true"):
        return bool(answer(world, Question(q.category, about, q.sequence, q.fluent_type, q.object)) == value)
    if about == "holds_before":
        return literal_holds(_before_first_failure(world, q)[0], value)
    raise DataError(f"unknown claim {about!r}")
