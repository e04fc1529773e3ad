"""Two independent executions of action sequences, for generating answers and re-proving them.

:class:`CoreWorld` runs on acp's grounded task (atom bit masks, the relaxed grounding);
:class:`LiftedWorld` is a separate, deliberately simple interpreter over the lifted schemas: a
state is a set of ground atoms, an action is checked by substituting its arguments into the
schema's precondition, and the executable actions of a state are found by matching the positive
preconditions against the state's atoms. Both answer the same questions (:class:`World`), so a
stored answer computed by one is re-proven by the other.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property

from acpgen.errors import DataError
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import EQUALITY, Axiom, LiftedTask, Literal, Schema, canonical, split_canonical
from acpgen.pddl.mutexes import mutexes
from acpgen.pddl.semantics import execute

Facts = frozenset[str]
#: above this many atoms that actions change, h² is not run and every atom of the delete relaxation is listed
UNIVERSE_MAX_ATOMS = 4000
_UNIVERSES: dict[tuple, frozenset[str]] = {}  # World.universe per (world kind, domain, objects, state, base)


class World(ABC):
    """The semantics the questions need, over states given as sets of canonical atoms (static ones included)."""

    lifted: LiftedTask
    types: Mapping[str, str]  # predicate -> fluent type (static, base, derived, self_derived)

    @property
    @abstractmethod
    def init(self) -> Facts: ...

    @abstractmethod
    def step(self, facts: Facts, action: str) -> Facts | None:
        """The state after ``action``; None when it is not executable (or names no action)."""

    @abstractmethod
    def executable(self, facts: Facts) -> list[str]:
        """Every ground action executable in the state, sorted."""

    def reached(self, most: int) -> Facts:
        """The atoms of the first ``most`` states reachable from the initial state, breadth first: atoms of
        reachable states, so each is one of :attr:`atoms` (which over-approximates them), found without them
        (kept per ``most``: the questions about one state ask it again)."""
        memo: dict[int, Facts] = self.__dict__.setdefault("_reached", {})
        if most not in memo:
            memo[most] = self._reached_from_init(most)
        return memo[most]

    def _reached_from_init(self, most: int) -> Facts:
        """:meth:`reached`, breadth first through :meth:`executable` and :meth:`step`."""
        seen, frontier, found = {self.init}, [self.init], set(self.init)
        while frontier and len(seen) < most:
            following = []
            for facts in frontier:
                for action in self.executable(facts):
                    after = self.step(facts, action)
                    if after is not None and after not in seen and len(seen) < most:
                        seen.add(after)
                        following.append(after)
                        found |= after
            frontier = following
        return frozenset(found)

    def run(self, sequence: list[str]) -> tuple[list[Facts], int | None]:
        """The states along the sequence from the initial state (up to the first inexecutable
        action) and that action's position (None when every action is executable)."""
        states = [self.init]
        for index, action in enumerate(sequence):
            after = self.step(states[-1], action)
            if after is None:
                return states, index
            states.append(after)
        return states, None

    @cached_property
    def atoms(self) -> list[str]:
        """The atoms questions range over, sorted: those some reachable state may make true. An atom
        true in the initial state, or one h² (:mod:`acpgen.pddl.mutexes`) reaches from it; an atom h²
        proves unreachable (a block on itself) is never listed. In a ramification variant the base atoms
        are those of the base domain's task (``base``), and a derived atom is listed when a rule derives
        it from listed atoms, its negative conditions aside. Each world computes this its own way."""
        return sorted(self.universe())

    def universe(self) -> frozenset[str]:
        """The set :attr:`atoms` lists, kept per kind of world, task and state for the process: the questions
        about one state, and the check of each question, share it (each kind still computes its own)."""
        key = self._universe_key()
        if key not in _UNIVERSES:
            if len(_UNIVERSES) > 256:
                _UNIVERSES.clear()
            _UNIVERSES[key] = self._universe()
        return _UNIVERSES[key]

    def universe_known(self) -> bool:
        """Whether :meth:`universe` is kept already (asking it costs nothing)."""
        return self._universe_key() in _UNIVERSES

    def _universe_key(self) -> tuple:
        base = self._base_lifted()
        return (
            type(self).__name__,
            self.lifted.domain_text,
            frozenset(self.lifted.objects.items()),
            self.init,
            None if base is None else (base.domain_text, frozenset(base.init)),
        )

    @abstractmethod
    def _base_lifted(self) -> LiftedTask | None:
        """A ramification variant's base task, lifted (None without one)."""

    @abstractmethod
    def _universe(self) -> frozenset[str]:
        """The set :attr:`atoms` lists, computed this world's own way."""


class CoreWorld(World):
    """acp's grounded semantics (:class:`acpgen.pddl.grounding.GroundTask`)."""

    def __init__(self, task: GroundTask, types: Mapping[str, str], base: GroundTask | None = None):
        self.task = task
        self.lifted = task.lifted
        self.types = types
        self.base = base  # a ramification variant's base task (the same state, the base domain)

    def _base_lifted(self) -> LiftedTask | None:
        return None if self.base is None else self.base.lifted

    def _universe(self) -> frozenset[str]:
        source = self.base if self.base is not None and self.task.axioms is not None else self.task
        found = mutexes(source, max_atoms=UNIVERSE_MAX_ATOMS)
        if found is None:  # too many atoms for h², or rules without their base task: the delete relaxation
            every = 0
            for action in source.actions:
                every |= action.add
            names = set(source.atoms.atoms(source.init | every))
        else:
            names = set(source.atoms.atoms(source.init | found.reachable))
        if self.task.axioms is None:
            return frozenset(names)
        derived = {axiom.predicate for axiom in self.lifted.axioms}
        listed = self.task.atoms.mask(a for a in sorted(names) if split_canonical(a)[0] not in derived)
        changed = True
        while changed:
            changed = False
            for head, pos, _ in self.task.axioms.rules:
                if pos & ~listed == 0 and head & ~listed:
                    listed |= head
                    changed = True
        return frozenset(self.task.atoms.atoms(listed))

    @property
    def init(self) -> Facts:
        return frozenset(self.task.atoms.atoms(self.task.init))

    def step(self, facts: Facts, action: str) -> Facts | None:
        mask = self.task.mask_of(facts)
        run = execute(self.task, mask, [action])
        return frozenset(self.task.atoms.atoms(run.state)) if run.applicable else None

    def executable(self, facts: Facts) -> list[str]:
        return sorted(a.name for a in self.task.applicable(self.task.mask_of(facts)))

    def _reached_from_init(self, most: int) -> Facts:
        """:meth:`World.reached` by acp's explorer on bit masks (breadth first, in its own order)."""
        return frozenset(self.task.atoms.atoms(explore(self.task, self.task.init, most).reachable_atoms))


class LiftedWorld(World):
    """A separate interpreter over the lifted schemas (no grounding, no bit masks)."""

    def __init__(self, lifted: LiftedTask, types: Mapping[str, str], base: LiftedTask | None = None):
        self.lifted = lifted
        self.types = types
        self.base = base  # a ramification variant's base task (the same state, the base domain)
        #: each matched conjunction split once into what is joined and what is checked (see :class:`_Plan`)
        self._plans: dict[tuple[tuple[tuple[str, str], ...], tuple[Literal, ...]], _Plan] = {}
        #: atoms read into predicate and arguments, each once (states share most of their atoms)
        self._parsed: dict[str, tuple[str, tuple[str, ...]]] = {}
        #: the steps taken so far: a record's claims each run its sequence again from the initial state
        self._steps: dict[tuple[Facts, str], Facts | None] = {}

    def _base_lifted(self) -> LiftedTask | None:
        return self.base

    def _universe(self) -> frozenset[str]:
        """The listed atoms by a separate route: ground actions found by a relaxed exploration of the lifted
        schemas, then h² as sets of atom pairs (no bit masks); rules closed over the listed base atoms."""
        source = self.base if self.base is not None and self.lifted.axioms else self.lifted
        init = LiftedWorld(source, {}).init
        actions, relaxed = _relaxed_actions(source, init)
        changing = {a for _, add, delete in actions for a in add | delete}
        if len(changing) > UNIVERSE_MAX_ATOMS or source.axioms:
            names = set(relaxed)  # no h²: every atom of the delete relaxation
        else:
            names = set(init) | _h2_reachable(actions, init & changing)
        if not self.lifted.axioms:
            return frozenset(names)
        derived = {axiom.predicate for axiom in self.lifted.axioms}
        listed = {a for a in names if split_canonical(a)[0] not in derived}
        statics = self._static_facts()
        bodies = [
            (axiom, kept)
            for axiom in self.lifted.axioms
            for conj in axiom.body
            if (kept := _relaxed(conj, self.lifted.static_predicates, statics)) is not None
        ]
        while True:
            new = self._heads(bodies, frozenset(listed | statics)) - listed
            if not new:
                return frozenset(listed)
            listed |= new

    def _static_facts(self) -> frozenset[str]:
        return frozenset(canonical(p, a) for p, a in self.lifted.init if p in self.lifted.static_predicates)

    @property
    def init(self) -> Facts:
        return self._init

    @cached_property
    def _init(self) -> Facts:
        return self.derive(frozenset(canonical(p, args) for p, args in self.lifted.init))

    @cached_property
    def _levels(self) -> list[list[Axiom]]:
        """The rules grouped by level: a rule reading a derived predicate negatively comes after every
        rule of that predicate (the domain's rules are stratified; a cycle through negation is refused)."""
        derived = {a.predicate for a in self.lifted.axioms}
        level = dict.fromkeys(derived, 0)
        for _ in range(len(derived) + 1):
            changed = False
            for axiom in self.lifted.axioms:
                for conj in axiom.body:
                    for lit in conj:
                        if lit.predicate in derived:
                            need = level[lit.predicate] + (0 if lit.positive else 1)
                            if need > level[axiom.predicate]:
                                level[axiom.predicate], changed = need, True
            if not changed:
                break
        else:
            raise DataError("the derived predicates depend on their own negation (not stratified)")
        out: list[list[Axiom]] = [[] for _ in range(max(level.values(), default=-1) + 1)]
        for axiom in self.lifted.axioms:
            out[level[axiom.predicate]].append(axiom)
        return out

    def derive(self, facts: Facts) -> Facts:
        """The state's basic atoms with the derived atoms the rules give (a least fixpoint per level);
        derived atoms already in ``facts`` are dropped first."""
        if not self.lifted.axioms:
            return facts
        derived = {a.predicate for a in self.lifted.axioms}
        state = {f for f in facts if split_canonical(f)[0] not in derived}
        for rules in self._levels:
            bodies = [(axiom, conj) for axiom in rules for conj in axiom.body]
            while True:
                new = self._heads(bodies, frozenset(state)) - state
                if not new:
                    break
                state |= new
        return frozenset(state)

    def _heads(self, bodies: list[tuple[Axiom, tuple[Literal, ...]]], facts: Facts) -> set[str]:
        """The head atoms of the rules whose body (one of ``bodies``: a rule and a conjunction of it) holds in
        ``facts`` under some binding; the facts are indexed once for all the bodies."""
        index = _FactIndex(facts, self._parsed)
        return {
            canonical(axiom.predicate, tuple(binding[v] for v in axiom.head))
            for axiom, conj in bodies
            for binding in self._matches(axiom.params, conj, facts, index)
        }

    def _binding(self, action: str) -> tuple[Schema, dict[str, str]] | None:
        try:
            name, args = split_canonical(action.lower())
        except IndexError:
            return None
        schema = self.lifted.schemas.get(name)
        if schema is None or len(args) != len(schema.params):
            return None
        if any(a not in self.lifted.objects_of(t) for a, (_, t) in zip(args, schema.params)):
            return None
        return schema, {v: a for (v, _), a in zip(schema.params, args)}

    @staticmethod
    def _holds(literal: Literal, binding: dict[str, str], facts: Facts) -> bool:
        args = tuple(binding.get(a, a) for a in literal.args)
        if literal.predicate == EQUALITY:
            return (args[0] == args[1]) == literal.positive
        return (canonical(literal.predicate, args) in facts) == literal.positive

    def step(self, facts: Facts, action: str) -> Facts | None:
        key = (facts, action)
        if key not in self._steps:
            self._steps[key] = self._step(facts, action)
        return self._steps[key]

    def _step(self, facts: Facts, action: str) -> Facts | None:
        found = self._binding(action)
        if found is None:
            return None
        schema, binding = found
        if not any(all(self._holds(lit, binding, facts) for lit in conj) for conj in schema.precondition):
            return None
        return self._apply(schema, binding, facts)

    def _apply(self, schema: Schema, binding: dict[str, str], facts: Facts) -> Facts:
        def ground(literals: tuple[Literal, ...]) -> set[str]:
            return {canonical(lit.predicate, tuple(binding.get(a, a) for a in lit.args)) for lit in literals}

        return self.derive(frozenset(facts).difference(ground(schema.delete)).union(ground(schema.add)))

    def _matches(
        self,
        params: tuple[tuple[str, str], ...],
        conj: tuple[Literal, ...],
        facts: Facts,
        index: _FactIndex | None = None,
    ) -> Iterator[dict[str, str]]:
        """Bindings of the typed parameters under which the conjunction holds: its positive literals joined
        one at a time, each next one the literal with the fewest candidate facts given what is bound (found
        through ``index``, the state's :class:`_FactIndex`, made here when the caller has none); then the
        remaining parameters over their objects, each binding checked for the parameters' types and the
        conjunction's other literals (negated ones and equalities: a joined literal holds by its match)."""
        index = _FactIndex(facts, self._parsed) if index is None else index
        plan = self._plans.get((params, conj))
        if plan is None:
            plan = self._plans[(params, conj)] = _Plan.of(params, conj, self.lifted)

        def extend(rest: list[Literal], binding: dict[str, str]) -> Iterator[dict[str, str]]:
            if not rest:
                yield binding
                return
            if len(rest) == 1:
                lit, others = rest[0], rest[1:]
                pool = index.candidates(lit, binding)
            else:
                pool, lit = min(((index.candidates(x, binding), x) for x in rest), key=lambda c: len(c[0]))
                others = [x for x in rest if x is not lit]
            for args in pool:
                new = dict(binding)
                if all(new.setdefault(v, a) == a if v.startswith("?") else v == a for v, a in zip(lit.args, args)):
                    yield from extend(others, new)

        holds = self._holds
        for partial in extend(list(plan.positive), {}):
            free = [(v, objects) for v, objects, _ in plan.typed if v not in partial]
            for values in itertools.product(*(ordered for _, ordered in free)):
                binding = {**partial, **{v: o for (v, _), o in zip(free, values)}} if free else partial
                if all(binding[v] in objects for v, _, objects in plan.typed) and all(
                    holds(lit, binding, facts) for lit in plan.checks
                ):
                    yield binding

    def executable(self, facts: Facts) -> list[str]:
        return [name for name, _, _ in self._executable(facts)]

    def successors(self, facts: Facts) -> list[tuple[str, Facts]]:
        """Every executable ground action of the state with the state it leads to, sorted by action."""
        return [(name, self._apply(schema, binding, facts)) for name, schema, binding in self._executable(facts)]

    def _executable(self, facts: Facts) -> list[tuple[str, Schema, dict[str, str]]]:
        """The executable actions of the state, sorted by name, with their schema and binding (the
        state's atoms are indexed once for every schema)."""
        index = _FactIndex(facts, self._parsed)
        found: dict[str, tuple[Schema, dict[str, str]]] = {}
        for schema in self.lifted.schemas.values():
            for conj in schema.precondition:
                for binding in self._matches(schema.params, conj, facts, index):
                    name = canonical(schema.name, tuple(binding[v] for v, _ in schema.params))
                    found.setdefault(name, (schema, binding))
        return [(name, *found[name]) for name in sorted(found)]


class _FactIndex:
    """A state's atoms by predicate and, built when first asked for, by predicate, argument position and value."""

    def __init__(self, facts: Facts, parsed: dict[str, tuple[str, tuple[str, ...]]]):
        """``parsed``: atoms already read into predicate and arguments, by their world (those read here are
        added)."""
        self.facts = facts
        self.by_predicate: dict[str, list[tuple[str, ...]]] = {}
        for atom in facts:
            found = parsed.get(atom)
            if found is None:
                found = parsed[atom] = split_canonical(atom)
            self.by_predicate.setdefault(found[0], []).append(found[1])
        self._at: dict[tuple[str, int], dict[str, list[tuple[str, ...]]]] = {}

    def candidates(self, literal: Literal, binding: dict[str, str]) -> list[tuple[str, ...]]:
        """The arguments of the atoms of the literal's predicate that agree with its bound arguments at one
        position (the position that leaves the fewest)."""
        best = self.by_predicate.get(literal.predicate, [])
        for position, arg in enumerate(literal.args):
            value = binding.get(arg) if arg.startswith("?") else arg
            if value is None:
                continue
            key = (literal.predicate, position)
            if key not in self._at:
                table: dict[str, list[tuple[str, ...]]] = {}
                for args in self.by_predicate.get(literal.predicate, ()):
                    table.setdefault(args[position], []).append(args)
                self._at[key] = table
            found = self._at[key].get(value, [])
            best = found if len(found) < len(best) else best
        return best


@dataclass(frozen=True)
class _Plan:
    """How :meth:`LiftedWorld._matches` reads a conjunction: the literals it joins against the state's atoms
    (positive, not equalities), those it checks on each binding, and each parameter with its type's objects
    (in order, and as a set)."""

    positive: tuple[Literal, ...]
    checks: tuple[Literal, ...]
    typed: tuple[tuple[str, tuple[str, ...], frozenset[str]], ...]

    @classmethod
    def of(cls, params: tuple[tuple[str, str], ...], conj: tuple[Literal, ...], lifted: LiftedTask) -> _Plan:
        joined = tuple(lit for lit in conj if lit.positive and lit.predicate != EQUALITY)
        typed = tuple((v, lifted.objects_of(t), frozenset(lifted.objects_of(t))) for v, t in params)
        return cls(joined, tuple(lit for lit in conj if lit not in joined), typed)


def _relaxed(conj: tuple[Literal, ...], static: frozenset[str], statics: frozenset[str]) -> tuple[Literal, ...] | None:
    """A conjunction as the delete relaxation reads it: equality and static literals kept (negative static
    literals become checks made after matching), negative fluent literals dropped; None when it asks an
    atom and its negation at once."""
    positive = {(lit.predicate, lit.args) for lit in conj if lit.positive and lit.predicate != EQUALITY}
    if any(not lit.positive and (lit.predicate, lit.args) in positive for lit in conj):
        return None
    return tuple(lit for lit in conj if lit.positive or lit.predicate == EQUALITY or lit.predicate in static)


Relaxed = tuple[tuple[frozenset[str], ...], set[str], set[str]]


def _relaxed_actions(lifted: LiftedTask, init: Facts) -> tuple[list[Relaxed], set[str]]:
    """The ground actions the delete relaxation reaches from ``init``, each as (its disjuncts' positive atoms
    that actions change, its adds, its deletes that it does not also add), and the atoms it reaches: a
    fixpoint of lifted matching, static literals read in ``init``, rules applied with their negative fluent
    conditions dropped."""
    world = LiftedWorld(lifted, {})
    static = lifted.static_predicates
    facts = set(init)
    found: dict[str, Relaxed] = {}
    joined: dict[
        tuple[str, int], tuple[int, ...]
    ] = {}  # the fact counts of a conjunction's predicates at its last join
    while True:
        before = len(facts)
        for axiom in lifted.axioms:
            for conj in axiom.body:
                kept = _relaxed(conj, static, frozenset())
                if kept is not None:
                    for binding in world._matches(axiom.params, kept, frozenset(facts)):
                        facts.add(canonical(axiom.predicate, tuple(binding[v] for v in axiom.head)))
        # one index per pass (facts this pass adds are joined in the next one, until none is new)
        index = _FactIndex(frozenset(facts), world._parsed)
        counts = {predicate: len(args) for predicate, args in index.by_predicate.items()}
        for schema in lifted.schemas.values():
            for c, conj in enumerate(schema.precondition):
                kept = _relaxed(conj, static, frozenset())
                sizes = tuple(counts.get(lit.predicate, 0) for lit in conj if lit.positive)
                if kept is None or joined.get((schema.name, c)) == sizes:
                    continue  # no new fact of its predicates: the join finds nothing new
                joined[(schema.name, c)] = sizes
                for binding in world._matches(schema.params, kept, index.facts, index):
                    name = canonical(schema.name, tuple(binding[v] for v, _ in schema.params))
                    if name in found:
                        continue
                    found[name] = _ground(schema, binding, static, init)
                    facts |= found[name][1]
        if len(facts) == before:
            actions = [found[name] for name in sorted(found)]
            changing = {a for _, add, delete in actions for a in add | delete}
            return [(tuple(d & changing for d in pre), add, delete) for pre, add, delete in actions], facts


def _ground(schema: Schema, binding: dict[str, str], static: frozenset[str], init: Facts) -> Relaxed:
    def atom(lit: Literal) -> str:
        return canonical(lit.predicate, tuple(binding.get(a, a) for a in lit.args))

    disjuncts = []
    for conj in schema.precondition:
        if _relaxed(conj, static, frozenset()) is None:
            continue
        holds = all(
            (binding.get(lit.args[0], lit.args[0]) == binding.get(lit.args[1], lit.args[1])) == lit.positive
            if lit.predicate == EQUALITY
            else (atom(lit) in init) == lit.positive
            for lit in conj
            if lit.predicate == EQUALITY or lit.predicate in static
        )
        if holds:
            disjuncts.append(frozenset(atom(lit) for lit in conj if lit.positive and lit.predicate not in static))
    add = {atom(lit) for lit in schema.add}
    return tuple(disjuncts), add, {atom(lit) for lit in schema.delete} - add


def _h2_reachable(actions: list[Relaxed], init: Facts) -> set[str]:
    """The atoms h² reaches from ``init`` (the changing atoms true in the initial state): pairs of atoms that may
    hold together, grown by every action disjunct whose precondition atoms are reached and pairwise allowed;
    the atoms its effects add may hold with each other and with every atom allowed with its precondition that
    it does not delete. A pair is stored with the atom added at once, and with its partner at the end of the pass
    (once per pair; the next pass sees it: any order of these monotone steps reaches the same least fixpoint)."""
    reached = set(init)
    partners = {a: set(init) for a in init}
    last: dict[tuple[int, int], int] = {}  # the size of a disjunct's compatible set when it was last applied
    changed = True
    while changed:
        changed = False
        grown: dict[str, set[str]] = {}  # the partners of the atoms added in this pass, as they were before it
        for k, (disjuncts, add, delete) in enumerate(actions):
            for d, pre in enumerate(disjuncts):
                if not pre <= reached:
                    continue
                if pre:  # an atom's partners are reached atoms: intersecting them, the smallest first, is enough
                    allowed = sorted((partners[p] for p in pre), key=len)
                    if any(not pre <= others for others in allowed):
                        continue
                    compatible = allowed[0].intersection(*allowed[1:])
                else:
                    compatible = set(reached)
                compatible -= delete
                if last.get((k, d)) == len(compatible):
                    continue  # compatible sets only grow: the same size is the same set, applied already
                last[(k, d)] = len(compatible)
                together = compatible | add
                for a in add:
                    known = partners.setdefault(a, set())
                    if not together <= known:
                        if a not in grown:
                            grown[a] = set(known)
                        known |= together
                        changed = True
                if not add <= reached:
                    reached |= add
                    changed = True
        for a, before in grown.items():
            for q in partners[a] - before - {a}:
                partners.setdefault(q, set()).add(a)
    return reached
