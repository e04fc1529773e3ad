"""Records on the wire, described once: the JSON objects acp reads and writes.

The key order of an exported record is the order of these declarations (the reference schemas
first, then acp's structured fields), so the exporters take their key lists from here.
"""

from __future__ import annotations

from typing import Any, TypedDict


def is_unsolvable(record: dict[str, Any]) -> bool:
    """Whether a record says that no plan reaches the goal from its state (``"solvable": false``)."""
    return record.get("solvable") is False


class ReferenceGenRecord(TypedDict):
    """An open-ended record of the reference ACPBench-Hard schema."""

    id: int
    group: str
    context: str
    question: str
    answer: Any  # the task's answer shape (see each task's ``export_answer``)
    PDDL_domain: str
    PDDL_problem: str  # the question's state is the problem's :init


class GenFields(TypedDict, total=False):
    """acp's structured fields after the reference ones: what scoring and validation read instead of prose."""

    task: str
    domain: str
    problem: str
    state: str
    uid: str
    representation: str
    plan: list[str]  # val, just, pver: the sequence the question shows
    action: str  # prog; rac_effects: the further action
    sequence: list[str]  # rac_*: the action sequence
    variant: str  # rac_*: which question text
    category: str  # rac_*: fluent, state, executability, effects, numerical, composite
    fluent_type: str | None  # rac_*: static, base, derived, self_derived, or the mixes all / fluents (None: actions)
    fluent_types: dict[str, list[str]]  # rac_*: fluent type -> predicates, the same in every record of a domain
    sequence_length: int  # rac_*
    object: str  # rac_fluent, rac_num, rac_comp: the object asked about
    ramifications: bool  # rac_*: asked about the ramification variant of the domain (PDDL with :derived rules)
    level: int  # records of a difficulty level only (acpgen.generation.levels)
    features: dict[str, int | None]  # with level: acpgen.proofs.features.state_features
    abstraction: str  # t2p: explicit_explicit, explicit_abstract, abstract_explicit, abstract_abstract
    placeholder: bool  # t2p: the goal names no object (any objects fitting it are correct)
    size: int  # t2p: true propositions of the problem (initial facts and goal literals)
    size_band: str  # t2p: Planetarium's band of size: 1-20, 21-40, 41-60, 61-80, >80
    pattern_class: str  # t2p: <init pattern>_to_<goal pattern>, "explicit" for an explicit part
    init_pattern: dict[str, str]  # t2p: the abstract initial state's pattern {"name", "text"}
    goal_pattern: dict[str, str]  # t2p: the abstract goal's pattern {"name", "text"}
    optimal_cost: int  # plan, optplan: the proven optimal cost from the state (the stored plan's length)
    perturbation: str  # pver: how the sequence was made from a stored plan (plan, truncated, steps_swapped, ...)
    obfuscation: str  # an obfuscated run's mode: mystery or random (acpgen.pddl.obfuscate)
    renaming: dict[str, Any]  # with obfuscation: original name -> the name in the record, per table (Renaming.to_dict)
    template: str  # a user's template (YAML) the record's English was written with; absent: acp's own for ``domain``
    solvable: bool  # plan, optplan, pver: false for a state no plan reaches the goal from (absent otherwise)


class GenRecord(ReferenceGenRecord, GenFields):
    """An exported open-ended record (``<task>.gen.jsonl``)."""


class ReferenceBoolRecord(TypedDict):
    id: int
    group: str
    context: str
    question: str
    answer: str  # yes | no


class ReferenceMcqRecord(TypedDict):
    id: int
    group: str
    context: str
    question: str
    choices: dict[str, list[str]]  # {"text": [...], "label": ["A", "B", "C", "D"]}
    query: str
    answer: str  # A-D


class ChoiceFields(TypedDict, total=False):
    """acp's fields after the reference ones of a bool/mcq record: the PDDL and the claims behind it."""

    task: str
    format: str  # bool | mcq
    domain: str
    problem: str
    state: str
    uid: str
    representation: str
    PDDL_domain: str
    PDDL_problem: str
    action: str  # prog
    plan: list[str]  # just
    sequence: list[Any]  # val: action names, or wrong-action objects
    variant: str  # which question text (val properties, just single/pair)
    claim: dict[str, Any]  # bool: one claim (acpgen.proofs.claims)
    options: list[dict[str, Any]]  # mcq: four claims
    category: str  # rac_*
    fluent_type: str | None  # rac_*
    fluent_types: dict[str, list[str]]  # rac_*: fluent type -> predicates, the same in every record of a domain
    sequence_length: int  # rac_*
    object: str  # rac_*
    ramifications: bool  # rac_*: asked about the ramification variant of the domain
    level: int  # records of a difficulty level only (acpgen.generation.levels)
    features: dict[str, int | None]  # with level: acpgen.proofs.features.state_features
    obfuscation: str  # an obfuscated run's mode: mystery or random (acpgen.pddl.obfuscate)
    renaming: dict[str, Any]  # with obfuscation: original name -> the name in the record, per table (Renaming.to_dict)
    template: str  # a user's template (YAML) the record's English was written with; absent: acp's own for ``domain``
    solvable: bool  # plan, optplan, pver: false for a state no plan reaches the goal from (absent otherwise)


class QARecord(TypedDict, total=False):
    """A symbolic question of the qa stage (``qa/<task>[.<format>].jsonl``, keys sorted), before text."""

    id: int
    uid: str
    task: str
    format: str  # absent for open-ended questions
    group: str
    domain: str
    problem: str
    state: str
    PDDL_domain: str
    PDDL_problem: str
    answer: Any
    action: str
    plan: list[str]
    sequence: list[Any]
    variant: str
    claim: dict[str, Any]
    options: list[dict[str, Any]]
    abstraction: str
    placeholder: bool
    size: int
    size_band: str
    pattern_class: str
    init_pattern: dict[str, str]
    goal_pattern: dict[str, str]
    optimal_cost: int
    perturbation: str
    obfuscation: str
    renaming: dict[str, Any]
    template: str
    solvable: bool


def keys(schema: type) -> tuple[str, ...]:
    """The keys of a record type, in declaration order (base classes first)."""
    return tuple(schema.__annotations__)


REFERENCE_KEYS = {"gen": keys(ReferenceGenRecord), "bool": keys(ReferenceBoolRecord), "mcq": keys(ReferenceMcqRecord)}
STRUCTURED_KEYS = {"gen": keys(GenFields), "bool": keys(ChoiceFields), "mcq": keys(ChoiceFields)}
