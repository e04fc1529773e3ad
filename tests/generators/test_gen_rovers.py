"""rovers: structure of generated problems, derived from the domain's rules."""

from __future__ import annotations

import random
import re

import pytest

from acpgen.generators import domain_file, get_generator
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask

GEN = get_generator("rovers")
KEYS = ("rovers", "waypoints", "objectives", "cameras", "goals")
SIZES = [(2, 3, 2, 2, 3), (2, 3, 7, 2, 7), (2, 7, 2, 2, 7), (3, 6, 4, 3, 5), (1, 2, 1, 1, 1)]


def atoms(spec, predicate):
    return [tuple(a[1:-1].split()[1:]) for a in spec.init if a[1:-1].split()[0] == predicate]


def typed(spec, type_name):
    return sorted(o for o, t in spec.objects.items() if t == type_name)


def component(edges: set, start: str) -> set:
    reached, stack = {start}, [start]
    while stack:
        node = stack.pop()
        for a, b in edges:
            if a == node and b not in reached:
                reached.add(b)
                stack.append(b)
    return reached


@pytest.mark.parametrize("numbers", SIZES)
def test_instance_structure_makes_every_goal_reachable(numbers):
    size = dict(zip(KEYS, numbers))
    n_rov, n_wp, n_obj, n_cam, n_goal = numbers
    for seed in range(8):
        spec = GEN.generate(size, random.Random(seed))
        assert re.fullmatch(rf"prob-{n_rov}-{n_wp}-{n_obj}-{n_cam}-{n_goal}-\d+", spec.name)
        rovers = [f"rover{i}" for i in range(n_rov)]
        assert typed(spec, "rover") == sorted(rovers)
        assert typed(spec, "store") == sorted(f"store{i}" for i in range(n_rov))
        assert typed(spec, "waypoint") == sorted(f"waypoint{i}" for i in range(n_wp))
        assert typed(spec, "objective") == sorted(f"objective{i}" for i in range(n_obj))
        assert typed(spec, "mode") == ["colour", "high_res", "low_res"] and typed(spec, "lander") == ["general"]
        cameras = typed(spec, "camera")
        assert n_cam <= len(cameras) <= n_cam + n_rov

        visible = set(atoms(spec, "visible"))
        assert all((b, a) in visible and a != b for a, b in visible)
        assert component(visible, "waypoint0") == set(typed(spec, "waypoint"))
        ((_, lander_wp),) = atoms(spec, "at_lander")
        assert atoms(spec, "channel_free") == [("general",)]

        at = dict(atoms(spec, "at"))
        assert sorted(at) == sorted(rovers) and sorted(atoms(spec, "available")) == sorted((r,) for r in rovers)
        assert sorted(atoms(spec, "store_of")) == sorted((f"store{i}", f"rover{i}") for i in range(n_rov))
        assert len(atoms(spec, "empty")) == n_rov and not atoms(spec, "full")
        area = {}
        for r in rovers:
            edges = {(a, b) for rr, a, b in atoms(spec, "can_traverse") if rr == r}
            assert edges <= visible and all((b, a) in edges for a, b in edges)
            area[r] = component(edges, at[r])
            assert {a for a, _ in edges} <= area[r]
            assert len(edges) == 2 * (len(area[r]) - 1), "can_traverse is a tree around the start"
            assert len(area[r]) >= 2
            assert any((w, lander_wp) in visible for w in area[r]), "the rover can see the lander"

        equipped = {
            kind: {r for (r,) in atoms(spec, f"equipped_for_{kind}")}
            for kind in ("soil_analysis", "rock_analysis", "imaging")
        }
        owner = dict(atoms(spec, "on_board"))
        assert sorted(owner) == cameras and set(owner.values()) == equipped["imaging"]
        target = dict(atoms(spec, "calibration_target"))
        assert sorted(target) == cameras
        supports = {c: {m for cc, m in atoms(spec, "supports") if cc == c} for c in cameras}
        assert all(supports.values())
        seen_from = {o: {w for oo, w in atoms(spec, "visible_from") if oo == o} for o in typed(spec, "objective")}
        assert all(seen_from.values())
        for c in cameras:
            assert seen_from[target[c]] & area[owner[c]], "the calibration target is visible from the rover's area"

        assert len(set(spec.goal)) == len(spec.goal) >= 1
        kinds = [g[1:-1].split()[0] for g in spec.goal]
        order = ["communicated_soil_data", "communicated_rock_data", "communicated_image_data"]
        assert kinds == sorted(kinds, key=order.index)
        for g in spec.goal:
            kind, *args = g[1:-1].split()
            if kind == "communicated_image_data":
                o, m = args
                assert any(m in supports[c] and seen_from[o] & area[owner[c]] for c in cameras)
            else:
                sample = "soil" if "soil" in kind else "rock"
                (w,) = args
                assert (w,) in atoms(spec, f"at_{sample}_sample")
                assert any(w in area[r] for r in equipped[f"{sample}_analysis"])


def test_same_seed_same_problem_and_different_seeds_differ():
    size = dict(zip(KEYS, (2, 4, 3, 2, 3)))
    assert GEN.render(GEN.generate(size, random.Random(2))) == GEN.render(GEN.generate(size, random.Random(2)))
    bodies = {GEN.render(GEN.generate(size, random.Random(seed))).split("\n", 1)[1] for seed in range(6)}
    assert len(bodies) > 1


@pytest.mark.parametrize("bad", [(0, 3, 2, 2, 3), (2, 1, 2, 2, 3), (2, 3, 0, 2, 3), (2, 3, 2, 0, 3), (2, 3, 2, 2, 0)])
def test_impossible_sizes_are_rejected(bad):
    with pytest.raises(ValueError):
        GEN.generate(dict(zip(KEYS, bad)), random.Random(0))


@pytest.mark.parametrize("seed", range(4))
def test_tiny_problems_are_solvable_by_exhaustive_search(seed):
    text = GEN.render(GEN.generate(dict(zip(KEYS, (1, 2, 1, 1, 1))), random.Random(seed)))
    task = GroundTask.from_strings(domain_file("rovers").read_text(), text)
    space = explore(task, task.init, 100_000)
    assert space.complete and space.optimal_cost() is not None, "no plan exists"
