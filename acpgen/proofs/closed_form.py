"""Optimal plan lengths in closed form, where a domain's structure gives one: no search at all.

swap: agents trade the roles they hold, two at a time, every agent holding one role and every role held by one
agent. With a goal that gives every agent a role, let sigma map each agent to the agent holding the role it
should hold; sigma is a permutation, the goal holds exactly when it is the identity, and a swap of two agents
composes it with a transposition, which splits one of its cycles in two or joins two in one. The optimal plan
length is therefore the number of agents minus the number of cycles of sigma (fixed points included).

A domain is recognised by its structure, never by its names (an obfuscated copy is recognised; a domain with
one more precondition or effect is not). A state or goal outside the formula's conditions gives None, and the
oracle searches as for any domain. The oracle asks it only for a first opinion: the re-proof of a stored answer
stays with LM-cut and the optimal planners, so the two proofs of an answer come from different procedures.
"""

from __future__ import annotations

from dataclasses import dataclass

from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import Literal, Schema, split_canonical


@dataclass(frozen=True)
class SwapShape:
    """A task of the swap structure with a goal that assigns every agent a distinct role."""

    predicate: str
    agents: frozenset[str]
    roles: frozenset[str]
    goal: dict[str, str]  # agent -> the role it should hold


def swap_shape(task: GroundTask) -> SwapShape | None:
    """The task's swap structure: one action trading the roles of two agents and nothing else, one fluent
    predicate, no derived predicates, and a goal of that predicate alone that gives each agent a distinct role."""
    lifted = task.lifted
    if lifted.axioms or len(lifted.schemas) != 1:
        return None
    (schema,) = lifted.schemas.values()
    predicate = _trade(schema)
    if predicate is None or set(lifted.predicates) - set(lifted.static_predicates) != {predicate}:
        return None
    (agent_type, role_type) = (schema.params[0][1], schema.params[2][1])
    agents, roles = frozenset(lifted.objects_of(agent_type)), frozenset(lifted.objects_of(role_type))
    goal: dict[str, str] = {}
    for lit in lifted.goal:
        if not lit.positive or lit.predicate != predicate or lit.args[0] in goal:
            return None
        goal[lit.args[0]] = lit.args[1]
    if set(goal) != agents or set(goal.values()) != roles or len(agents) != len(roles):
        return None
    return SwapShape(predicate, agents, roles, goal)


def _trade(schema: Schema) -> str | None:
    """The predicate the schema trades, when it is ``(?a1 ?a2 ?r1 ?r2)`` with precondition ``p(a1, r1)``,
    ``p(a2, r2)``, adds ``p(a1, r2)``, ``p(a2, r1)`` and deletes ``p(a1, r1)``, ``p(a2, r2)``: nothing else."""
    if len(schema.params) != 4 or len(schema.precondition) != 1:
        return None
    (a1, agent_1), (a2, agent_2), (r1, role_1), (r2, role_2) = schema.params
    if agent_1 != agent_2 or role_1 != role_2 or agent_1 == role_1:
        return None
    (conjunction,) = schema.precondition
    if not conjunction:
        return None
    p = conjunction[0].predicate

    def atoms(*pairs: tuple[str, str]) -> set[Literal]:
        return {Literal(p, pair) for pair in pairs}

    if (
        set(conjunction) != atoms((a1, r1), (a2, r2))
        or len(conjunction) != 2
        or set(schema.add) != atoms((a1, r2), (a2, r1))
        or set(schema.delete) != atoms((a1, r1), (a2, r2))
    ):
        return None
    return p


def swap_cost(task: GroundTask, shape: SwapShape, state: int) -> int | None:
    """h*(state) by the formula: None when the state does not give every agent exactly one role, each held by
    one agent (then the formula does not apply)."""
    holder: dict[str, str] = {}  # role -> the agent holding it
    role_of: dict[str, str] = {}  # agent -> the role it holds
    for atom in task.atoms.atoms(state):
        predicate, args = split_canonical(atom)
        if predicate != shape.predicate:
            continue
        agent, role = args
        if agent in role_of or role in holder or agent not in shape.agents or role not in shape.roles:
            return None
        role_of[agent], holder[role] = role, agent
    if len(role_of) != len(shape.agents):
        return None
    sigma = {agent: holder[role] for agent, role in shape.goal.items()}
    cycles, seen = 0, set()
    for start in sorted(sigma):
        if start in seen:
            continue
        cycles += 1
        agent = start
        while agent not in seen:
            seen.add(agent)
            agent = sigma[agent]
    return len(sigma) - cycles
