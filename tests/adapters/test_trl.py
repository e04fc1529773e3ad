"""The TRL adapter (acpgen.adapters.trl) against the installed TRL 1.16: a real GRPOTrainer on a tiny
randomly initialised model (made here from a config: no download, CPU) calls the reward functions
and the environment through its own code (`_calculate_rewards`, the `environment_factory` probe, a
training step). Expected: stored answers 1, perturbed answers what acp's scorer gives them (the strict
reading), malformed completions 0, never an exception; the scripted policies through the environment's
tool earn 1 and 0.7."""

from __future__ import annotations

import inspect
import json
import logging
import string

import pool_stubs
import pytest
from click.testing import CliRunner
from conftest import FIXTURES, lifted_run
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast
from transformers.utils import get_json_schema
from trl import GRPOConfig, GRPOTrainer
from trl.chat_template_utils import qwen3_chat_template
from trl.data_utils import is_conversational

import acpgen
import acpgen.adapters.trl
import acpgen.training.batch
from acpgen.adapters.prompts import prompt
from acpgen.adapters.trl import (
    RECORD_COLUMN,
    AcpPlanningEnv,
    acp_f1,
    acp_goal_fraction,
    acp_reward,
    adaptive_dataset,
    adaptive_rewards,
    episode_dataset,
    reward_function,
    trl_dataset,
)
from acpgen.cli import cli
from acpgen.training.batch import rewards_many
from acpgen.training.episode import Episode
from acpgen.training.policies import mistaken_turns, optimal_turns
from acpgen.training.rewards import reward


def tiny_model_and_tokenizer():
    """A one-layer Llama over printable characters, with the Qwen3 chat template TRL ships."""
    vocab = {"<pad>": 0, "<eos>": 1, "<unk>": 2, **{c: i + 3 for i, c in enumerate(sorted(set(string.printable)))}}
    words = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    words.pre_tokenizer = pre_tokenizers.Split("", "isolated")
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=words, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>")
    tokenizer.padding_side = "left"
    tokenizer.chat_template = qwen3_chat_template
    config = LlamaConfig(
        vocab_size=len(vocab), hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2,
        num_key_value_heads=2, max_position_embeddings=16384, pad_token_id=0, eos_token_id=1, bos_token_id=1,
    )  # fmt: skip
    return LlamaForCausalLM(config), tokenizer


def trainer_of(tmp_path, dataset, **kwargs) -> GRPOTrainer:
    model, tokenizer = tiny_model_and_tokenizer()
    args = GRPOConfig(
        output_dir=str(tmp_path), per_device_train_batch_size=2, num_generations=2, max_completion_length=8,
        max_steps=1, report_to=[], use_cpu=True, save_strategy="no", logging_steps=1,
    )  # fmt: skip
    return GRPOTrainer(model=model, args=args, train_dataset=dataset, processing_class=tokenizer, **kwargs)


@pytest.fixture(scope="module")
def records(rl_records) -> list[dict]:
    return rl_records["plan"] + rl_records["app"] + rl_records["rac_state"]


@pytest.fixture(scope="module")
def trainer(records, tmp_path_factory) -> GRPOTrainer:
    return trainer_of(
        tmp_path_factory.mktemp("grpo"), trl_dataset(records), reward_funcs=[acp_reward, acp_f1, acp_goal_fraction]
    )


def rewards_of(
    trainer: GRPOTrainer, records: list[dict], completions: list, conversational: bool = False
) -> list[list]:
    """TRL's own reward computation for these completions of these records' rows."""
    rows = list(trl_dataset(records, conversational=conversational))
    prompts = [row["prompt"] for row in rows]
    table = trainer._calculate_rewards(rows, prompts, completions, [[0]] * len(rows)).tolist()
    return [[None if value != value else value for value in row] for row in table]  # NaN: TRL's None


def test_the_dataset_has_the_prompt_and_the_record(records):
    standard, chat = trl_dataset(records), trl_dataset(records, conversational=True)
    assert standard.column_names == chat.column_names == ["prompt", RECORD_COLUMN]
    assert [json.loads(row[RECORD_COLUMN]) for row in standard] == records
    assert not is_conversational(standard[0]) and is_conversational(chat[0])
    assert chat[0]["prompt"][0]["content"] == standard[0]["prompt"]


def test_the_dataset_of_an_acp_generate_output_folder(tmp_path):
    """The README's `trl_dataset("out/ferry")`: the folder holds the exported records and the stages' intermediate
    files (qa/*.jsonl: the same questions without context); the dataset has one row per exported record."""
    config = str(FIXTURES / "pipeline" / "api.yaml")
    result = CliRunner().invoke(cli, ["generate", "--domain", "ferry", "--config", config, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    exported = sorted((tmp_path / "ferry").glob("*.*.jsonl"))
    assert exported and list((tmp_path / "ferry" / "qa").glob("*.jsonl"))
    expected = [json.loads(line) for p in exported for line in p.read_text().splitlines()]
    for folder in (tmp_path / "ferry", tmp_path):
        rows = list(trl_dataset(folder))
        assert [json.loads(row[RECORD_COLUMN]) for row in rows] == expected
        assert [row["prompt"] for row in rows] == [prompt(r, r["task"], r.get("format", "gen")) for r in expected]


def test_stored_perturbed_and_malformed_answers_through_trls_reward_computation(trainer, records):
    stored = [acpgen.reference_answer(r) for r in records]
    assert rewards_of(trainer, records, stored) == [[1.0, 1.0, 1.0]] * len(records)
    perturbed = [r["answer"][0] if isinstance(r["answer"], list) else "none" for r in records]
    for row, record, text in zip(rewards_of(trainer, records, perturbed), records, perturbed):
        expected = acpgen.score(record, text, strict=True)
        # TRL keeps rewards as float32
        assert row[0] == expected.score
        assert row[1] == pytest.approx(expected.details.get("f1", expected.score), abs=1e-6)
        progress = lifted_run(record, [text])[1] if "goal_fraction" in expected.details else expected.score
        assert row[2] == pytest.approx(progress, abs=1e-6)  # a plan's goal progress
    malformed = ["", "(" * 20000, "Final Answer:", "\x00\x01", "a" * 100000, "((((sail", "[]", ")"] + [""]
    assert rewards_of(trainer, records, malformed[: len(records)]) == [[0.0, 0.0, 0.0]] * len(records)


def test_conversational_completions(trainer, records):
    completions = [[{"role": "assistant", "content": acpgen.reference_answer(r)}] for r in records]
    assert rewards_of(trainer, records, completions, conversational=True) == [[1.0, 1.0, 1.0]] * len(records)


def test_a_batch_gets_the_values_of_one_at_a_time(trainer, records, monkeypatch):
    """A batch of stored, perturbed and malformed completions, each record eight times as GRPO's groups: TRL's
    reward computation gives every reward function the value of `reward` one at a time, on worker processes and
    in this process alike, and the batch is scored once for the three functions."""
    completions = []
    for record in records:
        stored = acpgen.reference_answer(record)
        completions += [stored, stored[: len(stored) // 2], record["question"], "", "(" * 3000, stored + " and more"]
        completions += ["\n".join(reversed(stored.splitlines())), f"Final Answer: {stored}"]
    batch = [r for r in records for _ in range(8)]
    expected = [reward(r, c) for r, c in zip(batch, completions)]
    table = [[e.value, e.signals["f1"], e.signals["goal_fraction"]] for e in expected]
    calls = []
    scored = rewards_many

    def counted(*args, **kwargs):
        calls.append(kwargs["workers"])
        return scored(*args, **kwargs)

    monkeypatch.setattr(acpgen.adapters.trl, "rewards_many", counted)
    for row, want in zip(rewards_of(trainer, batch, completions), table):
        assert row == pytest.approx(want, abs=1e-6)  # TRL keeps rewards as float32
    assert calls == [None]  # acp_reward, acp_f1 and acp_goal_fraction: one scoring of the batch, on every core
    column = {RECORD_COLUMN: [json.dumps(r) for r in batch]}
    for signal in ("score", "f1", "goal_fraction"):
        alone = reward_function(signal, workers=1)(completions=completions, prompts=[""] * len(batch), **column)
        assert alone == [e.signals[signal] for e in expected]
    assert calls == [None, 1]  # the same batch again (equal lists): scored once more, then kept
    assert {e.status for e in expected} == {"scored", "parse_error"}


def test_an_undecided_answer_is_none_which_trl_leaves_out(records, trainer, monkeypatch, caplog):
    """A record whose PDDL cannot be read, and an answer whose scoring takes longer than its budget (its scorer
    held up for a minute, tests/pool_stubs.py): None, which TRL leaves out; the batch's warning names both, and
    the trainer logs their share as ``acp/undecided``."""
    broken = dict(records[0], PDDL_problem="(define (problem broken")
    column = {RECORD_COLUMN: [json.dumps(broken), json.dumps(records[0])]}
    assert acp_reward(completions=["x", acpgen.reference_answer(records[0])], prompts=["", ""], **column) == [None, 1.0]
    with pytest.raises(ValueError, match="signal"):
        reward_function("bleu")
    monkeypatch.setattr(acpgen.training.batch, "_reward_call", pool_stubs.reward_call)
    funcs = [reward_function(signal, budget=0.5) for signal in ("score", "f1", "goal_fraction")]
    monkeypatch.setattr(trainer, "reward_funcs", funcs)
    batch = [broken, records[0], records[1], records[2]]
    completions = [
        "x",
        acpgen.reference_answer(records[0]) + pool_stubs.SLEEP,
        "y",
        acpgen.reference_answer(records[2]),
    ]
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="acpgen.adapters.trl"):
        assert rewards_of(trainer, batch, completions) == [[None] * 3, [None] * 3, [0.0] * 3, [1.0] * 3]
    assert [m.getMessage() for m in caplog.records if m.name == "acpgen.adapters.trl"] == [
        "acp rewards: 2 of 4 answers undecided, their reward left out (None): 1 record PDDL error; "
        "1 scoring took longer than its budget of 0.5 s"
    ]
    assert trainer._pending_metrics["acp/undecided"][-1] == 0.5


def test_a_training_step_calls_the_rewards_on_random_text(trainer):
    trainer.train()
    logged = trainer.state.log_history[0]
    for name in ("acp_reward", "acp_f1", "acp_goal_fraction"):
        assert f"rewards/{name}/mean" in logged
    assert logged["rewards/acp_reward/mean"] == 0.0  # a random model's characters are no answer


def test_the_environment_as_trl_probes_it(rl_records, tmp_path):
    trainer = trainer_of(tmp_path, episode_dataset(rl_records["plan"]), environment_factory=AcpPlanningEnv)
    assert trainer.reward_func_names == ["AcpPlanningEnv"]  # get_reward is the reward
    assert [tool.__name__ for tool in trainer._env_tools[None]] == ["act"]
    schema = get_json_schema(AcpPlanningEnv().act)["function"]
    assert schema["name"] == "act" and list(schema["parameters"]["properties"]) == ["actions"]
    members = [name for name, _ in inspect.getmembers(AcpPlanningEnv, predicate=inspect.isfunction)]
    assert {"reset", "act", "get_reward"} <= set(members)
    trainer.train()  # a step with the environment: a random model calls no tool and earns nothing
    assert trainer.state.log_history[0]["rewards/AcpPlanningEnv/mean"] == 0.0


def test_scripted_policies_through_the_environment(rl_records):
    for row in episode_dataset(rl_records["plan"]):
        record = json.loads(row[RECORD_COLUMN])
        assert row["prompt"][0]["content"] == Episode(record).context
        for turns, expected in ((optimal_turns, 1.0), (mistaken_turns, 0.7)):
            env = AcpPlanningEnv()
            appended = env.reset(**row)
            assert appended.startswith("\n\nReach the goal by acting.") and "act tool" in appended
            answers = [env.act(text) for text in turns(Episode(record))]
            assert env.get_reward() == pytest.approx(expected)
            assert "The goal holds" in answers[-1]
    assert AcpPlanningEnv().act("(sail l0 l1)") == "No episode: the environment was not reset."


def test_the_episode_dataset_of_a_split_folder(rl_split, rl_records):
    """Every open-ended record of a split (plan, app, rac_state) is a row whose prompt is its episode's first
    observation (the record's own context for plan records)."""
    rows = list(episode_dataset(rl_split))
    records = [json.loads(row[RECORD_COLUMN]) for row in rows]
    assert sorted(r["uid"] for r in records) == sorted(r["uid"] for group in rl_records.values() for r in group)
    for row, record in zip(rows, records):
        assert row["prompt"] == [{"role": "user", "content": Episode(record).context}]
        if record["task"] == "plan":
            assert row["prompt"][0]["content"] == record["context"].strip()


def test_a_grpo_run_on_an_adaptive_source(tmp_path):
    # The wiring end to end: GRPOTrainer reads rows drawn from acpgen.adaptive as it trains, and its reward function
    # tells the source every completion's reward (the tiny model's random text: 0, so the difficulty stays).
    source = acpgen.adaptive(tasks=["plan"], domains=["ferry"], seed=0, workers=0, batch=4)
    told = []
    update = source.update
    source.update = lambda record, value: (told.append((record["difficulty"], value)), update(record, value))
    model, tokenizer = tiny_model_and_tokenizer()
    args = GRPOConfig(
        output_dir=str(tmp_path), per_device_train_batch_size=2, num_generations=2, max_completion_length=8,
        max_steps=2, report_to=[], use_cpu=True, save_strategy="no", logging_steps=1, shuffle_dataset=False,
    )  # fmt: skip
    reward = adaptive_rewards(source)
    trainer = GRPOTrainer(
        model=model, args=args, train_dataset=adaptive_dataset(source), processing_class=tokenizer,
        reward_funcs=[reward],
    )  # fmt: skip
    trainer.train()
    assert len(told) >= 4 and source.drawn >= 2  # two steps of 2 completions, each told
    assert {value for _, value in told} <= {0.0, 1.0} and all(d >= 1 for d, _ in told)
    assert source.tops == {("plan", "ferry"): 2}  # the floor of plan (two steps): random text moved nothing
    assert reward.__name__ == "acp_reward_adaptive"
