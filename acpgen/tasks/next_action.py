"""nexta: an applicable action that brings the goal closer (decreases the optimal cost).

Stored ``yes`` actions score 1 and ``no`` actions 0 unless ``--recheck`` is given. Otherwise the action must be
applicable and h*(s') < h*(s), with h*(s) the stored ``opt`` (recomputed under ``--recheck`` or when missing: by a
plan of acp's greedy search as long as acp's LM-cut estimate of the state, else by the oracle; a re-proof, a second
opinion, asks the oracle alone) and h*(s') from the oracle (exploration, a plan of h*(s) - 1 steps found by acp's
greedy search or, re-proving, by the first planner configuration and executed by acp, or an optimal planner). An
action whose successor's LM-cut estimate (acp's own, a lower bound on h*(s')) is at least h*(s), or at least the
length of a plan from s, does not bring the goal closer: no search is needed.
"""

from __future__ import annotations

import random
from typing import Any

from acpgen.config import QAConfig
from acpgen.nl.answers import parse_action
from acpgen.proofs.oracle import Method
from acpgen.tasks.base import (
    OK,
    UNPROVEN,
    WRONG,
    ActionCase,
    Check,
    QAItem,
    RecordContext,
    Task,
    Verdict,
    check_each,
    goal_ahead,
    in_words,
    lowered,
)


class NextAction(Task):
    name = "nexta"
    gen_group = "goal_closer_gen"
    description = "an action that decreases the optimal cost"
    context_parts = ("goal", "actions")
    instruction = "Write the action in parentheses, like (name arg1 arg2). Give only the action."
    needs_optimum = True

    def accepts(self, state: dict[str, Any]) -> bool:
        return goal_ahead(state)

    def parse(self, response: str) -> str:
        return parse_action(response)

    def read(self, ctx: RecordContext, response: str) -> str:
        return in_words(parse_action, response, lambda section: ctx.reader.first(section, atoms=False))

    def score(self, ctx: RecordContext, answer: str) -> Verdict:
        action = ctx.task.action(answer)
        if action is None:
            return Verdict.wrong(f"unknown_action: {answer}")
        stored = ctx.answer
        if not ctx.recheck:
            if answer in set(lowered(stored["yes"])):
                return Verdict.correct("stored optimal action")
            if answer in set(lowered(stored["no"])):
                return Verdict.wrong("stored non-optimal action")
        if not action.applicable(ctx.task.init):
            return Verdict.wrong("not applicable")
        proven = None  # h*(s) when proven here: then h*(s') >= h*(s) - 1 is proven too
        after = action.apply(ctx.task.init)
        if stored.get("opt") not in (None, "") and not ctx.recheck:
            opt = int(stored["opt"])
        else:
            upper = None if ctx.oracle.second_opinion else ctx.oracle.plan_length()
            if upper is not None and ctx.oracle.cost_at_least(after, upper):  # h*(s) <= upper <= h*(s')
                return Verdict.wrong(f"h* at most {upper} (a plan) -> at least {upper} ({Method.LMCUT})")
            if upper is not None and ctx.oracle.cost_at_least(ctx.task.init, upper):  # upper <= h*(s) <= upper
                opt = proven = upper
            else:
                current = ctx.oracle.optimal_cost()
                if not current.decided:
                    return Verdict.undecided(current.detail)
                if current.cost is None:
                    return Verdict.wrong("no plan exists from the state")
                opt = proven = current.cost
        if ctx.oracle.cost_at_least(after, opt):  # no plan shorter than from the state: proven without a search
            return Verdict.wrong(f"h* {opt} -> at least {opt} ({Method.LMCUT})")
        successor = ctx.oracle.optimal_cost(after, None if proven is None else proven - 1)
        if not successor.decided:
            return Verdict.undecided(successor.detail)
        if successor.cost is not None and successor.cost < opt:
            return Verdict.correct(f"h* {opt} -> {successor.cost} ({successor.method})")
        return Verdict.wrong(
            f"h* {opt} -> {successor.cost if successor.cost is not None else 'dead end'} ({successor.method})"
        )

    def validate(self, ctx: RecordContext) -> Check:
        stored = ctx.answer
        groups = {k: set(lowered(stored[k])) for k in ("yes", "no", "maybe")}
        applicable = {a.name for a in ctx.task.applicable(ctx.task.init)}
        if set().union(*groups.values()) != applicable or sum(map(len, groups.values())) != len(applicable):
            return Check(WRONG, "yes, no and maybe do not partition the applicable actions")
        current = ctx.oracle.optimal_cost()
        if not current.decided:
            return Check(UNPROVEN, f"optimal cost: {current.detail}")
        if stored.get("opt") not in (None, "") and current.cost != int(stored["opt"]):
            return Check(WRONG, f"optimal cost is {current.cost}, stored {stored['opt']}")
        check = check_each(ctx, self.score, sorted(groups["yes"]), expect=1.0)
        return check if check.verdict != OK else check_each(ctx, self.score, sorted(groups["no"]), expect=0.0)

    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        """Applicable actions split by whether they decrease the optimal cost; opt = h*(state)."""
        task = ctx.task
        applicable = task.applicable(task.init)
        if task.is_goal(task.init) or not applicable or len(applicable) > settings.max_applicable:
            return None
        current = ctx.oracle.optimal_cost()
        if not current.decided or current.cost is None:
            return None
        groups: dict[str, list[str]] = {"yes": [], "no": [], "maybe": []}
        for action in applicable:
            successor = (
                ctx.oracle.optimal_cost(action.apply(task.init), current.cost - 1)
                if ctx.oracle.planner_calls <= settings.max_planner_calls
                else None
            )
            if successor is None or not successor.decided:
                groups["maybe"].append(action.name)
            elif successor.cost is not None and successor.cost < current.cost:
                groups["yes"].append(action.name)
            else:
                groups["no"].append(action.name)
        return {"answer": {**groups, "opt": str(current.cost)}} if groups["yes"] else None

    def to_responses(self, record: dict[str, Any]) -> list[str]:
        return list(record["answer"]["yes"])

    def export_answer(self, answer: Any, case: ActionCase) -> Any:
        # the reference key order; action names in the domain's case
        out = {k: [case(a) for a in answer[k]] for k in ("yes", "no", "maybe") if k in answer}
        return out | ({"opt": answer["opt"]} if "opt" in answer else {})


TASK = NextAction()
