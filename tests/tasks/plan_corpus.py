"""A corpus of broken plans, one small problem per built-in domain, every verdict worked out by hand (test data).

For each domain of acpgen/data/domains a problem small enough to solve on paper, its optimal plan with the
argument that no shorter plan exists, and eight written plans: the optimal one and the seven variants the
plan task must tell apart (wrong order, missing step, wrong arity, unknown object, goal not reached, valid but
suboptimal, redundant steps after the goal). Every expected value below is read off the domain's PDDL by a
person, never computed by acpgen:

* ``prefix``: the steps that execute from the start; ``goal_fraction``: the share of the goal's literals true
  after them;
* ``failure``: the first failure in words. For a step whose precondition is false, the first false literal in
  the order the domain file lists the schema's precondition; for an unreadable step, acpgen's wording of
  ``acpgen.proofs.plans.resolve`` (arity before unknown objects);
* ``plan``/``optplan``: the scores of the two tasks (1 for any plan / only for a plan of the optimal cost).

tests/tasks/test_plan_corpus.py scores every plan through the plan and optplan tasks, the lifted interpreter
and unified-planning's validator, and checks each problem's optimal plan and cost against acp's oracle.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from acpgen.data import DOMAINS_DIR

#: the eight written plans of every problem
CASES = (
    "optimal",
    "wrong order",
    "missing step",
    "wrong arity",
    "unknown object",
    "goal not reached",
    "valid but suboptimal",
    "redundant steps",
)

F = Fraction
NE, GNR, UNR, EXTRA = "not_executable", "goal_not_reached", "unreadable_step", "extra_steps"
GOAL_MISSED = "the goal does not hold after the last step"


@dataclass(frozen=True)
class Expected:
    """One written plan (a step a line) and its verdict, by hand."""

    steps: tuple[str, ...]
    plan: float
    optplan: float
    valid: bool
    reaches_goal: bool
    optimal: bool
    prefix: int
    goal_fraction: Fraction
    failure_class: str | None
    failure: str | None

    @property
    def response(self) -> str:
        return "\n".join(self.steps)


@dataclass(frozen=True)
class HandProblem:
    domain: str  # the folder under acpgen/data/domains
    problem: str  # PDDL
    optimal_plan: tuple[str, ...]
    optimal_cost: int
    cases: dict[str, Expected]

    @property
    def domain_text(self) -> str:
        return (DOMAINS_DIR / self.domain / "domain.pddl").read_text()

    def record(self) -> dict[str, Any]:
        """A plan record (no ``uid``: the scorer re-proves everything rather than trust the stored cost)."""
        return {
            "id": f"hand-{self.domain}",
            "PDDL_domain": self.domain_text,
            "PDDL_problem": self.problem,
            "answer": list(self.optimal_plan),
            "optimal_cost": self.optimal_cost,
        }


# Every case below is a row: case(steps, plan, optplan, valid, reaches_goal, optimal, prefix, goal_fraction,
# failure_class, failure); steps are written in terms of the problem's optimal plan (slices, reorderings).
def case(
    steps: list[str] | tuple[str, ...],
    plan: float,
    optplan: float,
    valid: bool,
    reaches_goal: bool,
    optimal: bool,
    prefix: int,
    goal_fraction: Fraction | int,
    failure_class: str | None = None,
    failure: str | None = None,
) -> Expected:
    return Expected(
        tuple(steps), plan, optplan, valid, reaches_goal, optimal, prefix, F(goal_fraction), failure_class, failure
    )


def problem(domain: str, pddl: str, plan: list[str], cost: int, cases: dict[str, Expected]) -> HandProblem:
    assert set(cases) == set(CASES) - {"optimal"}, domain
    optimal = case(plan, 1, 1, True, True, True, len(plan), 1)
    return HandProblem(domain, pddl, tuple(plan), cost, {"optimal": optimal, **cases})


# ----- blocksworld ----------------------------------------------------------------------------------------
# a sits on b; b and c on the table. Goal: the tower a-c-b (c on b, a on c).
# Lower bound 6: every action moves one block. c needs a grab and (stack c b): 2. a must leave b before c is
# stacked there (unstack a b), must be let go before c can be grabbed (one hand), and (on a c) needs a later
# grab and (stack a c), since c cannot be grabbed with a on it: 4.
BW = ["(unstack a b)", "(put-down a)", "(pick-up c)", "(stack c b)", "(pick-up a)", "(stack a c)"]
BLOCKSWORLD = problem(
    "blocksworld",
    """(define (problem tower-acb) (:domain blocksworld-4ops)
  (:objects a b c)
  (:init (on a b) (ontable b) (ontable c) (clear a) (clear c) (handempty))
  (:goal (and (on c b) (on a c))))""",
    BW,
    6,
    {
        # pick-up lists (clear c), (ontable c), (handempty): the hand still holds a
        "wrong order": case([BW[0], BW[2], BW[1], *BW[3:]], 0, 0, False, False, False, 1, 0, NE,
                            "step 2 (pick-up c): precondition (handempty) is false"),
        # without (pick-up a): stack lists (clear c) (true: c was just stacked on b), (holding a)
        "missing step": case(BW[:4] + BW[5:], 0, 0, False, False, False, 4, F(1, 2), NE,
                             "step 5 (stack a c): precondition (holding a) is false"),
        "wrong arity": case([*BW[:2], "(pick-up c b)", *BW[3:]], 0, 0, False, False, False, 2, 0, UNR,
                            "step 3 (pick-up c b): pick-up takes 1 arguments, not 2"),
        "unknown object": case(["(unstack a d)", *BW[1:]], 0, 0, False, False, False, 0, 0, UNR,
                               "step 1 (unstack a d): unknown object d"),
        "goal not reached": case(BW[:4], 0, 0, True, False, False, 4, F(1, 2), GNR, GOAL_MISSED),
        # c put down and picked up again: 8 steps, the goal first holds after the last
        "valid but suboptimal": case([*BW[:3], "(put-down c)", "(pick-up c)", *BW[3:]], 1, 0, True, True, False, 8, 1),
        # a taken off c and put back: the goal holds after step 6 and again after step 8
        "redundant steps": case([*BW, "(unstack a c)", "(stack a c)"], 1, 0, True, True, False, 8, 1, EXTRA,
                                "the goal already held after step 6 of 8"),
    },
)  # fmt: skip

# ----- ferry ----------------------------------------------------------------------------------------------
# The ferry is empty at l0, car c0 waits at l1. Goal: c0 at l2 and the ferry back at l1.
# Lower bound 5: c0 needs (board c0 l1) with the ferry at l1 (a sail from l0 first), a sail to l2 with it
# aboard and (debark c0 l2); then the ferry is at l2 and one more sail takes it to l1: 3 sails, 2 car moves.
FE = ["(sail l0 l1)", "(board c0 l1)", "(sail l1 l2)", "(debark c0 l2)", "(sail l2 l1)"]
FERRY = problem(
    "ferry",
    """(define (problem one-car) (:domain ferry)
  (:objects c0 - car l0 l1 l2 - location)
  (:init (at-ferry l0) (empty-ferry) (at c0 l1)
         (not-eq l0 l1) (not-eq l1 l0) (not-eq l0 l2) (not-eq l2 l0) (not-eq l1 l2) (not-eq l2 l1))
  (:goal (and (at c0 l2) (at-ferry l1))))""",
    FE,
    5,
    {
        # board lists (at c0 l1) (true), (at-ferry l1): the ferry is still at l0
        "wrong order": case([FE[1], FE[0], *FE[2:]], 0, 0, False, False, False, 0, 0, NE,
                            "step 1 (board c0 l1): precondition (at-ferry l1) is false"),
        # without the sail to l2: debark lists (on c0) (true), (at-ferry l2); the ferry at l1 is half the goal
        "missing step": case(FE[:2] + FE[3:], 0, 0, False, False, False, 2, F(1, 2), NE,
                             "step 3 (debark c0 l2): precondition (at-ferry l2) is false"),
        "wrong arity": case([*FE[:3], "(debark c0)", FE[4]], 0, 0, False, False, False, 3, 0, UNR,
                            "step 4 (debark c0): debark takes 2 arguments, not 1"),
        "unknown object": case([*FE[:2], "(sail l1 l3)", *FE[3:]], 0, 0, False, False, False, 2, F(1, 2), UNR,
                               "step 3 (sail l1 l3): unknown object l3"),
        # c0 at l2, the ferry at l2 too
        "goal not reached": case(FE[:4], 0, 0, True, False, False, 4, F(1, 2), GNR, GOAL_MISSED),
        # the empty ferry goes to l1 by way of l2: 6 steps (the ferry at l1 after step 2 is half the goal only)
        "valid but suboptimal": case(["(sail l0 l2)", "(sail l2 l1)", *FE[1:]], 1, 0, True, True, False, 6, 1),
        # the ferry leaves l1 and comes back: the goal holds after step 5, not after 6, again after 7
        "redundant steps": case([*FE, "(sail l1 l0)", "(sail l0 l1)"], 1, 0, True, True, False, 7, 1, EXTRA,
                                "the goal already held after step 5 of 7"),
    },
)  # fmt: skip

# ----- grippers -------------------------------------------------------------------------------------------
# robot1 with free grippers left and right in rooma, with ball1 and ball2. Goal: both balls in roomb.
# Lower bound 5: each ball needs a pick and a drop (4) and the robot must go to roomb once (1).
GR = [
    "(pick robot1 ball1 rooma left)",
    "(pick robot1 ball2 rooma right)",
    "(move robot1 rooma roomb)",
    "(drop robot1 ball1 roomb left)",
    "(drop robot1 ball2 roomb right)",
]
GRIPPERS = problem(
    "grippers",
    """(define (problem two-balls) (:domain gripper-strips)
  (:objects robot1 - robot left right - gripper rooma roomb - room ball1 ball2 - ball)
  (:init (at-robby robot1 rooma) (free robot1 left) (free robot1 right) (at ball1 rooma) (at ball2 rooma))
  (:goal (and (at ball1 roomb) (at ball2 roomb))))""",
    GR,
    5,
    {
        # pick lists (at ball2 rooma) (true), (at-robby robot1 rooma): the robot has left
        "wrong order": case([GR[0], GR[2], GR[1], *GR[3:]], 0, 0, False, False, False, 2, 0, NE,
                            "step 3 (pick robot1 ball2 rooma right): precondition (at-robby robot1 rooma) is false"),
        # ball1 never picked: drop lists (carry robot1 ball1 left) first
        "missing step": case(GR[1:], 0, 0, False, False, False, 2, 0, NE,
                             "step 3 (drop robot1 ball1 roomb left): precondition (carry robot1 ball1 left) is false"),
        "wrong arity": case([*GR[:2], "(move robot1 roomb)", *GR[3:]], 0, 0, False, False, False, 2, 0, UNR,
                            "step 3 (move robot1 roomb): move takes 3 arguments, not 2"),
        "unknown object": case([*GR[:3], "(drop robot1 ball3 roomb left)", GR[4]], 0, 0, False, False, False, 3, 0,
                               UNR, "step 4 (drop robot1 ball3 roomb left): unknown object ball3"),
        # ball1 dropped in roomb, ball2 still carried
        "goal not reached": case(GR[:4], 0, 0, True, False, False, 4, F(1, 2), GNR, GOAL_MISSED),
        "valid but suboptimal": case(["(move robot1 rooma roomb)", "(move robot1 roomb rooma)", *GR], 1, 0, True, True,
                                     False, 7, 1),
        # the robot walks back empty-handed: the balls stay in roomb
        "redundant steps": case([*GR, "(move robot1 roomb rooma)"], 1, 0, True, True, False, 6, 1, EXTRA,
                                "the goal already held after step 5 of 6"),
    },
)  # fmt: skip

# ----- swap -----------------------------------------------------------------------------------------------
# Agent ai holds role ri (i = 1..4). Goal: the roles rotated, a1 r2, a2 r3, a3 r4, a4 r1.
# Lower bound 3: a swap exchanges the roles of two agents, so it changes the number of cycles of the
# permutation taking the current assignment to the goal by exactly one; it has 1 cycle (a 4-cycle) at the
# start and 4 at the goal. (For the same reason every plan has odd length.)
SW = ["(swap a1 a2 r1 r2)", "(swap a2 a3 r1 r3)", "(swap a3 a4 r1 r4)"]
SWAP = problem(
    "swap",
    """(define (problem rotate-four) (:domain swap)
  (:objects a1 a2 a3 a4 - agent r1 r2 r3 r4 - role)
  (:init (assigned a1 r1) (assigned a2 r2) (assigned a3 r3) (assigned a4 r4))
  (:goal (and (assigned a1 r2) (assigned a2 r3) (assigned a3 r4) (assigned a4 r1))))""",
    SW,
    3,
    {
        # swap lists (assigned a2 r1) first: a2 still holds r2
        "wrong order": case([SW[1], SW[0], SW[2]], 0, 0, False, False, False, 0, 0, NE,
                            "step 1 (swap a2 a3 r1 r3): precondition (assigned a2 r1) is false"),
        # after the first swap a2 holds r1, a3 still r3; a1 r2 is one goal literal of four
        "missing step": case([SW[0], SW[2]], 0, 0, False, False, False, 1, F(1, 4), NE,
                             "step 2 (swap a3 a4 r1 r4): precondition (assigned a3 r1) is false"),
        "wrong arity": case([SW[0], "(swap a2 a3 r1)", SW[2]], 0, 0, False, False, False, 1, F(1, 4), UNR,
                            "step 2 (swap a2 a3 r1): swap takes 4 arguments, not 3"),
        "unknown object": case([*SW[:2], "(swap a3 a5 r1 r4)"], 0, 0, False, False, False, 2, F(1, 2), UNR,
                               "step 3 (swap a3 a5 r1 r4): unknown object a5"),
        # a1 r2 and a2 r3 hold; a3 holds r1, a4 r4
        "goal not reached": case(SW[:2], 0, 0, True, False, False, 2, F(1, 2), GNR, GOAL_MISSED),
        # a1 and a2 swap and swap back: 5 steps
        "valid but suboptimal": case(["(swap a1 a2 r1 r2)", "(swap a1 a2 r2 r1)", *SW], 1, 0, True, True, False, 5, 1),
        # a1 and a2 swap r2 and r3 away and back: the goal holds after step 3 and again after step 5
        "redundant steps": case([*SW, "(swap a1 a2 r2 r3)", "(swap a1 a2 r3 r2)"], 1, 0, True, True, False, 5, 1,
                                EXTRA, "the goal already held after step 3 of 5"),
    },
)  # fmt: skip

# ----- visitall -------------------------------------------------------------------------------------------
# A 2x3 grid, rows p0x and p1x; the robot stands on p00 (visited). Goal: all six places visited.
# Lower bound 5: a move visits at most one new place and five are unvisited. The goal's six literals
# include (visited p00), true from the start.
VA = ["(move p00 p01)", "(move p01 p02)", "(move p02 p12)", "(move p12 p11)", "(move p11 p10)"]
VISITALL = problem(
    "visitall",
    """(define (problem grid-2x3) (:domain grid-visit-all)
  (:objects p00 p01 p02 p10 p11 p12 - place)
  (:init (at-robot p00) (visited p00)
         (connected p00 p01) (connected p01 p00) (connected p01 p02) (connected p02 p01)
         (connected p10 p11) (connected p11 p10) (connected p11 p12) (connected p12 p11)
         (connected p00 p10) (connected p10 p00) (connected p01 p11) (connected p11 p01)
         (connected p02 p12) (connected p12 p02))
  (:goal (and (visited p00) (visited p01) (visited p02) (visited p10) (visited p11) (visited p12))))""",
    VA,
    5,
    {
        # move lists (at-robot p01) first: the robot is on p00; only p00 is visited
        "wrong order": case([VA[1], VA[0], *VA[2:]], 0, 0, False, False, False, 0, F(1, 6), NE,
                            "step 1 (move p01 p02): precondition (at-robot p01) is false"),
        # the robot on p02 (p00 p01 p02 visited) cannot leave from p12
        "missing step": case(VA[:2] + VA[3:], 0, 0, False, False, False, 2, F(3, 6), NE,
                             "step 3 (move p12 p11): precondition (at-robot p12) is false"),
        "wrong arity": case([*VA[:3], "(move p12)", VA[4]], 0, 0, False, False, False, 3, F(4, 6), UNR,
                            "step 4 (move p12): move takes 2 arguments, not 1"),
        "unknown object": case([*VA[:4], "(move p11 p20)"], 0, 0, False, False, False, 4, F(5, 6), UNR,
                               "step 5 (move p11 p20): unknown object p20"),
        "goal not reached": case(VA[:4], 0, 0, True, False, False, 4, F(5, 6), GNR, GOAL_MISSED),
        # a step back to p00 first, then the other way round: p01 p00 p10 p11 p12 p02, 6 steps
        "valid but suboptimal": case(["(move p00 p01)", "(move p01 p00)", "(move p00 p10)", "(move p10 p11)",
                                      "(move p11 p12)", "(move p12 p02)"], 1, 0, True, True, False, 6, 1),
        # visited places stay visited
        "redundant steps": case([*VA, "(move p10 p00)"], 1, 0, True, True, False, 6, 1, EXTRA,
                                "the goal already held after step 5 of 6"),
    },
)  # fmt: skip

# ----- logistics ------------------------------------------------------------------------------------------
# City c1: location l1 and airport ap1; city c2: airport ap2. Package p1 and truck t1 at l1, airplane a1 at
# ap1. Goal: p1 at ap2 and t1 at ap1.
# Lower bound 6: p1 must change city, which only an airplane does, and an airplane only stands at airports
# (l1 is none): p1 is loaded into t1 at l1, t1 drives to ap1 (the only airport of c1), p1 is unloaded, loaded
# into a1, a1 flies to ap2 and p1 is unloaded there. t1 ends at ap1 on the way.
LO = [
    "(load-truck p1 t1 l1)",
    "(drive-truck t1 l1 ap1 c1)",
    "(unload-truck p1 t1 ap1)",
    "(load-airplane p1 a1 ap1)",
    "(fly-airplane a1 ap1 ap2)",
    "(unload-airplane p1 a1 ap2)",
]
LOGISTICS = problem(
    "logistics",
    """(define (problem two-cities) (:domain logistics-strips)
  (:objects p1 - package t1 - truck a1 - airplane l1 - location ap1 ap2 - airport c1 c2 - city)
  (:init (at p1 l1) (at t1 l1) (at a1 ap1) (in-city l1 c1) (in-city ap1 c1) (in-city ap2 c2))
  (:goal (and (at p1 ap2) (at t1 ap1))))""",
    LO,
    6,
    {
        # LOAD-AIRPLANE lists (at p1 ap1) first: p1 is still in the truck (which is at ap1: half the goal)
        "wrong order": case([*LO[:2], LO[3], LO[2], *LO[4:]], 0, 0, False, False, False, 2, F(1, 2), NE,
                            "step 3 (load-airplane p1 a1 ap1): precondition (at p1 ap1) is false"),
        # t1 never drives: UNLOAD-TRUCK lists (at t1 ap1) first
        "missing step": case(LO[:1] + LO[2:], 0, 0, False, False, False, 1, 0, NE,
                             "step 2 (unload-truck p1 t1 ap1): precondition (at t1 ap1) is false"),
        "wrong arity": case([LO[0], "(drive-truck t1 l1 ap1)", *LO[2:]], 0, 0, False, False, False, 1, 0, UNR,
                            "step 2 (drive-truck t1 l1 ap1): drive-truck takes 4 arguments, not 3"),
        "unknown object": case([*LO[:4], "(fly-airplane a1 ap1 ap3)", LO[5]], 0, 0, False, False, False, 4, F(1, 2),
                               UNR, "step 5 (fly-airplane a1 ap1 ap3): unknown object ap3"),
        # p1 is in the airplane at ap2
        "goal not reached": case(LO[:5], 0, 0, True, False, False, 5, F(1, 2), GNR, GOAL_MISSED),
        "valid but suboptimal": case(["(fly-airplane a1 ap1 ap2)", "(fly-airplane a1 ap2 ap1)", *LO], 1, 0, True,
                                     True, False, 8, 1),
        "redundant steps": case([*LO, "(fly-airplane a1 ap2 ap1)"], 1, 0, True, True, False, 7, 1, EXTRA,
                                "the goal already held after step 6 of 7"),
    },
)  # fmt: skip

# ----- depots ---------------------------------------------------------------------------------------------
# depot0: hoist0, pallet0 with crate0 on it, truck0; distributor0: hoist1, pallet1 (clear). Goal: crate0 on
# pallet1 and truck0 at distributor0.
# Lower bound 5: hoists stay where they are, so crate0 reaches distributor0 only inside truck0: lifted at
# depot0 (lift), loaded, carried (drive), unloaded by hoist1 and dropped on pallet1.
DE = [
    "(lift hoist0 crate0 pallet0 depot0)",
    "(load hoist0 crate0 truck0 depot0)",
    "(drive truck0 depot0 distributor0)",
    "(unload hoist1 crate0 truck0 distributor0)",
    "(drop hoist1 crate0 pallet1 distributor0)",
]
DEPOTS = problem(
    "depots",
    """(define (problem one-crate) (:domain depots)
  (:objects depot0 - Depot distributor0 - Distributor truck0 - Truck hoist0 hoist1 - Hoist
            pallet0 pallet1 - Pallet crate0 - Crate)
  (:init (at pallet0 depot0) (at pallet1 distributor0) (clear pallet1) (at crate0 depot0) (on crate0 pallet0)
         (clear crate0) (at truck0 depot0) (at hoist0 depot0) (available hoist0) (at hoist1 distributor0)
         (available hoist1))
  (:goal (and (on crate0 pallet1) (at truck0 distributor0))))""",
    DE,
    5,
    {
        # load lists (at hoist0 depot0) (true), (at truck0 depot0): the truck left (half the goal)
        "wrong order": case([DE[0], DE[2], DE[1], *DE[3:]], 0, 0, False, False, False, 2, F(1, 2), NE,
                            "step 3 (load hoist0 crate0 truck0 depot0): precondition (at truck0 depot0) is false"),
        # nothing unloaded: drop lists (at hoist1 distributor0), (at pallet1 distributor0), (clear pallet1)
        # (all true), then (lifting hoist1 crate0)
        "missing step": case(DE[:3] + DE[4:], 0, 0, False, False, False, 3, F(1, 2), NE,
                             "step 4 (drop hoist1 crate0 pallet1 distributor0): precondition (lifting hoist1 crate0)"
                             " is false"),
        "wrong arity": case(["(lift hoist0 crate0 pallet0)", *DE[1:]], 0, 0, False, False, False, 0, 0, UNR,
                            "step 1 (lift hoist0 crate0 pallet0): lift takes 4 arguments, not 3"),
        "unknown object": case([*DE[:3], "(unload hoist2 crate0 truck0 distributor0)", DE[4]], 0, 0, False, False,
                               False, 3, F(1, 2), UNR,
                               "step 4 (unload hoist2 crate0 truck0 distributor0): unknown object hoist2"),
        # hoist1 holds crate0
        "goal not reached": case(DE[:4], 0, 0, True, False, False, 4, F(1, 2), GNR, GOAL_MISSED),
        # the truck drives there and back first: at distributor0 after step 1 (half the goal only)
        "valid but suboptimal": case(["(drive truck0 depot0 distributor0)", "(drive truck0 distributor0 depot0)",
                                      *DE], 1, 0, True, True, False, 7, 1),
        # hoist1 lifts crate0 off pallet1 and drops it back
        "redundant steps": case([*DE, "(lift hoist1 crate0 pallet1 distributor0)",
                                 "(drop hoist1 crate0 pallet1 distributor0)"], 1, 0, True, True, False, 7, 1, EXTRA,
                                "the goal already held after step 5 of 7"),
    },
)  # fmt: skip

# ----- floortile ------------------------------------------------------------------------------------------
# Two rows of two tiles: t00 t01 below, t10 t11 above ((up t10 t00): t10 is above t00). Robot r1 stands on
# t00 holding white; white and black are available. Goal: t10 white, t11 black.
# Lower bound 4: two paint actions; t11 can only be painted from t01 (below it; no tile is above it), so the
# robot moves at least once; it holds white and needs black: a change of colour.
FT = ["(paint-up r1 t10 t00 white)", "(right r1 t00 t01)", "(change-color r1 white black)",
      "(paint-up r1 t11 t01 black)"]  # fmt: skip
FLOORTILE = problem(
    "floortile",
    """(define (problem two-by-two) (:domain floor-tile)
  (:objects r1 - robot t00 t01 t10 t11 - tile white black - color)
  (:init (robot-at r1 t00) (robot-has r1 white) (available-color white) (available-color black)
         (clear t01) (clear t10) (clear t11)
         (up t10 t00) (up t11 t01) (down t00 t10) (down t01 t11)
         (right t01 t00) (right t11 t10) (left t00 t01) (left t10 t11))
  (:goal (and (painted t10 white) (painted t11 black))))""",
    FT,
    4,
    {
        # paint-up lists (robot-has r1 white) (true), (robot-at r1 t00): the robot moved right
        "wrong order": case([FT[1], FT[0], *FT[2:]], 0, 0, False, False, False, 1, 0, NE,
                            "step 2 (paint-up r1 t10 t00 white): precondition (robot-at r1 t00) is false"),
        # no change of colour: (robot-has r1 black) is the first literal
        "missing step": case(FT[:2] + FT[3:], 0, 0, False, False, False, 2, F(1, 2), NE,
                             "step 3 (paint-up r1 t11 t01 black): precondition (robot-has r1 black) is false"),
        "wrong arity": case([*FT[:2], "(change-color r1 black)", FT[3]], 0, 0, False, False, False, 2, F(1, 2), UNR,
                            "step 3 (change-color r1 black): change-color takes 3 arguments, not 2"),
        "unknown object": case([*FT[:3], "(paint-up r1 t21 t01 black)"], 0, 0, False, False, False, 3, F(1, 2), UNR,
                               "step 4 (paint-up r1 t21 t01 black): unknown object t21"),
        "goal not reached": case(FT[:3], 0, 0, True, False, False, 3, F(1, 2), GNR, GOAL_MISSED),
        "valid but suboptimal": case(["(change-color r1 white black)", "(change-color r1 black white)", *FT], 1, 0,
                                     True, True, False, 6, 1),
        # back to t00 (clear since the robot left it): painting stays
        "redundant steps": case([*FT, "(left r1 t01 t00)"], 1, 0, True, True, False, 5, 1, EXTRA,
                                "the goal already held after step 4 of 5"),
    },
)  # fmt: skip

# ----- goldminer ------------------------------------------------------------------------------------------
# l1 - l0 - l2 in a row: the robot with an empty arm at l0 (bombs there), soft rock with gold at l1, l2
# clear. Goal: holding the gold.
# Lower bound 4: pick-gold at l1 needs the robot there, so l1 cleared; there is no laser, so a bomb is
# picked up and detonated from l0; then the move and the pick.
GM = ["(pickup-bomb l0)", "(detonate-bomb l0 l1)", "(move l0 l1)", "(pick-gold l1)"]
GOLDMINER = problem(
    "goldminer",
    """(define (problem one-rock) (:domain gold-miner-typed)
  (:objects l0 l1 l2 - loc)
  (:init (robot-at l0) (arm-empty) (bomb-at l0) (soft-rock-at l1) (gold-at l1) (clear l0) (clear l2)
         (connected l0 l1) (connected l1 l0) (connected l0 l2) (connected l2 l0))
  (:goal (holds-gold)))""",
    GM,
    4,
    {
        # move lists (robot-at l0), (connected l0 l1) (true), (clear l1): the rock is still there
        "wrong order": case([GM[0], GM[2], GM[1], GM[3]], 0, 0, False, False, False, 1, 0, NE,
                            "step 2 (move l0 l1): precondition (clear l1) is false"),
        # no bomb picked up: detonate-bomb lists (robot-at l0) (true), (holds-bomb)
        "missing step": case(GM[1:], 0, 0, False, False, False, 0, 0, NE,
                             "step 1 (detonate-bomb l0 l1): precondition (holds-bomb) is false"),
        "wrong arity": case([*GM[:3], "(pick-gold l1 l0)"], 0, 0, False, False, False, 3, 0, UNR,
                            "step 4 (pick-gold l1 l0): pick-gold takes 1 arguments, not 2"),
        "unknown object": case([*GM[:2], "(move l0 l3)", GM[3]], 0, 0, False, False, False, 2, 0, UNR,
                               "step 3 (move l0 l3): unknown object l3"),
        "goal not reached": case(GM[:3], 0, 0, True, False, False, 3, 0, GNR, GOAL_MISSED),
        "valid but suboptimal": case(["(move l0 l2)", "(move l2 l0)", *GM], 1, 0, True, True, False, 6, 1),
        # walking back with the gold (l0 is clear)
        "redundant steps": case([*GM, "(move l1 l0)"], 1, 0, True, True, False, 5, 1, EXTRA,
                                "the goal already held after step 4 of 5"),
    },
)  # fmt: skip

# ----- grid -----------------------------------------------------------------------------------------------
# p0 - p1 - p2 in a row; p2 is locked (shape s0); key k0 (shape s0) and the robot (arm empty) at p0.
# Goal: the robot at p2 and k0 at p1.
# Lower bound 5: entering p2 needs it open, so unlocked from p1 with k0 held: pick k0 up (there is no other
# key to swap it for), move to p1, unlock, move to p2; k0 is put down at p1 after the unlock: one putdown.
GD = ["(pickup p0 k0)", "(move p0 p1)", "(unlock p1 p2 k0 s0)", "(putdown p1 k0)", "(move p1 p2)"]
GRID = problem(
    "grid",
    """(define (problem one-lock) (:domain grid)
  (:objects p0 p1 p2 - place k0 - key s0 - shape)
  (:init (at-robot p0) (arm-empty) (at k0 p0) (key-shape k0 s0) (lock-shape p2 s0) (locked p2) (open p0) (open p1)
         (conn p0 p1) (conn p1 p0) (conn p1 p2) (conn p2 p1))
  (:goal (and (at-robot p2) (at k0 p1))))""",
    GD,
    5,
    {
        # k0 put down before the unlock: unlock lists (conn p1 p2), (key-shape k0 s0), (lock-shape p2 s0),
        # (at-robot p1), (locked p2) (all true), then (holding k0); k0 at p1 is half the goal
        "wrong order": case([*GD[:2], GD[3], GD[2], GD[4]], 0, 0, False, False, False, 3, F(1, 2), NE,
                            "step 4 (unlock p1 p2 k0 s0): precondition (holding k0) is false"),
        # the robot stays at p0: (at-robot p1) is the first false literal of unlock
        "missing step": case(GD[:1] + GD[2:], 0, 0, False, False, False, 1, 0, NE,
                             "step 2 (unlock p1 p2 k0 s0): precondition (at-robot p1) is false"),
        "wrong arity": case([*GD[:2], "(unlock p1 p2 k0)", *GD[3:]], 0, 0, False, False, False, 2, 0, UNR,
                            "step 3 (unlock p1 p2 k0): unlock takes 4 arguments, not 3"),
        "unknown object": case([*GD[:2], "(unlock p1 p2 k0 s1)", *GD[3:]], 0, 0, False, False, False, 2, 0, UNR,
                               "step 3 (unlock p1 p2 k0 s1): unknown object s1"),
        "goal not reached": case(GD[:4], 0, 0, True, False, False, 4, F(1, 2), GNR, GOAL_MISSED),
        "valid but suboptimal": case(["(pickup p0 k0)", "(putdown p0 k0)", *GD], 1, 0, True, True, False, 7, 1),
        # the robot steps back to p1 (the goal fails) and returns
        "redundant steps": case([*GD, "(move p2 p1)", "(move p1 p2)"], 1, 0, True, True, False, 7, 1, EXTRA,
                                "the goal already held after step 5 of 7"),
    },
)  # fmt: skip

# ----- satellite ------------------------------------------------------------------------------------------
# sat0 points at d1 with power available; its instrument ins0 supports m0 and calibrates on d0. Goal: images
# of d0 and d2 in m0.
# Lower bound 6: two take_image; the instrument must be switched on and then calibrated (it is not), which
# needs sat0 pointing at d0 (a turn from d1); the image of d2 needs another turn.
SA = [
    "(switch_on ins0 sat0)",
    "(turn_to sat0 d0 d1)",
    "(calibrate sat0 ins0 d0)",
    "(take_image sat0 d0 ins0 m0)",
    "(turn_to sat0 d2 d0)",
    "(take_image sat0 d2 ins0 m0)",
]
SATELLITE = problem(
    "satellite",
    """(define (problem two-images) (:domain satellite)
  (:objects sat0 - satellite ins0 - instrument m0 - mode d0 d1 d2 - direction)
  (:init (on_board ins0 sat0) (supports ins0 m0) (calibration_target ins0 d0) (pointing sat0 d1) (power_avail sat0))
  (:goal (and (have_image d0 m0) (have_image d2 m0))))""",
    SA,
    6,
    {
        # calibrate lists (on_board ins0 sat0), (calibration_target ins0 d0) (true), (pointing sat0 d0)
        "wrong order": case([SA[0], SA[2], SA[1], *SA[3:]], 0, 0, False, False, False, 1, 0, NE,
                            "step 2 (calibrate sat0 ins0 d0): precondition (pointing sat0 d0) is false"),
        # never switched on: (power_on ins0), the last literal of calibrate
        "missing step": case(SA[1:], 0, 0, False, False, False, 1, 0, NE,
                             "step 2 (calibrate sat0 ins0 d0): precondition (power_on ins0) is false"),
        "wrong arity": case([*SA[:4], "(turn_to sat0 d2)", SA[5]], 0, 0, False, False, False, 4, F(1, 2), UNR,
                            "step 5 (turn_to sat0 d2): turn_to takes 3 arguments, not 2"),
        "unknown object": case([*SA[:5], "(take_image sat0 d2 ins0 m1)"], 0, 0, False, False, False, 5, F(1, 2), UNR,
                               "step 6 (take_image sat0 d2 ins0 m1): unknown object m1"),
        "goal not reached": case(SA[:5], 0, 0, True, False, False, 5, F(1, 2), GNR, GOAL_MISSED),
        # a detour by d2 before d0: 7 steps
        "valid but suboptimal": case([SA[0], "(turn_to sat0 d2 d1)", "(turn_to sat0 d0 d2)", *SA[2:]], 1, 0, True,
                                     True, False, 7, 1),
        "redundant steps": case([*SA, "(switch_off ins0 sat0)"], 1, 0, True, True, False, 7, 1, EXTRA,
                                "the goal already held after step 6 of 7"),
    },
)  # fmt: skip

# ----- rovers ---------------------------------------------------------------------------------------------
# rover0 (soil and rock equipment, one empty store store0) at w0, which has a rock sample; w1 has a soil
# sample; the lander general is at w2, visible from w0 and w1; the rover travels between w0 and w1.
# Goal: the soil data of w1 and the rock data of w0 communicated.
# Lower bound 6: two samples and two communications; one store, full after the first sample, so a drop
# before the second; the soil sample needs the rover at w1: one navigate.
RO = [
    "(sample_rock rover0 store0 w0)",
    "(communicate_rock_data rover0 general w0 w0 w2)",
    "(drop rover0 store0)",
    "(navigate rover0 w0 w1)",
    "(sample_soil rover0 store0 w1)",
    "(communicate_soil_data rover0 general w1 w1 w2)",
]
ROVERS = problem(
    "rovers",
    """(define (problem two-samples) (:domain rover)
  (:objects rover0 - rover store0 - store w0 w1 w2 - waypoint general - lander)
  (:init (at rover0 w0) (available rover0) (store_of store0 rover0) (empty store0)
         (equipped_for_soil_analysis rover0) (equipped_for_rock_analysis rover0)
         (at_rock_sample w0) (at_soil_sample w1) (at_lander general w2) (channel_free general)
         (can_traverse rover0 w0 w1) (can_traverse rover0 w1 w0)
         (visible w0 w1) (visible w1 w0) (visible w0 w2) (visible w2 w0) (visible w1 w2) (visible w2 w1))
  (:goal (and (communicated_soil_data w1) (communicated_rock_data w0))))""",
    RO,
    6,
    {
        # sample_soil lists (at rover0 w1) first: the rover is still at w0 (the rock data is sent)
        "wrong order": case([*RO[:3], RO[4], RO[3], RO[5]], 0, 0, False, False, False, 3, F(1, 2), NE,
                            "step 4 (sample_soil rover0 store0 w1): precondition (at rover0 w1) is false"),
        # no drop: sample_soil lists (at rover0 w1), (at_soil_sample w1), (equipped_for_soil_analysis rover0),
        # (store_of store0 rover0) (all true), then (empty store0)
        "missing step": case(RO[:2] + RO[3:], 0, 0, False, False, False, 3, F(1, 2), NE,
                             "step 4 (sample_soil rover0 store0 w1): precondition (empty store0) is false"),
        "wrong arity": case([*RO[:5], "(communicate_soil_data rover0 general w1 w2)"], 0, 0, False, False, False, 5,
                            F(1, 2), UNR,
                            "step 6 (communicate_soil_data rover0 general w1 w2): communicate_soil_data takes 5"
                            " arguments, not 4"),
        "unknown object": case([*RO[:3], "(navigate rover1 w0 w1)", *RO[4:]], 0, 0, False, False, False, 3, F(1, 2),
                               UNR, "step 4 (navigate rover1 w0 w1): unknown object rover1"),
        "goal not reached": case(RO[:5], 0, 0, True, False, False, 5, F(1, 2), GNR, GOAL_MISSED),
        "valid but suboptimal": case(["(navigate rover0 w0 w1)", "(navigate rover0 w1 w0)", *RO], 1, 0, True, True,
                                     False, 8, 1),
        # the soil sample is emptied out of the store: the data was sent
        "redundant steps": case([*RO, "(drop rover0 store0)"], 1, 0, True, True, False, 7, 1, EXTRA,
                                "the goal already held after step 6 of 7"),
    },
)  # fmt: skip

# ----- alfworld -------------------------------------------------------------------------------------------
# agent1 at location1; apple1 (an apple) in countertop1 at location2; diningtable1 at location3; both
# receptacles not openable and able to contain apples. Goal: pick-and-place validated for apples in dining
# tables.
# Lower bound 5: only apple1 is an apple and only diningtable1 a dining table (static facts), so apple1 must
# be put in diningtable1: walk to location2, pick it up, walk to location3, put it down, validate.
# Every action needs (notvalidated), which the validation deletes: no step can follow the goal, and the
# "redundant steps" plan is not executable (a plan with steps after the goal cannot exist in this domain).
AL = [
    "(go_to_location agent1 location1 location2 countertop1)",
    "(pickup_object_from_not_openable_receptacle agent1 location2 apple1 countertop1)",
    "(go_to_location agent1 location2 location3 diningtable1)",
    "(put_object_on_not_openable_receptacle agent1 location3 apple1 diningtable1 appletype diningtabletype)",
    "(validate_pick_and_place_in_receptacle apple1 appletype diningtable1 diningtabletype)",
]
ALFWORLD = problem(
    "alfworld",
    """(define (problem apple-on-table) (:domain alfred)
  (:objects agent1 - agent location1 location2 location3 - location countertop1 diningtable1 - receptacle
            apple1 - object appletype - otype countertoptype diningtabletype - rtype)
  (:init (atlocation agent1 location1) (handempty agent1) (notvalidated)
         (receptacleatlocation countertop1 location2) (receptacleatlocation diningtable1 location3)
         (notopenable countertop1) (notopenable diningtable1)
         (receptacletype countertop1 countertoptype) (receptacletype diningtable1 diningtabletype)
         (inreceptacle apple1 countertop1) (objectatlocation apple1 location2) (pickupable apple1)
         (objecttype apple1 appletype) (cancontain countertoptype appletype) (cancontain diningtabletype appletype))
  (:goal (validatepickandplace appletype diningtabletype)))""",
    AL,
    5,
    {
        # the pickup lists (notvalidated), (pickupable apple1) (true), (atlocation agent1 location2)
        "wrong order": case([AL[1], AL[0], *AL[2:]], 0, 0, False, False, False, 0, 0, NE,
                            "step 1 (pickup_object_from_not_openable_receptacle agent1 location2 apple1 countertop1):"
                            " precondition (atlocation agent1 location2) is false"),
        # the put lists (notvalidated), (holds agent1 apple1) (true), (atlocation agent1 location3)
        "missing step": case(AL[:2] + AL[3:], 0, 0, False, False, False, 2, 0, NE,
                             "step 3 (put_object_on_not_openable_receptacle agent1 location3 apple1 diningtable1"
                             " appletype diningtabletype): precondition (atlocation agent1 location3) is false"),
        "wrong arity": case([*AL[:4], "(validate_pick_and_place_in_receptacle apple1 appletype diningtable1)"], 0, 0,
                            False, False, False, 4, 0, UNR,
                            "step 5 (validate_pick_and_place_in_receptacle apple1 appletype diningtable1):"
                            " validate_pick_and_place_in_receptacle takes 4 arguments, not 3"),
        "unknown object": case(["(go_to_location agent1 location1 location2 countertop2)", *AL[1:]], 0, 0, False,
                               False, False, 0, 0, UNR,
                               "step 1 (go_to_location agent1 location1 location2 countertop2): unknown object"
                               " countertop2"),
        "goal not reached": case(AL[:4], 0, 0, True, False, False, 4, 0, GNR, GOAL_MISSED),
        # by way of the dining table first: 6 steps
        "valid but suboptimal": case(["(go_to_location agent1 location1 location3 diningtable1)",
                                      "(go_to_location agent1 location3 location2 countertop1)", *AL[1:]], 1, 0, True,
                                     True, False, 6, 1),
        # walking back after the validation: (notvalidated), go_to_location's first literal, is false; the goal
        # holds after the five executable steps
        "redundant steps": case([*AL, "(go_to_location agent1 location3 location2 countertop1)"], 0, 0, False, False,
                                False, 5, 1, NE,
                                "step 6 (go_to_location agent1 location3 location2 countertop1): precondition"
                                " (notvalidated) is false"),
    },
)  # fmt: skip

PROBLEMS = {
    p.domain: p
    for p in (
        ALFWORLD,
        BLOCKSWORLD,
        DEPOTS,
        FERRY,
        FLOORTILE,
        GOLDMINER,
        GRID,
        GRIPPERS,
        LOGISTICS,
        ROVERS,
        SATELLITE,
        SWAP,
        VISITALL,
    )
}
