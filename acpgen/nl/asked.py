"""What a reasoning-about-actions question asks, read back from its text (not from its record's fields).

A record's structured fields (``variant``, ``fluent_type``, ``object``, ``action``, ``sequence``) are what
the generator answered; the question text is what a model reads. :func:`read_asked` matches the text
against the question texts of the task and format (``acpgen/data/templates/questions.yaml`` or the domain's own) and
reads every placeholder back: the sequence and the further action through the answer :class:`Reader` (PDDL
syntax or the template's English, repeats kept), the object against the task's objects, the fluent type
from its words (:data:`PROPERTY_WORDS`), and a yes/no or multiple-choice claim's value as a literal, a set
of literals, an action or a number. A text that matches no question text, or whose parts read as
nothing, is no question acp asks. ``acp validate`` recomputes the answer from this reading, so a text that
leaves out a restriction of its answer cannot pass on the strength of the record's fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from acpgen.nl.answer_reader import Reader
from acpgen.nl.template import PLACEHOLDER
from acpgen.pddl.model import LiftedTask
from acpgen.proofs.change.questions import Question, uses_fluent_type

#: fluent type -> the words a question uses for it (``all`` and questions without a type: "properties")
PROPERTY_WORDS = {
    "static": "properties that no action changes",
    "base": "properties that actions change directly",
    "derived": "properties that follow from other properties",
    "self_derived": "single-valued properties (one value at a time)",
    "fluents": "properties that can change",
    "all": "properties",
}
_TYPE_OF_WORDS = {words: kind for kind, words in PROPERTY_WORDS.items()}


def property_words(fluent_type: str | None) -> str:
    return PROPERTY_WORDS.get(fluent_type or "all", PROPERTY_WORDS["all"])


class NotRead(Exception):
    """The text is not a question of the task as acp writes it (the message says which part)."""


@dataclass(frozen=True)
class Asked:
    """A question read from its text; ``values``: the claims' values (bool: one, mcq: one per option)."""

    question: Question
    values: tuple[Any, ...] = ()


def _normal(text: str) -> str:
    return " ".join(text.split())


def match_text(template: str, text: str) -> dict[str, str] | None:
    """The placeholder values that make ``template`` read ``text`` exactly (blanks normalised), or None."""
    pattern, position, seen = "", 0, set()
    template = _normal(template)
    for match in PLACEHOLDER.finditer(template):
        pattern += re.escape(template[position : match.start()])
        name = match.group(1)
        pattern += f"(?P={name})" if name in seen else f"(?P<{name}>.+?)"
        seen.add(name)
        position = match.end()
    pattern += re.escape(template[position:])
    found = re.fullmatch(pattern, _normal(text), flags=re.DOTALL)
    return None if found is None else found.groupdict()


def _value(reader: Reader, about: str, category: str, text: str) -> Any:
    """A claim's value as the text of a yes/no question or an option writes it."""
    text = _normal(text).strip().rstrip(".")
    if about in ("holds", "holds_after", "holds_before"):
        literal = reader.one(text, atoms=True)
        if literal is None:
            raise NotRead(f"{text!r} reads as no single fact")
        return literal
    if about == "all_hold":
        return _literal_list(reader, text)
    if about == "first" or (about == "executable" and category == "executability"):
        action = reader.one(text, atoms=False)
        if action is None:
            raise NotRead(f"{text!r} reads as no single action")
        return action
    if not re.fullmatch(r"\d+", text):
        raise NotRead(f"{text!r} is no number")
    return int(text)


_PDDL_LITERAL = re.compile(r"(?:it is not the case that\s*)?\((?:[^()]|\([^()]*\))*\)")


def _literal_list(reader: Reader, text: str) -> list[str]:
    """Facts joined by commas and "and"; in PDDL syntax a false one is "it is not the case that (p a)"."""
    if "(" in text.lower():
        pieces = _PDDL_LITERAL.findall(text.lower())
        rest = _PDDL_LITERAL.sub(" ", text.lower()).replace(",", " ").split()
        literals = [reader.one(piece, atoms=True) for piece in pieces]
        if any(word != "and" for word in rest) or not literals or None in literals:
            raise NotRead(f"{text!r} does not read as facts")
        return sorted(str(lit) for lit in literals)
    reading = reader.literals(text)
    if reading.unread or not reading.items:
        raise NotRead(f"{text!r} does not read as facts")
    return sorted(reading.items)


def _question(values: dict[str, str], category: str, variant: str, reader: Reader, lifted: LiftedTask) -> Question:
    """The structured question of a text's placeholder values (NotRead for a part that reads as nothing)."""
    if "sequence" not in values:
        raise NotRead("the text names no action sequence")
    sequence = reader.sequence(values["sequence"])
    if not sequence:
        raise NotRead(f"the sequence {values['sequence']!r} does not read as actions")
    if "length" in values and values["length"] != str(len(sequence)):
        raise NotRead(f"the text says {values['length']} actions but lists {len(sequence)}")
    fluent_type: str | None = None
    if uses_fluent_type(category, variant):
        words = values.get("properties", PROPERTY_WORDS["all"])  # a text without the words asks about all
        if words not in _TYPE_OF_WORDS:
            raise NotRead(f"{words!r} names no kind of property")
        fluent_type = _TYPE_OF_WORDS[words]
    obj = values.get("object")
    if obj is not None and obj not in lifted.objects:
        raise NotRead(f"{obj!r} is no object of the problem")
    action = None
    if "action" in values:
        action = reader.one(values["action"], atoms=False)
        if action is None:
            raise NotRead(f"{values['action']!r} reads as no single action")
    return Question(category, variant, tuple(sequence), fluent_type, obj, action)


def read_asked(
    questions: dict[str, str],
    task: str,
    category: str,
    record: dict[str, Any],
    reader: Reader,
    lifted: LiftedTask,
    variants: tuple[str, ...],
) -> Asked:
    """Read a record's question text (``question``; for mcq ``query`` and the option texts) against the
    task's texts of the record's format. ``variants``: the task's variants in that format (free answer:
    the answer variants; bool/mcq: the claims' ``about``). Exactly one text must read it."""
    fmt = record.get("format", "gen")
    prefix = "" if fmt == "gen" else f"{fmt}."
    text = record.get("query") if fmt == "mcq" else record.get("question")
    if not isinstance(text, str):
        raise NotRead("the record has no question text")
    readings: list[Asked] = []
    failures: list[str] = []
    for variant in variants:
        template = questions.get(f"{prefix}{task}.{variant}")
        values = None if template is None else match_text(template, text)
        if values is None:
            continue
        claimed: tuple[Any, ...] = ()
        try:
            question = _question(values, category, variant, reader, lifted)
            if fmt == "bool":
                claimed = (_value(reader, variant, category, values.get("value", "")),)
            elif fmt == "mcq":
                option = questions.get(f"mcq.option.{task}.{variant}", "{value}")
                texts = (record.get("choices") or {}).get("text") or []
                claimed = tuple(_value(reader, variant, category, _option(option, t)) for t in texts)
        except NotRead as err:
            failures.append(f"as {variant}: {err}")
            continue
        readings.append(Asked(question, claimed))
    if len(readings) != 1:
        if readings:
            raise NotRead(f"the text reads as {len(readings)} different questions")
        raise NotRead("; ".join(failures) or f"the text is none of the {task} {fmt} questions")
    return readings[0]


def _option(template: str, text: str) -> str:
    values = match_text(template, text)
    if values is None or "value" not in values:
        raise NotRead(f"the option {text!r} is not written as the option text {template!r}")
    return values["value"]


def differences(asked: Question, stored: Question) -> list[str]:
    """The fields on which a question read from its text and the record's fields disagree."""
    out = []
    for name in ("variant", "sequence", "fluent_type", "object", "action"):
        read, kept = getattr(asked, name), getattr(stored, name)
        if name == "fluent_type" and not uses_fluent_type(stored.category, stored.variant):
            continue
        if name == "fluent_type" and read == "all" and kept is None:
            continue
        if read != kept:
            out.append(f"{name}: the text says {read!r}, the record {kept!r}")
    return out
