"""Answers to records of a user's own domain written in its template's English, by this module's own
substitution (the template file's texts, the domain's parameter lists), not by acp's describer: what
tests/generation/test_own_domain_english.py and tests/adapters/test_own_domain_adapters.py score."""

from __future__ import annotations

import re
from pathlib import Path

import yaml


class English:
    """Actions and facts of a domain in its template's words: the template's text with each placeholder
    replaced by the argument at the position of that parameter in the PDDL (the action's :parameters, the
    predicate's variables as the template's key lists them)."""

    def __init__(self, folder: str | Path):
        """``folder``: a user's domain laid out as tests/fixtures/byod/<name> (domain.pddl, template.yaml)."""
        template = yaml.safe_load((Path(folder) / "template.yaml").read_text())
        domain = (Path(folder) / "domain.pddl").read_text().lower()
        self.actions = {}
        for name, text in template["actions"].items():
            params = re.search(rf"\(:action {re.escape(name)}\s+:parameters\s*\(([^)]*)\)", domain).group(1)
            self.actions[name] = (re.findall(r"\?([\w-]+)", params), text)
        self.facts = {}
        for key, value in template["predicates"].items():
            name, *variables = key.strip("()").split()
            self.facts[name] = ([v.lstrip("?") for v in variables], value if isinstance(value, str) else value["text"])

    @staticmethod
    def _fill(pddl: str, table: dict) -> str:
        name, *args = pddl.strip("()").split()
        variables, text = table[name]
        for variable, arg in zip(variables, args):
            text = text.replace("{" + variable + "}", arg)
        return text

    def action(self, pddl: str) -> str:
        return self._fill(pddl, self.actions)

    def item(self, pddl: str) -> str:
        """An action or a literal (the answers of rac_comp are either)."""
        return self.action(pddl) if pddl.strip("()").split()[0] in self.actions else self.literal(pddl)

    def literal(self, pddl: str) -> str:
        if pddl.startswith("(not "):
            return "it is not the case that " + self._fill(pddl[5:-1].strip(), self.facts)
        return self._fill(pddl, self.facts)


def listed(items: list[str]) -> str:
    return "; ".join(items[:-1]) + ("; and " if len(items) > 1 else "") + items[-1]


def stepped(actions: list[str]) -> str:
    words = ["First"] + ["Then"] * (len(actions) - 2) + ["Finally"] if len(actions) > 1 else ["Simply"]
    return " ".join(f"{w}, {a}." if w != "Simply" else f"{w} {a}." for w, a in zip(words, actions))


def answers(record: dict, english: English) -> list[tuple[str, str, float]]:
    """(what, response in the template's English, the score it must get) for the record's stored answer and
    wrong twins: a set missing one element, a plan without its last step, an atom or action ruled out."""
    task, answer = record["task"], record["answer"]
    out = []
    if task in ("app", "rac_exec", "rac_comp", "rac_state", "rac_fluent", "rac_effects") and len(answer) >= 2:
        words = [english.item(a) for a in answer]
        out += [("all", f"The answer is: {listed(words)}.", 1.0)]
        out += [("one missing", f"The answer is: {listed(words[1:])}.", 0.0)]
    if task in ("plan", "optplan") and len(answer) >= 2:
        words = [english.action(a) for a in answer]
        out += [("plan", stepped(words), 1.0), ("last step missing", stepped(words[:-1]), 0.0)]
    if task in ("land", "nexta"):
        say = english.literal if task == "land" else english.action
        out += [("yes", f"The answer is: {say(a)}.", 1.0) for a in answer["yes"][:2]]
        out += [("no", f"The answer is: {say(a)}.", 0.0) for a in answer["no"][:2]]
    if task == "prog":
        pos, neg = (listed([english.literal(a) for a in answer[k]]) if answer[k] else "none" for k in ("pos", "neg"))
        out += [("effects", f"Positive effects: {pos}. Negative effects: {neg}.", 1.0)]
        out += [("swapped", f"Positive effects: {neg}. Negative effects: {pos}.", 0.0)]
    return out
