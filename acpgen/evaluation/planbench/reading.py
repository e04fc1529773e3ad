"""Reading a PlanBench answer: its final plan block, its lines, and the steps they state (:func:`translate`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field

from acpgen.evaluation.planbench.wording import (
    _TRAILING,
    Reading,
    Wording,
    _bound,
    _fits,
    _legend,
    _Line,
    _parse_line,
    pddl_wording,
)
from acpgen.nl.plan_steps import no_plan_statement
from acpgen.pddl.model import LiftedTask

_THINK_END = re.compile(r"</think>", re.IGNORECASE)
_FENCE = re.compile(r"^\s*```.*$", re.MULTILINE)
_INLINE_BULLET = re.compile(r"(?<=\S)\s+\u2022\s+")  # "Feast b from c  then  \u2022 Overcome b from d"
# items of a numbered list on one line, apart by wide blanks: "1. Feast object b from a\u2003\u20032. Succumb object b"
_INLINE_NUMBER = re.compile(r"(?<=\S)(?:[ \t]*[\u2002\u2003][ \t\u2002\u2003]*|[ \t]{2,})(?=\d{1,2}\.\s)")
_LATEX = re.compile(r"\\[()\[\]]")  # LaTeX's math delimiters, "Feast \(d\) from \(a\)"
_EMPHASIS = re.compile(r"[*`]")  # markdown emphasis and code, out of a sentence quoted
_STATEMENT = "[statement]"
_PLAN_START = "[plan]"
_PLAN_END = "[plan end]"


def answer_text(response: str) -> str:
    """The answer without reasoning before the last ``</think>`` and without code fences (``\\_`` is ``_``)."""
    ends = [m.end() for m in _THINK_END.finditer(response)]
    text = response[ends[-1] :] if ends else response
    text = _LATEX.sub(" ", _FENCE.sub("", text.replace("\\_", "_")))
    return _INLINE_NUMBER.sub("\n", _INLINE_BULLET.sub("\n\u2022 ", text))


def before_new_problem(text: str) -> str:
    """The text before the first ``[STATEMENT]`` after a ``[PLAN]`` or ``[PLAN END]`` (a problem the model made up)."""
    lower = text.lower()
    first = min((i for i in (lower.find(_PLAN_END), lower.find(_PLAN_START)) if i >= 0), default=-1)
    statement = lower.find(_STATEMENT, first if first >= 0 else 1)
    return text[:statement] if statement >= 0 else text


def plan_section(text: str) -> str:
    """PlanBench's markers: the text before the first ``[STATEMENT]`` after a ``[PLAN END]`` or
    ``[PLAN]`` (the model went on to a problem of its own), then the last ``[PLAN]`` ... ``[PLAN END]``:
    the text before the last ``[PLAN END]``, after the last ``[PLAN]`` or ``[PLAN END]`` before it; without
    ``[PLAN END]``, the text after the last ``[PLAN]``."""
    text = before_new_problem(text)
    lower = text.lower()
    end = lower.rfind(_PLAN_END)
    if end < 0:
        start = lower.rfind(_PLAN_START)
        return text[start + len(_PLAN_START) :] if start >= 0 else text
    before = lower[:end]
    opened, closed = before.rfind(_PLAN_START), before.rfind(_PLAN_END)
    if opened > closed:
        return text[opened + len(_PLAN_START) : end]
    return text[closed + len(_PLAN_END) : end] if closed >= 0 else text[:end]


def plan_block(response: str) -> str:
    """The text of the answer that holds its plan (:func:`answer_text`, then :func:`plan_section`)."""
    return plan_section(answer_text(response))


# ----- words ------------------------------------------------------------------------------------------
#: markdown emphasis and backslashes out, punctuation set apart (str.translate: one pass, no regular expression)


_NO_PARENTHESES = str.maketrans("()", "  ")  # an unreadable step's text inside its group


def _unreadable(text: str) -> str:
    """A line that names an action it cannot be read as, for acp's plan reader: its text in a group inside a
    group, which that reader takes for a step it cannot read whatever the text (it reads a group's words
    against the task, and a nested group never), without parentheses and words it would take for a
    final-answer marker."""
    text = re.sub(r"(?i)answer", "reply", text).translate(_NO_PARENTHESES)
    return f"(({' '.join(text.split()).rstrip(_TRAILING)}))"


def _structure(lines: list[_Line]) -> None:
    """Each line's parent and role: a step or a named action under a step explains it (no step); a named
    action with a step under it is that step's heading (no step)."""
    stack: list[int] = []
    for i, line in enumerate(lines):
        while stack and lines[stack[-1]].level >= line.level:
            stack.pop()
        line.parent = stack[-1] if stack else None
        stack.append(i)
        kind = line.reading.kind
        if _explained(lines, i, kind == "step"):
            continue
        if kind == "step":
            line.role = "step"
            for a in _ancestors(lines, i):
                if lines[a].role == "named":
                    lines[a].role = ""  # the heading of the steps under it
        elif kind in ("named", "mention"):
            line.role = kind


def _ancestors(lines: list[_Line], i: int) -> Iterable[int]:
    parent = lines[i].parent
    while parent is not None:
        yield parent
        parent = lines[parent].parent


@dataclass
class _Block:
    lines: list[int] = field(default_factory=list)
    commentary: bool = False  # after a heading that announces a commentary ("Explanation:")
    numbers: dict[int | None, int] = field(default_factory=dict)  # the last number under each parent


def _blocks(lines: list[_Line]) -> list[_Block]:
    """The runs of steps: a heading that announces a plan or a commentary (``Explanation:``), or numbering
    that starts again under the same parent, ends one; a mention belongs to a block only between two of
    its steps. The blocks of a commentary (up to the next heading that announces a plan) are marked."""
    blocks: list[_Block] = []
    current = _Block()
    pending: list[int] = []  # mentions after the block's last step
    commentary = False

    def close() -> None:
        nonlocal current, pending
        if current.lines:
            blocks.append(current)
        current, pending = _Block(commentary=commentary), []

    for i, line in enumerate(lines):
        if _explained(lines, i, line.role == "step"):
            continue
        if line.final or line.commentary:
            commentary = line.commentary
            close()
            continue
        if line.number is not None and line.role in ("step", "named", ""):
            last = current.numbers.get(line.parent)
            if last is not None and line.number <= last and current.lines:
                close()
            current.numbers[line.parent] = line.number
        if line.role in ("step", "named"):
            current.lines += pending + [i]
            pending = []
        elif line.role == "mention" and current.lines:
            pending.append(i)
    close()
    return blocks


def _explained(lines: list[_Line], i: int, step: bool = False) -> bool:
    """Whether a line is under a step (which it explains), or, unless it is a step itself, under a named action."""
    roles = ("step",) if step else ("step", "named")
    return any(lines[a].role in roles for a in _ancestors(lines, i))


def _steps(lines: list[_Line], block: _Block) -> list[str]:
    """A block's steps: the actions its lines state, a named action that cannot be read as such."""
    out: list[str] = []
    for i in block.lines:
        line = lines[i]
        if line.role == "step" or (line.role == "mention" and len(set(line.reading.actions)) == 1):
            out += line.reading.actions[: 1 if line.role == "mention" else None]
        else:
            out.append(_unreadable(line.body))
    return out


def _once(steps: list[str]) -> list[str]:
    """A plan stated twice or more in a row, once."""
    n = len(steps)
    for size in range(1, n // 2 + 1):
        if n % size == 0 and steps == steps[:size] * (n // size):
            return steps[:size]
    return steps


def _read_blocks(text: str, reader: Callable[[str], Reading]) -> tuple[list[_Line], list[_Block]]:
    lines = [line for raw in text.splitlines() if (line := _parse_line(raw, reader)) is not None]
    _structure(lines)
    return lines, _blocks(lines)


def _choose(lines: list[_Line], blocks: list[_Block]) -> _Block | None:
    """The block of the answer's plan, its final statement: the last of the blocks with a step read (a
    commentary's only when no other has one)."""
    if not blocks:
        return None
    readable = [b for b in blocks if any(lines[i].role == "step" for i in b.lines)]
    plain = [b for b in readable if not b.commentary] or readable
    return plain[-1] if plain else blocks[-1]


def plan_lines(text: str, reader: Callable[[str], Reading]) -> list[str]:
    """The plan of an answer's text, one step a line (see the package's docstring)."""
    lines, blocks = _read_blocks(text, reader)
    chosen = _choose(lines, blocks)
    return [] if chosen is None else _once(_steps(lines, chosen))


def translate(
    response: str,
    wording: Wording | None,
    objects: Collection[str] = (),
    lifted: LiftedTask | None = None,
    blocks: list[tuple[list[str], bool]] | None = None,
) -> str:
    """A PlanBench answer as acp's plan reader takes it (see the module docstring): the plan's steps, one a
    line, ``(name arg ...)`` (a named action that cannot be read in a nested group); "" when no line names an action.
    Without a wording, the domain's own names are read (``lifted``: the instance's task), or, without
    that either, the plan block as written. ``blocks``, a list, receives every block of steps the answer
    has and whether it is the one read (for reports)."""
    if wording is None and lifted is None:
        return plan_block(response).strip()
    if lifted is not None:
        objects = lifted.objects
    words = _bound(wording, objects) if wording is not None else pddl_wording(lifted)  # type: ignore[arg-type]
    fits = _fits(lifted) if lifted is not None else None
    text = plan_block(response)
    words = words.with_aliases(_legend(answer_text(response), words))

    def reader(line: str) -> Reading:
        return words.read(line, objects, fits)

    if blocks is not None:
        lines, found = _read_blocks(text, reader)
        chosen = _choose(lines, found)
        blocks += [(_steps(lines, b), b is chosen) for b in found]
        return "\n".join([] if chosen is None else _once(_steps(lines, chosen)))
    return "\n".join(plan_lines(text, reader))


def no_plan_said(
    response: str, wording: Wording | None, objects: Collection[str] = (), lifted: LiftedTask | None = None
) -> str | None:
    """The sentence of an answer that says no plan exists when that is its final statement, else None: acp's one
    reading rule (:func:`acpgen.nl.plan_steps.read_plan`) on PlanBench's answers. The statement is looked for in
    the answer (:func:`answer_text`, before a problem the model made up) and counts when no line after it states a
    step (:func:`translate` reads none there)."""
    text = before_new_problem(answer_text(response))
    found = no_plan_statement(text)
    if found is None or translate(text[found[1] :], wording, objects, lifted):
        return None
    return " ".join(_EMPHASIS.sub("", text[found[0] : found[1]]).split())
