"""Problems no plan solves (issue 61): made for every built-in domain, each proven by two procedures, and checked here
by a third that shares nothing with acp's: tarski's own grounding and breadth-first search over every reachable state
(the small ones). The proofs answer "solvable" for solvable problems, and name the goal literal or pair that never
holds; the kinds are as documented (deep ones where the domain admits them)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from tarski.grounding import NaiveGroundingStrategy
from tarski.io import PDDLReader
from tarski.search import BreadthFirstSearch, GroundForwardSearchModel
from tarski.syntax.transform.action_grounding import ground_schema_into_plain_operator_from_grounding

from acpgen.cli import cli
from acpgen.config import load_config
from acpgen.generators import DOMAINS, get_generator
from acpgen.generators.unsolvable import DEEP_GOALS, deep_goal, shallow_goal, static_goal
from acpgen.pddl.grounding import GroundTask
from acpgen.planners import PlannerSetup
from acpgen.proofs.unsolvable import SEARCHES, SHALLOW, prove_unsolvable

#: the problems tarski's search checks: those whose every reachable state acp counted, at most this many
SMALL = 1000


def tarski_search(domain: str, problem: str, limit: int = 20000) -> tuple[bool, int] | None:
    """(a goal state reachable, states expanded) by tarski's naive grounding and breadth-first search; None when
    more than ``limit`` states are reachable (not a small problem)."""
    reader = PDDLReader(raise_on_error=True)
    reader.parse_domain_string(domain)
    model = reader.parse_instance_string(problem)
    grounding = NaiveGroundingStrategy(model).ground_actions()
    operators = [
        ground_schema_into_plain_operator_from_grounding(model.actions[name], binding)
        for name, bindings in grounding.items()
        for binding in bindings
    ]
    space, stats = BreadthFirstSearch(GroundForwardSearchModel(model, operators), max_expansions=limit).run()
    return (stats.num_goals > 0, stats.nexpansions) if space.complete else None


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """The problems stage of five domains at level 1 (the others: `make test-slow`)."""
    out = tmp_path_factory.mktemp("unsolvable")
    args = ["generate", "--level", "1", "--stage", "problems", "--out", str(out)]
    for name in ("ferry", "blocksworld", "floortile", "visitall", "swap"):
        args += ["--domain", name]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


def unsolvable_of(root: Path) -> list[tuple[Path, dict]]:
    return [
        (p, json.loads(p.with_suffix(".proof.json").read_text())) for p in sorted(root.glob("*/unsolvable/u*.pddl"))
    ]


def test_every_unsolvable_problem_is_proven_twice_and_a_third_search_finds_no_plan(made):
    found = unsolvable_of(made)
    config = load_config()
    assert {p.parts[-3] for p, _ in found} == {"ferry", "blocksworld", "floortile", "visitall", "swap"}
    share = config.qa.unsolvable_share
    assert len(found) == sum(math.ceil(share * config.domain(d).problems) for d in {p.parts[-3] for p, _ in found})
    checked = 0
    for path, proof in found:
        assert len(proof["proven_by"]) == 2 and proof["kind"] in ("deep", "shallow"), (path, proof)
        assert set(proof["proven_by"]) & set(SEARCHES), proof  # one a complete search
        domain = (path.parents[1] / "domain.pddl").read_text()
        result = tarski_search(domain, path.read_text(), limit=SMALL)
        if result is None:
            continue  # tarski's search, written to illustrate, takes minutes beyond a few thousand states
        assert result[0] is False, path  # no goal state among every state reachable
        checked += 1
    assert checked >= 4  # the small ones (level 1)


def test_deep_ones_where_the_domain_admits_them(made):
    kinds = {(p.parts[-3], proof["kind"]) for p, proof in unsolvable_of(made)}
    assert ("blocksworld", "deep") in kinds and ("floortile", "deep") in kinds  # a cycle; every tile painted
    assert {k for d, k in kinds if d not in DEEP_GOALS} == {"shallow"}


@pytest.mark.parametrize("domain", sorted(DEEP_GOALS))
def test_a_deep_goal_is_refuted_by_no_static_fact_relaxation_or_pair(domain):
    generator = get_generator(domain)
    sizes = load_config().domain(domain).sizes
    planners = PlannerSetup().build()
    proofs = []
    for seed in range(4):
        rng = random.Random(seed)
        size = max(sizes, key=lambda z: z.get("crates", 0)) if domain == "depots" else sizes[0]  # 3 crates or more
        spec = generator.generate(size, rng)
        candidate = deep_goal(domain, spec, rng)
        if candidate is None:
            continue
        task = GroundTask.from_strings(generator._domain_text, generator.render(candidate))
        proof = prove_unsolvable(task, planners, max_states=20000)
        assert not proof.solvable
        assert not set(proof.by) & set(SHALLOW), proof.summary  # neither static facts, relaxation nor h² see it
        assert proof.proven or domain == "depots", proof.summary  # depots' 3 crates: no search ends (docs)
        proofs.append(proof)
    assert proofs


def test_solvable_problems_are_answered_solvable_and_a_pair_is_named():
    planners = PlannerSetup().build()
    for domain in DOMAINS:
        generator = get_generator(domain)
        spec = generator.generate(load_config().domain(domain).sizes[0], random.Random(1))
        task = GroundTask.from_strings(generator._domain_text, generator.render(spec))
        proof = prove_unsolvable(task, planners, max_states=20000)
        assert proof.solvable and not proof.proven, (domain, proof.summary)
    generator = get_generator("ferry")
    rng = random.Random(3)
    spec = generator.generate({"locations": 2, "cars": 2}, rng)
    candidate = shallow_goal(spec, GroundTask.from_strings(generator._domain_text, generator.render(spec)), rng)
    task = GroundTask.from_strings(generator._domain_text, generator.render(candidate))
    proof = prove_unsolvable(task, planners)
    assert proof.proven and proof.by[0] == "h2" and proof.literal is not None
    assert "hold together in no reachable state" in proof.reasons[0]


def test_a_static_contradiction_asks_fast_downward_before_an_exploration():
    """The static facts refute the goal; the second procedure is the planner (its translator sees the contradiction),
    or without planners the exploration of the ferry's 16 states."""
    generator = get_generator("ferry")
    rng = random.Random(5)
    spec = generator.generate({"locations": 2, "cars": 2}, rng)
    candidate = static_goal(spec, GroundTask.from_strings(generator._domain_text, generator.render(spec)), rng)
    assert candidate is not None
    task = GroundTask.from_strings(generator._domain_text, generator.render(candidate))
    assert not task.goal_satisfiable
    with_planner = prove_unsolvable(task, PlannerSetup().build())
    assert with_planner.proven and with_planner.by == ("static", "planner"), with_planner.reasons
    # without planners: the lifted interpreter, which reads the goal (acp's exploration would only find no goal
    # state because the static literal is false: the first certificate again)
    alone = prove_unsolvable(task)
    assert alone.proven and alone.by == ("static", "lifted"), alone.reasons


@pytest.mark.slow
def test_every_built_in_domain_gets_its_unsolvable_problems_at_levels_1_to_3(tmp_path):
    for level in (1, 2, 3):
        out = tmp_path / f"level-{level}"
        args = ["generate", "--domain", "all", "--level", str(level), "--stage", "problems", "--out", str(out)]
        result = CliRunner().invoke(cli, [*args, "-j", "2"], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        assert {p.parts[-3] for p, _ in unsolvable_of(out)} == set(DOMAINS)
