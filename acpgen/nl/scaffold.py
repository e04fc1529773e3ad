"""`acp template init`: a starting template for a PDDL domain, for its user to finish.

Every predicate and every action schema gets a placeholder text made of its name and its
parameters (``(at ?car ?loc)`` -> ``"at {car} {loc}"``, the variable names as the domain declares
them), which the template check accepts but which a user will want to reword. The description
and the size sentence cannot be derived, so they are written as TODO texts, which the check
rejects (naming each one and the file) until they are replaced.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from acpgen.nl.pddl_words import leaf_types
from acpgen.nl.template import join_names
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


def _text(name: str, variables: list[str]) -> str:
    return " ".join([name, *(f"{{{v}}}" for v in variables)])


def starting_template(domain: Path) -> str:
    """The YAML text of a starting template for the PDDL domain file ``domain``."""
    lifted = read_domain(domain)
    declared = predicate_variables(lifted.domain_text)
    size_example = join_names([f"{{n:{t}|{t}|{t}s}}" for t in leaf_types(lifted)])
    lines = [
        f"# Starting template of the PDDL domain {lifted.domain_name}, written by `acp template init {domain}`.",
        "# Replace each TODO text with your own words and reword the placeholder texts so that they read",
        "# well (format: acpgen/data/templates/README.md in acp); acp refuses the file while a TODO is left.",
        f"domain: {json.dumps(lifted.domain_name)}",
        'description: "TODO: say in a few plain sentences what the domain is about (the first names it)."',
        f"# e.g. size: {json.dumps(f'This problem has {size_example}.')}",
        'size: "TODO: one sentence giving the size of a problem, with {n:TYPE|noun|nouns} placeholders."',
        "predicates:",
    ]
    for name, types in lifted.predicates.items():
        if name == "=":
            continue
        variables = declared.get(name)
        if variables is None or len(variables) != len(types):
            variables = [f"x{i}" for i in range(len(types))]
        signature = "(" + " ".join([name, *(f"?{v}" for v in variables)]) + ")"
        lines.append(f"  {json.dumps(signature)}: {json.dumps(_text(name, variables))}")
    lines.append("actions:")
    for name, schema in lifted.schemas.items():
        lines.append(f"  {json.dumps(name)}: {json.dumps(_text(name, [v.lstrip('?') for v, _ in schema.params]))}")
    lines += [
        "# Optional: texts of actions the domain does not have (distractors of areach and val questions), e.g.",
        '# wrong_actions:\n#   - {text: "sail car {car} to location {to}", types: {car: car, to: location}}',
    ]
    return "\n".join(lines) + "\n"
