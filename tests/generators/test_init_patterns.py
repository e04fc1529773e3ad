"""The initial-state patterns of logistics, depots, rovers, goldminer, satellite and swap on small hand-written
problems: each instance's facts are written out here by hand, read back into the pattern's names, and a
changed instance is refused."""

from __future__ import annotations

import pickle
import random

import pytest

from acpgen.generators import get_generator


def _pattern(domain: str, name: str):
    return next(p for p in get_generator(domain).patterns if p.part == "init" and p.name == name)


LOGISTICS = {"c0": "city", "c1": "city", "t0": "truck", "t1": "truck", "a0": "airplane", "p0": "package"}
LOGISTICS |= {"l0-0": "airport", "l0-1": "location", "l1-0": "airport", "p1": "package"}
LOGISTICS_STATIC = frozenset({"(in-city l0-0 c0)", "(in-city l0-1 c0)", "(in-city l1-0 c1)"})
TRUCKS_HOME = {"(at t0 l0-0)", "(at t1 l1-0)"}
DEPOTS = {"depot0": "depot", "distributor0": "distributor", "truck0": "truck", "hoist0": "hoist"}
DEPOTS |= {"pallet0": "pallet", "pallet1": "pallet", "crate0": "crate", "crate1": "crate"}
GATHERED = {"(at truck0 distributor0)", "(at hoist0 distributor0)", "(at pallet0 distributor0)"}
GATHERED |= {"(at pallet1 distributor0)", "(available hoist0)"}
ROVERS = {"rover0": "rover", "rover1": "rover", "store0": "store", "store1": "store", "camera0": "camera"}
ROVERS |= {"waypoint0": "waypoint", "waypoint1": "waypoint", "general": "lander", "objective0": "objective"}
ROVERS_STATIC = frozenset(
    {"(can_traverse rover0 waypoint0 waypoint1)", "(can_traverse rover1 waypoint1 waypoint0)"}
    | {"(on_board camera0 rover1)", "(store_of store0 rover0)", "(store_of store1 rover1)"}
)
FRESH = {"(at rover0 waypoint1)", "(at rover1 waypoint1)", "(available rover0)", "(available rover1)"}
FRESH |= {"(at_soil_sample waypoint0)", "(at_soil_sample waypoint1)", "(at_rock_sample waypoint0)"}
FRESH |= {"(at_rock_sample waypoint1)", "(channel_free general)"}
MINE = {"f0-0f": "loc", "f0-1f": "loc", "f1-0f": "loc", "f1-1f": "loc"}
MINE_STATIC = frozenset({"(bomb-at f1-0f)", "(connected f0-0f f0-1f)"})
AT_SUPPLY = {"(arm-empty)", "(robot-at f1-0f)", "(laser-at f1-0f)", "(clear f1-0f)", "(gold-at f0-1f)"}
SATELLITES = {"sat0": "satellite", "sat1": "satellite", "ins0": "instrument", "ins1": "instrument"}
SATELLITES |= {"ins2": "instrument", "star0": "direction", "planet1": "direction", "image0": "mode"}
SATELLITE_STATIC = frozenset({"(on_board ins2 sat0)", "(on_board ins0 sat1)", "(on_board ins1 sat1)"})
SWAP = {"bob": "agent", "alice": "agent", "carol": "agent", "kite": "role", "drum": "role", "lego": "role"}

CASES = [
    ("logistics", "trucks-home", LOGISTICS, LOGISTICS_STATIC, {"airport": "l1-0", "loc": "l0-1"},
     TRUCKS_HOME | {"(at a0 l1-0)", "(at p0 l0-1)", "(at p1 l0-1)"}),
    ("logistics", "loaded-airplane", LOGISTICS, LOGISTICS_STATIC, {"airport": "l0-0", "plane": "a0"},
     TRUCKS_HOME | {"(at a0 l0-0)", "(in p0 a0)", "(in p1 a0)"}),
    ("logistics", "loaded-truck", LOGISTICS, LOGISTICS_STATIC, {"airport": "l0-0", "truck": "t1"},
     TRUCKS_HOME | {"(at a0 l0-0)", "(in p0 t1)", "(in p1 t1)"}),
    ("depots", "crates-in-truck", DEPOTS, frozenset(), {"place": "distributor0", "truck": "truck0"},
     GATHERED | {"(in crate0 truck0)", "(in crate1 truck0)", "(clear pallet0)", "(clear pallet1)"}),
    ("depots", "one-stack", DEPOTS, frozenset(), {"place": "distributor0", "pallet": "pallet1"},
     GATHERED | {"(at crate0 distributor0)", "(at crate1 distributor0)", "(on crate0 pallet1)",
                 "(on crate1 crate0)", "(clear crate1)", "(clear pallet0)"}),
    ("depots", "own-pallet", DEPOTS, frozenset(), {"place": "distributor0"},
     GATHERED | {"(at crate0 distributor0)", "(at crate1 distributor0)", "(on crate0 pallet0)",
                 "(on crate1 pallet1)", "(clear crate0)", "(clear crate1)"}),
    ("rovers", "ready", ROVERS, ROVERS_STATIC, {"waypoint": "waypoint1"},
     FRESH | {"(empty store0)", "(empty store1)"}),
    ("rovers", "calibrated", ROVERS, ROVERS_STATIC, {"waypoint": "waypoint1"},
     FRESH | {"(empty store0)", "(empty store1)", "(calibrated camera0 rover1)"}),
    ("rovers", "stores-full", ROVERS, ROVERS_STATIC, {"waypoint": "waypoint1"},
     FRESH | {"(full store0)", "(full store1)"}),
    ("goldminer", "soft-rock", MINE, MINE_STATIC, {"gold": "f0-1f"},
     AT_SUPPLY | {"(soft-rock-at f0-0f)", "(soft-rock-at f0-1f)", "(soft-rock-at f1-1f)"}),
    ("goldminer", "hard-rock", MINE, MINE_STATIC, {"gold": "f0-1f"},
     AT_SUPPLY | {"(hard-rock-at f0-0f)", "(soft-rock-at f0-1f)", "(hard-rock-at f1-1f)"}),
    ("goldminer", "cleared", MINE, MINE_STATIC, {"gold": "f0-1f"},
     AT_SUPPLY | {"(clear f0-0f)", "(clear f0-1f)", "(clear f1-1f)"}),
    ("satellite", "idle", SATELLITES, SATELLITE_STATIC, {"direction": "star0"},
     {"(pointing sat0 star0)", "(pointing sat1 star0)", "(power_avail sat0)", "(power_avail sat1)"}),
    ("satellite", "first-on", SATELLITES, SATELLITE_STATIC, {"direction": "star0"},
     {"(pointing sat0 star0)", "(pointing sat1 star0)", "(power_on ins2)", "(power_on ins0)"}),
    ("satellite", "first-calibrated", SATELLITES, SATELLITE_STATIC, {"direction": "planet1"},
     {"(pointing sat0 planet1)", "(pointing sat1 planet1)", "(power_on ins2)", "(power_on ins0)",
      "(calibrated ins2)", "(calibrated ins0)"}),
    ("swap", "roles-sorted", SWAP, frozenset(), {},
     {"(assigned alice drum)", "(assigned bob kite)", "(assigned carol lego)"}),
    ("swap", "roles-reversed", SWAP, frozenset(), {},
     {"(assigned alice lego)", "(assigned bob kite)", "(assigned carol drum)"}),
    ("swap", "roles-shifted", SWAP, frozenset(), {},
     {"(assigned alice kite)", "(assigned bob lego)", "(assigned carol drum)"}),
]  # fmt: skip


@pytest.mark.parametrize("domain,name,objects,static,names,facts", CASES, ids=lambda x: x if isinstance(x, str) else "")
def test_a_hand_written_instance_reads_back_into_its_names(domain, name, objects, static, names, facts):
    pattern = _pattern(domain, name)
    assert pattern.recognise(objects, frozenset(facts), static) == names
    for fact in sorted(facts):  # any fact missing: no instance
        assert pattern.recognise(objects, frozenset(facts) - {fact}, static) is None
    assert pattern.recognise(objects, frozenset(facts) | {"(handempty)"}, static) is None


@pytest.mark.parametrize("domain,name,objects,static,names,facts", CASES, ids=lambda x: x if isinstance(x, str) else "")
def test_build_gives_an_instance_that_reads_back_and_pickles(domain, name, objects, static, names, facts):
    pattern = pickle.loads(pickle.dumps(_pattern(domain, name)))
    made = pattern.make(objects, random.Random(2), static)
    assert made is not None
    assert pattern.recognise(objects, made[0], static) == made[1]
    assert set(made[1]) == set(names)


def test_where_the_problem_has_no_such_instance_build_gives_none():
    one_city = {k: v for k, v in LOGISTICS.items() if k not in ("c1", "l1-0")}
    assert _pattern("logistics", "trucks-home").make(one_city, random.Random(0), LOGISTICS_STATIC) is None
    one_pallet = {k: v for k, v in DEPOTS.items() if k != "pallet1"}
    assert _pattern("depots", "own-pallet").make(one_pallet, random.Random(0), frozenset()) is None
    assert _pattern("goldminer", "cleared").make(MINE, random.Random(0), frozenset()) is None  # no bomb supply
    lonely = {**SATELLITES, "sat2": "satellite"}
    assert _pattern("satellite", "first-on").make(lonely, random.Random(0), SATELLITE_STATIC) is None
    assert _pattern("swap", "roles-sorted").make({**SWAP, "yoyo": "role"}, random.Random(0), frozenset()) is None


def test_rovers_are_placed_where_every_rover_can_drive():
    """Of the waypoints, only waypoint0 and waypoint1 lie on both rovers' links: build never draws waypoint2."""
    objects = {**ROVERS, "waypoint2": "waypoint"}
    drawn = {
        _pattern("rovers", "ready").make(objects, random.Random(s), ROVERS_STATIC)[1]["waypoint"] for s in range(20)
    }
    assert drawn == {"waypoint0", "waypoint1"}
