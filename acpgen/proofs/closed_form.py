"""Optimal plan lengths in closed form, where a domain's structure gives one: no search at all.

swap: agents trade the roles they hold, two at a time, every agent holding one role and every role held by one
agent. With a goal that gives every agent a role, let sigma map each agent to the agent holding the role it
should hold; sigma is a permutation, the goal holds exactly when it is the identity, and a swap of two agents
composes it with a transposition, which splits one of its cycles in two or joins two in one. The optimal plan
length is therefore the number of agents minus the number of cycles of sigma (fixed points included).

ferry: one ferry sails between any two distinct locations in one step and carries one car at a time (board,
debark), the goal places cars. A car whose goal location is not its own needs a board, a debark and at least one
sail with it aboard; those sails are its *leg*, one sail straight to its goal in a plan that loses nothing (a sail
on with the car aboard, or a car put down and taken up again, only adds steps: a put-down joins the graph of legs
below at one more place, saving at most one empty sail for three more steps). The sails between legs are empty
ones; the fewest are found on the multigraph of legs, each a directed edge from the car's location to its goal,
with one more edge from a start vertex to where the ferry is. A walk of the ferry from its location is that graph
cut into trails joined by empty sails, and a weakly connected directed multigraph is cut into no fewer than
max(1, sum over its vertices of max(0, out-degree - in-degree)) trails (Euler: add that many edges from the
vertices short of out-going edges to those with too many, walk the Eulerian circuit, take them out again). So
h* = 2 legs + legs + (trails - 1), with trails summed over the weakly connected components. A car on board whose
goal is elsewhere is either carried there first (its leg starts the walk: the start edge leads to its goal, and one
board is saved) or put down where the ferry is and moved as any other car; the cheaper of the two. A car on board
with no goal of its own is put down once another car must board (one step). The recognition and the formula were
checked against breadth-first exploration on every state of spaces of up to four locations and four cars.

A domain is recognised by its structure, never by its names (an obfuscated copy is recognised; a domain with
one more precondition or effect is not). A state or goal outside the formula's conditions gives None, and the
oracle searches as for any domain. The oracle asks it only for a first opinion: the re-proof of a stored answer
stays with LM-cut and the optimal planners, so the two proofs of an answer come from different procedures.
"""

from __future__ import annotations

from collections.abc import Callable
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


@dataclass(frozen=True)
class FerryShape:
    """A task of the ferry structure: the names of its four fluent predicates, its cars and the goal's places."""

    ferry_at: str  # (ferry_at ?l): where the ferry is
    car_at: str  # (car_at ?c ?l): where a car stands
    empty: str  # (empty): nothing on board
    aboard: str  # (aboard ?c): the car on board
    cars: frozenset[str]
    goal: dict[str, str]  # car -> the location it should stand at


def ferry_shape(task: GroundTask) -> FerryShape | None:
    """The task's ferry structure: three actions that sail (between every two distinct locations), board and
    debark (every car at every location) as the module's text says, nothing else changing, no derived predicates,
    and a goal that places cars, each once. Static preconditions (types, ``not-eq``) are allowed; that the ground
    task has every sail, board and debark is checked."""
    lifted = task.lifted
    if lifted.axioms or len(lifted.schemas) != 3:
        return None
    static = lifted.static_predicates
    found: dict[str, tuple[Schema, dict[str, str], dict[str, str]]] = {}
    for schema in lifted.schemas.values():
        role = _ferry_role(schema, static)
        if role is None or role[0] in found:
            return None
        found[role[0]] = (schema, role[1], role[2])
    if set(found) != {"sail", "board", "debark"}:
        return None
    names = found["board"][1]
    if found["sail"][1]["ferry_at"] != names["ferry_at"] or found["debark"][1] != names:
        return None
    if len(set(names.values())) != 4:
        return None
    if set(lifted.predicates) - static != set(names.values()):
        return None
    sail, board, debark = found["sail"], found["board"], found["debark"]
    locations = lifted.objects_of(dict(sail[0].params)[sail[2]["from"]])
    cars = lifted.objects_of(dict(board[0].params)[board[2]["car"]])
    if lifted.objects_of(dict(sail[0].params)[sail[2]["to"]]) != locations:
        return None
    for kind, pairs in (
        (sail, [{"from": x, "to": y} for x in locations for y in locations if x != y]),
        (board, [{"car": c, "loc": x} for c in cars for x in locations]),
        (debark, [{"car": c, "loc": x} for c in cars for x in locations]),
    ):
        if not all(_grounded(task, kind[0], {kind[2][k]: v for k, v in pair.items()}) for pair in pairs):
            return None
    goal: dict[str, str] = {}
    for lit in lifted.goal:
        if not lit.positive or lit.predicate != names["car_at"] or lit.args[0] in goal or lit.args[0] not in cars:
            return None
        goal[lit.args[0]] = lit.args[1]
    if not set(goal.values()) <= set(locations):
        return None
    return FerryShape(names["ferry_at"], names["car_at"], names["empty"], names["aboard"], frozenset(cars), goal)


def _grounded(task: GroundTask, schema: Schema, binding: dict[str, str]) -> bool:
    """Whether the ground task has the schema's action for ``binding`` (variable -> object), one its statics allow."""
    action = task.action(f"({schema.name} {' '.join(binding[v] for v, _ in schema.params)})")
    return action is not None and bool(action.precondition)


def _ferry_role(schema: Schema, static: frozenset[str]) -> tuple[str, dict[str, str], dict[str, str]] | None:
    """(role, predicate names by part, variables by part) when the schema is the ferry's sail, board or debark over
    its fluent predicates (static literals of the precondition left aside); None otherwise."""
    if len(schema.params) != 2 or len(schema.precondition) != 1:
        return None
    pre = {lit for lit in schema.precondition[0] if lit.predicate not in static}
    add, delete = set(schema.add), set(schema.delete)
    if any(not lit.positive or lit.is_equality for lit in pre | add | delete):
        return None
    variables = {v for v, _ in schema.params}
    if len(pre) == 1 and len(add) == 1 and len(delete) == 1 and delete == pre:  # sail: the ferry moves
        (at,), (to,) = pre, add
        if (
            len(at.args) == 1
            and len(to.args) == 1
            and at.predicate == to.predicate
            and {*at.args, *to.args} == variables
        ):
            return "sail", {"ferry_at": at.predicate}, {"from": at.args[0], "to": to.args[0]}
    if len(pre) == 3 and len(add) == 1 and len(delete) == 2 and delete < pre:  # board: the car and "empty" go
        (on,) = add
        return _carry("board", on, _only(pre - delete), delete, variables)
    if len(pre) == 2 and len(add) == 2 and len(delete) == 1 and delete < pre:  # debark: they come back
        (on,) = delete
        return _carry("debark", on, _only(pre - delete), add, variables)
    return None


def _only(literals: set[Literal]) -> Literal:
    (literal,) = literals
    return literal


def _carry(
    role: str, on: Literal, ferry: Literal, moved: set[Literal], variables: set[str]
) -> tuple[str, dict[str, str], dict[str, str]] | None:
    """Board's or debark's names and variables: ``on`` the car aboard, ``ferry`` where the ferry must be, ``moved`` the
    car standing at the place and the "empty" fact, which board deletes and debark adds."""
    stand, empty = _of_arity(moved, 2), _of_arity(moved, 0)
    if stand is None or empty is None or len(on.args) != 1 or len(ferry.args) != 1:
        return None
    car, loc = stand.args
    if on.args != (car,) or ferry.args != (loc,) or {car, loc} != variables:
        return None
    names = {"car_at": stand.predicate, "empty": empty.predicate, "aboard": on.predicate, "ferry_at": ferry.predicate}
    return role, names, {"car": car, "loc": loc}


def _of_arity(literals: set[Literal], arity: int) -> Literal | None:
    """The one literal of ``literals`` with ``arity`` arguments, or None."""
    found = [lit for lit in literals if len(lit.args) == arity]
    return found[0] if len(found) == 1 else None


_START = ("start",)  # the start vertex of the graph of legs: no location


def _trails(edges: list[tuple[object, object]]) -> int:
    """The fewest trails a directed multigraph is cut into: per weakly connected component, max(1, the sum of its
    vertices' surplus of out-going over in-coming edges)."""
    parent: dict[object, object] = {}

    def root(v: object) -> object:
        while parent.setdefault(v, v) != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    surplus: dict[object, int] = {}
    for a, b in edges:
        parent[root(a)] = root(b)
        surplus[a] = surplus.get(a, 0) + 1
        surplus[b] = surplus.get(b, 0) - 1
    excess: dict[object, int] = {}
    for v, s in surplus.items():
        excess[root(v)] = excess.get(root(v), 0) + max(0, s)
    return sum(max(1, e) for e in excess.values())


def _sails(legs: list[tuple[str, str]], start: object) -> int:
    """The fewest sails that carry every leg, the ferry's walk starting at ``start`` (a location, or a leg's end
    when the walk begins with a leg already under way): the legs plus the empty sails between trails."""
    return len(legs) + _trails([*legs, (_START, start)]) - 1


def ferry_cost(task: GroundTask, shape: FerryShape, state: int) -> int | None:
    """h*(state) by the formula: None when the state is not one of the ferry's (not exactly one place for the ferry
    and for every car, or the empty-ferry fact not saying whether a car is on board)."""
    where: dict[str, str] = {}
    ferry: list[str] = []
    aboard: list[str] = []
    empty = False
    for atom in task.atoms.atoms(state):
        predicate, args = split_canonical(atom)
        if predicate == shape.ferry_at:
            ferry.append(args[0])
        elif predicate == shape.car_at:
            if args[0] in where:
                return None
            where[args[0]] = args[1]
        elif predicate == shape.aboard:
            aboard.append(args[0])
        elif predicate == shape.empty:
            empty = True
    if len(ferry) != 1 or len(aboard) > 1 or empty == bool(aboard) or set(aboard) & set(where):
        return None
    if set(where) | set(aboard) != shape.cars:
        return None
    (at,) = ferry
    legs = [(where[car], goal) for car, goal in sorted(shape.goal.items()) if car in where and where[car] != goal]
    moves = 2 * len(legs)
    if not aboard:
        return moves + _sails(legs, at)
    target = shape.goal.get(aboard[0])
    if target is None:  # put down anywhere, once another car must board
        return moves + 1 + _sails(legs, at) if legs else 0
    if target == at:
        return moves + 1 + _sails(legs, at)
    carried = moves + 1 + 1 + _sails(legs, target)  # debark at the goal, the leg's one sail, then the rest
    put_down = moves + 3 + _sails([*legs, (at, target)], at)
    return min(carried, put_down)


#: the closed forms by name, each a recogniser and its formula
FORMULAS = ("swap", "ferry")


def closed_form(task: GroundTask, names: tuple[str, ...] = FORMULAS) -> Callable[[int], int | None] | None:
    """h* of the task's states by the first of the formulas ``names`` whose structure the task has (a state outside
    the formula's conditions gives None); None when the task has none of them."""
    if "swap" in names:
        swap = swap_shape(task)
        if swap is not None:
            return lambda state: swap_cost(task, swap, state)
    if "ferry" in names:
        ferry = ferry_shape(task)
        if ferry is not None:
            return lambda state: ferry_cost(task, ferry, state)
    return None
