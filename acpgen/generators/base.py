"""Problem generators: the shared contract.

A generator is a pure function ``make(size, rng) -> ProblemSpec``: all randomness comes from the
``random.Random`` it is given (no global state), so the same seed and size give the same
problem. Problems are written by `acpgen.pddl.render.problem_text` in the layout of the reference
records: objects grouped by type (types sorted, names sorted), init atoms sorted, goal atoms in
generator order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from acpgen.data import DOMAINS_DIR
from acpgen.errors import ConfigError
from acpgen.generators.patterns import Pattern
from acpgen.pddl.model import declared_domain_name, declared_requirements
from acpgen.pddl.render import problem_text


def domain_file(domain: str) -> Path:
    """``acpgen/data/domains/<domain>/domain.pddl``."""
    return DOMAINS_DIR / domain / "domain.pddl"


@dataclass(frozen=True)
class ProblemSpec:
    """A generated problem: objects with types, initial atoms and goal atoms (canonical text)."""

    name: str
    objects: dict[str, str]  # object -> type; "object" for untyped domains
    init: tuple[str, ...]
    goal: tuple[str, ...]


@dataclass(frozen=True)
class Generator:
    """One domain's generator.

    ``domain``: folder under ``acpgen/data/domains/`` (also the name used on the command line), whose
    ``domain.pddl`` gives the name and requirements written into problems; ``parameters``: the natural size
    parameters ``make`` expects; ``check_solvable``: the generator cannot guarantee solvability,
    so the problems stage verifies each problem with a planner and redraws; ``example_sizes``:
    small sizes that tests use (the sizes of a run come from pipeline.yaml); ``patterns``: the abstract
    descriptions of initial states and goals the domain can give (`acpgen.generators.patterns`; used by
    the text-to-PDDL task).
    """

    domain: str
    parameters: tuple[str, ...]
    make: Callable[[dict[str, int], random.Random], ProblemSpec]
    check_solvable: bool
    example_sizes: tuple[dict[str, int], ...]
    typed: bool = True
    patterns: tuple[Pattern, ...] = ()

    @cached_property
    def _domain_text(self) -> str:
        return domain_file(self.domain).read_text()

    @property
    def pddl_name(self) -> str:
        """The name in the domain file's ``(define (domain ...))``."""
        name = declared_domain_name(self._domain_text)
        if name is None:
            raise ConfigError(f"{domain_file(self.domain)}: no '(define (domain NAME)' found")
        return name

    @property
    def requirements(self) -> str:
        """The ``:requirements`` the domain file declares (written into every problem)."""
        return declared_requirements(self._domain_text)

    def generate(self, size: dict[str, int], rng: random.Random) -> ProblemSpec:
        """Check the size parameters, then make a problem."""
        missing = [p for p in self.parameters if p not in size]
        extra = [p for p in size if p not in self.parameters]
        if missing or extra:
            raise ConfigError(
                f"{self.domain}: size {size} must give exactly the parameters "
                f"{', '.join(self.parameters)}" + (f" (unknown: {', '.join(extra)})" if extra else "")
            )
        return self.make(dict(size), rng)

    def render(self, spec: ProblemSpec) -> str:
        """PDDL problem text in the reference layout (init atoms sorted, goal in generator order)."""
        return problem_text(
            spec.name,
            self.pddl_name,
            spec.objects,
            sorted(set(spec.init)),
            spec.goal,
            self.requirements,
            typed=self.typed,
        )
