"""Compare parsed action schemas with schemas written out by hand in the tests (test helper).

A documented schema is ``(parameters, precondition, add, delete)`` written as text:
``"x - truck, y - place"`` and ``"at x y, clear y"`` (an empty string for no atoms). Both sides
become (parameter types, atoms with positional variables) so that parameter names do not matter.
"""

from __future__ import annotations


def positional(params, atoms):
    index = {v: f"#{i}" for i, v in enumerate(params)}
    return frozenset((a[0], tuple(index.get(x, x) for x in a[1:])) for a in atoms)


def expected_schema(spec):
    params, pre, add, dele = spec
    names = [p.split(" - ")[0] for p in params.split(", ")] if params else []
    types = tuple(p.split(" - ")[1] for p in params.split(", ")) if params else ()

    def parse(text):
        return [atom.split() for atom in text.split(", ") if atom]

    return types, positional(names, parse(pre)), positional(names, parse(add)), positional(names, parse(dele))


def actual_schema(schema):
    """The same view of a parsed :class:`acpgen.pddl.model.Schema` with a positive conjunctive precondition."""
    names = [v.lstrip("?") for v, _ in schema.params]
    (pre,) = schema.precondition
    assert all(lit.positive for lit in pre)

    def atoms(lits):
        return [(lit.predicate, *(a.lstrip("?") for a in lit.args)) for lit in lits]

    return (
        tuple(t for _, t in schema.params),
        positional(names, atoms(pre)),
        positional(names, atoms(schema.add)),
        positional(names, atoms(schema.delete)),
    )
