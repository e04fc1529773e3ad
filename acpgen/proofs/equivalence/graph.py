"""A problem as a coloured graph, matched up to a renaming of its objects (:class:`ProblemGraph`).

Once both goals are closed (:mod:`acpgen.proofs.equivalence.checker`), whether two problems are
equivalent is whether their coloured graphs are isomorphic: objects coloured by their declared type,
literals by their role, predicate and polarity, argument positions as nodes of their own.

Graph library: pynauty (nauty's canonical labelling). ``benchmarks/bench_equiv.py --compare`` timed it
against rustworkx (VF2 in Rust) and networkx (VF2 and VF2++ in Python) on the same coloured graphs
(see benchmarks/RESULTS.md): the VF2 searches blow up on the symmetric structures planning problems
are full of (ferry's all-pairs ``not-eq``, visitall grids, identical blocks), while nauty prunes by
automorphisms; its certificate is also a canonical form, computed once per graph, so a truth scored
against many candidates is canonised once. nauty has no edge labels, so argument positions become
nodes of their own (:class:`ProblemGraph`).
"""

from __future__ import annotations

import pynauty

from acpgen.pddl.model import LiftedTask, split_canonical


class ProblemGraph:
    """A coloured graph of a problem (Planetarium's scene graphs, generalised).

    One node per object, coloured by its declared type (a constant of the domain by its own name,
    so it can only match itself); one node per literal, coloured by its role (``init`` or
    ``goal``), predicate and polarity; between a literal and each object among its arguments, a
    node coloured by the argument positions where the object occurs (nauty has no edge labels).
    Two graphs are isomorphic iff their :meth:`certificate` (canonical form) is equal.
    """

    def __init__(self, lifted: LiftedTask) -> None:
        self.colours: list[tuple[str, ...]] = []
        self.edges: list[tuple[int, int]] = []
        self._object_node: dict[str, int] = {}
        for obj in sorted(lifted.objects):
            colour = ("constant", obj) if obj in lifted.constants else ("object", lifted.objects[obj])
            self._object_node[obj] = self._node(colour)
        self._certificate: tuple[object, ...] | None = None
        self._classes: tuple[tuple[tuple[str, ...], int], ...] = ()
        self._labels: list[int] | None = None

    def _node(self, colour: tuple[str, ...]) -> int:
        self.colours.append(colour)
        return len(self.colours) - 1

    def add(self, role: str, predicate: str, args: tuple[str, ...], positive: bool = True) -> None:
        self._certificate = self._labels = None
        node = self._node((role, predicate, "+" if positive else "-"))
        positions: dict[str, list[str]] = {}
        for i, arg in enumerate(args):
            positions.setdefault(arg, []).append(str(i))
        for arg, where in positions.items():
            middle = self._node(("argument", *where))
            self.edges += [(node, middle), (middle, self._object_node[arg])]

    def add_atoms(self, role: str, atoms: list[str], positive: bool = True) -> None:
        for atom in atoms:
            predicate, args = split_canonical(atom)
            self.add(role, predicate, args, positive)

    def _canonical(self) -> tuple[tuple[tuple[tuple[str, ...], int], ...], list[int]]:
        """The colour classes (sorted, with their sizes) and nauty's canonical labelling under that ordered
        partition (the node at each canonical position), worked out once (nauty is most of a check's graph
        cost: 23-47 ms on alfworld's initial states)."""
        if self._labels is None:
            members: dict[tuple[str, ...], set[int]] = {}
            for node, colour in enumerate(self.colours):
                members.setdefault(colour, set()).add(node)
            order = sorted(members)
            adjacency: dict[int, list[int]] = {}
            for a, b in self.edges:
                adjacency.setdefault(a, []).append(b)
            graph = pynauty.Graph(
                len(self.colours), directed=False, adjacency_dict=adjacency, vertex_coloring=[members[c] for c in order]
            )
            self._classes = tuple((c, len(members[c])) for c in order)
            self._labels = list(pynauty.canon_label(graph))
        return self._classes, self._labels

    def certificate(self) -> tuple[object, ...]:
        """The canonical form: the colour classes (sorted, with their sizes) and the edges renumbered by
        canonical position, sorted (the canonically labelled graph, which is what nauty's own certificate
        encodes; equal exactly when the graphs are isomorphic)."""
        if self._certificate is None:
            classes, labels = self._canonical()
            position = [0] * len(labels)
            for i, node in enumerate(labels):
                position[node] = i
            edges = sorted((min(position[a], position[b]), max(position[a], position[b])) for a, b in self.edges)
            self._certificate = (classes, tuple(edges))
        return self._certificate

    def objects_onto(self, other: ProblemGraph) -> dict[str, str] | None:
        """A bijection of this graph's objects onto ``other``'s under which the two graphs are equal
        (None when they are not isomorphic): nauty's canonical labelling of each graph puts the nodes
        of isomorphic graphs in corresponding order, so the objects at one canonical position correspond."""
        if not self.isomorphic(other):
            return None
        objects = {node: obj for obj, node in self._object_node.items()}
        onto = {node: obj for obj, node in other._object_node.items()}
        return {
            objects[mine]: onto[theirs]
            for mine, theirs in zip(self._canonical()[1], other._canonical()[1])
            if mine in objects
        }

    def isomorphic(self, other: ProblemGraph) -> bool:
        return len(self.colours) == len(other.colours) and self.certificate() == other.certificate()
