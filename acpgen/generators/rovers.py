"""rovers: planetary rovers gather soil, rock and image data and send it to a lander.

Sizes: ``rovers`` (>= 1), ``waypoints`` (>= 2), ``objectives`` (>= 1), ``cameras`` (>= 1) and
``goals`` (>= 1, the public generator's goal parameter n: it makes rnd(1..n) + n//3 draws each
for soil, rock and image goals and drops duplicates). Objects: ``rover{i}`` with ``store{i}``,
``waypoint{i}``, ``camera{i}`` (one more per imaging rover that drew no camera, so there can be
more cameras than asked), ``objective{i}``, the lander ``general`` and the modes ``colour
high_res low_res``. The problem name is ``prob-{R}-{W}-{O}-{C}-{G}-{tag}``; the public names end
in the generator seed, which ``make`` does not see, so the tag is drawn from the given generator.

The drawing follows the public rovgen generator: a random visibility map (5 random waypoint pairs
per waypoint, then linked up until connected); samples on each waypoint with probability 1/2;
per rover a random start, each capability with probability 4/7, and a ``can_traverse`` tree grown
breadth-first over the map; cameras on random rovers with a random calibration target and random
modes; objectives visible from random waypoints; goals only over data some rover can gather.

Solvability by construction: every goal names data that a suitably equipped rover can gather
within its traversal tree (a sample on it; an objective visible from it, with a camera whose
calibration target is made visible from the tree). The one gap of the public generator -- the
rover may see the lander from nowhere in its tree (its fix works on a copy) -- is closed here:
such a rover gets a ``visible`` link (both ways) between a random waypoint of its tree and the
lander's waypoint. With an empty store after each drop, every goal can then be reached in turn.
"""

from __future__ import annotations

import random

from acpgen.generators.base import Generator, ProblemSpec

MODES = ("colour", "high_res", "low_res")


def visibility_map(n: int, rng: random.Random) -> list[set[int]]:
    """Symmetric adjacency sets: 5n random pairs, then unreached waypoints linked in."""
    adj: list[set[int]] = [set() for _ in range(n)]
    for _ in range(5 * n):
        a, b = rng.sample(range(n), 2)
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
        a, b = rng.choice(missing), rng.choice(sorted(reached))
        adj[a].add(b)
        adj[b].add(a)


def traversal_tree(adj: list[set[int]], start: int, rng: random.Random) -> list[tuple[int, int]]:
    """Tree edges grown breadth-first from ``start``: the first new neighbour of an expanded waypoint
    is always taken, each further one with probability 0.7; at most n//3 + rnd(n) expansions."""
    n = len(adj)
    budget = max(1, n // 3 + rng.randrange(n))
    inside, queue, edges = {start}, [start], []
    while queue and budget > 0:
        budget -= 1
        current = queue.pop(0)
        fresh = sorted(adj[current] - inside)
        rng.shuffle(fresh)
        for k, w in enumerate(fresh):
            if k == 0 or rng.random() < 0.7:
                inside.add(w)
                queue.append(w)
                edges.append((current, w))
    return edges


def draw_goals(count: int, candidates: list, rng: random.Random) -> list:
    """``count`` random draws from ``candidates`` (a list of callables or items), duplicates dropped."""
    picked: list = []
    for _ in range(count if candidates else 0):
        item = rng.choice(candidates)
        item = item() if callable(item) else item
        if item not in picked:
            picked.append(item)
    return picked


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    n_rov, n_wp, n_obj, n_cam, n_goal = (size[k] for k in ("rovers", "waypoints", "objectives", "cameras", "goals"))
    if n_rov < 1 or n_obj < 1 or n_cam < 1 or n_goal < 1:
        raise ValueError("rovers needs at least one rover, objective, camera and goal")
    if n_wp < 2:
        raise ValueError("rovers needs at least two waypoints (a rover must move to see the lander)")
    tag = rng.randrange(10000)
    adj = visibility_map(n_wp, rng)
    soil = [w for w in range(n_wp) if rng.random() < 0.5]
    rock = [w for w in range(n_wp) if rng.random() < 0.5]

    start = [rng.randrange(n_wp) for _ in range(n_rov)]
    equip = [{kind for kind in ("soil", "rock", "imaging") if rng.randrange(7) < 4} for _ in range(n_rov)]
    trees = [traversal_tree(adj, start[r], rng) for r in range(n_rov)]
    area = [{start[r]} | {w for edge in trees[r] for w in edge} for r in range(n_rov)]

    camera_rover = [rng.randrange(n_rov) for _ in range(n_cam)]
    for r in camera_rover:
        equip[r].add("imaging")
    camera_rover += [r for r in range(n_rov) if "imaging" in equip[r] and r not in camera_rover]
    target = [rng.randrange(n_obj) for _ in camera_rover]
    supports = []
    for _ in camera_rover:
        modes = [m for m in MODES if rng.random() < 0.5]
        supports.append(modes or [rng.choice(MODES)])

    seen_from = [{w for w in range(n_wp) if rng.random() < 0.5} for _ in range(n_obj)]
    for o in range(n_obj):
        if not seen_from[o]:
            seen_from[o].add(rng.randrange(n_wp))
    for cam, r in enumerate(camera_rover):  # the calibration target must be seen from the rover's area
        if not seen_from[target[cam]] & area[r]:
            seen_from[target[cam]].add(rng.choice(sorted(area[r])))

    lander = rng.randrange(n_wp)
    for r in range(n_rov):  # the repair the public generator intends: each rover can see the lander
        if not any(lander in adj[w] for w in area[r]):
            w = rng.choice(sorted(area[r] - {lander}))
            adj[w].add(lander)
            adj[lander].add(w)

    def can_sample(kind: str, sites: list[int]) -> list[int]:
        return [w for w in sites if any(kind in equip[r] and w in area[r] for r in range(n_rov))]

    def image_draw(o: int, r: int):
        def draw():
            cam = rng.choice([c for c, owner in enumerate(camera_rover) if owner == r])
            return o, rng.choice(supports[cam])
        return draw

    soil_goals = draw_goals(rng.randint(1, n_goal) + n_goal // 3, can_sample("soil", soil), rng)
    rock_goals = draw_goals(rng.randint(1, n_goal) + n_goal // 3, can_sample("rock", rock), rng)
    pairs = [image_draw(o, r) for o in range(n_obj) for r in sorted(set(camera_rover)) if seen_from[o] & area[r]]
    image_goals = draw_goals(rng.randint(1, n_goal) + n_goal // 3, pairs, rng)

    objects = {f"rover{r}": "rover" for r in range(n_rov)} | {f"store{r}": "store" for r in range(n_rov)}
    objects |= {f"waypoint{w}": "waypoint" for w in range(n_wp)}
    objects |= {f"camera{c}": "camera" for c in range(len(camera_rover))}
    objects |= {f"objective{o}": "objective" for o in range(n_obj)}
    objects |= {m: "mode" for m in MODES} | {"general": "lander"}
    init = [f"(visible waypoint{a} waypoint{b})" for a in range(n_wp) for b in adj[a]]
    init += [f"(at_soil_sample waypoint{w})" for w in soil] + [f"(at_rock_sample waypoint{w})" for w in rock]
    init += [f"(at_lander general waypoint{lander})", "(channel_free general)"]
    for r in range(n_rov):
        init += [f"(at rover{r} waypoint{start[r]})", f"(available rover{r})",
                 f"(store_of store{r} rover{r})", f"(empty store{r})"]
        init += [f"(equipped_for_{kind if kind == 'imaging' else kind + '_analysis'} rover{r})" for kind in equip[r]]
        init += [f"(can_traverse rover{r} waypoint{a} waypoint{b})" for x, y in trees[r] for a, b in ((x, y), (y, x))]
    for c, r in enumerate(camera_rover):
        init += [f"(on_board camera{c} rover{r})", f"(calibration_target camera{c} objective{target[c]})"]
        init += [f"(supports camera{c} {m})" for m in supports[c]]
    init += [f"(visible_from objective{o} waypoint{w})" for o in range(n_obj) for w in seen_from[o]]
    goal = tuple([f"(communicated_soil_data waypoint{w})" for w in soil_goals]
                 + [f"(communicated_rock_data waypoint{w})" for w in rock_goals]
                 + [f"(communicated_image_data objective{o} {m})" for o, m in image_goals])
    return ProblemSpec(f"prob-{n_rov}-{n_wp}-{n_obj}-{n_cam}-{n_goal}-{tag}", objects, tuple(init), goal)


GENERATOR = Generator(
    domain="rovers",
    pddl_name="rover",
    requirements=":strips :typing",
    parameters=("rovers", "waypoints", "objectives", "cameras", "goals"),
    make=make,
    check_solvable=False,
    example_sizes=(
        {"rovers": 1, "waypoints": 2, "objectives": 1, "cameras": 1, "goals": 1},
        {"rovers": 2, "waypoints": 3, "objectives": 2, "cameras": 2, "goals": 3},
        {"rovers": 2, "waypoints": 5, "objectives": 3, "cameras": 2, "goals": 4},
    ),
)
