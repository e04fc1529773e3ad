"""Small problems of every domain and the rules of their templates' ramification variants, shared by the tests of
the variants (tests/nl) and of the problem reader (tests/pddl)."""

from __future__ import annotations

from conftest import generated_problem

from acpgen.nl.template import load_template
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.ramifications import parse_rules

SIZES = {
    "blocksworld": {"blocks": 3},
    "ferry": {"locations": 2, "cars": 2},
    "grippers": {"robots": 1, "rooms": 2, "balls": 3},
    "logistics": {"cities": 2, "city_size": 2, "packages": 2, "airplanes": 1},
    "visitall": {"x": 3, "y": 3, "holes": 0},
    "satellite": {"satellites": 1, "instruments": 2, "modes": 2, "targets": 2, "observations": 1},
    "swap": {"agents": 3, "index": 0},
    "depots": {"depots": 1, "distributors": 1, "trucks": 1, "pallets": 2, "hoists": 2, "crates": 2},
    "rovers": {"rovers": 1, "waypoints": 3, "objectives": 1, "cameras": 1, "goals": 2},
    "grid": {"x": 3, "y": 2, "shapes": 1, "keys": 1, "locks": 1, "goal_percent": 100},
    "floortile": {"rows": 2, "columns": 2, "robots": 2},
    "goldminer": {"rows": 3, "cols": 3},
    "alfworld": {"receptacles": 4, "objects": 3, "goal": 5},
}


def base_task(domain: str, seed: int = 5) -> GroundTask:
    return generated_problem(domain, seed, SIZES[domain])


def rules_of(domain: str):
    template = load_template(domain)
    return parse_rules(template.ramifications, template.path)
