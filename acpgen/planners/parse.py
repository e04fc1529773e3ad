"""Reading planner output: plans (K* JSON, Fast Downward ``sas_plan``) and landmark graphs.

Every action and atom is returned in acp's canonical form: lower case, parenthesised, single
spaces -- ``(board c0 l0)``, ``(empty-ferry)``.

Landmarks come from Fast Downward's ``lm_rhw(verbosity=debug)``, which prints the landmark graph
in DOT between ``Dumping landmark graph:`` and ``Landmark graph end.``. A node line looks like::

    lm6 [label="Atom at-ferry(l1) | Atom at-ferry(l2)", style=bold, style=filled];

``|`` joins the atoms of a disjunctive landmark, ``&`` those of a conjunctive one;
``style=bold`` marks a landmark true in the initial state and ``style=filled`` a goal.
Landmarks with a ``NegatedAtom`` (from negative preconditions) or with a translator-made atom
(``new-axiom@0``, from axioms) cannot be stated as atoms of the task and are dropped (counted).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SPACES = re.compile(r"\s+")


def canonical(text: str) -> str:
    """``"Board C0  l0"`` / ``"(board c0 l0 )"`` -> ``"(board c0 l0)"``."""
    inner = text.strip()
    if inner.startswith("(") and inner.endswith(")"):
        inner = inner[1:-1]
    return "(" + _SPACES.sub(" ", inner.strip().lower()) + ")"


def kstar_plans(path: Path) -> list[tuple[str, ...]]:
    """Plans of a K* ``json_file_to_dump`` file (missing or empty file: no plans)."""
    if not path.is_file() or path.stat().st_size == 0:
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return [tuple(canonical(a) for a in plan.get("actions", [])) for plan in data.get("plans", [])]


def forbiditerative_plans(path: Path) -> list[tuple[str, ...]]:
    """Plans of a forbiditerative ``--plans-as-json`` results file (same layout as K*'s)."""
    return kstar_plans(path)


def sas_plan(path: Path) -> tuple[str, ...] | None:
    """The plan in a Fast Downward plan file, or None when the file does not exist."""
    if not path.is_file():
        return None
    steps = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith(";"):
            steps.append(canonical(line))
    return tuple(steps)


@dataclass(frozen=True)
class Landmark:
    """One landmark of the RHW landmark graph."""

    atoms: tuple[str, ...]
    disjunctive: bool = False
    conjunctive: bool = False
    true_in_init: bool = False
    goal: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "atoms": list(self.atoms),
            "disjunctive": self.disjunctive,
            "conjunctive": self.conjunctive,
            "true_in_init": self.true_in_init,
            "goal": self.goal,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Landmark:
        """Inverse of :meth:`to_dict`."""
        return cls(
            atoms=tuple(data["atoms"]),
            disjunctive=bool(data["disjunctive"]),
            conjunctive=bool(data["conjunctive"]),
            true_in_init=bool(data["true_in_init"]),
            goal=bool(data["goal"]),
        )


GRAPH_START = "Dumping landmark graph"
GRAPH_END = "Landmark graph end."
_NODE = re.compile(r'^\s*lm(\d+) \[label="(.*)"(.*)\];\s*$')
_ATOM = re.compile(r"^(Atom|NegatedAtom) ([^()]+)\((.*)\)$")


def _atom(text: str) -> tuple[str, bool] | None:
    """``"Atom at(c0, l1)"`` -> ``("(at c0 l1)", negated)``; None if not an atom."""
    match = _ATOM.match(text.strip())
    if match is None:
        return None
    args = [a.strip() for a in match.group(3).split(",") if a.strip()]
    return canonical(" ".join([match.group(2).strip(), *args])), match.group(1) == "NegatedAtom"


def landmark_graph(stdout: str) -> tuple[list[Landmark], int] | None:
    """Landmarks in Fast Downward's debug dump and how many were dropped; None if no dump."""
    start = stdout.find(GRAPH_START)
    end = stdout.find(GRAPH_END, start + 1) if start >= 0 else -1
    if start < 0 or end < 0:
        return None
    landmarks: list[Landmark] = []
    dropped = 0
    for line in stdout[start:end].splitlines():
        match = _NODE.match(line)
        if match is None:
            continue
        label, attrs = match.group(2), match.group(3)
        conjunctive = " & " in label
        disjunctive = " | " in label
        parts = re.split(r" [|&] ", label)
        atoms = [_atom(p) for p in parts]
        if any(a is None or a[1] or "@" in a[0] for a in atoms):
            dropped += 1
            continue
        landmarks.append(
            Landmark(
                atoms=tuple(a[0] for a in atoms if a is not None),
                disjunctive=disjunctive,
                conjunctive=conjunctive,
                true_in_init="bold" in attrs,
                goal="filled" in attrs,
            )
        )
    return landmarks, dropped


_SAS_ATOM = re.compile(r"^Atom ([^(]+)\((.*)\)$")


def sas_mutex_groups(text: str) -> list[tuple[str, ...]]:
    """Mutually exclusive atom sets of a translator ``output.sas``: each finite-domain variable's
    atoms, and every ``mutex_group`` section; atoms in canonical form, negated atoms left out."""
    lines = text.splitlines()
    values: list[list[str | None]] = []
    groups: list[tuple[str, ...]] = []
    i = 0
    while i < len(lines):
        if lines[i] == "begin_variable":
            count = int(lines[i + 3])
            names = []
            for line in lines[i + 4 : i + 4 + count]:
                match = _SAS_ATOM.match(line)
                args = [a.strip() for a in match.group(2).split(",") if a.strip()] if match else []
                names.append(canonical("(" + " ".join([match.group(1), *args]) + ")") if match else None)
            values.append(names)
            group = tuple(n for n in names if n is not None)
            if len(group) > 1:
                groups.append(group)
            i += 4 + count
        elif lines[i] == "begin_mutex_group":
            count = int(lines[i + 1])
            members = []
            for line in lines[i + 2 : i + 2 + count]:
                var, val = (int(x) for x in line.split())
                members.append(values[var][val])
            group = tuple(m for m in members if m is not None)
            if len(group) > 1:
                groups.append(group)
            i += 2 + count
        else:
            i += 1
    return groups


#: the expansions a Fast Downward-family search reports: its progress lines ("g=5, 13 evaluated, 4 expanded",
#: "f = 34, 722 evaluated, 70 expanded") and its statistics ("Expanded 30217 state(s).", K*'s
#: "step[1]::first_astar::Expanded=6 state(s)."); the line of an expansion limit (:meth:`Work.bounded`: "Pruning
#: ratio after 40 calls", written when the 41st expanded state is not a goal; K*'s stubborn sets, limited the same
#: way, write it too, after as many expansions); and the operators of the task it searches, as the translator
#: counts them before the search starts ("Translator operators: 240")
_EXPANDED = re.compile(
    rb"(\d+) expanded\b|Expanded[= ](\d+) state|Pruning ratio after (\d+) calls|Translator operators: (\d+)"
)
#: Fast Downward's searches that take a ``pruning`` option and prune once per expanded state, after its goal test
_EAGER_SEARCHES = ("astar(", "eager_greedy(", "eager_wastar(", "eager(")
#: the largest integer option Fast Downward parses (a 32-bit int: a larger one ends the search with an error)
_FD_INT_MAX = 2**31 - 1


class Work:
    """Watches a search's output as it is written (``run_tool``'s ``watch``): ``done`` is the work reported so
    far, the most expansions reported times the task's operators (what evaluating a state costs a heuristic
    grows with them, so that a budget of work takes about as long on a task of 10 operators as on one of
    1,000); a call answers whether it exceeds ``budget``. Output comes in pieces that may end inside a line: a
    line is read once it is complete."""

    def __init__(self, budget: int | None) -> None:
        self.budget = budget
        self.expansions = 0
        self.operators = 1
        self._rest = b""

    @property
    def done(self) -> int:
        return self.expansions * self.operators

    def __call__(self, chunk: bytes) -> bool:
        text = self._rest + chunk
        cut = text.rfind(b"\n") + 1
        self._rest = text[cut:][-200:]  # a line's end is all a count needs
        for match in _EXPANDED.finditer(text, 0, cut):
            expanded, stated, limit, operators = match.groups()
            if operators is not None:
                self.operators = max(1, int(operators))
            elif limit is not None:
                self.expansions = max(self.expansions, int(limit) + 1)
            else:
                self.expansions = max(self.expansions, int(expanded or stated))
        return self.budget is not None and self.done > self.budget

    def bounded(self, search: str) -> str:
        """``search`` (a Fast Downward ``--search`` argument) made to write a line when it is about to expand more
        states than the budget allows the task's operators (known by then: the translator has reported them, or
        the SAS task was counted), so that it is stopped there rather than at its next progress report -- a greedy
        search reports only when its estimate improves, and on a plateau may work on unseen for minutes.

        The line comes from Fast Downward's ``limited_pruning`` around ``null()`` pruning, which prunes nothing:
        after ``N`` prunings it writes "Pruning ratio after N calls" and, the ratio 0 being below the required 1,
        turns itself off. An eager search prunes once per expanded state that is not a goal, so the line means
        ``N + 1`` expansions, and ``N`` is the most the budget allows: the search is stopped exactly when a run to
        its end would have ended over budget, and its answer within the budget is the same, plan for plan.
        Searches that prune already, and those that do not prune per expansion, are returned unchanged, and so
        is any search when the budget allows more expansions than Fast Downward's options can state."""
        allowed = None if self.budget is None else self.budget // self.operators
        if allowed is None or allowed > _FD_INT_MAX or "pruning=" in search or not search.startswith(_EAGER_SEARCHES):
            return search
        limit = (
            "pruning=limited_pruning(pruning=null(),min_required_pruning_ratio=1,"
            f"expansions_before_checking_pruning_ratio={allowed})"
        )
        return f"{search[:-1]},{limit})"
