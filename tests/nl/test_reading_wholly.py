"""Whether a text reads wholly as facts (a line under a plan step that explains it, not a step): the reading that
stops at the first piece no cutting reads gives the same answer as the whole reading, on texts mixing a domain's
facts, actions, names, stray words and separators in its template's English."""

from __future__ import annotations

import random

import pytest

from acpgen.config import load_config
from acpgen.generators import get_generator
from acpgen.nl.answer_reader import Reader
from acpgen.nl.describe import Describer
from acpgen.nl.template import load_template
from acpgen.pddl.grounding import GroundTask


def reads_wholly(reader: Reader, text: str, wholly: bool) -> bool:
    reading = reader.read_section(text, atoms=True, wholly=wholly)
    return bool(reading.items) and not reading.unread and not reading.none


@pytest.mark.parametrize("domain", ["ferry", "blocksworld", "logistics", "satellite"])
def test_stopping_at_the_first_unread_piece_decides_as_the_whole_reading(domain):
    generator = get_generator(domain)
    rng = random.Random(11)
    spec = generator.generate(load_config().domain(domain).sizes[0], rng)
    task = GroundTask.from_strings(generator._domain_text, generator.render(spec))
    template = load_template(domain)
    reader, describe = Reader(task.lifted, template), Describer(template, task.lifted)
    facts = [describe.atom(a) for a in task.fluent_atoms()] + [
        describe.atom(a) for a in task.state_atoms(task.static_mask)
    ]
    actions = [describe.action(a) for a in task.action_names[:50]]
    names = sorted(task.lifted.objects)
    stray = ["the", "then", "because", "not", "none", "1.", "facts:", "is", "and"]
    separators = [", ", " and ", ", and ", ". ", "; ", ": ", "\n", " "]
    outcomes = {True: 0, False: 0}
    for _ in range(600):
        pieces = []
        for _ in range(rng.randint(1, 12)):
            kind = rng.random()
            pool = facts if kind < 0.7 else actions if kind < 0.8 else names if kind < 0.9 else stray
            pieces.append(rng.choice(pool))
        text = "".join(p + rng.choice(separators) for p in pieces).strip()
        whole = reads_wholly(reader, text, wholly=False)
        assert reads_wholly(reader, text, wholly=True) == whole, text
        outcomes[whole] += 1
    assert min(outcomes.values()) >= 30, outcomes  # both answers drawn often


def sequence_read_to_the_end(reader: Reader, text: str) -> list[str] | None:
    """The actions of a comma-separated sequence in words, every cutting of its parts tried to the last part."""
    parts = " ".join(text.lower().split()).split(", ")
    best: list[list[str] | None] = [[]] + [None] * len(parts)
    for j in range(1, len(parts) + 1):
        for i in range(j - 1, max(-1, j - 1 - reader._action_span), -1):
            if best[i] is not None:
                action = reader.one(", ".join(parts[i:j]), atoms=False)
                if action is not None:
                    best[j] = [*best[i], action]  # type: ignore[misc]
                    break
    return best[-1]


@pytest.mark.parametrize("domain", ["ferry", "logistics", "depots"])
def test_a_sequence_that_stops_at_the_first_unreadable_part_reads_as_one_read_to_the_end(domain):
    generator = get_generator(domain)
    rng = random.Random(12)
    task = GroundTask.from_strings(
        generator._domain_text, generator.render(generator.generate(load_config().domain(domain).sizes[0], rng))
    )
    template = load_template(domain)
    reader, describe = Reader(task.lifted, template), Describer(template, task.lifted)
    actions = [describe.action(a) for a in task.action_names[:80]]
    junk = ["then", "the truck", sorted(task.lifted.objects)[0], "and", ""]
    read = 0
    for _ in range(500):
        pieces = [rng.choice(actions) if rng.random() < 0.93 else rng.choice(junk) for _ in range(rng.randint(1, 10))]
        text = ", ".join(pieces)
        expected = sequence_read_to_the_end(reader, text)
        assert reader.sequence(text) == expected, text
        read += expected is not None
    assert 50 < read < 450, read  # both outcomes drawn
