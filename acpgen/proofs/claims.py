"""Claims: the small typed statements about a state that boolean and multiple-choice questions ask.

A task proves claims true or false about a sampled state (see :mod:`acpgen.tasks.choice`); a
boolean record stores one claim (``claim``), a multiple-choice record four (``options``). On the
wire a claim is a JSON object whose keys name its kind; :func:`claim_from_dict` reads it back
into its class and :meth:`Claim.to_dict` writes it, so that records keep the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from acpgen.errors import DataError


@dataclass(frozen=True)
class Claim:
    """Base of every claim. Fields left at None are not written."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None:
                out[f.name] = value
        return out

    def key(self) -> str:
        """A canonical text of the claim (two claims are the same option when their keys are equal)."""
        return repr(sorted(self.to_dict().items()))


@dataclass(frozen=True)
class ActionClaim(Claim):
    """app: the action is applicable; areach: the action can become applicable."""

    action: str


@dataclass(frozen=True)
class WrongActionClaim(Claim):
    """A text that reads as no action of the domain: the template's wrong action ``wrong`` with
    objects ``args`` (acp's records), or a reference text (``wrong`` -1, ``text``)."""

    wrong: int
    args: list[str] | None = None
    text: str | None = None


@dataclass(frozen=True)
class FactClaim(Claim):
    """land: the fact is a landmark; prog: the fact holds after the action (``case`` says which of
    the paper's four cases the generator drew it from: kept, added, deleted, absent)."""

    fact: str
    case: str | None = None


@dataclass(frozen=True)
class FactsClaim(Claim):
    """reach: the facts can hold together; prog (reference options): they hold after the action."""

    facts: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class VerdictClaim(Claim):
    """val (multiple choice): the sequence's verdict is this one (invalid, inapplicable, not_goal, plan)."""

    verdict: str


@dataclass(frozen=True)
class PropertyClaim(Claim):
    """val (boolean): the sequence has this property (valid, applicable, plan)."""

    property: str


@dataclass(frozen=True)
class RemovalClaim(Claim):
    """just: removing the plan steps at these positions leaves a plan."""

    remove: list[int]


@dataclass(frozen=True)
class AnyRemovalClaim(Claim):
    """just (reference questions name an action, not a position): removing it at each of these
    position lists leaves a plan — decided only when all positions agree."""

    remove_any: list[list[int]]


@dataclass(frozen=True)
class SequenceClaim(Claim):
    """Reasoning about actions (acpgen.tasks.sequences): after the record's action sequence, the claim
    ``about`` holds of ``value`` (a literal, a list of literals, an action or a number)."""

    about: str
    value: Any = None


@dataclass(frozen=True)
class PlanClaim(Claim):
    """pver: the sequence of ground actions ``steps`` is a plan for the state (each step applies after
    the ones before it, and the goal holds after the last)."""

    steps: list[str] = field(default_factory=list)


C = TypeVar("C", bound=Claim)

_KINDS: tuple[type[Claim], ...] = (
    ActionClaim,
    WrongActionClaim,
    FactClaim,
    FactsClaim,
    VerdictClaim,
    PropertyClaim,
    RemovalClaim,
    AnyRemovalClaim,
    SequenceClaim,
    PlanClaim,
)
# A claim's kind is told by its first field, which no other kind has.
_FIRST_FIELD = {fields(kind)[0].name: kind for kind in _KINDS}


def claim_from_dict(data: Any) -> Claim:
    """The claim a record stores; DataError when the object is no claim."""
    if isinstance(data, Claim):
        return data
    if not isinstance(data, dict):
        raise DataError(f"a claim must be a JSON object, not {data!r}")
    kinds = [kind for key, kind in _FIRST_FIELD.items() if key in data]
    names = {f.name for f in fields(kinds[0])} if len(kinds) == 1 else set()
    if len(kinds) != 1 or not set(data) <= names:
        raise DataError(f"not a claim: {data!r}")
    return kinds[0](**data)


def expect(claim: Claim, kind: type[C]) -> C:
    """The claim as ``kind``; DataError when a record gives a task a claim of another kind."""
    if not isinstance(claim, kind):
        raise DataError(f"expected a claim of kind {kind.__name__}, got {claim.to_dict()}")
    return claim
