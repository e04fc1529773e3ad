"""The shape of the package: no import cycle between its modules (imports inside functions count; only
``if TYPE_CHECKING:`` blocks are left out), and few modules directly in ``acpgen/``. The layers themselves
are checked by import-linter (`make lint`, the contracts in pyproject.toml)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "acpgen"


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    out = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inside.update(id(n) for n in ast.walk(node))
    return inside


def imports(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (anywhere in its code, TYPE_CHECKING blocks aside)."""
    known = modules(package)
    root = package.name

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {m: set() for m in known}
    for module, path in known.items():
        tree = ast.parse(path.read_text())
        skip = _type_checking_nodes(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                    base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
                names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
            for name in names:
                target = resolve(name) if name.split(".")[0] == root else None
                if target and target != module:
                    edges[module].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import(tmp_path):
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("def f():\n    from pkg import high\n")
    (package / "high.py").write_text("from pkg.low import f\n")
    (package / "typed.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import high\n")
    edges = imports(package)
    assert cycles(edges) == [["pkg.high", "pkg.low"]]
    assert edges["pkg.typed"] == set()


def test_no_import_cycles_in_the_package():
    assert cycles(imports()) == []


def test_at_most_twelve_modules_directly_in_the_package():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 12, top


# ----- the tests mirror the package --------------------------------------------------------------
TESTS = Path(__file__).resolve().parent
# a module whose tests live under another name: the six rac_* tasks share their world model and tests
SHARED_TESTS = {"inspect_tasks": "test_inspect", "sequences": "test_rac", "optimal_plan": "test_plan"}


def _test_module(name: str) -> str:
    return "test_rac" if name.startswith("rac_") else SHARED_TESTS.get(name, f"test_{name}")


def test_every_task_stage_and_adapter_has_its_test_module():
    expected = {
        "tasks": [p.stem for p in (PACKAGE / "tasks").glob("*.py") if p.stem not in ("__init__", "base")],
        "adapters": [p.stem for p in (PACKAGE / "adapters").glob("*.py") if p.stem != "__init__"],
        "generation/stages": ["problems", "plans", "states", "qa", "export"],
    }
    missing = [
        f"tests/{folder}/{_test_module(name)}.py"
        for folder, names in expected.items()
        for name in names
        if not (TESTS / folder / f"{_test_module(name)}.py").exists()
    ]
    assert missing == []
