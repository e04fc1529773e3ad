"""`acp template init`: a starting template for a PDDL domain, for its user to finish.

Every predicate and every action schema gets a text made from its name and its parameters, for the user
to reword: the name split into words (at ``-`` and ``_``), each parameter written with its declared type
(``(robot-at ?r - room)`` -> ``"robot at room {r}"``; an untyped one is just ``{x}``). A word of the
name that is a parameter's type or name is followed by that parameter (``(van-at ?v - van ?c - city)`` ->
``"van {v} at city {c}"``); a parameter named by a preposition keeps it (``?from - city`` -> ``"from city
{from}"``); a predicate of two or more parameters whose name holds a preposition puts its first parameter
first (``(at ?c - car ?l - location)`` -> ``"car {c} at location {l}"``). Texts that would read the same
(`acpgen.nl.template.reading`) fall back to the PDDL name followed by the parameters, so that no two
read alike. The description and the size sentence cannot be derived, so they are written as TODO texts,
which the template check rejects (naming each one and the file) until they are replaced.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from acpgen.nl.pddl_words import leaf_types
from acpgen.nl.template import join_names, reading
from acpgen.pddl.model import without_comments
from acpgen.pddl.tarski_io import read_domain

_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def _sexpr(text: str) -> list:
    """The nested lists of a PDDL text (comments removed; unbalanced text gives what could be read)."""
    stack: list[list] = [[]]
    for token in _TOKEN.findall(without_comments(text)):
        if token == "(":
            stack.append([])
        elif token == ")":
            if len(stack) > 1:
                done = stack.pop()
                stack[-1].append(done)
        else:
            stack[-1].append(token)
    return stack[0]


def predicate_variables(domain_text: str) -> dict[str, list[str]]:
    """Predicate name (lower case) -> its variable names without '?', as the ``:predicates`` section declares them."""
    out: dict[str, list[str]] = {}
    for form in _sexpr(domain_text):
        if not (isinstance(form, list) and form and str(form[0]).lower() == "define"):
            continue
        for section in form[1:]:
            if isinstance(section, list) and section and str(section[0]).lower() == ":predicates":
                for entry in section[1:]:
                    if isinstance(entry, list) and entry and isinstance(entry[0], str):
                        names = [t[1:] for t in entry[1:] if isinstance(t, str) and t.startswith("?")]
                        out[entry[0].lower()] = names
    return out


PREPOSITIONS = frozenset(
    "from to in at on into onto with by under over of above below near inside behind beside through via".split()
)
_IRREGULAR = {"person": "people", "child": "children", "man": "men", "woman": "women", "foot": "feet"}


def plural(noun: str) -> str:
    """The English plural of a noun (of its last word): city -> cities, key -> keys, switch -> switches,
    box -> boxes, bus -> buses, person -> people, "hard rock" -> "hard rocks"."""
    head, _, last = noun.rpartition(" ")
    lower = last.lower()
    if lower in _IRREGULAR:
        last = _IRREGULAR[lower]
    elif len(lower) > 1 and lower.endswith("y") and lower[-2] not in "aeiou":
        last = last[:-1] + "ies"
    elif lower.endswith(("s", "x", "z", "ch", "sh")):
        last += "es"
    else:
        last += "s"
    return f"{head} {last}" if head else last


def _words(name: str) -> list[str]:
    """A PDDL name's words: split at '-' and '_' (the name itself when that leaves nothing)."""
    return [w for w in re.split(r"[-_]+", name) if w] or [name]


def _phrase(variable: str, type_name: str) -> list[str]:
    """How one parameter reads: its type's words and its placeholder (``room {r}``), after its name when that
    is a preposition (``from city {from}``); an untyped parameter (``object``) is its placeholder alone."""
    words = _words(type_name) if type_name != "object" else []
    lead = [variable] if variable.lower() in PREPOSITIONS else []
    return [*lead, *words, f"{{{variable}}}"]


def worded(name: str, params: list[tuple[str, str]], *, relation: bool) -> str:
    """The starting text of a predicate (``relation``) or an action schema ``name`` over ``params``
    ((variable without '?', declared type) pairs): see the module's description for the rules."""
    words = _words(name.lower())
    free = [i for i, (v, _) in enumerate(params) if v.lower() not in PREPOSITIONS]
    counts: dict[str, int] = {}
    for _, type_name in params:
        counts[type_name] = counts.get(type_name, 0) + 1
    after: dict[int, int] = {}  # word position -> the parameter that follows it, its type left unsaid
    for position, word in enumerate(words):
        for i in free:
            variable, type_name = params[i]
            first = position == 0 and i == 0 and word in (type_name, variable.lower())
            if first or word == variable.lower() or (word == type_name and counts[type_name] == 1):
                after[position] = i
                free.remove(i)
                break
    placed = set(after.values())
    rest = [i for i in range(len(params)) if i not in placed]
    front: list[str] = []
    if relation and len(params) >= 2 and 0 in free and PREPOSITIONS.intersection(words):
        front, rest = _phrase(*params[0]), rest[1:]
    tokens = list(front)
    for position, word in enumerate(words):
        tokens.append(word)
        if position in after:
            tokens.append(f"{{{params[after[position]][0]}}}")
    for i in rest:
        tokens += _phrase(*params[i])
    # "go to to room {to}" (action go-to over ?to) says its preposition once
    kept = [t for k, t in enumerate(tokens) if not (k and t == tokens[k - 1] and t in PREPOSITIONS)]
    return " ".join(kept)


def _literal(name: str, params: list[tuple[str, str]]) -> str:
    """The PDDL name as it is, then each parameter's phrase: a text no other entry's text can read like."""
    return " ".join([name.lower(), *(w for v, t in params for w in _phrase(v, t))])


def _unambiguous(entries: dict[str, tuple[list[tuple[str, str]], str]]) -> dict[str, str]:
    """Each entry's text (name -> (params, text)), those that read like another's (`reading`) replaced by
    `_literal` texts until none do."""
    texts = {name: text for name, (_, text) in entries.items()}
    while True:
        by_reading: dict[str, list[str]] = {}
        for name, text in texts.items():
            by_reading.setdefault(reading(text), []).append(name)
        alike = [name for names in by_reading.values() if len(names) > 1 for name in names]
        changed = False
        for name in alike:
            literal = _literal(name, entries[name][0])
            changed |= texts[name] != literal
            texts[name] = literal
        if not changed:
            return texts


def starting_template(domain: Path) -> str:
    """The YAML text of a starting template for the PDDL domain file ``domain``."""
    lifted = read_domain(domain)
    declared = predicate_variables(lifted.domain_text)
    size_example = join_names(
        [f"{{n:{t}|{' '.join(_words(t))}|{plural(' '.join(_words(t)))}}}" for t in leaf_types(lifted)]
    )
    predicates: dict[str, tuple[list[tuple[str, str]], str]] = {}
    for name, types in lifted.predicates.items():
        if name == "=":
            continue
        variables = declared.get(name)
        if variables is None or len(variables) != len(types):
            variables = [f"x{i}" for i in range(len(types))]
        params = list(zip(variables, types))
        predicates[name] = (params, worded(name, params, relation=True))
    actions: dict[str, tuple[list[tuple[str, str]], str]] = {}
    for name, schema in lifted.schemas.items():
        params = [(v.lstrip("?"), t) for v, t in schema.params]
        actions[name] = (params, worded(name, params, relation=False))
    lines = [
        f"# Starting template of the PDDL domain {lifted.domain_name}, written by `acp template init {domain}`.",
        "# Replace each TODO text with your own words, and reword the texts made from the PDDL names so that",
        "# they read well (format: acpgen/data/templates/README.md in acp); acp refuses the file while a TODO",
        "# is left. `acp template check` checks it against the domain.",
        f"domain: {json.dumps(lifted.domain_name)}",
        'description: "TODO: say in a few plain sentences what the domain is about (the first names it)."',
        f"# e.g. size: {json.dumps(f'This problem has {size_example}.')}",
        'size: "TODO: one sentence giving the size of a problem, with {n:TYPE|noun|nouns} placeholders."',
        "predicates:",
    ]
    for name, text in _unambiguous(predicates).items():
        signature = "(" + " ".join([name, *(f"?{v}" for v, _ in predicates[name][0])]) + ")"
        lines.append(f"  {json.dumps(signature)}: {json.dumps(text)}")
    lines.append("actions:")
    for name, text in _unambiguous(actions).items():
        lines.append(f"  {json.dumps(name)}: {json.dumps(text)}")
    lines += [
        "# Optional: texts of actions the domain does not have (distractors of areach and val questions), e.g.",
        '# wrong_actions:\n#   - {text: "sail car {car} to location {to}", types: {car: car, to: location}}',
    ]
    return "\n".join(lines) + "\n"
