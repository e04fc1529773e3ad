"""A user's domain whose template declares t2p patterns (tests/fixtures/byod/porter/template-patterns.yaml):
`acp generate` writes records with abstract goals, each storing its declared rule, and `acp validate` proves
every pattern reads back without being given the template."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from acpgen.cli import cli

PORTER = Path(__file__).parents[1] / "fixtures" / "byod" / "porter"
CONFIG = Path(__file__).parents[1] / "fixtures" / "byod" / "byod.yaml"


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_declared_patterns_give_abstract_goals_that_validate(tmp_path):
    config = yaml.safe_load(CONFIG.read_text())
    config["qa"] |= {"formats": ["gen"], "questions_per_task": 8}
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))
    generated = invoke(
        "generate",
        *("--domain-file", str(PORTER / "domain.pddl"), "--problems", str(PORTER / "problems")),
        *("--template", str(PORTER / "template-patterns.yaml"), "--tasks", "t2p", "--formats", "gen"),
        *("--config", str(tmp_path / "config.yaml"), "--out", str(tmp_path / "out")),
    )
    assert generated.exit_code == 0, generated.output
    root = tmp_path / "out" / "ball-porter"
    records = [json.loads(line) for line in (root / "qa" / "t2p.jsonl").read_text().splitlines()]
    abstract = [r for r in records if r["goal_pattern"]["name"]]
    assert records and abstract
    for record in records:
        assert record["init_pattern"] == {"name": "", "text": "", "rule": {}}  # porter declares goal patterns only
    for record in abstract:
        goal = record["goal_pattern"]
        if goal["name"] == "all-in":
            assert goal["text"].startswith("every ball is in room ")
            assert goal["rule"]["predicate"] == "ball-in" and goal["rule"]["key"] == "room"
        else:
            assert goal == {
                "name": "hands-free",
                "text": "every hand is free",
                "rule": {
                    "name": "hands-free",
                    "part": "goal",
                    "kind": "each",
                    "predicate": "free",
                    "text": "every hand is free",
                    "types": ["hand"],
                },
            }
            assert "(:goal (and (free left) (free right)))" in " ".join(record["PDDL_problem"].split())
    validated = invoke("validate", str(root / "qa" / "t2p.jsonl"), "--json")
    assert validated.exit_code == 0, validated.output
    rows = [json.loads(line) for line in validated.output.splitlines() if line.startswith("{")]
    assert len(rows) == len(records) and {row["verdict"] for row in rows} == {"ok"}


def test_validation_refuses_a_record_whose_goal_is_not_its_declared_pattern(tmp_path):
    """The stored rule is what validation reads: a goal that is not an instance of it is wrong."""
    qa = Path(tmp_path / "t2p.jsonl")
    record = {
        "id": "ball-porter/p1/t2p/0",
        "task": "t2p",
        "domain": "ball-porter",
        "PDDL_domain": (PORTER / "domain.pddl").read_text(),
        "abstraction": "explicit_abstract",
        "init_pattern": {"name": "", "text": "", "rule": {}},
        "goal_pattern": {
            "name": "all-in",
            "text": "every ball is in room kitchen",
            "rule": {
                "name": "all-in", "part": "goal", "kind": "same", "predicate": "ball-in", "subjects": ["ball"],
                "values": ["room"], "key": "room", "text": "every ball is in room {room}",
            },
        },
    }  # fmt: skip
    problem = (PORTER / "problems" / "p1.pddl").read_text()  # goal: red and blue in the kitchen
    one_ball = problem.replace("(ball-in red kitchen) (ball-in blue kitchen)", "(ball-in red kitchen)")
    for text, verdict in ((problem, "ok"), (one_ball, "wrong")):
        qa.write_text(json.dumps({**record, "PDDL_problem": text, "answer": text}) + "\n")
        rows = [json.loads(line) for line in invoke("validate", str(qa), "--json").output.splitlines() if "{" in line]
        assert [row["verdict"] for row in rows] == [verdict], rows
