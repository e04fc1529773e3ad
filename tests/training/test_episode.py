"""Multi-step episodes (acpgen.training.episode) and the scripted policies (acpgen.training.policies), on
ferry plan records made with the CI configuration.

Expected values come from the records and their PDDL text, not from the episode: a stored optimal plan
reaches the goal at its stored cost; an action whose precondition names an atom absent from the
problem's :init cannot be applied; a detour (sail away and back) costs two more actions."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from acpgen.errors import ConfigError, DataError
from acpgen.training.episode import Episode, EpisodeSettings
from acpgen.training.policies import NO_ACTION, UNKNOWN_ACTION, mistaken_turns, optimal_turns


def init_atoms(record: dict) -> set[str]:
    """The atoms of the problem's :init, read from its text (ferry's init has no nested groups)."""
    init = record["PDDL_problem"].split("(:init", 1)[1].split("(:goal", 1)[0]
    return {" ".join(m.split()) for m in re.findall(r"\([^()]*\)", init)}


def test_the_optimal_policy_reaches_the_goal_at_the_stored_optimal_cost(rl_records):
    for record in rl_records["plan"]:
        episode = Episode(record)
        feedback = episode.play(optimal_turns(episode))
        assert len(feedback) == len(record["answer"]) == record["optimal_cost"]
        assert [f.applied for f in feedback] == [(a.lower(),) for a in record["answer"]]
        assert episode.done and episode.goal_reached and episode.reward == 1.0
        assert feedback[-1].done and feedback[-1].reward == 1.0 and not any(f.done for f in feedback[:-1])
        summary = episode.summary()
        steps = len(record["answer"])
        assert (summary["cost"], summary["optimal_cost"], summary["invalid_steps"]) == (steps, steps, 0)
        assert f"The goal holds after {len(record['answer'])} action(s) (optimal: {record['optimal_cost']})" in (
            feedback[-1].text
        )


def test_known_mistakes_are_named_cost_the_penalty_and_change_nothing(rl_records):
    record = rl_records["plan"][0]
    episode = Episode(record)
    turns = mistaken_turns(episode)
    feedback = episode.play(turns)
    first, unknown, unread = feedback[:3]
    # 1. an action of the task whose precondition is false: the named atom is not in the problem's :init
    name = turns[0].strip("()").split()[0]
    match = re.fullmatch(rf"step 1 \({name} [^)]*\): precondition (\([^)]*\)) is false", first.failure or "")
    assert match, first.failure
    assert match.group(1) not in init_atoms(record)
    assert f"(:action {name}" in record["PDDL_domain"] and match.group(1).split()[0].strip("(") in record["PDDL_domain"]
    # 2. an action the domain does not have; 3. a turn with no action in it
    assert unknown.failure.startswith("step 2 (teleport ") and unknown.failure.endswith(
        f"there is no action named {UNKNOWN_ACTION}"
    )
    assert unread.failure == f"step 3 ({NO_ACTION.lower().rstrip('.')}): there is no action named i"
    # the state is unchanged by all three, so the stored plan still reaches the goal, at the optimal cost
    assert all(f.applied == () and "the state is unchanged" in f.text for f in (first, unknown, unread))
    assert episode.goal_reached and episode.summary()["cost"] == record["optimal_cost"]
    assert episode.summary()["invalid_steps"] == 3
    assert episode.reward == pytest.approx(1.0 - 3 * 0.1)


def test_a_whole_plan_in_one_turn_and_actions_after_the_goal(rl_records):
    record = rl_records["plan"][0]
    episode = Episode(record)
    extra = "(sail l0 l1)"
    feedback = episode.step("\n".join(record["answer"] + [extra]))
    assert feedback.done and feedback.applied == tuple(a.lower() for a in record["answer"])
    assert "The goal already held; the 1 action(s) after it were not applied." in feedback.text
    assert episode.reward == 1.0
    assert episode.step("(sail l1 l0)").text == "The episode is over."


def test_a_detour_costs_its_actions(rl_records):
    # the ferry sails to another location and back before the stored plan: two more actions
    record = next(r for r in rl_records["plan"] if r["optimal_cost"] >= 2)
    ferry_at = next(a for a in init_atoms(record) if a.startswith("(at-ferry "))[1:-1].split()[1]
    other = next(o for o in ("l0", "l1", "l2") if o != ferry_at and f" {o} " in record["PDDL_problem"])
    episode = Episode(record)
    episode.play([f"(sail {ferry_at} {other})", f"(sail {other} {ferry_at})", "\n".join(record["answer"])])
    assert episode.goal_reached and episode.summary()["cost"] == record["optimal_cost"] + 2
    assert episode.reward == pytest.approx(record["optimal_cost"] / (record["optimal_cost"] + 2))


def test_a_failure_in_the_middle_of_a_turn_stops_it(rl_records):
    record = next(r for r in rl_records["plan"] if r["optimal_cost"] >= 3)
    plan = record["answer"]
    episode = Episode(record)
    # the second action twice: its second application finds its precondition false (it was consumed)
    feedback = episode.step("\n".join([plan[0], plan[1], plan[1], plan[2]]))
    assert feedback.applied == (plan[0].lower(), plan[1].lower())
    assert feedback.failure.startswith(f"step 3 {plan[1].lower()}: ") and "is false" in feedback.failure
    assert "The 1 action(s) after it were not applied." in feedback.text and not feedback.done


def test_a_turn_without_an_action(rl_records):
    episode = Episode(rl_records["plan"][0])
    for text in ("", "   \n", None, "Final Answer:"):
        feedback = episode.step(text)
        assert feedback.failure.endswith(": no action could be read (write one as (name arg1 arg2 ...))")
    assert episode.summary()["invalid_steps"] == 4


def test_the_budget_ends_an_episode_without_reward(rl_records):
    record = rl_records["plan"][0]
    episode = Episode(record, EpisodeSettings(max_steps=3))
    feedback = episode.play(["(fly)"] * 5)
    assert len(feedback) == 3 and feedback[-1].done and episode.steps_left == 0 and episode.reward == 0.0
    assert "No actions left: the goal does not hold." in feedback[-1].text
    # actions beyond the budget in one turn are not applied
    episode = Episode(record, EpisodeSettings(max_steps=1))
    feedback = episode.step("\n".join(record["answer"]))
    assert feedback.applied == (record["answer"][0].lower(),) and feedback.done and episode.reward == 0.0
    assert f"No actions left: the {len(record['answer']) - 1} action(s) after the last one allowed" in feedback.text


def test_the_default_budget_and_penalty(rl_records):
    record = rl_records["plan"][0]
    assert Episode(record).max_steps == max(4, 2 * record["optimal_cost"] + 2)
    episode = Episode(record, EpisodeSettings(invalid_penalty=0.6))
    episode.play(["nothing", "nothing"] + record["answer"])
    assert episode.goal_reached and episode.reward == 0.0  # 1 - 2 * 0.6, floored at 0
    with pytest.raises(ConfigError):
        EpisodeSettings(representation="yaml")
    with pytest.raises(DataError):
        Episode({"id": 1, "group": "plan_generation_gen"})


def test_states_in_english_and_in_pddl(rl_records):
    record = rl_records["plan"][0]
    english = Episode(record)
    assert english.prompt.startswith(record["context"].split("Currently,")[0].strip()[:40])
    assert "The goal is to reach a state where" in english.prompt and "You have" in english.prompt
    assert english.describe().startswith("Currently, ")
    pddl = Episode(record, EpisodeSettings(representation="pddl"))
    assert "PDDL problem:" in pddl.prompt and record["PDDL_problem"].strip() in pddl.prompt
    fluents = {a for a in init_atoms(record) if not a.startswith("(not-eq")}  # not-eq is static
    assert pddl.describe() == "The state is: " + " ".join(sorted(fluents)) + "."


def test_long_and_adversarial_text_is_one_invalid_step(rl_records):
    # (how long reading takes is measured by `make bench-read`, not here)
    record = rl_records["plan"][0]
    for text in ("c0 is at l0, " * 20000, "(" * 200000, "(sail l0 " * 30000):
        episode = Episode(record)
        feedback = episode.step(text)
        assert feedback.applied == () and episode.summary()["invalid_steps"] == 1 and episode.reward == 0.0


@pytest.mark.slow
def test_every_domain_at_levels_1_and_2_plays_the_scripted_policies(sweep_records):
    seen = defaultdict(int)
    for record in sweep_records:
        seen[(record["domain"], record["level"])] += 1
        episode = Episode(record)
        episode.play(optimal_turns(episode))
        assert episode.goal_reached and episode.reward == 1.0, record["uid"]
        assert episode.summary()["cost"] == record["optimal_cost"]
        episode = Episode(record)
        feedback = episode.play(mistaken_turns(episode))
        assert [f.failure.split()[:2] for f in feedback[:3]] == [["step", "1"], ["step", "2"], ["step", "3"]]
        assert "precondition" in feedback[0].failure or "no disjunct" in feedback[0].failure
        assert episode.goal_reached and episode.reward == pytest.approx(0.7), record["uid"]
    from acpgen.config import load_config

    missing = [(d, lv) for d in load_config(None).domains for lv in (1, 2) if not seen[(d, lv)]]
    assert missing == [], f"no plan records for {missing}"


@pytest.fixture(scope="module")
def context_records(rl_records, tmp_path_factory) -> list[dict]:
    """Records of tasks whose context is the episode's (plan, nexta) and of others (app, rac_state), in English,
    obfuscated (mystery) and in PDDL."""
    from conftest import CI

    import acpgen

    cache = tmp_path_factory.mktemp("context-cache")
    made = [r for records in rl_records.values() for r in records]
    for task in ("plan", "nexta", "app"):
        made += acpgen.generate("ferry", task, n=2, seed=5, config=CI, cache_dir=cache / "mystery", obfuscate="mystery")
        made += acpgen.generate("ferry", task, n=2, seed=5, config=CI, cache_dir=cache / "pddl", representation="pddl")
    return made


def test_episode_context_is_the_episodes_first_observation_without_starting_it(context_records, monkeypatch):
    """episode_context gives Episode.context for every record and representation: the record's own context where
    acp wrote that text, else described from its PDDL; it never works out an optimal cost (app and rac_state
    records store none: an Episode asks the oracle for it)."""
    from acpgen.training import episode as module

    expected = {
        (id(r), rep): Episode(r, EpisodeSettings(representation=rep)).context
        for r in context_records
        for rep in ("nl", "pddl")
    }
    monkeypatch.setattr(module, "Oracle", None)  # an optimal cost asked for would fail
    memo: dict = {}
    reused = 0
    for record in context_records:
        for rep in ("nl", "pddl"):
            text = module.episode_context(record, EpisodeSettings(representation=rep), memo)
            assert text == expected[(id(record), rep)], (record["task"], record.get("obfuscation"), rep)
            reused += text == record["context"].strip()
    assert reused >= 3 * 2 + 4  # plan records of rl_records, plan and nexta (mystery: nl; pddl: both ways)
    assert {r.get("obfuscation") for r in context_records} >= {None, "mystery"}
    assert {r.get("representation") for r in context_records} == {"nl", "pddl"}
    with pytest.raises(DataError):
        module.episode_context({"id": 1, "context": "x"})
