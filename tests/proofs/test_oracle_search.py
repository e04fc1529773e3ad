"""The oracle's in-process greedy search (acpgen.pddl.explore.greedy_search) against exhaustive exploration.

The search only ever proves positive answers: a state reachable, a plan that avoids an atom, a plan as
short as a proven lower bound. Every decision it makes is checked here against the explored state space
of small generated problems, and the answers it cannot give must still come out right from the planners.
"""

from __future__ import annotations

import itertools

import pytest
from conftest import explored_problems, generated_problem

from acpgen.pddl.explore import GreedySearch, Search, StateSpace, explore, greedy_search, random_walks
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import split_canonical
from acpgen.pddl.semantics import relaxed_reachable
from acpgen.planners import Limits, PlannerResult, Planners, Status
from acpgen.proofs.oracle import Decision, Method, Oracle

LIMIT = 3000
#: the searches are what these tests are about: no closed form answers in their place (ferry has one)
NO_FORMULA: tuple[str, ...] = ()
DOMAINS = ("blocksworld", "ferry", "grippers", "logistics", "visitall")
SMALL = {"logistics": {"cities": 2, "city_size": 2, "packages": 2, "airplanes": 1}}


class CountedPlanners(Planners):
    """The real planners, counting the calls that reach a planner process or its cache."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def __getattribute__(self, name):
        if name in ("solve", "optimal", "optimal_sas", "top_k", "landmarks"):
            object.__getattribute__(self, "asked").append(name)
        return super().__getattribute__(name)


@pytest.fixture(scope="module", params=DOMAINS)
def pair(request) -> tuple[str, GroundTask, StateSpace]:
    domain = request.param
    for task, space in explored_problems(domain, 5, LIMIT, [SMALL[domain]] if domain in SMALL else None):
        if space.complete and space.optimal_cost() not in (None, 0):
            return domain, task, space
    pytest.skip(f"{domain}: no configured size has at most {LIMIT} states and a plan")


def _is_path(task: GroundTask, path: list[int]) -> bool:
    return all(any(a.apply(s) == t for _, a in task.successors(s)) for s, t in itertools.pairwise(path))


def test_a_path_found_is_a_path_and_a_complete_search_finds_one_exactly_when_one_exists(pair):
    _, task, space = pair
    for atom in task.atoms.atoms(space.reachable_atoms & ~task.static_mask & ~task.init)[:25]:
        bit = task.atoms.mask([atom])
        search = greedy_search(task, task.goal_pos, task.goal_neg, LIMIT, avoid=bit)  # LIMIT >= states
        path = search.path
        assert (path is not None) == space.goal_reachable_avoiding(bit), atom
        assert search.complete or path is not None, atom
        if path is not None:
            assert path[0] == task.init and task.is_goal(path[-1]) and _is_path(task, path)
            assert not any(state & bit for state in path), atom
        reached = greedy_search(task, bit, 0, LIMIT).path
        assert reached is not None and reached[-1] & bit and _is_path(task, reached)


def test_no_path_enters_a_state_with_an_avoided_atom_not_even_the_start(pair):
    _, task, _ = pair
    held = task.init & ~task.static_mask & -(task.init & ~task.static_mask)  # one fluent atom of the start
    assert greedy_search(task, task.goal_pos, task.goal_neg, LIMIT, avoid=held).path is None


def test_the_oracle_proves_non_landmarks_by_search_and_the_rest_as_before(pair):
    domain, task, space = pair
    planners = CountedPlanners()
    oracle = Oracle(task, planners, max_states=1, formulas=NO_FORMULA)  # too small to explore: search, then planners
    for atom in task.atoms.atoms(space.reachable_atoms & ~task.static_mask & ~task.init)[:25]:
        bit = task.atoms.mask([atom])
        asked = len(planners.asked)
        decision = oracle.is_landmark(bit)
        assert decision.value == (not space.goal_reachable_avoiding(bit)), (domain, atom, decision)
        if decision.method == Method.SEARCH:
            assert len(planners.asked) == asked


@pytest.mark.parametrize("second_opinion,search_states", [(False, 1000), (False, 0), (True, 1000)])
def test_the_atoms_a_plan_passes_through_settle_every_other_atom_as_no_landmark(pair, second_opinion, search_states):
    # every non-trivial atom of the explored space, decided without exploring: each decision is the explored
    # answer; the atoms off the plan collected once (the greedy search's plan, else -- and for a second opinion
    # always -- the planner's plan that decides the goal reachable) are settled by it alone
    domain, task, space = pair
    planners = CountedPlanners()
    oracle = Oracle(
        task, planners, max_states=1, second_opinion=second_opinion, search_states=search_states, formulas=NO_FORMULA
    )
    by_search = search_states > 0 and not second_opinion
    for atom in task.atoms.atoms(space.reachable_atoms & ~task.static_mask & ~task.init & ~task.goal_pos):
        bit = task.atoms.mask([atom])
        decision = oracle.is_landmark(bit)
        assert decision.value == (not space.goal_reachable_avoiding(bit)), (domain, atom, decision)
        on_plan, found_by = oracle._plan_evidence
        if on_plan is not None and not on_plan & bit:
            assert decision.method == found_by, (domain, atom, decision)
    # a plan was found, by the search or the planner (in visitall it passes through every atom asked about)
    assert oracle._plan_evidence[0] is not None, domain
    assert oracle._plan_evidence[1] == (Method.SEARCH if by_search else Method.PLAN), domain
    assert planners.asked.count("top_k") <= 1


class TopKOutOfTime(CountedPlanners):
    """The real planners, but the top-k planner runs out of time, whatever its budget."""

    def __init__(self) -> None:
        super().__init__()
        self.top_k_budgets: list[float] = []

    def top_k(self, domain, problem, k, limits=Limits()):
        self.top_k_budgets.append(limits.time)
        return PlannerResult(Status.TIMEOUT, message="simulated timeout")


def test_the_top_k_plans_for_evidence_are_asked_once_and_the_landmarks_decided_without_them(pair):
    # a second opinion retries a planner call that runs out of time with 4x its budget; the top-k plans are only
    # evidence (the per-atom calls decide every atom they would have settled): asked once, within the budget
    domain, task, space = pair
    planners = TopKOutOfTime()
    oracle = Oracle(
        task, planners, max_states=1, second_opinion=True, search_states=0, limits=Limits(time=3.0), formulas=NO_FORMULA
    )
    for atom in task.atoms.atoms(space.reachable_atoms & ~task.static_mask & ~task.init & ~task.goal_pos):
        bit = task.atoms.mask([atom])
        decision = oracle.is_landmark(bit)
        assert decision.value == (not space.goal_reachable_avoiding(bit)), (domain, atom, decision)
    assert planners.top_k_budgets in ([], [3.0]), domain


def test_a_search_as_large_as_the_space_decides_every_landmark_without_a_planner(pair):
    # the search generates every state it can reach: a plan avoiding the atom, or a proof that none does
    domain, task, space = pair
    planners = CountedPlanners()
    oracle = Oracle(task, planners, max_states=1, search_states=LIMIT, formulas=NO_FORMULA)
    for atom in task.atoms.atoms(space.reachable_atoms & ~task.static_mask & ~task.init)[:25]:
        bit = task.atoms.mask([atom])
        landmark = not space.goal_reachable_avoiding(bit)
        decision = oracle.is_landmark(bit)
        assert decision.value == landmark, (domain, atom, decision)
        assert decision.method == Method.SEARCH or (landmark and decision.method == Method.RELAXED), (atom, decision)
    assert planners.asked == []


def test_a_search_that_stops_short_proves_nothing_and_a_complete_one_proves_absence(pair):
    domain, task, space = pair
    unreachable = [
        a for a in task.fluent_atoms() if not space.reachable_atoms >> task.atom_id(a) & 1 and task.is_valid_atom(a)
    ]
    for atom in unreachable[:10]:
        bit = 1 << task.atom_id(atom)
        assert greedy_search(task, bit, 0, LIMIT) == Search(None, True), (domain, atom)
        assert len(space.states) > 3 and not greedy_search(task, bit, 0, 2).complete, (domain, atom)
        planners = CountedPlanners()
        decision = Oracle(
            task, planners, max_states=1, walks=0, search_states=LIMIT, formulas=NO_FORMULA
        ).atom_reachable(bit)
        if relaxed_reachable(task, task.init)[0] & bit:
            assert decision == Decision(False, Method.SEARCH, "none among all the states reachable"), atom
        else:
            assert decision == Decision(False, Method.RELAXED), atom
        assert planners.asked == []


def test_reachable_atoms_and_actions_need_no_planner(pair):
    domain, task, space = pair
    planners = CountedPlanners()
    oracle = Oracle(task, planners, max_states=1, walks=0, search_states=LIMIT, formulas=NO_FORMULA)
    for atom in task.atoms.atoms(space.reachable_atoms & ~task.static_mask & ~task.init)[:25]:
        assert oracle.atom_reachable(task.atoms.mask([atom])).value is True, (domain, atom)
    for index in sorted(space.reachable_action_indices())[:25]:
        assert oracle.action_reachable(task.actions[index]).value is True, (domain, task.actions[index].name)
    assert planners.asked == []


def test_a_successors_cost_is_its_lower_bound_when_the_search_finds_a_plan_that_short(pair):
    # the successors of the first states of the space, each with the lower bound h*(s) - 1 of its
    # predecessor s (from the explored space): every cost must be the explored one, whichever route gave it
    domain, task, space = pair
    oracle = Oracle(task, CountedPlanners(), max_states=1, formulas=NO_FORMULA)
    routes = set()
    for state in space.states[:40]:
        bound = space.optimal_cost(state)
        if not bound:
            continue
        for _, action in task.successors(state):
            successor = action.apply(state)
            decision = oracle.optimal_cost(successor, at_least=bound - 1)
            assert decision.decided and decision.cost == space.optimal_cost(successor), (domain, decision)
            if decision.method == Method.SEARCH:
                assert decision.cost == bound - 1
            routes.add(decision.detail or decision.method.value)
    # all three routes were taken: the search, a plan found before, and the planner
    assert routes == {"a plan as long as the lower bound", "on an optimal plan found before", "planner"}, routes


def test_the_states_along_an_optimal_plan_found_get_their_costs_without_another_search(pair):
    domain, task, space = pair
    planners = CountedPlanners()
    plans = []
    original = planners.optimal_sas

    def recorded(sas, limits, check=False):
        result = original(sas, limits, check)
        plans.append(result.plans[0])
        return result

    planners.optimal_sas = recorded  # type: ignore[method-assign]
    oracle = Oracle(task, planners, max_states=1, search_states=0, formulas=NO_FORMULA)
    assert oracle.optimal_cost().cost == space.optimal_cost()
    [plan] = plans
    state = task.init
    for name in plan:
        step = task.action(name)
        assert step is not None
        state = step.apply(state)
        decision = oracle.optimal_cost(state)
        assert decision.detail == "on an optimal plan found before", (domain, name)
        assert decision.cost == space.optimal_cost(state), (domain, name)
    assert len(plans) == 1


def test_a_search_run_on_with_a_larger_bound_finds_what_one_run_with_that_bound_finds(pair):
    """``GreedySearch.run(n)`` then ``run(m)``: the same path (or none) and completeness as one search with
    bound m, for bounds that stop short of the plan, reach it, and exceed the space."""
    _, task, space = pair
    for atom in task.atoms.atoms(space.reachable_atoms & ~task.static_mask & ~task.init)[:10]:
        bit = task.atoms.mask([atom])
        for first, second in [(1, 5), (3, 40), (10, LIMIT), (LIMIT, LIMIT)]:
            search = GreedySearch(task, task.goal_pos, task.goal_neg, avoid=bit)
            search.run(first)
            resumed, once = search.run(second), greedy_search(task, task.goal_pos, task.goal_neg, second, avoid=bit)
            assert (resumed.path, resumed.complete) == (once.path, once.complete), (atom, first, second)


class _Silent(CountedPlanners):
    """Counts the calls and answers none (a timeout), so what h² does not settle stays undecided quickly."""

    def solve(self, *args, **kwargs):
        return PlannerResult(Status.TIMEOUT, message="not asked in this test")


def test_h2_settles_unreachable_atoms_and_actions_a_short_search_leaves_open_but_not_for_a_second_opinion(pair):
    """Atoms and actions the delete relaxation allows but the explored space never reaches: with a
    search too short to settle them, h² proves some unreachable without a planner (each checked against the
    complete exploration); a second opinion leaves them to the planner, a different procedure."""
    domain, task, space = pair
    relaxed = relaxed_reachable(task, task.init)[0]
    atoms = task.atoms.atoms(relaxed & ~space.reachable_atoms & ~task.static_mask)
    reached_actions = {task.actions[i].name for i in space.reachable_action_indices()}
    actions = [a for a in task.actions if a.name not in reached_actions]
    by_h2 = 0
    for check, items in (("atom", atoms[:25]), ("action", actions[:25])):
        for item in items:
            decisions = []
            for second_opinion in (False, True):
                oracle = Oracle(
                    task,
                    _Silent(),
                    max_states=1,
                    walks=0,
                    search_states=2,
                    second_opinion=second_opinion,
                    formulas=NO_FORMULA,
                )
                ask = oracle.atom_reachable if check == "atom" else oracle.action_reachable
                decisions.append((ask(task.atoms.mask([item]) if check == "atom" else item), oracle.planners.asked))
            (first, asked), (second, asked_second) = decisions
            assert first.value is not True and second.value is not True, (domain, item)
            assert second.method != Method.H2 and asked_second, (domain, item)
            if first.method == Method.H2:
                by_h2 += 1
                assert first.value is False and asked == [], (domain, item)
    if domain == "blocksworld":  # a block on itself: h² rules out every such atom and action the space never reaches
        assert by_h2 == len(atoms[:25]) + len(actions[:25]) > 0


class _Recording(Planners):
    """The real planners, recording whether each solvability query came with its SAS form."""

    def __init__(self) -> None:
        super().__init__()
        self.sas: list[bool] = []

    def solve(self, domain, problem, limits=None, portfolio=False, sas=None):
        self.sas.append(sas is not None)
        return super().solve(domain, problem, limits, portfolio, sas)


def test_reachability_by_planner_is_the_explored_spaces_with_or_without_the_sas_probe(pair):
    """Atoms no search settles (the oracle bounded at one state, no walks, no search): the planner decides
    each as the complete exploration does. A first opinion probes the query in SAS form (acp's own
    grounding) before translating; a second opinion never does (its proof stays the translator's)."""
    domain, task, space = pair
    fluent = task.atoms.atoms(relaxed_reachable(task, task.init)[0] & ~task.static_mask & ~task.init)[:6]
    by_planner = 0
    for atom in fluent:
        bit = task.atoms.mask([atom])
        for second_opinion in (False, True):
            planners = _Recording()
            oracle = Oracle(
                task,
                planners,
                max_states=1,
                walks=0,
                search_states=0,
                second_opinion=second_opinion,
                formulas=NO_FORMULA,
            )
            decision = oracle.atom_reachable(bit)
            assert decision.value is bool(space.reachable_atoms & bit), (domain, atom, second_opinion)
            if decision.method == Method.PLANNER:
                assert planners.sas == [not second_opinion], (domain, atom, planners.sas)
                by_planner += 1
    assert by_planner >= 2, by_planner


@pytest.mark.parametrize("walks,length", [(40, 50), (1, 1)], ids=["long walks", "one step"])
def test_atoms_and_actions_seen_beyond_a_bounded_exploration_are_those_of_its_states_and_the_walks(pair, walks, length):
    """Evidence past the bound: the atoms and actions of the bounded exploration's states and of the random walks.
    Long walks may see every atom and action the delete relaxation reaches (the exploration is then not made); a
    walk of one step does not."""
    _, task, space = pair
    bound = 12
    oracle = Oracle(task, max_states=bound, walks=walks, walk_length=length, formulas=NO_FORMULA)
    assert not oracle.explored.complete
    part = explore(task, task.init, bound)
    walk_atoms, walk_used = random_walks(task, task.init, walks, length)
    assert oracle.seen_atoms == part.reachable_atoms | walk_atoms
    assert oracle.seen_actions == {task.actions[i].name for i in part.reachable_action_indices() | walk_used}
    reachable = {task.actions[i].name for i in space.reachable_action_indices()}  # the complete exploration's
    assert oracle.seen_atoms & ~space.reachable_atoms == 0 and oracle.seen_actions <= reachable
    if walks == 1:  # the case where the exploration's evidence counts: it sees atoms the walk did not
        assert part.reachable_atoms & ~walk_atoms


@pytest.mark.parametrize("second_opinion", [False, True])
def test_atoms_witnessed_in_batches_are_the_explored_spaces_reachable_ones_with_fewer_planner_calls(
    pair, second_opinion
):
    """The relaxed-reachable atoms no cheap check settles (one state explored, no walks, no search): asked in
    batches of atoms h² allows together, the planner's plans witness some of them at once; every atom is then
    decided as the complete exploration decides it, with fewer planner calls than one per atom."""
    domain, task, space = pair
    relaxed = relaxed_reachable(task, task.init)[0] & ~task.static_mask & ~task.init
    bits = [task.atoms.mask([atom]) for atom in task.atoms.atoms(relaxed)]
    planners = CountedPlanners()
    oracle = Oracle(
        task, planners, max_states=1, walks=0, search_states=0, second_opinion=second_opinion, formulas=NO_FORMULA
    )
    oracle.witness_atoms(bits)
    batches = len(planners.asked)
    decisions = [oracle.atom_reachable(bit) for bit in bits]
    assert [d.value for d in decisions] == [bool(space.reachable_atoms & bit) for bit in bits], domain
    witnessed = sum(d.method == Method.SEARCH for d in decisions)
    assert witnessed >= 2 and len(planners.asked) < len(bits), (domain, witnessed, batches, len(planners.asked))


def _by_object(atoms: list[str]) -> dict[str, list[str]]:
    """The atoms that name each object."""
    found: dict[str, list[str]] = {}
    for atom in atoms:
        for obj in set(split_canonical(atom)[1]):
            found.setdefault(obj, []).append(atom)
    return found


@pytest.mark.parametrize(
    ("domain", "size"),
    [("ferry", {"locations": 3, "cars": 8}), ("blocksworld", {"blocks": 6})],
    ids=["ferry", "blocks"],
)
def test_a_witness_batch_holds_each_of_its_objects_at_one_place(domain, size, monkeypatch):
    """Batches may share an object only at one place of one predicate (cars at one location; never blocks on one
    another in a circle, which hold a block at both places of `on`), so they are larger than batches of atoms
    sharing nothing; every atom is still decided as the plans found witness it."""
    task = generated_problem(domain, 3, size)
    relaxed = relaxed_reachable(task, task.init)[0] & ~task.static_mask & ~task.init
    bits = [task.atoms.mask([atom]) for atom in task.atoms.atoms(relaxed)]
    asked: list[list[str]] = []
    planned = Oracle._planned

    def recorded(self, pos, neg, name, retry=True):
        if not retry:  # a batch
            asked.append(self.task.atoms.atoms(pos))
        return planned(self, pos, neg, name, retry)

    monkeypatch.setattr(Oracle, "_planned", recorded)
    narrow = Oracle(task, Planners(), max_states=1, walks=0, search_states=0, formulas=NO_FORMULA)
    narrow.witness_atoms(bits, narrow=True)  # the qa stage's batches: no object shared, at most 8 atoms
    assert asked and all(len(b) <= 8 and all(len(a) == 1 for a in _by_object(b).values()) for b in asked), asked
    asked.clear()
    oracle = Oracle(task, Planners(), max_states=1, walks=0, search_states=0, formulas=NO_FORMULA)
    oracle.witness_atoms(bits)
    assert asked
    shared_places = 0
    for batch in asked:
        places: dict[str, set[tuple[str, int]]] = {}
        for atom in batch:
            predicate, objects = split_canonical(atom)
            for i, obj in enumerate(objects):
                places.setdefault(obj, set()).add((predicate, i))
        assert all(len(p) == 1 for p in places.values()), batch
        shared_places += any(len(atoms) > 1 for atoms in _by_object(batch).values())
    if domain == "ferry":  # cars at one location: an object shared at one place
        assert shared_places > 0, asked
    full = explore(task, task.init, 200_000)
    assert full.complete
    witnessed = [bit for bit in bits if oracle._witnessed & bit]
    assert witnessed and all(full.reachable_atoms & bit for bit in witnessed)
