"""Literals as text: an atom ``(clear b1)`` or its negation ``(not (clear b1))``, and the objects they name."""

from __future__ import annotations

from acpgen.pddl.model import split_canonical


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
