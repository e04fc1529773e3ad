"""A two-car ferry problem small enough to answer every ACPBench question about it by hand (test helper).

Everything below is read off the ferry domain's PDDL by a person, never computed by acpgen; the task
tests (tests/tasks/test_<module>.py) check the tasks' generated answers and their scorers against it.

The first state: the ferry is empty at l0, car c0 waits at l0, car c1 at l1; the goal swaps the cars.
Location l2 is an island: no ``not-eq`` fact names it, and ``sail`` needs one, so the ferry never
reaches l2 and no car is ever boarded or debarked there.

    l0: ferry, c0        l1: c1        l2: (unreachable)

The optimal plan is unique and has 6 actions: each car needs a board, a sail with it aboard and a
debark, and the ferry carries one car at a time; the first sail must carry a car, and only c0 can be
boarded at l0, which fixes every step.
"""

from __future__ import annotations

from typing import Any

from acpgen.data import DOMAINS_DIR

DOMAIN = (DOMAINS_DIR / "ferry" / "domain.pddl").read_text()

OPTIMAL_PLAN = [
    "(board c0 l0)",
    "(sail l0 l1)",
    "(debark c0 l1)",
    "(board c1 l1)",
    "(sail l1 l0)",
    "(debark c1 l0)",
]

# The state after k steps of OPTIMAL_PLAN (its fluents; the static not-eq facts are added by `problem`).
STATES = [
    "(at c0 l0) (at c1 l1) (at-ferry l0) (empty-ferry)",
    "(on c0) (at c1 l1) (at-ferry l0)",
    "(on c0) (at c1 l1) (at-ferry l1)",
    "(at c0 l1) (at c1 l1) (at-ferry l1) (empty-ferry)",
    "(at c0 l1) (on c1) (at-ferry l1)",
    "(at c0 l1) (on c1) (at-ferry l0)",
]

# The applicable actions of each state: sail needs the ferry at the start and a not-eq fact (only l0-l1
# and l1-l0 have one); board needs the car and the ferry at the location and the ferry empty; debark
# needs the car aboard and is possible wherever the ferry is.
APPLICABLE = [
    ["(board c0 l0)", "(sail l0 l1)"],
    ["(debark c0 l0)", "(sail l0 l1)"],
    ["(debark c0 l1)", "(sail l1 l0)"],
    ["(board c0 l1)", "(board c1 l1)", "(sail l1 l0)"],
    ["(debark c1 l1)", "(sail l1 l0)"],
    ["(debark c1 l0)", "(sail l0 l1)"],
]


def problem(state: int = 0, island: bool = True) -> str:
    """The problem from ``STATES[state]``; ``island=False`` leaves l2 out (then every proposition is reachable)."""
    locations = "l0 l1 l2" if island else "l0 l1"
    return f"""(define (problem two-cars) (:domain ferry)
  (:objects c0 c1 - car {locations} - location)
  (:init {STATES[state]} (not-eq l0 l1) (not-eq l1 l0))
  (:goal (and (at c0 l1) (at c1 l0))))"""


PROBLEM = problem()


def record(answer: Any, pddl_problem: str = PROBLEM, **fields: Any) -> dict[str, Any]:
    """A record about a state of the problem. It carries no ``uid`` (acp did not prove its stored answer),
    so the scorer re-proves every answer rather than compare it with the stored one."""
    return {"id": "hand-ferry", "PDDL_domain": DOMAIN, "PDDL_problem": pddl_problem, "answer": answer, **fields}
