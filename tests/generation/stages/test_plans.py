"""The plans stage: diverse planning is the fallback when K* finds nothing."""

from __future__ import annotations

from conftest import SMALL

from acpgen.config import load_config
from acpgen.generation.stages import StageContext, plans
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.semantics import is_plan
from acpgen.planners import PlannerResult, Planners, Status


def test_diverse_planning_is_the_fallback_when_kstar_finds_nothing(reference_run, tmp_path):
    class KstarTimesOut(Planners):
        def top_quality(self, *args, **kwargs):
            return PlannerResult(Status.TIMEOUT, message="simulated K* timeout")

    config = load_config(SMALL)
    ctx = StageContext("ferry", config, reference_run, KstarTimesOut())
    record = plans.plan_problem(ctx, reference_run / "ferry/problems/p002.pddl")
    assert record["method"] == "diverse" and record["plans"] and record["optimal_cost"] is None
    task = GroundTask.from_strings(ctx.domain_text, (reference_run / "ferry/problems/p002.pddl").read_text())
    assert all(is_plan(task, task.init, p["actions"]) for p in record["plans"])
