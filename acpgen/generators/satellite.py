"""satellite: satellites point at directions and take images in modes with their instruments.

Sizes (as the public satgen): ``satellites`` (>= 1), ``instruments`` = the maximum number of
instruments per satellite (>= 1), ``modes`` (>= 1), ``targets`` = calibration directions (>= 1)
and ``observations`` = directions to image (>= 1). Directions are numbered globally: targets
0..T-1 are named ``star{k}`` or ``groundstation{k}``, observations T..T+O-1 ``star{k}``,
``phenomenon{k}`` or ``planet{k}`` (kind uniform); modes are ``{infrared|image|spectrograph|
thermograph}{k}``. Each observation wants 1 + rnd(M // 3) distinct modes. Each satellite points
at a random direction, has 1..I instruments (numbered globally) and, with probability 2/5, a goal
direction. Each instrument supports 1..3 distinct modes and has 1 + rnd(T // 3) distinct
calibration targets. Every mode no instrument supports is then added to a random instrument.
Goal: the ``pointing`` atoms (satellite order), then ``have_image`` for every observation and
each mode it wants.

Always solvable, so no planner check: every mode is supported by some instrument, every
instrument has a calibration target, and satellites can turn to any direction.
"""

from __future__ import annotations

import random
from functools import partial

from acpgen.generators.base import Generator, ProblemSpec
from acpgen.generators.patterns import Names, Objects, Pattern, args_of, each, fixed, of_type, same

PARAMETERS = ("satellites", "instruments", "modes", "targets", "observations")
MODE_KINDS = ("infrared", "image", "spectrograph", "thermograph")
TARGET_KINDS = ("star", "groundstation")
OBSERVATION_KINDS = ("star", "phenomenon", "planet")


def rnd(limit: int, rng: random.Random) -> int:
    """Uniform in 0..limit-1, and 0 when limit is 0 (satgen's ``rnd``)."""
    return rng.randrange(limit) if limit > 0 else 0


def make(size: dict[str, int], rng: random.Random) -> ProblemSpec:
    for name in PARAMETERS:
        if size[name] < 1:
            raise ValueError(f"satellite needs {name} >= 1, got {size[name]}")
    n_sat, max_inst, n_modes, n_targets, n_obs = (size[p] for p in PARAMETERS)

    modes = [f"{rng.choice(MODE_KINDS)}{k}" for k in range(n_modes)]
    targets = [f"{rng.choice(TARGET_KINDS)}{k}" for k in range(n_targets)]
    observations = [f"{rng.choice(OBSERVATION_KINDS)}{k}" for k in range(n_targets, n_targets + n_obs)]
    directions = targets + observations
    wanted = {o: rng.sample(modes, min(1 + rnd(n_modes // 3, rng), n_modes)) for o in observations}

    on_board: dict[str, str] = {}  # instrument -> satellite, instruments numbered globally
    supports: dict[str, list[str]] = {}
    calibration: dict[str, list[str]] = {}
    pointing: dict[str, str] = {}
    goal_pointing: dict[str, str] = {}
    for s in range(n_sat):
        satellite = f"satellite{s}"
        pointing[satellite] = rng.choice(directions)
        end = rng.choice(directions)
        if rng.randrange(5) < 2:
            goal_pointing[satellite] = end
        for _ in range(1 + rng.randrange(max_inst)):
            instrument = f"instrument{len(on_board)}"
            on_board[instrument] = satellite
            supports[instrument] = rng.sample(modes, min(1 + rng.randrange(3), n_modes))
            calibration[instrument] = rng.sample(targets, min(1 + rnd(n_targets // 3, rng), n_targets))

    supported = {m for ms in supports.values() for m in ms}
    for mode in rng.sample(modes, n_modes):
        if mode not in supported:
            satellite = f"satellite{rng.randrange(n_sat)}"
            instrument = rng.choice([i for i, s in on_board.items() if s == satellite])
            supports[instrument].append(mode)
            supported.add(mode)

    objects = {s: "satellite" for s in pointing} | {i: "instrument" for i in on_board}
    objects |= {m: "mode" for m in modes} | {d: "direction" for d in directions}
    init = [f"(on_board {i} {s})" for i, s in on_board.items()]
    init += [f"(supports {i} {m})" for i, ms in supports.items() for m in ms]
    init += [f"(calibration_target {i} {d})" for i, ds in calibration.items() for d in ds]
    init += [f"(power_avail {s})" for s in pointing] + [f"(pointing {s} {d})" for s, d in pointing.items()]
    goal = [f"(pointing {s} {d})" for s, d in goal_pointing.items()]
    goal += [f"(have_image {o} {m})" for o in observations for m in wanted[o]]
    name = "prob-" + "-".join(str(size[p]) for p in PARAMETERS)
    return ProblemSpec(name, objects, tuple(init), tuple(goal))


# ----- abstract descriptions of initial states and goals (text to PDDL) --------------------------
_POWER = {
    "idle": "has its power available, no instrument is on or calibrated",
    "first-on": "has its alphabetically first instrument switched on but not calibrated, no other instrument is on "
    "or calibrated",
    "first-calibrated": "has its alphabetically first instrument switched on and calibrated, no other instrument is "
    "on or calibrated",
}


def _pointing_facts(how: str, objects: Objects, given: frozenset[str], names: Names) -> frozenset[str] | None:
    """Every satellite pointing at one direction, with its power available (``idle``) or given to its
    alphabetically first instrument (``on_board`` among the static facts), calibrated or not; no image.
    None when a satellite has no instrument and one must be on."""
    facts = {f"(pointing {s} {names['direction']})" for s in of_type(objects, "satellite")}
    if how == "idle":
        return frozenset(facts | {f"(power_avail {s})" for s in of_type(objects, "satellite")})
    on_board = args_of(given, "on_board")
    for satellite in of_type(objects, "satellite"):
        instruments = sorted(i for i, s in on_board if s == satellite)
        if not instruments:
            return None
        facts.add(f"(power_on {instruments[0]})")
        if how == "first-calibrated":
            facts.add(f"(calibrated {instruments[0]})")
    return frozenset(facts)


def _pointing(name: str) -> Pattern:
    text = f"every satellite points at direction {{direction}} and {_POWER[name]}, and no image has been taken"
    return Pattern(name, "init", text, **fixed((("direction", ("direction",)),), partial(_pointing_facts, name)))


PATTERNS = (
    _pointing("idle"),
    _pointing("first-on"),
    _pointing("first-calibrated"),
    Pattern(
        "all-pointing",
        "goal",
        "every satellite points at direction {direction}",
        **same("pointing", ("satellite",), ("direction",), "direction"),
    ),
    Pattern("all-calibrated", "goal", "every instrument is calibrated", **each("calibrated", ("instrument",))),
    Pattern(
        "all-imaged",
        "goal",
        "there is an image of every direction in mode {mode}",
        **same("have_image", ("direction",), ("mode",), "mode"),
    ),
)


GENERATOR = Generator(
    domain="satellite",
    parameters=PARAMETERS,
    make=make,
    check_solvable=False,
    example_sizes=(
        {"satellites": 1, "instruments": 1, "modes": 2, "targets": 2, "observations": 1},
        {"satellites": 1, "instruments": 3, "modes": 3, "targets": 5, "observations": 2},
        {"satellites": 3, "instruments": 3, "modes": 3, "targets": 5, "observations": 2},
    ),
    patterns=PATTERNS,
)
