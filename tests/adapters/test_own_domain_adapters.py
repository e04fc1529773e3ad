"""The adapters read a user's own domain as they read a built-in one (issue 59): records of the switches-and-doors
domain (tests/fixtures/byod/switches, not one of acp's), answered in its template's own English, get the same
reward from the core reward, TRL's reward function, the verifiers task, reasoning-gym's ``score_answer`` (and a
reasoning-gym dataset of the domain's records), lm-eval's hook and an Inspect AI run with a mock model: 1 for the
stored answer, 0 for a wrong twin (a set missing an element, a plan without its last step, a ruled-out atom)."""

from __future__ import annotations

import json

import pytest
import reasoning_gym
import yaml
from click.testing import CliRunner
from conftest import FIXTURES
from own_domains import English, answers
from test_inspect import TASK_FILE, record_of, run
from test_reward_agreement import adapter_values

import acpgen
import acpgen.adapters.gym
from acpgen.adapters.lmeval import process_results
from acpgen.cli import cli

SWITCHES = FIXTURES / "byod" / "switches"
TASKS = ("app", "plan", "optplan", "land", "nexta", "prog", "rac_state", "rac_exec")


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    out = tmp_path_factory.mktemp("own-adapters")
    config = yaml.safe_load((FIXTURES / "byod" / "byod.yaml").read_text())
    config["qa"].update(questions_per_task=2, formats=["gen"], tasks=list(TASKS))
    (out / "config.yaml").write_text(yaml.safe_dump(config))
    args = ["generate", "--domain-file", str(SWITCHES / "domain.pddl"), "--problems", str(SWITCHES / "problems")]
    args += ["--template", str(SWITCHES / "template.yaml"), "--config", str(out / "config.yaml"), "--out", str(out)]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out / "switches-and-doors"


@pytest.fixture(scope="module")
def cases(root) -> list[tuple[dict, str, str, float]]:
    english = English(SWITCHES)
    found = []
    for record in acpgen.load(root):
        found += [(record, what, text, expected) for what, text, expected in answers(record, english)]
    assert {record["task"] for record, *_ in found} >= {"app", "plan", "land", "nexta", "prog", "rac_state"}
    return found


def test_every_adapter_reads_the_templates_english(cases):
    for record, what, text, expected in cases:
        values = adapter_values(record, text)
        values["lm-eval"] = process_results(record, [text])["score"]
        assert set(values.values()) == {expected}, (record["task"], what, text, values)


def test_a_reasoning_gym_dataset_of_the_domains_records(root, cases):
    plans = [r for r in acpgen.load(root / "plan.gen.jsonl")]
    data = reasoning_gym.create_dataset(
        "acp_plan", size=len(plans), seed=0, domains=("switches-and-doors",), split=str(root), format="gen"
    )
    english = English(SWITCHES)
    for entry in data:
        record = entry["metadata"]["record"]
        assert record["domain"] == "switches-and-doors" and "template" in record
        written = [(text, expected) for _, text, expected in answers(record, english)]
        assert written and all(data.score_answer(text, entry) == expected for text, expected in written)


def test_an_inspect_run_on_the_domains_records(root, tmp_path):
    records = [r for r in acpgen.load(root / "app.gen.jsonl") if len(r["answer"]) >= 2]
    english = English(SWITCHES)
    dataset = tmp_path / "app.gen.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in records))

    def answer_for(prompt: str) -> str:
        record = record_of(prompt, records)
        return "The applicable actions are: " + "; ".join(english.action(a) for a in record["answer"]) + "."

    log = run(f"{TASK_FILE}@acp_app_gen", dataset, answer_for, tmp_path)
    values = [next(iter(s.scores.values())).value for s in log.samples]
    assert len(values) == len(records) and set(values) == {1.0}
