"""Obfuscated runs (`acp generate --obfuscate`): every stage works on the renamed PDDL, records carry
their renaming, no original name is left in what a model reads, `acp validate` proves every record
(the English read back included), and the stored answers mean the same thing under the original names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import acpgen
from acpgen.cli import cli
from acpgen.data import DOMAINS_DIR
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import canonical
from acpgen.pddl.obfuscate import Renaming
from acpgen.pddl.semantics import is_plan

TASKS = "app,prog,val,plan,pver,rac_state,rac_fluent,t2p"
# the ferry domain's own names (read off acpgen/data/domains/ferry/domain.pddl), none of which may be left
FERRY_NAMES = {"ferry", "car", "location", "at", "at-ferry", "empty-ferry", "not-eq", "on", "sail", "board", "debark"}


@pytest.fixture(scope="module", params=["mystery", "random"])
def run(request, tmp_path_factory) -> tuple[str, Path]:
    out = tmp_path_factory.mktemp(f"obfuscated-{request.param}")
    args = ["generate", "--domain", "ferry", "--level", "1", "--obfuscate", request.param, "--tasks", TASKS]
    result = CliRunner().invoke(cli, [*args, "--formats", "gen,bool", "--out", str(out)], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output  # 1: a file may fall short at level 1
    return request.param, out / f"ferry-{request.param}"


def records(folder: Path) -> list[dict]:
    return [json.loads(line) for path in sorted(folder.glob("*.*.jsonl")) for line in path.read_text().splitlines()]


def test_every_task_gives_records_with_their_renaming(run):
    mode, folder = run
    found = records(folder)
    tasks = {r["task"] for r in found}
    assert tasks == set(TASKS.split(","))
    for record in found:
        assert record["obfuscation"] == mode and record["domain"] == "ferry"
        renaming = Renaming.from_dict(record["renaming"])
        assert renaming.mode == mode and set(renaming.actions) == {"sail", "board", "debark"}


def test_no_original_name_is_left_in_what_a_model_reads(run):
    _, folder = run
    for record in records(folder):
        shown = " ".join(str(record[k]) for k in ("context", "question", "PDDL_domain", "PDDL_problem"))
        shown += " " + json.dumps(record["answer"]) + " " + json.dumps(record.get("choices", ""))
        left = set(re.findall(r"[a-z][a-z0-9_-]*", shown.lower())) & FERRY_NAMES
        # "at" and "on" are English words: they may occur in prose, never as a PDDL name
        assert not left - {"at", "on"}, (record["uid"], left)
        assert not re.search(r"\((?:at|on|at-ferry|not-eq)\s", shown), record["uid"]


def test_acp_validate_proves_every_record(run):
    _, folder = run
    result = CliRunner().invoke(cli, ["validate", str(folder)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert " 0 wrong, 0 unproven, 0 errors" in result.output


def test_every_stored_answer_written_as_a_model_would_scores_1(run, tmp_path):
    _, folder = run
    answers = tmp_path / "answers.jsonl"
    runner = CliRunner()
    assert runner.invoke(cli, ["reference-answers", str(folder), "-o", str(answers)]).exit_code == 0
    scored = tmp_path / "scored.jsonl"
    result = runner.invoke(cli, ["score", str(answers), "--dataset", str(folder), "-o", str(scored)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in scored.read_text().splitlines()]
    assert rows and [r for r in rows if r["score"] != 1.0] == []


def test_a_plan_in_the_original_names_is_read_as_unknown_actions(run):
    _, folder = run
    record = next(r for r in records(folder) if r["task"] == "plan")
    plan = Renaming.from_dict(record["renaming"]).original_actions(record["answer"])
    score = acpgen.score(record, "\n".join(plan))
    first = plan[0].strip("()").split()[0]
    assert (score.score, score.status) == (0.0, "scored")
    assert score.details["failure_class"] == "unreadable_step" and f"there is no action named {first}" in score.reason


def test_stored_plans_renamed_back_are_plans_of_the_original_ferry(run):
    _, folder = run
    plain_domain = (DOMAINS_DIR / "ferry" / "domain.pddl").read_text()
    plans = [r for r in records(folder) if r["task"] == "plan" and r.get("solvable", True)]
    assert plans
    for record in plans:
        renaming = Renaming.from_dict(record["renaming"])
        renamed = GroundTask.from_strings(record["PDDL_domain"], record["PDDL_problem"]).lifted
        back_types = {new: old for old, new in renaming.types.items()}
        back_objects = {new: old for old, new in renaming.objects.items()}  # mystery: objects keep their names
        objects = " ".join(f"{back_objects.get(o, o)} - {back_types[t]}" for o, t in sorted(renamed.objects.items()))
        init = " ".join(renaming.original_atom(canonical(p, a)) for p, a in sorted(renamed.init))
        goal = " ".join(renaming.original_atom(canonical(lit.predicate, lit.args)) for lit in renamed.goal)
        problem = f"(define (problem back) (:domain ferry) (:objects {objects}) (:init {init}) (:goal (and {goal})))"
        plain = GroundTask.from_strings(plain_domain, problem)
        plan = renaming.original_actions(record["answer"])
        assert is_plan(plain, plain.init, plan) and len(plan) == record["optimal_cost"]


def test_a_domain_of_ones_own_without_a_template_is_described_when_obfuscated(tmp_path):
    """Without a template only the pddl representation can be written, but an obfuscated run words the
    domain from its PDDL, so nl works; every record is proven and every stored answer scores 1."""
    porter = Path(__file__).parents[1] / "fixtures" / "byod" / "porter"
    args = ["generate", "--domain-file", str(porter / "domain.pddl"), "--problems", str(porter / "problems")]
    args += ["--tasks", "plan,pver", "--formats", "gen", "--out", str(tmp_path)]
    runner = CliRunner()
    refused = runner.invoke(cli, args)
    assert refused.exit_code != 0 and "has no template" in refused.output
    result = runner.invoke(cli, [*args, "--obfuscate", "mystery"], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    folder = tmp_path / "ball-porter-mystery"
    found = records(folder)
    assert {r["task"] for r in found} == {"plan", "pver"} and all(r["obfuscation"] == "mystery" for r in found)
    assert "carry no meaning" in found[0]["context"]
    assert " 0 wrong, 0 unproven, 0 errors" in runner.invoke(cli, ["validate", str(folder)]).output


def test_the_domain_the_problems_are_for_lies_beside_them(run):
    # the renamed domain, as every record states it: a planner or `acp equivalent` can take it with the problems
    _, folder = run
    domain = (folder / "domain.pddl").read_text()
    assert {r["PDDL_domain"] for r in records(folder)} == {domain}
    assert "ferry" not in domain.split("(:action", 1)[1]  # renamed: no word of the plain domain's actions
