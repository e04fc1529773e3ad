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
from functools import cached_property

from acpgen.errors import DataError
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import EQUALITY, Axiom, LiftedTask, Literal, Schema, canonical, split_canonical
from acpgen.pddl.semantics import execute

Facts = frozenset[str]


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
        """Every type-correct ground atom of the task, sorted."""
        out = []
        for predicate, types in sorted(self.lifted.predicates.items()):
            if predicate == EQUALITY:
                continue
            for args in itertools.product(*(self.lifted.objects_of(t) for t in types)):
                out.append(canonical(predicate, args))
        return out


class CoreWorld(World):
    """acp's grounded semantics (:class:`acpgen.pddl.grounding.GroundTask`)."""

    def __init__(self, task: GroundTask, types: Mapping[str, str]):
        self.task = task
        self.lifted = task.lifted
        self.types = types

    @property
    def init(self) -> Facts:
        return frozenset(self.task.atoms.atoms(self.task.init))

    def step(self, facts: Facts, action: str) -> Facts | None:
        mask = self.task.mask_of(facts)
        run = execute(self.task, mask, [action])
        return frozenset(self.task.atoms.atoms(run.state)) if run.applicable else None

    def executable(self, facts: Facts) -> list[str]:
        return sorted(a.name for a in self.task.applicable(self.task.mask_of(facts)))


class LiftedWorld(World):
    """A separate interpreter over the lifted schemas (no grounding, no bit masks)."""

    def __init__(self, lifted: LiftedTask, types: Mapping[str, str]):
        self.lifted = lifted
        self.types = types

    @property
    def init(self) -> Facts:
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
            while True:
                new = set()
                for axiom in rules:
                    for conj in axiom.body:
                        for binding in self._matches(axiom.params, conj, frozenset(state)):
                            atom = canonical(axiom.predicate, tuple(binding[v] for v in axiom.head))
                            if atom not in state:
                                new.add(atom)
                if not new:
                    break
                state |= new
        return frozenset(state)

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

        return self.derive(frozenset((set(facts) - ground(schema.delete)) | ground(schema.add)))

    @staticmethod
    def _index(facts: Facts) -> dict[str, list[tuple[str, ...]]]:
        """The state's atoms by predicate."""
        by_predicate: dict[str, list[tuple[str, ...]]] = {}
        for atom in facts:
            name, args = split_canonical(atom)
            by_predicate.setdefault(name, []).append(args)
        return by_predicate

    def _matches(
        self,
        params: tuple[tuple[str, str], ...],
        conj: tuple[Literal, ...],
        facts: Facts,
        by_predicate: dict[str, list[tuple[str, ...]]] | None = None,
    ) -> Iterator[dict[str, str]]:
        """Bindings of the typed parameters under which the conjunction holds (``by_predicate``: the
        state's :meth:`_index`, when the caller has it)."""
        if by_predicate is None:
            by_predicate = self._index(facts)
        positive = [lit for lit in conj if lit.positive and lit.predicate != EQUALITY]

        def extend(index: int, binding: dict[str, str]) -> Iterator[dict[str, str]]:
            if index == len(positive):
                yield binding
                return
            literal = positive[index]
            for args in by_predicate.get(literal.predicate, ()):
                new = dict(binding)
                if all(new.setdefault(v, a) == a if v.startswith("?") else v == a for v, a in zip(literal.args, args)):
                    yield from extend(index + 1, new)

        for partial in extend(0, {}):
            free = [(v, t) for v, t in params if v not in partial]
            for values in itertools.product(*(self.lifted.objects_of(t) for _, t in free)):
                binding = {**partial, **{v: o for (v, _), o in zip(free, values)}}
                if all(binding[v] in self.lifted.objects_of(t) for v, t in params) and all(
                    self._holds(lit, binding, facts) for lit in conj
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
        index = self._index(facts)
        found: dict[str, tuple[Schema, dict[str, str]]] = {}
        for schema in self.lifted.schemas.values():
            for conj in schema.precondition:
                for binding in self._matches(schema.params, conj, facts, index):
                    name = canonical(schema.name, tuple(binding[v] for v, _ in schema.params))
                    found.setdefault(name, (schema, binding))
        return [(name, *found[name]) for name in sorted(found)]
