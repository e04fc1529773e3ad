"""The ``patterns:`` section of a domain template: abstract descriptions of initial states and goals that a
user's domain declares without code (the text-to-PDDL task, ``acpgen.tasks.text_to_pddl``, turns each into
a pattern with the generators' building blocks; this layer only parses and checks them).

Two kinds, each one predicate over the objects of some types:

* ``same``: every object of the ``subjects`` types is ``(predicate s V)`` for one object V of the ``values``
  types, which the text names by the placeholder ``{key}`` ("every ball is in room {room}");
* ``each``: ``(predicate x)`` for every object x of the ``types`` or, with ``when: P``, for every x with
  ``(P x)`` in the initial state ("every hand is free"); the text names no object.

A ``goal`` pattern is the whole goal. An ``init`` pattern gives every fluent fact of the initial state, so
its predicate must be the domain's only fluent predicate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acpgen.errors import AcpError
from acpgen.pddl.model import LiftedTask

KINDS = {"same": ("subjects", "values", "key"), "each": ("types",)}
PARTS = ("init", "goal")
_COMMON = ("name", "part", "kind", "predicate", "text")
_OPTIONAL = {"same": (), "each": ("when",)}
_PLACEHOLDER = re.compile(r"\{(\w*)\}")
_README = "acpgen/data/templates/README.md (section 'patterns')"


class PatternDeclError(AcpError):
    """A ``patterns:`` entry of a template is malformed or does not fit the domain."""


@dataclass(frozen=True)
class PatternDecl:
    """One declared pattern, as data (it travels in records, so that validation needs no template)."""

    name: str
    part: str
    kind: str
    predicate: str
    text: str
    subjects: tuple[str, ...] = ()
    values: tuple[str, ...] = ()
    key: str = ""
    types: tuple[str, ...] = ()
    when: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The entry as a template writes it (the fields of its kind only)."""
        fields = (*_COMMON, *KINDS[self.kind], *_OPTIONAL[self.kind])
        out = {f: list(v) if isinstance(v := getattr(self, f), tuple) else v for f in fields}
        return {k: v for k, v in out.items() if v != ""}

    def check(self, where: str, lifted: LiftedTask) -> None:
        """PatternDeclError naming ``where`` unless the predicate, its arity and the types are the domain's."""
        if self.predicate not in lifted.predicates:
            raise PatternDeclError(
                f"{where}: predicate '{self.predicate}' is not in the domain {lifted.domain_name} "
                f"(its predicates: {', '.join(sorted(p for p in lifted.predicates if p != '='))})"
            )
        arity = len(lifted.predicates[self.predicate])
        wanted = 2 if self.kind == "same" else 1
        if arity != wanted:
            raise PatternDeclError(
                f"{where}: kind '{self.kind}' needs a predicate with {wanted} argument(s); "
                f"'{self.predicate}' has {arity}"
            )
        for type_name in (*self.subjects, *self.values, *self.types):
            if type_name not in lifted.supertypes and type_name != "object":
                raise PatternDeclError(
                    f"{where}: '{type_name}' is not a type of the domain "
                    f"(its types: {', '.join(sorted(lifted.supertypes))})"
                )
        if self.when and len(lifted.predicates.get(self.when, ())) != 1:
            raise PatternDeclError(f"{where}: 'when: {self.when}' must name a predicate of the domain with 1 argument")
        if self.part == "init":
            others = sorted(
                p for p in lifted.predicates if p not in lifted.static_predicates and p not in ("=", self.predicate)
            )
            if others or self.predicate in lifted.static_predicates:
                raise PatternDeclError(
                    f"{where}: an init pattern gives every fluent fact of the state, but the domain's fluent "
                    f"predicates other than '{self.predicate}' are {others or 'none'} (and '{self.predicate}' must "
                    "be fluent); declare it with 'part: goal' instead"
                )


def parse_patterns(path: Path, entries: Any) -> tuple[PatternDecl, ...]:
    """The ``patterns:`` list of the template at ``path``; PatternDeclError naming the entry and the fix."""
    if entries is None:
        return ()
    if not isinstance(entries, list):
        raise PatternDeclError(f"{path}: 'patterns' must be a list of entries (see {_README})")
    found: list[PatternDecl] = []
    for number, entry in enumerate(entries):
        decl = pattern_from(entry, f"{path}: patterns[{number}]")
        if any(d.name == decl.name and d.part == decl.part for d in found):
            raise PatternDeclError(f"{path}: patterns[{number}]: a {decl.part} pattern '{decl.name}' is declared twice")
        found.append(decl)
    return tuple(found)


def pattern_from(entry: Any, where: str) -> PatternDecl:
    """One entry (a template's, or a record's stored rule) as a declaration; PatternDeclError naming ``where``."""
    if not isinstance(entry, dict):
        raise PatternDeclError(f"{where}: expected a mapping with {', '.join(_COMMON)} (see {_README})")
    kind = entry.get("kind")
    if kind not in KINDS:
        raise PatternDeclError(f"{where}: unknown kind {kind!r}; use one of {', '.join(KINDS)}")
    fields = (*_COMMON, *KINDS[kind])
    missing = [f for f in fields if not entry.get(f)]
    if missing:
        raise PatternDeclError(f"{where}: kind '{kind}' needs {', '.join(missing)} (see {_README})")
    unknown = sorted(set(entry) - set(fields) - set(_OPTIONAL[kind]))
    if unknown:
        raise PatternDeclError(f"{where}: unknown key(s) {unknown} for kind '{kind}'; its keys: {', '.join(fields)}")
    if entry["part"] not in PARTS:
        raise PatternDeclError(f"{where}: unknown part {entry['part']!r}; use 'init' or 'goal'")
    decl = PatternDecl(
        name=str(entry["name"]),
        part=str(entry["part"]),
        kind=str(kind),
        predicate=str(entry["predicate"]).lower(),
        text=" ".join(str(entry["text"]).split()),
        subjects=_types(entry.get("subjects"), where, "subjects"),
        values=_types(entry.get("values"), where, "values"),
        key=str(entry.get("key") or ""),
        types=_types(entry.get("types"), where, "types"),
        when=str(entry.get("when") or "").lower(),
    )
    used = set(_PLACEHOLDER.findall(decl.text))
    expected = {decl.key} if decl.key else set()
    if used != expected:
        fix = f"write '{{{decl.key}}}' for the value, and no other placeholder" if decl.key else "name no object"
        raise PatternDeclError(
            f"{where}: the text uses placeholder(s) {sorted(used)}; the text of a pattern of kind '{kind}' must {fix}"
        )
    return decl


def _types(value: Any, where: str, field: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PatternDeclError(f"{where}: '{field}' must be a list of type names")
    return tuple(v.lower() for v in value)
