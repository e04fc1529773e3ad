"""Every domain file and generator: reference semantics, valid and solvable problems, determinism."""

from __future__ import annotations

import json
import random

import pytest
from conftest import DEV

from acpgen.evaluation.reference_records import REFERENCE_DOMAINS
from acpgen.generators import DOMAINS, domain_file, get_generator
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.semantics import relaxed_goal_reachable
from acpgen.pddl.tarski_io import read_strings
from acpgen.planners import Limits, Planners, Status


def reference_domains() -> dict[str, tuple[str, str]]:
    """Our domain folder -> (reference domain text, one reference problem text)."""
    found = {}
    for record in json.loads((DEV / "app.gen.json").read_text()):
        lifted = read_strings(record["PDDL_domain"], record["PDDL_problem"])
        found.setdefault(REFERENCE_DOMAINS[lifted.domain_name], (record["PDDL_domain"], record["PDDL_problem"]))
    return found


def semantics(domain_text: str, problem_text: str):
    """Domain semantics modulo parameter names: types, predicates, schemas with positional variables."""
    lifted = read_strings(domain_text, problem_text)
    schemas = {}
    for name, schema in lifted.schemas.items():
        rename = {v: f"?x{i}" for i, (v, _) in enumerate(schema.params)}

        def norm(lits, rename=rename):
            return frozenset((lit.predicate, tuple(rename.get(a, a) for a in lit.args), lit.positive) for lit in lits)

        schemas[name] = (
            tuple(t for _, t in schema.params),
            frozenset(norm(c) for c in schema.precondition),
            norm(schema.add),
            norm(schema.delete),
        )
    return lifted.domain_name, lifted.supertypes, lifted.predicates, schemas, lifted.constants


@pytest.mark.parametrize("domain", sorted(REFERENCE_DOMAINS.values()))
def test_domain_file_is_semantically_the_reference_domain(domain):
    ref_domain, ref_problem = reference_domains()[domain]
    ours = domain_file(domain).read_text()
    # Parse both domains with the same (reference) problem, so types and objects line up.
    assert semantics(ours, ref_problem) == semantics(ref_domain, ref_problem)


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_generated_problems_are_valid_solvable_and_deterministic(domain):
    generator = get_generator(domain)
    domain_text = domain_file(domain).read_text()
    planners = Planners()
    for size in generator.example_sizes:
        for seed in (1, 2, 3):
            text = generator.render(generator.generate(size, random.Random(seed)))
            assert text == generator.render(generator.generate(size, random.Random(seed)))
            task = GroundTask.from_strings(domain_text, text, f"{domain} {size} seed {seed}")
            assert relaxed_goal_reachable(task, task.init)
            if not generator.check_solvable:
                result = planners.solve(domain_text, text, Limits(time=60))
                assert result.status == Status.SOLVED, (size, seed, result.message)
