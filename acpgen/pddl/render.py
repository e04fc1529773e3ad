"""PDDL text from objects and atoms (never by editing PDDL text): problems and domains.

:func:`problem_text` is the one writer of problem files, in the layout of the reference records:
objects grouped by type (types and names sorted), one section per line indented by four spaces, a
one-literal goal written without ``and``. Generated problems and the problems of planner queries
and exported records (:func:`render_problem`, from a ground task) both go through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import LiftedTask, Literal, derived_rules_text


def problem_text(
    name: str,
    domain: str,
    objects: Mapping[str, str],
    init: Iterable[str],
    goal: Sequence[str],
    requirements: str | None = None,
    typed: bool = True,
) -> str:
    """PDDL problem text: ``objects`` maps each object to its type (grouped as ``a b - t``, or a plain
    sorted list when not ``typed``); ``init`` atoms and ``goal`` literals are written in the order given;
    the ``:requirements`` line only when ``requirements`` is given."""
    groups: dict[str, list[str]] = {}
    for obj, type_name in objects.items():
        groups.setdefault(type_name, []).append(obj)
    if typed:
        objects_text = " ".join(" ".join(sorted(names)) + f" - {t}" for t, names in sorted(groups.items()))
    else:
        objects_text = " ".join(sorted(objects))
    goal_text = goal[0] if len(goal) == 1 else "(and " + " ".join(goal) + ")"
    lines = [f"(define (problem {name})", f"    (:domain {domain})"]
    if requirements:
        lines.append(f"    (:requirements {requirements})")
    lines += [f"    (:objects {objects_text})", f"    (:init {' '.join(init)})", f"    (:goal {goal_text})", ")"]
    return "\n".join(lines) + "\n"


def render_problem(
    task: GroundTask,
    state: int,
    name: str | None = None,
    requirements: str | None = None,
    goal: tuple[int, int] | None = None,
    extra_init: tuple[str, ...] = (),
    extra_goal: tuple[str, ...] = (),
) -> str:
    """PDDL problem with ``state`` as ``:init`` and the task's goal (or ``goal``: positive, negative masks).

    ``extra_init``/``extra_goal``: literals of helper predicates added to ``:init`` and the goal (see
    :func:`render_domain`). Derived atoms are left out of ``:init``: the planner derives them again.
    """
    lifted = task.lifted
    pos, neg = goal if goal is not None else (task.goal_pos, task.goal_neg)
    if goal is None:  # the masks leave out the static goal literals; one the initial state contradicts stays
        extra_goal = (*(_literal(lit) for lit in task.goal_contradicted), *extra_goal)
    return problem_text(
        name or lifted.problem_name,
        lifted.domain_name,
        {obj: type_name for obj, type_name in lifted.objects.items() if obj not in lifted.constants},
        [*task.state_atoms(state & ~task.derived_mask), *extra_init],
        sorted(task.atoms.atoms(pos)) + [f"(not {a})" for a in sorted(task.atoms.atoms(neg))] + list(extra_goal),
        requirements,
        typed=set(lifted.supertypes) != {"object"},
    )


def _literal(lit: Literal) -> str:
    atom = f"({' '.join([lit.predicate, *lit.args])})"
    return atom if lit.positive else f"(not {atom})"


def _joined(connective: str, parts: list[str]) -> str:
    """``(and a b)``; a single part stands alone (some parsers reject one-element connectives)."""
    if len(parts) == 1:
        return parts[0]
    return f"({connective} {' '.join(parts)})" if parts else "(and)"


NEVER_PREFIX = "acp-never-"
NEVER_HIT = "acp-never-hit"  # derived: a marked atom of a derived predicate holds (see render_domain)


def _parent(supertypes: dict[str, tuple[str, ...]], type_name: str) -> str:
    """The immediate parent type: the ancestor with the most ancestors of its own."""
    ancestors = supertypes[type_name][1:]
    return max(ancestors, key=lambda a: (len(supertypes.get(a, (a,))), a))


def _never_hit_rule(predicate: str, types: tuple[str, ...]) -> str:
    """``acp-never-hit`` holds while an instance of ``predicate`` marked by ``acp-never-<predicate>`` holds."""
    variables = [f"?x{i}" for i in range(len(types))]
    marked = f"(and ({' '.join([NEVER_PREFIX + predicate, *variables])}) ({' '.join([predicate, *variables])}))"
    if variables:
        marked = f"(exists ({' '.join(f'{v} - {t}' for v, t in zip(variables, types))}) {marked})"
    return f"(:derived ({NEVER_HIT}) {marked})"


def render_domain(
    lifted: LiftedTask, name: str | None = None, never_add: str | None = None, extra_rules: Sequence[str] = ()
) -> str:
    """PDDL domain text of a :class:`LiftedTask`'s domain (unit costs, no action costs).

    ``never_add=predicate``: a static predicate ``acp-never-<predicate>`` of the same arity is
    declared, and every action adding an instance of ``predicate`` requires that instance not to
    be marked by it. Marking one ground atom in the problem's init (see :func:`render_problem`)
    removes exactly the groundings that would add it: the "p never achieved" landmark test in
    lifted form, so the translator's invariant synthesis still sees the original schemas. For a
    derived ``predicate`` (no action adds it) a derived atom ``acp-never-hit`` holds while the marked
    instance holds; every action requires it false, and so must the goal (``extra_goal`` of
    :func:`render_problem`: ``(not (acp-never-hit))``).

    The domain's ``(:derived ...)`` rules are written as they were read, then ``extra_rules`` (texts of
    further ``(:derived ...)`` rules, whose predicates ``lifted.predicates`` must declare).
    """
    ordered = sorted(lifted.supertypes, key=lambda t: (len(lifted.supertypes[t]), t))  # parents first
    types = " ".join(f"{t} - {_parent(lifted.supertypes, t)}" for t in ordered if len(lifted.supertypes[t]) > 1)
    constants = " ".join(f"{c} - {lifted.objects[c]}" for c in sorted(lifted.constants))
    declared = dict(lifted.predicates)
    rules = (derived_rules_text(lifted.domain_text) if lifted.axioms else []) + list(extra_rules)
    never_derived = never_add is not None and never_add in lifted.derived_predicates
    if never_add is not None:
        declared[NEVER_PREFIX + never_add] = lifted.predicates[never_add]
        if never_derived:
            declared[NEVER_HIT] = ()
            rules.append(_never_hit_rule(never_add, lifted.predicates[never_add]))
    predicates = " ".join(
        "(" + " ".join([p, *(f"?x{i} - {t}" for i, t in enumerate(args))]) + ")" for p, args in sorted(declared.items())
    )
    lines = [
        f"(define (domain {name or lifted.domain_name})",
        "    (:requirements :typing :negative-preconditions :disjunctive-preconditions :equality"
        + (" :existential-preconditions :universal-preconditions :derived-predicates)" if rules else ")"),
        f"    (:types {types})" if types else "",
        f"    (:constants {constants})" if constants else "",
        f"    (:predicates {predicates})",
    ]
    for schema in lifted.schemas.values():
        precondition = _joined("or", [_joined("and", [_literal(lit) for lit in c]) for c in schema.precondition])
        if never_add is not None:
            for lit in schema.add:
                if lit.predicate == never_add:
                    marker = " ".join([NEVER_PREFIX + never_add, *lit.args])
                    precondition = f"(and {precondition} (not ({marker})))"
            if never_derived:
                precondition = f"(and {precondition} (not ({NEVER_HIT})))"
        effects = [_literal(lit) for lit in schema.add] + [f"(not {_literal(lit)})" for lit in schema.delete]
        params = " ".join(f"{v} - {t}" for v, t in schema.params)
        lines.append(
            f"    (:action {schema.name} :parameters ({params})\n"
            f"        :precondition {precondition}\n        :effect {_joined('and', effects)})"
        )
    lines += [f"    {rule}" for rule in rules]
    lines.append(")")
    return "\n".join(line for line in lines if line) + "\n"
