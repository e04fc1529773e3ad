"""rovers: planetary rovers gather soil, rock and image data and send it to a lander.

Sizes: ``rovers`` (>= 1), ``waypoints`` (>= 2), ``objectives`` (>= 1), ``cameras`` (>= 1) and
``goals`` (>= 1, the public generator's goal parameter n: it asks for rnd(1..n) + n//3 goals each
of soil, rock and image data, fewer when fewer distinct ones can be gathered; image draws that
repeat a goal are dropped). Objects: ``rover{i}`` with ``store{i}``, ``waypoint{i}``,
``camera{i}`` (one more per imaging rover that drew no camera, so there can be more cameras than
asked), ``objective{i}``, the lander ``general`` and the modes ``colour high_res low_res``. The
problem name is ``prob-{R}-{W}-{O}-{C}-{G}-{tag}``; the public names end in the generator seed,
which ``make`` does not see, so the tag is drawn from the given generator. Goals: soil, then
rock, then image goals, each in draw order.

The drawing follows the public rovgen generator: a random visibility map (5n random waypoint
pairs, then linked up until connected); a random lander waypoint; per rover a random start,
correlated capability flags (soil 4/7, rock 5/7, imaging 4/7) and a ``can_traverse`` tree grown
breadth-first over the map; cameras on random rovers with a random calibration target and a
non-empty random set of modes; objectives visible from random waypoints; soil and rock samples on
each waypoint with probability about 1/2; goals only over data some rover can gather.

Solvability by construction: every goal names data that a suitably equipped rover can gather
within its traversal tree (a sample on it; an objective visible from it, with a camera whose
calibration target is made visible from the tree). The one gap of the public generator -- the
rover may see the lander from nowhere in its tree (its fix works on a copy) -- is closed here:
such a rover gets a ``visible`` link (both ways) between a random waypoint of its tree and the
lander's waypoint. With an empty store after each drop, every goal can then be reached in turn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Names, Objects, Pattern, args_of, each, fixed, of_type, same

MODES = ("colour", "high_res", "low_res")
KINDS = ("soil", "rock", "imaging")


def three_flags(rng: random.Random) -> tuple[bool, bool, bool]:
    """The public generator's correlated flags: x uniform in 0..6, flags = x, x//2, x//4 even
    (never all false; rovers: soil 4/7, rock 5/7, imaging 4/7)."""
    x = rng.randrange(7)
    return x % 2 == 0, x // 2 % 2 == 0, x // 4 % 2 == 0


def visibility_map(n: int, rng: random.Random) -> list[set[int]]:
    """Symmetric adjacency sets: 5n random pairs (equal ends skipped), then unreached waypoints linked in."""
    adj: list[set[int]] = [set() for _ in range(n)]
    for _ in range(5 * n):
        a, b = rng.randrange(n), rng.randrange(n)
        if a != b:
            adj[a].add(b)
            adj[b].add(a)
    while True:
        reached, stack = {0}, [0]
        while stack:
            for w in adj[stack.pop()] - reached:
                reached.add(w)
                stack.append(w)
        missing = sorted(set(range(n)) - reached)
        if not missing:
            return adj
        a, b = missing[0], rng.choice(sorted(reached))
        adj[a].add(b)
        adj[b].add(a)


def traversal_tree(adj: list[set[int]], start: int, rng: random.Random) -> list[tuple[int, int]]:
    """Tree edges grown breadth-first from ``start``, neighbours in index order: the first edge is
    always taken, each further one with probability 0.7; at most max(1, n//3 + rnd(n)) expansions
    (the public generator allows 0, which leaves a rover that cannot move)."""
    n = len(adj)
    budget = max(1, n // 3 + rng.randrange(n))
    inside, queue = {start}, [start]
    edges: list[tuple[int, int]] = []
    while queue and budget > 0:
        budget -= 1
        current = queue.pop(0)
        for w in sorted(adj[current] - inside):
            if not edges or rng.randrange(10) > 2:
                inside.add(w)
                queue.append(w)
                edges.append((current, w))
    return edges


def distinct_draws(count: int, candidates: list, rng: random.Random) -> list:
    """Up to ``count`` distinct items drawn from ``candidates`` (repeats weight the draw)."""
    picked: list = []
    while len(picked) < min(count, len(set(candidates))):
        item = rng.choice(candidates)
        if item not in picked:
            picked.append(item)
    return picked


@dataclass
class _World:
    """The drawn map and rovers: visibility, the lander's waypoint, and per rover its start waypoint,
    equipment, traversal tree and area (the waypoints it can reach: its start and its tree)."""

    adj: list[set[int]]
    lander: int
    start: list[int]
    equip: list[set[str]]
    trees: list[list[tuple[int, int]]]
    area: list[set[int]]


@dataclass
class _Cameras:
    """Per camera: its rover, its calibration target (an objective) and the modes it supports."""

    rover: list[int]
    target: list[int]
    supports: list[list[str]]


def _draw_world(n_rov: int, n_wp: int, rng: random.Random) -> _World:
    adj = visibility_map(n_wp, rng)
    lander = rng.randrange(n_wp)
    start = [rng.randrange(n_wp) for _ in range(n_rov)]
    equip = [{k for k, flag in zip(KINDS, three_flags(rng)) if flag} for _ in range(n_rov)]
    trees = [traversal_tree(adj, start[r], rng) for r in range(n_rov)]
    area = [{start[r]} | {w for edge in trees[r] for w in edge} for r in range(n_rov)]
    for r in range(n_rov):  # the repair the public generator intends: each rover can see the lander
        if not any(lander in adj[w] for w in area[r]):
            w = rng.choice(sorted(area[r] - {lander}))
            adj[w].add(lander)
            adj[lander].add(w)
    return _World(adj, lander, start, equip, trees, area)


def _draw_cameras(world: _World, n_cam: int, n_obj: int, rng: random.Random) -> _Cameras:
    """``n_cam`` cameras on random rovers (which become imaging rovers), then one more per imaging rover
    without a camera."""
    n_rov = len(world.start)
    rover = [rng.randrange(n_rov) for _ in range(n_cam)]
    for r in rover:
        world.equip[r].add("imaging")
    rover += [r for r in range(n_rov) if "imaging" in world.equip[r] and r not in rover]
    target, supports = [], []
    for _ in rover:
        target.append(rng.randrange(n_obj))
        supports.append([m for m, flag in zip(MODES, three_flags(rng)) if flag])
    return _Cameras(rover, target, supports)


def _draw_goals(
    world: _World,
    cameras: _Cameras,
    seen_from: list[set[int]],
    samples: dict[str, list[int]],
    n_goal: int,
    rng: random.Random,
) -> tuple[list[int], list[int], list[tuple[int, str]]]:
    """Soil, rock and image goals (waypoints; (objective, mode) pairs), each over data some rover can
    gather. Before the image goals, every camera's target is made visible from its rover's area."""
    n_rov, n_obj = len(world.start), len(seen_from)

    def sites(kind: str) -> list[int]:  # one entry per (able rover, sample site)
        return [w for r in range(n_rov) if kind in world.equip[r] for w in sorted(world.area[r]) if w in samples[kind]]

    soil_goals = distinct_draws(rng.randint(1, n_goal) + n_goal // 3, sites("soil"), rng)
    rock_goals = distinct_draws(rng.randint(1, n_goal) + n_goal // 3, sites("rock"), rng)
    for cam, r in enumerate(cameras.rover):
        if not seen_from[cameras.target[cam]] & world.area[r]:
            seen_from[cameras.target[cam]].add(rng.choice(sorted(world.area[r])))
    suitable = [(o, r) for r in sorted(set(cameras.rover)) for o in range(n_obj) for _ in seen_from[o] & world.area[r]]
    image_goals: list[tuple[int, str]] = []
    for _ in range(min(len(suitable), rng.randint(1, n_goal) + n_goal // 3)):
        o, r = rng.choice(suitable)
        cam = rng.choice([c for c, owner in enumerate(cameras.rover) if owner == r])
        goal = (o, rng.choice(cameras.supports[cam]))
        if goal not in image_goals:
            image_goals.append(goal)
    return soil_goals, rock_goals, image_goals


def _init_atoms(
    world: _World, cameras: _Cameras, seen_from: list[set[int]], samples: dict[str, list[int]]
) -> list[str]:
    n_wp = len(world.adj)
    init = [f"(visible waypoint{a} waypoint{b})" for a in range(n_wp) for b in world.adj[a]]
    init += [f"(at_soil_sample waypoint{w})" for w in samples["soil"]]
    init += [f"(at_rock_sample waypoint{w})" for w in samples["rock"]]
    init += [f"(at_lander general waypoint{world.lander})", "(channel_free general)"]
    for r, start in enumerate(world.start):
        init += [
            f"(at rover{r} waypoint{start})",
            f"(available rover{r})",
            f"(store_of store{r} rover{r})",
            f"(empty store{r})",
        ]
        init += [
            f"(equipped_for_{kind if kind == 'imaging' else kind + '_analysis'} rover{r})" for kind in world.equip[r]
        ]
        init += [
            f"(can_traverse rover{r} waypoint{a} waypoint{b})" for x, y in world.trees[r] for a, b in ((x, y), (y, x))
        ]
    for c, r in enumerate(cameras.rover):
        init += [f"(on_board camera{c} rover{r})", f"(calibration_target camera{c} objective{cameras.target[c]})"]
        init += [f"(supports camera{c} {m})" for m in cameras.supports[c]]
    init += [f"(visible_from objective{o} waypoint{w})" for o in range(len(seen_from)) for w in seen_from[o]]
    return init


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    n_rov, n_wp, n_obj, n_cam, n_goal = (size[k] for k in ("rovers", "waypoints", "objectives", "cameras", "goals"))
    if n_rov < 1 or n_obj < 1 or n_cam < 1 or n_goal < 1:
        raise ValueError("rovers needs at least one rover, objective, camera and goal")
    if n_wp < 2:
        raise ValueError("rovers needs at least two waypoints (a rover must move to see the lander)")
    tag = rng.randrange(10000)
    world = _draw_world(n_rov, n_wp, rng)
    cameras = _draw_cameras(world, n_cam, n_obj, rng)
    seen_from = [{rng.randrange(n_wp) for _ in range(rng.randint(1, n_wp))} for _ in range(n_obj)]
    samples = {kind: [w for w in range(n_wp) if rng.randrange(n_wp) % 2 == 0] for kind in ("soil", "rock")}
    soil_goals, rock_goals, image_goals = _draw_goals(world, cameras, seen_from, samples, n_goal, rng)

    objects = {f"rover{r}": "rover" for r in range(n_rov)} | {f"store{r}": "store" for r in range(n_rov)}
    objects |= {f"waypoint{w}": "waypoint" for w in range(n_wp)}
    objects |= {f"camera{c}": "camera" for c in range(len(cameras.rover))}
    objects |= {f"objective{o}": "objective" for o in range(n_obj)}
    objects |= {m: "mode" for m in MODES} | {"general": "lander"}
    goals = tuple(
        [f"(communicated_soil_data waypoint{w})" for w in soil_goals]
        + [f"(communicated_rock_data waypoint{w})" for w in rock_goals]
        + [f"(communicated_image_data objective{o} {m})" for o, m in image_goals]
    )
    init = _init_atoms(world, cameras, seen_from, samples)
    return ProblemSpec(f"prob-{n_rov}-{n_wp}-{n_obj}-{n_cam}-{n_goal}-{tag}", objects, tuple(init), goals)


# ----- abstract descriptions of initial states and goals (text to PDDL) --------------------------
_STORES = {"ready": "empty", "calibrated": "empty", "stores-full": "full"}
_CAMERAS = {
    "ready": "no camera is calibrated",
    "calibrated": "every camera is calibrated for the rover it is on",
    "stores-full": "no camera is calibrated",
}


def _fresh_facts(how: str, objects: Objects, given: frozenset[str], names: Names) -> frozenset[str]:
    """Every rover available at one waypoint, every store empty or full, every waypoint with a soil and a
    rock sample, every lander's channel free, no data gathered or sent; with ``how="calibrated"`` every
    camera calibrated for the rover it is on (``on_board`` among the static facts)."""
    facts = {f"(at {r} {names['waypoint']})" for r in of_type(objects, "rover")}
    facts |= {f"(available {r})" for r in of_type(objects, "rover")}
    facts |= {f"({_STORES[how]} {s})" for s in of_type(objects, "store")}
    facts |= {f"(at_{kind}_sample {w})" for kind in ("soil", "rock") for w in of_type(objects, "waypoint")}
    facts |= {f"(channel_free {lander})" for lander in of_type(objects, "lander")}
    if how == "calibrated":
        facts |= {f"(calibrated {camera} {rover})" for camera, rover in args_of(given, "on_board")}
    return frozenset(facts)


def _reachable_by_all(objects: Objects, given: frozenset[str], names: Names) -> bool:
    """Every rover can drive from the waypoint (it lies on the rover's ``can_traverse`` links): the
    rovers keep the reach they had, so the problem's goals stay within it."""
    links = args_of(given, "can_traverse")
    return all(
        any(r == rover and names["waypoint"] in (a, b) for r, a, b in links) for rover in of_type(objects, "rover")
    )


def _fresh(name: str) -> Pattern:
    text = (
        f"every rover is available at waypoint {{waypoint}} with its store {_STORES[name]}, every waypoint has a "
        f"soil sample and a rock sample, every lander's channel is free, {_CAMERAS[name]}, and no soil, rock or "
        "image data has been gathered or communicated"
    )
    return Pattern(
        name, "init", text, **fixed((("waypoint", ("waypoint",)),), partial(_fresh_facts, name), _reachable_by_all)
    )


PATTERNS = (
    _fresh("ready"),
    _fresh("calibrated"),
    _fresh("stores-full"),
    Pattern(
        "soil-sent",
        "goal",
        "the soil sample of every waypoint that has one has been analysed and communicated",
        **each("communicated_soil_data", ("waypoint",), "at_soil_sample"),
    ),
    Pattern(
        "rock-sent",
        "goal",
        "the rock sample of every waypoint that has one has been analysed and communicated",
        **each("communicated_rock_data", ("waypoint",), "at_rock_sample"),
    ),
    Pattern(
        "all-at", "goal", "every rover is at waypoint {waypoint}", **same("at", ("rover",), ("waypoint",), "waypoint")
    ),
)


GENERATOR = Generator(
    domain="rovers",
    parameters=("rovers", "waypoints", "objectives", "cameras", "goals"),
    make=make,
    check_solvable=False,
    example_sizes=(
        {"rovers": 1, "waypoints": 2, "objectives": 1, "cameras": 1, "goals": 1},
        {"rovers": 2, "waypoints": 3, "objectives": 2, "cameras": 2, "goals": 3},
        {"rovers": 2, "waypoints": 5, "objectives": 3, "cameras": 2, "goals": 4},
    ),
    patterns=PATTERNS,
)
