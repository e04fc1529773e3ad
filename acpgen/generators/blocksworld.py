"""blocksworld (4 operators): rearrange towers of blocks with a single hand.

Size: ``blocks`` (N >= 2). Objects ``block_1 .. block_N`` (untyped); name ``bw-rand-{N}``.
As in the public generator, the initial state and the goal state are two independent
uniformly random blocks-world states (Slaney & Thiebaux's counting method, computed with
exact integers): the init is the complete first state with ``handempty``; the goal keeps only
the ``on`` atoms of the second state, listed by the upper block's number.

The goal state is redrawn when it has no ``on`` atom (an empty goal) or when all its ``on``
atoms already hold at the start (an empty plan is useless for the questions); N >= 2 makes a
usable goal possible. Always solvable: any goal state is reachable from any state (unstack
everything to the table, then build the goal towers bottom-up).
"""

from __future__ import annotations

import random
from itertools import pairwise

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Names, Objects, Pattern


def completions(n_blocks: int) -> list[list[int]]:
    """g[n][k]: how many states complete n floating towers above k grounded ones.

    g(0, k) = 1 and g(n, k) = g(n-1, k+1) + (n-1+k) * g(n-1, k): the last floating tower either
    goes on the table or on top of one of the n-1+k other towers.
    """
    size = n_blocks + 1
    g = [[1] * (size + 1)] + [[0] * (size + 1) for _ in range(n_blocks)]
    for n in range(1, size):
        for k in range(size - n + 1):
            g[n][k] = g[n - 1][k + 1] + (n - 1 + k) * g[n - 1][k]
    return g


def random_state(blocks: list[str], g: list[list[int]], rng: random.Random) -> list[list[str]]:
    """A uniformly random state as towers (each listed bottom to top)."""
    floating = [[b] for b in blocks]
    grounded: list[list[str]] = []
    while floating:
        n, k = len(floating), len(grounded)
        tower = floating.pop()
        if rng.randrange(g[n][k]) < g[n - 1][k + 1]:
            grounded.append(tower)
        else:
            others = floating + grounded  # n - 1 + k tower tops to put it on
            others[rng.randrange(n - 1 + k)].extend(tower)
    return grounded


def on_atoms(towers: list[list[str]], order: dict[str, int]) -> list[str]:
    pairs = [(upper, lower) for tower in towers for lower, upper in pairwise(tower)]
    return [f"(on {u} {lo})" for u, lo in sorted(pairs, key=lambda p: order[p[0]])]


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    n_blocks = size["blocks"]
    if n_blocks < 2:
        raise ValueError("blocksworld needs at least two blocks (one block has no 'on' goal)")
    blocks = [f"block_{i}" for i in range(1, n_blocks + 1)]
    order = {b: i for i, b in enumerate(blocks)}
    g = completions(n_blocks)

    towers = random_state(blocks, g, rng)
    init = ["(handempty)"] + on_atoms(towers, order)
    init += [f"(ontable {t[0]})" for t in towers] + [f"(clear {t[-1]})" for t in towers]
    while True:
        goal = on_atoms(random_state(blocks, g, rng), order)
        if goal and not set(goal) <= set(init):
            break
    return ProblemSpec(f"bw-rand-{n_blocks}", {b: "object" for b in blocks}, tuple(init), tuple(goal))


# ----- abstract descriptions of initial states and goals (text to PDDL) --------------------------
def _bw_table(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    blocks = sorted(objects)
    return frozenset([*(f"(ontable {b})" for b in blocks), *(f"(clear {b})" for b in blocks), "(handempty)"]), {}


def _bw_table_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    return {} if facts == _bw_table(objects, random.Random(0))[0] else None


def _bw_tower(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    order = sorted(objects)
    rng.shuffle(order)
    return frozenset(f"(on {upper} {lower})" for lower, upper in pairwise(order)), {}


def _bw_tower_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    """One tower of all blocks: n-1 ``on`` facts, each block below at most one and above at most one, a chain."""
    pairs = [f[1:-1].split()[1:] for f in facts]
    if any(not f.startswith("(on ") for f in facts) or len(pairs) != len(objects) - 1:
        return None
    above = {lower: upper for upper, lower in pairs}
    below = {upper: lower for upper, lower in pairs}
    if len(above) != len(pairs) or len(below) != len(pairs):
        return None
    bottom = [b for b in objects if b not in below]
    if len(bottom) != 1:
        return None
    seen, block = 1, bottom[0]
    while block in above:
        block, seen = above[block], seen + 1
    return {} if seen == len(objects) else None


def _bw_holding(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    held = rng.choice(sorted(objects))
    return _bw_holding_facts(objects, held), {"block": held}


def _bw_holding_facts(objects: Objects, held: str) -> frozenset[str]:
    rest = [b for b in sorted(objects) if b != held]
    return frozenset([f"(holding {held})", *(f"(ontable {b})" for b in rest), *(f"(clear {b})" for b in rest)])


def _bw_holding_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    held = [f[1:-1].split()[1] for f in facts if f.startswith("(holding ")]
    if len(held) != 1 or held[0] not in objects:
        return None
    return {"block": held[0]} if facts == _bw_holding_facts(objects, held[0]) else None


def _bw_order_facts(order: list[str]) -> frozenset[str]:
    return frozenset(
        [f"(ontable {order[0]})", f"(clear {order[-1]})", "(handempty)"]
        + [f"(on {upper} {lower})" for lower, upper in pairwise(order)]
    )


def _bw_stacked(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    order = sorted(objects)
    rng.shuffle(order)
    return _bw_order_facts(order), {"order": ", ".join(order)}


def _bw_stacked_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    bottom = [f[1:-1].split()[1] for f in facts if f.startswith("(ontable ")]
    above = {f[1:-1].split()[2]: f[1:-1].split()[1] for f in facts if f.startswith("(on ")}
    if len(bottom) != 1:
        return None
    order = [bottom[0]]
    while order[-1] in above and len(order) <= len(objects):
        order.append(above[order[-1]])
    if sorted(order) != sorted(objects):
        return None
    return {"order": ", ".join(order)} if facts == _bw_order_facts(order) else None


def _bw_towers(objects: Objects, facts: frozenset[str]) -> list[list[str]] | None:
    """The towers (each from the table up) when ``facts`` are exactly ``on`` facts and the ``ontable`` facts of
    the bottom blocks, and every block is in one tower; else None."""
    above: dict[str, str] = {}
    bottoms = []
    for fact in sorted(facts):
        head, *args = fact[1:-1].split()
        if head == "on" and len(args) == 2 and args[1] not in above:
            above[args[1]] = args[0]
        elif head == "ontable" and len(args) == 1:
            bottoms.append(args[0])
        else:
            return None
    towers = []
    for block in bottoms:
        towers.append([block])
        while towers[-1][-1] in above and len(towers[-1]) <= len(objects):
            towers[-1].append(above[towers[-1][-1]])
    placed = [b for tower in towers for b in tower]
    if sorted(placed) != sorted(objects) or len(above) != len(objects) - len(bottoms):
        return None
    return towers


def _bw_towers_facts(towers: list[list[str]]) -> frozenset[str]:
    return frozenset(
        [f"(ontable {t[0]})" for t in towers] + [f"(on {up} {lo})" for t in towers for lo, up in pairwise(t)]
    )


def _bw_on_table(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names]:
    return frozenset(f"(ontable {b})" for b in sorted(objects)), {}


def _bw_on_table_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    towers = _bw_towers(objects, facts)
    return {} if towers is not None and all(len(t) == 1 for t in towers) else None


def _bw_two_towers(objects: Objects, rng: random.Random) -> tuple[frozenset[str], Names] | None:
    order = sorted(objects)
    if len(order) < 3:
        return None
    rng.shuffle(order)
    half = (len(order) + rng.randrange(2)) // 2  # an odd number of blocks: either tower may be the taller
    return _bw_towers_facts([order[:half], order[half:]]), {}


def _bw_two_towers_read(objects: Objects, facts: frozenset[str]) -> Names | None:
    towers = _bw_towers(objects, facts)
    if towers is None or len(towers) != 2 or len(objects) < 3:
        return None
    return {} if abs(len(towers[0]) - len(towers[1])) <= 1 else None


def _bw_inverted_facts(given: frozenset[str]) -> frozenset[str]:
    """Every block with a block on it in ``given`` is on that block: each tower turned upside down."""
    pairs = [f[1:-1].split()[1:] for f in given if f.startswith("(on ")]
    return frozenset(f"(on {lower} {upper})" for upper, lower in pairs)


def _bw_inverted(objects: Objects, rng: random.Random, given: frozenset[str]) -> tuple[frozenset[str], Names] | None:
    facts = _bw_inverted_facts(given)
    return (facts, {}) if facts else None


def _bw_inverted_read(objects: Objects, facts: frozenset[str], given: frozenset[str]) -> Names | None:
    return {} if facts and facts == _bw_inverted_facts(given) else None


PATTERNS = (
    Pattern("table", "init", "every block is on the table and clear, and the hand is empty", _bw_table, _bw_table_read),
    Pattern(
        "holding",
        "init",
        "the hand holds block {block}, and every other block is on the table and clear",
        _bw_holding,
        _bw_holding_read,
    ),
    Pattern(
        "stacked",
        "init",
        "all blocks form one tower, from the table up: {order}; the hand is empty",
        _bw_stacked,
        _bw_stacked_read,
    ),
    Pattern("tower", "goal", "all blocks are stacked in one single tower (in any order)", _bw_tower, _bw_tower_read),
    Pattern("on-table", "goal", "every block is on the table", _bw_on_table, _bw_on_table_read),
    Pattern(
        "two-towers",
        "goal",
        "all blocks are stacked in two towers on the table whose heights differ by at most one (in any order)",
        _bw_two_towers,
        _bw_two_towers_read,
    ),
    Pattern(
        "inverted",
        "goal",
        "every tower of the initial state is turned upside down: each block with a block on it now is on that block",
        _bw_inverted,
        _bw_inverted_read,
        uses_facts=True,
        relative=True,
    ),
)


GENERATOR = Generator(
    domain="blocksworld",
    parameters=("blocks",),
    make=make,
    check_solvable=False,
    example_sizes=({"blocks": 3}, {"blocks": 5}, {"blocks": 8}),
    typed=False,
    patterns=PATTERNS,
)
