"""PlanBench's own files, scored exactly: its task and result files turned into acp ``plan`` records and predictions.

A PlanBench task file (``prompts/<domain>/<task>.json``, and the same file with the model's answers
under ``responses/``, ``results/<domain>/<engine>/`` or ``results_backprompting/...``) is one JSON
object: ``task`` (``task_1_plan_generation``, ``task_1_plan_generation_zero_shot``, ``..._pddl``,
``..._state_tracking``, ``..._backprompting...``, ``t1``; any name PlanBench gives a task),
``domain`` (its config's name, or a folder name), optionally ``engine``, and ``instances``: a list
of objects with ``instance_id``, ``query``, ``ground_truth_plan`` (a text of PDDL actions, one a
line, or a list of them; in task 8 the plan in words) and, once a model answered,
``llm_raw_response`` (backprompting files: the dialogue ``messages``, whose last answer is the
model's plan). Instance N is the problem ``instance-N.pddl`` of the task's instance folder over the
domain file of its config, or the domain and problem its prompt shows (PlanBench's PDDL prompts:
``[DOMAIN]``, ``[QUERY PROBLEM]``).

Tasks (:func:`task_kind`, by the number in the task's name): 1 (plan generation), 5 (plan
generalization) and 8.1-8.3 (goal reformulations) become records of acp's ``plan`` task, 2 (plan
optimality) of ``optplan``; each answered instance is scored by acp's plan scorer: validity, goal,
optimality against acp's own optimal cost (the ground-truth plan is stored as the record's answer,
but its length is not taken as the optimum), prefix, goal share and the first failure and its class.
Tasks 3 and 7 ask for no plan, and 4 and 6 for a plan of an instance the prompt changed, which their
files no longer hold; the instances of PlanBench's ``unsolvable_*`` configs have no plan, and the
right answer there is to say so, which acp's plan task cannot score: such files are not scored.

**Reading an answer** (:func:`translate`: the text given to acp's plan reader,
:mod:`acpgen.nl.plan_steps`, one step a line), leniently in form and exactly in content:

1. the answer: the text after the last ``</think>``, code fences and LaTeX's ``\\(`` ``\\)`` removed, a
   numbered list written on one line split; PlanBench's markers: the text before the first
   ``[STATEMENT]`` after a plan marker (a problem the model made up), and of that the last ``[PLAN]``
   ... ``[PLAN END]`` (the text before the last ``[PLAN END]``, after the ``[PLAN]`` or ``[PLAN END]``
   before it);
2. each line: its indentation, bullet (``-``, ``*``), numbering (``1.``, ``Step 2:``) and markdown
   set apart, then its words are read (:meth:`Wording.read`) as a **step** (it starts, after a label
   such as ``Action:`` and words such as ``Next,``, ``Finally, we``, ``Perform``, with one or more
   actions: PDDL actions ``(unstack a b)``, calls ``Unstack(red, blue)``, ``Feast(e from b)``, or an
   action's wording with an object's name in each slot, in the words of PlanBench's prompts or
   another form of them: ``unstack red block from blue block``, ``Stack the blue block onto the
   orange block``, ``Put blue on the table``, ``Feast d from b``, with a remark after it; a step
   corrected in its line, ``X is not correct, so Y``, is Y), a **named** action that cannot be read
   (it starts with an action's verb, and its objects cannot be read exactly: ``pick up the block``,
   ``put down the red block on the blue block``, ``pick up red and stack it on blue``), a
   **mention** (an action's wording inside a sentence: ``Since the hand is empty, unstack the blue
   block from the yellow block.``), or **prose** (a line that names no action; a verb used as a
   noun, ``Attack requires ...``, ``Stack from bottom to top:``); an answer's own letters for
   objects are names where it defines them (``the Red block (R)``);
3. the lines form a tree by their indentation and bullets; a step's sub-lines explain it and are
   no steps; a named action with steps under it (``1. **Unstack the red block**`` over ``- Action:
   unstack the red block from on top of the blue block``) is their heading; a mention is a step
   only between two steps;
4. the steps form **blocks**, which a heading announcing a plan (``**Action Sequence:**``, ``Final
   plan:``, ``Answer:``, ``So the final plan is``), a heading announcing a commentary
   (``**Explanation:**``) or numbering that starts again under the same parent ends; the answer's
   plan is its final statement: of the blocks with a step read (a commentary's only without
   another), the one after the last heading announcing a plan, else the last; a plan restated (the
   same steps twice or more in a row) is one plan.

The answer goes to acp's plan reader in its line form: each step as ``name arg ...``, a named action
that cannot be read as its text in quotes and without parentheses, which that reader cannot take for
an action: every step that names an action is a step of the plan, and one that cannot be read makes
it invalid (content is never guessed). No step read: "" (a ``parse_error``).

PlanBench's own reader (``utils/text_to_pddl.py``; later results: an LLM's translation of the
answer, ``text_to_plan_with_llm``) reads every line in which it finds an action word and as many
object names as the action takes, remarks and restatements included, also after ``[PLAN END]``,
skips the others (a plan whose unreadable line it skips can pass), takes the objects in the order a
line names them, finds no action in ``(pick-up a)`` in the blocksworld family, and leaves out empty
responses, which acp counts as ``parse_error``.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from pathlib import Path
from typing import Any

import yaml

from acpgen.errors import DataError, PddlError
from acpgen.evaluation.records import Prediction
from acpgen.evaluation.scoring import Scored, score_predictions
from acpgen.nl.answers import ParseError
from acpgen.nl.plan_steps import read_steps
from acpgen.pddl.model import LiftedTask, canonical
from acpgen.pddl.tarski_io import read_domain, read_strings
from acpgen.planners import PlannerSetup
from acpgen.proofs.plans import Failure, lifted_verdict
from acpgen.tasks import PARSE_ERROR, ScoreOptions

# ----- tasks ------------------------------------------------------------------------------------------
#: PlanBench's tasks whose answer is a plan for the instance itself, by the number in their names
#: (``task_1_plan_generation_zero_shot_pddl``, ``task_8_1_goal_shuffling``, ``t1``), and acp's task that
#: scores it
PLAN_TASKS = {"1": "plan", "2": "optplan", "5": "plan", "8_1": "plan", "8_2": "plan", "8_3": "plan"}
#: why the other tasks are not scored
OTHER_TASKS = {
    "3": "task 3 (plan verification) asks whether a given plan is valid, not for a plan",
    "4": "task 4 (plan reuse) asks for a plan of an instance its prompt changed, which the file does not hold",
    "6": "task 6 (replanning) asks for a plan of an instance its prompt changed, which the file does not hold",
    "7": "task 7 (plan execution) asks for the state a plan reaches, not for a plan",
}
_TASK_NUMBER = re.compile(r"^(?:task_?|t)(\d+(?:_\d+)?)(?![0-9])", re.IGNORECASE)


def task_kind(task: str) -> str:
    """acp's task for a PlanBench task name (``plan``, ``optplan``); DataError for a task without a plan."""
    match = _TASK_NUMBER.match(task.strip())
    number = match.group(1) if match else None
    if number is None or number not in PLAN_TASKS:
        why = OTHER_TASKS.get(number or "", "its name has no task number of PlanBench's plan tasks")
        raise DataError(
            f"PlanBench task {task!r} is not scored by acp: {why}; acp scores the plans of tasks 1, 2, 5 and "
            "8.1-8.3 (each with its zero-shot, PDDL, state-tracking and backprompting variants)"
        )
    return PLAN_TASKS[number]


# ----- the text of an answer --------------------------------------------------------------------------
_THINK_END = re.compile(r"</think>", re.IGNORECASE)
_FENCE = re.compile(r"^\s*```.*$", re.MULTILINE)
_EMPHASIS_CHARS = re.compile(r"[*`]+")
_INLINE_BULLET = re.compile(r"(?<=\S)\s+\u2022\s+")  # "Feast b from c  then  \u2022 Overcome b from d"
# items of a numbered list on one line, apart by wide blanks: "1. Feast object b from a\u2003\u20032. Succumb object b"
_INLINE_NUMBER = re.compile(r"(?<=\S)(?:[ \t]*[\u2002\u2003][ \t\u2002\u2003]*|[ \t]{2,})(?=\d{1,2}\.\s)")
_LATEX = re.compile(r"\\[()\[\]]")  # LaTeX's math delimiters, "Feast \(d\) from \(a\)"
_STATEMENT = "[statement]"
_PLAN_START = "[plan]"
_PLAN_END = "[plan end]"


def answer_text(response: str) -> str:
    """The answer without reasoning before the last ``</think>`` and without code fences (``\\_`` is ``_``)."""
    ends = [m.end() for m in _THINK_END.finditer(response)]
    text = response[ends[-1] :] if ends else response
    text = _LATEX.sub(" ", _FENCE.sub("", text.replace("\\_", "_")))
    return _INLINE_NUMBER.sub("\n", _INLINE_BULLET.sub("\n\u2022 ", text))


def plan_section(text: str) -> str:
    """PlanBench's markers: the text before the first ``[STATEMENT]`` after a ``[PLAN END]`` or
    ``[PLAN]`` (the model went on to a problem of its own), then the last ``[PLAN]`` ... ``[PLAN END]``:
    the text before the last ``[PLAN END]``, after the last ``[PLAN]`` or ``[PLAN END]`` before it; without
    ``[PLAN END]``, the text after the last ``[PLAN]``."""
    lower = text.lower()
    first = min((i for i in (lower.find(_PLAN_END), lower.find(_PLAN_START)) if i >= 0), default=-1)
    statement = lower.find(_STATEMENT, first if first >= 0 else 1)
    if statement >= 0:
        text, lower = text[:statement], lower[:statement]
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
        # "Feast(Object b, Object a)": names of several words between commas; else one word each
        parts = text.split(",") if "," in text else text.split()
        args = []
        for part in parts:
            words = [w for w in part.lower().strip(" .;:'\"").split() if w not in _CONNECTOR_WORDS]
            if not words:
                continue
            arg = " ".join(words)
            name = arg if arg in objects else self.names.get(arg.replace("_", " ")) or self.names.get(arg)
            if name is None:
                return None
            args.append(name)
        return canonical(action, args) if len(args) == self.arity(action) else None

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


_NO_PARENTHESES = str.maketrans("()", "  ")  # acp's plan reader takes a text with a parenthesis for PDDL


def _quoted(text: str) -> str:
    """A line that names an action it cannot be read as, for acp's plan reader: its text in quotes (a
    step no action matches), without parentheses and words that reader would take for PDDL or a final-answer marker."""
    text = re.sub(r"(?i)answer", "reply", text.replace('"', "'")).translate(_NO_PARENTHESES)
    return f'"{" ".join(text.split()).rstrip(_TRAILING)}"'


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
    final: bool = False  # after a heading that announces a plan
    numbers: dict[int | None, int] = field(default_factory=dict)  # the last number under each parent


def _blocks(lines: list[_Line]) -> list[_Block]:
    """The runs of steps: a heading that announces a plan or a commentary (``Explanation:``), or numbering
    that starts again under the same parent, ends one; a mention belongs to a block only between two of
    its steps. The blocks of a commentary (up to the next heading that announces a plan) are marked."""
    blocks: list[_Block] = []
    current = _Block()
    pending: list[int] = []  # mentions after the block's last step
    announced = commentary = False

    def close() -> None:
        nonlocal current, pending
        if current.lines:
            blocks.append(current)
        current, pending = _Block(commentary=commentary), []

    for i, line in enumerate(lines):
        if _explained(lines, i, line.role == "step"):
            continue
        if line.final or line.commentary:
            announced, commentary = line.final, line.commentary
            close()
            continue
        if line.number is not None and line.role in ("step", "named", ""):
            last = current.numbers.get(line.parent)
            if last is not None and line.number <= last and current.lines:
                close()
            current.numbers[line.parent] = line.number
        if line.role in ("step", "named"):
            if not current.lines:
                current.final, announced = announced, False
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
    out = []
    for i in block.lines:
        line = lines[i]
        if line.role == "step" or (line.role == "mention" and len(set(line.reading.actions)) == 1):
            out += [action[1:-1] for action in line.reading.actions[: 1 if line.role == "mention" else None]]
        else:
            out.append(_quoted(line.body))
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
    """The block of the answer's plan: after the last heading that announces one, else the last, of the
    blocks with a step read (a commentary's only when no other has one)."""
    if not blocks:
        return None
    readable = [b for b in blocks if any(lines[i].role == "step" for i in b.lines)]
    plain = [b for b in readable if not b.commentary] or readable
    finals = [b for b in plain if b.final]
    return finals[-1] if finals else plain[-1] if plain else blocks[-1]


def plan_lines(text: str, reader: Callable[[str], Reading]) -> list[str]:
    """The plan of an answer's text as lines of acp's line form (see the module docstring)."""
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
    line, ``name arg ...`` (a named action that cannot be read in quotes); "" when no line names an action.
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
    its zero-shot result files name the domain ``blocksworld_zero_shot``, ``mystery_blocksworld_zero_shot_3``."""
    return WORDINGS.get(config_name(domain))


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
@dataclass(frozen=True)
class TaskFile:
    """A PlanBench task file: PlanBench's name of the task, acp's task for it (``plan``,
    ``optplan``), the config's domain name, the engine (result files) and the instances."""

    path: Path
    task: str
    kind: str
    domain: str
    engine: str | None
    instances: list[dict[str, Any]] = field(repr=False)


def read_task_file(path: Path) -> TaskFile:
    """A PlanBench task file of a plan-writing task; DataError naming the file and the fix otherwise."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(
            f"{path}: no such file (a PlanBench task file: prompts/<domain>/<task>.json, or "
            "responses/ or results/<domain>/<engine>/<task>.json)"
        ) from None
    except (OSError, UnicodeDecodeError) as err:
        raise DataError(f"{path}: cannot read ({err})") from err
    except json.JSONDecodeError as err:
        raise DataError(
            f"{path}: invalid JSON ({err.msg} at line {err.lineno}, column {err.colno}); a PlanBench task file "
            "is one JSON object with an 'instances' list"
        ) from err
    if not isinstance(data, dict) or not isinstance(data.get("instances"), list):
        raise DataError(
            f"{path}: not a PlanBench task file (one JSON object with an 'instances' list, as PlanBench's "
            "prompts/, responses/ and results/ files); acp's own predictions are JSONL lines, scored "
            "without --planbench-domain"
        )
    task = str(data.get("task") or path.stem)
    try:
        kind = task_kind(task)
    except DataError as err:
        raise DataError(f"{path}: {err}") from None
    instances = data["instances"]
    for number, instance in enumerate(instances, 1):
        if not isinstance(instance, dict) or "instance_id" not in instance:
            raise DataError(f"{path}: instance {number} of the list has no 'instance_id'")
    engine = data.get("engine")
    domain = str(data.get("domain") or "planbench")
    if config_name(domain).startswith("unsolvable"):
        raise DataError(
            f"{path}: the instances of PlanBench's {config_name(domain)} config have no plan: the right answer is "
            "that none exists, which acp's plan task cannot score (it scores plans)"
        )
    return TaskFile(path, task, kind, domain, None if engine is None else str(engine), instances)


def response_of(instance: dict[str, Any]) -> str | None:
    """The model's answer: ``llm_raw_response`` (None: not answered), or in a backprompting file the last
    answer of its dialogue (``messages``), the plan it ended with."""
    if "llm_raw_response" in instance:
        raw = instance["llm_raw_response"]
        return "" if raw is None else str(raw)
    messages = instance.get("messages")
    if isinstance(messages, list):
        answers = [m.get("content") for m in messages if isinstance(m, dict) and m.get("role") == "assistant"]
        if answers:
            return str(answers[-1] or "")
    return None


def prompt_of(instance: dict[str, Any]) -> str:
    """The prompt the model answered: ``query``, or the first message of a backprompting dialogue."""
    query = instance.get("query")
    if isinstance(query, str) and query:
        return query
    messages = instance.get("messages")
    if isinstance(messages, list):
        for message in messages:
            if isinstance(message, dict) and message.get("role") == "user":
                return str(message.get("content") or "")
    return ""


def _definition(text: str, after: str) -> str | None:
    """The ``(define ...)`` that follows the heading ``after`` in a prompt, up to its closing parenthesis."""
    at = text.rfind(after)  # the heading, not the prompt's words about it before
    start = text.find("(define", at) if at >= 0 else -1
    if start < 0:
        return None
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


def prompt_pddl(instance: dict[str, Any]) -> tuple[str, str] | None:
    """The domain and problem a PDDL prompt shows (``[DOMAIN]``, ``[QUERY PROBLEM]``), or None."""
    prompt = prompt_of(instance)
    domain, problem = _definition(prompt, "[DOMAIN]"), _definition(prompt, "[QUERY PROBLEM]")
    return (domain, problem) if domain and problem else None


def _read_text(path: Path, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{path}: no such {what}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise DataError(f"{path}: cannot read the {what} ({err})") from err


def _ground_truth(instance: dict[str, Any], lifted: LiftedTask, wording: Wording | None) -> tuple[list[str], str]:
    """The instance's ground-truth plan as canonical actions ([] when it has none), and, when it does not
    solve the instance's problem, why."""
    truth = instance.get("ground_truth_plan")
    text = "\n".join(str(step) for step in truth) if isinstance(truth, list) else str(truth or "")
    try:
        steps = read_steps(translate(text, wording, lifted=lifted))
    except ParseError:
        return [], ""
    plan = [step.action for step in steps]
    verdict = lifted_verdict(lifted, plan)
    if verdict.executes and verdict.reaches_goal:
        return plan, ""
    if verdict.first_failure is not None:
        return plan, f"step {verdict.first_failure + 1} {plan[verdict.first_failure]} does not execute"
    return plan, "the goal does not hold after it"


@dataclass
class _Source:
    """Where the instances' PDDL comes from: a domain file and an instance folder, or each prompt."""

    domain: Path | None
    folder: Path | None
    domain_text: str = ""

    def pddl(self, file: TaskFile, instance: dict[str, Any], where: str) -> tuple[str, str, str]:
        """The instance's domain text, problem text and source name."""
        number = instance["instance_id"]
        if self.folder is None:
            shown = prompt_pddl(instance)
            if shown is None:
                raise DataError(
                    f"{where}: its prompt shows no PDDL ([DOMAIN] ... [QUERY PROBLEM] ...): pass --planbench-domain "
                    "and --planbench-instances, the domain file and instance folder of its config"
                )
            return shown[0], shown[1], f"{file.path}, instance {number}'s prompt"
        problem = self.folder / f"instance-{number}.pddl"
        if not problem.is_file():
            raise DataError(
                f"{where}: no PDDL for it: {problem} does not exist; pass --planbench-instances the instance "
                "folder of this task file (PlanBench's instances/<domain>/generated_basic, generated for task 5)"
            )
        return self.domain_text, _read_text(problem, "instance file"), str(problem)


def planbench_predictions(
    path: Path, domain: Path | None = None, instances: Path | None = None, config: Path | None = None
) -> list[Prediction]:
    """The answers of a PlanBench task file as acp predictions, each with its ``plan`` (or ``optplan``)
    record: ``domain`` is the task's domain PDDL file, ``instances`` the folder of its ``instance-N.pddl``
    files (neither: each instance's PDDL is the one its prompt shows, PlanBench's PDDL prompts),
    ``config`` a PlanBench config whose wording to read answers with (default: the built-in one of the
    file's domain, :data:`WORDINGS`; none: the domain's own names).

    Instances without an answer are left out (PlanBench does the same); an empty one is a prediction (a
    ``parse_error`` when scored). Each prediction's line, written by ``acp score -o``, holds the record
    id, ``instance_id``, ``planbench_task``, ``planbench_file``, ``engine``, the raw response, the
    ``response`` acp read (:func:`translate`) and PlanBench's ``llm_correct`` as ``planbench_correct``
    when the file has it."""
    if (domain is None) != (instances is None):
        raise DataError("a PlanBench domain file and instance folder go together (or neither: PDDL from the prompts)")
    file = read_task_file(path)
    source = _Source(domain, None if instances is None else Path(instances))
    if source.folder is not None and not source.folder.is_dir():
        raise DataError(f"{source.folder}: no such folder (the folder of the task's instance-N.pddl files)")
    wording = read_config(config) if config is not None else wording_of(file.domain)
    if domain is not None:
        source.domain_text = _read_text(domain, "domain file")
        if wording is not None:
            check_wording(wording, read_domain(Path(domain)), f"{path} ({file.domain})")
    answered = [(instance, raw) for instance in file.instances if (raw := response_of(instance)) is not None]
    if not answered:
        raise DataError(
            f"{path}: no instance has an 'llm_raw_response' (a prompts file?): score a model's responses/ or "
            "results/ file"
        )
    predictions = []
    failures: list[str] = []  # instances whose ground truth does not solve them
    truths = 0  # instances with a ground truth
    for instance, raw in answered:
        prediction = _prediction(file, instance, raw, source, wording, config is not None)
        truths += bool(prediction.record["answer"]) or "ground_truth_unsolved" in prediction.line
        if "ground_truth_unsolved" in prediction.line:
            failures.append(f"{prediction.line['ground_truth_unsolved']} (instance {instance['instance_id']})")
        predictions.append(prediction)
    if len(failures) * 2 > truths:
        raise DataError(
            f"{path}: the file's ground_truth_plan does not solve {len(failures)} of its {truths} instances "
            f"({'; '.join(failures[:3])}): is the instance folder the one of this task file (PlanBench's "
            "instances/<domain>/generated_basic; generated for task 5), and the domain file its config's?"
        )
    return predictions


def _prediction(
    file: TaskFile, instance: dict[str, Any], raw: str, source: _Source, wording: Wording | None, configured: bool
) -> Prediction:
    """One answered instance as a prediction with its record (see :func:`planbench_predictions`)."""
    number = instance["instance_id"]
    where = f"{file.path}, instance {number}"
    domain_text, problem_text, name = source.pddl(file, instance, where)
    try:
        lifted = read_strings(domain_text, problem_text, source=name)
    except PddlError as err:
        raise DataError(str(err)) from err
    if source.folder is None and wording is not None and not fits_domain(wording, lifted):
        if configured:
            check_wording(wording, lifted, where)
        wording = None  # a built-in wording of another variant of the domain: its own names
    truth, wrong = _ground_truth(instance, lifted, wording)
    record = {
        "id": f"{file.domain}/{number}",
        "task": file.kind,
        "domain": file.domain,
        "PDDL_domain": domain_text,
        "PDDL_problem": problem_text,
        "answer": [] if wrong else truth,
    }
    line: dict[str, Any] = {
        "id": record["id"],
        "instance_id": number,
        "planbench_task": file.task,
        "planbench_file": str(file.path),
    }
    if file.engine is not None:
        line["engine"] = file.engine
    line |= {"llm_raw_response": raw, "response": translate(raw, wording, lifted=lifted)}
    for key in ("llm_correct", "correct", "act_correct"):
        if key in instance:
            line["planbench_correct"] = instance[key]
            break
    if wrong:
        line["ground_truth_unsolved"] = wrong
    return Prediction(line, file.kind, record, line["response"])


def planbench_files(
    paths: Iterable[Path], domain: Path | None = None, instances: Path | None = None, config: Path | None = None
) -> tuple[list[Prediction], dict[Path, str]]:
    """The predictions of every file acp scores (:func:`planbench_predictions`), and why each other file is
    not scored (its error)."""
    predictions: list[Prediction] = []
    skipped: dict[Path, str] = {}
    for path in paths:
        try:
            predictions += planbench_predictions(Path(path), domain, instances, config)
        except DataError as err:
            skipped[Path(path)] = str(err)
    return predictions, skipped


def score_planbench(
    paths: Iterable[Path],
    domain: Path | None = None,
    instances: Path | None = None,
    config: Path | None = None,
    options: ScoreOptions = ScoreOptions(),
    setup: PlannerSetup = PlannerSetup(),
    jobs: int = 1,
    skipped: dict[Path, str] | None = None,
) -> list[Scored]:
    """Score the answers of PlanBench task files (:func:`planbench_predictions`) with acp's plan scorer. A
    file acp does not score raises its DataError, or, given ``skipped``, is recorded there with why."""
    if skipped is None:
        predictions = [p for path in paths for p in planbench_predictions(Path(path), domain, instances, config)]
    else:
        predictions, refused = planbench_files(paths, domain, instances, config)
        skipped.update(refused)
    return score_predictions(predictions, options, setup, jobs=jobs, progress=False)


#: the columns of :func:`failure_rates`: no plan read at all, then the plan scorer's failure classes
FAILURE_COLUMNS = ("no_plan", *(failure.value for failure in Failure))


def failure_rates(scored: Iterable[Scored]) -> str:
    """The share of plan answers by their first failure, per task and domain: ``no_plan`` (no step
    could be read: a parse error), then the plan scorer's classes (``extra_steps`` is a plan with
    steps after the goal held); a plan without extra steps is in no column. Empty without plan answers."""
    groups: dict[tuple[str, str], Counter[str | None]] = defaultdict(Counter)
    for item in scored:
        task = item.prediction.task
        if task not in ("plan", "optplan"):
            continue
        failure = "no_plan" if item.verdict.status == PARSE_ERROR else item.verdict.details.get("failure_class")
        groups[(task, item.domain)][failure] += 1
    if not groups:
        return ""
    for task in {task for task, _ in groups}:
        domains = [counts for (t, _), counts in groups.items() if t == task]
        if len(domains) > 1:
            groups[(task, "all")] = sum(domains, Counter())
    width = max(len(name) for name in FAILURE_COLUMNS) + 2
    lines = [f"{'task':8}{'domain':22}{'n':>5}" + "".join(f"{name:>{width}}" for name in FAILURE_COLUMNS)]
    for (task, domain), counts in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] == "all", kv[0][1])):
        total = sum(counts.values())
        cells = "".join(f"{counts[name] / total:{width}.2f}" for name in FAILURE_COLUMNS)
        lines.append(f"{task:8}{domain:22}{total:5d}" + cells)
    return "\n".join(lines)
