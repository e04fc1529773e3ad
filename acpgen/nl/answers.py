"""Turn a model's free-text answer to an ACPBench-Hard (gen) question into a structured answer.

One public function per answer shape; the scorer matches the result against the grounded task
and reports status ``parse_error`` on ``ParseError``. ``_prepare`` pre-normalises the text with
a few regular expressions; the LALR grammar ``answers.lark`` turns it into candidates (actions,
None markers, numbers, prog labels, bracketed lists); the functions pick the answer from them.

Design choices (deliberate differences from the reference parser, the answer grammar of the ACPBench-Hard
tasks in lm-evaluation-harness):

* Section: the text after the last ``</think>``; then after the LAST "final answer" marker
  (``Final Answer:``, ``final answer is``, ``\\boxed{``) followed by content, or, without one,
  after the last ``Answer:``/``answer is``; if no marker is followed by content ("(a b) is my
  final answer.") the text before the first one. just: then after the last plan heading
  (``Simplified plan:``, ``resulting plan is``). Code fences, backticks, ``*`` are removed and
  ``\\_`` becomes ``_``; bullets, ``#``, quotes and other punctuation are junk to the grammar.
* Actions/atoms: ``( NAME NAME* )``, NAME = letter then letters/digits/``-``/``_``; ``?`` before
  a name, commas between names, blanks before ``)`` and newlines are tolerated, ``sail(l0, l1)``
  too. Output: ``(name arg ...)``, lower case, single spaces. ``(not (a b))`` counts as
  ``(a b)`` in prog lists and is ignored elsewhere.
* Prose parentheses: a group with anything but names (``(i.e., it is empty)``) is never an
  action. A names-only group is prose, and dropped, if its first word is a common English word
  that is no PDDL name in the ACP domains (``(see above)``, ``(for example)``, ``(optional)``;
  ``_PROSE_WORDS``) or if any word is a function word (``(travel by sea from l0 to l1)``, the
  schema ``(sail ?from ?to)``; ``_FUNCTION_WORDS``). Other names-only groups are kept: nullary
  atoms (``(handempty)``) look the same and single letters are common object names; the scorer
  rejects names that are not in the grounded task.
* None: ``none``/``None``/``NONE`` (any punctuation), ``(None)``, ``[]``, ``[None]``. Parsers
  return Python ``None`` (or ``[]``); ``NONE`` is only the canonical *text*, e.g. for reports.
* Truncation: an action cut off by the end of the text (``(a b``, a final ``(``) is never
  completed (arguments may be missing). List answers (app, just, prog) then raise, as the list
  is known to be incomplete; single answers may use an earlier complete candidate.
* Single answers (reach, areach, land, nexta): the FIRST candidate in the selected section.
* val: see ``parse_index`` (index N > number/None > ordinal; -1 and None give ``None``).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import cast

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError

NONE = "None"
"""Canonical text of a "None" answer. Parsers return Python ``None`` (or ``[]``), not this."""

__all__ = [
    "NONE",
    "ParseError",
    "answer_section",
    "parse_action",
    "parse_action_list",
    "parse_action_or_none",
    "parse_atom_or_none",
    "parse_effects",
    "parse_index",
    "parse_plan",
]


class ParseError(ValueError):
    """No sensible answer can be extracted from a response; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --------------------------------------------------------------------------- pre-normalisation

_THINK_END = re.compile(r"</think>", re.IGNORECASE)
_FENCE = re.compile(r"```[a-z0-9_+-]*", re.IGNORECASE)
_MARKDOWN = re.compile(r"[`*]")
_FINAL_MARKER = re.compile(r"final\s+answers?(?:\s+(?:is|are|would\s+be|will\s+be)\b)?|\\boxed\s*\{", re.IGNORECASE)
_ANSWER_MARKER = re.compile(r"\banswers?\s*(?::|(?:is|are)\b)", re.IGNORECASE)
_PLAN_HEADING = re.compile(
    r"\b(?:simplified|resulting|new|shortened|reduced)\s+plan(?:\s+is\b|\s*:|[ \t]*$)", re.IGNORECASE | re.MULTILINE
)
# A section "has content" if anything an answer can consist of follows the marker.
_CONTENT = re.compile(r"[a-z0-9()\[\]]", re.IGNORECASE)


def _after_marker(text: str, marker: re.Pattern[str]) -> str:
    """Text after the last marker that is followed by content (see the module docstring)."""
    matches = list(marker.finditer(text))
    if not matches:
        return text
    for match in reversed(matches):
        tail = text[match.end() :]
        if _CONTENT.search(tail):
            return tail
    return text[: matches[0].start()]


def _after_reasoning(text: str) -> str:
    """The text after the last ``</think>``: reasoning models answer after their reasoning block."""
    if not isinstance(text, str):
        raise TypeError(f"response must be a string, not {type(text).__name__}")
    ends = [m.end() for m in _THINK_END.finditer(text)]
    return text[ends[-1] :] if ends else text


def _strip_markdown(text: str, unescape: bool = False) -> str:
    """Code fences become blanks, backticks and ``*`` are removed; ``unescape``: ``\\_`` becomes ``_`` too."""
    text = _FENCE.sub(" ", text)
    if unescape:
        text = text.replace("\\_", "_")
    return _MARKDOWN.sub("", text)


def _prepare(text: str, plan_heading: bool = False) -> str:
    """Strip reasoning and markdown, then select the answer section of a response."""
    text = _strip_markdown(_after_reasoning(text), unescape=True)
    marker = _FINAL_MARKER if _FINAL_MARKER.search(text) else _ANSWER_MARKER
    text = _after_marker(text, marker)
    if plan_heading:
        text = _after_marker(text, _PLAN_HEADING)
    return text.strip()


def answer_section(text: str) -> str:
    """The answer section of a response (reasoning, markdown and text before the final-answer marker
    removed), for readers of answers that the grammar does not cover (free English answers)."""
    return _prepare(text)


# --------------------------------------------------------------------------- grammar and tree


class _Mark(enum.Enum):
    NONE = "none"  # the word None (or "(None)")
    EMPTY = "empty"  # [] or [None]
    TRUNCATED = "truncated"  # an action cut off by the end of the text
    POS = "positive"  # prog label
    NEG = "negative"  # prog label


@dataclass(frozen=True)
class _Atom:
    text: str  # canonical "(name arg ...)"


@dataclass(frozen=True)
class _Group:
    """One [...] list, summarised bottom-up (no recursion later, whatever the nesting depth)."""

    atoms: tuple[str, ...]  # every atom inside, nested lists included, in order
    inner: tuple[tuple[str, ...], ...]  # atoms of each directly nested list ([[...], [...]])
    truncated: bool  # contains an action cut off by the end of the text


@dataclass(frozen=True)
class _Index:
    kind: str  # "index" ("index 4"), "number", "ordinal" (already converted to 0-based), "none"
    value: int | None


# First words that make a names-only parenthesised group prose. None of them is an action or
# predicate name in the ACP domains (those include at, on, in, up, down, free, full, empty, open).
_PROSE_WORDS = frozenset(
    [
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "so",
        "as",
        "for",
        "to",
        "of",
        "by",
        "with",
        "without",
        "from",
        "into",
        "than",
        "then",
        "that",
        "this",
        "these",
        "those",
        "it",
        "its",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "see",
        "also",
        "note",
        "ie",
        "eg",
        "etc",
        "example",
        "examples",
        "above",
        "below",
        "here",
        "there",
        "same",
        "which",
        "where",
        "when",
        "while",
        "because",
        "since",
        "assuming",
        "assume",
        "yes",
        "no",
        "not",
        "only",
        "optional",
        "applicable",
        "inapplicable",
        "valid",
        "invalid",
        "correct",
        "incorrect",
        "true",
        "false",
        "ok",
        "okay",
        "done",
        "action",
        "actions",
        "effect",
        "effects",
        "proposition",
        "propositions",
        "fact",
        "facts",
        "atom",
        "atoms",
        "step",
        "steps",
        "positive",
        "negative",
        "reachable",
        "unreachable",
    ]
)
# Words that make a names-only group prose in ANY position ("(travel by sea from l0 to l1)",
# the schema "(sail ?from ?to)"): function words that are no object names in the ACP domains.
_FUNCTION_WORDS = frozenset(
    [
        "the",
        "an",
        "of",
        "by",
        "from",
        "to",
        "with",
        "into",
        "onto",
        "is",
        "are",
        "was",
        "were",
        "be",
        "and",
        "or",
        "for",
        "that",
        "which",
    ]
)
_NAME = re.compile(r"\??([a-z][a-z0-9_-]*)", re.IGNORECASE)


def _names(token: str) -> list[str]:
    """The lower-cased names of an action-like token, in order, without "?"."""
    return [name.lower() for name in _NAME.findall(token)]


def _atom(names: list[str]) -> _Atom | _Mark | None:
    """Canonical atom for the names of one group; a None marker; or None for prose."""
    if names == ["none"]:
        return _Mark.NONE
    if names[0] in _PROSE_WORDS or not _FUNCTION_WORDS.isdisjoint(names):
        return None
    return _Atom("(" + " ".join(names) + ")")


class _Build(Transformer):
    """Inline LALR transformer: builds candidate lists; junk tokens are dropped."""

    @staticmethod
    def _keep(children: list) -> list:
        return [c for c in children if c is not None and not isinstance(c, Token)]

    action_list = act = index = progression = _keep

    def action(self, children: list) -> _Atom | _Mark | None:
        return _atom(_names(children[0]))

    def neg_action(self, children: list) -> _Atom | _Mark | None:
        return _atom(_names(children[0])[1:])  # drop the "not"

    def truncated(self, children: list) -> _Mark | None:
        names = _names(children[0])
        return None if names and names[0] in _PROSE_WORDS else _Mark.TRUNCATED

    def none(self, children: list) -> _Mark:
        return _Mark.NONE

    def empty(self, children: list) -> _Mark:
        return _Mark.EMPTY

    def pos_label(self, children: list) -> _Mark:
        return _Mark.POS

    def neg_label(self, children: list) -> _Mark:
        return _Mark.NEG

    def group(self, children: list) -> _Group:
        atoms: list[str] = []
        inner: list[tuple[str, ...]] = []
        truncated = False
        for child in self._keep(children):
            if isinstance(child, _Atom):
                atoms.append(child.text)
            elif isinstance(child, _Group):
                atoms.extend(child.atoms)
                inner.append(child.atoms)
                truncated = truncated or child.truncated
            elif child is _Mark.EMPTY:
                inner.append(())
            truncated = truncated or child is _Mark.TRUNCATED
        return _Group(tuple(atoms), tuple(inner), truncated)

    open_list = group  # a list missing its final "]" at the end of the text

    def index_num(self, children: list) -> _Index:
        return _Index("index", int(re.findall(r"-?\d+", children[0])[-1]))

    def number(self, children: list) -> _Index:
        return _Index("number", int(children[0]))

    def ordinal(self, children: list) -> _Index | None:
        word = children[0].split()[0].lower()
        position = int(word[:-2]) if word[0].isdigit() else _ORDINAL_WORDS.index(word) + 1
        return _Index("ordinal", position - 1) if position > 0 else None


_ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files("acpgen.nl").joinpath("answers.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        lexer="basic",
        start=["action_list", "act", "index", "progression"],
        transformer=_Build(),
    )


def _items(start: str, text: str) -> list:
    """Candidates of ``text`` under the grammar rule ``start``."""
    try:
        return cast(list, _parser().parse(text, start=start))  # the inline transformer builds lists
    except LarkError as err:  # the grammar accepts any token sequence; this is a safety net
        raise ParseError(f"cannot tokenise the answer: {err}") from err


# --------------------------------------------------------------------------- list answers


def _action_list(text: str) -> list[str]:
    items = _items("action_list", text)
    if _Mark.TRUNCATED in items:
        raise ParseError("the answer ends inside an unfinished action (truncated output)")
    actions = [item.text for item in items if isinstance(item, _Atom)]
    if actions or not text or _Mark.NONE in items or _Mark.EMPTY in items:
        return actions
    raise ParseError("no action found in the answer")


def parse_action_list(text: str) -> list[str]:
    """app: all actions of the answer, in order. ``None``, ``[]`` or an empty answer give ``[]``.

    Raises ``ParseError`` for a non-empty answer without any action and for a truncated action.
    """
    return _action_list(_prepare(text))


def parse_plan(text: str) -> list[str]:
    """just: the simplified plan, from the text after the last ``simplified plan:`` heading.

    Same rules as ``parse_action_list``; order and repeated actions are kept.
    """
    return _action_list(_prepare(text, plan_heading=True))


# --------------------------------------------------------------------------- single answers


_NONE_MARKS = (_Mark.NONE, _Mark.EMPTY)


def _no_single_answer(items: list, what: str, allow_none: bool) -> ParseError:
    """Why ``items`` hold no single answer (no atom, and no None marker where None is allowed)."""
    if _Mark.TRUNCATED in items:
        return ParseError(f"the answer ends inside an unfinished {what} (truncated output)")
    if any(mark in items for mark in _NONE_MARKS):
        return ParseError(f"the answer is None, but an {what} is required")
    return ParseError(f"no {what}{' or None' if allow_none else ''} found in the answer")


def _first_or_none(text: str, what: str) -> str | None:
    """The first atom of the answer, or ``None`` if a None marker comes first."""
    items = _items("act", _prepare(text))
    for item in items:
        if isinstance(item, _Atom):
            return item.text
        if item in _NONE_MARKS:
            return None
    raise _no_single_answer(items, what, allow_none=True)


def parse_atom_or_none(text: str) -> str | None:
    """reach, land: the first atom of the answer, or ``None`` if the answer says None first."""
    return _first_or_none(text, "atom")


def parse_action_or_none(text: str) -> str | None:
    """areach: the first action of the answer, or ``None`` if the answer says None first."""
    return _first_or_none(text, "action")


def parse_action(text: str) -> str:
    """nexta: the first action of the answer (None markers are skipped); no action raises ``ParseError``."""
    items = _items("act", _prepare(text))
    action = next((item.text for item in items if isinstance(item, _Atom)), None)
    if action is None:
        raise _no_single_answer(items, "action", allow_none=False)
    return action


# --------------------------------------------------------------------------- val


def parse_index(text: str) -> int | None:
    """val: the 0-based index of the first inapplicable action; ``None`` if there is none.

    Candidates, by rank: ``index N``/``position N`` (``(board c2 l1) at index 4`` -> 4); then
    numbers outside actions (``3``, ``3.``, ``007`` -> 7; digits inside names such as ``c2`` or
    ``f3-2f`` never count) and the word None; then ordinals, read as 1-based positions (``3rd``,
    ``the third action`` -> 2), ranked last because "the first action that fails is 4" is
    common phrasing. The first candidate of the best rank wins. ``-1`` and None mean "every
    action is applicable" and give ``None``; other negative numbers raise ``ParseError``.
    """
    items = [
        item if isinstance(item, _Index) else _Index("none", None)  # the word None
        for item in _items("index", _prepare(text))
    ]
    if not items:
        raise ParseError("no index found in the answer")
    rank = {"index": 0, "number": 1, "none": 1, "ordinal": 2}
    value = min(items, key=lambda item: rank[item.kind]).value  # min keeps the first of a rank
    if value is None or value == -1:
        return None
    if value < 0:
        raise ParseError(f"negative index {value}")
    return value


# --------------------------------------------------------------------------- prog


def _atoms_of(items: list) -> list[str]:
    """Atoms of a sequence of top-level items, those inside lists included, in order."""
    atoms: list[str] = []
    for item in items:
        if isinstance(item, _Atom):
            atoms.append(item.text)
        elif isinstance(item, _Group):
            atoms.extend(item.atoms)
    return atoms


def _lists(items: list) -> list[list[str]]:
    """Top-level bracketed lists; ``[[...], [...]]`` counts as its inner lists."""
    lists: list[list[str]] = []
    for item in items:
        if item is _Mark.EMPTY:
            lists.append([])
        elif isinstance(item, _Group) and item.inner and len(item.atoms) == sum(map(len, item.inner)):
            lists.extend(list(inner) for inner in item.inner)  # only nested lists inside
        elif isinstance(item, _Group):
            lists.append(list(item.atoms))
    return lists


def _labelled(items: list) -> tuple[list[str], list[str]] | None:
    """(pos, neg) from "Positive effects: ... Negative effects: ..." sections, in any order.

    A section runs from a label to the next label. For each label the last section that holds
    atoms or says None/[] is used; a label without such a section gives []. Returns None when
    no section holds anything (the labels were prose).
    """
    sections: dict[_Mark, list[list]] = {_Mark.POS: [], _Mark.NEG: []}
    current: list | None = None
    for item in items:
        if isinstance(item, _Mark) and item in sections:
            current = []
            sections[item].append(current)
        elif current is not None:
            current.append(item)

    def answer(section: list) -> bool:
        return bool(_atoms_of(section)) or any(
            item in (_Mark.NONE, _Mark.EMPTY) or isinstance(item, _Group) for item in section
        )

    chosen = {label: [s for s in found if answer(s)] for label, found in sections.items()}
    if not any(chosen.values()):
        return None
    pos, neg = (_atoms_of(chosen[label][-1]) if chosen[label] else [] for label in (_Mark.POS, _Mark.NEG))
    return pos, neg


def parse_effects(text: str) -> tuple[list[str], list[str]]:
    """prog: (positive effects, negative effects).

    Accepted: two bracketed lists ``[(a)] [(b), (c)]`` (the first two are used; ``[]``,
    ``[None]`` are empty; ``[[...], [...]]`` works too; a missing final ``]`` is tolerated), or
    labelled sections "Positive effects: ... Negative effects: ..." in either order, with atoms
    bare or in brackets; "none", ``[]`` or nothing after a label is an empty list. Labels win.
    ``(not (a))`` counts as ``(a)``. A single list is accepted only under a label (the other list
    is then empty). Raises ``ParseError`` for an unlabelled single list or a truncated action.
    """
    items = _items("progression", _prepare(text))
    if any(item is _Mark.TRUNCATED or (isinstance(item, _Group) and item.truncated) for item in items):
        raise ParseError("the answer ends inside an unfinished atom (truncated output)")
    labelled = _labelled(items)
    if labelled is not None:
        return labelled
    lists = _lists(items)
    if len(lists) >= 2:
        return lists[0], lists[1]
    if len(lists) == 1:
        raise ParseError("only one unlabelled list: cannot tell positive from negative effects")
    raise ParseError("no lists of positive and negative effects found in the answer")


# --------------------------------------------------------------------------- bool and mcq answers
# Boolean and multiple-choice responses are read without the grammar: the answer is a single word
# or letter, found after the last final-answer marker when there is one. Without a marker only
# unmistakable forms count (the whole response, or its first word), never the first "no" of a
# sentence such as "There is no car at l1".

_YES_NO = re.compile(r"(?<![a-z0-9_-])(yes|no|true|false)(?![a-z0-9_-])", re.IGNORECASE)
_CHOICE_MARKER = re.compile(
    r"(?:final\s+answer|answer|correct\s+(?:option|choice|answer)|option|choice)\s*(?:is|would\s+be|:|=)?\s*",
    re.IGNORECASE,
)
_LABEL = re.compile(r"(?<![A-Za-z0-9_-])\(?([A-Da-d])\)?(?=$|[\s.,:;)\]!])")
_BOXED = re.compile(r"\\boxed\s*\{\s*([^{}]*)\}")
_TRUTH = {"yes": "yes", "true": "yes", "no": "no", "false": "no"}


def _plain(text: str) -> str:
    """The answer part of a bool/mcq response: inside the last ``\\boxed{...}`` if any, plain text."""
    text = _after_reasoning(text)
    boxed = _BOXED.findall(text)
    if boxed:
        text = boxed[-1]
    return _strip_markdown(text).replace("_", " ").strip()


def parse_yes_no(text: str) -> str:
    """'yes' or 'no' (also from True/False); ParseError when the response commits to neither."""
    plain = _plain(text)
    markers = list(_FINAL_MARKER.finditer(plain)) or list(_ANSWER_MARKER.finditer(plain))
    if markers:
        found = _YES_NO.search(plain[markers[-1].end() :])
        if found:
            return _TRUTH[found.group(1).lower()]
    words = _YES_NO.findall(plain)
    stripped = re.sub(r"[^a-z]", "", plain.lower())
    if stripped in _TRUTH:
        return _TRUTH[stripped]
    first = re.match(r"\W*(yes|no|true|false)(?![a-z0-9_-])", plain, re.IGNORECASE)
    if first:
        return _TRUTH[first.group(1).lower()]
    if words and len({_TRUTH[w.lower()] for w in words}) == 1 and len(plain) <= 40:
        return _TRUTH[words[0].lower()]
    raise ParseError("no yes/no answer found")


def parse_choice(text: str, options: list[str] | None = None) -> str:
    """The chosen label A-D; ParseError when none can be read unambiguously.

    After the last answer marker the first label counts ("**Final Answer**: C." -> C, also "(c)").
    Without a marker: a response that is only a label, or starts with "B." / "(B)", or (given the
    options) repeats exactly one option's text.
    """
    plain = _plain(text)
    markers = list(_FINAL_MARKER.finditer(plain)) or list(_CHOICE_MARKER.finditer(plain))
    if markers:
        found = _LABEL.search(plain[markers[-1].end() :].lstrip(" :"))
        if found and found.start() <= 3:
            return found.group(1).upper()
    only = re.fullmatch(r"\W*\(?([A-Da-d])\)?\W*", plain)
    if only:
        return only.group(1).upper()
    first = re.match(r"\s*\(?([A-D])(?:\)|\.|:)(?=\s|$)", plain)
    if first:
        return first.group(1)
    if options:
        norm = " ".join(plain.lower().rstrip(".").split())
        hits = [label for label, option in zip("ABCD", options) if " ".join(option.lower().split()) == norm]
        if len(hits) == 1:
            return hits[0]
    raise ParseError("no option label (A-D) found")
