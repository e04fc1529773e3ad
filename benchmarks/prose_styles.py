"""Answers written in the styles real models use, and their provably wrong twins (`make bench-read-prose`).

An :class:`Answer` is one correct (or wrong) answer of a record in structured form: its ``kind`` (a plan, the
statement that no plan exists, a set of actions, a set of literals, prog's effects, one atom or action, an
index, pver's verdict, a count, a PDDL problem, yes/no, an option letter) and its ``value`` in PDDL syntax.
:func:`correct_answers` reads them from a record's stored answer; :func:`twin_candidates` proposes wrong answers
of the same kind (the benchmark keeps the first whose bare rendering scores 0). A style is a function
``(record, answer, words) -> text | None`` (None: the style is not natural for that answer); the English
comes from :class:`Words`, acp's own describer of the record's domain template. The styles copy the
shapes of published model answers (PlanBench's results: o1-preview's bold numbered steps with an
explanation line under each, restatements under a heading, gpt-4o's and Claude's plain numbered lists),
never their text. The statement that no plan exists (the correct answer of a plan or optplan record about a
state without a plan, ``"solvable": false``) is written in several phrasings, one per style, some with an empty
plan; its wrong twin there is a plan (a walk of applicable actions from the state, which cannot reach the goal).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from acpgen.api import ground_task
from acpgen.nl.describe import capitalise
from acpgen.nl.plan_steps import NO_PLAN_ANSWER
from acpgen.nl.template import TemplateError, join_names
from acpgen.pddl.explore import random_walk
from acpgen.proofs.change import questions as rq
from acpgen.proofs.change.literals import literal_atom
from acpgen.tasks import TASKS
from acpgen.tasks.sequences import describer_of

# The kinds of answer (what a style writes and a twin changes).
PLAN, NOPLAN, ACTIONS, LITERALS, EFFECTS = "plan", "noplan", "actions", "literals", "effects"
ATOM, ACTION, INDEX, VERDICT, NUMBER, PDDL, YESNO, CHOICE = (
    "atom",
    "action",
    "index",
    "verdict",
    "number",
    "pddl",
    "yesno",
    "choice",
)
#: kinds whose answer is a list that can be written one item per line
LISTS = (PLAN, ACTIONS, LITERALS)
_ACTION_RE = re.compile(r"\([^()]*\)")
_NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty"
).split()


@dataclass(frozen=True)
class Answer:
    """One answer of a record: ``kind`` (see the constants above), ``value`` in PDDL syntax (None: the
    answer "None"), and ``other``, the answer a first attempt gives in the ``revised`` style (the wrong
    twin of a correct answer, the correct answer of a twin)."""

    kind: str
    value: Any
    other: Answer | None = None


# ----- the record's words -------------------------------------------------------------------------
class Words:
    """The English of a record's domain (acp's describer of its template) and its ground task."""

    def __init__(self, record: dict):
        self.record = record
        self.describer = describer_of(record)
        self.task = ground_task(record)
        self.names = self.describer.lifted.objects if self.describer is not None else {}

    def action(self, action: Any) -> str:
        """An action in the template's English; a wrong action of a val/pver sequence (a dict) is "an unknown
        action", one the template cannot word (a perturbed step with an argument too few) stays as written."""
        if not isinstance(action, str) or self.describer is None:
            return "an unknown action"
        try:
            return self.describer.action(action)
        except TemplateError:
            return action

    def atom(self, atom: str) -> str:
        return self.describer.atom(atom) if self.describer is not None else atom

    def literal(self, literal: str) -> str:
        """A literal in English, a negative one worded as acp words it ("car c1 is not at location l2")."""
        atom, positive = literal_atom(literal)
        text = self.atom(atom)
        if positive:
            return text
        for verb, negative in ((" is ", " is not "), (" are ", " are not ")):
            if verb in f" {text} ":
                return f" {text} ".replace(verb, negative, 1)[1:-1]
        return f"it is not the case that {text}"

    def sentence(self, text: str) -> str:
        """``text`` as a sentence: capitalised (unless it starts with an object name) with a full stop."""
        return capitalise(text, self.names) + ("" if text.endswith(".") else ".")

    def facts(self, atoms: list[str], empty: str = "nothing changes") -> str:
        """Literals in English joined by commas and "and" (``empty`` for none)."""
        return join_names([self.literal(a) for a in atoms]) or empty

    def state(self) -> str:
        """The current state in English ("Currently, ...")."""
        if self.describer is None:
            return "Let me look at the current state."
        return self.describer.state_part()

    def added_by_steps(self, plan: list[str]) -> list[list[str]]:
        """The atoms each step of ``plan`` makes true, executed from the record's state (an unknown action: none)."""
        state, out = self.task.init, []
        for name in plan:
            action = self.task.action(name) if isinstance(name, str) else None
            after = action.apply(state) if action is not None else state
            out.append(self.task.state_atoms(after & ~state))
            state = after
        return out

    def preconditions(self, name: str) -> list[str]:
        """The positive precondition atoms of a ground action (its first disjunct; static ones are evaluated)."""
        action = self.task.action(name)
        if action is None or not action.precondition:
            return []
        return self.task.state_atoms(action.precondition[0][0])

    def state_atoms(self) -> list[str]:
        """The fluent atoms of the record's state (true now, so reachable and no landmark)."""
        return [a for a in self.task.state_atoms(self.task.init) if not self.task.is_static_atom(a)]

    def goal_atoms(self) -> list[str]:
        """The atoms the record's goal asks for."""
        return self.task.atoms.atoms(self.task.goal_pos)

    def walk(self, seed: int, length: int = 3) -> list[str]:
        """Up to ``length`` actions applicable in turn from the record's state, drawn with ``seed``."""
        return [action.name for action, _ in random_walk(self.task, self.task.init, random.Random(seed), length)]


# ----- correct answers and wrong twins ------------------------------------------------------------
def _atom(text: str) -> str:
    return text if text.startswith("(") else f"({text})"


def correct_answers(record: dict) -> list[Answer]:
    """Every stored correct answer of the record (one for most tasks; one per stored item for reach,
    areach, land, nexta and just)."""
    task, fmt, answer = record["task"], record.get("format", "gen"), record["answer"]
    if fmt == "bool":
        return [Answer(YESNO, str(answer).lower())]
    if fmt == "mcq":
        return [Answer(CHOICE, str(answer).upper())]
    if task in ("reach", "areach"):
        kind = ATOM if task == "reach" else ACTION
        return [Answer(kind, _atom(a)) for a in answer] or [Answer(kind, None)]
    if task in ("land", "nexta"):
        kind = ATOM if task == "land" else ACTION
        return [Answer(kind, a) for a in answer["yes"]] or [Answer(kind, None)]
    if task == "just":
        return [Answer(PLAN, _ACTION_RE.findall(r)) for r in TASKS["just"].to_responses(record)]
    if task in ("plan", "optplan"):
        return [Answer(NOPLAN, None)] if record.get("solvable") is False else [Answer(PLAN, list(answer))]
    simple = {"app": ACTIONS, "prog": EFFECTS, "val": INDEX, "pver": VERDICT, "t2p": PDDL}
    if task in simple:
        return [Answer(simple[task], answer)]
    kind = rq.GEN_VARIANTS[record["category"]][record["variant"]]
    if kind == rq.NUMBER:
        return [Answer(NUMBER, int(answer))]
    items = list(answer) if isinstance(answer, list) else [answer]
    if kind == rq.ACTIONS:
        single = record["variant"] == "first" and len(items) == 1  # the first inexecutable action
        return [Answer(ACTION, items[0])] if single else [Answer(ACTIONS, items)]
    return [Answer(LITERALS, items)]


def _set_twins(items: list[str], pool: Iterator[str], drop_first: bool) -> Iterator[list[str]]:
    """The set without its last item and the set with one item of ``pool`` added, in that order or the other."""
    dropped = [items[:-1]] if len(items) >= 2 else []
    added = next((items + [p] for p in pool if p not in items), None)
    options = dropped + ([added] if added else [])
    yield from options if drop_first else reversed(options)


def _literal_pool(words: Words, items: list[str]) -> Iterator[str]:
    """Literals of the polarity of the set's first item, those of its predicate first."""
    atom, positive = literal_atom(items[0]) if items else ("(x)", True)
    predicate = atom[1:].split(" ", 1)[0].rstrip(")")
    atoms = words.task.all_atoms()
    ordered = [a for a in atoms if a[1:].startswith(predicate + " ") or a == f"({predicate})"] + atoms
    return (a if positive else f"(not {a})" for a in ordered)


def _effects_twins(value: dict, words: Words) -> Iterator[dict]:
    pos, neg = list(value["pos"]), list(value["neg"])
    if neg:
        yield {"pos": pos, "neg": neg[:-1]}
    if pos:
        yield {"pos": pos[:-1], "neg": neg}
    extra = next((a for a in words.state_atoms() if a not in pos + neg), None)
    if extra:
        yield {"pos": pos + [extra], "neg": neg}


def _verdict_twins(value: str, steps: int) -> list[str]:
    if value == "valid":
        return ["goal not reached", f"step {steps}"]
    if value == "goal not reached":
        return ["valid", f"step {steps}"]
    n = int(value.split()[-1])
    return [f"step {k}" for k in (n + 1, n - 1) if 1 <= k <= steps] + ["valid", "goal not reached"]


def _pddl_twins(text: str) -> Iterator[str]:
    """The problem without the last atom of its goal, then without the last atom of its initial state."""
    for section in (":goal", ":init"):
        start = text.find(f"({section}")
        if start < 0:
            continue
        atoms = list(re.finditer(r"\([\w-]+(?: [\w-]+)*\)", text[start:]))
        atoms = [m for m in atoms if not m.group(0).startswith(("(and", "(not"))]
        if len(atoms) >= 2:
            last = atoms[-1] if section == ":goal" else _last_in_section(text, start, atoms)
            yield text[: start + last.start()] + text[start + last.end() :]


def _last_in_section(text: str, start: int, atoms: list[re.Match]) -> re.Match:
    """The last atom before the section's closing parenthesis."""
    depth, end = 0, len(text)
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            end = i
            break
    inside = [m for m in atoms if start + m.end() <= end]
    return inside[-1] if inside else atoms[-1]


def twin_candidates(record: dict, answer: Answer, words: Words) -> Iterator[Answer]:
    """Wrong answers of the same kind, most alike first (none is proven wrong here: the benchmark
    keeps the first whose bare rendering scores 0)."""
    kind, value = answer.kind, answer.value
    drop_first = int(record["id"]) % 2 == 0
    if kind == ACTIONS:
        values: Iterator[Any] = _set_twins(value, words.task.all_action_names(), drop_first)
    elif kind == LITERALS:
        values = _set_twins(value, _literal_pool(words, value), drop_first)
    elif kind == EFFECTS:
        values = _effects_twins(value, words)
    elif kind in (ATOM, ACTION):
        values = _single_twins(record, answer, words)
    elif kind == INDEX:
        values = iter([k for k in (value + 1, value - 1) if 0 <= k < len(record["plan"])])
    elif kind == VERDICT:
        values = iter(_verdict_twins(value, len(record["plan"])))
    elif kind == NUMBER:
        values = iter([k for k in (value + 1, value - 1) if k >= 0])
    elif kind == PLAN:
        values = _plan_twins(record, value)
    elif kind == NOPLAN:  # a plan offered for a goal no plan reaches
        return iter([Answer(PLAN, words.walk(int(record["id"]) + k, 2 + k)) for k in range(3)])
    elif kind == PDDL:
        values = _pddl_twins(value)
    elif kind == YESNO:
        values = iter(["no" if value == "yes" else "yes"])
    else:
        labels = record["choices"]["label"]
        values = iter([labels[(labels.index(value) + 1) % len(labels)]])
    return (Answer(kind, v) for v in values if v != value)


def _single_twins(record: dict, answer: Answer, words: Words) -> Iterator[str]:
    """Another atom or action: one the state shows true or applicable (reach, areach), one the stored
    answer rules out (land, nexta), another action of the sequence (rac_exec)."""
    task = record["task"]
    if task in ("land", "nexta"):
        yield from record["answer"]["no"]
    if task in ("reach", "land"):
        yield from words.state_atoms()
    if task == "areach":
        yield from (a.name for a in words.task.applicable(words.task.init))
    if task == "rac_exec":
        yield from (a for a in record["sequence"] if isinstance(a, str))


def _plan_twins(record: dict, plan: list[str]) -> Iterator[list[str]]:
    """The plan without its last step, without its first; just: also the unsimplified sequence. Never the
    empty plan: every style writes it as no text at all, which no model writes for "no step is needed" (and
    an empty final answer is read as "no content after the marker", the text before it)."""
    if len(plan) >= 2:
        yield plan[:-1]
    if len(plan) >= 2:
        yield plan[1:]
    if record["task"] == "just":
        yield list(record["plan"])


# ----- the answer in PDDL syntax --------------------------------------------------------------------
#: "no plan exists", as each style says it (bare: acp's reference answer)
NO_PLAN = {
    "core": "There is no valid plan: no sequence of actions reaches the goal from this state.",
    "restated": "It is impossible to reach the goal from the current state.",
    "markdown_steps": "**Plan:** (none)\n\nThe goal cannot be achieved from the current state: no sequence of "
    "actions leads to it.",
    "pddl_lines": "[]\nNo plan exists: the goal is unreachable.",
    "sentences": (
        "The goal is unreachable from the current state.",
        "This problem is unsolvable: no sequence of actions reaches the goal.",
        "It is not possible to reach the goal from here.",
        "The goal cannot be accomplished, so there is no such plan.",
        "Reaching the goal is infeasible from this state.",
        "No plan exists.",
    ),
}


def core(record: dict, answer: Answer) -> str:
    """The answer as written after a final-answer marker: PDDL syntax, "Yes", "B", a number."""
    kind, value = answer.kind, answer.value
    if kind == NOPLAN:
        return NO_PLAN["core"]
    if kind in (ATOM, ACTION):
        return value or "None"
    if kind in (ACTIONS, LITERALS):
        return " ".join(value) or "None"
    if kind == PLAN:
        return (" " if record["task"] == "just" else "\n").join(value)
    if kind == EFFECTS:
        pos, neg = " ".join(value["pos"]) or "None", " ".join(value["neg"]) or "None"
        return f"Positive effects: {pos}\nNegative effects: {neg}"
    if kind == PDDL:
        return f"```pddl\n{value}```"
    if kind == YESNO:
        return value.capitalize()
    return str(value)


def _after_marker(marker: str, text: str) -> str:
    return f"{marker}\n{text}" if "\n" in text else f"{marker} {text}"


# ----- the styles ----------------------------------------------------------------------------------
def bare(record: dict, answer: Answer, words: Words) -> str | None:
    """The reference format (what `acpgen.reference_answer` writes for the stored answer)."""
    if answer.kind == NOPLAN:
        return NO_PLAN_ANSWER
    text = core(record, answer)
    if answer.kind in (YESNO, CHOICE):
        return f"**Final Answer**: {text}."
    if answer.kind == PLAN and record["task"] == "just":
        return "Simplified plan: " + text
    return text


_THINKING = {
    "app": "An action can be applied when all of its preconditions hold in this state.",
    "prog": "The action's effects are what it adds minus what it deletes from this state.",
    "reach": "Some combinations of facts can never arise from here, whatever actions are taken.",
    "areach": "Some actions can never have their preconditions satisfied from here.",
    "val": "I execute the sequence step by step and check each precondition.",
    "just": "Some steps of the sequence undo each other or do nothing for the goal.",
    "land": "A landmark is a fact every plan must make true at some point.",
    "nexta": "A shortest plan from here must start with an action that brings the goal closer.",
    "plan": "I need to move things one at a time towards the goal.",
    "optplan": "I need the fewest actions that reach the goal.",
    "pver": "I execute the sequence step by step, then check the goal.",
    "t2p": "I write the objects, the initial state and the goal from the description.",
}


def final_marker(record: dict, answer: Answer, words: Words) -> str | None:
    """A few lines of reasoning, then ``**Final Answer**: <answer>``."""
    thinking = _THINKING.get(record["task"], "I track the state through the actions of the sequence.")
    intro = f"Let me work through this step by step.\n{words.state()}\n{thinking}\n\n"
    return intro + _after_marker("**Final Answer**:", core(record, answer))


def revised(record: dict, answer: Answer, words: Words) -> str | None:
    """A first attempt (the other answer), "Wait, let me reconsider.", then the final answer."""
    if answer.other is None:
        return None
    first = core(record, answer.other)
    return (
        f"{words.state()}\n\n"
        + _after_marker("So the answer is", first)
        + "\n\nWait, let me reconsider. I made a mistake above, so let me check it again.\n\n"
        + _after_marker("**Final Answer**:", core(record, answer))
    )


def _worked(record: dict, answer: Answer, words: Words) -> str:
    """The answer worked through in English (the body of ``restated``)."""
    kind, value = answer.kind, answer.value
    if kind == NOPLAN:
        goal = words.facts(words.goal_atoms())
        return f"{words.state()}\nThe goal asks that {goal}. No action makes all of these true together."
    if kind == PLAN:
        added = words.added_by_steps(value)
        return "\n".join(
            f"Step {i}: {words.action(a)}. After it, {words.facts(new)}."
            for i, (a, new) in enumerate(zip(value, added), 1)
        )
    if kind == ACTIONS:
        lines = [f"- {words.action(a)}: its preconditions hold ({words.facts(words.preconditions(a))})." for a in value]
        return "Checking the actions one by one:\n" + ("\n".join(lines) or "- none of them can be performed.")
    if kind in (LITERALS, NUMBER):
        steps = [f"{i}. {words.action(a)}" for i, a in enumerate(record.get("sequence", []), 1)]
        tail = f"Reading off the facts asked about: {words.facts(value)}." if kind == LITERALS else f"I count {value}."
        return "Tracking the state through the sequence:\n" + "\n".join(steps) + "\n" + tail
    if kind == EFFECTS:
        pos, neg = words.facts(value["pos"], "nothing new"), words.facts(value["neg"], "nothing")
        return f"After the action, {pos}. No longer true: {neg}."
    if kind in (ATOM, ACTION):
        said = "None" if value is None else words.atom(value) if kind == ATOM else words.action(value)
        return f"Checking the candidates against the question, the one that fits is: {said}."
    if kind in (INDEX, VERDICT):
        return _worked_steps(record, answer, words)
    if kind == CHOICE:
        lines = [
            f"{label}. {text} — {'this is the one' if label == value else 'no'}."
            for label, text in zip(record["choices"]["label"], record["choices"]["text"])
        ]
        return "Checking each option:\n" + "\n".join(lines)
    if kind == YESNO:
        return f"{words.state()}\nChecking the claim against this, it is {'true' if value == 'yes' else 'false'}."
    return "The objects, the initial state and the goal come straight from the description."


def _worked_steps(record: dict, answer: Answer, words: Words) -> str:
    """val (0-based positions) and pver (1-based steps) executed step by step, failing where the answer says."""
    plan, value = record["plan"], answer.value
    if answer.kind == INDEX:
        failing, first = value, 0
    else:
        failing, first = (int(value.split()[-1]) - 1 if value.startswith("step") else len(plan)), 1
    lines = []
    for i, action in enumerate(plan):
        verdict = "can be applied" if i < failing else "cannot be applied"
        lines.append(f"Step {i + first}: {words.action(action)} — {verdict}.")
        if i >= failing:
            break
    if answer.kind == VERDICT and failing == len(plan):
        lines.append("The goal " + ("holds" if value == "valid" else "does not hold") + " after the last step.")
    return "\n".join(lines)


def restated(record: dict, answer: Answer, words: Words) -> str | None:
    """The answer worked through, then restated under a heading (``**Action Sequence:**`` with the plan's
    steps in English for plans, ``Final plan:`` with PDDL lines for just, ``**Answer:**`` otherwise)."""
    body = _worked(record, answer, words)
    if answer.kind == NOPLAN:
        return f"{body}\n\n**Answer:** {NO_PLAN['restated']}"
    if answer.kind == PLAN and record["task"] != "just":
        steps = "\n".join(f"- {words.sentence(words.action(a))}" for a in answer.value)
        return f"{body}\n\n**Action Sequence:**\n\n{steps}"
    if answer.kind == PLAN:
        return f"{body}\n\nFinal plan:\n" + "\n".join(answer.value)
    return f"{body}\n\n" + _after_marker("**Answer:**", core(record, answer))


_MARKDOWN_INTRO = {
    "plan": "Here's the plan to achieve the goal:",
    "optplan": "Here's a shortest plan to achieve the goal:",
    "just": "Here is the shortened sequence:",
    "app": "The following actions can be applied in the current state:",
}


def markdown_steps(record: dict, answer: Answer, words: Words) -> str | None:
    """Numbered bold steps in the template's English, each with an explanation line, after an intro line
    (plans: what the step makes true; sets of actions: the preconditions that hold); no plan: an empty plan
    under its heading and the statement."""
    if answer.kind == NOPLAN:
        return NO_PLAN["markdown_steps"]
    if answer.kind not in (PLAN, ACTIONS) or not answer.value or words.describer is None:
        return None
    if answer.kind == PLAN:
        notes = [f"Now {words.facts(new)}." for new in words.added_by_steps(answer.value)]
    else:
        notes = [f"This is possible because {words.facts(words.preconditions(a))}." for a in answer.value]
    intro = _MARKDOWN_INTRO.get(record["task"], "The actions that can be performed then are:")
    steps = [
        f"{i}. **{words.sentence(words.action(a))}**\n   - {words.sentence(note)}"
        for i, (a, note) in enumerate(zip(answer.value, notes), 1)
    ]
    return intro + "\n\n" + "\n".join(steps)


_LEAD = {
    "app": "The actions that can be applied in the current state are: {}.",
    "nexta": "The action to apply now is: {}.",
    "rac_exec": "The actions that can be performed then are: {}.",
    "rac_comp": "The actions that can be performed then are: {}.",
}
_PLAN_WORDS = ("Next", "Then")


def _plan_sentences(record: dict, plan: list[str], words: Words) -> str:
    if len(plan) == 1:
        return f"Simply {words.action(plan[0])}."
    parts = [
        f"{'First' if i == 0 else 'Finally' if i == len(plan) - 1 else _PLAN_WORDS[(i + 1) % 2]}, {words.action(a)}."
        for i, a in enumerate(plan)
    ]
    lead = "After removing the redundant steps, the sequence is as follows. " if record["task"] == "just" else ""
    return lead + " ".join(parts)


def _number_words(n: int) -> str:
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def sentences(record: dict, answer: Answer, words: Words) -> str | None:
    """The answer as prose sentences in the template's English."""
    kind, value = answer.kind, answer.value
    if kind == NOPLAN:  # a phrasing for each record
        phrasings = NO_PLAN["sentences"]
        return phrasings[int(record["id"]) % len(phrasings)]
    if words.describer is None and kind not in (YESNO, CHOICE, NUMBER):
        return None
    if kind == PLAN:
        return _plan_sentences(record, value, words) if value else None
    if kind in (ACTIONS, LITERALS):
        items = [words.action(a) for a in value] if kind == ACTIONS else [words.literal(a) for a in value]
        lead = _LEAD.get(record["task"], "The answer is: {}.") if kind == ACTIONS else "The answer is: {}."
        return lead.format(join_names(items) or "none")
    if kind == EFFECTS:
        pos, neg = (join_names([words.atom(a) for a in value[k]]) or "none" for k in ("pos", "neg"))
        return f"Positive effects: {pos}. Negative effects: {neg}."
    if kind in (ATOM, ACTION):
        if value is None:
            return f"No {'proposition' if kind == ATOM else 'action'} qualifies. The answer is: None."
        said = words.atom(value) if kind == ATOM else words.action(value)
        if record["task"] == "rac_exec":
            return f"The first action that cannot be performed is: {said}."
        return _LEAD.get(record["task"], "The answer is: {}.").format(said)
    return _short_sentences(record, answer, words)


def _short_sentences(record: dict, answer: Answer, words: Words) -> str | None:
    kind, value = answer.kind, answer.value
    if kind == INDEX:
        action = words.action(record["plan"][value])
        return f"The first action that cannot be applied is at position {value} (counting from 0): {action}."
    if kind == VERDICT:
        if value == "valid":
            return "Every step can be applied in turn and the goal holds after the last one, so the sequence is valid."
        if value == "goal not reached":
            return "Every step can be applied, but the goal does not hold after the last one: the goal is not reached."
        n = int(value.split()[-1])
        return f"The sequence fails at step {n}: {words.action(record['plan'][n - 1])} cannot be applied at its turn."
    if kind == NUMBER:
        return f"Counting them, the total is {_number_words(value)}."
    if kind == YESNO:
        return "Yes, that is the case." if value == "yes" else "No, that is not the case."
    if kind == CHOICE:
        return f"Only one of the options holds here. The correct option is {value}."
    return None


def pddl_lines(record: dict, answer: Answer, words: Words) -> str | None:
    """PDDL actions or atoms one per line, numbered (``1. (sail l0 l1)``)."""
    kind, value = answer.kind, answer.value
    if kind == NOPLAN:  # an empty list, and the statement
        return NO_PLAN["pddl_lines"]
    if kind == EFFECTS:
        sides = [(label, value[key]) for label, key in (("Positive effects:", "pos"), ("Negative effects:", "neg"))]
        return "\n".join(f"{label}\n" + (_numbered(items) or "None") for label, items in sides)
    if kind not in LISTS or not value:
        return None
    return _numbered(value)


def _numbered(items: list[str]) -> str:
    return "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1))


Style = Callable[[dict, Answer, Words], "str | None"]
#: the styles, in the order of the benchmark's table
STYLES: dict[str, Style] = {
    "bare": bare,
    "final_marker": final_marker,
    "revised": revised,
    "restated": restated,
    "markdown_steps": markdown_steps,
    "sentences": sentences,
    "pddl_lines": pddl_lines,
}
