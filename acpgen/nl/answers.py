"""Turn a model's free-text answer to an ACPBench-Hard (gen) question into a structured answer.

One public function per answer shape; the scorer matches the result against the grounded task
and reports status ``parse_error`` on ``ParseError``. ``_prepare`` pre-normalises the text with
a few regular expressions; a scanner cuts it into tokens (one compiled regular expression of
terminals tried in priority order) and turns them into candidates (actions, None markers, numbers,
prog labels, bracketed lists, nested by a stack); the functions pick the answer from them. Reading
takes time in proportion to the length of the text, whatever it holds: the terminals are written
so that no run of blanks, names or brackets is backtracked over more than once, and runs of junk
are single tokens. (The terminals and their priorities were those of a Lark LALR grammar; at about
8 microseconds per character, Lark's token-by-token lexing in Python was the cost of reading long
answers, and every start rule accepted any token sequence, so a scanner and a stack do the same.)

Design choices (deliberate differences from the reference parser, the answer grammar of the ACPBench-Hard
tasks in lm-evaluation-harness):

* Section: the text after the last ``</think>``; then after the LAST "final answer" marker
  (``Final Answer:``, ``final answer is``, ``\\boxed{``) followed by content, or, without one,
  after the last ``Answer:``/``answer is``; if no marker is followed by content ("(a b) is my
  final answer.") the text before the first one. just: then after the last plan heading
  (``Simplified plan:``, ``resulting plan is``). Code fences, backticks, ``*`` are removed and
  ``\\_`` becomes ``_``; bullets, ``#``, quotes and other punctuation are junk to the scanner.
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

NONE = "None"
"""Canonical text of a "None" answer. Parsers return Python ``None`` (or ``[]``), not this."""

__all__ = [
    "NONE",
    "ParseError",
    "after_plan_heading",
    "answer_section",
    "parse_action",
    "parse_action_list",
    "parse_action_or_none",
    "parse_atom_or_none",
    "parse_effects",
    "parse_index",
    "parse_plan",
    "reply_text",
]


class ParseError(ValueError):
    """No sensible answer can be extracted from a response; ``reason`` says why. ``nothing``: the text holds
    nothing of the kind asked for in PDDL syntax (it may be written in words), rather than something
    unusable (a truncated action, None where an action is required)."""

    def __init__(self, reason: str, nothing: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.nothing = nothing


# --------------------------------------------------------------------------- pre-normalisation

_THINK_END = re.compile(r"</think>", re.IGNORECASE)
_FENCE = re.compile(r"```[a-z0-9_+-]*", re.IGNORECASE)
_MARKDOWN = re.compile(r"[`*]")
_FINAL_MARKER = re.compile(r"final\s+answers?(?:\s+(?:is|are|would\s+be|will\s+be)\b)?|\\boxed\s*\{", re.IGNORECASE)
_ANSWER_MARKER = re.compile(r"\banswers?\s*(?::|(?:is|are)\b)", re.IGNORECASE)
_PLAN_HEADING = re.compile(
    r"\b(?:simplified|resulting|new|shortened|reduced)\s+plan(?:\s+is\b|\s*:|[ \t]*$)", re.IGNORECASE | re.MULTILINE
)
# A line that is only a heading announcing the answer ("**Action Sequence:**", "### Final Plan", "Plan:",
# "Solution:", "[PLAN]"), markdown already removed: a restatement of the answer follows it, so the text after
# the last such heading with content after it is the answer. A line with more words is prose or an answer.
_ANSWER_HEADING = re.compile(
    r"[ \t#>_-]*(?:\[plan\]|(?:(?:my|the|our|here\s+is\s+the)\s+)?"
    r"(?:(?:final|complete|corrected|full|revised|optimal|resulting|proposed|valid)\s+)?"
    r"(?:plan|action\s+sequence|sequence\s+of\s+actions|solution|(?:summary|list)\s+of\s+(?:actions|steps|the\s+plan)"
    r"|actions?\s+plan|step-by-step\s+plan))[ \t_]*:?[ \t_\r]*$",
    re.IGNORECASE,
)
_HEADING_WORDS = ("plan", "sequence", "solution", "summary", "list of")  # every heading holds one of them
_HEADING_LINE = 80  # the longest heading line
# A section "has content" if anything an answer can consist of follows the marker.
_CONTENT = re.compile(r"[a-z0-9()\[\]]", re.IGNORECASE)


#: words every match of a marker holds (lower case): an ASCII text without one of them holds no match, which a
#: substring search tells faster than the case-insensitive pattern (outside ASCII, the long s U+017F matches "s"
#: in such a pattern, so the pattern is asked)
_CUES: dict[re.Pattern[str], tuple[str, ...]] = {
    _FINAL_MARKER: ("final", "\\boxed"),
    _ANSWER_MARKER: ("answer",),
    _PLAN_HEADING: ("plan",),
}


def _may_hold(text: str, marker: re.Pattern[str]) -> bool:
    """False when ``text`` surely holds no match of ``marker`` (:data:`_CUES`)."""
    if not text.isascii():
        return True
    lower = text.lower()
    return any(cue in lower for cue in _CUES[marker])


def _after_marker(text: str, marker: re.Pattern[str]) -> str:
    """Text after the last marker that is followed by content (see the module docstring)."""
    if not _may_hold(text, marker):
        return text
    matches = list(marker.finditer(text))
    if not matches:
        return text
    for match in reversed(matches):
        tail = text[match.end() :]
        if _CONTENT.search(tail):
            return tail
    return text[: matches[0].start()]


def _after_heading(text: str) -> str:
    """The text after the last answer heading line followed by content (the whole text without one). A heading
    is a short line (at most 80 characters) that holds one of its words: each occurrence of a word is looked at
    within 80 characters of it, and a line once, so the time is linear in the text however it is made."""
    lower, ends = text.lower(), set()
    for word in _HEADING_WORDS:
        at = lower.find(word)
        while at >= 0:
            before = lower.rfind("\n", max(0, at - _HEADING_LINE), at)
            after = lower.find("\n", at, at + _HEADING_LINE)
            after = len(text) if after < 0 and len(text) - at <= _HEADING_LINE else after
            if (before >= 0 or at <= _HEADING_LINE) and after >= 0:
                if _ANSWER_HEADING.match(text, before + 1, after):
                    ends.add(after)
                at = lower.find(word, after)
            else:
                at = lower.find(word, at + 1)
    for end in sorted(ends, reverse=True):
        if _CONTENT.search(text, end):
            return text[end:]
    return text


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
    section = _section(text)
    return after_plan_heading(section) if plan_heading else section


#: the last response whose section was taken, and the section: a task that reads a response twice (in PDDL
#: syntax, then in words) takes it once (the response's identity is checked, not its text)
_last: tuple[str, str] = ("", "")


def _section(text: str) -> str:
    global _last
    last = _last  # one read of the pair: another thread may replace it
    if last[0] is text:
        return last[1]
    section = _strip_markdown(_after_reasoning(text), unescape=True)
    marker = _FINAL_MARKER if _may_hold(section, _FINAL_MARKER) and _FINAL_MARKER.search(section) else _ANSWER_MARKER
    section = _after_heading(_after_marker(section, marker)).strip()
    _last = (text, section)
    return section


_last_plan: tuple[str, str] = ("", "")  # the last section whose plan was taken, and its plan (as _last)


def after_plan_heading(section: str) -> str:
    """The text of an answer section after its last plan heading (``Simplified plan:``) with content."""
    global _last_plan
    last = _last_plan
    if last[0] is section:
        return last[1]
    plan = _after_marker(section, _PLAN_HEADING).strip()
    _last_plan = (section, plan)
    return plan


def answer_section(text: str) -> str:
    """The answer section of a response (reasoning, markdown and text before the final-answer marker
    removed), for readers of answers that the scanner does not cover (free English answers)."""
    return _prepare(text)


def reply_text(text: str) -> str:
    """The response without its reasoning (the text after the last ``</think>``) and markdown: the text
    :func:`answer_section` chooses the answer section from, which ends it."""
    return _strip_markdown(_after_reasoning(text), unescape=True)


# --------------------------------------------------------------------------- candidates


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


# --------------------------------------------------------------------------- the scanner
# The terminals of an answer, by the characters they can start with, each group in the order its
# terminals are tried at a position (the first that matches there is the token). The groups cover
# every character, so the whole text is cut into tokens; blanks before a token belong to it. Reading
# takes time in proportion to the length of the text: the first character picks the group; no two
# quantifiers can share a run of blanks (a failed match backtracks over a run once, and the names of an
# action are only tried where a name follows the blanks); and runs of junk (prose words, punctuation,
# brackets) are single tokens, tried first where no other terminal of the group can match instead.
_ID = r"[a-z][a-z0-9_-]*"
_ARG = r"\??" + _ID
# names separated by blanks and/or one comma (each further name only tried where one follows)
_ARGS = rf"{_ARG}(?:(?=[\s,]+\??[a-z])(?:\s+(?:,\s*)?|,\s*){_ARG})*"
_CLOSE = r"(?:,\s*)?\)"  # an optional comma before ")"
_OPEN = rf"\(\s*(?:{_ARGS}\s*)?(?:,\s*)?\Z"  # the rest of an action cut off by the end of the text
_WORD = r"[a-z0-9_-]+"
_TERMINALS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "[a-z]",
        (
            # prose in runs: words (and the blanks after them) that would each be a WORD: not followed by
            # "(" (a functional action) and starting none of the words of the terminals below (looked for only
            # after a word's first letter is one of theirs: the same test, a third of the time on prose)
            (
                "PROSE",
                r"(?:(?!(?=[adefinpst])(?:positive|negative|add|del|first|second|third|fourth|fifth|sixth|seventh"
                r"|eighth|ninth|tenth|index|position|none))[a-z][a-z0-9_-]*(?![a-z0-9_(-])\s*)+",
            ),
            ("OPEN_CALL", _ID + _OPEN),  # "sail(l0" at the very end
            # functional syntax name(arg, arg) / name(); no blank between name and "("
            ("FUNC_ACTION", rf"{_ID}\(\s*(?:{_ARGS}\s*)?{_CLOSE}"),
            # prog labels; "positive and negative effects" is one neutral token, not two labels
            (
                "BOTH_LABEL",
                r"(?:positive|negative)(?:\s+effects?)?\s+(?:and|or|&)\s+(?:positive|negative)(?:\s+effects?)?"
                r"(?![a-z0-9_-])",
            ),
            # val: ordinals are 1-based positions; "index 4" / "position: 4" is preferred over a bare number
            (
                "ORD_WORD",
                r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+(?:action|step)"
                r"(?![a-z0-9_-])",
            ),
            ("INDEX_NUM", r"(?:index|position)\s*(?:(?:is|of|=|:|#)\s*)?-?\d+(?![a-z0-9_-])"),
            ("NONE", r"none(?![a-z0-9_-])"),
            ("NEG_LABEL", r"(?:negative(?:\s+effects?)?|del(?:ete|eted)?\s+(?:effects?|list))(?![a-z0-9_-])"),
            ("POS_LABEL", r"(?:positive(?:\s+effects?)?|add(?:ed)?\s+(?:effects?|list))(?![a-z0-9_-])"),
            ("WORD", _WORD),
        ),
    ),
    (
        r"\(",
        (
            # one pattern for the terminals that start with "(", each marked by an empty group at its end:
            # (not (a b)), a negated atom (only meaningful in prog); then "(a b" or "(" cut off by the end
            # of the text, or (name arg ...), also (name, arg) and a blank before ")", whose names are
            # read once for both and only where a ")" or the end comes before the next "("; a run of "("
            # each followed by another (no action starts there); "("
            (
                "",  # no group around it: its empty groups name the terminal
                rf"\(\s*(?:not\s*\(\s*{_ARGS}\s*{_CLOSE}\s*\)(?P<NEG_ACTION>)"
                rf"|(?=[^()]*(?:\)|\Z)){_ARGS}\s*(?:(?:,\s*)?\Z(?P<OPEN_ACTION>)|{_CLOSE}(?P<ACTION>))"
                r"|(?:,\s*)?\Z(?P<OPEN_BARE>)|(?=\()[(\s]*(?=\()(?P<PARENS>))|\((?P<OTHER>)",
            ),
        ),
    ),
    (
        r"[0-9_-]",
        (
            # a number standing alone ("3", "3.", "-1", "007"), not part of a name such as f3-2f or 0-based;
            # the only case-sensitive terminal: a capital letter may follow ("3None" is 3, then None).
            # Numbers in a run (separated by blanks) are one token: only the first of them can count.
            ("NUMBERS", r"\d[\d\s]*(?<=\d)(?-i:(?![a-z0-9_-]))"),
            ("ORDINAL", r"\d+(?:st|nd|rd|th)(?![a-z0-9_-])"),
            ("NUMBER", r"(?-i:-?\d+(?![a-z0-9_-]))"),
            ("NUMERAL_WORD", _WORD),
        ),
    ),
    (
        r"\[",
        (
            ("EMPTY_LIST", r"\[\s*(?:none\s*)?\]"),  # an explicitly empty list: [] or [None]
            ("LSQB", r"\[(?:[\[\s]*\[)?(?!\s*(?:none\s*)?\])"),  # "[[[", none of which opens an empty list
        ),
    ),
    (r"\]", (("RSQB", r"\](?:[\]\s]*\])?"),)),
    (",", (("COMMA", ","),)),
    (r"\s", (("BLANKS", r"\s+"),)),  # blanks at the very end
    (r"[^\sa-z0-9_\-\[\],(]", (("PUNCTUATION", r"[^\sa-z0-9_\-\[\],(]+"),)),
)
_SCANNER = re.compile(
    r"\s*(?:"
    + "|".join(
        f"(?={first})(?:" + "|".join(f"(?P<{name}>{pattern})" if name else pattern for name, pattern in group) + ")"
        for first, group in _TERMINALS
    )
    + ")",
    re.IGNORECASE,
)
_ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _tokens(text: str, kinds: frozenset[str]) -> Iterator[tuple[str, str]]:
    """(terminal, text) of the tokens of ``text`` whose terminal is in ``kinds``, in order (the others are
    junk). A token's text is its match without the blanks before it (the terminals that start with "("
    are marked by an empty group at the end of their pattern)."""
    for match in _SCANNER.finditer(text):
        kind = match.lastgroup
        if kind is not None and kind in kinds:
            yield kind, match.group().lstrip()


@lru_cache(maxsize=4096)
def _action(token: str) -> _Atom | _Mark | None:
    """The candidate an action token gives (kept for the tokens seen last: answers repeat theirs)."""
    return _atom(_names(token))


def _truncated(token: str) -> _Mark | None:
    first = _NAME.search(token)  # the first name only: a token cut off by the end may run to 200,000 characters
    return None if first is not None and first.group(1).lower() in _PROSE_WORDS else _Mark.TRUNCATED


def _ordinal(token: str) -> int | None:
    """The 0-based index a 1-based ordinal names; None for "0th" (no candidate)."""
    word = token.split()[0].lower()
    position = int(word[:-2]) if word[0].isdigit() else _ORDINAL_WORDS.index(word) + 1
    return position - 1 if position > 0 else None


# What a token is in each kind of answer; a terminal missing from a table is junk there.
_MEMBER: dict[str, Callable[[str], object]] = {
    "ACTION": _action,
    "FUNC_ACTION": _action,
    "NONE": lambda _: _Mark.NONE,
    "EMPTY_LIST": lambda _: _Mark.EMPTY,
    "OPEN_ACTION": _truncated,
    "OPEN_BARE": _truncated,
    "OPEN_CALL": _truncated,
}
# val: (rank, the index a token names, None for none); the word None names -1, "every action applies"
_INDEX: dict[str, tuple[int, Callable[[str], int | None]]] = {
    "INDEX_NUM": (0, lambda token: int(re.findall(r"-?\d+", token)[-1])),
    "NUMBER": (1, int),
    "NUMBERS": (1, lambda token: int(token.split()[0])),
    "NONE": (1, lambda _: -1),
    "ORDINAL": (2, _ordinal),
    "ORD_WORD": (2, _ordinal),
}
_INDEX_KINDS = frozenset(_INDEX)
_MEMBER_KINDS = frozenset(_MEMBER)
_PROG_MEMBER: dict[str, Callable[[str], object]] = {
    **_MEMBER,
    "NEG_ACTION": lambda token: _action(token[token.index("(", 1) :]),  # the atom inside (not ...)
}
_PROG_LABELS: dict[str, _Mark] = {"POS_LABEL": _Mark.POS, "NEG_LABEL": _Mark.NEG}
_PROG_KINDS = frozenset([*_PROG_MEMBER, *_PROG_LABELS, "LSQB", "RSQB"])


def _candidates(text: str) -> Iterator[Any]:
    """The candidates of an answer that is a sequence of items (app, just, reach, areach, land, nexta),
    in order, as they are read (a reader of one answer stops at the first). Every candidate is an action in
    parentheses (or cut off after one), a list's bracket or the word None: a text with none of "(", "[" and
    "none" has none, without a scan."""
    if "(" not in text and "[" not in text and "none" not in text.lower():
        return
    for kind, token in _tokens(text, _MEMBER_KINDS):
        item = _MEMBER[kind](token)
        if item is not None:
            yield item


def _group(children: list) -> _Group:
    """One [...] list from its members and nested lists, in order."""
    atoms: list[str] = []
    inner: list[tuple[str, ...]] = []
    truncated = False
    for child in children:
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


# Lists nested deeper than this add only their atoms (and whether one is truncated) to the list that
# holds them: a prog answer is read from the top-level lists and the lists directly inside them.
_DEPTH = 2


def _progression(text: str) -> list:
    """prog: labels, bracketed lists (nested ones inside) and bare members at the top level, in order.
    A "]" without its "[" is junk; lists still open at the end of the text are closed there."""
    top: list = []
    open_lists: list[list] = []  # the lists open at depths 1.._DEPTH, outermost first
    deeper = 0  # lists open below them

    def close(count: int) -> None:
        for _ in range(min(count, len(open_lists))):
            group = _group(open_lists.pop())
            (open_lists[-1] if open_lists else top).append(group)

    for kind, token in _tokens(text, _PROG_KINDS):
        if kind == "LSQB":
            count = token.count("[")
            room = min(count, _DEPTH - len(open_lists))
            open_lists.extend([] for _ in range(room))
            deeper += count - room
        elif kind == "RSQB":
            count = token.count("]")
            inner = min(count, deeper)
            deeper -= inner
            close(count - inner)  # a "]" beyond the open lists is junk
        elif kind in _PROG_LABELS:
            if not open_lists:  # a label inside a list is junk
                top.append(_PROG_LABELS[kind])
        else:
            member = _PROG_MEMBER[kind](token)
            if member is not None:
                (open_lists[-1] if open_lists else top).append(member)
    close(len(open_lists))
    return top


# --------------------------------------------------------------------------- list answers


def _action_list(text: str) -> list[str]:
    items = list(_candidates(text))
    if _Mark.TRUNCATED in items:
        raise ParseError("the answer ends inside an unfinished action (truncated output)")
    actions = [item.text for item in items if isinstance(item, _Atom)]
    if actions or not text or _Mark.NONE in items or _Mark.EMPTY in items:
        return actions
    raise ParseError("no action found in the answer", nothing=True)


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
    return ParseError(f"no {what}{' or None' if allow_none else ''} found in the answer", nothing=True)


def _first_or_none(text: str, what: str) -> str | None:
    """The first atom of the answer, or ``None`` if a None marker comes first."""
    seen = []
    for item in _candidates(_prepare(text)):
        if isinstance(item, _Atom):
            return item.text
        if item in _NONE_MARKS:
            return None
        seen.append(item)
    raise _no_single_answer(seen, what, allow_none=True)


def parse_atom_or_none(text: str) -> str | None:
    """reach, land: the first atom of the answer, or ``None`` if the answer says None first."""
    return _first_or_none(text, "atom")


def parse_action_or_none(text: str) -> str | None:
    """areach: the first action of the answer, or ``None`` if the answer says None first."""
    return _first_or_none(text, "action")


def parse_action(text: str) -> str:
    """nexta: the first action of the answer (None markers are skipped); no action raises ``ParseError``."""
    seen = []
    for item in _candidates(_prepare(text)):
        if isinstance(item, _Atom):
            return item.text
        seen.append(item)
    raise _no_single_answer(seen, "action", allow_none=False)


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
    first: dict[int, int] = {}  # rank -> the first candidate of that rank
    for kind, token in _tokens(_prepare(text), _INDEX_KINDS):
        rank, index = _INDEX[kind]
        if rank in first:
            continue
        value = index(token)
        if value is not None:
            first[rank] = value
            if rank == 0:
                break
    if not first:
        raise ParseError("no index found in the answer")
    value = first[min(first)]
    if value == -1:
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
    items = _progression(_prepare(text))
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
    raise ParseError("no lists of positive and negative effects found in the answer", nothing=True)


# --------------------------------------------------------------------------- bool and mcq answers
# Boolean and multiple-choice responses are read without the scanner: the answer is a single word
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
