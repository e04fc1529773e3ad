"""optplan: write a shortest plan (PlanBench's cost-optimal task).

Generated, read and judged as the plan task (:mod:`acpgen.tasks.plan`, whose records and score row
fields it shares); score 1 only for a plan whose cost equals the record's proven optimal cost. When
that cost is unknown (a record without ``optimal_cost`` whose optimum the planners could not
decide), a valid plan is ``undecided``, never a silent 0; an invalid one still scores 0. On a record from whose
state no plan exists (``"solvable": false``) the answer "no plan exists" scores 1 and a plan 0, as in the plan
task.
"""

from __future__ import annotations

from acpgen.nl.plan_steps import NoPlan
from acpgen.proofs.plans import Step, judge
from acpgen.schema import is_unsolvable
from acpgen.tasks.base import SCORED, UNDECIDED, RecordContext, Verdict
from acpgen.tasks.plan import PlanGeneration, plan_details, score_no_plan, score_plan_without_goal


class OptimalPlan(PlanGeneration):
    name = "optplan"
    gen_group = "optimal_plan_generation_gen"
    description = "a shortest plan (score 1 only at the optimal cost)"
    needs_optimum = True

    def score(self, ctx: RecordContext, answer: list[Step]) -> Verdict:
        if isinstance(answer, NoPlan):
            return score_no_plan(ctx)
        run = judge(ctx.task, answer)
        if is_unsolvable(ctx.record):
            verdict = score_plan_without_goal(ctx, answer, run)
            if verdict is not None:
                return verdict
        details, why = plan_details(ctx, run)
        if details["optimal"] is None:
            return Verdict(0.0, UNDECIDED, f"a plan of cost {run.length}; {why}", details)
        if details["optimal"]:
            return Verdict(1.0, SCORED, f"an optimal plan (cost {run.length})", details)
        reason = run.message if not run.is_plan else f"a plan of cost {run.length}, optimal {details['optimal_cost']}"
        return Verdict(0.0, SCORED, reason, details)


TASK = OptimalPlan()
