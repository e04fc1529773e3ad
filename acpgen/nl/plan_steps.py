"""Reading a written plan into its steps, leniently in form and exactly in content.

The answer section is chosen as for every task (:func:`acpgen.nl.answers.answer_section`: the text
after the reasoning and after the last final-answer marker, markdown removed). Then:

* **Parenthesised form** (the section holds a parenthesis): every top-level group ``( ... )`` is a
  step, in order, and so is ``name(arg, ...)``. Text on the line of a group outside it — numbering
  such as ``1.``, ``Step 2:``, a comment — is not part of a step. A line *between* two steps that
  holds no group is read as a step in the line form below, so a step written without parentheses
  in the middle of a plan is read, or makes the plan invalid; it is never skipped. Text before the
  first step and after the last is prose, and so are groups there whose words are not all names
  (``(6 steps)``, ``(i.e. optimal)``).
* **Line form** (no parenthesis anywhere): every non-blank line is a step, ``name arg arg``, after
  numbering (``1.``, ``2)``, ``Step 3:``) and bullets are removed; heading lines ending with ``:``
  before the first step are prose.

Case, blanks and commas between arguments do not matter. A step whose words are not PDDL names
(a nested group, a truncated group, a stray ``)``, punctuation) is kept as an unreadable step: the
scorer reports it and the plan is invalid. Reading is linear in the length of the text.
"""

from __future__ import annotations

import re

from acpgen.nl.answer_reader import ACTION, Reader
from acpgen.nl.answers import ParseError, answer_section
from acpgen.pddl.model import split_canonical
from acpgen.proofs.plans import Step

_NAME = r"\??[a-z][a-z0-9_-]*"  # a PDDL name, a variable's ? allowed
_SEPARATORS = re.compile(r"[\s,]+")
_NUMBERING = re.compile(r"^\s*(?:[-*\u2022>]\s*)?(?:(?:step\s*)?\d+\s*[.):\-]?\s*)?(?:[-*\u2022]\s*)?", re.IGNORECASE)
_TRAILING = re.compile(r"[\s.;]+$")
_CALLER = re.compile(r"([a-z][a-z0-9_-]*)\Z", re.IGNORECASE)
_ALL_NAMES = re.compile(f"{_NAME}(?: {_NAME})*")  # names joined by single blanks
# a run of "(" (group 1), the last of them opening a group with no parenthesis inside when its text and
# ")" follow (group 2); or a ")" of a nested or broken group
_GROUP = re.compile(r"\(([^()]*)\)")
_CALLED = re.compile(r"([a-z][a-z0-9_-]*)\((?=[^()]*\))", re.IGNORECASE)  # name(arg, ...)
_TOKEN = re.compile(r"(\(+)([^()]*\))?|\)")


def _words(text: str) -> Step:
    """A step from the words of a group or a line: the first is the action, the rest its arguments."""
    words = [w for w in _SEPARATORS.split(text.lower()) if w]
    if not words:
        return Step(text, None)
    joined = " ".join(words)
    if _ALL_NAMES.fullmatch(joined) is None:
        return Step(f"({joined})", None)
    if "?" in joined:
        words = [w.lstrip("?") for w in words]
    return Step(f"({joined})", words[0], tuple(words[1:]))


def _bare_line(line: str) -> Step | None:
    """A line of the line form as a step; None for a blank line."""
    body = _TRAILING.sub("", _NUMBERING.sub("", line, count=1))
    return _words(body) if body.strip() else None


def _line_form(section: str) -> list[Step]:
    lines = [line for line in section.splitlines() if line.strip()]
    while lines and lines[0].rstrip().endswith(":"):
        lines.pop(0)
    return [step for line in lines if (step := _bare_line(line)) is not None]


def _between(text: str, reader: Reader | None) -> list[Step]:
    """Steps on the whole lines between two groups (the first and last pieces share a group's line)."""
    lines = text.split("\n")[1:-1]
    if reader is not None:
        return _worded(reader, "\n".join(lines))
    return [step for line in lines if (step := _bare_line(line)) is not None]


def _parenthesised(section: str, reader: Reader | None = None) -> list[Step]:
    # (step, prose-like): a complete group whose words are not all names may be prose before the
    # first step or after the last one ("(6 steps)", "(i.e. optimal)"), and only there
    found: list[tuple[Step, bool]] = []
    depth, start, nested, last_end = 0, 0, False, -1
    read: dict[str, Step] = {}  # a group's text as read: a long answer repeats its steps
    for match in _TOKEN.finditer(section):
        opens = match.group(1)
        if opens is not None:
            at, flat = match.start(), match.group(2) is not None
            unmatched = len(opens) - flat  # the opening parentheses whose group stays open
            if unmatched:
                if depth == 0:
                    start, nested = at, unmatched > 1 or flat
                else:
                    nested = True
                depth += unmatched
            if not flat:
                continue
            if depth > 0:  # a whole group inside an outer one
                nested = True
                continue
            start, end = at + len(opens) - 1, match.end() - 1
        else:
            end = match.start()
            if depth == 0:  # a stray closing parenthesis
                found.append((Step(")", None), False))
                continue
            depth -= 1
            if depth > 0:
                continue
        if last_end >= 0 and section.count("\n", last_end, start) >= 2:  # whole lines between two groups
            found += [(step, False) for step in _between(section[last_end:start], reader)]
        last_end = end + 1
        step = _group(section, start, end, nested, read)
        found.append((step, step.name is None and not nested))
        nested = False
    if depth > 0:  # the text ends inside a group
        found.append((Step(section[start:].strip()[:80], None), False))
    first = next((i for i, (_, prose) in enumerate(found) if not prose), len(found))
    last = next((i for i in range(len(found) - 1, -1, -1) if not found[i][1]), -1)
    return [step for step, _ in found[first : last + 1]]


def _group(section: str, start: int, end: int, nested: bool, read: dict[str, Step]) -> Step:
    if nested:
        return Step(section[start : end + 1][:80], None)
    inner = section[start + 1 : end]
    # name(arg, ...): the name right before the parenthesis (looked for only when a name character is there)
    before = section[start - 1] if start > 0 else " "
    caller = _CALLER.search(section[max(0, start - 64) : start]) if before.isalnum() or before in "_-" else None
    words = caller.group(1) + " " + inner if caller is not None else inner
    step = read.get(words)
    if step is None:
        step = read[words] = _words(words)
    return step


def _worded(reader: Reader, text: str) -> list[Step]:
    """The steps of text written in words, read against the task (:meth:`Reader.steps`): prose left out."""
    steps = []
    for unit, kind, action in reader.steps(text):
        if kind == ACTION and action is not None:
            name, args = split_canonical(action)
            steps.append(Step(action, name, tuple(args)))
        elif _first_word(unit) in reader.verbs:  # an action's verb, its objects not those of one action
            steps.append(Step(f"({' '.join(unit.split())})", None))
        else:  # names only: as the line form reads them, an action of an unknown name
            steps.append(_bare_line(unit) or Step(unit, None))
    return steps


def _first_word(text: str) -> str:
    words = _SEPARATORS.split(_NUMBERING.sub("", text, count=1).strip().lower(), maxsplit=1)
    return words[0] if words else ""


def _in_pddl_syntax(reader: Reader, section: str) -> bool:
    """Whether a section with parentheses is a plan in PDDL syntax rather than words with remarks in
    parentheses: it has no complete group (an unfinished or broken one, which the parenthesised form reports),
    or some group starts with an action's name or verb, or opens its line (numbering aside), or an action's
    name is called as ``name(arg, ...)``."""
    if _GROUP.search(section) is None:
        return True
    line_start, searched, checked = 0, 0, -1  # the line of the group, found from where the last search ended
    for group in _GROUP.finditer(section):
        words = _SEPARATORS.split(group.group(1).strip().lower(), maxsplit=1)
        if words and (words[0] in reader.lifted.schemas or words[0] in reader.verbs):
            return True
        line_start = max(line_start, section.rfind("\n", searched, group.start()) + 1)
        searched = group.start()
        if line_start != checked:  # only a line's first group can open it
            checked = line_start
            if not _NUMBERING.sub("", section[line_start : group.start()], count=1).strip():
                return True
    return any(name.lower() in reader.lifted.schemas for name in _CALLED.findall(section))


def read_steps(response: str, reader: Reader | None = None) -> list[Step]:
    """The steps of the plan in a model's response (see the module docstring); ``ParseError`` when the
    answer holds no step at all. With a ``reader`` (the record's task and its template), a plan written in
    words is read against the task (:meth:`Reader.steps`), and lines between steps in PDDL syntax that name
    no action (an explanation under a step) are prose."""
    section = answer_section(response)
    parenthesised = "(" in section or ")" in section
    if reader is not None and not (parenthesised and _in_pddl_syntax(reader, section)):
        steps = _worded(reader, section)
    elif parenthesised:
        steps = _parenthesised(section, reader)
    else:
        steps = _line_form(section)
    if not steps:
        raise ParseError("no plan found in the answer")
    return steps
