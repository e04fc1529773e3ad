"""satellite: the domain file against the ACPBench satellite domain written out below, and generated problems."""

from __future__ import annotations

import random
import re
from collections import defaultdict

import pytest
from documented_schema import actual_schema, expected_schema

from acpgen.generators import domain_file, get_generator
from acpgen.pddl.tarski_io import read_strings

GEN = get_generator("satellite")
SIZE = {"satellites": 6, "instruments": 3, "modes": 7, "targets": 7, "observations": 4}

# The ACPBench satellite domain, written out by hand independently of domains/satellite/domain.pddl.
TYPES = ("direction", "instrument", "mode", "satellite")
PREDICATES = {
    "calibrated": ("instrument",),
    "calibration_target": ("instrument", "direction"),
    "have_image": ("direction", "mode"),
    "on_board": ("instrument", "satellite"),
    "pointing": ("satellite", "direction"),
    "power_avail": ("satellite",),
    "power_on": ("instrument",),
    "supports": ("instrument", "mode"),
}
ACTIONS = {  # name: (parameters, precondition, add, delete)
    "turn_to": (
        "s - satellite, d_new - direction, d_prev - direction",
        "pointing s d_prev",
        "pointing s d_new",
        "pointing s d_prev",
    ),
    "switch_on": (
        "i - instrument, s - satellite",
        "on_board i s, power_avail s",
        "power_on i",
        "calibrated i, power_avail s",
    ),
    "switch_off": ("i - instrument, s - satellite", "on_board i s, power_on i", "power_avail s", "power_on i"),
    "calibrate": (
        "s - satellite, i - instrument, d - direction",
        "on_board i s, calibration_target i d, pointing s d, power_on i",
        "calibrated i",
        "",
    ),
    "take_image": (
        "s - satellite, d - direction, i - instrument, m - mode",
        "calibrated i, on_board i s, supports i m, power_on i, pointing s d",
        "have_image d m",
        "",
    ),
}


def generate(size=SIZE, seed=1):
    return GEN.generate(size, random.Random(seed))


def facts(spec, predicate, where="init"):
    return [tuple(f.strip("()").split()[1:]) for f in getattr(spec, where) if f.strip("()").split()[0] == predicate]


def number(name):
    return int(re.search(r"\d+$", name).group())


def test_domain_file_matches_the_documented_domain():
    lifted = read_strings(domain_file("satellite").read_text(), GEN.render(generate()))
    assert lifted.domain_name == "satellite"
    assert set(lifted.supertypes) == set(TYPES) | {"object"}
    assert all(lifted.supertypes[t] == (t, "object") for t in TYPES)
    assert lifted.predicates == PREDICATES
    assert set(lifted.schemas) == set(ACTIONS)
    for name, spec in ACTIONS.items():
        assert actual_schema(lifted.schemas[name]) == expected_schema(spec), name


@pytest.mark.parametrize("seed", range(1, 11))
def test_objects_follow_the_size_and_naming(seed):
    spec = generate(seed=seed)
    assert spec.name == "prob-6-3-7-7-4"
    of = lambda t: sorted((o for o, ty in spec.objects.items() if ty == t), key=number)  # noqa: E731
    assert of("satellite") == [f"satellite{k}" for k in range(6)]
    assert [number(m) for m in of("mode")] == list(range(7))
    assert all(re.fullmatch(r"(infrared|image|spectrograph|thermograph)\d+", m) for m in of("mode"))
    directions = of("direction")
    assert [number(d) for d in directions] == list(range(7 + 4))
    assert all(re.fullmatch(r"(star|groundstation)\d+", d) for d in directions[:7])
    assert all(re.fullmatch(r"(star|phenomenon|planet)\d+", d) for d in directions[7:])
    instruments = of("instrument")
    assert [number(i) for i in instruments] == list(range(len(instruments)))
    assert 6 <= len(instruments) <= 6 * 3


@pytest.mark.parametrize("seed", range(1, 11))
def test_initial_state_structure(seed):
    spec = generate(seed=seed)
    satellites = [o for o, t in spec.objects.items() if t == "satellite"]
    instruments = [o for o, t in spec.objects.items() if t == "instrument"]
    targets = {o for o, t in spec.objects.items() if t == "direction" and number(o) < 7}
    modes = {o for o, t in spec.objects.items() if t == "mode"}
    assert {f.strip("()").split()[0] for f in spec.init} == {
        "on_board",
        "supports",
        "calibration_target",
        "power_avail",
        "pointing",
    }  # nothing on or calibrated
    board = dict(facts(spec, "on_board"))
    assert sorted(board) == sorted(instruments)  # every instrument on exactly one satellite
    per_satellite = defaultdict(list)
    for instrument, satellite in board.items():
        per_satellite[satellite].append(number(instrument))
    assert set(per_satellite) == set(satellites)
    assert all(1 <= len(ids) <= 3 for ids in per_satellite.values())
    # instruments are numbered globally, satellite by satellite
    ordered = [i for s in sorted(satellites, key=number) for i in sorted(per_satellite[s])]
    assert ordered == list(range(len(instruments)))
    assert sorted(s for (s,) in facts(spec, "power_avail")) == sorted(satellites)
    assert sorted(s for s, _ in facts(spec, "pointing")) == sorted(satellites)
    calibration = defaultdict(set)
    for instrument, direction in facts(spec, "calibration_target"):
        calibration[instrument].add(direction)
    assert set(calibration) == set(instruments)
    assert all(ds <= targets and 1 <= len(ds) <= max(1, 7 // 3) for ds in calibration.values())
    supports = defaultdict(set)
    for instrument, mode in facts(spec, "supports"):
        supports[instrument].add(mode)
    assert set(supports) == set(instruments)
    assert set().union(*supports.values()) == modes  # every mode is supported somewhere


@pytest.mark.parametrize("seed", range(1, 11))
def test_goal_structure(seed):
    spec = generate(seed=seed)
    kinds = [g.strip("()").split()[0] for g in spec.goal]
    assert set(kinds) <= {"pointing", "have_image"}
    assert kinds == sorted(kinds, key=lambda k: k != "pointing")  # pointing goals come first
    pointing = facts(spec, "pointing", "goal")
    assert len({s for s, _ in pointing}) == len(pointing)
    wanted = defaultdict(list)
    for direction, mode in facts(spec, "have_image", "goal"):
        wanted[direction].append(mode)
    observations = {o for o, t in spec.objects.items() if t == "direction" and number(o) >= 7}
    assert set(wanted) == observations  # every observation is interesting
    assert all(1 <= len(ms) == len(set(ms)) <= max(1, 7 // 3) for ms in wanted.values())


def test_goal_pointing_occurs_and_seeds_differ():
    specs = [generate(seed=s) for s in range(1, 11)]
    assert any(facts(spec, "pointing", "goal") for spec in specs)
    assert len({GEN.render(spec) for spec in specs}) == 10


def test_smallest_instance():
    spec = generate({"satellites": 1, "instruments": 1, "modes": 1, "targets": 1, "observations": 1})
    assert spec.name == "prob-1-1-1-1-1"
    assert sorted(spec.objects.values()) == ["direction", "direction", "instrument", "mode", "satellite"]
    (mode,) = [o for o, t in spec.objects.items() if t == "mode"]
    (target,) = [o for o, t in spec.objects.items() if t == "direction" and number(o) == 0]
    (observation,) = [o for o, t in spec.objects.items() if t == "direction" and number(o) == 1]
    assert f"(supports instrument0 {mode})" in spec.init
    assert f"(calibration_target instrument0 {target})" in spec.init
    assert spec.goal[-1] == f"(have_image {observation} {mode})"


@pytest.mark.parametrize("param", list(SIZE))
def test_impossible_sizes_are_rejected(param):
    with pytest.raises(ValueError):
        generate(SIZE | {param: 0})
