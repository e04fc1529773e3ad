"""Stage 3, states: problems + plans -> OUT/D/states/<problem>.jsonl and OUT/D/states.jsonl; the unsolvable
problems' states (their initial state and random rollouts) -> OUT/D/unsolvable/states.jsonl.

The states along every stored plan, plus seeded random rollouts from each of them, de-duplicated
per problem and capped at ``max_per_problem`` (a seeded, order-preserving sample). Each state is
kept with its problem, the action path that reaches it from the initial state, how it was found,
and what later stages select on: the number of applicable actions, whether it is a goal state,
whether the goal is delete-relaxed reachable, and for plan states the plan's remaining length.
A problem's file is kept while its stamp (problem and plan files, states settings, seed, PDDL
domain, code) is unchanged.
"""

from __future__ import annotations

import dataclasses
import json
from functools import partial

from acpgen.artefacts import atomic_write_text, jsonl_text
from acpgen.errors import PddlError
from acpgen.generation.stages.base import StageContext, StageReport, StageWork, Unit
from acpgen.generation.stamps import digest_of, input_digests
from acpgen.pddl.explore import random_walk
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.semantics import relaxed_goal_reachable


def _describe(task: GroundTask, state: int) -> dict:
    fluent = state & ~task.static_mask
    return {
        "atoms": task.state_atoms(fluent),
        "applicable": len(task.applicable(state)),
        "goal": task.is_goal(state),
        "relaxed_goal_reachable": relaxed_goal_reachable(task, state),
    }


def sample_states(ctx: StageContext, problem: str) -> list[dict]:
    """The de-duplicated state records of one problem."""
    settings = ctx.config.states
    task = GroundTask.from_strings(ctx.domain_text, (ctx.problems_dir / f"{problem}.pddl").read_text(), problem)
    plans = json.loads((ctx.plans_dir / f"{problem}.json").read_text())["plans"]
    rng = ctx.rng("states", problem)
    found: dict[int, dict] = {}

    def keep(state: int, path: list[str], origin: dict) -> None:
        if state not in found:
            found[state] = {"path": list(path), **origin}

    anchors = []
    for j, plan in enumerate(plans):
        state = task.init
        path: list[str] = []
        for t in range(len(plan["actions"]) + 1):
            keep(state, path, {"source": "plan", "plan": j, "step": t, "plan_cost_to_go": len(plan["actions"]) - t})
            anchors.append((state, list(path)))
            if t < len(plan["actions"]):
                action = task.action(plan["actions"][t])
                if action is None:
                    raise PddlError(
                        f"{ctx.plans_dir / problem}.json: plan {j} step {t} names no action of the problem "
                        f"({plan['actions'][t]}); run again with --force plans"
                    )
                state, path = action.apply(state), path + [action.name]
    for state0, path0 in anchors:
        for _ in range(settings.rollouts_per_state):
            path = list(path0)
            for action, state in random_walk(task, state0, rng, settings.rollout_length):
                path = path + [action.name]
                keep(state, path, {"source": "rollout"})
    states = [(state, origin) for state, origin in found.items() if _at_distance(origin, settings.goal_distance)]
    if len(states) > settings.max_per_problem:
        chosen = sorted(rng.sample(range(len(states)), settings.max_per_problem))
        states = [states[i] for i in chosen]
    return [
        {"id": f"{problem}-s{k:04d}", "problem": problem, **origin, **_describe(task, state)}
        for k, (state, origin) in enumerate(states)
    ]


def sample_unsolvable_states(ctx: StageContext, problem: str) -> list[dict]:
    """The de-duplicated states of an unsolvable problem (``unsolvable/<problem>.pddl``): its initial state and the
    states of seeded random rollouts from it (``8 x rollouts_per_state`` of ``rollout_length`` steps, at least 8);
    every one of them is unsolvable too (a plan from one would make a plan from the initial state), those where no
    action applies left out (a walk ends there). Capped at
    ``max_per_problem``, as a solvable problem's."""
    settings = ctx.config.states
    text = (ctx.unsolvable_dir / f"{problem}.pddl").read_text()
    task = GroundTask.from_strings(ctx.domain_text, text, problem)
    rng = ctx.rng("states", problem)
    found: dict[int, dict] = {task.init: {"path": [], "source": "init"}}
    for _ in range(max(8, 8 * settings.rollouts_per_state)):
        path: list[str] = []
        for action, state in random_walk(task, task.init, rng, max(1, settings.rollout_length)):
            if not task.applicable(state):
                break  # a dead end (alfworld after a validation): no question worth asking about it
            path = [*path, action.name]
            found.setdefault(state, {"path": list(path), "source": "rollout"})
    states = list(found.items())
    if len(states) > settings.max_per_problem:
        chosen = sorted(rng.sample(range(len(states)), settings.max_per_problem))
        states = [states[i] for i in chosen]
    return [
        {"id": f"{problem}-s{k:04d}", "problem": problem, **origin, "unsolvable": True, **_describe(task, state)}
        for k, (state, origin) in enumerate(states)
    ]


def _at_distance(origin: dict, distance: tuple[int, int | None] | None) -> bool:
    """Whether a state is kept under ``states.goal_distance``: a plan state whose remaining plan length
    lies in the range (every state when there is no range; rollout states have no known distance)."""
    if distance is None:
        return True
    low, high = distance
    togo = origin.get("plan_cost_to_go")
    return togo is not None and low <= togo and (high is None or togo <= high)


def stamp(ctx: StageContext, problem: str) -> dict:
    """What the states file of ``problem`` is made from."""
    config = {"seed": ctx.config.seed, "states": dataclasses.asdict(ctx.config.states)}
    inputs = input_digests(ctx.root, [ctx.problems_dir / f"{problem}.pddl", ctx.plans_dir / f"{problem}.json"])
    return {**ctx.base_stamp(), "config": digest_of(config), "inputs": inputs}


def unsolvable_stamp(ctx: StageContext, problem: str) -> dict:
    """What the states file of the unsolvable ``problem`` is made from."""
    config = {"seed": ctx.config.seed, "states": dataclasses.asdict(ctx.config.states)}
    inputs = input_digests(ctx.root, [ctx.unsolvable_dir / f"{problem}.pddl"])
    return {**ctx.base_stamp(), "config": digest_of(config), "inputs": inputs}


def prepare(ctx: StageContext) -> StageWork:
    """One unit per problem whose states file is missing or stale; ``finish`` joins the files (the unsolvable
    problems' apart, in ``unsolvable/states.jsonl``)."""
    work = StageWork(StageReport("states", ctx.domain))
    report = work.report
    problems = sorted(p.stem for p in ctx.plans_dir.glob("*.json"))
    unsolvable = sorted(p.stem for p in ctx.unsolvable_dir.glob("u*.pddl"))
    book = work.keep(ctx.stamp_book("states"))
    made_from = {p: stamp(ctx, p) for p in problems} | {p: unsolvable_stamp(ctx, p) for p in unsolvable}
    current: set[str] = set()  # problems whose states file is up to date (a failed unit's is not)
    folders = {p: ctx.states_dir for p in problems} | {p: ctx.unsolvable_dir / "states" for p in unsolvable}

    def commit(problem: str, states: list[dict]) -> None:
        target = folders[problem] / f"{problem}.jsonl"
        atomic_write_text(target, jsonl_text(states), durable=False)
        book.record(target.name, target, made_from[problem])
        current.add(problem)
        report.done += 1

    for problem in [*problems, *unsolvable]:
        target = folders[problem] / f"{problem}.jsonl"
        if book.fresh(target.name, target, made_from[problem]):
            current.add(problem)
            report.skipped += 1
        else:
            sample = sample_states if problem in problems else sample_unsolvable_states
            work.units.append(
                Unit(f"{ctx.domain}/states/{problem}", sample, (ctx, problem), partial(commit, problem), target)
            )

    def finish() -> None:
        combined = "".join((ctx.states_dir / f"{p}.jsonl").read_text() for p in problems if p in current)
        atomic_write_text(ctx.states_file, combined, durable=False)  # made again by every run
        report.items = combined.count("\n")
        if unsolvable:
            apart = "".join((folders[p] / f"{p}.jsonl").read_text() for p in unsolvable if p in current)
            atomic_write_text(ctx.unsolvable_dir / "states.jsonl", apart, durable=False)
            report.items += apart.count("\n")

    work.finish = finish
    return work
