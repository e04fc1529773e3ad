"""Fluent types of a domain's predicates, and literals (an atom or its negation) as text.

``static``: the predicate is in no action effect; ``base``: every other predicate. The types
``derived`` and ``self_derived`` of ActionReasoningBench need PDDL axioms and the translator's
mutex groups; they are not classified yet, and this is the one function to extend when they are.
"""

from __future__ import annotations

from acpgen.pddl.model import LiftedTask, split_canonical

STATIC, BASE = "static", "base"
FLUENT_TYPES = (STATIC, BASE)
#: what a question may ask about: one fluent type, or all of them together
QUESTION_FLUENT_TYPES = (*FLUENT_TYPES, "all")


def fluent_types(lifted: LiftedTask) -> dict[str, str]:
    """Predicate -> fluent type (equality is no fluent)."""
    static = lifted.static_predicates
    return {p: STATIC if p in static else BASE for p in lifted.predicates if p != "="}


def of_type(types: dict[str, str], atom: str, wanted: str) -> bool:
    """Whether an atom's predicate has the fluent type ``wanted`` (``all``: any type)."""
    predicate = split_canonical(atom)[0]
    return predicate in types and (wanted == "all" or types[predicate] == wanted)


def negated(atom: str) -> str:
    """The literal saying that ``atom`` is false: ``(not (clear b1))``."""
    return f"(not {atom})"


def literal_atom(literal: str) -> tuple[str, bool]:
    """``(not (p a))`` -> (``(p a)``, False); ``(p a)`` -> (``(p a)``, True)."""
    text = " ".join(literal.lower().split())
    if text.startswith("(not (") and text.endswith("))"):
        return text[5:-1].strip(), False
    return text, True


def mentions(atom: str, obj: str) -> bool:
    return obj in split_canonical(atom)[1]
