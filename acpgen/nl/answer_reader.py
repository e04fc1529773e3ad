"""Reading a free answer (a set of fluents or actions, an action, a number) exactly, without a judge.

An answer may name atoms and actions in PDDL syntax, ``(clear b2)``, ``(not (clear b2))``, or in
acp's own English as the domain template writes them, "b2 is clear", "blocks b1 and b3 are
clear" (the template's plural grouping), "b2 is not clear" / "it is not the case that b2 is
clear" (negation). English is read by turning every predicate and action text of the template
into a regular expression; an answer is cut at semicolons, line breaks and full stops, each part
into pieces at commas and "and", and consecutive pieces are joined again where together they
read as one fact (so "cars c0, c3, and c5 are at location l1" stays one fact). Only type-correct
atoms and actions of the task are kept; what reads as nothing is returned as unread text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from acpgen.nl.answers import answer_section
from acpgen.nl.template import PLACEHOLDER, DomainTemplate
from acpgen.pddl.model import LiftedTask, canonical, split_canonical
from acpgen.proofs.change.literals import literal_atom, negated

_NAME = r"[a-z0-9][a-z0-9_-]*"
_ALL_NAMES = re.compile(r"[a-z][a-z0-9_-]*(?: [a-z0-9][a-z0-9_-]*)*")
_LIST = rf"{_NAME}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+){_NAME})*"
# commas and "and" between pieces; a run of blanks is tried once, from its start (the lookbehind), so
# that reading takes time in proportion to the text however long its runs of blanks are
_SPLIT = re.compile(r"(?<!\s)\s+(?:,\s*(?:and\s+)?|and\s+)|,\s*(?:and\s+)?")
_BLANK = re.compile(r"\s")
# where an answer is cut into parts (the blanks around a cut are stripped from the parts)
_PART_END = re.compile(r";|\n|:\s|\.(?:\s|$)|\. ?$")  # a lead-in ends at its colon
_PDDL = re.compile(r"\(\s*not\s*\(\s*([a-z][^()]*)\)\s*\)|\(\s*([a-z][^()]*)\)", re.IGNORECASE)
# between and around the groups of an answer in PDDL syntax: separators and list punctuation, not words
_BETWEEN_GROUPS = re.compile(r"(?:[\s,;.:*\u2022`'\"\[\]{}-]|\band\b)+")
_NONE = re.compile(r"^(?:none|nothing|no (?:fluents?|properties|actions?|facts?)|the empty (?:set|list)|\[\s*\])$")
_NEGATED_PREFIX = ("it is not the case that ", "it is not true that ", "not ")
# An English negation right before a PDDL atom ("it is not the case that (clear b2)", "not (clear b2)"): the
# way acp writes a false fact of a domain whose facts have no words of their own (an obfuscated domain)
_NEGATIONS_BEFORE = ("it is not the case that", "it is not true that", "not")
_NEGATION_REACH = 40  # characters before an atom searched for that negation
_NEGATION_WORDS = re.compile(r"\bit is not (?:the case|true) that\b|\bnot\b")
_VERBS = ((" is ", " is not "), (" are ", " are not "), (" has ", " does not have "), (" have ", " do not have "))
# Reading one step of a plan written in words (see Reader.step): the numbering, bullets and labels before it,
# the connectives that lead into it ("First,", "Next,", "After that,"), a final remark in parentheses
_STEP_LEAD = re.compile(
    r"^(?:\s*(?:[-*\u2022>#]+|\d+\s*[.):]|(?:step|action)\s*\d*\s*[.):-]?|(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|"
    r"then|next|now|after\s+that|afterwards|finally|lastly|subsequently|and|simply|just|only)\s*[,:]?)(?=\s|$))+\s*",
    re.IGNORECASE,
)
# numbering before an item ("1.", "2)", "Step 3:"): neither an item nor words read as nothing
_NUMBERING = re.compile(r"^[ \t]*(?:[-*\u2022][ \t]*)?(?:step[ \t]*)?\d+[ \t]*[.):]", re.IGNORECASE | re.MULTILINE)
_LEADING_NUMBER = re.compile(r"^(?:step\s*)?\d+\s*[.):]\s*", re.IGNORECASE)
_LEADING_AND = re.compile(r"^and\s+")  # the last item of a list cut at semicolons: "a; b; and c"
_STEP_REMARK = re.compile(r"\s*\([^()]*\)\s*$")
_STEP_END = " \t.;:,!"
_WORD = re.compile(r"[a-z0-9][a-z0-9_-]*")
# where a line of steps in words is cut into steps: sentence ends, ", then", "and then"
_STEP_CUT = re.compile(r"(?<=[.;!?])\s+|,?\s+and\s+then\s+|,\s*then\s+", re.IGNORECASE)
ACTION, UNREADABLE, PROSE = "action", "unreadable", "prose"
NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
}


@dataclass
class Reading:
    """What an answer names: literals (``(p a)`` / ``(not (p a))``) or actions in canonical form, in
    answer order without repeats; ``unread``: parts that name nothing; ``none``: it says "none";
    ``outside``: for an answer in PDDL syntax, the words outside its groups (prose the reading leaves
    out; the strict reading counts them as unread)."""

    items: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    none: bool = False
    _seen: set[str] = field(default_factory=set, repr=False, compare=False)  # the items, for a quick test

    def add(self, item: str) -> None:
        if item not in self._seen:
            self._seen.add(item)
            self.items.append(item)


def _negated_before(before: str) -> bool:
    """Whether ``before`` ends in one of the negations (blanks after it aside), the negation's first word a
    word of its own (not the end of a longer one): a test of the text's end, in time independent of its length."""
    stem = before.rstrip()
    for phrase in _NEGATIONS_BEFORE:  # none is the end of another: the first that ends the text decides
        if stem.endswith(phrase):
            start = len(stem) - len(phrase)
            return start == 0 or not (stem[start - 1].isalnum() or stem[start - 1] == "_")
    return False


@dataclass(frozen=True)
class _Pattern:
    regex: re.Pattern[str]
    name: str
    variables: tuple[str, ...]
    merge: str | None
    positive: bool
    separators: int  # commas and "and" of the text itself (a match spans this many pieces more than its list)
    required: str  # the longest stretch of the text's own words: a text it reads holds it as it is


def _compile(text: str, variables: tuple[str, ...], merge: str | None) -> str:
    out, position = "", 0
    for match in PLACEHOLDER.finditer(text):
        out += re.escape(text[position : match.start()].lower())
        var = match.group(1)
        group = "v" + str(variables.index(var))
        out += f"(?P<{group}>{_LIST if var == merge else _NAME})"
        position = match.end()
    return out + re.escape(text[position:].lower())


def _negations(text: str) -> list[str]:
    """Negated forms of a positive text: the verb negated, or a negating prefix."""
    forms = [prefix + text for prefix in _NEGATED_PREFIX]
    for verb, negative in _VERBS:
        if verb in f" {text} ":
            padded = f" {text} ".replace(verb, negative, 1)
            forms.append(padded[1:-1])
            break
    return forms


class Reader:
    """Reads answers about one task (its objects) in PDDL syntax or in its template's English."""

    def __init__(self, lifted: LiftedTask, template: DomainTemplate | None):
        self.lifted = lifted
        self.template = template
        self.atom_patterns: list[_Pattern] = []
        self.action_patterns: list[_Pattern] = []
        #: what each stretch of text read as, by (text, atoms): answers repeat their facts and actions
        self._read_as: dict[tuple[str, bool], list[str]] = {}
        self._pddl_as: dict[tuple[str, bool], str | None] = {}  # the same for PDDL syntax
        if template is None:
            return
        for entry in template.predicates.values():
            texts = [(entry.text, None)] + ([(entry.plural, entry.merge)] if entry.plural and entry.merge else [])
            for text, merge in texts:
                self.atom_patterns.append(self._pattern(text, entry.name, entry.variables, merge, True))
                for negative in _negations(text):
                    self.atom_patterns.append(self._pattern(negative, entry.name, entry.variables, merge, False))
        for name in lifted.schemas:
            variables = tuple(template.schema_variables(lifted, name))
            self.action_patterns.append(self._pattern(template.actions[name.lower()], name, variables, None, True))

    @cached_property
    def _action_span(self) -> int:
        """The most pieces (or comma-separated parts) one action's text can span."""
        return 1 + max((p.separators for p in self.action_patterns), default=0)

    @cached_property
    def _fact_span(self) -> int:
        """The most pieces one fact's text can span: a plural one names at most every object once."""
        objects = len(self.lifted.objects)
        return max((p.separators + (objects if p.merge else 1) for p in self.atom_patterns), default=1)

    @cached_property
    def _worded_pieces(self) -> int:
        """The most pieces of one item's text that are not single names: the first and the last, and
        those the text's own commas make (a plural fact's list between them is single names)."""
        return 2 + max((p.separators for p in self.atom_patterns + self.action_patterns), default=0)

    @staticmethod
    @lru_cache(maxsize=4096)
    def _pattern(text: str, name: str, variables: tuple[str, ...], merge: str | None, positive: bool) -> _Pattern:
        """The compiled pattern of one template text (kept for the process: every reader of a domain's tasks
        compiles the same texts, and a pattern is immutable)."""
        text = " ".join(text.split())
        regex = re.compile(_compile(text, variables, merge))
        separators = len(_SPLIT.findall(PLACEHOLDER.sub("x", text.lower())))
        required = max(PLACEHOLDER.split(text.lower())[::3], key=len)  # split gives text, name, type, text, ...
        return _Pattern(regex, name, variables, merge, positive, separators, required)

    @cached_property
    def verbs(self) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
        """The actions a step in words may start with, by its first word: (action name, its variables in
        the order the words name them) for the first word of the action's name (``pick`` of ``pick-up``)
        and of its template text (``put`` of "put {b} down on the table")."""
        verbs: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        for name, schema in self.lifted.schemas.items():
            params = tuple(v.lstrip("?") for v, _ in schema.params)
            firsts = {name.lower(), re.split(r"[-_]", name.lower())[0]}  # pick-up: "pick-up a", "pick up a"
            order = params
            if self.template is not None and name.lower() in self.template.actions:
                text = self.template.actions[name.lower()]
                named = tuple(m.group(1) for m in PLACEHOLDER.finditer(text))
                if sorted(named) == sorted(params):
                    order = named
                lead = _WORD.findall(PLACEHOLDER.split(text.lower())[0])
                firsts |= set(lead[:1])
            for first in firsts:
                verbs.setdefault(first, []).append((name, order))
        return verbs

    def step(self, text: str) -> tuple[str, str | None]:
        """What one step written in words is: (``ACTION``, the action) when it names one action of the task,
        in the template's words (numbering, bullets, "Step 2:", "Action:", a lead such as "Next," or "Simply" and
        a final remark in parentheses left out) or as a verb of an action followed by the action's objects in
        the template's order, whatever the other words ("Sail the ferry from l0 over to l1", "stack b1 on top
        of b2"); (``UNREADABLE``, None) when it starts with an action's verb but its objects do not make one
        action of the task, or is PDDL-like words (names only, an object of the task among them) whose first
        word is no action; (``PROSE``, None) for anything else: a heading, an explanation, a remark, a line that
        states facts in the template's words."""
        body = _STEP_LEAD.sub("", " ".join(text.split()), count=1)
        body = _STEP_REMARK.sub("", body).strip(_STEP_END).strip("\"'")
        lower = body.lower()
        lead = _WORD.search(lower)
        if lead is None:
            return PROSE, None
        candidates = self.verbs.get(lead.group(0))  # every action's text starts with one of its verbs
        if candidates:
            action = self.one(body, atoms=False)
            if action is not None:
                return ACTION, action
            if self._states_facts(body):  # "Now driver bob is driving van v2." under a step: an explanation
                return PROSE, None
            # the objects named after the verb, as many as an action of the verb takes at most (more: none is it)
            objects = self._objects(lower, lead.end(), max(len(order) for _, order in candidates))
            found = []
            for name, order in candidates:
                if len(order) != len(objects):
                    continue
                given = dict(zip(order, objects))
                params = [v.lstrip("?") for v, _ in self.lifted.schemas[name].params]
                action = canonical(name, [given[v] for v in params])
                if self._action_ok(action):
                    found.append(action)
            return (ACTION, found[0]) if len(set(found)) == 1 else (UNREADABLE, None)
        words = _WORD.findall(lower)
        objects = [w for w in words[1:] if w in self.lifted.objects]
        if objects and len(objects) == len(words) - 1 and _ALL_NAMES.fullmatch(" ".join(words)):
            return UNREADABLE, None  # a name and the task's objects: PDDL syntax without parentheses
        return PROSE, None

    def _objects(self, lower: str, start: int, most: int) -> list[str]:
        """The task's objects among the words of ``lower`` from ``start`` on, in order; the first ``most + 1`` of
        them when there are more (the words after them are not read)."""
        objects = []
        for match in _WORD.finditer(lower, start):
            if match.group(0) in self.lifted.objects:
                objects.append(match.group(0))
                if len(objects) > most:
                    break
        return objects

    def _states_facts(self, text: str) -> bool:
        """Whether ``text`` reads, all of it, as facts in the template's words: a line that explains a step
        ("driver bob is in city oslo and van v2 has no driver"), where a template's action texts start with
        the words of its facts (the subject first: "driver {d} boards van {v}")."""
        if self.template is None or not self.may_name(text, atoms=True):
            return False
        reading = self.read_section(text, atoms=True, wholly=True)
        return bool(reading.items) and not reading.unread and not reading.none

    def may_name(self, section: str, atoms: bool) -> bool:
        """Whether the section may name a fact (``atoms``) or an action in words: it holds the longest stretch of
        some fact's text, or the verb of some action (substring searches, a pass over the text each, in C);
        when it does not, reading it sentence by sentence would find nothing."""
        lower = section.lower()
        if atoms:
            return any(p.required in lower for p in self.atom_patterns)
        return any(verb in lower for verb in self.verbs)

    def first(self, section: str, atoms: bool) -> str | None:
        """The first fact (``atoms``: a positive atom) or action that the template's words name anywhere in an
        answer section, in a sentence or not ("The answer is: the ferry is at location l1.", "The best next
        action is to sail the ferry from location l0 to location l1"), or None. A fact under a negation
        ("b2 is not clear", "it is not the case that b2 is clear") is passed over."""
        if not self.may_name(section, atoms):
            return None
        text = " ".join(section.lower().split())
        best: tuple[int, int, str] | None = None
        for pattern in self.atom_patterns if atoms else self.action_patterns:
            if not pattern.positive or pattern.required not in text:
                continue
            for match in pattern.regex.finditer(text):
                if best is not None and match.start() > best[0]:
                    break
                found = self._match(match.group(0), atoms)
                if not found or (
                    atoms and _negated_before(text[max(0, match.start() - _NEGATION_REACH) : match.start()])
                ):
                    continue
                candidate = (match.start(), -len(match.group(0)), found[0])
                if best is None or candidate < best:
                    best = candidate
                break
        return None if best is None else best[2]

    def steps(self, section: str) -> list[tuple[str, str, str | None]]:
        """The steps of a plan written in words, one a line or several a line (sentences, ", then"), as
        (text, kind, action) in order (:meth:`step`), prose left out."""
        out: list[tuple[str, str, str | None]] = []
        if not self.may_name(section, atoms=False):
            return out
        for line in section.splitlines():
            for unit in _STEP_CUT.split(_STEP_LEAD.sub("", line.strip(), count=1)):
                kind, action = self.step(unit)
                listed = (
                    self.sequence(_STEP_LEAD.sub("", unit.strip(), count=1).strip(_STEP_END))
                    if kind == UNREADABLE and "," in unit
                    else None
                )
                if listed is not None and len(listed) > 1:  # actions in words separated by commas
                    out += [(item, ACTION, item) for item in listed]
                elif kind != PROSE:
                    out.append((unit.strip(), kind, action))
        return out

    # ----- validity against the task ---------------------------------------------------------------
    def _atom_ok(self, atom: str) -> bool:
        name, args = split_canonical(atom)
        types = self.lifted.predicates.get(name)
        return (
            types is not None
            and len(types) == len(args)
            and all(a in self.lifted.objects_of(t) for a, t in zip(args, types))
        )

    def _action_ok(self, action: str) -> bool:
        name, args = split_canonical(action)
        schema = self.lifted.schemas.get(name)
        return (
            schema is not None
            and len(schema.params) == len(args)
            and all(a in self.lifted.objects_of(t) for a, (_, t) in zip(args, schema.params))
        )

    # ----- reading -----------------------------------------------------------------------------
    def _pddl_item(self, match: re.Match[str], atoms: bool) -> str | None:
        """The literal (``atoms``; ``(not (p a))`` negated) or action a match of ``_PDDL`` writes, in canonical
        form; None when it is no valid atom or action of the task (an action's ``not`` is dropped)."""
        key = (match.group(0), atoms)
        if key not in self._pddl_as:
            self._pddl_as[key] = self._pddl_read(match, atoms)
        return self._pddl_as[key]

    def _pddl_read(self, match: re.Match[str], atoms: bool) -> str | None:
        item = "(" + " ".join(re.sub(r"[,\s]+", " ", match.group(1) or match.group(2)).split()) + ")"
        if not (self._atom_ok(item) if atoms else self._action_ok(item)):
            return None
        return negated(item) if atoms and match.group(1) is not None else item

    def literals(self, response: str) -> Reading:
        return self._read(response, atoms=True)

    def actions(self, response: str) -> Reading:
        return self._read(response, atoms=False)

    def one(self, text: str, atoms: bool) -> str | None:
        """The single literal (``atoms``) or action a short text names (PDDL syntax or the template's
        English), or None when it names none or several."""
        text = " ".join(text.lower().split()).strip(" .\"'")
        for prefix in _NEGATED_PREFIX[:2]:  # "it is not the case that (p a)": PDDL syntax under an English negation
            if atoms and text.startswith(prefix) and text[len(prefix) :].lstrip().startswith("("):
                inner = self.one(text[len(prefix) :], atoms)
                return None if inner is None or not literal_atom(inner)[1] else negated(inner)
        pddl = list(_PDDL.finditer(text))
        if pddl:
            if len(pddl) != 1 or pddl[0].group(0) != text:
                return None
            return self._pddl_item(pddl[0], atoms)
        found = self._items(text, atoms)
        return found[0] if len(found) == 1 else None

    def sequence(self, text: str) -> list[str] | None:
        """The actions of a sequence written as a question writes it (actions separated by commas, in PDDL
        syntax or in English), in order and with repeats; None unless every stretch reads as one action."""
        text = " ".join(text.lower().split())
        if text.startswith("("):
            pieces = [m.group(0) for m in _PDDL.finditer(text)]
            actions = [self.one(p, atoms=False) for p in pieces]
            rest = _PDDL.sub("", text).replace(",", "").strip()
            return None if rest or None in actions else [a for a in actions if a is not None]
        parts = text.split(", ")
        # best[j]: the actions of parts[:j], each stretch of consecutive parts one action (None: no reading);
        # an action's text spans at most self._action_span parts
        # (every reading of more parts has a boundary among the last _action_span ends: none read, none reads on)
        best: list[list[str] | None] = [[]] + [None] * len(parts)
        for j in range(1, len(parts) + 1):
            for i in range(j - 1, max(-1, j - 1 - self._action_span), -1):
                before = best[i]
                if before is None:
                    continue
                action = self.one(", ".join(parts[i:j]), atoms=False)
                if action is not None:
                    best[j] = before + [action]
                    break
            if all(read is None for read in best[max(0, j - self._action_span + 1) : j + 1]):
                return None
        return best[-1]

    def _read(self, response: str, atoms: bool) -> Reading:
        return self.read_section(answer_section(response), atoms)

    def read_section(self, section: str, atoms: bool, wholly: bool = False) -> Reading:
        """The literals (``atoms``) or actions of an answer section (:func:`acpgen.nl.answers.answer_section`).
        ``wholly``: only whether all of it reads matters: the reading stops at the first piece proven unread
        (its items and unread pieces are then partial, with one unread piece at least)."""
        text = section.lower()
        reading = Reading()
        pddl = list(_PDDL.finditer(text))
        if pddl:
            for match in pddl:
                item = self._pddl_item(match, atoms)
                if item is None:
                    reading.unread.append(match.group(0))
                    continue
                if atoms and match.group(1) is None:
                    before = text[max(0, match.start() - _NEGATION_REACH) : match.start()]
                    item = negated(item) if "not" in before and _negated_before(before) else item
                reading.add(item)
            # words outside the groups (a negation of the next group aside) are read as nothing
            words = _PDDL.sub(" ", text)
            words = _BETWEEN_GROUPS.sub(" ", _NEGATION_WORDS.sub(" ", _NUMBERING.sub(" ", words))).strip()
            if words:
                reading.outside.append(words[:80])
            return reading
        start = 0
        for cut in [*_PART_END.finditer(text), None]:
            end = len(text) if cut is None else cut.start()
            part, start = text[start:end].strip().strip(" \t-*•:.\"'[]{}"), start if cut is None else cut.end()
            if not part:
                continue
            if _NONE.match(part):
                reading.none = True
                continue
            if part.isdigit():  # the number of a numbered item ("1. ...")
                continue
            unread = len(reading.unread)
            lead_in = cut is not None and cut.group().startswith(":")  # "The actions ... are:" names nothing
            read = _LEADING_AND.sub("", _LEADING_NUMBER.sub("", part, count=1), count=1)
            if not self._read_part(read, atoms, reading, wholly and not lead_in):
                return reading  # wholly: a piece no reading reads
            if lead_in and len(reading.unread) == unread + 1 and reading.unread[-1] == part:
                reading.unread.pop()
        return reading

    def _read_part(self, part: str, atoms: bool, reading: Reading, wholly: bool = False) -> bool:
        """Split a part into pieces at commas and "and"; join runs of pieces that read as one item.

        Of all ways to cut the pieces into runs, the one with the fewest unread pieces is kept (the
        first such found, runs ending early preferred). A run that reads as one item spans at most
        ``_fact_span`` pieces (a plural fact: one piece per object named, besides the template's own
        commas), and its inner pieces are single names (or empty) unless the template's text has
        commas of its own, so each piece is joined with a bounded number of earlier ones: reading
        takes time in proportion to the number of pieces. (A list that names an object more often than
        the task has objects, or an object named "and", is not read as one fact.)

        ``wholly``: stop, adding the part to the unread pieces and returning False, as soon as a piece is proven
        unread in every way of cutting: when every way of cutting the pieces so far leaves one unread in each of
        the last ``span`` ends (every cutting of the whole part has a run boundary among them). True otherwise."""
        # the pieces are cut as the reading comes to them (a reading that stops early cuts no more)
        cuts = _SPLIT.finditer(part)
        starts, ends = [0], []
        # worded[k]: how many of the first k pieces are not a single name (nor empty)
        worded = [0]
        span = self._fact_span if atoms else self._action_span
        limit = self._worded_pieces
        # best[j] = (unread pieces of parts[:j], start i of the last run, its items (empty: unread))
        none: list[str] = []
        best: list[tuple[int, int, list[str]]] = [(0, 0, none)]
        j = 0
        while True:
            cut = next(cuts, None)
            ends.append(len(part) if cut is None else cut.start())
            j += 1
            worded.append(worded[-1] + (_BLANK.search(part[starts[j - 1] : ends[j - 1]].strip()) is not None))
            here = (best[j - 1][0] + 1, j - 1, none)
            # the earliest start of a run ending at piece j - 1: at most `span` pieces, and (beyond one
            # piece) at most `limit` pieces that are not single names
            first = j - 1
            while first > 0 and first > j - span and worded[j] - worded[first - 1] <= limit:
                first -= 1
            end = ends[j - 1]
            for i in range(first, j):  # earliest start first, as the reading prefers
                unread = best[i][0]
                if unread >= here[0]:
                    continue
                found = self._items(part[starts[i] : end].strip(), atoms)
                if found:
                    here = (unread, i, found)
            best.append(here)
            if wholly and min(unread for unread, _, _ in best[max(0, j - span + 1) : j + 1]) > 0:
                reading.unread.append(part)
                return False
            if cut is None:
                break
            starts.append(cut.end())
        n = j
        runs: list[tuple[int, int, list[str]]] = []
        j = n
        while j > 0:
            _, i, found = best[j]
            runs.append((i, j, found))
            j = i
        for i, j, found in reversed(runs):
            if found:
                for item in found:
                    reading.add(item)
            else:
                piece = part[starts[i] : ends[j - 1]].strip()
                if _NONE.match(piece):
                    reading.none = True
                elif piece:
                    reading.unread.append(piece)
        return True

    def _items(self, text: str, atoms: bool) -> list[str]:
        """The items one stretch of text reads as (a plural fact gives several), or []."""
        key = (text, atoms)
        found = self._read_as.get(key)
        if found is None:
            found = self._read_as[key] = self._match(text, atoms)
        return found

    def _match(self, text: str, atoms: bool) -> list[str]:
        for pattern in self.atom_patterns if atoms else self.action_patterns:
            if pattern.required not in text:
                continue
            match = pattern.regex.fullmatch(text)
            if not match:
                continue
            lists = [
                [x for x in _SPLIT.split(match.group(f"v{k}")) if x] if var == pattern.merge else [match.group(f"v{k}")]
                for k, var in enumerate(pattern.variables)
            ]
            items = []
            for k, var in enumerate(pattern.variables):
                if var == pattern.merge:
                    for value in lists[k]:
                        args = [lists[m][0] if m != k else value for m in range(len(lists))]
                        items.append(canonical(pattern.name, args))
                    break
            else:
                items.append(canonical(pattern.name, [values[0] for values in lists]))
            if all(self._atom_ok(i) if atoms else self._action_ok(i) for i in items):
                return [i if pattern.positive else negated(i) for i in items]
        return []


def number_in(section: str) -> int | None:
    """The first whole number of an answer section (digits, or a number word up to twenty)."""
    text = section.lower()
    match = re.search(r"(?<![a-z0-9_-])-?\d+(?![a-z0-9_-])|\b(" + "|".join(NUMBER_WORDS) + r")\b", text)
    if match is None:
        return None
    return NUMBER_WORDS[match.group(1)] if match.group(1) else int(match.group(0))
