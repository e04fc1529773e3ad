"""alfworld (PDDL domain ``alfred``): random ALFWorld-like household scenes with one validate goal.

Sizes: ``receptacles`` (>= 4) receptacles, ``objects`` (>= 1; >= 2 for pick-two and examine)
numbered household objects, of which ``objects // 6`` are fixtures (window, lightswitch, sink, ...:
only ``objecttype`` and ``objectatlocation``, at locations without a receptacle, as in ALFWorld
scenes; ``faucet{k}`` gets no facts at all) and the rest
are movable objects placed in receptacles; ``goal`` picks the goal kind by index into ``GOALS``
(0 pick-and-place, 1 pick-two-and-place, 2 heat, 3 cool, 4 clean, 5 examine-in-light).

A scene is a room (kitchen, bathroom, bedroom, living room: drawn among the rooms that fit the
goal kind) with its receptacle kinds, numbered per kind (``cabinet3``); fridge, microwave and safe
are openable, cabinets and drawers openable with probability 1/2, all openable ones start closed.
Every receptacle has a location (stoveburner pairs, and sometimes one other pair, share one);
fixtures get their own receptacle-free locations (sometimes shared); the agent starts at an
extra empty location, the highest-numbered one. Object properties and ``cancontain`` come from
per-type tables: what the ACPBench alfworld problems show, extended for the living-room and bedroom
furniture they do not show. ``:objects`` also declares the 79 unnumbered placeholder names and all
non-constant otypes and rtypes, as the reference scenes do.

Solvable by construction: the goal's object type is pickupable (and heatable / coolable /
cleanable as the goal needs), the scene holds the needed appliance (microwave, fridge, sinkbasin)
or a desk lamp in a receptacle, at least one (two for pick-two) object of that type lies in a
receptacle, and some receptacle of the goal's rtype can contain the type. Every receptacle's
location can be entered and openable ones can be opened, so the agent can fetch the object,
process it, put it into the target receptacle and validate. No object of the goal type starts in
a receptacle of the goal's rtype, so no goal holds after a single validation.
"""

from __future__ import annotations

import random

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Pattern, each

GOALS = ("pickandplace", "picktwoandplace", "heatandplace", "coolandplace", "cleanandplace", "examineinlight")
APPLIANCE = {"heatandplace": "microwave", "coolandplace": "fridge", "cleanandplace": "sinkbasin"}
NEEDED = {"heatandplace": "heatable", "coolandplace": "coolable", "cleanandplace": "cleanable"}
ROOMS_FOR = {
    "heatandplace": ("kitchen",),
    "coolandplace": ("kitchen",),
    "cleanandplace": ("kitchen", "bathroom"),
    "examineinlight": ("bedroom", "livingroom"),
}

# Non-constant type names declared in every problem (the constants are in the domain file).
OTYPES = tuple(
    [
        "alarmclock",
        "apple",
        "baseballbat",
        "basketball",
        "bathtub",
        "blinds",
        "book",
        "boots",
        "bowl",
        "box",
        "bread",
        "candle",
        "cd",
        "cellphone",
        "chair",
        "cloth",
        "creditcard",
        "cup",
        "curtains",
        "desklamp",
        "dishsponge",
        "egg",
        "floorlamp",
        "footstool",
        "fork",
        "glassbottle",
        "handtowel",
        "houseplant",
        "kettle",
        "keychain",
        "ladle",
        "laptop",
        "laundryhamperlid",
        "lettuce",
        "lightswitch",
        "mirror",
        "mug",
        "newspaper",
        "painting",
        "pan",
        "papertowel",
        "papertowelroll",
        "pen",
        "pencil",
        "peppershaker",
        "pillow",
        "plate",
        "plunger",
        "poster",
        "pot",
        "potato",
        "remotecontrol",
        "saltshaker",
        "scrubbrush",
        "showerdoor",
        "showerglass",
        "soapbar",
        "soapbottle",
        "spatula",
        "spoon",
        "spraybottle",
        "statue",
        "stoveknob",
        "teddybear",
        "television",
        "tennisracket",
        "tissuebox",
        "toiletpaper",
        "toiletpaperroll",
        "tomato",
        "towel",
        "vase",
        "watch",
        "wateringcan",
        "window",
        "winebottle",
    ]
)
RTYPES = tuple(
    [
        "armchair",
        "bathtubbasin",
        "bed",
        "cabinet",
        "cart",
        "coffeemachine",
        "coffeetable",
        "countertop",
        "desk",
        "diningtable",
        "drawer",
        "dresser",
        "garbagecan",
        "handtowelholder",
        "laundryhamper",
        "ottoman",
        "paintinghanger",
        "safe",
        "shelf",
        "sidetable",
        "sofa",
        "stoveburner",
        "toaster",
        "toiletpaperhanger",
        "toilet",
        "towelholder",
        "tvstand",
    ]
)
# Unnumbered names declared as plain objects (one per object kind, constants' kinds included).
PLACEHOLDERS = tuple(sorted(OTYPES + ("butterknife", "knife", "sink")))

_PROPERTY_GROUPS = {
    ("pickupable",): """alarmclock baseballbat basketball book candle cd cellphone creditcard glassbottle handtowel
        keychain laptop papertowelroll pen pencil peppershaker pillow plunger saltshaker scrubbrush soapbottle
        spraybottle statue toiletpaper towel vase box newspaper remotecontrol tissuebox watch wateringcan""",
    ("pickupable", "cleanable"): "butterknife cloth dishsponge fork knife soapbar spatula spoon",
    ("pickupable", "cleanable", "coolable"): "bowl pan pot",
    ("pickupable", "cleanable", "heatable", "coolable"): "cup mug plate",
    ("pickupable", "cleanable", "heatable", "coolable", "sliceable"): "apple egg potato tomato",
    ("pickupable", "heatable", "coolable", "sliceable"): "bread",
    ("pickupable", "cleanable", "coolable", "sliceable"): "lettuce",
    ("toggleable",): "desklamp",
}
PROPERTIES = {kind: props for props, kinds in _PROPERTY_GROUPS.items() for kind in kinds.split()}

_CANCONTAIN = {  # rtype kind -> otype kinds; the union observed in the records ...
    "bed": "baseballbat basketball book cellphone laptop pillow",
    "cabinet": """bowl candle cloth cup dishsponge glassbottle handtowel mug pan peppershaker plate plunger pot
        saltshaker soapbar soapbottle spraybottle toiletpaper vase""",
    "coffeemachine": "mug",
    "countertop": """apple bowl bread butterknife candle cellphone cloth creditcard cup dishsponge egg fork
        glassbottle handtowel knife lettuce mug pan peppershaker plate pot potato saltshaker soapbar soapbottle
        spatula spoon spraybottle statue toiletpaper tomato vase""",
    "desk": "alarmclock basketball book bowl cd cellphone creditcard keychain laptop mug pen pencil",
    "drawer": """book butterknife cd cellphone creditcard dishsponge fork keychain knife pen pencil peppershaker
        saltshaker soapbottle spatula spoon""",
    "fridge": "apple bowl bread cup egg glassbottle lettuce mug pan plate pot potato tomato",
    "garbagecan": """apple bread cd cloth dishsponge egg handtowel lettuce pen pencil potato soapbar soapbottle
        spraybottle toiletpaper tomato""",
    "handtowelholder": "handtowel",
    "towelholder": "towel",
    "toiletpaperhanger": "toiletpaper",
    "microwave": "apple bowl bread cup egg glassbottle mug plate potato tomato",
    "safe": "cd cellphone creditcard keychain",
    "shelf": """alarmclock book bowl cd cellphone creditcard cup dishsponge glassbottle keychain mug pen pencil
        peppershaker plate pot saltshaker soapbottle statue vase""",
    "sinkbasin": """apple bowl butterknife cloth cup dishsponge egg fork glassbottle handtowel knife lettuce mug
        pan plate pot potato soapbar spatula spoon tomato""",
    "stoveburner": "pan pot",
    "toilet": "candle cloth handtowel soapbar soapbottle spraybottle toiletpaper",
}
_EXTENSION = {  # ... extended (not seen in the records) for furniture and living-room kinds
    "drawer": "remotecontrol watch",
    "shelf": "box remotecontrol tissuebox watch wateringcan",
    "sidetable": """alarmclock book bowl box cd cellphone creditcard cup keychain laptop mug newspaper pen pencil
        plate remotecontrol statue tissuebox vase watch""",
    "dresser": """alarmclock book box cd cellphone creditcard keychain laptop newspaper pen pencil remotecontrol
        statue tissuebox vase watch""",
    "coffeetable": """book box cellphone creditcard keychain laptop newspaper pen pencil remotecontrol statue
        tissuebox vase watch wateringcan""",
    "diningtable": """apple book bowl box bread butterknife cellphone creditcard cup egg fork keychain knife
        laptop lettuce mug newspaper pan peppershaker plate pot potato saltshaker spatula spoon statue tomato vase""",
    "sofa": "book box cellphone creditcard keychain laptop newspaper pillow remotecontrol",
    "armchair": "book box cellphone creditcard keychain laptop newspaper pillow remotecontrol",
    "ottoman": "book box cellphone creditcard keychain laptop newspaper pillow remotecontrol",
    "tvstand": "remotecontrol statue tissuebox vase",
    "bathtubbasin": "cloth handtowel soapbar",
    "laundryhamper": "cloth",
    "cart": "candle cloth handtowel soapbar soapbottle spraybottle toiletpaper",
}
CANCONTAIN = {
    r: frozenset(_CANCONTAIN.get(r, "").split() + _EXTENSION.get(r, "").split())
    for r in RTYPES + ("fridge", "microwave", "sinkbasin")
}
LAMP_HOSTS = frozenset({"desk", "sidetable", "dresser"})
ALWAYS_OPENABLE, MAYBE_OPENABLE = frozenset({"fridge", "microwave", "safe"}), frozenset({"cabinet", "drawer"})

# room -> (core receptacle kinds in order, optional single kinds, {fill kind: (weight, cap or 0)},
#          movable object kinds, fixture kinds)
ROOMS = {
    "kitchen": (
        ("countertop", "cabinet", "fridge", "microwave", "sinkbasin", "drawer", "stoveburner"),
        ("coffeemachine", "toaster", "garbagecan", "diningtable", "shelf"),
        {"cabinet": (5, 0), "drawer": (4, 0), "stoveburner": (1, 4), "countertop": (1, 3), "shelf": (1, 3)},
        """apple bowl bread butterknife cellphone creditcard cup dishsponge egg fork glassbottle knife lettuce
                mug pan peppershaker plate pot potato saltshaker soapbottle spatula spoon statue tomato vase""",
        "window lightswitch sink stoveknob chair houseplant faucet",
    ),
    "bathroom": (
        ("countertop", "sinkbasin", "toilet", "cabinet"),
        (
            "towelholder",
            "handtowelholder",
            "toiletpaperhanger",
            "garbagecan",
            "drawer",
            "bathtubbasin",
            "shelf",
            "cart",
        ),
        {
            "cabinet": (4, 0),
            "drawer": (3, 0),
            "shelf": (2, 6),
            "sinkbasin": (1, 2),
            "towelholder": (1, 2),
            "handtowelholder": (1, 2),
        },
        """candle cloth dishsponge glassbottle handtowel plunger soapbar soapbottle spraybottle toiletpaper
                 towel""",
        "mirror showerdoor showerglass lightswitch window sink faucet",
    ),
    "bedroom": (
        ("bed", "desk", "drawer", "shelf"),
        ("garbagecan", "sidetable", "dresser", "safe", "laundryhamper", "armchair"),
        {"drawer": (4, 0), "shelf": (3, 0), "desk": (1, 2), "sidetable": (1, 3)},
        """alarmclock baseballbat basketball book bowl cd cellphone cloth creditcard desklamp keychain laptop
                mug pen pencil pillow statue vase""",
        "blinds window lightswitch chair mirror laundryhamperlid painting curtains",
    ),
    "livingroom": (
        ("sofa", "sidetable", "coffeetable", "drawer"),
        ("tvstand", "garbagecan", "armchair", "shelf", "cabinet", "diningtable", "ottoman", "dresser"),
        {"drawer": (3, 0), "shelf": (2, 0), "cabinet": (2, 0), "sidetable": (1, 3), "armchair": (1, 2)},
        """book box cellphone creditcard desklamp keychain laptop newspaper pillow remotecontrol statue
                   tissuebox vase watch wateringcan""",
        "window lightswitch houseplant painting chair curtains",
    ),
}


def _receptacle_kinds(room: str, count: int, goal: str, rng: random.Random) -> list[str]:
    core, optional_kinds, fill, _, _ = ROOMS[room]
    optional = list(optional_kinds)
    rng.shuffle(optional)
    kinds = [APPLIANCE[goal]] if goal in APPLIANCE else []
    for kind in (*core, *optional):
        if len(kinds) < count and kind not in kinds:
            kinds.append(kind)
    while len(kinds) < count:
        options = [k for k, (_, cap) in fill.items() if not cap or kinds.count(k) < cap]
        kinds.append(rng.choices(options, [fill[k][0] for k in options])[0])
    return kinds


def _goal_candidates(room: str, goal: str, present: set[str]) -> list[tuple[str, str]]:
    """(object kind, target rtype kind or desklamp) pairs that make a solvable, non-trivial goal."""
    out = []
    for kind in ROOMS[room][3].split():
        props = PROPERTIES[kind]
        if "pickupable" not in props or (goal in NEEDED and NEEDED[goal] not in props):
            continue
        holders = sorted(r for r in present if kind in CANCONTAIN[r])
        if goal == "examineinlight":
            out += [(kind, "desklamp")] if holders and present & LAMP_HOSTS else []
            continue
        out += [(kind, rt) for rt in holders if rt != APPLIANCE.get(goal) and any(h != rt for h in holders)]
    return out


def _numbered(kind: str, counter: dict[str, int]) -> str:
    """The next name of a kind (``cabinet1``, ``cabinet2``, ...), counted in ``counter``."""
    counter[kind] = counter.get(kind, 0) + 1
    return f"{kind}{counter[kind]}"


def _place_objects(
    room: str,
    goal: str,
    goal_kind: str,
    goal_target: str,
    receptacles: list[tuple[str, str]],
    count: int,
    counter: dict[str, int],
    rng: random.Random,
) -> list[tuple[str, str, str]]:
    """``count`` movable objects (name, kind, receptacle): the goal's objects first, then random kinds
    that some receptacle can hold (kinds already present are less likely); none of the goal's kind
    starts in a receptacle of the goal's target kind."""

    def hosts(kind: str) -> list[str]:
        if kind == "desklamp":
            return [r for r, k in receptacles if k in LAMP_HOSTS]
        return [r for r, k in receptacles if kind in CANCONTAIN[k] and not (kind == goal_kind and k == goal_target)]

    placed: list[tuple[str, str, str]] = []

    def add(kind: str) -> None:
        name = _numbered(kind, counter)
        placed.append((name, kind, rng.choice(hosts(kind))))

    first = {"picktwoandplace": [goal_kind] * 2, "examineinlight": ["desklamp", goal_kind]}.get(goal, [goal_kind])
    for kind in first:
        add(kind)
    eligible = [k for k in ROOMS[room][3].split() if hosts(k)]
    while len(placed) < count:
        add(rng.choices(eligible, [1.0 / (1 + counter.get(k, 0)) ** 2 for k in eligible])[0])
    return placed


def _draw_fixtures(
    room: str, count: int, counter: dict[str, int], rng: random.Random
) -> tuple[list[tuple[str, str]], list[list[str]]]:
    """``count`` fixtures (name, kind) of the room, and the groups of fixture names that share a location
    (faucets have none)."""
    fixtures: list[tuple[str, str]] = []
    groups: list[list[str]] = []
    for _ in range(count):
        kind = rng.choice(ROOMS[room][4].split())
        name = _numbered(kind, counter)
        fixtures.append((name, kind))
        if kind == "faucet":
            continue
        if groups and rng.random() < 0.25:
            rng.choice(groups).append(name)
        else:
            groups.append([name])
    return fixtures, groups


def _locations(
    receptacles: list[tuple[str, str]], fixture_groups: list[list[str]], rng: random.Random
) -> tuple[dict[str, str], int]:
    """Each receptacle's and fixture's location name, and the number of locations (the last one, the
    agent's start, is empty). Adjacent stoveburners may share a location, and sometimes two other
    receptacles do; the fixture groups get their own locations; the order is shuffled."""
    groups, i = [], 0
    while i < len(receptacles):
        pair = i + 1 < len(receptacles) and receptacles[i][1] == receptacles[i + 1][1] == "stoveburner"
        if pair and rng.random() < 0.5:
            groups.append([receptacles[i][0], receptacles[i + 1][0]])
            i += 2
        else:
            groups.append([receptacles[i][0]])
            i += 1
    singles = [g for g in groups if len(g) == 1]
    if len(singles) >= 2 and rng.random() < 0.25:
        a, b = rng.sample(singles, 2)
        groups.remove(b)
        a += b
    groups += fixture_groups
    rng.shuffle(groups)
    where = {name: f"location{n + 1}" for n, group in enumerate(groups) for name in group}
    return where, len(groups) + 1


def _init_atoms(
    receptacles: list[tuple[str, str]],
    placed: list[tuple[str, str, str]],
    fixtures: list[tuple[str, str]],
    where: dict[str, str],
    start: str,
    rng: random.Random,
) -> list[str]:
    """The initial state; draws which cabinets and drawers are openable."""
    init = [f"(atlocation agent1 {start})", "(handempty agent1)", "(notvalidated)"]
    for name, kind in receptacles:
        init += [f"(receptacletype {name} {kind}type)", f"(receptacleatlocation {name} {where[name]})"]
        openable = kind in ALWAYS_OPENABLE or (kind in MAYBE_OPENABLE and rng.random() < 0.5)
        init += [f"(openable {name})", f"(closed {name})"] if openable else [f"(notopenable {name})"]
    for name, kind, rec in placed:
        init += [
            f"(inreceptacle {name} {rec})",
            f"(objectatlocation {name} {where[rec]})",
            f"(objecttype {name} {kind}type)",
        ] + [f"({p} {name})" for p in PROPERTIES[kind]]
        init += [f"(isoff {name})"] if "toggleable" in PROPERTIES[kind] else []
    for name, kind in fixtures:
        if kind != "faucet":
            init += [f"(objecttype {name} {kind}type)", f"(objectatlocation {name} {where[name]})"]
    object_kinds = {kind for _, kind, _ in placed}
    receptacle_kinds = {kind for _, kind in receptacles}
    init += [f"(cancontain {r}type {o}type)" for r in receptacle_kinds for o in object_kinds if o in CANCONTAIN[r]]
    return init


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    n_rec, n_obj, goal_index = size["receptacles"], size["objects"], size["goal"]
    if not 0 <= goal_index < len(GOALS):
        raise ValueError(f"alfworld goal must be 0..{len(GOALS) - 1} ({', '.join(GOALS)}), got {goal_index}")
    goal = GOALS[goal_index]
    n_fix = n_obj // 6
    needed = 2 if goal in ("picktwoandplace", "examineinlight") else 1
    if n_rec < 4:
        raise ValueError(f"alfworld needs at least 4 receptacles, got {n_rec}")
    if n_obj - n_fix < needed:
        raise ValueError(f"alfworld goal {goal} needs at least {needed} movable objects: objects >= {needed}")

    room = rng.choice(ROOMS_FOR.get(goal, tuple(ROOMS)))
    kinds = _receptacle_kinds(room, n_rec, goal, rng)
    receptacle_counter: dict[str, int] = {}
    receptacles = [(_numbered(kind, receptacle_counter), kind) for kind in kinds]
    candidates = _goal_candidates(room, goal, set(kinds))
    if not candidates:  # cannot happen with the room tables above; kept as a guard
        raise ValueError(f"alfworld: no {goal} goal fits a {room} with {n_rec} receptacles")
    goal_kind, goal_target = rng.choice(candidates)
    counter: dict[str, int] = {}  # objects and fixtures are numbered together
    placed = _place_objects(room, goal, goal_kind, goal_target, receptacles, n_obj - n_fix, counter, rng)
    fixtures, fixture_groups = _draw_fixtures(room, n_fix, counter, rng)
    where, n_locations = _locations(receptacles, fixture_groups, rng)
    init = _init_atoms(receptacles, placed, fixtures, where, f"location{n_locations}", rng)

    objects = {"agent1": "agent"} | {f"location{n}": "location" for n in range(1, n_locations + 1)}
    objects |= {name: "receptacle" for name, _ in receptacles}
    objects |= {name: "object" for name, _, _ in placed} | {name: "object" for name, _ in fixtures}
    objects |= {name: "object" for name in PLACEHOLDERS}
    objects |= {f"{t}type": "otype" for t in OTYPES} | {f"{t}type": "rtype" for t in RTYPES}
    goal_atom = (
        f"(validate{goal} {goal_target}type {goal_kind}type)"
        if goal == "examineinlight"
        else f"(validate{goal} {goal_kind}type {goal_target}type)"
    )
    stamp = (
        f"2019{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}_{rng.randint(0, 23):02d}"
        f"{rng.randint(0, 59):02d}{rng.randint(0, 59):02d}_{rng.randrange(10**6):06d}"
    )
    return ProblemSpec(f"plan_trial_t{stamp}", objects, tuple(init), (goal_atom,))


# ----- abstract descriptions of goals (text to PDDL) -----------------------------------------------
# Goals only: an initial state would have to place every object in its receptacle (dozens of facts
# no summary fixes), so alfworld's initial states are always described fact by fact.
PATTERNS = (
    Pattern(
        "all-opened",
        "goal",
        "every receptacle that can be opened is open",
        **each("opened", ("receptacle",), "openable"),
    ),
    Pattern(
        "lights-on",
        "goal",
        "every object that can be toggled is switched on",
        **each("ison", ("object",), "toggleable"),
    ),
    Pattern(
        "all-clean", "goal", "every object that can be cleaned is clean", **each("isclean", ("object",), "cleanable")
    ),
    Pattern("all-hot", "goal", "every object that can be heated is hot", **each("ishot", ("object",), "heatable")),
)


GENERATOR = Generator(
    domain="alfworld",
    parameters=("receptacles", "objects", "goal"),
    make=make,
    check_solvable=False,
    example_sizes=(
        {"receptacles": 5, "objects": 6, "goal": 1},
        {"receptacles": 6, "objects": 8, "goal": 2},
        {"receptacles": 6, "objects": 8, "goal": 4},
        {"receptacles": 7, "objects": 10, "goal": 5},
    ),
    patterns=PATTERNS,
)
