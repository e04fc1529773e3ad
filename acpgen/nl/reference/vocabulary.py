"""The reference benchmark's wording of actions and facts, and matching its text to ground names.

The reference gen contexts list every action schema and fluent predicate with an English text
("(sail ?from ?to) - travel by sea from location ?from to location ?to"), in several paraphrases
across records. `harvest` collects them into ``vocabulary.json`` (committed; regenerate with
``python -m acpgen.nl.reference.vocabulary tests/fixtures/acpbench-dev``); ``phrases.yaml`` adds the
phrasings that bool/mcq questions use and no listing shows (written by hand from the dev records).
Matching is exact up to case and blanks: a text either reads as one ground action/atom of a
template, or not at all (then the caller decides what an unmatched text means).
"""

from __future__ import annotations

import json
import re
import sys
from functools import cache
from pathlib import Path

from acpgen.data import load_yaml

HERE = Path(__file__).resolve().parent
VOCABULARY = HERE / "vocabulary.json"
PHRASES = HERE / "phrases.yaml"
_LISTING = re.compile(r"The available (actions|propositions) are: (.*?)(?: The goal is to reach|$)")
_ITEM = re.compile(r"\(([^()?\s]+)((?:\s+\?[^\s()]+)*)\)\s+-\s+")


def _split_listing(body: str) -> list[tuple[str, tuple[str, ...], str]]:
    """'(a ?x) - text, (b) - text2, and (c ?y) - text3.' -> [(a, (?x,), text), ...]."""
    items = list(_ITEM.finditer(body))
    out = []
    for i, match in enumerate(items):
        end = items[i + 1].start() if i + 1 < len(items) else len(body)
        text = body[match.end() : end].strip()
        text = re.sub(r"(?:,\s*(?:and)?|\s+and|;)\s*$", "", text).strip().rstrip(".;").strip()
        out.append((match.group(1).lower(), tuple(match.group(2).split()), text))
    return out


def harvest(records) -> dict[str, dict[str, list]]:
    """Per PDDL domain name: the action and proposition texts of the records' listings."""
    found: dict[str, dict[str, set]] = {}
    for record in records:
        match = re.search(r"\(domain\s+([^\s)]+)", record.get("PDDL_domain", ""))
        if not match:
            continue
        store = found.setdefault(match.group(1).lower(), {"actions": set(), "facts": set()})
        context = " ".join(record["context"].split())
        for listing in _LISTING.finditer(context):
            kind = "actions" if listing.group(1) == "actions" else "facts"
            store[kind].update(_split_listing(listing.group(2)))
    return {
        d: {k: sorted([n, list(v), t] for n, v, t in items) for k, items in kinds.items()}
        for d, kinds in sorted(found.items())
    }


class Template:
    """One wording: ``(name ?a ?b)`` read from text such as 'board car ?a at location ?b'."""

    def __init__(self, name: str, variables: list[str], text: str):
        self.name, self.variables = name, variables
        pattern, groups = re.escape(" ".join(text.split())), {}
        for k, var in enumerate(sorted({v for v in variables if v.startswith("?")}, key=len, reverse=True)):
            groups[var] = f"v{k}"
            # later occurrences of a variable must repeat the same object
            pattern = pattern.replace(re.escape(var), f"(?P<v{k}>[A-Za-z0-9_-]+)", 1).replace(
                re.escape(var), f"(?P=v{k})"
            )
        self.groups = groups
        self.regex = re.compile(pattern + r"[.;]?", re.IGNORECASE)

    def read(self, text: str) -> str | None:
        match = self.regex.fullmatch(text)
        if not match:
            return None
        # a variable list may name a fixed object (phrases.yaml: "the left gripper" is left1)
        args = [match.group(self.groups[v]) if v.startswith("?") else v for v in self.variables]
        return "(" + " ".join([self.name, *(a.lower() for a in args)]) + ")"


@cache
def templates(domain: str) -> dict[str, list[Template]]:
    """Action and fact wordings of a reference domain (PDDL name), listings and hand-written phrases."""
    vocabulary = json.loads(VOCABULARY.read_text()) if VOCABULARY.exists() else {}
    phrases = load_yaml(PHRASES.read_text()) if PHRASES.exists() else {}
    out: dict[str, list[Template]] = {"actions": [], "facts": []}
    for source in (vocabulary.get(domain, {}), phrases.get(domain, {}) or {}):
        for kind, found in out.items():
            found.extend(Template(name, list(variables), text) for name, variables, text in source.get(kind, []))
    return out


def read_one(domain: str, kind: str, text: str, valid) -> str | None:
    """The single ground name (action or atom) the text reads as, kept only if ``valid(name)``."""
    text = " ".join(text.split()).strip().rstrip(".;").strip()
    found = {name for t in templates(domain)[kind] if (name := t.read(text)) is not None and valid(name)}
    return found.pop() if len(found) == 1 else None


def read_many(domain: str, kind: str, text: str, valid, separator: str = " and ") -> list[str] | None:
    """A text of several items joined by ``separator`` (any split where every part reads as one item)."""
    parts = text.split(separator)

    def split(start: int) -> list[str] | None:
        for end in range(len(parts), start, -1):
            name = read_one(domain, kind, separator.join(parts[start:end]), valid)
            if name is None:
                continue
            if end == len(parts):
                return [name]
            rest = split(end)
            if rest is not None:
                return [name, *rest]
        return None

    return split(0)


if __name__ == "__main__":  # python -m acpgen.nl.reference.vocabulary DEV_FOLDER
    folder = Path(sys.argv[1])
    records = [r for f in sorted(folder.glob("*.gen.json")) for r in json.loads(f.read_text())]
    VOCABULARY.write_text(json.dumps(harvest(records), indent=1) + "\n")
    print(f"wrote {VOCABULARY}")
