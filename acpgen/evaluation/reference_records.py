"""A reference bool/mcq record (prose only) turned into an acp record with PDDL and claims.

The context is read by its domain's reader (`acpgen.nl.reference.<domain>`), the problem rendered
with acp's copy of the reference domain, and the question's actions and facts matched against the
reference wording (`acpgen.nl.reference.vocabulary`). The result has the fields of acp's own bool and
mcq records, so the task modules' ``decide`` functions re-prove it like any other. Texts that read
as no action of the domain are the reference's deliberately wrong action templates where the paper
uses them (areach options, the "not valid" val sequences); anywhere else an unmatched text leaves
the record unproven.
"""

from __future__ import annotations

import re

from acpgen.generators import domain_file
from acpgen.nl.reference import blocksworld, ferry, floortile, grid, grippers, logistics, rovers, visitall
from acpgen.nl.reference.base import ReadError, Reading, opens_with
from acpgen.nl.reference.vocabulary import read_many, read_one
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.render import problem_text
from acpgen.proofs.claims import Claim, WrongActionClaim
from acpgen.tasks import get_task

READERS = (ferry, logistics, blocksworld, grid, floortile, grippers, rovers, visitall)
# PDDL domain name of the reference records -> acp's domain folder (the reader module's name).
REFERENCE_DOMAINS = {reader.PDDL_NAME: reader.__name__.rsplit(".", 1)[1] for reader in READERS}


def reader_for(context: str):
    """The reader module of the context's domain, or None."""
    return next((module for module in READERS if opens_with(context, module.OPENING)), None)


def reading_problem(reading: Reading, pddl_name: str) -> str:
    """The PDDL problem of a reference context read back (a context without a goal gets a goal that
    holds already, so the problem stays well formed; the questions read from it never ask for one)."""
    goal = list(reading.goal) if reading.goal else sorted(reading.init)[:1]
    return problem_text("reference", pddl_name, reading.objects, sorted(reading.init), goal)


class _Matcher:
    def __init__(self, pddl_name: str, task: GroundTask):
        self.domain, self.task = pddl_name, task

    def action(self, text: str, wrong_allowed: bool = False) -> Claim | str:
        name = read_one(self.domain, "actions", text, lambda n: self.task.action(n) is not None)
        if name is None:
            name = read_one(self.domain, "actions", text, lambda n: True)  # a type-incorrect action
        if name is not None:
            return name
        if wrong_allowed:
            return WrongActionClaim(-1, text=" ".join(text.split()))
        raise ReadError(f"no action of the domain reads '{text}'")

    def facts(self, text: str) -> list[str]:
        found = read_many(self.domain, "facts", text, self.task.is_valid_atom)
        found = found or read_many(self.domain, "facts", text, lambda n: True)  # type-incorrect facts
        if found is None:
            raise ReadError(f"no fact of the domain reads '{text}'")
        return found

    def plan(self, text: str, wrong_allowed: bool = False) -> list:
        """Actions joined by ", " (action texts may contain commas themselves): the split with the
        fewest pieces that read as no action; such pieces are wrong-action steps if allowed."""
        parts = re.split(r",\s+", text.strip())
        best: dict[int, tuple[int, list]] = {len(parts): (0, [])}
        for i in range(len(parts) - 1, -1, -1):
            options = []
            for j in range(i + 1, len(parts) + 1):
                piece = ", ".join(parts[i:j])
                name = read_one(self.domain, "actions", piece, lambda n: self.task.action(n) is not None)
                name = name or read_one(self.domain, "actions", piece, lambda n: True)
                if name is not None:
                    cost, rest = best[j]
                    options.append((cost, [name, *rest]))
            cost, rest = best[i + 1]
            options.append((cost + 1, [{"wrong": -1, "text": parts[i]}, *rest]))
            best[i] = min(options, key=lambda o: o[0])
        cost, steps = best[0]
        if cost and not wrong_allowed:
            raise ReadError(f"{cost} step(s) of the plan read as no action of the domain")
        return steps

    @staticmethod
    def quoted(pattern: str, text: str) -> tuple[str, ...]:
        """The groups of ``pattern`` in a question; ReadError when the question has another form."""
        match = re.search(pattern, text, re.DOTALL)
        if not match:
            raise ReadError(f"question does not have the expected form ({pattern})")
        return match.groups()

    def removals(self, plan: list, text: str) -> list[list[int]]:
        """Every position of the single action or consecutive pair ``text`` names in the plan; the
        reference names the action, not its position."""
        items = read_many(self.domain, "actions", text, lambda n: self.task.action(n) is not None)
        if items is None:
            raise ReadError(f"no action or pair of actions reads '{text}'")
        starts = [i for i in range(len(plan) - len(items) + 1) if plan[i : i + len(items)] == items]
        if not starts:
            raise ReadError(f"{items} does not occur in the plan")
        return [list(range(i, i + len(items))) for i in starts]


def to_record(kind: str, record: dict) -> dict:
    """acp's form of a reference bool/mcq record; ReadError when its prose cannot be read."""
    task_name, fmt = kind.split(".")
    reader = reader_for(record["context"])
    if reader is None:
        raise ReadError("no reader for this context's domain")
    reading = reader.read(record["context"])
    domain_text = domain_file(REFERENCE_DOMAINS[reader.PDDL_NAME]).read_text()
    problem = reading_problem(reading, reader.PDDL_NAME)
    task = GroundTask.from_strings(domain_text, problem, f"reference record {record.get('id')}")
    match = _Matcher(reader.PDDL_NAME, task)
    out = {**record, "task": task_name, "format": fmt, "PDDL_domain": domain_text, "PDDL_problem": problem}
    question = " ".join(record["question"].split())
    options = record.get("choices", {}).get("text", []) if fmt == "mcq" else []
    spec = get_task(task_name).choice
    if spec is None:
        raise ReadError(f"no bool/mcq form for task {task_name}")
    claims, shared = spec.read_reference(fmt, question, options, match)
    out.update(shared)
    if fmt == "bool":
        out["claim"] = claims[0].to_dict()
    else:
        out["options"] = [c.to_dict() for c in claims]
    return out
