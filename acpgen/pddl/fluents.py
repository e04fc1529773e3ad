"""Fluent types of a domain's predicates: static, base, derived, self-derived (ActionReasoningBench's split).

* ``static``: no action changes it and no rule defines it;
* ``derived``: defined by ``(:derived ...)`` rules (a ramification: it changes because others do);
* ``self_derived``: changed by actions, and a mutex group of Fast Downward's translator holds two of its
  atoms that agree on at least one argument and differ in exactly one other: an object (the arguments they
  share) takes one value at a time (``at(car, l)``: a car is at one location at a time);
* ``base``: every other predicate an action changes.

Two atoms that differ in their only argument are no such evidence. In a satellite problem with one
satellite, a group holds ``(power_avail satellite0)`` and the ``(power_on i)`` of its instruments (the
satellite powers one instrument at a time), yet with two satellites two instruments are on at once: the
groups of one problem cannot tell "one value in the whole state" (visitall's ``at-robot``: the domain has one
robot) from "one value per object that no argument names" (``power_on``: one per satellite), and a type is
a property of the domain, not of the problems at hand. A predicate of one argument that holds of one object
at a time because the domain has one such thing (the hand, the robot, the ferry) is ``self_derived`` by the
template's ``fluent_types`` (blocksworld's ``holding``), never by the groups.

What the PDDL does not say, the domain template may: its optional ``fluent_types:`` map reclassifies a
predicate that actions change (e.g. blocksworld's ``clear`` as ``derived``: it follows from ``on`` and
``holding``, although the domain states it as an effect). The type of a static or rule-defined predicate
follows from the PDDL and cannot be overridden.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from enum import Enum

from acpgen.errors import PddlError
from acpgen.pddl.model import LiftedTask, split_canonical


class FluentType(str, Enum):
    STATIC = "static"
    BASE = "base"
    DERIVED = "derived"
    SELF_DERIVED = "self_derived"


def single_valued_predicates(mutex_groups: Iterable[Sequence[str]]) -> frozenset[str]:
    """Predicates with two atoms in one mutex group that agree on at least one argument and differ in exactly
    one other (an object that takes one value at a time); never a predicate of fewer than two arguments."""
    found = set()
    for group in mutex_groups:
        atoms = [split_canonical(a) for a in group]
        by_predicate: dict[str, list[tuple[str, ...]]] = {}
        for pred, args in atoms:
            if len(args) > 1:  # atoms of one predicate have one arity: agreeing somewhere needs two arguments
                by_predicate.setdefault(pred, []).append(args)
        for pred, argument_lists in by_predicate.items():
            if pred in found:
                continue
            for i, first in enumerate(argument_lists):
                if any(sum(a != b for a, b in zip(first, other)) == 1 for other in argument_lists[i + 1 :]):
                    found.add(pred)
                    break
    return frozenset(found)


def group_dependent(lifted: LiftedTask, overrides: Mapping[str, str] | None = None) -> frozenset[str]:
    """The predicates of ``lifted`` whose type the mutex groups decide (base or self-derived): those that
    actions change, less those ``overrides`` (the template's ``fluent_types``) names. Once the groups of some
    problems make all of them single-valued, the groups of further problems cannot change a type."""
    named = {p.lower() for p in overrides or {}}
    return frozenset(
        p
        for p in lifted.predicates
        if p not in lifted.derived_predicates and p not in lifted.static_predicates and p not in named
    )


def classify(
    lifted: LiftedTask,
    single: AbstractSet[str] = frozenset(),
    overrides: Mapping[str, str] | None = None,
    source: str = "the template",
) -> dict[str, FluentType]:
    """The fluent type of every predicate of ``lifted`` (equality left out), sorted by predicate.

    ``single``: the single-valued predicates (:func:`single_valued_predicates`) of the translator's mutex
    groups of one or more problems of the domain; ``overrides``: the template's ``fluent_types`` map;
    ``source`` names it in errors.
    """
    out: dict[str, FluentType] = {}
    for pred in sorted(lifted.predicates):
        if pred in lifted.derived_predicates:
            out[pred] = FluentType.DERIVED
        elif pred in lifted.static_predicates:
            out[pred] = FluentType.STATIC
        else:
            out[pred] = FluentType.SELF_DERIVED if pred in single else FluentType.BASE
    allowed = {t.value for t in FluentType} - {FluentType.STATIC.value}
    for pred, value in (overrides or {}).items():
        pred = pred.lower()
        if pred not in out:
            raise PddlError(f"{source}: fluent_types names '{pred}', which is no predicate of the domain")
        if value not in allowed:
            raise PddlError(
                f"{source}: fluent_types gives '{pred}' the type '{value}'; use one of {', '.join(sorted(allowed))}"
            )
        if out[pred] in (FluentType.STATIC, FluentType.DERIVED) and value != out[pred].value:
            raise PddlError(
                f"{source}: fluent_types makes '{pred}' {value}, but the domain makes it {out[pred].value} "
                "(no action changes it, or rules define it); remove the entry"
            )
        out[pred] = FluentType(value)
    return out
