"""The shortcuts that spare long answers a scan give what the scan gives: a marker's words absent from an ASCII
text mean no match of the marker, and a text with no "(", "[" or "none" holds no candidate of a list answer.
Checked on random texts built from the words the patterns look for, in any case, with the Unicode letters a
case-insensitive pattern folds onto ASCII ones (U+017F for "s", U+0131 and U+0130 for "i", U+212A for "k")."""

from __future__ import annotations

import random
import re

import pytest

from acpgen.nl import answers
from acpgen.nl.answers import _ANSWER_MARKER, _FINAL_MARKER, _PLAN_HEADING

WORDS = [
    "final", "answer", "answers", "is", "are", "plan", "simplified", "new", "\\boxed", "{", "}", "none", "None",
    "NONE", "(", ")", "[", "]", "sail", "l0", "c1", ":", ",", "\n", "the", "pLan",
    "an\u017fwer", "f\u0131nal", "F\u0130NAL", "\u212aey",
    "Answer:", "Final Answer is", "Simplified plan:", "(sail l0 l1)", "[]", "sail(l0, l1)", "3None",
]  # fmt: skip


def texts(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        words = [rng.choice(WORDS) for _ in range(rng.randint(0, 14))]
        words = [w.upper() if rng.random() < 0.1 else w for w in words]
        yield "".join(w + rng.choice([" ", "", "\n", ". "]) for w in words)


def scanned_after_marker(text: str, marker: re.Pattern[str]) -> str:
    """The marker's reading without the shortcut (as the module reads when a cue is present)."""
    matches = list(marker.finditer(text))
    if not matches:
        return text
    for match in reversed(matches):
        tail = text[match.end() :]
        if answers._CONTENT.search(tail):
            return tail
    return text[: matches[0].start()]


@pytest.mark.parametrize("marker", [_FINAL_MARKER, _ANSWER_MARKER, _PLAN_HEADING])
def test_a_marker_shortcut_reads_as_the_scan(marker):
    matched = skipped = 0
    for text in texts(1, 4000):
        assert answers._after_marker(text, marker) == scanned_after_marker(text, marker), text
        matched += marker.search(text) is not None
        skipped += not answers._may_hold(text, marker)
    assert matched > 200 and skipped > 200  # the draws hold matches, and texts the shortcut skips


def test_a_list_answer_shortcut_reads_as_the_scan():
    found = skipped = 0
    for text in texts(2, 4000):
        scanned = [answers._MEMBER[kind](token) for kind, token in answers._tokens(text, answers._MEMBER_KINDS)]
        assert list(answers._candidates(text)) == [item for item in scanned if item is not None], text
        found += bool(scanned)
        skipped += "(" not in text and "[" not in text and "none" not in text.lower()
    assert found > 200 and skipped > 200


def test_the_prose_terminal_guards_every_word_it_excludes_by_its_first_letter():
    """PROSE looks for the words of other terminals only after a first letter of theirs: the letters must cover them
    (a word added to the list without its letter would be read as prose)."""
    prose = next(pattern for _, group in answers._TERMINALS for name, pattern in group if name == "PROSE")
    found = re.search(r"\(\?=\[([a-z]+)\]\)\(\?:([a-z|]+)\)", prose)
    assert found is not None, prose
    letters, words = set(found.group(1)), found.group(2).split("|")
    assert {word[0] for word in words} == letters, (letters, words)
    unguarded = re.compile(answers._SCANNER.pattern.replace(found.group(0), f"(?:{found.group(2)})"), re.IGNORECASE)
    rng = random.Random(3)
    pieces = [*words, *(w.upper() for w in words), "sail", "l0", "(", "x", "none(", "index 3", "first action", "  "]
    for _ in range(300):
        text = " ".join(rng.choice(pieces) + rng.choice(["", "x", "-1", "("]) for _ in range(rng.randint(1, 12)))
        spans = [(m.lastgroup, m.span()) for m in answers._SCANNER.finditer(text)]
        assert spans == [(m.lastgroup, m.span()) for m in unguarded.finditer(text)], text
