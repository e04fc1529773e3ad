"""Difficulty levels 1-5: which of a domain's problem sizes, and how far from the goal the states are.

A domain's ``sizes`` in ``pipeline.yaml`` are listed from small to large. Level L takes the sizes whose
position lies in the level's share of that list (``sizes: [from, to]``, fractions of the list; at
least one size) and only the states whose remaining plan length (the steps of the stored plan through
the state still to go; the optimal distance on an optimal plan) lies in ``distance: [low, high]``
(``high`` null: no bound). The ``levels`` section of ``pipeline.yaml`` sets the ranges; without it
the defaults below apply. For the reasoning-about-actions tasks (rac_*) a level also sets the length
of the action sequences asked about (``lengths``; the default levels take 1, 5, 10, 15 and 19, the
lengths those tasks draw from). A level may also set how the plans stage plans a problem too large to
explore (``search``, :data:`acpgen.config.PLAN_SEARCHES`): level 5 takes one satisficing plan per problem
(its problems are too large for K* and for A* within their work budgets: what it spent there decided
nothing), so its distances to the goal are measured along that plan, an upper bound on the optimal
distance. A level may also give the tasks that need a state's optimal plan length (``nexta``, ``optplan``:
:attr:`acpgen.tasks.base.Task.needs_optimum`) a share of their own (``optimum_sizes``): level 5 gives them level
4's sizes, the largest at which the optimal searches prove a state's cost at speed (at level 5's, with 50 cars or
20 blocks, most of them reach their work budget and the state gives no question), still with states 12 or more
steps from the goal. Those tasks then run apart from the others (:func:`task_groups`). Asking for no level
changes nothing.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from acpgen.config import LEVELS, PipelineConfig, check_levels
from acpgen.errors import ConfigError
from acpgen.tasks import TASKS, get_task

#: where `acp generate --level` puts the run of the tasks that need optima when the level gives them sizes of their
#: own and other tasks are asked too (OUT/optimum/<domain>/)
OPTIMUM_FOLDER = "optimum"


@dataclass(frozen=True)
class Level:
    """The share of a domain's size list and the range of distances to the goal of one level."""

    sizes: tuple[float, float]
    distance: tuple[int, int | None]
    lengths: tuple[int, ...] = ()  # reasoning-about-actions tasks: the action sequence lengths (empty: all)
    search: str | None = None  # plans.search at this level (None: the configuration's)
    optimum_sizes: tuple[float, float] | None = None  # the share of the tasks that need optima (None: sizes)

    def size_indices(self, count: int, optimum: bool = False) -> list[int]:
        """Positions of the level's sizes in a list of ``count`` sizes (never empty; levels share a size
        only when a domain has fewer than five sizes); ``optimum``: those of the tasks that need optima."""
        low, high = self.optimum_sizes if optimum and self.optimum_sizes else self.sizes
        start = min(count - 1, math.floor(low * count + 1e-9))
        stop = max(start + 1, math.floor(high * count + 1e-9))
        return list(range(start, min(stop, count)))


DEFAULT_LEVELS: dict[int, Level] = {
    1: Level((0.0, 0.2), (1, 2), (1,)),
    2: Level((0.2, 0.4), (3, 4), (5,)),
    3: Level((0.4, 0.6), (5, 7), (10,)),
    4: Level((0.6, 0.8), (8, 11), (15,)),
    5: Level((0.8, 1.0), (12, None), (19,), "satisficing", (0.6, 0.8)),
}


def levels_of(config: PipelineConfig) -> dict[int, Level]:
    """The levels of a configuration (its ``levels`` section over the defaults), checked
    (:func:`acpgen.config.check_levels`: what an entry may hold)."""
    levels = dict(DEFAULT_LEVELS)
    for key, entry in check_levels(config.levels).items():
        levels[key] = _level(entry)
    return levels


def _level(entry: dict) -> Level:
    """A checked entry of the ``levels`` section, its missing keys taken from level 1."""
    default = DEFAULT_LEVELS[1]
    return Level(
        _shares(entry.get("sizes")) or default.sizes,
        tuple(entry.get("distance", default.distance)),
        tuple(entry.get("lengths", ())),
        entry.get("search"),
        _shares(entry.get("optimum_sizes")),
    )


def _shares(value: list | None) -> tuple[float, float] | None:
    """A checked ``[from, to]`` share as numbers (None stays None)."""
    return None if value is None else (float(value[0]), float(value[1]))


def _asked(config: PipelineConfig) -> list[str]:
    """The tasks a configuration asks about (its ``qa.tasks``; all registered ones without)."""
    return [get_task(name).name for name in config.qa.tasks] if config.qa.tasks else list(TASKS)


def task_groups(config: PipelineConfig, level: int) -> list[tuple[str, ...]]:
    """The configuration's tasks in the groups that run apart at ``level``: one group, unless the level gives the
    tasks that need optima other sizes (``optimum_sizes``) and both kinds are asked; then the others first."""
    asked = _asked(config)
    spec = levels_of(config)[level] if level in LEVELS else None
    if spec is None or spec.optimum_sizes in (None, spec.sizes):
        return [tuple(asked)]
    groups = ([t for t in asked if not TASKS[t].needs_optimum], [t for t in asked if TASKS[t].needs_optimum])
    return [tuple(group) for group in groups if group]


def at_level(config: PipelineConfig, domains: list[str], level: int) -> PipelineConfig:
    """The configuration of ``level`` for ``domains``: each domain keeps only the level's sizes (the tasks that
    need optima: the level's ``optimum_sizes``, where it has them), the states stage keeps only states at the
    level's distance from the goal, and the exported records end with ``level`` and ``features``. Its tasks must
    be one of :func:`task_groups`' groups."""
    if level not in LEVELS:
        raise ConfigError(f"level {level!r}: choose 1 (easiest) to 5 (hardest)")
    spec = levels_of(config)[level]
    groups = task_groups(config, level)
    if len(groups) > 1:
        raise ConfigError(
            f"level {level}: {', '.join(groups[1])} draw from other sizes than {', '.join(groups[0])} "
            "(levels.optimum_sizes); ask for them apart"
        )
    optimum = all(TASKS[t].needs_optimum for t in groups[0])
    chosen = dict(config.domains)
    for name in domains:
        entry = config.domain(name)
        sizes = tuple(entry.sizes[i] for i in spec.size_indices(len(entry.sizes), optimum))
        chosen[name] = dataclasses.replace(entry, sizes=sizes)
    states = dataclasses.replace(config.states, goal_distance=spec.distance)
    plans = config.plans if spec.search is None else dataclasses.replace(config.plans, search=spec.search)
    qa = dataclasses.replace(config.qa, sequence_lengths=spec.lengths or None)
    export = dataclasses.replace(config.export, level=level)
    return dataclasses.replace(config, domains=chosen, plans=plans, states=states, qa=qa, export=export)


def describe(config: PipelineConfig, domain: str) -> list[dict]:
    """Per level of ``domain``: its sizes and its distance range (for tables and documentation)."""
    sizes = config.domain(domain).sizes
    levels = levels_of(config)
    return [
        {
            "level": n,
            "sizes": [sizes[i] for i in levels[n].size_indices(len(sizes))],
            "distance": levels[n].distance,
            "lengths": levels[n].lengths,
            "optimum_sizes": [sizes[i] for i in levels[n].size_indices(len(sizes), optimum=True)],
        }
        for n in LEVELS
    ]
