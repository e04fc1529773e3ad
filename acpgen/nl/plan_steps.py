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

**No plan exists** (:func:`read_plan`). An answer may say instead that no plan reaches the goal: "No plan
exists.", "There is no valid plan / no such plan / no sequence of actions that ...", "The goal is impossible /
unachievable / unreachable / infeasible", "The problem is unsolvable", "The goal cannot be achieved / reached /
satisfied / accomplished", "It is not possible to reach the goal / to find a plan", "We cannot reach the goal",
a verdict alone on its line or opening it ("Impossible.", "Unsolvable: ..."), also with an empty plan ("Plan:
(none) - the goal cannot be reached", ``[]`` and such a statement). :func:`no_plan_statement` finds such a
sentence, in any domain (its words are English, not the domain's). It is no statement when it is negated ("it
is not impossible", "it is not true that no plan exists"), conditional or hedged ("if we stack a first, the goal
cannot be reached", "there may be no plan"), qualified ("the goal cannot be reached without first unstacking
b", "no plan exists that is shorter than this one", "no plan is needed"), a question, or about something else
("this plan is not the only possible one", "I cannot find a plan", "it is impossible to stack two blocks at
once"). A pronoun ("This is impossible.") is a statement only in a sentence that names the goal, the plan or the
problem, or alone. Reading takes time in proportion to the length of the text: the words of a statement are
matched only around the word that says it (its negation or its adjective).

**The one reading rule** decides an answer that offers a plan and also says no plan exists: its final statement
counts. Within the answer section (above), whichever comes last: the plan's steps, or the statement. A plan is
offered after the statement when the text after the statement's sentence holds a step that names an action of
the task (or, read without the task, any step whose first word is no common English word); text after it that
names no action (a remark, an atom of the goal, an empty plan "(none)") leaves the statement last. A section
that is only an empty plan (``(none)``, ``[]``, "Plan: none") after a heading is read with the statement before
that heading.
"""

from __future__ import annotations

import re

from acpgen.nl.answer_reader import ACTION, Reader
from acpgen.nl.answers import ParseError, answer_section, reply_text
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


# ----- "no plan exists" --------------------------------------------------------------------------------
#: what acp writes for "no plan reaches the goal" (reference answers; a PlanBench answer that says so, as read)
NO_PLAN_ANSWER = "There is no plan: the goal cannot be reached from the current state."


class NoPlan(list[Step]):
    """The answer that no plan exists (:func:`read_plan`): an empty list of steps, as a reader of steps returns
    it, with the ``statement`` that says so."""

    def __init__(self, statement: str):
        super().__init__()
        self.statement = statement


# the words of a statement (module docstring), matched on the answer section in lower case (:func:`_lowered`)
_ADJ_WORDS = (
    r"valid|possible|feasible|legal|executable|correct|such|viable|working|applicable|available|existing|single|"
    r"complete|successful|suitable|finite"
)
_ADJ = rf"(?:(?:{_ADJ_WORDS})\s+)*"
_PLAN_NOUN = (
    r"(?:plans?|solutions?|sequences?(?:\s+of\s+(?:actions|moves|steps|operations))?|"
    r"series\s+of\s+(?:actions|moves|steps)|action\s+(?:sequences?|plans?)|(?:set|combination)\s+of\s+actions)"
)
_GOAL_NOUN = r"(?:goals?|target|objective|problem|task|it|them|this|that|configuration|arrangement|state|conditions?)"
_DETERMINERS = r"(?:(?:the|this|that|your|all|these|those|its|such|every|each|both|my|our|a|an|any|of)\s+)*"
_GOAL_VERB = (
    r"(?:achieve|reach|satisfy|attain|accomplish|fulfil|fulfill|meet|solve|realize|realise|obtain|get\s+to|"
    r"arrive\s+at|produce|create|generate|build|form|make\s+true)"
)
_REACH_GOAL = rf"{_GOAL_VERB}\s+{_DETERMINERS}(?:[\w-]+\s+){{0,3}}?{_GOAL_NOUN}"
_PLAN_VERB = (
    r"(?:find|produce|generate|construct|create|give|provide|devise|write|come\s+up\s+with|formulate|make|build|"
    r"compute|output|have)"
)
_STRONG = r"(?:impossible|unachievable|unattainable|unreachable|unsolvable|unsatisfiable|infeasible|insoluble)"
_IMPOSSIBLE = (
    rf"(?:{_STRONG}|not\s+(?:achievable|attainable|reachable|solvable|satisfiable|feasible|possible|realizable|"
    r"realisable)|never\s+(?:achievable|attainable|reachable|possible))"
)
_CANNOT = (
    r"(?:cannot|can\s*not|can't|can\u2019t|could\s+not|couldn't|couldn\u2019t|will\s+never|can\s+never|could\s+never|"
    r"is\s+never\s+going\s+to)"
)
_DONE = (
    r"(?:achieved|reached|satisfied|accomplished|attained|solved|met|fulfilled|fulfiled|realized|realised|obtained|"
    r"made\s+true)"
)
_SUBJECT = (
    r"(?:goals?(?:\s+(?:state|configuration|conditions?|literals?|facts?|atoms?))?|target(?:\s+(?:state|"
    r"configuration))?|objective|(?:planning\s+)?problem|task|(?:desired|final|required|requested|specified)\s+"
    r"(?:state|configuration|arrangement|outcome))"
)
_BETWEEN = r"(?:\s+[\w'\u2019-]+){0,8}?"  # the words between a subject and its verb ("the goal you've specified is")
_COPULA = r"(?:is|are|remains|remain|seems|seem|appears|appear|becomes|would\s+be|will\s+be|was|were|'s|\u2019s)"
_ADVERBS = (
    r"(?:(?:therefore|thus|clearly|simply|logically|physically|fundamentally|hence|also|actually|inherently|"
    r"entirely|completely|totally|truly|indeed|definitely|provably|so|then|in\s+fact|ultimately|unfortunately)\s+)*"
)
_NOT_TO = r"(?:\s+to\s+" + _GOAL_VERB + r"\b(?!\s+(?:a|an|the|any|this|that|it)\b))?(?!\s+(?:to|for)\b)"
_PRONOUN = r"(?<![\w'\u2019-])(?:this|it)\s+"
#: where a statement's first word may start: after no letter or digit (an underscore of emphasis, as "_No plan")
_START = r"(?<![a-z0-9])"
_PRONOUN_FIRST = re.compile(r"(?:this|it)\s")
_STATEMENT = re.compile(
    "|".join(
        [
            # no plan exists; there is no valid plan; no sequence of actions can ...; no such plan
            rf"{_START}no\s+{_ADJ}{_PLAN_NOUN}\b",
            rf"{_START}no\s+(?:possible\s+|valid\s+)?actions?\s+(?:(?:are|is)\s+)?(?:possible|can|could|will|would|lead)\b",
            rf"{_START}no\s+way\s+to\s+(?:ever\s+)?{_REACH_GOAL}\b",
            # there is not a plan; such a plan does not exist
            rf"{_START}there\s+(?:is\s+not|isn't|isn\u2019t|are\s+not|aren't|aren\u2019t|exists?\s+not)\s+(?:a|any|an)\s+"
            + rf"{_ADJ}{_PLAN_NOUN}\b",
            rf"{_START}(?:a|any|such\s+a|the)\s+{_ADJ}{_PLAN_NOUN}(?:\s+[\w'\u2019-]+){{0,6}}?\s+(?:does\s+not|doesn't|"
            r"doesn\u2019t|cannot|can't|can\s+not|do\s+not|don't)\s+exist\b",
            # the goal is impossible / unreachable / impossible to achieve; the goal cannot be reached
            rf"{_START}{_SUBJECT}{_BETWEEN}\s+(?:{_COPULA}\s+)?{_ADVERBS}{_IMPOSSIBLE}\b{_NOT_TO}",
            rf"{_START}{_SUBJECT}{_BETWEEN}\s+{_CANNOT}\s+(?:ever\s+|possibly\s+|all\s+|both\s+)*(?:be\s+)?{_DONE}\b",
            rf"{_START}{_SUBJECT}{_BETWEEN}\s+{_CANNOT}\s+(?:ever\s+|possibly\s+)*(?:all\s+|both\s+)?(?:hold|be\s+true)\b",
            # this is impossible; it cannot be achieved (in a sentence that names the goal, or alone: _states)
            rf"{_PRONOUN}{_COPULA}\s+{_ADVERBS}{_IMPOSSIBLE}\b{_NOT_TO}",
            rf"{_PRONOUN}{_CANNOT}\s+(?:ever\s+|possibly\s+)*be\s+{_DONE}\b",
            # impossible to reach the goal; not possible to find a plan
            rf"{_START}(?:impossible|not\s+possible|not\s+feasible|infeasible|not\s+achievable)\s+to\s+(?:ever\s+)?"
            + rf"(?:{_REACH_GOAL}|{_PLAN_VERB}\s+{_DETERMINERS}{_ADJ}{_PLAN_NOUN})\b",
            # we cannot reach the goal (not "I cannot find a plan": a model's failure says nothing of the task)
            rf"{_START}(?:we|you|one|i|the\s+agent|the\s+robot)\s+{_CANNOT}\s+(?:ever\s+|possibly\s+)*{_REACH_GOAL}\b",
            # a verdict alone on its line, or opening it: "Impossible.", "Unsolvable", "Impossible: the goal ..."
            r"(?:^|\n)[^\w\n]*(?:impossible|unsolvable|unachievable|unreachable|unsatisfiable|infeasible|"
            r"not\s+possible|not\s+solvable)(?:[^\w\n]*(?=\n|$)|[^\S\n]*[.:!\u2014\u2013-](?=\s))",
        ]
    ),
)
# what makes a statement none: a negation of it in its clause, a condition before it in its clause, a hedge
# before it in its phrase, a qualification right after it ("without first ...", "shorter", "is needed")
_NEGATED = re.compile(
    rf"\b(?:not|never|hardly|no\s+means|isn't|isn\u2019t|aren't|aren\u2019t|wasn't|wasn\u2019t)\s+(?:\w+\s+){{0,2}}?{_STRONG}|"
    r"\b(?:not\s+(?:true|the\s+case|correct)|false|wrong|incorrect|untrue)\s+(?:to\s+say\s+)?that\b|\bnot\s+that\b",
)
_CONDITIONAL = re.compile(
    r"\b(?<!even\s)(?:if|unless|whether|when|whenever|assuming|suppose|supposing|otherwise|without|until|before|"
    r"once)\b",
)
_HEDGE_WORDS = r"may|might|perhaps|maybe|probably|likely"
_HEDGE = re.compile(rf"\b(?:{_HEDGE_WORDS}|possibly)\b")
# inside a statement ("the goal might be impossible"); "possibly" is a statement's own ("cannot possibly be reached")
_HEDGE_INSIDE = re.compile(rf"\b(?:{_HEDGE_WORDS})\b")
# what follows words that are no statement: a plan or solution not offered ("no plan provided", "no solution
# found": the prompt's, or the model's failure), or steps called impossible ("contains impossible steps")
_NOT_STATED_AFTER = re.compile(
    r"\s+(?:(?:is|was|were|are|has\s+been|have\s+been)\s+)?(?:provided|given|shown|found|listed|included|supplied)\b|"
    r"\s+(?:steps?|actions?|moves?|operations?)\b"
)
_QUALIFIER = (
    r"(?:without|unless|until|before|except|other\s+than|apart\s+from|besides|if|shorter|longer|fewer|less|more|"
    r"better|cheaper|faster|quicker|sooner|smaller|directly|immediately|yet|alone|by\s+itself|in\s+(?:one|a\s+single|"
    r"just\s+one|only\s+one|\d+|two|three|four|five)\s+(?:steps?|moves?|actions?)|needed|required|necessary|"
    r"at\s+this\s+point|at\s+the\s+moment|right\s+now|anymore|any\s+more)"
)
_QUALIFIED = re.compile(rf"(?:\s*,)?(?:\s+[\w'\u2019-]+){{0,5}}?\s+{_QUALIFIER}\b")
_QUALIFIED_INSIDE = re.compile(rf"\b{_QUALIFIER}\b")  # "the goal directly is not possible"
_SENTENCE_END = re.compile(r"[.!?](?=[\s)\]\"'_]|$)|\n")
_CLOSING = ")]\"'_ \t"
_CLAUSE_MARKS = ".!?;:\n"
_PHRASE_MARKS = ".!?;:,\n"
_NAMES_THE_GOAL = re.compile(r"\b(?:goals?|plans?|problem|task|solution|objective)\b")


_SENTENCE = 400  # the most characters a sentence is looked at around a statement, before it and after it
_CANDIDATES = 256  # the most matches of a statement's words looked at, the last ones (a text made of them)


def _mark_before(text: str, at: int, marks: str) -> int:
    """Where the clause (or phrase) that holds position ``at`` starts: after the last of ``marks`` before it, at
    most ``_SENTENCE`` characters back."""
    start = max(0, at - _SENTENCE)
    return max(max(text.rfind(mark, start, at) for mark in marks) + 1, start)


def _sentence_end(text: str, at: int) -> int:
    """The end of the sentence from position ``at``: after its full stop (or line) and the brackets closing it, at
    most ``_SENTENCE`` characters on."""
    limit = min(len(text), at + _SENTENCE)
    found = _SENTENCE_END.search(text, at, limit)
    end = found.end() if found else limit
    closing = min(len(text), end + 16)
    while end < closing and text[end] in _CLOSING:
        end += 1
    return end


def _states(text: str, match: re.Match[str], end: int) -> bool:
    """Whether a match of the statement's words states that no plan exists (see the module docstring)."""
    start = match.start()
    clause = _mark_before(text, start, _CLAUSE_MARKS)
    if _CONDITIONAL.search(text, clause, start) or _HEDGE.search(text, _mark_before(text, start, _PHRASE_MARKS), start):
        return False
    if _NEGATED.search(text, clause, match.end()):
        return False
    if _HEDGE_INSIDE.search(match.group(0)) or _NOT_STATED_AFTER.match(text, match.end(), end):
        return False
    if _QUALIFIED.match(text, match.end(), end) or _QUALIFIED_INSIDE.search(match.group(0)):
        return False
    if text[match.end() : end].rstrip(_CLOSING + ".\n").endswith("?"):
        return False
    if _PRONOUN_FIRST.match(match.group(0)):  # "this"/"it": a sentence that names the goal, or the pronoun alone
        sentence = _mark_before(text, start, ".!?\n")
        alone = not text[sentence:start].strip(" \t([*-") and not text[match.end() : end].strip(_CLOSING + ".!\n")
        return alone or _NAMES_THE_GOAL.search(text, sentence, end) is not None
    return True


# The word every statement holds (its negation or its adjective), without its first letter, which a character class
# matches (so that the regular expression engine skips ahead to the next of those letters): the statement's words
# are matched only around these, and a long answer without them costs one quick scan
_ANCHOR_WORDS = (
    rf"(?:o\s+(?:{_ADJ_WORDS}|plan|solution|sequence|series|action|set|combination|way)|"
    r"ot\s+(?:achievable|attainable|reachable|solvable|satisfiable|feasible|possible|realizable|realisable)|ever\b|"
    r"here\s+(?:is\s+not|isn|are\s+not|aren|exists?\s+not)|xist\b|mpossible|nfeasible|nsoluble|"
    r"n(?:achievable|attainable|reachable|solvable|satisfiable)|an(?:not|\s+not|'t|\u2019t|\s+never)|"
    r"ould(?:n't|n\u2019t|\s+not|\s+never))"
)
_ANCHOR = re.compile(rf"[nteiuc]{_ANCHOR_WORDS}")
_REACH = 240  # characters before an anchor a statement may start (a subject, eight words, adverbs)


_EMPHASIS_MARKS = str.maketrans("*`", "  ")


def _lowered(text: str) -> str:
    """``text`` in lower case, each character where it was (one whose lower case is longer kept as it is), and
    markdown's emphasis and code marks blanks ("it is **not possible**", where the answer keeps its markdown): the
    statement's words are matched in lower case, which is quicker than ignoring case."""
    lower = text.lower()
    if len(lower) != len(text):
        lower = "".join(c if len(low := c.lower()) != 1 else low for c in text)
    return lower.translate(_EMPHASIS_MARKS)


def _windows(text: str) -> list[tuple[int, int]]:
    """The stretches of ``text`` around its anchors, from ``_REACH`` characters before one to the end of the line
    after it, overlapping ones joined."""
    windows: list[tuple[int, int]] = []
    for anchor in _ANCHOR.finditer(text):
        start = max(0, anchor.start() - _REACH)
        line_end = text.find("\n", anchor.end())
        end = len(text) if line_end < 0 else line_end
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(windows[-1][1], end))
        else:
            windows.append((start, end))
    return windows


def no_plan_statement(text: str) -> tuple[int, int] | None:
    """The span of the last sentence of ``text`` that states that no plan exists (up to its full stop or the end
    of its line, and the brackets closing it), or None (see the module docstring). Reading takes time in proportion
    to the length of the text: of the words that may make a statement, the last 256 are looked at (a text with more
    is made of them)."""
    text = _lowered(text)
    candidates = [match for start, stop in _windows(text) for match in _STATEMENT.finditer(text, start, stop)]
    for match in reversed(candidates[-_CANDIDATES:]):  # the last one that states it
        end = _sentence_end(text, match.end())
        if _states(text, match, end):
            return _mark_before(text, match.start(), ".!?\n"), end
    return None


_NOT_STEPS = frozenset(
    "none nil null nothing empty noop no-op no the a an and or but so thus therefore hence this that these those it "
    "its there here since because as note i we you they if then which when where while given in on of to for with "
    "by from all any each every plan".split()
)
#: words no action's arguments hold (object names are no such words): a line that holds them explains
#: ("Specifically, the goal requires that b is on a"), where no reader knows the task's actions
_PROSE_ARGS = frozenset(
    "the that this these those is are was were be been must should would will can cannot could requires require "
    "needs need because since which where while".split()
)
_EMPTY_PLAN_LENGTH = 40  # the longest section read as an empty plan ("Plan: (none)")
_EMPTY_PLAN = re.compile(
    r"[\s\W]*(?:\(\s*\)|\[\s*\]|\[\s*none\s*\]|(?:plan\s*:?\s*)?(?:\(\s*)?(?:none|nil|null|nothing|"
    r"no[- ]?op|no\s+actions?|(?:an?\s+|the\s+)?empty(?:\s+plan)?)(?:\s*\))?)[\s\W]*",
    re.IGNORECASE,
)


def _offers_plan(text: str, reader: Reader | None) -> bool:
    """Whether ``text`` holds a step of a plan: one that names an action of the task (or starts with an action's
    verb), read with ``reader``; without it, a step whose first word is a name and no common English word."""
    try:
        steps = read_steps(text, reader)
    except ParseError:
        return False
    for step in steps:
        if reader is not None:
            if step.name in reader.lifted.schemas or (
                step.name is None and _first_word(step.text.strip("()")) in reader.verbs
            ):
                return True
        elif step.name is not None and step.name not in _NOT_STEPS and _PROSE_ARGS.isdisjoint(step.args):
            return True
    return False


def read_plan(response: str, reader: Reader | None = None) -> list[Step]:
    """The answer of a response to "write a plan": its steps (:func:`read_steps`), or :class:`NoPlan` when its
    final statement says that no plan exists (the one reading rule, module docstring): a statement in the answer
    section with no step of a plan after it, or before an answer section that is only an empty plan.
    ``ParseError`` when the answer holds neither."""
    section = answer_section(response)
    found = no_plan_statement(section)
    text = section
    if found is None and len(section) <= _EMPTY_PLAN_LENGTH and _EMPTY_PLAN.fullmatch(section):  # under a heading
        full = reply_text(response)
        before = full[: max(full.rfind(section), 0)]
        text = before + section
        found = no_plan_statement(before)
    if found is not None and not _offers_plan(text[found[1] :], reader):
        return NoPlan(" ".join(text[found[0] : found[1]].split()))
    return read_steps(response, reader)
