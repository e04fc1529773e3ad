"""swap: agents trade the roles (items) they hold, two at a time.

There is no public generator; this one follows the facts of the reference instances. Sizes:
``agents`` = n, the number of agents and of roles (2 <= n <= len(AGENT_NAMES)), and ``index``
(>= 0), a label that only appears in the problem name ``swap-{n}-{index}`` (the second number
of the reference names is not derivable from the instance; it looks like an instance index).

Agents get n distinct first names drawn from AGENT_NAMES (lower case); roles get n names from
one randomly chosen theme (books ``book01``.., vegetables, tools or toys). The initial
assignment and the goal assignment are independent uniform bijections agents -> roles, the goal
redrawn until it differs from the initial one (so on at least two agents). Goal atoms follow
the agents' name order. The domain file is the variant without ``not-eq`` (the reference's
applicability/progression/validation/justification/next-action variant), so no ``not-eq``
facts are emitted.

Always solvable, so no planner check: any permutation is a product of transpositions, each one
swap action.
"""

from __future__ import annotations

import random
from functools import partial

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Names, Objects, Pattern, fixed, of_type, passed

AGENT_NAMES = (
    "alice",
    "bob",
    "carol",
    "dave",
    "frank",
    "grace",
    "heidi",
    "ivan",
    "judy",
    "kevin",
    "liam",
    "michelle",
    "olivia",
    "peggy",
    "quentin",
    "rupert",
    "steve",
    "ted",
    "vic",
    "walter",
    "xena",
    "zoe",
)
THEMES = {
    "vegetables": (
        "artichoke",
        "broccoli",
        "cabbage",
        "daikon",
        "endive",
        "fennel",
        "garlic",
        "kale",
        "leek",
        "mushroom",
        "okra",
        "parsnip",
        "quince",
        "radish",
        "spinach",
        "turnip",
        "ulluco",
        "valerian",
        "wasabi",
        "yam",
        "zucchini",
        "celery",
    ),
    "tools": (
        "chisel",
        "clamp",
        "drill",
        "funnel",
        "grinder",
        "hammer",
        "knead",
        "level",
        "mallet",
        "nibbler",
        "pliers",
        "ratchet",
        "router",
        "sander",
        "saw",
        "trowel",
        "vise",
        "wrench",
        "xactoknife",
        "awl",
        "plane",
        "file",
    ),
    "toys": (
        "balloon",
        "drum",
        "frisbee",
        "guitar",
        "harmonica",
        "iceskates",
        "kite",
        "lego",
        "marbles",
        "necklace",
        "puzzle",
        "quadcopter",
        "robot",
        "scooter",
        "skateboard",
        "slinky",
        "teddy",
        "ukulele",
        "whale",
        "yoyo",
        "zebra",
        "domino",
    ),
}
MAX_AGENTS = min(len(AGENT_NAMES), *(len(pool) for pool in THEMES.values()))


def role_names(n: int, rng: random.Random) -> list[str]:
    theme = rng.choice(("books", *THEMES))
    if theme == "books":
        return [f"book{k:02d}" for k in range(1, n + 1)]
    return rng.sample(THEMES[theme], n)


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    n, index = size["agents"], size["index"]
    if not 2 <= n <= MAX_AGENTS:
        raise ValueError(
            f"swap needs 2 <= agents <= {MAX_AGENTS} (a goal different from the initial "
            f"assignment needs two agents; names run out after {MAX_AGENTS}), got {n}"
        )
    if index < 0:
        raise ValueError(f"swap needs index >= 0, got {index}")
    agents = sorted(rng.sample(AGENT_NAMES, n))
    roles = role_names(n, rng)
    start = rng.sample(roles, n)
    goal = rng.sample(roles, n)
    while goal == start:
        goal = rng.sample(roles, n)
    objects = {a: "agent" for a in agents} | {r: "role" for r in roles}
    init = tuple(f"(assigned {a} {r})" for a, r in zip(agents, start))
    return ProblemSpec(f"swap-{n}-{index}", objects, init, tuple(f"(assigned {a} {r})" for a, r in zip(agents, goal)))


# ----- abstract descriptions of initial states and goals (text to PDDL) --------------------------
def _ordered_facts(how: str, objects: Objects, given: frozenset[str], names: Names) -> frozenset[str] | None:
    """The agents, in alphabetical order, holding the roles in alphabetical order (``sorted``), in reverse
    order (``reversed``) or shifted by one (``shifted``: the first agent the second role, ..., the last agent
    the first role); None unless there are as many roles as agents (at least two)."""
    agents, roles = of_type(objects, "agent"), of_type(objects, "role")
    if len(agents) != len(roles) or len(agents) < 2:
        return None
    order = {"sorted": roles, "reversed": roles[::-1], "shifted": roles[1:] + roles[:1]}[how]
    return frozenset(f"(assigned {a} {r})" for a, r in zip(agents, order))


_ORDERS = {
    "sorted": "the agents, in alphabetical order, hold the roles in alphabetical order (the first agent the first "
    "role, and so on)",
    "reversed": "the agents, in alphabetical order, hold the roles in reverse alphabetical order (the first agent "
    "the last role, and so on)",
    "shifted": "the agents, in alphabetical order, hold the roles in alphabetical order shifted by one (the first "
    "agent the second role, and so on, the last agent the first role)",
}

PATTERNS = (
    *(
        Pattern(f"roles-{how}", "init", text, **fixed((), partial(_ordered_facts, how)))
        for how, text in _ORDERS.items()
    ),
    Pattern(
        "rotate",
        "goal",
        "each agent, in alphabetical order, holds the role the next agent holds now (the last agent the first one's)",
        **passed("rotate"),
    ),
    Pattern(
        "reverse",
        "goal",
        "the agents, in alphabetical order, hold the roles they hold now in reverse order",
        **passed("reverse"),
    ),
    Pattern(
        "pairs",
        "goal",
        "the agents, two by two in alphabetical order, swap the roles they hold now (an odd last one keeps its role)",
        **passed("pairs"),
    ),
)


GENERATOR = Generator(
    domain="swap",
    parameters=("agents", "index"),
    make=make,
    check_solvable=False,
    example_sizes=({"agents": 2, "index": 0}, {"agents": 4, "index": 12}, {"agents": 8, "index": 36}),
    patterns=PATTERNS,
)
