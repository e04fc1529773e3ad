"""The OpenEnv adapter (acpgen.adapters.openenv) against the installed OpenEnv (openenv-core 0.3): the
environment in process, and served by OpenEnv's create_app on 127.0.0.1 (uvicorn in a thread, no
container), played through its client over the WebSocket session. Expected: the stored optimal plan
reaches the goal at the optimal cost (reward 1), the known mistakes are named and cost the penalty
(reward 0.7), and concurrent sessions keep their own episodes."""

from __future__ import annotations

import pytest

import acpgen
from acpgen.adapters.openenv import AcpAction, AcpEnvClient, AcpEnvironment, LocalServer, make_app
from acpgen.training.episode import Episode, EpisodeSettings
from acpgen.training.policies import mistaken_turns, optimal_turns


def play(env, turns: list[str]):
    """Step a (sync) client or an environment through the turns; the last result."""
    result = None
    for text in turns:
        result = env.step(AcpAction(text=text))
        observation = result.observation if hasattr(result, "observation") else result
        if observation.done:
            break
    return result


def test_in_process(rl_records):
    records = rl_records["plan"]
    env = AcpEnvironment(records)
    for index, record in enumerate(records):
        first = env.reset(index=index)
        assert first.text == Episode(record).prompt and not first.done and first.reward == 0.0
        last = play(env, optimal_turns(Episode(record)))
        assert last.done and last.goal_reached and last.reward == 1.0
        assert env.state.cost == env.state.optimal_cost == record["optimal_cost"]
        assert env.state.trajectory == [a.lower() for a in record["answer"]] and env.state.step_count == len(
            record["answer"]
        )
    assert env.reset(seed=3).text == env.reset(seed=3).text  # a seed draws the same record
    assert AcpEnvironment().step(AcpAction(text="(sail l0 l1)")).done


def test_each_reset_has_an_episode_id(rl_records):
    """A fresh id per reset (a UUID, as OpenEnv's own environments give), or the one the caller passes."""
    env = AcpEnvironment(rl_records["plan"])
    env.reset(index=0)
    first = env.state.episode_id
    env.reset(index=0)
    assert first and env.state.episode_id and first != env.state.episode_id and len(first) == 36
    env.reset(index=1, episode_id="ep-000042")
    assert env.state.episode_id == "ep-000042"
    env.step(AcpAction(text="(sail l0 l1)"))
    assert env.state.episode_id == "ep-000042" and env.state.step_count == 1


def test_through_the_http_service_and_its_client(rl_records):
    records = rl_records["plan"]
    with LocalServer(make_app(records)) as url, AcpEnvClient(base_url=url).sync() as env:
        for index, record in enumerate(records):
            result = env.reset(index=index)
            assert result.observation.text == Episode(record).prompt and not result.done
            result = play(env, optimal_turns(Episode(record)))
            assert result.done and result.reward == 1.0 and result.observation.goal_reached
            state = env.state()
            assert (state.cost, state.optimal_cost, state.invalid_steps) == (record["optimal_cost"],) * 2 + (0,)
            turns = mistaken_turns(Episode(record))
            env.reset(record=record)  # the record itself, sent with the reset
            first = env.step(AcpAction(text=turns[0]))
            assert first.observation.failure.startswith(f"step 1 {turns[0]}: precondition (")
            assert first.observation.applied == [] and first.reward == 0.0 and not first.done
            second = env.step(AcpAction(text=turns[1]))
            assert second.observation.failure.endswith("there is no action named teleport")
            result = play(env, turns[2:])
            assert result.done and result.reward == pytest.approx(0.7) and env.state().invalid_steps == 3


def test_sessions_keep_their_own_episodes(rl_records):
    first_record, second_record = rl_records["plan"][:2]
    server = LocalServer(make_app(rl_records["plan"]))
    with server as url, AcpEnvClient(base_url=url).sync() as one, AcpEnvClient(base_url=url).sync() as two:
        one.reset(record=first_record)
        two.reset(record=second_record)
        plans = optimal_turns(Episode(first_record)), optimal_turns(Episode(second_record))
        for step in range(max(map(len, plans))):  # interleaved steps
            for env, plan in zip((one, two), plans):
                if step < len(plan):
                    result = env.step(AcpAction(text=plan[step]))
        assert one.state().goal_reached and two.state().goal_reached and result.reward == 1.0
        assert one.state().trajectory == [a.lower() for a in first_record["answer"]]


@pytest.mark.slow
def test_every_domain_at_levels_1_and_2_through_the_client(sweep_records):
    with LocalServer(make_app(sweep_records)) as url, AcpEnvClient(base_url=url).sync() as env:
        for index, record in enumerate(sweep_records):
            env.reset(index=index)
            assert play(env, optimal_turns(Episode(record))).reward == 1.0, record["uid"]
            env.reset(index=index)
            result = play(env, mistaken_turns(Episode(record)))
            assert result.reward == pytest.approx(0.7) and env.state().invalid_steps == 3, record["uid"]


def test_records_of_a_packaged_server_come_from_its_environment_variables(rl_split, tmp_path):
    """environments/acp_env's server: ACP_RECORDS, or records generated at start-up (ACP_N of ACP_TASK per domain
    of ACP_DOMAINS at ACP_LEVEL with ACP_SEED, from ACP_CONFIG)."""
    from conftest import CI

    from acpgen.adapters.openenv import make_app_from_environ, records_from_environ

    split = records_from_environ({"ACP_RECORDS": str(rl_split / "plan.gen.jsonl")})
    assert [r["uid"] for r in split] == [r["uid"] for r in acpgen.load(rl_split / "plan.gen.jsonl")]
    settings = {"ACP_N": "2", "ACP_LEVEL": "none", "ACP_SEED": "5", "ACP_CONFIG": str(CI)}
    made = records_from_environ(settings)
    # the 2 asked for, then ceil(0.2 x 2) = 1 about a problem no plan solves (qa.unsolvable_share)
    assert [r.get("solvable", True) for r in made] == [True, True, False]
    assert {r["task"] for r in made} == {"plan"} and {r["domain"] for r in made} == {"ferry"}
    app = make_app_from_environ({"ACP_RECORDS": str(rl_split / "plan.gen.jsonl"), "ACP_STATES": "pddl"})
    with LocalServer(app) as url, AcpEnvClient(base_url=url).sync() as env:
        pddl = Episode(split[0], EpisodeSettings(representation="pddl")).prompt
        assert env.reset(index=0).observation.text == pddl and "PDDL problem" in pddl
