"""The planner layer (acpgen.planners) on tiny hand-made PDDL tasks in tests/fixtures/planner.

Expected plans and costs are derived by hand in the comments. Every planner call on these tasks
takes a fraction of a second; the two watchdog tests wait for the 1 s * 1.5 + 5 s wall limit.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import tempfile
import textwrap
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import FIXTURES

from acpgen.errors import ConfigError, SafetyNetError, ToolError
from acpgen.planners import (
    ApptainerBackend,
    Landmark,
    Limits,
    LocalBackend,
    PlanCache,
    Planners,
    Status,
    ToolRun,
    make_backend,
    run_tool,
    warm,
)
from acpgen.planners.backends import Backend
from acpgen.planners.outcomes import classify
from acpgen.planners.parse import Work, canonical, landmark_graph

FIX = FIXTURES / "planner"
LIMITS = Limits(time=20.0, memory_mb=2048)


def pddl(name: str) -> str:
    return (FIX / f"{name}.pddl").read_text()


FERRY = pddl("ferry-domain")
FERRY_P01 = pddl("ferry-p01")

# Ferry p01: cars c0, c1 and the ferry (capacity one) at l0; both cars must reach l1.
# Each car needs board + debark (4 actions); the ferry must carry them one at a time, so it
# sails l0->l1, back, and l0->l1 again (3 sails): 7 actions is a lower bound, and these plans
# (the two car orders) reach it. Any other 7-step sequence fails to move both cars.
OPTIMAL_FERRY = {
    tuple(
        f"({a})"
        for a in [
            "board c0 l0",
            "sail l0 l1",
            "debark c0 l1",
            "sail l1 l0",
            "board c1 l0",
            "sail l0 l1",
            "debark c1 l1",
        ]
    ),
    tuple(
        f"({a})"
        for a in [
            "board c1 l0",
            "sail l0 l1",
            "debark c1 l1",
            "sail l1 l0",
            "board c0 l0",
            "sail l0 l1",
            "debark c0 l1",
        ]
    ),
}


def ferry_valid(
    plan: tuple[str, ...], cars=("c0", "c1"), goal=(("c0", "l1"), ("c1", "l1")), start: dict | None = None
) -> bool:
    """Simulate a plan of ferry p01, or of another ferry problem whose cars ``start`` where given (hand-written
    semantics of the fixture domain; the ferry starts empty at l0)."""
    at = dict(start) if start is not None else {c: "l0" for c in cars}
    ferry, on = "l0", None
    for step in plan:
        name, *args = step.strip("()").split()
        if name == "sail" and ferry == args[0] and args[0] != args[1]:
            ferry = args[1]
        elif name == "board" and at.get(args[0]) == args[1] == ferry and on is None:
            on, at[args[0]] = args[0], None
        elif name == "debark" and on == args[0] and ferry == args[1]:
            on, at[args[0]] = None, args[1]
        else:
            return False
    return all(at[c] == loc for c, loc in goal)


def grounded_valid(plan: tuple[str, ...]) -> bool:
    """Simulate the grounded fixture domain (negative and disjunctive preconditions)."""
    s: set[str] = set()
    for step in plan:
        if step == "(a1)" and "f2" not in s:
            s.add("f1")
        elif step == "(a2)" and ("f1" in s or "f4" in s):
            s.add("f2")
        elif step == "(a3)" and "f1" in s and "f2" not in s:
            s.add("f3")
            s.discard("f1")
        elif step == "(a4)" and "f3" in s:
            s.add("f4")
        else:
            return False
    return {"f2", "f3"} <= s


@pytest.fixture
def planners() -> Planners:
    return Planners(LocalBackend(), PlanCache(None, env=False))


# ----- solve / optimal ------------------------------------------------------------------------
def test_solve_and_optimal_on_ferry(planners):
    opt = planners.optimal(FERRY, FERRY_P01, LIMITS)
    assert opt.status == Status.SOLVED and not opt.cached
    assert opt.plans[0] in OPTIMAL_FERRY and opt.costs == (7,)
    sol = planners.solve(FERRY, FERRY_P01, LIMITS)
    assert sol.status == Status.SOLVED
    assert ferry_valid(sol.plans[0]) and sol.costs == (len(sol.plans[0]),)


def test_the_second_optimal_configuration_is_another_search_with_the_same_costs(planners, monkeypatch):
    # OPTIMAL_FERRY's cost 7 (above), the grounded task's 4 and the axioms task's 2 (below), by A* with CEGAR
    searches: list[str] = []
    run = planners._run

    def spy(tool, template, workdir, limits, watch=None):
        searches.append(template[template.index("--search") + 1])
        return run(tool, template, workdir, limits, watch)

    monkeypatch.setattr(planners, "_run", spy)
    opt = planners.optimal(FERRY, FERRY_P01, LIMITS, check=True)
    assert opt.status == Status.SOLVED and opt.costs == (7,) and ferry_valid(opt.plans[0])
    assert searches == ["astar(cegar(subtasks=[goals()],max_transitions=100000))"]
    assert planners.optimal(*pddl_pair("grounded"), LIMITS, check=True).costs == (4,)
    assert planners.optimal(*pddl_pair("axioms"), LIMITS, check=True).costs == (2,)
    assert "astar(lmcut())" not in searches


def test_the_solve_portfolio_tries_the_other_searches_when_the_first_decides_nothing(planners, monkeypatch):
    """Each probe for a moment, then the first search with the whole budget and the others with a quarter."""
    searches: list[tuple[str, float]] = []
    run = planners._run
    refused = {"eager_greedy([ff()],preferred=[ff()])", "lazy_greedy([ff()],preferred=[ff()])"}

    def spy(tool, template, workdir, limits, watch=None):  # the probes and the first two decide nothing
        search = template[template.index("--search") + 1]
        searches.append((search, limits.time))
        if search in refused or "max_time=" in search:
            template = (*template[: template.index("--search") + 1], "astar(blind(),bound=0)")
        return run(tool, template, workdir, limits, watch)

    monkeypatch.setattr(planners, "_run", spy)
    sol = planners.solve(FERRY, FERRY_P01, LIMITS, portfolio=True)
    assert sol.status == Status.SOLVED and ferry_valid(sol.plans[0])
    quarter = LIMITS.time / 4
    probe = min(0.25, LIMITS.time / 8)
    assert searches == [
        (f"eager_greedy([ff()],preferred=[ff()],boost=1000,max_time={probe:g})", LIMITS.time),
        (f"lazy_greedy([ff()],preferred=[ff()],max_time={probe:g})", LIMITS.time),
        (f"eager_greedy([ff(), cg()],preferred=[ff(), cg()],max_time={probe:g})", LIMITS.time),
        ("eager_greedy([ff()],preferred=[ff()])", LIMITS.time),
        ("lazy_greedy([ff()],preferred=[ff()])", quarter),
        ("eager_greedy([ff(), cg()],preferred=[ff(), cg()])", quarter),
    ]
    # without the portfolio, the first search's outcome is the answer
    searches.clear()
    assert planners.solve(FERRY, FERRY_P01, LIMITS).status != Status.SOLVED and len(searches) == 1
    # with a work budget: no probe (its time limit would decide), eager FF, then A* without an estimate, each
    # within the whole budget (a greedy search on a plateau reports no work)
    searches.clear()
    budgeted = planners.solve(FERRY, FERRY_P01, Limits(20.0, 2048, 10**6), portfolio=True)
    assert budgeted.status == Status.SOLVED and ferry_valid(budgeted.plans[0])
    assert searches == [("eager_greedy([ff()],preferred=[ff()])", 20.0), ("astar(blind())", 20.0)]
    # a proof that no plan exists ends the portfolio at once
    monkeypatch.setattr(planners, "_run", run)
    unsolvable = planners.solve(pddl("tokens-domain"), pddl("tokens-unsolvable"), LIMITS, portfolio=True)
    assert unsolvable.status == Status.UNSOLVABLE


def test_the_satisficing_portfolio_tries_boosted_eager_ff_then_eager_ff_within_the_budget(planners, monkeypatch):
    searches: list[tuple[str, int | None]] = []
    run = planners._run

    def spy(tool, template, workdir, limits, watch=None):  # the boosted search decides nothing
        search = template[template.index("--search") + 1]
        searches.append((search, limits.work))
        if "boost" in search:
            template = (*template[: template.index("--search") + 1], "astar(blind(),bound=0)")
        return run(tool, template, workdir, limits, watch)

    monkeypatch.setattr(planners, "_run", spy)
    budget = Limits(20.0, 2048, 10**6)
    sol = planners.satisficing(FERRY, FERRY_P01, budget)
    assert sol.status == Status.SOLVED and ferry_valid(sol.plans[0])
    assert searches == [
        ("eager_greedy([ff()],preferred=[ff()],boost=1000)", 10**6),
        ("eager_greedy([ff()],preferred=[ff()])", 10**6),
    ]
    monkeypatch.setattr(planners, "_run", run)  # a proof that no plan exists ends it at once
    assert planners.satisficing(pddl("tokens-domain"), pddl("tokens-unsolvable"), budget).status == Status.UNSOLVABLE


def test_the_solve_portfolio_probes_a_sas_query_first_without_translating(planners, monkeypatch):
    """Given the query in SAS form (written from acp's own grounding), the first probe searches it alone;
    its plan is the answer. When that probe decides nothing, the PDDL probes follow as without it."""
    from acpgen.pddl.grounding import GroundTask
    from acpgen.pddl.sas import sas_query
    from acpgen.pddl.semantics import relaxed_reachable

    task = GroundTask.from_strings(FERRY, FERRY_P01)
    sas = sas_query(task, task.init, task.goal_pos, task.goal_neg, relaxed_reachable(task, task.init)[0])
    assert sas is not None
    runs: list[tuple[str, bool]] = []
    run = planners._run

    def spy(tool, template, workdir, limits, watch=None):
        search = template[template.index("--search") + 1]
        runs.append((search, "{sas}" in template))
        return run(tool, template, workdir, limits, watch)

    monkeypatch.setattr(planners, "_run", spy)
    sol = planners.solve(FERRY, FERRY_P01, LIMITS, portfolio=True, sas=sas)
    assert sol.status == Status.SOLVED and ferry_valid(sol.plans[0])
    probe = min(0.25, LIMITS.time / 8)
    assert runs == [(f"eager_greedy([ff()],preferred=[ff()],boost=1000,max_time={probe:g})", True)]

    def refusing(tool, template, workdir, limits, watch=None):  # the SAS probe ends without a plan or a proof
        if "{sas}" in template:
            template = (*template[: template.index("--search") + 1], "astar(blind(),bound=0)")
        return spy(tool, template, workdir, limits, watch)

    runs.clear()
    monkeypatch.setattr(planners, "_run", refusing)
    planners.cache = type(planners.cache)(env=False)  # nothing remembered from the first call
    sol = planners.solve(FERRY, FERRY_P01, LIMITS, portfolio=True, sas=sas)
    assert sol.status == Status.SOLVED and ferry_valid(sol.plans[0])
    assert [on_sas for _, on_sas in runs] == [True, False]


def pddl_pair(name: str) -> tuple[str, str]:
    return pddl(f"{name}-domain"), pddl(f"{name}-p01")


def test_grounded_encoding_with_negative_and_disjunctive_preconditions(planners):
    # f3 comes only from a3 (needs f1 and not f2; deletes f1), and nothing deletes f2, so a3
    # must precede a2. a1 (needs not f2) gives f1 for a3; after a3, a2 needs f1 again (a1) or
    # f4 (a4 after a3): a1 a3 a1 a2 and a1 a3 a4 a2, cost 4; no shorter sequence works.
    domain, problem = pddl("grounded-domain"), pddl("grounded-p01")
    opt = planners.optimal(domain, problem, LIMITS)
    assert opt.status == Status.SOLVED and opt.costs == (4,)
    assert opt.plans[0] in {("(a1)", "(a3)", "(a1)", "(a2)"), ("(a1)", "(a3)", "(a4)", "(a2)")}
    sol = planners.solve(domain, problem, LIMITS)
    assert sol.status == Status.SOLVED and grounded_valid(sol.plans[0])
    top = planners.top_quality(domain, problem, 1.0, limits=LIMITS)
    assert top.status == Status.SOLVED and set(top.plans) == {
        ("(a1)", "(a3)", "(a1)", "(a2)"),
        ("(a1)", "(a3)", "(a4)", "(a2)"),
    }


def test_axioms_fall_back_to_blind_search(planners):
    # The negated existential becomes axioms; LM-cut exits 34, blind A* then finds a1, a2 a
    # (a1 needs no p yet; a2 a then adds p a): cost 2.
    domain, problem = pddl("axioms-domain"), pddl("axioms-p01")
    opt = planners.optimal(domain, problem, LIMITS)
    assert opt.status == Status.SOLVED and opt.plans == (("(a1)", "(a2 a)"),) and opt.costs == (2,)
    top = planners.top_k(domain, problem, 3, LIMITS)
    assert top.status == Status.SOLVED and top.costs[0] == 2 and len(set(top.plans)) == 3
    unordered = planners.top_quality(domain, problem, 1.5, unordered=True, limits=LIMITS)
    assert unordered.status == Status.SOLVED and unordered.plans


@pytest.mark.parametrize(
    "domain,problem",
    [
        ("ferry-domain", "ferry-unsolvable-search"),  # goal mutex found by the translator
        ("ferry-domain", "ferry-unsolvable-relaxed"),  # not even delete-relaxed reachable
        ("tokens-domain", "tokens-unsolvable"),  # only an exhaustive search proves it
    ],
)
def test_unsolvable_is_proven(planners, domain, problem):
    d, p = pddl(domain), pddl(problem)
    for result in (planners.solve(d, p, LIMITS), planners.optimal(d, p, LIMITS), planners.top_k(d, p, 3, LIMITS)):
        assert result.status == Status.UNSOLVABLE, result
        assert result.plans == ()


# ----- K* -------------------------------------------------------------------------------------
def test_top_k_returns_k_distinct_valid_plans(planners):
    result = planners.top_k(FERRY, FERRY_P01, 5, LIMITS)
    assert result.status == Status.SOLVED
    assert len(result.plans) == 5 and len(set(result.plans)) == 5
    assert all(ferry_valid(p) for p in result.plans)
    assert result.costs == tuple(len(p) for p in result.plans) == tuple(sorted(result.costs))
    assert set(result.plans[:2]) == OPTIMAL_FERRY  # the two cost-7 plans come first


def test_top_quality_respects_the_bound(planners):
    exact = planners.top_quality(FERRY, FERRY_P01, 1.0, limits=LIMITS)
    assert exact.status == Status.SOLVED and set(exact.plans) == OPTIMAL_FERRY
    loose = planners.top_quality(FERRY, FERRY_P01, 1.3, limits=LIMITS)  # cost <= 9.1
    assert loose.status == Status.SOLVED
    assert max(loose.costs) == 9 and 8 in loose.costs and all(ferry_valid(p) for p in loose.plans)
    assert set(loose.plans) >= OPTIMAL_FERRY
    capped = planners.top_quality(FERRY, FERRY_P01, 1.3, k=3, limits=LIMITS)
    assert len(capped.plans) == 3


def test_unordered_top_quality_gives_one_plan_per_multiset(planners):
    # Both optimal plans use the same multiset of actions: one unordered plan of cost 7.
    exact = planners.top_quality(FERRY, FERRY_P01, 1.0, unordered=True, limits=LIMITS)
    assert exact.status == Status.SOLVED and len(exact.plans) == 1 and exact.plans[0] in OPTIMAL_FERRY
    loose = planners.top_quality(FERRY, FERRY_P01, 1.3, unordered=True, limits=LIMITS)
    multisets = [frozenset(Counter(p).items()) for p in loose.plans]
    assert len(multisets) == len(set(multisets)) > 1 and max(loose.costs) <= 9


def test_kstar_time_limit_is_a_timeout_with_the_plans_found_so_far(planners):
    result = planners.top_k(FERRY, pddl("ferry-big"), 100000, Limits(time=2.0, memory_mb=2048))
    assert result.status == Status.TIMEOUT and "time" in result.message
    assert list(result.costs) == sorted(result.costs)


def test_diverse_plans(planners):
    result = planners.diverse(FERRY, FERRY_P01, 3, LIMITS)
    assert result.status == Status.SOLVED and len(set(result.plans)) == 3
    assert all(ferry_valid(p) for p in result.plans)


# ----- landmarks ------------------------------------------------------------------------------
def test_landmarks_of_ferry(planners):
    result = planners.landmarks(FERRY, FERRY_P01, LIMITS)
    assert result.status == Status.SOLVED
    by_atom = {lm.atoms: lm for lm in result.landmarks}
    # (at c0 l1) is only added by debark c0 l1, which needs (on c0), and c0 starts at l0: every
    # plan passes through (on c0). Likewise the ferry must be at l1 to debark there.
    assert by_atom[("(on c0)",)] == Landmark(("(on c0)",))
    assert ("(at-ferry l1)",) in by_atom
    assert by_atom[("(at c0 l1)",)].goal and not by_atom[("(at c0 l1)",)].true_in_init
    assert by_atom[("(empty-ferry)",)].true_in_init
    again = planners.landmarks(FERRY, FERRY_P01, LIMITS)
    assert again.cached and again.landmarks == result.landmarks


def test_disjunctive_landmark_is_flagged(planners):
    # l3 is entered only from l1 or l2: the ferry must be at l1 or at l2 at some point.
    result = planners.landmarks(FERRY, pddl("ferry-disjunctive"), LIMITS)
    disjunctive = [lm for lm in result.landmarks if lm.disjunctive]
    assert [set(lm.atoms) for lm in disjunctive] == [{"(at-ferry l1)", "(at-ferry l2)"}]


def test_negated_landmarks_are_dropped(planners):
    result = planners.landmarks(pddl("grounded-domain"), pddl("grounded-p01"), LIMITS)
    assert result.status == Status.SOLVED and "dropped" in result.message
    atoms = {a for lm in result.landmarks for a in lm.atoms}
    assert atoms == {"(f1)", "(f2)", "(f3)"} and all("not" not in a for a in atoms)


def test_landmarks_of_a_translator_unsolvable_task(planners):
    result = planners.landmarks(FERRY, pddl("ferry-unsolvable-relaxed"), LIMITS)
    assert result.status == Status.UNSOLVABLE and result.landmarks == ()


def test_landmark_graph_parser():
    dump = textwrap.dedent("""\
        Dumping landmark graph:
        digraph G {
          lm0 [label="Atom at(c0, l1) & Atom empty-ferry()", style=filled];
          lm1 [label="Atom at(c1, l0)", style=bold, style=filled];
              lm1 -> lm0 [label="gn"];
          lm2 [label="NegatedAtom f2()", style=bold];
          lm3 [label="Atom new-axiom@0()"];
          lm4 [label="Atom at-ferry(l1) | Atom at-ferry(l2)"];
        }
        Landmark graph end.""")
    landmarks, dropped = landmark_graph(dump)
    assert dropped == 2
    assert landmarks == [
        Landmark(("(at c0 l1)", "(empty-ferry)"), conjunctive=True, goal=True),
        Landmark(("(at c1 l0)",), true_in_init=True, goal=True),
        Landmark(("(at-ferry l1)", "(at-ferry l2)"), disjunctive=True),
    ]
    assert landmark_graph("no dump here") is None
    assert canonical(" ( Board  C0 l0 ) ") == "(board c0 l0)" and canonical("a1 ") == "(a1)"


# ----- failures never raise ----------------------------------------------------------------
def test_malformed_pddl_is_an_error_not_an_exception(planners):
    broken = "(define (domain broken) (:predicates (p)) (:action a :parameters () :effect (p)"
    for result in (
        planners.solve(broken, FERRY_P01, LIMITS),
        planners.optimal(broken, FERRY_P01, LIMITS),
        planners.top_k(broken, FERRY_P01, 2, LIMITS),
        planners.landmarks(broken, FERRY_P01, LIMITS),
        planners.diverse(broken, FERRY_P01, 2, LIMITS),
    ):
        assert result.status == Status.ERROR, result
        assert result.message


def test_exit_code_table():
    def run(code, stdout=""):
        return ToolRun(("x",), code, stdout, "", 0.1, False)

    assert classify(run(12)).status == Status.ERROR  # Fast Downward: incomplete search
    assert classify(run(12), complete=True).status == Status.UNSOLVABLE  # K*: exhausted
    assert classify(run(12, "[t=2s] search::time limit"), complete=True).status == Status.TIMEOUT
    assert classify(run(11)).status == classify(run(10)).status == Status.UNSOLVABLE
    assert {classify(run(c)).status for c in (2, 21, 23, 24)} == {Status.TIMEOUT}
    assert {classify(run(c)).reason.startswith("out of memory") for c in (1, 20, 22)} == {True}
    assert {classify(run(c)).status for c in (1, 20, 22, 30, 33, 34, 37, 99)} == {Status.ERROR}
    assert classify(run(-signal.SIGXCPU)).status == Status.TIMEOUT
    assert classify(ToolRun(("x",), -9, "", "", 9.0, True)).status == Status.TIMEOUT


# ----- work budgets ---------------------------------------------------------------------------
def test_the_work_a_search_reports_is_its_expansions_times_the_task_s_operators():
    output = (
        "Translator operators: 240\n"
        "[t=0.0s, 10544 KB] g=0, 1 evaluated, 0 expanded\n"
        "[t=0.04s, 10680 KB] f = 34, 722 evaluated, 70 expanded\n"
        "[t=1.7s, 12320 KB] f = 36, 37795 evaluated, 4955 expanded, 13 reopened\n"
        "[t=8.0s, 19072 KB] Expanded 30217 state(s).\n"
        "[t=8.0s, 19072 KB] Expanded until last jump: 30205 state(s).\n"  # not a count of its own
    )

    def work(text: str) -> int:
        watch = Work(None)
        assert watch(text.encode()) is False  # without a budget a watch never asks to stop
        return watch.done

    assert work(output) == 30217 * 240
    assert work("[t=0.004s] step[1]::first_astar::Expanded=6 state(s).\n") == 6  # K*; operators unknown: 1
    assert work("Translator operators: 12\n") == 0
    # given in pieces that end inside a line, a count is read once its line is complete
    watch = Work(1000)
    assert watch(b"Translator operators: 10\n[t=0.1s] g=3, 24 evaluated, 9") is False and watch.done == 0
    assert watch(b"9 expanded\n[t=0.2s] g=4, 37 evalu") is False and watch.done == 990  # 99 x 10 <= 1,000
    assert watch(b"ated, 101 expanded\n") is True and watch.done == 1010
    # an expansion limit's line is written as the search is about to prune for the 41st state: 41 expansions
    assert work("Translator operators: 3\n[t=0.3s] Pruning ratio after 40 calls: 0.000000\n") == 41 * 3


def test_an_eager_search_is_given_an_expansion_limit_that_prunes_nothing():
    watch = Work(1000)
    watch(b"Translator operators: 30\n")
    limit = "limited_pruning(pruning=null(),min_required_pruning_ratio=1,expansions_before_checking_pruning_ratio=33)"
    assert watch.bounded("astar(lmcut())") == f"astar(lmcut(),pruning={limit})"  # 33 x 30 <= 1,000 < 34 x 30
    assert (
        watch.bounded("eager_greedy([ff()],preferred=[ff()])")
        == f"eager_greedy([ff()],preferred=[ff()],pruning={limit})"
    )
    # a lazy search prunes nothing per expansion, a search that prunes keeps its own, no budget needs no limit
    for search in ("lazy_greedy([ff()],preferred=[ff()])", "astar(blind(),pruning=stubborn_sets_ec())"):
        assert watch.bounded(search) == search
    assert Work(None).bounded("astar(blind())") == "astar(blind())"
    # Fast Downward reads its int options as 32-bit: a limit past 2**31 - 1 would end the search with an error
    huge = Work(2**31 * 30)
    huge(b"Translator operators: 30\n")
    assert huge.bounded("astar(blind())") == "astar(blind())"


def _warm_search(workdir: Path, problem: str, search: str, watch: Work) -> ToolRun:
    (workdir / "domain.pddl").write_text(FERRY)
    (workdir / "problem.pddl").write_text(problem)
    args = ["--overall-time-limit", "60s", "--overall-memory-limit", "2048M", "--plan-file", "sas_plan"]
    return warm.run([*args, "domain.pddl", "problem.pddl", "--search", search], workdir, 2048, watch=watch)


def test_a_search_is_stopped_at_the_expansion_its_budget_allows_and_answers_as_without_the_limit(tmp_path, monkeypatch):
    # A* with LM-cut on ferry-big, to its end without a budget: K expansions of a task of `ops` operators
    full = Work(None)
    assert _warm_search(tmp_path, pddl("ferry-big"), "astar(lmcut())", full).returncode == 0
    expansions, ops = full.expansions, full.operators
    assert expansions > 100 and ops == 150
    # under a budget that allows n expansions the search writes the limit's line at the (n + 1)-th (it has not
    # reported more before) and is stopped (it goes on for the moment its output takes to be read)
    for allowed in (0, 7, expansions // 2):
        watch = Work(allowed * ops + ops - 1)
        run = _warm_search(tmp_path, pddl("ferry-big"), "astar(lmcut())", watch)
        before, line, _ = run.stdout.partition(f"Pruning ratio after {allowed} calls")
        assert line and run.stopped and watch.expansions > allowed
        assert max(int(n) for n in re.findall(r"(\d+) expanded", before)) <= allowed + 1
    # at the budget's edge the answers are those of the driver, which gives the search no limit and judges it by
    # its reports: solved with the whole budget the search needs, over budget with one unit less
    statuses = []
    for budget in (expansions * ops, expansions * ops - 1, (expansions - 1) * ops):
        answers = []
        for driver in ("0", "1"):
            monkeypatch.setenv("ACP_FD_DRIVER", driver)
            planners = Planners(LocalBackend(), PlanCache(None, env=False))
            answers.append(planners.optimal(FERRY, pddl("ferry-big"), Limits(60.0, 2048, budget)))
        assert (answers[0].status, answers[0].plans) == (answers[1].status, answers[1].plans)
        statuses.append(answers[0].status)
    assert statuses == [Status.SOLVED, Status.BUDGET, Status.BUDGET]


WATCHED = textwrap.dedent("""\
    import sys, time
    for count in (5, 50, 500, 5000):
        print(f"g=1, 1 evaluated, {count} expanded", flush=True)
        time.sleep(0.3)
    time.sleep(30)
    """)


def test_a_watched_run_is_stopped_when_its_output_passes_the_budget(tmp_path):
    script = tmp_path / "search.py"
    script.write_text(WATCHED)
    watch = Work(60)
    run = run_tool([sys.executable, str(script)], time_limit=20, memory_mb=1024, cwd=tmp_path, watch=watch)
    # stopped at the third line (500 > 60), about 0.6 s in, not by the clock
    assert run.stopped and not run.timed_out and watch.done == 500 and run.wall_time < 5
    assert "500 expanded" in run.stdout and "5000" not in run.stdout
    # a budget the output never passes: the run goes on until the time limit's watchdog ends it
    watch = Work(10**6)
    run = run_tool([sys.executable, str(script)], time_limit=1, memory_mb=1024, cwd=tmp_path, watch=watch, wall_limit=2)
    assert run.timed_out and not run.stopped and watch.done == 5000


def test_a_budgeted_search_is_decided_by_its_work_whatever_the_time_limit(planners):
    # ferry-big, by hand: each of the 10 cars must move (board, sail with it aboard, debark: 30 steps), and the
    # trips, as edges from a car's place to its goal, have an Euler path only from l5 (two trips out, one in)
    # to l3, not from l0 where the ferry starts: one empty sail more, 31 steps at least. A* expands a state of
    # its plan at each of them, at 150 operators each (the translator's count): over a work budget of 1,500
    # under a time limit of 5 s or 40 s alike; within 10^8 it finds a plan of 31 steps, which the simulator
    # above executes to the goal
    for seconds in (5.0, 40.0):
        over = Planners(LocalBackend(), PlanCache(None, env=False)).optimal(
            FERRY, pddl("ferry-big"), Limits(seconds, 2048, 1500)
        )
        assert over.status == Status.BUDGET and not over.plans and "work budget of 1,500" in over.message
    found = planners.optimal(FERRY, pddl("ferry-big"), Limits(40.0, 2048, 10**8))
    assert found.status == Status.SOLVED and found.costs == (31,)
    start = {"c0": "l0", "c1": "l0", "c2": "l1", "c3": "l1", "c4": "l2"}
    start |= {"c5": "l3", "c6": "l4", "c7": "l5", "c8": "l5", "c9": "l2"}
    goal = (("c0", "l1"), ("c1", "l2"), ("c2", "l3"), ("c3", "l4"), ("c4", "l5"))
    goal += (("c5", "l0"), ("c6", "l0"), ("c7", "l1"), ("c8", "l2"), ("c9", "l3"))
    assert ferry_valid(found.plans[0], goal=goal, start=start)
    # status budget is the same on every machine: it is cached, under its budget only
    assert planners.optimal(FERRY, pddl("ferry-big"), Limits(40.0, 2048, 1500)).status == Status.BUDGET
    again = planners.optimal(FERRY, pddl("ferry-big"), Limits(40.0, 2048, 1500))
    assert again.cached and again.status == Status.BUDGET
    assert planners.solve(FERRY, pddl("ferry-big"), Limits(40.0, 2048, 10**8)).status == Status.SOLVED


def test_a_budgeted_call_that_meets_its_time_limit_first_raises(planners):
    # K* asked for 100,000 plans of ferry-big does not end within 2 s and never passes 10^12 of work: its
    # plans so far would depend on the machine's speed
    with pytest.raises(SafetyNetError, match="safety net of 2 s before its work budget of 1,000,000,000,000"):
        planners.top_k(FERRY, pddl("ferry-big"), 100000, Limits(2.0, 2048, 10**12))
    # the diverse planner ends its later iterations by the clock: under a budget, only its first plan
    with pytest.raises(ValueError, match="first plan only"):
        planners.diverse(FERRY, FERRY_P01, 3, Limits(20.0, 2048, 10**6))
    first = planners.diverse(FERRY, FERRY_P01, 1, Limits(20.0, 2048, 10**6))
    assert first.status == Status.SOLVED and ferry_valid(first.plans[0])
    # its search is watched too: the red-black heuristic extracts this plan without expanding a state (work 0)
    assert planners.diverse(FERRY, FERRY_P01, 1, Limits(20.0, 2048, 1)).plans == first.plans


# ----- cache ----------------------------------------------------------------------------------
def test_cache_hit_runs_no_subprocess(tmp_path, monkeypatch):
    cache_dir = tmp_path / "cache"
    first = Planners(LocalBackend(), PlanCache(cache_dir)).optimal(FERRY, FERRY_P01, LIMITS)
    assert first.status == Status.SOLVED and not first.cached

    def no_subprocess(*args, **kwargs):
        raise AssertionError("a planner ran on a cache hit")

    monkeypatch.setattr(Planners, "_run", no_subprocess)
    again = Planners(LocalBackend(), PlanCache(cache_dir)).optimal(FERRY, FERRY_P01, LIMITS)  # from disk
    assert again.cached and again.plans == first.plans and again.costs == first.costs
    assert not list(cache_dir.rglob(".*.tmp"))  # atomic writes leave no temporary files


def test_errors_are_not_cached(monkeypatch):
    planners = Planners(LocalBackend(), PlanCache(None, env=False))
    calls = []
    real = Planners._run

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(Planners, "_run", counting)
    for _ in range(2):
        assert planners.solve("(define (domain", FERRY_P01, LIMITS).status == Status.ERROR
    assert len(calls) == 2 and len(planners.cache) == 0


def test_cache_directory_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("ACP_CACHE_DIR", str(tmp_path / "env-cache"))
    assert PlanCache().directory == tmp_path / "env-cache"
    assert PlanCache(env=False).directory is None
    key = PlanCache.key("kstar", ["k=1"], "d", "p")
    assert key != PlanCache.key("kstar", ["k=2"], "d", "p") != PlanCache.key("kstar", ["k=1"], "d", "p2")
    PlanCache().put(key, {"status": "solved"})
    assert PlanCache().get(key) == {"status": "solved"}


# ----- limits, watchdog, temporary directories --------------------------------------------
SLEEPER = textwrap.dedent("""\
    import os, signal, subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c",
        "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"])
    open(sys.argv[1], "w").write(f"{child.pid} {os.getpgid(0)}")
    time.sleep(60)
    """)


def _alive(pid: int) -> bool:
    """Running (zombies, which only wait to be reaped by init, count as dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _group_members(pgid: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                members.append(int(entry.name))
    return members


def _dead(pids_file: Path, within: float = 5.0) -> bool:
    """The sleeper's child and every process of the tool's group have ended."""
    child, pgid = map(int, pids_file.read_text().split())
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not _alive(child) and not _group_members(pgid):
            return True
        time.sleep(0.05)
    return False


def test_watchdog_kills_the_whole_process_group(tmp_path):
    script, pid_file = tmp_path / "sleeper.py", tmp_path / "child.pid"
    script.write_text(SLEEPER)
    run = run_tool([sys.executable, str(script), str(pid_file)], time_limit=1, memory_mb=1024, cwd=tmp_path)
    assert run.timed_out and 6.0 < run.wall_time < 15.0
    assert classify(run).status == Status.TIMEOUT
    # the sleeper's child ignores SIGTERM: only the SIGKILL of the whole group ends it
    assert _dead(pid_file)


@pytest.mark.parametrize("setter", ["prlimit", "preexec_fn"])
def test_run_tool_limits_and_missing_tool(tmp_path, monkeypatch, setter):
    """The limits reach the tool whether prlimit sets them or a preexec_fn does; a missing tool is an error."""
    from acpgen.planners import run as run_module

    if setter == "preexec_fn":
        monkeypatch.setattr(run_module, "PRLIMIT", None)
    elif run_module.PRLIMIT is None:
        pytest.skip("prlimit (util-linux) is not installed")
    probe = "import resource; print(resource.getrlimit(resource.RLIMIT_CPU), resource.getrlimit(resource.RLIMIT_AS))"
    run = run_tool(
        [sys.executable, "-c", probe], time_limit=3, memory_mb=1024, cwd=tmp_path, stdout_path=tmp_path / "out.txt"
    )
    assert run.returncode == 0 and not run.timed_out
    assert run.stdout.strip() == f"(4, 6) ({1024 << 20}, {1024 << 20})"
    assert (tmp_path / "out.txt").read_text() == run.stdout
    with pytest.raises(ToolError):
        run_tool([str(tmp_path / "no-such-tool")], time_limit=1, memory_mb=None, cwd=tmp_path)
    with pytest.raises(ToolError):
        run_tool(["acp-no-such-tool"], time_limit=1, memory_mb=None, cwd=tmp_path)
    # a relative path is the tool's path from cwd, as the child resolves it
    (tmp_path / "bin").mkdir()
    tool = tmp_path / "bin" / "hello"
    tool.write_text("#!/bin/sh\necho hello\n")
    tool.chmod(0o755)
    relative = run_tool([os.path.join("bin", "hello")], time_limit=1, memory_mb=None, cwd=tmp_path)
    assert relative.returncode == 0 and relative.stdout.strip() == "hello"


class _SleepBackend(Backend):
    """Runs the sleeper instead of any planner."""

    name = "sleep"

    def __init__(self, script: Path, pid_file: Path):
        self.script, self.pid_file = script, pid_file

    def command(self, tool, args, workdir):
        return [sys.executable, str(self.script), str(self.pid_file)]


def test_temporary_directories_are_removed(tmp_path, monkeypatch):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    planners = Planners(LocalBackend(), PlanCache(None, env=False))
    planners.solve(FERRY, FERRY_P01, LIMITS)
    planners.top_quality(FERRY, FERRY_P01, 1.0, unordered=True, limits=LIMITS)
    planners.landmarks(FERRY, FERRY_P01, LIMITS)
    planners.diverse(FERRY, FERRY_P01, 2, LIMITS)
    planners.optimal("(define", FERRY_P01, LIMITS)
    assert list(scratch.iterdir()) == []
    # timeout: the planner directory goes too
    script = tmp_path / "sleeper.py"
    script.write_text(SLEEPER)
    slow = Planners(_SleepBackend(script, tmp_path / "child.pid"), PlanCache(None, env=False))
    result = slow.solve(FERRY, FERRY_P01, Limits(time=1.0))
    assert result.status == Status.TIMEOUT and result.message
    assert list(scratch.iterdir()) == []
    assert _dead(tmp_path / "child.pid")
    # an exception inside a call: the directory goes, the exception is the caller's
    broken = Planners(ApptainerBackend(tmp_path / "missing.sif", executable="no-such-apptainer"))
    with pytest.raises(ToolError):
        broken.top_k(FERRY, FERRY_P01, 2, LIMITS)
    assert list(scratch.iterdir()) == []


# ----- Apptainer backend ------------------------------------------------------------------
FAKE_APPTAINER = '''\
#!{python}
"""Stand-in for apptainer: log argv, then run the image's wrapper command with the local wheels."""
import os, sys
from pathlib import Path
with open({log!r}, "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
argv = sys.argv[1:]
assert argv[0] == "exec", argv
i, pwd = 1, None
while argv[i].startswith("--"):
    if argv[i] in ("--bind", "--pwd"):
        pwd = argv[i + 1] if argv[i] == "--pwd" else pwd
        i += 2
    else:
        i += 1
image, tool, args = argv[i], argv[i + 1], argv[i + 2:]
assert Path(image).is_file(), image
os.chdir(pwd)
from acpgen.planners.backends import LocalBackend
cmd = LocalBackend().command(tool, args, Path.cwd())
os.execv(cmd[0], cmd)
'''


def test_apptainer_backend_runs_the_image_wrappers(tmp_path, monkeypatch, planners):
    bin_dir, log = tmp_path / "bin", tmp_path / "apptainer.log"
    bin_dir.mkdir()
    fake = bin_dir / "apptainer"
    fake.write_text(FAKE_APPTAINER.format(python=sys.executable, log=str(log)))
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    image = tmp_path / "acp.sif"
    image.write_bytes(b"not really an image")

    boxed = Planners(make_backend("apptainer", image), PlanCache(None, env=False))
    local = planners.optimal(FERRY, FERRY_P01, LIMITS)
    result = boxed.optimal(FERRY, FERRY_P01, LIMITS)
    assert result.status == Status.SOLVED and result.plans == local.plans
    top = boxed.top_k(FERRY, FERRY_P01, 3, LIMITS)
    assert top.plans == planners.top_k(FERRY, FERRY_P01, 3, LIMITS).plans
    lines = log.read_text().splitlines()
    assert lines[0].startswith("exec ") and f" {image} fast-downward " in lines[0]
    assert f" {image} kstar " in lines[1]
    assert "--bind" in lines[0] and "--overall-memory-limit" in lines[0]


def test_make_backend_checks_its_arguments(tmp_path):
    assert isinstance(make_backend("local", None), LocalBackend)
    with pytest.raises(ConfigError, match="--image"):
        make_backend("apptainer", None)
    with pytest.raises(ConfigError, match="not found"):
        make_backend("apptainer", tmp_path / "nope.sif")
    with pytest.raises(ConfigError):
        make_backend("docker", None)


def test_a_cache_entry_that_cannot_be_written_is_kept_in_memory(tmp_path, caplog):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be\n")
    cache = PlanCache(blocker, env=False)
    key = PlanCache.key("kstar", ["k=1"], "d", "p")
    with caplog.at_level("WARNING"):
        cache.put(key, {"status": "solved"})  # must not raise: scoring goes on without the disk cache
    assert cache.get(key) == {"status": "solved"}
    assert str(blocker) in caplog.text and "kept in memory only" in caplog.text
    assert blocker.read_text() == "a file where the cache folder should be\n"
