"""How a PlanBench config writes its domain's actions and objects in words (:class:`Wording`): the
built-in wordings of PlanBench's configs, a config read from its file, the wording of a domain's own names, and
one line of an answer read with a wording (numbering, bullets, labels, headings)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from pathlib import Path

import yaml

from acpgen.errors import DataError
from acpgen.pddl.model import LiftedTask, canonical

_SPACED = str.maketrans(
    {"*": " ", "`": " ", "\\": " "} | {c: f" {c} " for c in ".,;:!?()[]{}\"'\u2018\u2019\u201c\u201d\u2014\u2013"}
)
_EDGE_UNDERSCORES = re.compile(r"(?<![a-z0-9])_+|_+(?![a-z0-9])")
_BLOCK = re.compile(r"\s+block$")
_SLOT = "\x01"  # a template's slot while its words are put in plain form


def _plain(text: str) -> str:
    """Lower case, markdown emphasis and the word "the" left out, punctuation set apart by blanks, single
    blanks, one blank before and after: the form the wordings' patterns are matched against."""
    text = text.lower().translate(_SPACED)
    if "_" in text:
        text = _EDGE_UNDERSCORES.sub(" ", text)
    words = [word for word in text.split() if word != "the"]
    return f" {' '.join(words)} " if words else " "


def _key(name: str) -> str:
    """An action's name as answers vary it: ``pick-up``, ``pick_up``, ``Pick up`` and ``PickUp`` alike."""
    return re.sub(r"[\s_-]+", "", name.lower())


# words between an action's slots, and what answers write instead ("the" is left out of both)
_SYNONYMS = {
    "on top of": ("onto", "on to", "atop", "upon", "on"),
    "from on top of": ("off of", "off", "from top of", "off top of", "from atop", "from"),
    "from": ("off of", "off"),
    "into": ("in", "onto", "inside"),
}
# what may follow a step's last object: the end, punctuation (a remark), or a word opening a clause
_AFTER = (
    r"(?=$|[.,;:!?()\[\]{}\"'\u2018\u2019\u201c\u201d\u2014\u2013-]|(?:since|because|so|to|as|which|thus|thereby|"
    r"now|then|and|while|leaving|making|resulting|giving|after|before|using|with|for|where|until|if|when|once|it|"
    r"we|you|this|here|hence|therefore|but|in order|ensuring|allowing|freeing|clearing|achieving|completing|"
    r"keeping|creating|again|first|next|finally|successfully|directly|carefully|back|already|also) )"
)
# words before a step's verb: an adverb of sequence, a subject, "perform"
_PREFIX = re.compile(
    r" (?:(?:first|firstly|second|secondly|third|thirdly|then|next|finally|lastly|now|afterwards|after that|"
    r"subsequently|last|we|you|perform|execute|apply|do|,) )*"
)
_LABEL = re.compile(
    r"^\s*(?:(?:action|step|move|act)\s*\d*\s*[:.)\-\u2013\u2014]\s*|(?:action|step|move)\s+\d+\s+)", re.IGNORECASE
)


@dataclass(frozen=True)
class Reading:
    """What a line's words are: ``kind`` is ``step`` (``actions``: the actions it starts with),
    ``named`` (it starts with an action's verb whose objects cannot be read), ``mention`` (an action
    inside a sentence, ``actions``) or ``prose`` (no action named)."""

    kind: str
    actions: tuple[str, ...] = ()


PROSE = Reading("prose")
NAMED = Reading("named")


@dataclass(frozen=True)
class Wording:
    """How a PlanBench config writes its domain's actions and objects in words: ``actions`` maps an
    action to its template (``stack the {} on top of the {}``), ``objects`` an object to its name
    (``red block``): the config's ``actions`` and ``encoded_objects``. ``aliases`` are other names
    answers give actions and objects (``j4gv801gnu2it0yj`` for stack, ``o0`` for object ``a``);
    ``endings`` phrases a line of an action may end with, naming no object and changing nothing
    (``on the table`` after put-down: the table is where put-down puts a block)."""

    actions: Mapping[str, str]
    objects: Mapping[str, str]
    endings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    aliases: Mapping[str, str] = field(default_factory=dict)

    def arity(self, action: str) -> int:
        return self.actions[action].count("{}")

    @cached_property
    def bound(self) -> dict[frozenset[str], Wording]:
        """The wordings of :func:`_bound` made from this one, by the instance's objects."""
        return {}

    @cached_property
    def _with(self) -> dict[frozenset[tuple[str, str]], Wording]:
        return {}

    def with_aliases(self, aliases: Mapping[str, str]) -> Wording:
        """This wording with more names of objects (an answer's legend: ``r`` for the red block)."""
        if not aliases:
            return self
        key = frozenset(aliases.items())
        if key not in self._with:
            if len(self._with) > 256:
                self._with.clear()
            self._with[key] = Wording(self.actions, self.objects, self.endings, {**self.aliases, **aliases})
        return self._with[key]

    @cached_property
    def legend(self) -> re.Pattern[str]:
        """An object's name followed by a capital letter in parentheses: "Red block (R)"."""
        names = sorted((n for n in self.names if len(n) > 2), key=len, reverse=True)
        if not names:
            return re.compile("(?!)")
        alternatives = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in names)
        return re.compile(rf"(?i:\b({alternatives})(?:\s+block)?)\s*\(\s*([A-Z]{{1,2}})\s*\)")

    @cached_property
    def names(self) -> dict[str, str]:
        """The object each way of naming it stands for (in :func:`_plain` form, without blanks around):
        the config's name, ``red`` for ``red block`` (PlanBench's ground-truth plans write ``(unstack
        yellow orange)``), ``a``, ``object_a`` and ``object a`` for ``object a``, and the aliases."""
        out: dict[str, str] = {}

        def add(form: str, obj: str) -> None:
            form = form.strip()
            if form and out.setdefault(form, obj) != obj:
                raise DataError(f"the PlanBench wording names objects {out[form]} and {obj} alike ({form!r})")

        for obj, name in self.objects.items():
            plain = _plain(name).strip()
            forms = {plain, _BLOCK.sub("", plain)}
            inner = re.fullmatch(r"object[ _]?([a-z0-9]+)", plain)
            if inner:
                forms |= {inner.group(1), f"object {inner.group(1)}", f"object_{inner.group(1)}"}
            for form in forms:
                add(form, obj.lower())
        for alias, target in self.aliases.items():
            if target.lower() in self.objects:
                add(_plain(alias), target.lower())
        return out

    @cached_property
    def action_keys(self) -> dict[str, str]:
        """The action each way of naming it in a PDDL action or a call stands for (:func:`_key` form):
        the action's name, its verb (``pickup`` for ``pick up the {}``) when no other action shares it,
        and the aliases."""
        out = {_key(action): action for action in self.actions}
        verbs: dict[str, set[str]] = defaultdict(set)
        for action in self.actions:
            verbs[_key(" ".join(self._verb(action)))].add(action)
        for verb, actions in verbs.items():
            if verb and len(actions) == 1:
                out.setdefault(verb, next(iter(actions)))
        for alias, target in self.aliases.items():
            if target.lower() in self.actions:
                out[_key(alias)] = target.lower()
        return out

    def _words(self, action: str) -> list[str]:
        """The template's words, ``{}`` for each slot."""
        return [w if w != _SLOT else "{}" for w in _plain(self.actions[action].replace("{}", f" {_SLOT} ")).split()]

    def _verb(self, action: str) -> list[str]:
        words = self._words(action)
        return words[: words.index("{}")] if "{}" in words else words

    @cached_property
    def _slot(self) -> str:
        names = sorted(self.names, key=len, reverse=True)
        return "(" + "|".join(re.escape(name) for name in names) + ") "

    def _verb_forms(self, action: str) -> list[str]:
        """The verb as answers write it: ``pick up``, ``pickup``, ``pick-up``, the action's name, aliases."""
        verb = self._verb(action)
        forms = {" ".join(verb), "".join(verb), "-".join(verb), "_".join(verb), action}
        forms |= {_plain(alias).strip() for alias, target in self.aliases.items() if target.lower() == action}
        return sorted((f for f in forms if f), key=len, reverse=True)

    def _connector(self, words: list[str]) -> str:
        """The words between two slots, each of them optional, or a synonym; where the template has none
        (``j4gv801gnu2it0yj {} {}``), "and" or a preposition may be there."""
        if not words:
            return "(?:(?:and|,|with|to|from|onto|on) )?"
        phrase = " ".join(words)
        own = "".join(f"(?:{re.escape(word)} )?" for word in words)
        others = [re.escape(s) + " " for s in _SYNONYMS.get(phrase, ())]
        return f"(?:{'|'.join([*others, own])})" if others else own

    @cached_property
    def _patterns(self) -> list[tuple[str, re.Pattern[str]]]:
        """Each action's wording as a pattern over :func:`_plain` text: a form of its verb, then an
        object's name in each slot with the words between slots (each optional) or a synonym, an
        ending, and what may follow a step (:data:`_AFTER`); a verb of two words also around the
        object (``put the red block down``)."""
        if not self.names:
            return []
        patterns = []
        for action in self.actions:
            words, verb = self._words(action), self._verb(action)
            slots = [i for i, word in enumerate(words) if word == "{}"]
            if not slots:
                continue
            verbs = "(?:" + "|".join(re.escape(form) for form in self._verb_forms(action)) + ") "
            if all(right == left + 1 for left, right in pairwise(slots)) and slots[0] == len(verb):
                verbs += "(?:on |to |with )?"  # "perform j4gv801gnu2it0yj on object_0 and object_1"
            body = self._slot
            for left, right in pairwise(slots):
                body += self._connector(words[left + 1 : right]) + self._slot
            body += "".join(f"(?:{re.escape(word)} )?" for word in words[slots[-1] + 1 :])
            endings = [re.escape(_plain(ending).strip()) + " " for ending in self.endings.get(action, ())]
            ending = f"(?:{'|'.join(endings)})?" if endings else ""
            alternatives = [verbs + body + ending]
            if len(verb) == 2 and len(slots) == 1:
                alternatives.append(re.escape(verb[0]) + " " + self._slot + re.escape(verb[1]) + " " + ending)
                if endings:  # "put the red block on the table"
                    alternatives.append(re.escape(verb[0]) + " " + self._slot + f"(?:{'|'.join(endings)})")
            for alternative in alternatives:
                patterns.append((action, re.compile(alternative + _AFTER)))
        return patterns

    @cached_property
    def _verb_words(self) -> str:
        """An alternation of every action's verb and its first word (``pick up``, ``pick``), longest first."""
        forms = {form for action in self.actions for form in self._verb_forms(action)}
        words = sorted(forms | {form.split()[0] for form in forms}, key=len, reverse=True)
        return "(?:" + "|".join(re.escape(word) for word in words) + ")" if words else "(?!)"

    @cached_property
    def _verbs(self) -> re.Pattern[str]:
        """Any action's verb or its first word (``put``), at the start of the text given."""
        return re.compile(self._verb_words + r"(?=[ ,.:;(])")

    @cached_property
    def _any_verb(self) -> re.Pattern[str]:
        """Any action's verb or its first word, anywhere in :func:`_plain` text."""
        return re.compile(f" {self._verb_words} ")

    @cached_property
    def _further(self) -> re.Pattern[str]:
        """Any action's verb after "and", "then" or a comma: a further action on a line."""
        return re.compile(r"((?:,|;| and| then)(?: then)?) " + self._verb_words + " ")

    def _arguments(self, action: str, text: str, objects: Collection[str]) -> str | None:
        """The canonical action of ``action`` with the objects named in ``text`` (blanks or commas between
        them); None when one is not an object's name or their number is not the action's."""
        args: list[str] = []
        # "Feast(Object b, Object a)": names between commas; "Put down(red block)": the longest names in turn
        for part in text.split(",") if "," in text else [text]:
            words = [w for w in part.lower().strip(" .;:'\"").split() if w not in _CONNECTOR_WORDS]
            at = 0
            while at < len(words):
                for end in range(min(len(words), at + 3), at, -1):
                    name = self._name(" ".join(words[at:end]), objects)
                    if name is not None:
                        args.append(name)
                        at = end
                        break
                else:
                    return None
        return canonical(action, args) if len(args) == self.arity(action) else None

    def _name(self, text: str, objects: Collection[str]) -> str | None:
        """The object a name in an action's arguments stands for: an object of the instance, or a name of
        the wording (``red``, ``red block``, ``red_block``, ``object_a``)."""
        if text in objects:
            return text
        return self.names.get(text.replace("_", " ")) or self.names.get(text)

    def _group_action(self, inner: str, objects: Collection[str]) -> str | bool | None:
        """A PDDL action ``name arg ...`` as a canonical action; None: it names an action whose arguments
        cannot be read; False: it names no action."""
        words = inner.strip().split(maxsplit=1)
        action = self.action_keys.get(_key(words[0])) if words else None
        if action is None:
            return False
        return self._arguments(action, words[1] if len(words) > 1 else "", objects)

    def _calls(self, body: str, objects: Collection[str]) -> list[tuple[int, str | None]]:
        """The PDDL actions ``(name arg ...)`` and calls ``Name(arg, ...)`` of a line that name an action:
        (where it starts, the action or None when its arguments cannot be read)."""
        found = []
        for match in _CALL.finditer(body):
            caller, inner = match.group(1), match.group(2)
            if caller:
                words = caller.split()
                for first in range(len(words)):
                    action = self.action_keys.get(_key(" ".join(words[first:])))
                    if action is not None:
                        start = match.start() + caller.index(words[first])
                        read = self._arguments(action, inner, objects)
                        if read is None:  # the call's last objects after it: "Overcome(b) from c"
                            after = _CALL_TAIL.match(body, match.end())
                            read = self._arguments(action, f"{inner} {after.group(0)}", objects) if after else None
                        found.append((start, read))
                        break
                else:
                    caller = None
            if not caller:
                group = self._group_action(inner, objects)
                if group is not False:
                    found.append((match.start(2) - 1, group if isinstance(group, str) else None))
        return found

    def read(self, line: str, objects: Collection[str] = (), fits: Callable[[str], bool] | None = None) -> Reading:
        """What a line's body (numbering, bullets and labels removed) says (:class:`Reading`); ``objects``:
        the instance's, which PDDL actions may name; ``fits``: whether an action can be meant (its objects'
        kinds), asked when the words of several actions match."""
        calls = self._calls(line, objects) if "(" in line else []
        if calls and _PREFIX.fullmatch(_plain(line[: calls[0][0]])):
            if any(action is None for _, action in calls):
                return NAMED
            return Reading("step", tuple(action for _, action in calls if action is not None))
        text = _plain(_without_remarks(line))
        if not calls and not self._any_verb.search(text):
            return PROSE  # no action's verb anywhere: most lines of an answer
        reading = self._start(text, fits)
        if reading.kind in ("named", "prose") and (label := _WORD_LABEL.match(text)):
            # "Feast: perform feast d c", "Stack 1: orange block at the bottom": a label before the line's words
            after = self._start(text[label.end() - 1 :], fits)
            if after.kind == "step" or (reading.kind == "named" and after.kind == "prose"):
                return after
        if reading.kind != "prose":
            return reading
        mentions = [(at, action) for at, action in calls if action is not None]
        for action, pattern in self._patterns:
            for match in pattern.finditer(text):
                if text[match.start() - 1] == " ":
                    mentions.append((match.start(), canonical(action, [self.names[n.strip()] for n in match.groups()])))
        if mentions:
            return Reading("mention", tuple(action for _, action in sorted(mentions)))
        return PROSE

    def _start(self, text: str, fits: Callable[[str], bool] | None) -> Reading:
        """:meth:`read` for a line's words in :func:`_plain` form: the step it starts with, if any."""
        negated = _NEGATED.search(text)
        if negated is not None:  # "stack the red block on the blue block is not possible, so put it down"
            then = _SO.search(text, negated.end() - 1)
            return self._start(" " + text[then.end() :], fits) if then else PROSE
        at = _PREFIX.match(text).end()  # type: ignore[union-attr]
        found: dict[str, int] = {}
        for action, pattern in self._patterns:
            match = pattern.match(text, at)
            if match is not None:
                step = canonical(action, [self.names[name.strip()] for name in match.groups()])
                found.setdefault(step, match.end())
        if len(found) > 1 and fits is not None:
            found = {step: end for step, end in found.items() if fits(step)}
        if len(found) != 1:
            verb = self._verbs.match(text, at)
            if found or (verb is not None and not _NOT_AN_OBJECT.match(text, verb.end())):
                return NAMED
            return PROSE
        step, end = next(iter(found.items()))
        rest = text[end - 1 :]
        remark = _REMARK.search(rest)  # after a colon or a dash: a remark
        rest = rest[: remark.start() + 1] if remark else rest
        sentences = _SENTENCE.split(rest)
        if self._and_object.match(sentences[0]):
            return NAMED  # a second object: "pick up the red block and the blue block"
        further = self._further.search(sentences[0])
        if further is not None:  # "..., then put down the red block": a second action in the clause
            sentences[0:1] = [sentences[0][further.start() + len(further.group(1)) :]]
        else:
            sentences = sentences[1:]
        steps = [step]
        for sentence in sentences:  # "Unstack the red block. Put it down." names a second action
            following = self._start(" " + sentence.strip() + " ", fits)
            if following.kind == "named":
                return NAMED
            if following.kind == "step":
                steps += following.actions
        return Reading("step", tuple(steps))

    @cached_property
    def _and_object(self) -> re.Pattern[str]:
        """A further object after a step's last: "pick up the red block and the blue block"."""
        return re.compile(r" (?:and|or|,) " + self._slot)

    def step(self, line: str) -> str | None:
        """The one action a line of an answer (numbering, bullets and labels included) starts with, or None."""
        parsed = _parse_line(line, self.read)
        reading = parsed.reading if parsed is not None else PROSE
        return reading.actions[0] if reading.kind == "step" and len(reading.actions) == 1 else None

    def rename(self, line: str, objects: Collection[str] = ()) -> str:
        """The line with each PDDL action ``(name arg ...)`` whose arguments are all object names of
        this wording, and none an object of the instance (``objects``), written with the objects."""

        def one(match: re.Match[str]) -> str:
            read = self._group_action(match.group(1), objects)
            return read if isinstance(read, str) else match.group(0)

        return ACTION_GROUP.sub(one, line)


# what follows an action's verb used as a noun or in a description, not an action: "Stack from bottom to top:",
# "Attack requires ...", "Unstack is not possible", "put down nothing"
_NOT_AN_OBJECT = re.compile(
    r" (?:from|to|of|by|with|in|at|is|are|was|were|can|cannot|will|would|must|should|requires?|needs?|gives?|"
    r"creates?|adds?|removes?|makes?|sets?|actions?|operations?|steps?|simply|nothing|:|-|\u2014|\u2013|\d+ :)(?= |$)"
)
_NEGATED = re.compile(r" (?:is|was) not (?:needed|necessary|possible|correct|required|goal|allowed|valid|right) ")
_SO = re.compile(r" so (?:, )?(?:we |you |i )?(?:need to |must |should |can |will )?(?:first )?")
_REMARK = re.compile(r" (?::|-|\u2014|\u2013) ")  # what follows a colon or a dash on a step's line
_SENTENCE = re.compile(r" [.;!] (?=\S)")
_WORD_LABEL = re.compile(r"^ [a-z][\w-]*(?: [\w-]+)? : ")
_CONNECTOR_WORDS = frozenset(
    ("from", "on", "onto", "top", "of", "to", "into", "at", "in", "off", "atop", "upon", "the")
)
_CALL_TAIL = re.compile(r"[^.,;:()\n]+")  # the words after a call, up to punctuation
_CALL = re.compile(r"([A-Za-z][\w-]*(?:[ _-][A-Za-z][\w-]*)?)?\s*\(([^()]*)\)")


def _without_remarks(text: str) -> str:
    """The text without its parenthesised remarks."""
    return re.sub(r"\([^()]*\)", " ", text)


ACTION_GROUP = re.compile(r"\(([^()]*)\)")  # a parenthesised group with nothing nested: an action


def pddl_wording(lifted: LiftedTask) -> Wording:
    """The wording of a domain's own names: ``load-truck {} {} {}``, each object by its name."""
    actions = {name: " ".join([name] + ["{}"] * len(schema.params)) for name, schema in lifted.schemas.items()}
    return Wording(actions, {obj: obj for obj in lifted.objects})


# ----- lines, blocks and the plan of an answer --------------------------------------------------------


_LETTER = re.compile(r"\(\s*[A-Z]{1,2}\s*\)")


def _legend(text: str, wording: Wording) -> dict[str, str]:
    """The letters an answer names objects by, as it defines them: "the red block (R)" makes ``R`` the red
    block (a letter the wording already names an object by keeps its meaning)."""
    if _LETTER.search(text) is None:
        return {}
    out: dict[str, str] = {}
    for match in wording.legend.finditer(text):
        name, letter = match.group(1).lower(), match.group(2)
        obj = wording.names.get(_plain(name).strip())
        known = wording.names.get(letter.lower())
        if obj is not None and known in (None, obj) and out.setdefault(letter.lower(), obj) != obj:
            return {}  # one letter for two objects: no legend
    return {letter: obj for letter, obj in out.items() if letter not in wording.names}


def _fits(lifted: LiftedTask) -> Callable[[str], bool]:
    """Whether an action's objects are of the kinds it takes: its precondition's facts that no action
    changes and that name one of its objects (``(TRUCK ?truck)``) hold in the instance."""
    static = lifted.static_predicates
    facts = {(name, args) for name, args in lifted.init if name in static}

    def fits(action: str) -> bool:
        name, *args = action[1:-1].split()
        schema = lifted.schemas.get(name)
        if schema is None or len(schema.params) != len(args):
            return False
        binding = {var: arg for (var, _), arg in zip(schema.params, args)}
        for conjunction in schema.precondition:
            needed = [
                (lit.predicate, tuple(binding.get(a, a) for a in lit.args))
                for lit in conjunction
                if lit.positive and lit.predicate in static and len(lit.args) == 1
            ]
            if all(fact in facts for fact in needed):
                return True
        return False

    return fits


def _bound(wording: Wording, objects: Collection[str]) -> Wording:
    """The wording with names for the instance's objects where its config names objects by patterns
    (``package_{}`` for p0, ``location_{}_{}`` for l1-0, as PlanBench's logistics config does)."""
    if not any("{}" in name for name in wording.objects.values()):
        return wording
    key = frozenset(objects)
    cache = wording.bound
    if key not in cache:
        names = {}
        for obj in key:
            match = re.fullmatch(r"([a-z]+)(\d+(?:-\d+)*)", obj)
            pattern = wording.objects.get(match.group(1)) if match else None
            if match and pattern and pattern.count("{}") == len(parts := match.group(2).split("-")):
                names[obj] = pattern.format(*parts)
        if len(cache) > 256:
            cache.clear()
        cache[key] = Wording(wording.actions, names, wording.endings, wording.aliases)
    return cache[key]


def _wording(
    actions: Mapping[str, str],
    objects: Mapping[str, str],
    endings: Mapping[str, tuple[str, ...]] | None = None,
    aliases: Mapping[str, str] | None = None,
) -> Wording:
    return Wording(
        {k.lower(): str(v) for k, v in actions.items()},
        {k.lower(): str(v) for k, v in objects.items()},
        endings or {},
        {k.lower(): str(v).lower() for k, v in (aliases or {}).items()},
    )


_LETTERS = "abcdefghijkl"
_COLOURS = ("red", "blue", "orange", "yellow", "white", "magenta", "black", "cyan", "green", "violet", "silver", "gold")
_OBJECT_LETTERS = {letter: f"object {letter}" for letter in _LETTERS}
_TABLE = tuple(
    f"{before}{where} table"
    for before in ("", "down ", "back ")
    for where in ("on", "onto", "on to", "to", "at", "from", "off", "off of", "in", "on top of")
)
_BLOCKSWORLD_ACTIONS = {
    "pick-up": "pick up the {}",
    "put-down": "put down the {}",
    "stack": "stack the {} on top of the {}",
    "unstack": "unstack the {} from on top of the {}",
}
#: Obfuscated Randomized Blocksworld's names (PlanBench's generated_domain.pddl of
#: unsolvable_obfuscated_randomized_blocksworld; its instances are blocksworld's, objects a, b, ...
#: renamed object_0, object_1, ... in words and o0, o1, ... in PDDL)
OBFUSCATED_BLOCKSWORLD = {
    "pick-up": "u64y1a9apusmslxb",
    "put-down": "kip9uw781pv62umn",
    "stack": "j4gv801gnu2it0yj",
    "unstack": "wio5amhq7814n006",
}

#: The wordings of PlanBench's own configs (``configs/<domain>.yaml``: ``actions``,
#: ``encoded_objects``), by the ``domain`` its task files name; the ``_3`` configs (three-block
#: instances) word their answers alike. Mystery Blocksworld has a domain file of its own (attack,
#: feast, succumb, overcome); Randomized and Obfuscated Randomized Blocksworld word the 4-operator
#: domain's actions (scored on blocksworld's domain file and instances); logistics names its objects
#: by patterns (``package_{}``).
WORDINGS = {
    "blocksworld": _wording(
        _BLOCKSWORLD_ACTIONS,
        {letter: f"{colour} block" for letter, colour in zip(_LETTERS, _COLOURS)},
        {"put-down": (*_TABLE, "in an empty space", "on an empty space", "aside"), "pick-up": _TABLE},
    ),
    "mystery_blocksworld": _wording(
        {
            "attack": "attack {}",
            "succumb": "succumb {}",
            "overcome": "overcome {} from {}",
            "feast": "feast {} from {}",
        },
        _OBJECT_LETTERS,
    ),
    "random_blocksworld": _wording(
        {
            "pick-up": "1jpkithdyjmlikck {}",
            "put-down": "9big8ruzarkkquyu {}",
            "stack": "2ijg9q8swj2shjel {} from {}",
            "unstack": "xptxjrdkbi3pqsqr {} from {}",
        },
        _OBJECT_LETTERS,
    ),
    "obfuscated_randomized_blocksworld": _wording(
        {
            action: f"{name} {{}}" + (" {}" if action in ("stack", "unstack") else "")
            for action, name in OBFUSCATED_BLOCKSWORLD.items()
        },
        {letter: f"object_{n}" for n, letter in enumerate(_LETTERS)},
        aliases={f"o{n}": letter for n, letter in enumerate(_LETTERS)},
    ),
    "logistics": _wording(
        {
            "load-truck": "load {} into {} at {}",
            "load-airplane": "load {} into {} at {}",
            "unload-truck": "unload {} from {} at {}",
            "unload-airplane": "unload {} from {} at {}",
            "drive-truck": "drive {} from {} to {} in {}",
            "fly-airplane": "fly {} from {} to {}",
        },
        {"p": "package_{}", "t": "truck_{}", "a": "airplane_{}", "l": "location_{}_{}", "c": "city_{}"},
    ),
}
#: the start of the names of PlanBench's configs whose instances have no plan (``unsolvable_blocksworld``)
UNSOLVABLE = "unsolvable_"
# the names PlanBench's files give these domains: zero-shot variants, folder names, hard instances
_DOMAIN_NAMES = {
    "blocksworld_hard": "blocksworld",
    "blocksworld_new": "blocksworld",
    "mystery": "mystery_blocksworld",
    "mystery_new": "mystery_blocksworld",
}


def config_name(domain: str) -> str:
    """PlanBench's config name of a task file's ``domain``: ``blocksworld_zero_shot_3`` and
    ``blocksworld/generated_basic_3`` are blocksworld's, ``mystery/generated_basic`` Mystery Blocksworld's."""
    name = domain.strip().lower().split("/")[0]
    name = re.sub(r"(?:_zero_shot|_3|_pddl)+$", "", name)
    return _DOMAIN_NAMES.get(name, name)


def wording_of(domain: str) -> Wording | None:
    """The built-in wording of PlanBench's config ``domain`` (None: answers are read in the domain's own names);
    its zero-shot result files name the domain ``blocksworld_zero_shot``, ``mystery_blocksworld_zero_shot_3``. The
    ``unsolvable_*`` configs word their domains as the configs they are made from (``unsolvable_blocksworld``:
    blocksworld's)."""
    name = config_name(domain)
    return WORDINGS.get(name) or WORDINGS.get(name.removeprefix(UNSOLVABLE))


def read_config(path: Path) -> Wording:
    """The wording of a PlanBench config file (``configs/<domain>.yaml``)."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        raise DataError(f"{path}: cannot read the PlanBench config ({err})") from err
    actions = data.get("actions") if isinstance(data, dict) else None
    objects = data.get("encoded_objects") if isinstance(data, dict) else None
    if not isinstance(actions, dict) or not isinstance(objects, dict):
        raise DataError(
            f"{path}: not a PlanBench config: it needs the mappings 'actions' and 'encoded_objects' "
            "(PlanBench's configs/<domain>.yaml)"
        )
    return _wording(actions, objects)


def check_wording(wording: Wording, domain: LiftedTask, where: str) -> None:
    """DataError unless every action of the wording is an action of the domain with as many parameters."""
    wrong = [
        f"{action}/{wording.arity(action)}"
        for action in wording.actions
        if action not in domain.schemas or len(domain.schemas[action].params) != wording.arity(action)
    ]
    if wrong:
        raise DataError(
            f"{where}: its answers are worded for the actions {', '.join(wrong)}, which the domain file does not "
            "declare with those parameters: pass the domain file of this task's config (PlanBench's "
            "instances/<domain_file>, e.g. instances/blocksworld/mystery/generated_domain.pddl for "
            "mystery_blocksworld), or --planbench-config with the config that words its answers"
        )


def fits_domain(wording: Wording, domain: LiftedTask) -> bool:
    return all(a in domain.schemas and len(domain.schemas[a].params) == wording.arity(a) for a in wording.actions)


# ----- task files -------------------------------------------------------------------------------


# ----- one line of an answer, read with a wording ------------------------------------------------------
_EMPHASIS_CHARS = re.compile(r"[*`]+")
_BULLET = re.compile(r"^(?:[-+>\u2022\u25cf\u25aa\u2023\u2013\u2014]|\*(?!\*))\s+")
_HEADING_MARK = re.compile(r"^#+\s*")
_NUMBER = re.compile(
    r"^(?:\(?(\d+)\s*[.):]|(?:step|move)\s*(\d+)\s*[.:)\-\u2013\u2014]?|([a-h])[.)])\s+", re.IGNORECASE
)
_FINAL_WORDS = re.compile(r"\b(?:plan|sequence|actions|steps|answer|solution|summary|moves)\b")
_NOT_FINAL = re.compile(
    r"\b(?:explanation|explain|why|breakdown|analysis|analy[sz]e|verif\w*|check\w*|reason\w*|precondition\w*|"
    r"effects?|goals?|state|conditions?|result\w*|requirement\w*|rules?|restrictions?|constraints?)\b"
)
_INTRODUCING = (" is", " are", " be", " follows", " following", " below")  # "Then the most optimized plan is"
_WORDLIKE = re.compile(r"[^\W_]")  # a line with a letter or digit
_COMMENTARY = re.compile(
    r"\b(?:explanation|explained|explain|why|breakdown|analysis|analy[sz]ing|verification|verify\w*|check\w*|"
    r"reasoning|justification|rationale|notes?)\b"
)
_TRAILING = " \t\r\f\v.;,:!"  # stripped after a step's text (str.rstrip: linear where a regex would backtrack)


@dataclass
class _Line:
    level: int  # indentation, deeper for a bulleted line: a line is under the last line above it of a lower level
    number: int | None  # its numbering ("1.", "Step 2:")
    body: str  # the line without numbering, bullets, heading marks and labels
    reading: Reading
    heading: bool = False  # prose that announces what follows: "Plan:", "### Final Plan", "**Summary**"
    final: bool = False  # a heading that announces a plan ("**Action Sequence:**", "Answer:")
    commentary: bool = False  # a heading that announces a commentary ("Explanation:", "Here's why:")
    parent: int | None = None  # the line it is under
    role: str = ""  # "step", "named" (a step that cannot be read), "mention", "" (no step)


def _parse_line(raw: str, reader: Callable[[str], Reading]) -> _Line | None:
    expanded = raw.expandtabs(4)
    text = expanded.strip()
    if not text or not _WORDLIKE.search(text):
        return None
    indent = len(expanded) - len(expanded.lstrip())
    marked = text.startswith("#")
    bold = text.startswith("**") and text.rstrip(_TRAILING).endswith("**")
    bullet = _BULLET.match(text)
    if bullet:
        text = text[bullet.end() :]
    if marked:
        text = _HEADING_MARK.sub("", text)
    if "*" in text or "`" in text:
        text = _EMPHASIS_CHARS.sub("", text).strip()
    number = None
    numbering = _NUMBER.match(text)
    if numbering:
        digits = numbering.group(1) or numbering.group(2)
        number = int(digits) if digits else "abcdefgh".index(numbering.group(3).lower()) + 1
        text = text[numbering.end() :]
    label = _LABEL.match(text)
    if label:
        text = text[label.end() :]
    reading = reader(text)
    level = 2 * indent + (1 if bullet and number is None else 0)
    line = _Line(level, number, text.strip(), reading)
    ending = text.rstrip(" .!").lower()
    if reading.kind == "prose" and (ending.endswith(_INTRODUCING) or text.rstrip().endswith(":") or marked or bold):
        words = _SENTENCE.split(_plain(text))[-1]  # its last sentence: "... optimized. Here is the optimized plan:"
        if len(words.split()) > 12:
            words = " " + words.rsplit(" , ", 1)[-1]  # its last clause: "However, ..., the corrected plan is"
        line.heading = True
        short = line.heading and len(words.split()) <= 12
        line.commentary = short and bool(_COMMENTARY.search(words))
        line.final = short and not line.commentary and bool(_FINAL_WORDS.search(words)) and not _NOT_FINAL.search(words)
    return line
