"""Derived predicates (PDDL axioms): stratification of the rules and their evaluation on ground states.

A derived atom is never set by an action. After every progression (and in the initial state) all
derived atoms are cleared and computed again from the base atoms, stratum by stratum: the rules of a
stratum fire until nothing changes (a least fixpoint, so recursion through positive literals is
allowed), and a negated derived atom is only read once its stratum below is complete. A domain whose
rules depend on a derived predicate negatively inside a cycle has no such order and is refused.
"""

from __future__ import annotations

from collections.abc import Iterable

from acpgen.errors import PddlError
from acpgen.pddl.model import Axiom, Schema


def check_effects(schemas: Iterable[Schema], derived: frozenset[str], source: str) -> None:
    """Refuse an action that adds or deletes a derived predicate (its value comes from the rules only)."""
    for schema in schemas:
        for lit in (*schema.add, *schema.delete):
            if lit.predicate in derived:
                raise PddlError(
                    f"{source}: action {schema.name} changes the derived predicate {lit.predicate} in its effect; "
                    "a derived predicate is defined by its (:derived ...) rules only - remove it from the effect "
                    "or make it a plain predicate without rules"
                )


def stratify(axioms: Iterable[Axiom], source: str) -> tuple[tuple[str, ...], ...]:
    """Derived predicates grouped by stratum, lowest first (each group sorted).

    Raises :class:`PddlError` naming the predicates of a cycle that goes through a negated derived atom.
    """
    axioms = list(axioms)
    derived = sorted({a.predicate for a in axioms})
    # edges[p] = {q: negative?} for every derived q that p's rules read (negative if read negated anywhere)
    edges: dict[str, dict[str, bool]] = {p: {} for p in derived}
    for axiom in axioms:
        for conjunction in axiom.body:
            for lit in conjunction:
                if lit.predicate in edges:
                    reads = edges[axiom.predicate]
                    reads[lit.predicate] = reads.get(lit.predicate, False) or not lit.positive
    components = _components(derived, edges)
    component_of = {p: i for i, comp in enumerate(components) for p in comp}
    level: dict[int, int] = {}
    for i, comp in enumerate(components):  # dependencies first (Tarjan's order)
        value = 0
        for p in comp:
            for q, negative in edges[p].items():
                j = component_of[q]
                if j == i:
                    if negative:
                        cycle = ", ".join(sorted(comp))
                        raise PddlError(
                            f"{source}: the derived predicates {cycle} depend on each other through the negation "
                            f"of {q} (in a rule of {p}), so the rules are not stratified; rewrite them so that no "
                            "derived predicate depends on its own negation"
                        )
                    continue
                value = max(value, level[j] + (1 if negative else 0))
        level[i] = value
    strata: dict[int, list[str]] = {}
    for i, comp in enumerate(components):
        strata.setdefault(level[i], []).extend(comp)
    return tuple(tuple(sorted(strata[k])) for k in sorted(strata))


def _components(nodes: list[str], edges: dict[str, dict[str, bool]]) -> list[list[str]]:
    """Strongly connected components (Tarjan), each listed after the components it depends on."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(edges[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            comp = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                comp.append(top)
                if top == node:
                    break
            out.append(sorted(comp))

    for node in nodes:
        if node not in index:
            visit(node)
    return out


class AxiomEvaluator:
    """Ground rules ``head <- pos, not neg`` by stratum; :meth:`close` recomputes the derived atoms of a state."""

    #: closures remembered per evaluator before the memo starts afresh (a bound on its memory)
    MEMO_SIZE = 1 << 17

    def __init__(self, strata: list[list[tuple[int, int, int]]], derived_mask: int):
        self.strata = [tuple(rules) for rules in strata]  # per stratum: (head bit mask, positive mask, negative mask)
        self.derived_mask = derived_mask
        # base atoms -> closed state: a search reaches most states along several actions, and each arrival
        # closes the same base atoms again
        self._closed: dict[int, int] = {}

    @property
    def rules(self) -> list[tuple[int, int, int]]:
        return [rule for rules in self.strata for rule in rules]

    def close(self, state: int) -> int:
        """``state`` with every derived atom set exactly when the rules derive it from the base atoms."""
        base = state & ~self.derived_mask
        closed = self._closed.get(base)
        if closed is None:
            if len(self._closed) >= self.MEMO_SIZE:
                self._closed.clear()
            closed = self._closed[base] = self._derive(base)
        return closed

    def _derive(self, state: int) -> int:
        """The base atoms ``state`` with the atoms the rules derive from them, stratum by stratum."""
        for rules in self.strata:
            pending = list(rules)
            changed = True
            while changed:
                changed = False
                rest = []
                for rule in pending:
                    head, pos, neg = rule
                    if state & head:
                        continue
                    if state & pos == pos and not state & neg:
                        state |= head
                        changed = True
                    else:
                        rest.append(rule)
                pending = rest
        return state
