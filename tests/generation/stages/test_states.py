"""The states stage: stored plans are plans, and every stored state is reached by its path."""

from __future__ import annotations

import json

from acpgen.data import DOMAINS_DIR
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.semantics import execute, is_plan


def test_stored_plans_are_valid_and_states_are_reached_by_their_paths(reference_run):
    root = reference_run / "ferry"
    domain = (DOMAINS_DIR / "ferry" / "domain.pddl").read_text()
    tasks = {}
    for plan_file in sorted((root / "plans").glob("*.json")):
        record = json.loads(plan_file.read_text())
        task = tasks[plan_file.stem] = GroundTask.from_strings(
            domain, (root / "problems" / f"{plan_file.stem}.pddl").read_text()
        )
        assert record["plans"] and all(is_plan(task, task.init, p["actions"]) for p in record["plans"])
        assert all(p["cost"] == len(p["actions"]) for p in record["plans"])
    states = [json.loads(line) for line in (root / "states.jsonl").read_text().splitlines()]
    assert len({s["id"] for s in states}) == len(states)
    for state in states:
        task = tasks[state["problem"]]
        run = execute(task, task.init, state["path"])
        assert run.applicable
        assert task.state_atoms(run.state & ~task.static_mask) == state["atoms"]
        assert state["applicable"] == len(task.applicable(run.state))
    keys = {(s["problem"], tuple(s["atoms"])) for s in states}
    assert len(keys) == len(states)  # de-duplicated per problem
