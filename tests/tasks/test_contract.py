"""The task contract: a new task is one module (plus its question texts), nothing else.

A throw-away task written into a temporary folder is registered and then generated, exported,
validated and scored by the unchanged pipeline and commands (the recipe of CONTRIBUTING.md).
"""

from __future__ import annotations

import importlib.util
import json

import pytest
import yaml
from click.testing import CliRunner
from conftest import FIXTURES

from acpgen.cli import cli
from acpgen.errors import DataError
from acpgen.nl.template import load_template
from acpgen.pddl.tarski_io import read_strings
from acpgen.proofs.claims import ActionClaim, FactClaim, FactsClaim, RemovalClaim, WrongActionClaim, claim_from_dict
from acpgen.tasks import CHOICE_GROUPS, KINDS, TASKS, register, task_texts, unregister
from acpgen.tasks.base import Task

MODULE = '''
"""opengoals: how many facts of the goal do not hold in the current state?"""

import re

from acpgen.nl.answers import ParseError
from acpgen.tasks.base import OK, WRONG, Check, Task, Verdict


class OpenGoals(Task):
    name = "opengoals"
    gen_group = "open_goals_gen"
    description = "the number of goal facts that do not hold yet"
    context_parts = ("goal",)
    instruction = "Give only the number."
    questions = {"opengoals": "How many facts of the goal do not hold in the current state?"}

    def accepts(self, state):
        return not state.get("goal")

    def _open(self, ctx):
        return bin(ctx.task.goal_pos & ~ctx.task.init).count("1")

    def generate(self, ctx, item, rng, settings):
        count = self._open(ctx)
        return {"answer": count} if count else None

    def parse(self, response):
        numbers = re.findall(r"\\d+", response)
        if not numbers:
            raise ParseError("no number in the response")
        return int(numbers[-1])

    def score(self, ctx, answer):
        expected = self._open(ctx) if ctx.options.recheck else int(ctx.answer)
        return Verdict.correct() if answer == expected else Verdict.wrong(f"expected {expected}, got {answer}")

    def validate(self, ctx):
        count = self._open(ctx)
        return Check(OK) if count == ctx.answer else Check(WRONG, f"{count} goal facts are open")

    def to_responses(self, record):
        return [f"The answer is {record['answer']}."]


TASK = OpenGoals()
'''


@pytest.fixture
def throwaway_task(tmp_path):
    """The task module above, imported from a temporary folder and registered for one test."""
    path = tmp_path / "opengoals.py"
    path.write_text(MODULE)
    spec = importlib.util.spec_from_file_location("opengoals", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    register(module.TASK)
    yield module.TASK
    unregister(module.TASK.name)


def open_goal_facts(record: dict) -> int:
    """Goal facts not in the problem's :init, counted on the lifted PDDL (not on the ground task)."""
    lifted = read_strings(record["PDDL_domain"], record["PDDL_problem"])
    return sum(1 for lit in lifted.goal if lit.positive and (lit.predicate, lit.args) not in lifted.init)


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_a_new_task_is_one_module(throwaway_task, tmp_path):
    config = yaml.safe_load((FIXTURES / "pipeline" / "small.yaml").read_text())
    config["qa"].update(tasks=["opengoals"], formats=["gen"])
    config_file = tmp_path / "config.yaml"
    config_file.write_text(yaml.safe_dump(config))
    out = tmp_path / "out"

    result = invoke("generate", "--domain", "ferry", "--out", str(out), "--config", str(config_file))
    assert result.exit_code == 0, result.output
    exported = out / "ferry" / "opengoals.gen.jsonl"
    records = [json.loads(line) for line in exported.read_text().splitlines()]
    assert len(records) == config["qa"]["questions_per_task"]
    assert sorted(p.name for p in (out / "ferry" / "qa").iterdir()) == ["opengoals.jsonl"]
    for record in records:
        assert record["group"] == "open_goals_gen" and record["task"] == "opengoals"
        assert record["answer"] == open_goal_facts(record) > 0
        assert record["question"] == "How many facts of the goal do not hold in the current state?"
        assert "The goal is to reach a state where" in record["context"]
        assert "The available actions are" not in record["context"]

    result = invoke("validate", str(exported))
    assert result.exit_code == 0 and f"{len(records)} records: {len(records)} ok, 0 wrong" in result.output

    predictions = tmp_path / "predictions.jsonl"
    invoke("reference-answers", str(exported), "-o", str(predictions))
    wrong = [{"id": r["id"], "task": "opengoals", "response": str(r["answer"] + 1)} for r in records]
    with predictions.open("a") as handle:
        handle.writelines(json.dumps(line) + "\n" for line in wrong)
    scores = tmp_path / "scores.jsonl"
    result = invoke("score", str(predictions), "--dataset", str(exported), "--recheck", "-o", str(scores))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in scores.read_text().splitlines()]
    assert [line["score"] for line in lines] == [1.0] * len(records) + [0.0] * len(records)


def test_registering_a_task_reaches_every_index(throwaway_task):
    assert TASKS["opengoals"] is throwaway_task and "opengoals" in KINDS
    assert "opengoals" in load_template("ferry", tasks=task_texts()).questions
    with pytest.raises(DataError, match="clashes"):
        register(throwaway_task)


def test_unregistering_leaves_the_built_in_registry():
    rac = ["rac_fluent", "rac_state", "rac_exec", "rac_effects", "rac_num", "rac_comp"]
    assert list(TASKS) == [
        "app",
        "prog",
        "reach",
        "areach",
        "val",
        "just",
        "land",
        "nexta",
        *rac,
        "t2p",
        "plan",
        "optplan",
        "pver",
    ]
    # bool and mcq groups: 7 ACPBench tasks, 6 reasoning-about-actions tasks, pver; kinds: 18 gen + 2 x 14
    assert len(CHOICE_GROUPS) == 28 and len(KINDS) == 46
    assert all(isinstance(task, Task) for task in TASKS.values())


@pytest.mark.parametrize(
    "claim",
    [
        ActionClaim("(sail l0 l1)"),
        WrongActionClaim(2, ["l0", "c1"]),
        WrongActionClaim(-1, text="fly the ferry"),
        FactClaim("(at c0 l1)", "kept"),
        FactClaim("(at c0 l1)"),
        FactsClaim(["(at c0 l1)", "(on c1)"]),
        RemovalClaim([2, 3]),
    ],
)
def test_claims_round_trip_through_json(claim):
    wire = json.loads(json.dumps(claim.to_dict()))
    assert claim_from_dict(wire) == claim
    assert None not in wire.values()


@pytest.mark.parametrize("bad", [{"action": "(a)", "fact": "(b)"}, {"colour": "red"}, {"fact": "(b)", "extra": 1}, []])
def test_objects_that_are_no_claim_are_refused(bad):
    with pytest.raises(DataError, match="claim"):
        claim_from_dict(bad)


def test_claims_read_from_reference_records_round_trip():
    """The claims the reference readers make of the reference bool/mcq records (sample) read back
    into typed claims whose dictionaries are the stored objects, key for key."""
    from acpgen.evaluation.reference_records import to_record

    seen = 0
    for kind in (k for k in KINDS if "." in k):
        path = FIXTURES / "acpbench-dev" / f"{kind}.json"
        if not path.exists():  # tasks the reference has no questions of (reasoning about actions)
            continue
        records = json.loads(path.read_text())
        for record in records[:3]:
            converted = to_record(kind, record)
            for stored in [converted["claim"]] if "claim" in converted else converted["options"]:
                assert claim_from_dict(stored).to_dict() == stored
                seen += 1
    assert seen >= 14 * 3
