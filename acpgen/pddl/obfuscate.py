"""Obfuscated PDDL: a domain and its problems rewritten with names that mean nothing.

PlanBench's *Mystery* Blocksworld renames predicates and actions with unrelated English words, its
*Randomized Mystery* with random strings, so that a model cannot answer from what the names say.
:func:`mystery` gives a domain its one fixed mapping to words (the problem's objects keep their
names), :func:`randomized` a seeded mapping to random strings (the problem's objects become ``o0``,
``o1``, ... in shuffled order). :func:`apply` rewrites a domain or problem text with a
:class:`Renaming`, whose methods translate ground atoms and actions in canonical text both ways.

Names are rewritten by their place in the PDDL syntax, not by text replacement: a name that is both an
action and a predicate (floortile's ``up``) gets one new name for each. Predicates (derived ones
included), actions, types and objects (constants included) are renamed; the domain and problem get
neutral names; ``object``, numeric function names (``total-cost``), numbers and keywords stay.
Variables become ``?x1``, ``?x2``, ... in the order they occur, anew in each action, derived rule,
predicate declaration and goal: this follows from the text alone, so a Renaming does not store it.
Comments are removed and everything is written in lower case.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import re
import string
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from acpgen.data import DATA_DIR
from acpgen.errors import DataError
from acpgen.pddl.model import canonical, without_comments

MODES = ("mystery", "random")
#: the name tables of a Renaming, in the order of its fields and of its JSON form
TABLES = ("predicates", "actions", "types", "objects")

# Words PDDL reserves or gives a meaning: never a new name (and never renamed where they are keywords).
_RESERVED = frozenset(
    "define domain problem and or not imply forall exists when either object number preference at over "
    "start end all always sometime within at-most-once sometime-after sometime-before always-within "
    "hold-during hold-after increase decrease assign scale-up scale-down minimize maximize total-time "
    "total-cost is-violated integer real natural boolean".split()
)
_CONNECTIVES = frozenset(("and", "or", "not", "imply", "when"))
_QUANTIFIERS = frozenset(("forall", "exists"))
_NUMERIC = frozenset(("increase", "decrease", "assign", "scale-up", "scale-down", "<", ">", "<=", ">="))
_ARITHMETIC = frozenset(("+", "-", "*", "/"))
_NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")  # a new name
_OLD_NAME = re.compile(r"[^\s();?A-Z][^\s();A-Z]*\Z")  # an original name: a lower-case PDDL token
_TOKEN = re.compile(r"\(|\)|[^\s()]+")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?\Z")
_RANDOM_LENGTH = 6  # letters of a randomized name
_ROLE_TABLE = {"predicate": "predicates", "action": "actions", "type": "types", "object": "objects"}

Sexp = int | list["Sexp"]  # a token (its position in the token list) or a parenthesised list (a _List)


@dataclass(frozen=True)
class Renaming:
    """One consistent renaming of a domain's names (and, in ``random`` mode, of one problem's objects).

    Each table maps an original name to its new name, both lower case. ``objects`` holds the domain's
    constants and, in ``random`` mode, the problem's objects; in ``mystery`` mode an object outside it
    keeps its name. ``domain`` and ``problem`` are the names the rewritten texts declare.
    """

    mode: str  # "mystery" or "random"
    domain: str
    problem: str
    predicates: dict[str, str]
    actions: dict[str, str]
    types: dict[str, str]
    objects: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise DataError(f"renaming mode {self.mode!r}: expected one of {', '.join(MODES)}")
        seen: dict[str, str] = {}
        for table in TABLES:
            object.__setattr__(self, table, dict(getattr(self, table)))  # its own copy: the caller's may change
            for old, new in getattr(self, table).items():
                if not _OLD_NAME.match(old) or not _NAME.match(new) or new in _RESERVED:
                    raise DataError(f"renaming {table}: {old!r} -> {new!r} is not a lower-case PDDL name")
                if new in seen:
                    raise DataError(f"renaming: {new!r} is the new name of both {seen[new]} and {table[:-1]} {old!r}")
                seen[new] = f"{table[:-1]} {old!r}"
        for name in (self.domain, self.problem):
            if not _NAME.match(name):
                raise DataError(f"renaming: {name!r} is not a lower-case PDDL name")

    # ----- ground atoms and actions in canonical text ---------------------------------------
    def atom(self, text: str) -> str:
        """The renamed ground atom of ``(predicate arg ...)`` (DataError for a predicate not renamed)."""
        return self._ground(text, "predicates", back=False)

    def action(self, text: str) -> str:
        """The renamed ground action of ``(action arg ...)`` (DataError for an action not renamed)."""
        return self._ground(text, "actions", back=False)

    def original_atom(self, text: str) -> str:
        """The original ground atom of a renamed one: ``original_atom(atom(x)) == x``."""
        return self._ground(text, "predicates", back=True)

    def original_action(self, text: str) -> str:
        """The original ground action of a renamed one: ``original_action(action(x)) == x``."""
        return self._ground(text, "actions", back=True)

    def rename_atoms(self, texts: Iterable[str]) -> list[str]:
        """:meth:`atom` of each text, in order."""
        return [self.atom(t) for t in texts]

    def rename_actions(self, texts: Iterable[str]) -> list[str]:
        """:meth:`action` of each text, in order (a plan becomes the renamed task's plan)."""
        return [self.action(t) for t in texts]

    def original_atoms(self, texts: Iterable[str]) -> list[str]:
        """:meth:`original_atom` of each text, in order."""
        return [self.original_atom(t) for t in texts]

    def original_actions(self, texts: Iterable[str]) -> list[str]:
        """:meth:`original_action` of each text, in order."""
        return [self.original_action(t) for t in texts]

    @cached_property
    def _inverse(self) -> dict[str, dict[str, str]]:
        return {table: {new: old for old, new in getattr(self, table).items()} for table in TABLES}

    def _table(self, table: str, back: bool) -> dict[str, str]:
        forward: dict[str, str] = getattr(self, table)
        return self._inverse[table] if back else forward

    def _ground(self, text: str, table: str, back: bool) -> str:
        """Canonical text with its head looked up in ``table`` and its arguments as objects."""
        inner = text.strip().lower()
        parts = inner[1:-1].split()
        if not (inner.startswith("(") and inner.endswith(")")) or not parts or "(" in inner[1:-1] or ")" in inner[1:-1]:
            raise DataError(f"{text!r} is not a ground atom or action in canonical text '(name arg ...)'")
        head = self._table(table, back).get(parts[0])
        if head is None:
            side = "renamed" if back else "original"
            raise DataError(f"{text!r}: {parts[0]!r} is no {table[:-1]} name of the {side} domain")
        return canonical(head, [self._argument(a, back) for a in parts[1:]])

    def _argument(self, name: str, back: bool) -> str:
        """An object's name on the other side. In mystery mode an object the renaming does not hold keeps
        its name, unless the name is one of the other side's (then it is unknown here, as in random mode)."""
        objects, other = self._table("objects", back), self._table("objects", not back)
        if name in objects:
            return objects[name]
        if self.mode == "mystery" and name not in other:
            return name
        raise DataError(f"{name!r} is no object of the {'renamed' if back else 'original'} task")

    # ----- JSON ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The renaming as JSON-ready data (tables sorted by original name); :meth:`from_dict` reads it."""
        data: dict[str, Any] = {"mode": self.mode, "domain": self.domain, "problem": self.problem}
        data.update({table: dict(sorted(getattr(self, table).items())) for table in TABLES})
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Renaming:
        """The renaming of :meth:`to_dict`'s data; DataError naming the first malformed entry."""
        if not isinstance(data, Mapping):
            raise DataError(f"a renaming must be a JSON object, got {type(data).__name__}")
        for key in ("mode", "domain", "problem"):
            if not isinstance(data.get(key), str):
                raise DataError(f"renaming: {key!r} must be a string, got {data.get(key)!r}")
        tables = {}
        for table in TABLES:
            value = data.get(table, {})
            if not isinstance(value, Mapping) or not all(isinstance(x, str) for x in (*value, *value.values())):
                raise DataError(f"renaming: {table!r} must map names to names, got {value!r}")
            tables[table] = dict(value)
        return cls(data["mode"], data["domain"], data["problem"], **tables)


# ----- reading PDDL text --------------------------------------------------------------------------
class _List(list[Sexp]):
    """A parenthesised list of the text, with the offsets of its ``(`` and after its ``)``."""

    def __init__(self, start: int):
        super().__init__()
        self.start = start
        self.end = start


@dataclass(frozen=True)
class _Parsed:
    """A PDDL text without comments, its tokens (lower case) with their spans, and its S-expression."""

    source: str
    tokens: list[str]
    spans: list[tuple[int, int]]
    root: list[Sexp]

    def line(self, offset: int) -> int:
        return self.source.count("\n", 0, offset) + 1

    def start(self, node: Sexp) -> int:
        """Offset of a token or of a list's ``(``."""
        if isinstance(node, int):
            return self.spans[node][0]
        assert isinstance(node, _List)
        return node.start

    def end(self, node: Sexp) -> int:
        """Offset after a token or a list's ``)``."""
        if isinstance(node, int):
            return self.spans[node][1]
        assert isinstance(node, _List)
        return node.end

    def where(self, node: Sexp) -> str:
        first = node
        while isinstance(first, list):
            if not first:
                return "an empty list"
            first = first[0]
        return f"{self.tokens[first]!r} at line {self.line(self.spans[first][0])}"


def _parse(pddl_text: str) -> _Parsed:
    """The single ``(define ...)`` expression of a text; DataError for unbalanced parentheses."""
    source = without_comments(pddl_text)
    tokens: list[str] = []
    spans: list[tuple[int, int]] = []
    stack: list[list[Sexp]] = [[]]
    for match in _TOKEN.finditer(source):
        token = match.group()
        if token == "(":
            stack.append(_List(match.start()))
        elif token == ")":
            if len(stack) == 1:
                line = source.count("\n", 0, match.start()) + 1
                raise DataError(f"unbalanced parentheses: the ')' at line {line} closes nothing")
            done = stack.pop()
            assert isinstance(done, _List)
            done.end = match.end()
            stack[-1].append(done)
        else:
            stack[-1].append(len(tokens))
            tokens.append(token.lower())
            spans.append(match.span())
    if len(stack) > 1:
        unclosed = stack[-1]
        assert isinstance(unclosed, _List)
        line = source.count("\n", 0, unclosed.start) + 1
        raise DataError(f"unbalanced parentheses: the '(' at line {line} is never closed ({len(stack) - 1} open)")
    top = stack[0]
    if len(top) != 1 or not isinstance(top[0], list):
        raise DataError(f"expected one '(define ...)' expression, found {len(top)} top-level items")
    return _Parsed(source, tokens, spans, top[0])


class _Walker:
    """Visits the names of a parsed domain or problem by their role in the syntax.

    Roles: ``domain`` and ``problem`` (declared names; ``domain`` also in a problem's ``(:domain X)``),
    ``type``, ``object`` (constants, objects, ground arguments), ``predicate``, ``action``; variables
    separately, with :meth:`scope` called where a new numbering starts. Subclasses act on them.
    """

    def __init__(self, parsed: _Parsed):
        self.parsed = parsed
        self.kind = ""  # "domain" or "problem", set by walk()
        self._sections: dict[str, Callable[[list[Sexp]], None]] = {
            ":requirements": lambda items: None,
            ":types": lambda items: self._typed(items, "type"),
            ":constants": lambda items: self._typed(items, "object"),
            ":objects": lambda items: self._typed(items, "object"),
            ":predicates": self._predicates,
            ":functions": self._functions,
            ":action": self._action,
            ":derived": self._derived,
            ":domain": self._domain,
            ":init": self._init,
            ":goal": self._goal,
            ":constraints": self._goal,
            ":metric": self._metric,
        }

    def name(self, role: str, index: int) -> None:
        """A name token of ``role`` at ``index`` of the token list."""

    def variable(self, index: int) -> None:
        """A variable token (``?x``) at ``index``."""

    def scope(self) -> None:
        """A new variable scope starts (an action, a derived rule, a predicate declaration, a goal)."""

    def done(self, section: list[Sexp]) -> None:
        """A section (``(:init ...)``, ...) has been visited."""

    def token(self, node: Sexp) -> str:
        return self.parsed.tokens[node] if isinstance(node, int) else ""

    def walk(self) -> None:
        root = self.parsed.root
        header = root[1] if len(root) > 1 else []
        if self.token(root[0] if root else []) != "define" or not isinstance(header, list) or len(header) != 2:
            raise DataError("expected '(define (domain NAME) ...)' or '(define (problem NAME) ...)' at the start")
        self.kind = self.token(header[0])
        if self.kind not in ("domain", "problem"):
            raise DataError(f"expected (domain NAME) or (problem NAME) after define, found {self.parsed.where(header)}")
        self.name(self.kind, self._leaf(header[1]))
        for section in root[2:]:
            handler = self._sections.get(self._head(section))
            if handler is None:
                raise DataError(f"unsupported PDDL section {self.parsed.where(section)}")
            assert isinstance(section, list)
            handler(section[1:])
            self.done(section)

    # ----- structure ---------------------------------------------------------------------------
    def _leaf(self, node: Sexp) -> int:
        if not isinstance(node, int):
            raise DataError(f"expected a name, found a list: {self.parsed.where(node)}")
        return node

    def _head(self, node: Sexp) -> str:
        if not isinstance(node, list) or not node or not isinstance(node[0], int):
            raise DataError(f"expected a list starting with a name, found {self.parsed.where(node)}")
        return self.parsed.tokens[node[0]]

    def _typed_groups(self, items: list[Sexp]) -> list[tuple[list[int], Sexp | None]]:
        """A typed list ``a b - t c`` as its groups of names with their type: [([a, b], t), ([c], None)]."""
        groups: list[tuple[list[int], Sexp | None]] = []
        names: list[int] = []
        k = 0
        while k < len(items):
            if self.token(items[k]) == "-":
                if k + 1 >= len(items):
                    raise DataError(f"a '-' without a type after it: {self.parsed.where(items[k])}")
                groups.append((names, items[k + 1]))
                names = []
                k += 2
            else:
                names.append(self._leaf(items[k]))
                k += 1
        return groups + [(names, None)] if names else groups

    def _typed(self, items: list[Sexp], role: str) -> None:
        """A typed list ``a b - t c - (either u v)``: names of ``role`` (or variables) and their types."""
        for names, type_node in self._typed_groups(items):
            for index in names:
                if role == "variable":
                    self.variable(index)
                else:
                    self.name(role, index)
            if type_node is not None:
                self._type(type_node)

    def _type(self, node: Sexp) -> None:
        if isinstance(node, list):
            if self._head(node) != "either":
                raise DataError(f"expected a type or (either ...), found {self.parsed.where(node)}")
            for item in node[1:]:
                self._type(item)
        elif self.parsed.tokens[node] not in ("object", "number"):
            self.name("type", node)

    # ----- sections ----------------------------------------------------------------------------
    def _predicates(self, items: list[Sexp]) -> None:
        for item in items:
            self._head(item)
            assert isinstance(item, list)
            self.scope()
            self.name("predicate", self._leaf(item[0]))
            self._typed(item[1:], "variable")

    def _functions(self, items: list[Sexp]) -> None:
        """Function declarations keep their names (``total-cost``); their variables and types are renamed."""
        for k, item in enumerate(items):
            if isinstance(item, list):
                self._head(item)
                self.scope()
                self._typed(item[1:], "variable")
            elif self.token(item) == "-" and k + 1 < len(items):
                self._type(items[k + 1])

    def _domain(self, items: list[Sexp]) -> None:
        if len(items) != 1:
            raise DataError(f"expected (:domain NAME), found {len(items)} items after :domain")
        self.name("domain", self._leaf(items[0]))

    def _init(self, items: list[Sexp]) -> None:
        for item in items:
            self._formula(item)

    def _metric(self, items: list[Sexp]) -> None:
        for item in items[1:]:  # after minimize / maximize
            self._expression(item)

    def _action(self, items: list[Sexp]) -> None:
        if not items:
            raise DataError("an action without a name")
        self.scope()
        self.name("action", self._leaf(items[0]))
        for k in range(1, len(items), 2):
            key = self.token(items[k])
            value = items[k + 1] if k + 1 < len(items) else None
            if key not in (":parameters", ":precondition", ":effect") or value is None:
                raise DataError(f"unsupported action part {self.parsed.where(items[k])} (or a key without value)")
            if key == ":parameters":
                if not isinstance(value, list):
                    raise DataError(f"expected a parameter list, found {self.parsed.where(value)}")
                self._typed(value, "variable")
            else:
                self._formula(value)

    def _derived(self, items: list[Sexp]) -> None:
        if len(items) != 2:
            raise DataError(f"expected (:derived (predicate ?x ...) formula), found {len(items)} parts")
        head = items[0]
        self._head(head)
        assert isinstance(head, list)
        self.scope()
        self.name("predicate", self._leaf(head[0]))
        self._typed(head[1:], "variable")
        self._formula(items[1])

    def _goal(self, items: list[Sexp]) -> None:
        self.scope()
        for item in items:
            self._formula(item)

    # ----- formulas and terms ------------------------------------------------------------------
    def _formula(self, node: Sexp) -> None:
        """A goal description, effect or initial literal."""
        if isinstance(node, list) and not node:
            return  # () as an empty precondition
        head = self._head(node)
        assert isinstance(node, list)
        if head in _CONNECTIVES:
            for item in node[1:]:
                self._formula(item)
        elif head in _QUANTIFIERS:
            if len(node) != 3 or not isinstance(node[1], list):
                raise DataError(f"expected ({head} (?x - type ...) formula), found {self.parsed.where(node)}")
            self._typed(node[1], "variable")
            self._formula(node[2])
        elif head == "=" and all(isinstance(item, int) for item in node[1:]):
            for item in node[1:]:
                self._term(item)
        elif head == "=" or head in _NUMERIC:
            for item in node[1:]:
                self._expression(item)
        else:
            self.name("predicate", self._leaf(node[0]))
            for item in node[1:]:
                self._term(item)

    def _term(self, node: Sexp) -> None:
        if isinstance(node, list):
            self._expression(node)
        elif self.parsed.tokens[node].startswith("?"):
            self.variable(node)
        else:
            self.name("object", node)

    def _expression(self, node: Sexp) -> None:
        """A numeric expression: numbers and ``total-time`` stay, a function keeps its name."""
        if isinstance(node, int):
            token = self.parsed.tokens[node]
            if not _NUMBER.match(token) and token != "total-time":
                self._term(node)
            return
        head = self._head(node)
        for item in node[1:]:
            if head in _ARITHMETIC:
                self._expression(item)
            else:
                self._term(item)


class _Names(_Walker):
    """The names of a text by role."""

    def __init__(self, parsed: _Parsed):
        super().__init__(parsed)
        self.found: dict[str, set[str]] = {role: set() for role in ("domain", "problem", *_ROLE_TABLE)}

    def name(self, role: str, index: int) -> None:
        self.found[role].add(self.parsed.tokens[index])


class _Rewriter(_Walker):
    """The text with every name replaced by the renaming's and variables numbered per scope."""

    def __init__(self, parsed: _Parsed, renaming: Renaming):
        super().__init__(parsed)
        self.renaming = renaming
        self.new: dict[int, str] = {}
        self._variables: dict[str, str] = {}
        self._new_names = {n for table in TABLES for n in getattr(renaming, table).values()}
        self._sorted: list[tuple[int, int, str]] = []  # (start, end, text) of sections written sorted

    def scope(self) -> None:
        self._variables = {}

    def variable(self, index: int) -> None:
        token = self.parsed.tokens[index]
        self.new[index] = self._variables.setdefault(token, f"?x{len(self._variables) + 1}")

    def name(self, role: str, index: int) -> None:
        token = self.parsed.tokens[index]
        if role in ("domain", "problem"):
            self.new[index] = getattr(self.renaming, role)
            return
        table: dict[str, str] = getattr(self.renaming, _ROLE_TABLE[role])
        if token in table:
            self.new[index] = table[token]
        elif role != "object" or self.renaming.mode != "mystery":
            raise DataError(f"the renaming has no new name for the {role} {self.parsed.where(index)}")
        elif token in self._new_names:
            raise DataError(
                f"the object {self.parsed.where(index)} has the name the mystery renaming gives to another "
                "name of the domain: the renamed text would be ambiguous"
            )

    def done(self, section: list[Sexp]) -> None:
        """Sections whose order means nothing are written sorted by their new text (in the original order
        they would show the order of the original names): the initial atoms on one line, objects and
        constants by type, then by name (``o2`` before ``o10``)."""
        keyword, items = self.token(section[0]), section[1:]
        if not items or keyword not in (":init", ":objects", ":constants"):
            return
        if keyword == ":init":
            text = " ".join(sorted((self._render(item) for item in items), key=_natural))
        else:
            groups: dict[str, list[str]] = {}
            for names, type_node in self._typed_groups(items):
                type_text = "" if type_node is None else " - " + self._render(type_node)
                groups.setdefault(type_text, []).extend(self._render(name) for name in names)
            text = " ".join(" ".join(sorted(names, key=_natural)) + t for t, names in sorted(groups.items()))
        self._sorted.append((self.parsed.start(items[0]), self.parsed.end(items[-1]), text))

    def _render(self, node: Sexp) -> str:
        if isinstance(node, int):
            return self.new.get(node, self.parsed.tokens[node])
        return "(" + " ".join(self._render(item) for item in node) + ")"

    def text(self) -> str:
        """The source with the new tokens and sorted sections, in lower case, without empty lines."""
        edits = [(start, end, self._render(k)) for k, (start, end) in enumerate(self.parsed.spans)]
        pieces = []
        last = 0
        # a sorted section before the tokens it replaces (they start where it starts, or later)
        for start, end, text in sorted(self._sorted + edits, key=lambda edit: (edit[0], -edit[1])):
            if start >= last:
                pieces += [self.parsed.source[last:start], text]
                last = end
        pieces.append(self.parsed.source[last:])
        lines = (line.rstrip() for line in "".join(pieces).splitlines())
        return "\n".join(line for line in lines if line) + "\n"


def _natural(name: str) -> str:
    """Sort key of names with numbers by their value: ``o2`` before ``o10``."""
    return re.sub(r"[0-9]+", lambda digits: digits.group().zfill(12), name)


def _names(pddl_text: str, kind: str) -> tuple[dict[str, set[str]], set[str]]:
    """The names of a domain (``kind="domain"``) or problem text by role, and all its tokens; DataError
    for a text of the other kind."""
    walker = _Names(_parse(pddl_text))
    walker.walk()
    if walker.kind != kind:
        raise DataError(f"expected a PDDL {kind}, got a {walker.kind}")
    return walker.found, set(walker.parsed.tokens)


def _digest(names: Mapping[str, Iterable[str]]) -> str:
    """A stable digest of name sets (the same in every process: no use of ``hash``)."""
    return hashlib.sha256(json.dumps({k: sorted(v) for k, v in names.items()}, sort_keys=True).encode()).hexdigest()


# ----- the two renamings --------------------------------------------------------------------------
@cache
def mystery_words() -> tuple[str, ...]:
    """The words of :func:`mystery` (``acpgen/data/mystery_words.txt``; ``#`` lines are comments)."""
    lines = (DATA_DIR / "mystery_words.txt").read_text().splitlines()
    return tuple(w for w in (line.strip().lower() for line in lines) if w and not w.startswith("#"))


def _domain_tables(names: dict[str, set[str]], fresh: Iterator[str]) -> dict[str, dict[str, str]]:
    """A new name from ``fresh`` for every predicate, action, type and constant, in sorted order."""
    return {table: {old: next(fresh) for old in sorted(names[role])} for role, table in _ROLE_TABLE.items()}


def mystery(domain_text: str) -> Renaming:
    """The domain's mystery renaming: predicates, actions, types and constants become English words.

    The mapping is fixed by the domain's name and its set of names (a digest of them shuffles the
    word list), so every problem of the domain, in every process, gets the same one. Words that are
    names of the domain are not used; past the word list's end the words return with a number
    (``plum2``). Objects of problems keep their names.
    """
    names, tokens = _names(domain_text, "domain")
    digest = _digest(names)
    words = [w for w in mystery_words() if w not in tokens and w not in _RESERVED]
    random.Random(int(digest, 16)).shuffle(words)

    def fresh() -> Iterator[str]:
        yield from words
        for n in itertools.count(2):
            yield from (f"{w}{n}" for w in words)

    domain = f"mystery-{int(digest[:8], 16) % 10_000}"
    return Renaming("mystery", domain, f"{domain}-problem", **_domain_tables(names, fresh()))


def randomized(domain_text: str, problem_text: str, seed: int) -> Renaming:
    """A seeded random renaming: predicates, actions, types, constants and the domain and problem names
    become random strings of six letters; the problem's objects become ``o0``, ``o1``, ... in a seeded
    shuffled order (their new names show nothing of the old ones, nor of their order).

    The domain's new names depend only on ``seed`` and the domain (problems of one domain renamed with
    one seed share them); the objects' numbering also on the problem's objects.
    """
    domain_names, taken = _names(domain_text, "domain")
    problem_names, _ = _names(problem_text, "problem")
    domain_digest = _digest(domain_names)
    rng = random.Random(f"{seed}:{domain_digest}")  # a str seed is hashed with SHA-512: stable everywhere
    taken |= _RESERVED

    def fresh() -> Iterator[str]:
        while True:
            name = "".join(rng.choice(string.ascii_lowercase) for _ in range(_RANDOM_LENGTH))
            if name not in taken:
                taken.add(name)
                yield name

    names = fresh()
    tables = _domain_tables(domain_names, names)
    domain = next(names)
    objects = sorted(problem_names["object"] - domain_names["object"])
    random.Random(f"{seed}:{domain_digest}:{_digest({'objects': objects})}").shuffle(objects)
    tables["objects"].update((name, f"o{k}") for k, name in enumerate(objects))
    return Renaming("random", domain, next(names), **tables)


def apply(renaming: Renaming, pddl_text: str) -> str:
    """A domain or problem text rewritten with ``renaming`` (see the module's description).

    DataError when the text cannot be read (unbalanced parentheses, a section outside the supported
    PDDL), names a predicate, action, type or (random mode) object the renaming does not hold, or (mystery
    mode) has an object whose kept name is a new name of the renaming.
    """
    rewriter = _Rewriter(_parse(pddl_text), renaming)
    rewriter.walk()
    return rewriter.text()
