"""swap: the domain file against the ACPBench swap domain, and generated problems."""

from __future__ import annotations

import random

import pytest

from acpgen.generators import domain_file, get_generator
from acpgen.generators.swap import AGENT_NAMES, THEMES
from acpgen.pddl.tarski_io import read_strings

GEN = get_generator("swap")


def generate(n=6, index=20, seed=1):
    return GEN.generate({"agents": n, "index": index}, random.Random(seed))


def assignment(atoms):
    pairs = [tuple(a.strip("()").split()) for a in atoms]
    assert all(p[0] == "assigned" and len(p) == 3 for p in pairs)
    return {a: r for _, a, r in pairs}, [r for _, _, r in pairs]


def test_domain_file_matches_the_documented_domain():
    """The ACPBench swap domain: one predicate, one swap action, no not-eq."""
    lifted = read_strings(domain_file("swap").read_text(), GEN.render(generate()))
    assert lifted.domain_name == "swap"
    assert lifted.supertypes == {"object": ("object",), "agent": ("agent", "object"), "role": ("role", "object")}
    assert lifted.predicates == {"assigned": ("agent", "role")}
    assert set(lifted.schemas) == {"swap"}
    schema = lifted.schemas["swap"]
    assert [t for _, t in schema.params] == ["agent", "agent", "role", "role"]
    a1, a2, r1, r2 = (v for v, _ in schema.params)
    lits = lambda ls: {(lit.predicate, lit.args, lit.positive) for lit in ls}  # noqa: E731
    (pre,) = schema.precondition
    assert lits(pre) == {("assigned", (a1, r1), True), ("assigned", (a2, r2), True)}
    assert lits(schema.delete) == {("assigned", (a1, r1), True), ("assigned", (a2, r2), True)}
    assert lits(schema.add) == {("assigned", (a1, r2), True), ("assigned", (a2, r1), True)}


@pytest.mark.parametrize("n", [2, 3, 4, 6, 7, 8, 12])
@pytest.mark.parametrize("seed", range(1, 8))
def test_init_and_goal_are_different_bijections(n, seed):
    spec = generate(n, 4, seed)
    agents = sorted(o for o, t in spec.objects.items() if t == "agent")
    roles = sorted(o for o, t in spec.objects.items() if t == "role")
    assert len(agents) == len(roles) == n == len(spec.objects) // 2
    start, _ = assignment(spec.init)
    goal, _ = assignment(spec.goal)
    for holds in (start, goal):
        assert sorted(holds) == agents and sorted(holds.values()) == roles
    assert len(spec.init) == len(spec.goal) == n
    assert sum(start[a] != goal[a] for a in agents) >= 2
    assert [a.strip("()").split()[1] for a in spec.goal] == agents  # goal in agent order


@pytest.mark.parametrize("seed", range(1, 21))
def test_names_come_from_the_pools(seed):
    spec = generate(7, 28, seed)
    agents = {o for o, t in spec.objects.items() if t == "agent"}
    roles = {o for o, t in spec.objects.items() if t == "role"}
    assert agents <= set(AGENT_NAMES)
    assert all(name == name.lower() for name in spec.objects)
    books = {f"book{k:02d}" for k in range(1, 8)}
    assert roles == books or any(roles <= set(pool) for pool in THEMES.values())


def test_problem_name_and_variety():
    assert generate(8, 36).name == "swap-8-36"
    assert generate(3, 4).name == "swap-3-4"
    texts = {GEN.render(generate(6, 20, s)) for s in range(1, 11)}
    assert len(texts) == 10
    themes = set()
    for s in range(1, 41):
        roles = {o for o, t in generate(5, 0, s).objects.items() if t == "role"}
        themes.add("books" if "book01" in roles else next(k for k, p in THEMES.items() if roles <= set(p)))
    assert themes == {"books", *THEMES}


def test_pools_are_large_and_disjoint():
    pools = [set(AGENT_NAMES), *(set(p) for p in THEMES.values())]
    assert all(len(p) >= 20 for p in pools)
    assert sum(len(p) for p in pools) == len(set().union(*pools))  # no name is both agent and role


@pytest.mark.parametrize("n,index", [(1, 0), (0, 0), (len(AGENT_NAMES) + 1, 0), (4, -1)])
def test_impossible_sizes_are_rejected(n, index):
    with pytest.raises(ValueError):
        generate(n, index)
