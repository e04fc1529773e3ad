"""One reward definition across the training adapters (issue 47): over every task of acp's registry (ferry,
level 1, formats gen, bool and mcq, made by `acp generate`), the answers a policy could game a reward with —
an empty answer, "I am not sure", the question repeated, every candidate dumped (for a set or a plan: every
ground action, then every ground atom; for a choice: every option), the stored answer padded with unread words —
get the reward the documented rule gives (`acpgen.training.rewards`, docs/integrations/training.md) and the
same value from the core reward, TRL's reward function, the verifiers task's reward method on a real trace and
reasoning-gym's ``score_answer``; OpenEnv's episodes give no answer 0 as well."""

from __future__ import annotations

import asyncio
import json

import pytest
import reasoning_gym
from click.testing import CliRunner
from conftest import lifted_run
from test_verifiers import rewards, traced

import acpgen
import acpgen.adapters.gym
from acpgen.adapters.openenv import AcpAction, AcpEnvironment
from acpgen.adapters.trl import RECORD_COLUMN, reward_function
from acpgen.adapters.verifiers import AcpTaskConfig, task_of
from acpgen.api import ground_task
from acpgen.cli import cli
from acpgen.evaluation.records import record_task
from acpgen.tasks import TASKS, split_kind
from acpgen.training.prompts import instruction
from acpgen.training.rewards import SIGNALS, reward

PER_KIND = 2
PAD = "; the weather is fine."
#: the tasks whose answers are sets in words: padding them is a part read as nothing, wrong in the strict reading
WORDED_SETS = {"rac_fluent", "rac_state", "rac_exec", "rac_effects", "rac_comp"}


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> dict[str, list[dict]]:
    out = tmp_path_factory.mktemp("agreement")
    args = ["generate", "--domain", "ferry", "--level", "1", "--formats", "gen,bool,mcq", "--out", str(out)]
    CliRunner().invoke(cli, args)  # exit 1 when a task and format falls short (just mcq at level 1): not needed
    made: dict[str, list[dict]] = {}
    for record in acpgen.load(out / "ferry"):
        made.setdefault(record_task(record), []).append(record)
    return {kind: group[:PER_KIND] for kind, group in sorted(made.items())}


def dump(record: dict) -> str:
    fmt = split_kind(record_task(record))[1]
    if fmt == "bool":
        return "**Final Answer**: Yes. **Final Answer**: No."
    if fmt == "mcq":
        return "**Final Answer**: A, B, C, D."
    task = ground_task(record)
    return "\n".join(sorted(a.name for a in task.actions) + sorted(task.atoms.names))


def gamed(record: dict) -> dict[str, str]:
    name, fmt = split_kind(record_task(record))
    return {
        "empty": "",
        "unsure": "I am not sure",
        "question": record["question"],
        "question and instruction": f"{record['question']} {instruction(name, fmt)}",
        "dump": dump(record),
        "padded": acpgen.reference_answer(record).rstrip(".") + PAD,
    }


def adapter_values(record: dict, text: str) -> dict[str, float]:
    """The reward of ``text`` for ``record`` in each adapter."""
    name, fmt = split_kind(record_task(record))
    trl = reward_function("score")(completions=[text], prompts=[""], **{RECORD_COLUMN: [json.dumps(record)]})[0]
    task = task_of(record, AcpTaskConfig())
    trace = traced(task, [text])
    asyncio.run(task.score(trace))
    gym = reasoning_gym.create_dataset(f"acp_{name}", size=1, format=fmt)
    return {
        "core": reward(record, text).value,
        "trl": trl,
        "verifiers": rewards(trace)["acp_score"],
        "reasoning-gym": gym.score_answer(text, {"metadata": {"record": record}}),
    }


def test_every_task_and_format_is_covered(records):
    assert {split_kind(kind)[0] for kind in records} == set(TASKS)  # all 18 tasks
    assert {split_kind(kind)[1] for kind in records} == {"gen", "bool", "mcq"}


def test_gamed_answers_get_the_documented_reward_in_every_adapter(records):
    for kind, group in records.items():
        name, fmt = split_kind(kind)
        for record in group:
            stored = acpgen.reference_answer(record)
            assert set(adapter_values(record, stored).values()) == {1.0}, kind
            for case, text in gamed(record).items():
                values = adapter_values(record, text)
                assert len(set(values.values())) == 1, (kind, case, values)  # one reward in every adapter
                value = values["core"]
                result = reward(record, text)
                if case in ("empty", "unsure", "question", "question and instruction"):
                    # no answer: 0, on every signal
                    assert value == 0.0 and result.signals == dict.fromkeys(SIGNALS, 0.0), (kind, case, result)
                elif case == "dump" and fmt == "gen":
                    assert value == 0.0, (kind, result)  # not the one answer, nor the true set, nor a plan
                    if name in ("plan", "optplan"):  # progress: what the executable prefix of the dump reaches
                        progress = lifted_run(record, text.splitlines())[1]
                        assert result.signals["goal_fraction"] == pytest.approx(progress)
                elif case == "dump":
                    # a choice reads one candidate: the last final answer (bool), the first option named (mcq)
                    one = "**Final Answer**: No." if fmt == "bool" else "**Final Answer**: A."
                    assert value == reward(record, one).value, (kind, result)
                else:  # padded: unread words make a set answer in words wrong; other answers do not read them
                    assert value == (0.0 if fmt == "gen" and name in WORDED_SETS else 1.0), (kind, result)
                    assert values["core"] == acpgen.score(record, text, strict=True).score


def test_the_reading_mode_is_a_parameter_of_every_adapter(records):
    record = records["rac_state"][0]
    padded = acpgen.reference_answer(record).rstrip(".") + PAD
    lenient = {
        "core": reward(record, padded, strict=False).value,
        "trl": reward_function("score", strict=False)(completions=[padded], **{RECORD_COLUMN: [record]})[0],
        "reasoning-gym": reasoning_gym.create_dataset("acp_rac_state", size=1, strict=False).score_answer(
            padded, {"metadata": {"record": record}}
        ),
    }
    task = task_of(record, AcpTaskConfig(strict=False))
    trace = traced(task, [padded])
    asyncio.run(task.score(trace))
    lenient["verifiers"] = rewards(trace)["acp_score"]
    assert set(lenient.values()) == {1.0} and set(adapter_values(record, padded).values()) == {0.0}


def test_no_answer_earns_nothing_in_an_openenv_episode(records):
    record = records["plan"][0]
    for text in ("", "I am not sure", record["question"], dump(record)):
        env = AcpEnvironment([record])
        env.reset(index=0)
        observation = env.step(AcpAction(text=text))
        assert observation.reward == 0.0 and not observation.goal_reached
