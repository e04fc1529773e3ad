"""A fast reader for the common shape of PDDL problem files, checked against the parsed domain.

tarski's ANTLR parser spends about 0.1 s on a domain and a problem; the benchmarks hold thousands of
problems over a dozen domains, each problem a list of objects, an :init of ground atoms and a
conjunctive goal of ground literals. :func:`read_problem` reads exactly that shape with a plain
S-expression reader and returns None for anything else -- other sections or formulas, an undeclared
type, predicate or object, a wrong arity, an argument of the wrong type, a repeated object -- so that
the caller falls back to tarski, which reads (or refuses, with its message) everything. For the
problems it accepts, the result is the one tarski's reading gives (``tests/pddl/test_problem_reader.py``
compares both on the problems of every domain and on the reference records).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from acpgen.pddl.model import LiftedTask, Literal, without_comments

_TOKEN = re.compile(r"\(|\)|[^\s()]+")

Sexp = str | list["Sexp"]
Atom = tuple[str, tuple[str, ...]]  # (predicate, arguments)


@dataclass(frozen=True)
class ProblemPart:
    """What a problem file adds to its domain."""

    name: str
    domain_name: str
    objects: dict[str, str]  # object -> type (the domain's constants not included)
    init: frozenset[tuple[str, tuple[str, ...]]]
    goal: tuple[Literal, ...]


def _parse(text: str) -> Sexp | None:
    """The single S-expression of ``text`` (tokens as written), or None when unbalanced or not alone."""
    stack: list[list[Sexp]] = [[]]
    for token in _TOKEN.findall(without_comments(text)):
        if token == "(":
            stack.append([])
        elif token == ")":
            if len(stack) == 1:
                return None
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token)
    if len(stack) != 1 or len(stack[0]) != 1:
        return None
    return stack[0][0]


def _typed_names(items: list[Sexp]) -> list[tuple[str, str]] | None:
    """``a b - t c`` as [(a, t), (b, t), (c, "object")]; None for ``either`` or other lists."""
    names: list[tuple[str, str]] = []
    pending: list[str] = []
    k = 0
    while k < len(items):
        item = items[k]
        if not isinstance(item, str):
            return None
        if item == "-":
            if k + 1 >= len(items) or not isinstance(items[k + 1], str) or not pending:
                return None
            type_name = items[k + 1]
            assert isinstance(type_name, str)
            names += [(n.lower(), type_name.lower()) for n in pending]
            pending = []
            k += 2
            continue
        pending.append(item)
        k += 1
    return names + [(n.lower(), "object") for n in pending]


def _atom(item: Sexp, domain: LiftedTask, objects: dict[str, str]) -> tuple[str, tuple[str, ...]] | None:
    """A ground atom of a declared predicate over declared objects of fitting types, or None."""
    if not isinstance(item, list) or not item or not all(isinstance(x, str) for x in item):
        return None
    predicate, args = str(item[0]).lower(), tuple(str(x).lower() for x in item[1:])
    types = domain.predicates.get(predicate)
    if types is None or len(types) != len(args) or predicate == "=":
        return None
    for arg, wanted in zip(args, types):
        declared = objects.get(arg)
        if declared is None or wanted not in domain.supertypes.get(declared, (declared,)):
            return None
    return predicate, args


def _goal(item: Sexp, domain: LiftedTask, objects: dict[str, str], out: list[Literal]) -> bool:
    """Append the literals of a conjunction (nested ``and`` allowed) in order; False for anything else."""
    if isinstance(item, list) and item and item[0] == "and":
        return all(_goal(sub, domain, objects, out) for sub in item[1:])
    positive = True
    if isinstance(item, list) and len(item) == 2 and item[0] == "not":
        positive, item = False, item[1]
    atom = _atom(item, domain, objects)
    if atom is None:
        return False
    out.append(Literal(atom[0], atom[1], positive))
    return True


def _objects(items: list[Sexp], domain: LiftedTask, objects: dict[str, str], declared: dict[str, str]) -> bool:
    """Add the typed names of an ``:objects`` section to ``objects`` and ``declared``; False where the
    section is not of the simple shape (a repeated object or an undeclared type: tarski decides)."""
    typed = _typed_names(items)
    if typed is None:
        return False
    for obj, type_name in typed:
        if obj in objects or type_name not in domain.supertypes:
            return False
        objects[obj] = declared[obj] = type_name
    return True


def _init(items: list[Sexp], domain: LiftedTask, objects: dict[str, str], init: set[Atom]) -> bool:
    """Add the atoms of an ``:init`` section to ``init`` (the action-costs initialisation is ignored with
    the costs); False at the first item that is not an atom over the domain and the objects."""
    for item in items:
        if isinstance(item, list) and len(item) == 3 and item[0] == "=" and item[1] == ["total-cost"]:
            continue
        atom = _atom(item, domain, objects)
        if atom is None:
            return False
        init.add(atom)
    return True


def read_problem(text: str, domain: LiftedTask) -> ProblemPart | None:
    """The problem of ``text`` over ``domain`` (a domain parsed with no objects of its own problem),
    or None when the text is not of the simple shape this reader accepts. Keywords must be written in
    lower case (tarski's grammar takes some keywords in any case and others not: an upper-case keyword
    is left to tarski); names are read in any case, as tarski does."""
    tree = _parse(text)
    if not isinstance(tree, list) or len(tree) < 3 or tree[0] != "define":
        return None
    head, *sections = tree[1:]
    if not (isinstance(head, list) and len(head) == 2 and head[0] == "problem" and isinstance(head[1], str)):
        return None
    name, domain_name = head[1].lower(), None
    objects: dict[str, str] = {c: domain.objects[c] for c in domain.constants}
    declared: dict[str, str] = {}
    init: set[tuple[str, tuple[str, ...]]] = set()
    goal: list[Literal] | None = None
    seen: set[str] = set()
    for section in sections:
        if not isinstance(section, list) or not section or not isinstance(section[0], str) or section[0] in seen:
            return None
        key = section[0]
        seen.add(key)
        if key == ":domain" and len(section) == 2 and isinstance(section[1], str):
            domain_name = section[1].lower()
        elif key == ":requirements":
            continue
        elif key == ":objects":
            if not _objects(section[1:], domain, objects, declared):
                return None
        elif key == ":init" and ":goal" not in seen:
            if not _init(section[1:], domain, objects, init):
                return None
        elif key == ":goal" and len(section) == 2:
            goal = []
            if not _goal(section[1], domain, objects, goal):
                return None
        elif key == ":metric":
            continue
        else:
            return None
    if domain_name != domain.domain_name or goal is None or ":init" not in seen:
        return None
    return ProblemPart(name, domain_name, declared, frozenset(init), tuple(dict.fromkeys(goal)))
