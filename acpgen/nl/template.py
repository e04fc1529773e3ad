"""Domain templates: `acpgen/data/templates/<domain>.yaml` read, checked against the domain, and applied to atoms.

A template is data (see `acpgen/data/templates/README.md`): a domain description, a sentence giving the
problem's size, the natural-language form of every predicate (with the variable names used in
its text, e.g. ``(at ?car ?loc)``) and of every action schema (its text uses the schema's own
parameter names). The shared task questions live in `acpgen/data/templates/questions.yaml`; a domain file
may override one. Loading checks the template against the PDDL domain, so a missing or
misspelt entry is reported with the predicate or action it concerns and the file to edit.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import yaml

from acpgen.data import TEMPLATES_DIR, load_yaml
from acpgen.errors import AcpError
from acpgen.nl.template_patterns import PatternDecl, PatternDeclError, parse_patterns
from acpgen.pddl.model import LiftedTask

TEMPLATES_ENV = "ACP_TEMPLATES_DIR"  # another templates folder (a copy to edit, user templates)
QUESTIONS_FILE = "questions.yaml"
# What a state or goal can leave out because the description already says it; each rule is
# checked against the problem's facts before anything is left out (see `implied_holds`).
# "converse PRED": PRED's facts reversed; "named SUFFIX": (x, t) for every x whose name minus its
# trailing number, plus SUFFIX, is an object t of the second argument's type (apple1 -> appletype).
# "join P Q": exactly the pairs (a, c) with P(a, b) and Q(b, c) for some b.
IMPLIED_RULES = ("distinct", "grid-neighbours", "converse", "named", "join")
RULE_ARITY = {"converse": 1, "named": 1, "join": 2}
SIZE_KINDS = ("n", "list", "grid", "gaps")
PLACEHOLDER = re.compile(r"\{([^{}:]+)(?::([^{}]+))?\}")
TODO = re.compile(r"\bTODO\b")  # marks a text that `acp template init` left for the user to write
SIGNATURE = re.compile(r"^\(\s*([^\s()]+)((?:\s+\?[^\s()]+)*)\s*\)$")


@dataclass(frozen=True)
class TaskTexts:
    """What the registered tasks ask of a template's questions (``acpgen.tasks.task_texts``): the keys
    of the texts they use (``app``, ``bool.val.plan``, ``mcq.option.app``, ...) and texts they bring
    themselves (a task of another package cannot edit ``questions.yaml``; ``questions.yaml`` and a
    domain's ``questions`` override them). The default asks for nothing."""

    required: tuple[str, ...] = ()
    defaults: tuple[tuple[str, str], ...] = ()

    def merged(self, flat: dict[str, str], where: Path) -> dict[str, str]:
        """``flat`` over the tasks' own texts; TemplateError naming ``where`` when a required text is missing."""
        out = {**{key: " ".join(text.split()) for key, text in self.defaults}, **flat}
        missing = [key for key in self.required if key not in out]
        if missing:
            raise TemplateError(f"{where}: no question text for task(s) {', '.join(missing)}")
        return out


NO_TASK_TEXTS = TaskTexts()


def _flatten(tree: dict, prefix: str = "") -> dict[str, str]:
    """{"bool": {"val": {"plan": t}}} -> {"bool.val.plan": t}, texts with normalised blanks."""
    out = {}
    for key, value in tree.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, name + "."))
        else:
            out[name] = " ".join(str(value).split())
    return out


class TemplateError(AcpError):
    """A template file is missing, malformed or does not fit its PDDL domain."""


@dataclass(frozen=True)
class PredicateText:
    """How atoms of one predicate read: ``text`` for one atom, ``plural`` when atoms merge."""

    name: str
    variables: tuple[str, ...]
    text: str
    plural: str | None = None
    merge: str | None = None  # the variable whose values are listed when atoms merge
    implied: str | None = None  # an IMPLIED_RULES name: left out when the rule holds

    def fill(self, args: tuple[str, ...], merged: list[str] | None = None) -> str:
        values = dict(zip(self.variables, args))
        text = self.text
        if merged is not None:
            if self.merge is None or self.plural is None:
                raise TemplateError(f"predicate '{self.name}' has no 'merge' and 'plural' to list {merged}")
            values[self.merge] = join_names(merged)
            if len(merged) > 1:
                text = self.plural
        return substitute(text, values)


@dataclass(frozen=True)
class WrongAction:
    """A text describing something no action of the domain does, with typed placeholders."""

    text: str
    types: dict[str, str]  # placeholder -> object type, in argument order


@dataclass(frozen=True)
class TextClash:
    """Two entries of a template that read the same (`DomainTemplate.text_clashes`)."""

    first: str  # the entry and its text: "predicate 'at' text", "predicate 'in' plural", "action 'sail'"
    second: str
    reading: str

    def message(self, path: Path | str) -> str:
        """The finding as one line: the file, both entries, what they share and the fix."""
        return (
            f"{path}: {self.first} and {self.second} both read '{self.reading}' (objects left open, of the "
            f"same types): reword one of them so that the two read differently"
        )


@dataclass(frozen=True)
class _Worded:
    """One text of a template entry: ``what`` names it in messages; ``kind`` is predicate, action or wrong
    (a wrong action), ``owner`` the predicate, the action or the wrong action's number."""

    what: str
    kind: str
    owner: str
    text: str


# Which entries must read differently: two predicates, two actions, an action and a wrong action.
_CLASHING_KINDS = ({"predicate"}, {"action"}, {"action", "wrong"})


def _overlap(one: str, other: str, lifted: LiftedTask) -> bool:
    """Whether an object can be of both types: one of them is the other or one of its ancestors."""
    ancestors = lifted.supertypes
    return one in ancestors.get(other, (other, "object")) or other in ancestors.get(one, (one, "object"))


def reading(text: str) -> str:
    """How a text reads with its objects left open: each placeholder ``{}``, lower case, blanks normalised,
    no final full stop (``"Car {car} is at {loc}."`` -> ``"car {} is at {}"``), as answers are read."""
    return " ".join(PLACEHOLDER.sub("{}", text).lower().split()).rstrip(". ")


@dataclass(frozen=True)
class DomainTemplate:
    domain: str
    path: Path
    description: str
    size: str
    predicates: dict[str, PredicateText]
    actions: dict[str, str]
    questions: dict[str, str]
    static_intro: str = ""
    layout: str = ""  # optional sentence after the size, e.g. the naming scheme of grid cells
    wrong_actions: tuple[WrongAction, ...] = ()
    fluent_types: dict[str, str] = field(default_factory=dict)  # predicate -> fluent type (acpgen.pddl.fluents)
    ramifications: tuple[dict[str, Any], ...] = ()  # rules of the ramification variant (acpgen.pddl.ramifications)
    patterns: tuple[PatternDecl, ...] = ()  # abstract descriptions for t2p (acpgen.nl.template_patterns)

    def check(self, lifted: LiftedTask, *, unambiguous: bool = True) -> None:
        """Raise `TemplateError` unless every predicate and action of the domain has a fitting entry and
        (``unambiguous``) no two entries read the same (`check_unambiguous`)."""
        where = f"{self.path}"
        self.check_filled_in()
        for pred, types in lifted.predicates.items():
            if pred == "=":
                continue
            entry = self.predicates.get(pred)
            if entry is None:
                raise TemplateError(
                    f"{where}: no entry for predicate '{pred}' ({len(types)} argument(s)); add "
                    f"'({pred}{''.join(f' ?x{i}' for i in range(len(types)))})': {{text: ...}} under predicates"
                )
            if len(entry.variables) != len(types):
                raise TemplateError(
                    f"{where}: predicate '{pred}' has {len(types)} argument(s) in the domain, "
                    f"the template declares {len(entry.variables)}"
                )
        for pred in self.predicates:
            if pred not in lifted.predicates:
                raise TemplateError(f"{where}: predicate '{pred}' is not in the domain {lifted.domain_name}")
        self._check_action_entries(lifted)
        self._check_action_texts()
        self._check_action_names(lifted)
        for number, decl in enumerate(self.patterns):
            try:
                decl.check(f"{where}: patterns[{number}] ({decl.name})", lifted)
            except PatternDeclError as err:
                raise TemplateError(str(err)) from None
        for match in PLACEHOLDER.finditer(self.size):
            kind, type_name = match.group(1), (match.group(2) or "").split("|")[0]
            if kind not in SIZE_KINDS or not type_name:
                raise TemplateError(
                    f"{where}: size placeholder '{match.group(0)}' must be one of {{n:TYPE}}, "
                    f"{{n:TYPE|singular|plural}}, {{list:TYPE}}, {{grid:TYPE}}, {{gaps:TYPE}}"
                )
            if type_name not in lifted.supertypes and type_name != "object":
                raise TemplateError(f"{where}: size placeholder '{match.group(0)}' names no type of the domain")
        if unambiguous:
            self.check_unambiguous(lifted)

    @cached_property
    def _same_readings(self) -> tuple[tuple[_Worded, _Worded], ...]:
        """Pairs of entries whose texts have the same `reading`, before their objects' types are compared: two
        predicates (the texts, and the plurals of merged ones), two actions, or an action and a wrong action."""
        entries: list[_Worded] = []
        for entry in self.predicates.values():
            entries.append(_Worded(f"predicate '{entry.name}' text", "predicate", entry.name, entry.text))
            if entry.merge is not None and entry.plural is not None:
                entries.append(_Worded(f"predicate '{entry.name}' plural", "predicate", entry.name, entry.plural))
        entries += [_Worded(f"action '{name}'", "action", name, text) for name, text in self.actions.items()]
        entries += [_Worded(f"wrong_actions[{k}]", "wrong", str(k), w.text) for k, w in enumerate(self.wrong_actions)]
        by_reading: dict[str, list[_Worded]] = {}
        for worded in entries:
            by_reading.setdefault(reading(worded.text), []).append(worded)
        pairs = []
        for found in by_reading.values():
            for one, other in itertools.combinations(found, 2):
                kinds = {one.kind, other.kind}
                if (one.kind, one.owner) != (other.kind, other.owner) and kinds in _CLASHING_KINDS:
                    pairs.append((one, other))
        return tuple(pairs)

    def text_clashes(self, lifted: LiftedTask) -> list[TextClash]:
        """Pairs of entries that read the same: their texts have the same `reading` and, placeholder by
        placeholder, the objects named can be of both entries' types (one type is the other or a subtype of
        it; untyped is ``object``). Two predicates (the texts, and the plurals of merged ones), two actions,
        or an action and a wrong action: a reader of such a text cannot tell which of the two it names.
        (Answers are read into type-correct atoms and actions only, so texts shared by entries over types
        no object has in common, such as a wrong action over the wrong types, read as one entry.)"""
        if not self._same_readings:
            return []
        known = self._clashes_by_domain.get(lifted.domain_text) if lifted.domain_text else None
        if known is None:
            known = []
            for one, other in self._same_readings:
                mine, theirs = self._placeholder_types(one, lifted), self._placeholder_types(other, lifted)
                if mine is None or theirs is None:
                    continue
                if all(_overlap(a, b, lifted) for a, b in zip(mine, theirs)):
                    known.append(TextClash(one.what, other.what, reading(one.text)))
            if lifted.domain_text:
                self._clashes_by_domain[lifted.domain_text] = known
        return list(known)

    @cached_property
    def _clashes_by_domain(self) -> dict[str, list[TextClash]]:
        """`text_clashes` by domain text (a describer checks its template once per record)."""
        return {}

    def _placeholder_types(self, worded: _Worded, lifted: LiftedTask) -> list[str] | None:
        """The types of the objects a text names, in the order of its placeholders (None: an entry that does
        not fit the domain, which `check` reports)."""
        if worded.kind == "predicate":
            entry, declared = self.predicates[worded.owner], lifted.predicates.get(worded.owner)
            if declared is None or len(declared) != len(entry.variables):
                return None
            types = dict(zip(entry.variables, declared))
        elif worded.kind == "action":
            schema = next((s for n, s in lifted.schemas.items() if n.lower() == worded.owner), None)
            if schema is None:
                return None
            types = {v.lstrip("?"): t for v, t in schema.params}
        else:
            types = self.wrong_actions[int(worded.owner)].types
        named = [m.group(1) for m in PLACEHOLDER.finditer(worded.text)]
        return [types[name] for name in named] if all(name in types for name in named) else None

    def check_unambiguous(self, lifted: LiftedTask) -> None:
        """Raise `TemplateError` naming every pair of `text_clashes`, one line each, with the fix."""
        clashes = self.text_clashes(lifted)
        if clashes:
            raise TemplateError("\n".join(clash.message(self.path) for clash in clashes))

    def check_filled_in(self) -> None:
        """Raise `TemplateError` listing every text that still contains the word TODO (`acp template init`
        writes the description and the size that way, so that a user must write them)."""
        texts: list[tuple[str, str | None]] = [
            ("description", self.description),
            ("size", self.size),
            ("layout", self.layout),
        ]
        texts += [("static", self.static_intro)]
        for entry in self.predicates.values():
            texts += [
                (f"predicate '{entry.name}' text", entry.text),
                (f"predicate '{entry.name}' plural", entry.plural),
            ]
        texts += [(f"action '{name}'", text) for name, text in self.actions.items()]
        texts += [(f"wrong_actions[{k}]", w.text) for k, w in enumerate(self.wrong_actions)]
        unfinished = [what for what, text in texts if text and TODO.search(text)]
        if unfinished:
            raise TemplateError(
                f"{self.path}: still TODO: {', '.join(unfinished)}; replace each TODO text with your own words "
                f"(format: {TEMPLATES_DIR / 'README.md'})"
            )

    def schema_variables(self, lifted: LiftedTask, action: str) -> tuple[str, ...]:
        schema = _schema(lifted, action)
        return tuple(v.lstrip("?") for v, _ in schema.params)

    def _check_action_entries(self, lifted: LiftedTask) -> None:
        """Every action schema has an entry whose text mentions exactly the schema's parameters."""
        for name, schema in lifted.schemas.items():
            text = self.actions.get(name.lower())
            if text is None:
                raise TemplateError(
                    f"{self.path}: no entry for action '{name}' under actions (parameters "
                    f"{' '.join(v for v, _ in schema.params) or 'none'})"
                )
            variables = {v.lstrip("?") for v, _ in schema.params}
            used = {m.group(1) for m in PLACEHOLDER.finditer(text)}
            if used - variables:
                raise TemplateError(
                    f"{self.path}: action '{name}' text uses {sorted(used - variables)}, "
                    f"not parameters of the action ({sorted(variables)})"
                )
            if variables - used:
                raise TemplateError(
                    f"{self.path}: action '{name}' text does not mention parameter(s) {sorted(variables - used)}"
                )

    def _check_action_texts(self) -> None:
        """No action or wrong-action text contains ',' or ';' (plans list actions separated by commas)."""
        texts = [(f"action '{n}'", t) for n, t in self.actions.items()]
        texts += [(f"wrong_actions[{k}]", w.text) for k, w in enumerate(self.wrong_actions)]
        for what, text in texts:
            if "," in text or ";" in text:
                raise TemplateError(
                    f"{self.path}: {what} text contains ',' or ';' ('{text}'): plans list actions "
                    f"separated by commas, so action texts must not contain them"
                )

    def _check_action_names(self, lifted: LiftedTask) -> None:
        """Every action entry is an action of the domain; every wrong action's placeholder has a domain type."""
        known = {s.lower() for s in lifted.schemas}
        for name in self.actions:
            if name not in known:
                raise TemplateError(f"{self.path}: action '{name}' is not in the domain {lifted.domain_name}")
        for number, wrong in enumerate(self.wrong_actions):
            for name, type_name in wrong.types.items():
                if type_name not in lifted.supertypes and type_name != "object":
                    raise TemplateError(
                        f"{self.path}: wrong_actions[{number}] gives '{name}' the type '{type_name}', "
                        f"which the domain does not have"
                    )


def _schema(lifted: LiftedTask, action: str):
    for name, schema in lifted.schemas.items():
        if name.lower() == action.lower():
            return schema
    raise TemplateError(f"action '{action}' is not in the domain {lifted.domain_name}")


def substitute(text: str, values: dict[str, str]) -> str:
    def replace(match: re.Match) -> str:
        key = match.group(1)
        if match.group(2) is not None or key not in values:
            raise TemplateError(f"placeholder '{match.group(0)}' cannot be filled in '{text}'")
        return values[key]

    return PLACEHOLDER.sub(replace, text)


def join_names(names: list[str]) -> str:
    """'a', 'a and b', 'a, b, and c'."""
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]


def natural_key(text: str):
    """Sort key that puts c2 before c10."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", text)]


def _parse_predicate(path: Path, key: str, value) -> PredicateText:
    match = SIGNATURE.match(str(key).strip())
    if not match:
        raise TemplateError(f"{path}: predicate key '{key}' must look like '(pred ?var1 ?var2)'")
    name = match.group(1).lower()
    variables = tuple(v.lstrip("?") for v in match.group(2).split())
    if isinstance(value, str):
        value = {"text": value}
    if not isinstance(value, dict) or "text" not in value:
        raise TemplateError(f"{path}: predicate '{name}' needs a 'text'")
    unknown = set(value) - {"text", "plural", "merge", "implied"}
    if unknown:
        raise TemplateError(f"{path}: predicate '{name}' has unknown key(s) {sorted(unknown)}")
    entry = PredicateText(
        name, variables, str(value["text"]), value.get("plural"), value.get("merge"), value.get("implied")
    )
    for text in (entry.text, entry.plural):
        if text is None:
            continue
        used = {m.group(1) for m in PLACEHOLDER.finditer(text)}
        if used != set(variables):
            raise TemplateError(
                f"{path}: predicate '{name}' text '{text}' must use exactly the variables "
                f"{sorted(variables)} (uses {sorted(used)})"
            )
    if entry.merge is not None:
        if entry.merge not in variables:
            raise TemplateError(f"{path}: predicate '{name}' merges over '{entry.merge}', not one of its variables")
        if entry.plural is None:
            raise TemplateError(f"{path}: predicate '{name}' merges atoms and so needs a 'plural' text")
    rule = (entry.implied or "").split()
    if entry.implied is not None and (rule[0] not in IMPLIED_RULES or len(rule) != 1 + RULE_ARITY.get(rule[0], 0)):
        raise TemplateError(
            f"{path}: predicate '{name}' has implied '{entry.implied}'; known rules: {', '.join(IMPLIED_RULES)}"
        )
    return entry


def _read_yaml(path: Path) -> dict:
    if not path.exists():
        raise TemplateError(f"{path}: no such template file; write one (see {TEMPLATES_DIR / 'README.md'})")
    try:
        data = load_yaml(path.read_text())
    except yaml.YAMLError as err:
        raise TemplateError(f"{path}: not valid YAML ({err})") from None
    if not isinstance(data, dict):
        raise TemplateError(f"{path}: expected a mapping at the top level")
    return data


def templates_dir() -> Path:
    """The templates folder: ``$ACP_TEMPLATES_DIR`` when set, else the package's ``acpgen/data/templates/``."""
    return Path(os.environ.get(TEMPLATES_ENV) or TEMPLATES_DIR)


def load_template(domain: str, directory: Path | None = None, tasks: TaskTexts = NO_TASK_TEXTS) -> DomainTemplate:
    """The template of ``domain`` from ``directory`` (default: `templates_dir`), not yet checked
    against its PDDL (call `DomainTemplate.check`); ``tasks``: the question texts the tasks need."""
    directory = Path(directory) if directory is not None else templates_dir()
    return load_template_file(directory / f"{domain}.yaml", domain, directory, tasks)


def load_template_file(
    path: Path, domain: str, directory: Path | None = None, tasks: TaskTexts = NO_TASK_TEXTS
) -> DomainTemplate:
    """The template in file ``path`` for ``domain``, with the shared questions of ``directory``
    (default: `templates_dir`). Parsed once per content of its two files and question texts asked for."""
    directory = Path(directory) if directory is not None else templates_dir()
    contents = tuple(
        hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else None
        for p in (Path(path), directory / QUESTIONS_FILE)
    )
    return _parse_template(Path(path), domain, directory, contents, tasks)


@cache
def _parse_template(
    path: Path, domain: str, directory: Path, digests: tuple[str | None, ...], tasks: TaskTexts
) -> DomainTemplate:
    """`load_template_file` of files with the ``digests`` (so an edit is seen)."""
    return _template_of_data(path, _read_yaml(path), domain, directory, tasks)


@cache
def template_from_text(text: str, domain: str, label: str, tasks: TaskTexts = NO_TASK_TEXTS) -> DomainTemplate:
    """The template whose YAML is ``text`` (the template a record carries), with acp's own shared questions;
    ``label`` names it in errors and in ``path`` (it has no file). Parsed once per text."""
    try:
        data = load_yaml(text)
    except yaml.YAMLError as err:
        raise TemplateError(f"{label}: not valid YAML ({err})") from None
    if not isinstance(data, dict):
        raise TemplateError(f"{label}: expected a mapping at the top level")
    return _template_of_data(Path(label), data, domain, TEMPLATES_DIR, tasks)


def _template_of_data(path: Path, data: dict, domain: str, directory: Path, tasks: TaskTexts) -> DomainTemplate:
    """The template of the parsed YAML ``data`` (from ``path``) with the shared questions of ``directory``."""
    questions = _read_yaml(directory / QUESTIONS_FILE)
    unknown = set(data) - {
        "domain",
        "description",
        "size",
        "layout",
        "static",
        "predicates",
        "actions",
        "questions",
        "wrong_actions",
        "fluent_types",
        "ramifications",
        "patterns",
    }
    if unknown:
        raise TemplateError(f"{path}: unknown key(s) {sorted(unknown)}")
    for key in ("description", "size", "predicates", "actions"):
        if key not in data:
            raise TemplateError(f"{path}: missing '{key}'")
    predicates = {}
    for key, value in (data["predicates"] or {}).items():
        entry = _parse_predicate(path, key, value)
        predicates[entry.name] = entry
    actions = {str(k).lower(): str(v) for k, v in (data["actions"] or {}).items()}
    wrong_actions = []
    for number, entry in enumerate(data.get("wrong_actions") or []):
        if not isinstance(entry, dict) or "text" not in entry or not isinstance(entry.get("types"), dict):
            raise TemplateError(f"{path}: wrong_actions[{number}] needs 'text' and 'types' (placeholder: type)")
        wrong = WrongAction(" ".join(str(entry["text"]).split()), {str(k): str(v) for k, v in entry["types"].items()})
        used = {m.group(1) for m in PLACEHOLDER.finditer(wrong.text)}
        if used != set(wrong.types):
            raise TemplateError(
                f"{path}: wrong_actions[{number}] text uses {sorted(used)} but types name {sorted(wrong.types)}"
            )
        wrong_actions.append(wrong)
    fluent_types = data.get("fluent_types") or {}
    if not isinstance(fluent_types, dict):
        raise TemplateError(f"{path}: fluent_types must map predicates to fluent types (predicate: derived)")
    ramifications = data.get("ramifications") or []
    if not isinstance(ramifications, list) or not all(isinstance(r, dict) for r in ramifications):
        raise TemplateError(
            f"{path}: ramifications must be a list of rules (mappings); see {TEMPLATES_DIR / 'README.md'}"
        )
    try:
        patterns = parse_patterns(path, data.get("patterns"))
    except PatternDeclError as err:
        raise TemplateError(str(err)) from None
    merged_questions = {**questions, **(data.get("questions") or {})}
    flat = tasks.merged(_flatten(merged_questions), directory / QUESTIONS_FILE)
    return DomainTemplate(
        domain=domain,
        path=path,
        description=" ".join(str(data["description"]).split()),
        size=" ".join(str(data["size"]).split()),
        predicates=predicates,
        actions=actions,
        questions=flat,
        static_intro=" ".join(str(data.get("static") or "").split()),
        layout=" ".join(str(data.get("layout") or "").split()),
        wrong_actions=tuple(wrong_actions),
        fluent_types={str(k).lower(): str(v) for k, v in fluent_types.items()},
        ramifications=tuple(ramifications),
        patterns=patterns,
    )


def load_questions(directory: Path | None = None, tasks: TaskTexts = NO_TASK_TEXTS) -> dict[str, str]:
    """The shared task questions of ``directory`` (default: `templates_dir`; `questions.yaml`, over
    the tasks' own texts), flattened as in a template; a run without a domain template (PDDL
    representation) words its questions with these."""
    path = (Path(directory) if directory is not None else templates_dir()) / QUESTIONS_FILE
    return tasks.merged(_flatten(_read_yaml(path)), path)


def _coordinates(name: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", name))


def implied_holds(rule: str, atoms: list[tuple[str, ...]], domain_objects: Sequence[Sequence[str]]) -> bool:
    """Whether the atoms (argument tuples) are exactly what the rule says over the candidate objects.

    ``domain_objects`` gives, per argument position, the objects of that argument's type.
    ``distinct``: every pair of different objects. ``grid-neighbours``: every pair of objects whose
    names carry two numbers that differ by one in exactly one of them. ``named SUFFIX``: see
    IMPLIED_RULES. (``converse`` and ``join`` need other predicates' facts: `Describer` checks them.)
    """
    if len(domain_objects) != 2:
        return False
    left, right = domain_objects
    if rule.startswith("named "):
        suffix = rule.split()[1]
        targets = set(right)
        expected = set()
        for a in left:
            base = re.sub(r"\d+$", "", a)
            if base != a and base + suffix in targets:
                expected.add((a, base + suffix))
        return set(atoms) == expected
    if rule == "distinct":
        expected = {(a, b) for a in left for b in right if a != b}
    elif rule == "grid-neighbours":
        expected = set()
        for a in left:
            ca = _coordinates(a)
            if len(ca) != 2:
                return False
            for b in right:
                cb = _coordinates(b)
                if len(cb) == 2 and abs(ca[0] - cb[0]) + abs(ca[1] - cb[1]) == 1:
                    expected.add((a, b))
    else:
        return False
    return set(atoms) == expected


def grid_cells(names: list[str]) -> tuple[dict[tuple[int, int], str], str] | None:
    """Objects whose names carry exactly two numbers, by coordinates, and the naming pattern; else None."""
    cells, patterns = {}, set()
    for name in names:
        numbers = re.findall(r"\d+", name)
        if len(numbers) != 2:
            return None
        cells[(int(numbers[0]), int(numbers[1]))] = name
        patterns.add(re.sub(r"\d+", "{}", name))
    if len(patterns) != 1 or not cells:
        return None
    return cells, patterns.pop()


def grid_shape(names: list[str]) -> str:
    """'4 by 5' for names over coordinates 0..3 x 0..4 (the extent of the first and second number)."""
    found = grid_cells(names)
    if found is None:
        raise TemplateError(f"{{grid:...}} needs object names with two numbers, got {names[:3]}")
    cells, _ = found
    return f"{max(x for x, _ in cells) + 1} by {max(y for _, y in cells) + 1}"


def grid_gaps(names: list[str]) -> list[str]:
    """Names of the cells of the bounding grid (from 0) that are not objects: holes of a grid."""
    found = grid_cells(names)
    if found is None:
        raise TemplateError(f"{{gaps:...}} needs object names with two numbers, got {names[:3]}")
    cells, pattern = found
    width, height = max(x for x, _ in cells) + 1, max(y for _, y in cells) + 1
    return [pattern.format(x, y) for x in range(width) for y in range(height) if (x, y) not in cells]
