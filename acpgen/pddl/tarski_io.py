"""The only module that imports tarski: parse PDDL text or files into a :class:`LiftedTask`.

Supported fragment (everything the 13 reference domains use): typing with subtypes, constants,
equality and its negation, negative and disjunctive preconditions (any nesting of and/or/not,
normalised to disjunctive normal form), unconditional add/delete effects, conjunctive goals of
literals, and an ``:action-costs`` declaration, which is ignored (plan length is the cost).
Derived predicates (``:derived``, which tarski does not read: acp reads their rules through tarski's
parse tree) may use and/or/not, equality and existential and universal quantifiers over typed
variables; they must be stratified (see :mod:`acpgen.pddl.axioms`).
Anything else raises :class:`PddlError` naming the construct.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tarski.errors import TarskiError
from tarski.fstrips import Action, AddEffect, DelEffect, FunctionalEffect, Problem, UniversalEffect
from tarski.io import PDDLReader
from tarski.syntax import (
    CompoundFormula,
    Connective,
    Contradiction,
    Formula,
    QuantifiedFormula,
    Quantifier,
    Tautology,
    Term,
)
from tarski.syntax.formulas import Atom, BuiltinPredicateSymbol

from acpgen.errors import PddlError
from acpgen.pddl.axioms import check_effects, stratify
from acpgen.pddl.model import EQUALITY, Axiom, LiftedTask, Literal, Schema, declared_domain_name
from acpgen.pddl.problem_reader import read_problem

_BUILTIN_SORTS = {"Real", "Integer", "Natural", "number", "Boolean"}
_DNF_LIMIT = 256


def read_files(domain: Path, problem: Path) -> LiftedTask:
    """Parse a domain and a problem file."""
    try:
        domain_text = Path(domain).read_text()
        problem_text = Path(problem).read_text()
    except OSError as err:
        raise PddlError(f"cannot read PDDL file: {err}") from err
    return read_strings(domain_text, problem_text, source=f"{domain} / {problem}")


def read_domain(path: Path) -> LiftedTask:
    """Parse a domain file on its own (with an empty problem), so that every construct of the domain
    is checked and an error names the file."""
    try:
        text = Path(path).read_text()
    except OSError as err:
        raise PddlError(f"cannot read PDDL domain file {path}: {err.strerror}") from err
    return read_domain_text(text, str(path))


def read_domain_text(text: str, source: str = "PDDL domain") -> LiftedTask:
    """:func:`read_domain` for a domain's text (``source`` names it in errors)."""
    return read_strings(text, empty_problem(text, source), source=source)


def empty_problem(domain_text: str, source: str = "PDDL domain") -> str:
    """A problem of the domain without objects, facts or goal."""
    name = declared_domain_name(domain_text)
    if name is None:
        raise PddlError(f"{source}: not a PDDL domain (no '(define (domain NAME)' found)")
    return f"(define (problem acp-domain-check) (:domain {name}) (:init) (:goal (and)))"


# Parsed tasks by their exact text. A LiftedTask is immutable (frozen, and nothing writes to its
# mappings), so the same text gives the same object; parsing is most of the cost of grounding, and
# the qa stage grounds each question's PDDL twice (generation, then verification on the record
# as written). Bounded; guarded by a lock because the plans stage parses in threads.
_PARSED: OrderedDict[tuple[str, str], LiftedTask] = OrderedDict()
_PARSED_SIZE = 128
_PARSED_LOCK = threading.Lock()


def read_strings(domain_text: str, problem_text: str, source: str = "PDDL text") -> LiftedTask:
    """Parse domain and problem text into a :class:`LiftedTask` (``source`` names the text in errors)."""
    key = (domain_text, problem_text)
    with _PARSED_LOCK:
        found = _PARSED.get(key)
        if found is not None:
            _PARSED.move_to_end(key)
            return found
    lifted = _parse(domain_text, problem_text, source)
    with _PARSED_LOCK:
        _PARSED[key] = lifted
        while len(_PARSED) > _PARSED_SIZE:
            _PARSED.popitem(last=False)
    return lifted


# Domains parsed on their own (with an empty problem), by their text: the base of the fast reading of
# problems (:mod:`acpgen.pddl.problem_reader`) with the domain's rules as tarski read them (their
# universal quantifiers range over each problem's objects, so each problem converts them anew); None
# for a domain that must always go through tarski.
_DOMAINS: OrderedDict[str, tuple[LiftedTask, list[_Derived]] | None] = OrderedDict()
_DOMAINS_SIZE = 32
_Derived = tuple[str, list[Any], Formula]  # a rule's predicate, parameters and body, as tarski read them


def clear_caches() -> None:
    """Forget every parsed text (for benchmarks that must start cold)."""
    with _PARSED_LOCK:
        _PARSED.clear()
        _DOMAINS.clear()


def _domain_alone(domain_text: str) -> tuple[LiftedTask, list[_Derived]] | None:
    with _PARSED_LOCK:
        if domain_text in _DOMAINS:
            _DOMAINS.move_to_end(domain_text)
            return _DOMAINS[domain_text]
    name = declared_domain_name(domain_text)
    domain: tuple[LiftedTask, list[_Derived]] | None = None
    if name is not None:
        empty = f"(define (problem acp-domain-check) (:domain {name}) (:init) (:goal (and)))"
        try:
            problem, constants, derived = _tarski_read(domain_text, empty, "the domain")
            domain = _convert(problem, "the domain", constants, domain_text, derived), derived
        except PddlError:
            domain = None  # the full reading reports the error with its source
        if domain is not None and domain[0].domain_name != name.lower():
            domain = None
    with _PARSED_LOCK:
        _DOMAINS[domain_text] = domain
        while len(_DOMAINS) > _DOMAINS_SIZE:
            _DOMAINS.popitem(last=False)
    return domain


def _parse(domain_text: str, problem_text: str, source: str) -> LiftedTask:
    """The problem read by the fast reader on top of the domain parsed once, where it can; else tarski."""
    alone = _domain_alone(domain_text)
    if alone is not None:
        domain, derived = alone
        part = read_problem(problem_text, domain)
        if part is not None:
            objects = {**domain.objects, **part.objects}
            lifted = dataclasses.replace(
                domain, problem_name=part.name, objects=objects, init=part.init, goal=part.goal
            )
            return _with_rules(lifted, derived, source) if derived else lifted
    return _parse_with_tarski(domain_text, problem_text, source)


def _parse_with_tarski(domain_text: str, problem_text: str, source: str) -> LiftedTask:
    problem, constants, derived = _tarski_read(domain_text, problem_text, source)
    return _convert(problem, source, constants, domain_text, derived)


def _tarski_read(domain_text: str, problem_text: str, source: str) -> tuple[Problem, frozenset[str], list[_Derived]]:
    """tarski's reading of the texts: the problem, the domain's constants and the rules of derived predicates."""
    reader = PDDLReader(raise_on_error=True, strict_with_requirements=False)
    derived: list[_Derived] = []
    visitor = reader.parser

    def visit_derived(ctx: Any) -> None:  # tarski's own visitor refuses (:derived ...); read the rule's parts
        params = visitor.visit(ctx.possibly_typed_variable_list())
        with visitor.push_variables(params, root=True):
            body = visitor.visit(ctx.goalDesc())
        derived.append((ctx.NAME().getText().lower(), params, body))

    visitor.visitDerivedDef = visit_derived
    try:
        reader.parse_domain_string(domain_text)
        constants = frozenset(c.name.lower() for c in reader.problem.language.constants())
        problem = reader.parse_instance_string(problem_text)
    except (TarskiError, RecursionError) as err:
        raise PddlError(f"{source}: cannot parse PDDL ({type(err).__name__}: {err})") from err
    except Exception as err:
        raise PddlError(f"{source}: malformed PDDL ({type(err).__name__}: {err})") from err
    return problem, constants, derived


def _convert(
    problem: Problem,
    source: str,
    constants: frozenset[str],
    domain_text: str,
    derived: list[tuple[str, list[Any], Formula]],
) -> LiftedTask:
    lang = problem.language
    supertypes: dict[str, tuple[str, ...]] = {}
    for sort in lang.sorts:
        if sort.name in _BUILTIN_SORTS:
            continue
        ancestors = {s.name for s in lang.ancestor_sorts[sort]} - _BUILTIN_SORTS
        supertypes[sort.name] = (sort.name, *sorted(ancestors))
    fluents = sorted(str(f.name) for f in lang.functions if not f.builtin and str(f.name).lower() != "total-cost")
    if fluents:
        raise PddlError(
            f"{source}: numeric fluents are not supported (:functions declares {', '.join(fluents)}); "
            "only the (total-cost) function of :action-costs is accepted"
        )
    objects = {c.name.lower(): c.sort.name for c in lang.constants()}
    predicates: dict[str, tuple[str, ...]] = {}
    for pred in lang.predicates:
        if isinstance(pred.symbol, BuiltinPredicateSymbol):
            continue
        predicates[pred.name.lower()] = tuple(s.name for s in pred.sort)
    schemas: dict[str, Schema] = {}
    for action in problem.actions.values():
        schema = _schema(action, source)
        schemas[schema.name] = schema
    check_effects(schemas.values(), frozenset(name for name, _, _ in derived), source)
    init = frozenset(_ground_atom(a) for a in problem.init.as_atoms() if isinstance(a, Atom))
    goal_dnf = _dnf(problem.goal, source, "the goal")
    if len(goal_dnf) != 1:
        raise PddlError(f"{source}: disjunctive goals are not supported")
    lifted = LiftedTask(
        domain_name=problem.domain_name.lower(),
        problem_name=problem.name.lower(),
        supertypes=supertypes,
        objects=objects,
        predicates=predicates,
        schemas=schemas,
        init=init,
        goal=goal_dnf[0],
        constants=constants,
        domain_text=domain_text,
    )
    return _with_rules(lifted, derived, source)


def _with_rules(lifted: LiftedTask, derived: list[_Derived], source: str) -> LiftedTask:
    """The task with the domain's rules converted over its objects (universal quantifiers expand to them)
    and stratified; an :init that lists derived atoms is refused."""
    axioms = tuple(
        _axiom(name, params, body, source, lifted.objects, lifted.supertypes) for name, params, body in derived
    )
    derived_names = frozenset(a.predicate for a in axioms)
    strata = stratify(axioms, source)
    in_init = sorted({pred for pred, _ in lifted.init if pred in derived_names})
    if in_init:
        raise PddlError(
            f"{source}: the problem's :init lists atoms of the derived predicates {', '.join(in_init)}; "
            "derived atoms are computed from the rules, remove them from :init"
        )
    return dataclasses.replace(lifted, axioms=axioms, strata=strata)


def _axiom(
    name: str,
    params: list[Any],
    body: Formula,
    source: str,
    objects: dict[str, str],
    supertypes: dict[str, tuple[str, ...]],
) -> Axiom:
    """A ``(:derived ...)`` rule: existential variables become rule variables, universal ones are expanded."""
    head = [(v.symbol.lower(), v.sort.name) for v in params]
    quantifiers = _Quantifiers(head, objects, supertypes)
    dnf = _dnf(body, source, f"the rule of derived predicate {name}", quantifiers=quantifiers)
    return Axiom(name, tuple(quantifiers.variables), len(head), dnf)


class _Quantifiers:
    """Quantifiers of a rule body: an existential one (under an even number of negations) gets fresh rule
    variables; a universal one is a conjunction over the problem's objects of the variable's type."""

    def __init__(self, head: list[tuple[str, str]], objects: dict[str, str], supertypes: dict[str, tuple[str, ...]]):
        self.variables = list(head)
        self.objects = objects
        self.supertypes = supertypes
        self.rename: dict[str, str] = {}

    def fresh(self, variable: str, type_name: str) -> str:
        taken = {v for v, _ in self.variables}
        name, k = variable, 1
        while name in taken:
            name, k = f"{variable}-{k}", k + 1
        self.variables.append((name, type_name))
        return name

    def objects_of(self, type_name: str) -> list[str]:
        return sorted(o for o, t in self.objects.items() if type_name in self.supertypes.get(t, (t,)))


def _schema(action: Action, source: str) -> Schema:
    name = action.name.lower()
    params = tuple((v.symbol.lower(), v.sort.name) for v in action.parameters)
    precondition = _dnf(action.precondition, source, f"action {name}")
    add: list[Literal] = []
    delete: list[Literal] = []
    for effect in action.effects:
        if not isinstance(effect, (AddEffect, DelEffect)) or not isinstance(effect.condition, Tautology):
            raise PddlError(
                f"{source}: action {name} has {_effect_kind(effect)}, which acp does not support "
                f"(only unconditional add and delete effects): {effect}"
            )
        literal = _literal(effect.atom, True)
        (add if isinstance(effect, AddEffect) else delete).append(literal)
    return Schema(name, params, precondition, tuple(add), tuple(delete))


def _effect_kind(effect: object) -> str:
    """What an unsupported effect is, in PDDL words."""
    if isinstance(effect, UniversalEffect):
        return "a universally quantified effect (forall)"
    if isinstance(effect, FunctionalEffect):
        return "a numeric effect (assign/increase/decrease of a function other than total-cost)"
    if not isinstance(getattr(effect, "condition", None), Tautology):
        return "a conditional effect (when)"
    return f"an effect of kind {type(effect).__name__}"


def _term(term: Term) -> str:
    name = getattr(term, "symbol", None) or term.name
    return str(name).lower()


def _literal(atom: Atom, positive: bool, rename: dict[str, str] | None = None) -> Literal:
    args = tuple(_term(t) for t in atom.subterms)
    if rename:
        args = tuple(rename.get(a, a) for a in args)
    symbol = atom.predicate.symbol
    if symbol == BuiltinPredicateSymbol.EQ:
        return Literal(EQUALITY, args, positive)
    if symbol == BuiltinPredicateSymbol.NE:
        return Literal(EQUALITY, args, not positive)
    return Literal(str(atom.predicate.name).lower(), args, positive)


def _ground_atom(atom: Atom) -> tuple[str, tuple[str, ...]]:
    return str(atom.predicate.name).lower(), tuple(_term(t) for t in atom.subterms)


def _dnf(
    formula: Formula, source: str, where: str, positive: bool = True, quantifiers: _Quantifiers | None = None
) -> tuple[tuple[Literal, ...], ...]:
    """Disjunctive normal form of a formula, negations pushed to the atoms; quantifiers only with ``quantifiers``
    (the body of a derived predicate's rule)."""
    if isinstance(formula, Tautology):
        return ((),) if positive else ()
    if isinstance(formula, Contradiction):
        return () if positive else ((),)
    if isinstance(formula, Atom):
        symbol = formula.predicate.symbol
        if isinstance(symbol, BuiltinPredicateSymbol) and symbol not in (
            BuiltinPredicateSymbol.EQ,
            BuiltinPredicateSymbol.NE,
        ):
            raise PddlError(
                f"{source}: {where} uses a numeric comparison ({formula}); numeric fluents are not supported"
            )
        return ((_literal(formula, positive, quantifiers.rename if quantifiers else None),),)
    if isinstance(formula, CompoundFormula):
        if formula.connective == Connective.Not:
            return _dnf(formula.subformulas[0], source, where, not positive, quantifiers)
        parts = [_dnf(sub, source, where, positive, quantifiers) for sub in formula.subformulas]
        conjunctive = (formula.connective == Connective.And) == positive
        if not conjunctive:
            return tuple(itertools.chain.from_iterable(parts))
        product = [tuple(itertools.chain.from_iterable(combo)) for combo in itertools.product(*parts)]
        if len(product) > _DNF_LIMIT:
            raise PddlError(f"{source}: precondition of {where} is too large in disjunctive normal form")
        return tuple(_dedupe(c) for c in product)
    if isinstance(formula, QuantifiedFormula) and quantifiers is not None:
        return _quantified_dnf(formula, source, where, positive, quantifiers)
    if isinstance(formula, QuantifiedFormula):
        kind = "a universal (forall)" if formula.quantifier == Quantifier.Forall else "an existential (exists)"
        raise PddlError(f"{source}: {where} uses {kind} quantifier, which acp does not support: {formula}")
    raise PddlError(f"{source}: {where} uses an unsupported construct ({type(formula).__name__}: {formula})")


def _quantified_dnf(
    formula: QuantifiedFormula, source: str, where: str, positive: bool, quantifiers: _Quantifiers
) -> tuple[tuple[Literal, ...], ...]:
    saved = dict(quantifiers.rename)
    variables = [(v.symbol.lower(), v.sort.name) for v in formula.variables]
    existential = (formula.quantifier == Quantifier.Exists) == positive
    try:
        if existential:  # exists x. f == f with a fresh rule variable for x
            for var, type_name in variables:
                quantifiers.rename[var] = quantifiers.fresh(var, type_name)
            return _dnf(formula.formula, source, where, positive, quantifiers)
        # forall x. f == the conjunction of f over the objects of x's type (under negation: not exists)
        parts = []
        for values in itertools.product(*(quantifiers.objects_of(t) for _, t in variables)):
            quantifiers.rename.update((var, value) for (var, _), value in zip(variables, values))
            parts.append(_dnf(formula.formula, source, where, positive, quantifiers))
        if math.prod(len(p) for p in parts) > _DNF_LIMIT:
            raise PddlError(f"{source}: {where} is too large in disjunctive normal form (a universal quantifier)")
        product = [tuple(itertools.chain.from_iterable(combo)) for combo in itertools.product(*parts)]
        return tuple(_dedupe(c) for c in product)
    finally:
        quantifiers.rename.clear()
        quantifiers.rename.update(saved)


def _dedupe(conjunction: Iterable[Literal]) -> tuple[Literal, ...]:
    return tuple(dict.fromkeys(conjunction))
