"""Reasoning about actions (acpgen/tasks/sequences.py): answers derived by hand on a 3-block problem, the
reader of free answers in PDDL and in the template's English, and the second route."""

from __future__ import annotations

import json
import random

import pytest
from conftest import generated_problem, random_walk

from acpgen.config import load_config
from acpgen.data import DOMAINS_DIR
from acpgen.evaluation.scoring import score_one
from acpgen.generators import DOMAINS, get_generator
from acpgen.pddl.explore import explore
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.render import render_problem
from acpgen.proofs.change.questions import Question, answer, claim_holds, record_types
from acpgen.proofs.change.world import CoreWorld, LiftedWorld
from acpgen.tasks import TASKS, RecordContext, ScoreOptions

DOMAIN = (DOMAINS_DIR / "blocksworld" / "domain.pddl").read_text()
# a on b, b and c on the table, a and c clear, hand empty
PROBLEM = """(define (problem tiny) (:domain blocksworld-4ops)
  (:objects a b c)
  (:init (on a b) (ontable b) (ontable c) (clear a) (clear c) (handempty))
  (:goal (and (on c a))))"""
UNSTACK_PUTDOWN = ["(unstack a b)", "(put-down a)"]  # afterwards: all three on the table and clear, hand empty


def record(task: str, variant: str, sequence: list[str], stored, **fields) -> dict:
    return {
        "id": 1,
        "uid": "hand-made",  # with task: an acp record, whose stored answer the scorer compares with
        "task": task,
        "domain": "blocksworld",
        "PDDL_domain": DOMAIN,
        "PDDL_problem": PROBLEM,
        "category": TASKS[task].category,  # type: ignore[attr-defined]
        "variant": variant,
        "sequence": sequence,
        "answer": stored,
        **fields,
    }


def score(rec: dict, response: str, strict: bool = False):
    return score_one(RecordContext(rec, ScoreOptions(strict_reading=strict)), rec["task"], response)


# Fluent types written out by hand: the template makes clear and handempty derived; a block is on one
# thing and the hand holds one block (self-derived); ontable is base.
TYPES = {"clear": "derived", "handempty": "derived", "holding": "self_derived", "on": "self_derived", "ontable": "base"}


def worlds():
    task = GroundTask.from_strings(DOMAIN, PROBLEM)
    return [CoreWorld(task, TYPES), LiftedWorld(task.lifted, TYPES)]


# ----- answers by hand, from both executions ------------------------------------------------------------
@pytest.mark.parametrize("world", worlds(), ids=["core", "lifted"])
def test_answers_match_hand_derivation(world):
    seq = tuple(UNSTACK_PUTDOWN)
    assert answer(world, Question("fluent", "true", seq, "all", "a")) == ["(clear a)", "(ontable a)"]
    assert answer(world, Question("fluent", "false", seq, "self_derived", "c")) == [
        "(not (holding c))",
        "(not (on a c))",
        "(not (on b c))",
        "(not (on c a))",
        "(not (on c b))",
    ]  # (on c c) is no fluent: no reachable state puts a block on itself
    assert answer(world, Question("executability", "executable", seq)) == [
        "(pick-up a)",
        "(pick-up b)",
        "(pick-up c)",
    ]
    assert answer(world, Question("numerical", "executable", seq)) == 3
    assert answer(world, Question("numerical", "true", seq, "fluents")) == 7  # 3 clear, 3 ontable, handempty
    assert answer(world, Question("numerical", "true", seq, "derived")) == 4  # 3 clear, handempty
    assert answer(world, Question("numerical", "true", seq, "base")) == 3  # 3 ontable
    assert answer(world, Question("effects", "added", seq, "fluents", action="(pick-up b)")) == ["(holding b)"]
    assert answer(world, Question("effects", "deleted", seq, "fluents", action="(pick-up b)")) == [
        "(clear b)",
        "(handempty)",
        "(ontable b)",
    ]
    # (stack b c) needs the hand to hold b: the second action is the first that cannot be performed
    bad = ("(unstack a b)", "(stack b c)", "(put-down a)")
    assert answer(world, Question("executability", "first", bad)) == ["(stack b c)"]
    assert answer(world, Question("composite", "fluents_before", bad, "self_derived", "a")) == ["(holding a)"]
    assert answer(world, Question("composite", "executable_before", bad)) == [
        "(put-down a)",
        "(stack a b)",
        "(stack a c)",
    ]
    assert claim_holds(world, Question("state", "all_hold", seq), "all_hold", ["(clear b)", "(not (on a b))"])
    assert not claim_holds(world, Question("state", "all_hold", seq), "all_hold", ["(clear b)", "(on a b)"])


# ----- which atoms a fluent list holds -----------------------------------------------------------------------
def test_a_block_on_itself_is_never_listed():
    """The 3-block problem by hand: 3 clear, 3 on the table, 3 held, the hand empty and the 6 pairs of
    different blocks, 16 of the 19 type-correct atoms (on a a, on b b, on c c are left out)."""
    for world in worlds():
        assert len(world.atoms) == 16 and not {"(on a a)", "(on b b)", "(on c c)"} & set(world.atoms)
        assert {"(on a c)", "(holding b)", "(handempty)"} <= set(world.atoms)


def test_a_static_fact_that_is_false_is_never_listed():
    """ferry by hand (2 cars, 2 locations): not-eq is declared over objects, so (not-eq c0 l1) is
    type-correct, but no state makes it true; listed: the 2 true not-eq facts, 4 car places, 2 ferry
    places, 2 cars on board, the ferry empty: 11."""
    domain = (DOMAINS_DIR / "ferry" / "domain.pddl").read_text()
    problem = """(define (problem f) (:domain ferry) (:objects c0 c1 - car l0 l1 - location)
      (:init (at c0 l0) (at c1 l1) (at-ferry l0) (empty-ferry) (not-eq l0 l1) (not-eq l1 l0))
      (:goal (and (at c0 l1))))"""
    task = GroundTask.from_strings(domain, problem)
    for world in (CoreWorld(task, {}), LiftedWorld(task.lifted, {})):
        assert len(world.atoms) == 11 and "(not-eq c0 l1)" not in world.atoms and "(not-eq l0 l0)" not in world.atoms


def _reachable_atoms(lifted) -> set[str]:
    """Every atom some state reachable from the initial state makes true, by exploring all of them."""
    world = LiftedWorld(lifted, {})
    seen, frontier = {world.init}, [world.init]
    while frontier:
        state = frontier.pop()
        for _, after in world.successors(state):
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    return set().union(*seen)


@pytest.mark.parametrize(
    "domain,size",
    [
        ("blocksworld", {"blocks": 4}),
        ("ferry", {"locations": 3, "cars": 2}),
        ("grippers", {"robots": 1, "rooms": 2, "balls": 3}),
        ("logistics", {"cities": 2, "city_size": 2, "packages": 2, "airplanes": 1}),
    ],
)
def test_fluent_lists_are_the_atoms_of_reachable_states(domain, size):
    """On small problems whose states can all be explored, the atoms questions range over are exactly those
    some reachable state makes true (brute force), by both routes."""

    generator = get_generator(domain)
    text = generator.render(generator.generate(size, random.Random(4)))
    task = GroundTask.from_strings((DOMAINS_DIR / domain / "domain.pddl").read_text(), text)
    expected = _reachable_atoms(task.lifted)
    assert set(CoreWorld(task, {}).atoms) == expected
    assert set(LiftedWorld(task.lifted, {}).atoms) == expected


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_both_routes_list_the_same_atoms_where_nothing_can_be_explored(domain):
    """The core's h² (bit masks, pairs stored with the atom added and mirrored per pass) and the separate
    interpreter's (sets of atom names over its own relaxed grounding) are written apart; on a middle size of each
    domain, from a state along a random walk, both list the same atoms (the rule closure of a domain with derived
    predicates included)."""
    sizes = load_config().domain(domain).sizes
    base = generated_problem(domain, 7, sizes[len(sizes) // 2])
    state = random_walk(base, 6, random.Random(domain))
    task = GroundTask.from_strings(base.lifted.domain_text, render_problem(base, base.static_mask | state))
    core, lifted = set(CoreWorld(task, {}).atoms), set(LiftedWorld(task.lifted, {}).atoms)
    assert core == lifted, sorted(core ^ lifted)[:5]
    assert set(task.atoms.atoms(task.init)) <= core  # the state's own atoms are listed: the lists are not empty


# ----- free answers: English paraphrases and near misses -----------------------------------------------
FLUENT = record("rac_fluent", "true", UNSTACK_PUTDOWN, ["(clear a)", "(ontable a)"], object="a", fluent_type="all")


@pytest.mark.parametrize(
    "response",
    [
        "(ontable a) (clear a)",
        "a is on the table and a is clear",
        "a is clear, a is on the table.",
        "Thinking...\n**Final Answer**: a is clear; a is on the table",
        "- a is on the table\n- a is clear",
        "[(clear a), (ontable a)]",
    ],
)
def test_english_and_pddl_answers_accepted(response):
    verdict = score(FLUENT, response)
    assert (verdict.score, verdict.details["f1"]) == (1.0, 1.0), verdict.reason


@pytest.mark.parametrize(
    "response,recall,precision",
    [
        ("a is clear", 0.5, 1.0),
        ("(clear a) (ontable a) (handempty)", 1.0, 2 / 3),
        ("a is clear and a is not on the table", 0.5, 0.5),  # negation read as such
        ("b is clear and a is on the table", 0.5, 0.5),
    ],
)
def test_near_misses_score_zero(response, recall, precision):
    verdict = score(FLUENT, response)
    assert verdict.score == 0.0 and verdict.status == "scored"
    assert verdict.details["recall"] == pytest.approx(recall, abs=1e-3)
    assert verdict.details["precision"] == pytest.approx(precision, abs=1e-3)


def test_the_strict_reading_makes_an_answer_with_unread_parts_wrong():
    # "the weather is fine" and "blah" name no fact: the lenient reading (evaluation) leaves them out
    # and names them in the reason; the strict reading (rewards) scores the answer 0 with the same measures.
    noisy = "a is clear, the weather is fine, a is on the table, blah"
    lenient, strict = score(FLUENT, noisy), score(FLUENT, noisy, strict=True)
    assert (lenient.score, strict.score, strict.status) == (1.0, 0.0, "scored")
    assert "2 part(s) read as nothing: 'the weather is fine'" in lenient.reason
    assert strict.reason == "strict reading; 2 part(s) read as nothing: 'the weather is fine'"
    # each verdict names the other reading's score and reason: the two are visible side by side
    measures = {"precision": 1.0, "recall": 1.0, "f1": 1.0}
    assert strict.details == {**measures, "lenient_score": 1.0, "lenient_reason": lenient.reason}
    assert lenient.details == {**measures, "strict_score": 0.0, "strict_reason": strict.reason}
    # in PDDL syntax, words outside the groups (list punctuation and "and" aside) are unread parts
    pddl = "(ontable a) and (clear a), I am sure"
    assert (score(FLUENT, pddl).score, score(FLUENT, pddl, strict=True).score) == (1.0, 0.0)
    assert score(FLUENT, pddl, strict=True).reason == "strict reading; 1 part(s) read as nothing: 'i am sure'"
    # an answer every part of which is read scores the same under both readings
    read = ("a is clear, a is on the table.", "(ontable a) (clear a)", "- (clear a)\n- (ontable a)", "a is clear")
    for response in read:
        assert score(FLUENT, response, strict=True).score == score(FLUENT, response).score, response


def test_plural_grouping_and_negation_as_the_template_writes_them():
    stored = ["(clear a)", "(clear b)", "(clear c)", "(not (on a b))"]
    rec = record("rac_state", "true", UNSTACK_PUTDOWN, stored, fluent_type="fluents")
    for response in (
        "a, b, and c are clear; a is not on b",
        "c, a and b are clear, and it is not the case that a is on b",
        "(clear c) (clear b) (clear a) (not (on a b))",
        # an English negation of a PDDL atom, as acp writes false facts of a domain without words (obfuscated)
        "(clear c), (clear b), (clear a), it is not the case that (on a b)",
        "(clear a) (clear b) (clear c) not (on a b)",
    ):
        assert score(rec, response).score == 1.0, response
    assert score(rec, "(clear a) (clear b) (clear c) (on a b)").score == 0.0
    # the negation is the text's last word before the atom, a word of its own (not the end of "cannot")
    for response in (
        "(clear a) (clear b) (clear c) not\n (on a b)",
        "(clear a) (clear b) (clear c) surely it is not true that   (on a b)",
    ):
        assert score(rec, response).score == 1.0, response
    for response in (
        "(clear a) (clear b) (clear c) cannot (on a b)",
        "(clear a) (clear b) (clear c) not really (on a b)",
        "(clear a) (clear b) (clear c) (not_yet (on a b))",
    ):
        assert score(rec, response).score == 0.0, response
    assert score(rec, "a and b are clear; a is not on b").score == 0.0
    assert score(rec, "a, b, and c are clear; a is on b").score == 0.0


def test_false_fluents_may_be_listed_as_atoms():
    stored = ["(not (holding a))", "(not (on a b))"]
    rec = record("rac_fluent", "false", UNSTACK_PUTDOWN, stored, object="a", fluent_type="self_derived")
    assert score(rec, "the hand is not holding a; a is not on b").score == 1.0
    assert score(rec, "(holding a) (on a b)").score == 1.0
    assert score(rec, "the hand is not holding a").score == 0.0


def test_text_naming_nothing_is_a_parse_error():
    for response in ("I am not sure.", "the blocks are somewhere", ""):
        assert score(FLUENT, response).status == "parse_error", response
    number = record("rac_num", "executable", UNSTACK_PUTDOWN, 3)
    assert score(number, "no idea").status == "parse_error"


def test_numbers_and_actions_exact():
    number = record("rac_num", "executable", UNSTACK_PUTDOWN, 3)
    assert [score(number, r).score for r in ("3", "**Final Answer**: three", "There are 4.")] == [1.0, 1.0, 0.0]
    first = record("rac_exec", "first", ["(unstack a b)", "(stack b c)", "(put-down a)"], ["(stack b c)"])
    assert score(first, "(STACK b c)").score == 1.0
    assert score(first, "stack b onto c").score == 1.0  # the template's English
    assert score(first, "put a down on the table").score == 0.0
    assert score(first, "unstack a from b").score == 0.0


def test_validate_uses_the_second_route_and_catches_a_wrong_answer():
    task = TASKS["rac_num"]
    assert task.validate(RecordContext(record("rac_num", "executable", UNSTACK_PUTDOWN, 3))).verdict == "ok"
    assert task.validate(RecordContext(record("rac_num", "executable", UNSTACK_PUTDOWN, 4))).verdict == "wrong"


def test_stored_answers_score_one_in_english_and_pddl():
    for rec in (
        FLUENT,
        record("rac_exec", "executable", UNSTACK_PUTDOWN, ["(pick-up a)", "(pick-up b)", "(pick-up c)"]),
    ):
        responses = TASKS[rec["task"]].to_responses(rec)
        assert len(responses) == 2 and "(" in responses[0] and "(" not in responses[1]
        assert [score(rec, r).score for r in responses] == [1.0, 1.0]


def test_core_and_interpreter_agree_on_random_walks():
    task = GroundTask.from_strings(DOMAIN, PROBLEM)
    core, lifted = CoreWorld(task, TYPES), LiftedWorld(task.lifted, TYPES)
    rng = random.Random(3)
    facts = core.init
    for _ in range(30):
        assert core.executable(facts) == lifted.executable(facts)
        action = rng.choice(core.executable(facts))
        facts, other = core.step(facts, action), lifted.step(facts, action)
        assert facts == other


RAC_TASKS = ("rac_fluent", "rac_state", "rac_exec", "rac_effects", "rac_num", "rac_comp")


def _tiny_config(tmp_path, seed: int, states: dict, qa: dict, domains: dict):
    """A small pipeline config (gen and bool, short planner budgets) written to ``tmp_path``, output in
    ``tmp_path/out``."""
    config = tmp_path / "c.yaml"
    plans = {"number_of_plans": 2, "time_limit": 20, "diverse_plans": 2, "diverse_time_limit": 20}
    raw = {"seed": seed, "out": str(tmp_path / "out"), "plans": plans, "states": states}
    config.write_text(json.dumps({**raw, "qa": {"formats": ["gen", "bool"], **qa}, "domains": domains}))
    return config


@pytest.mark.slow
def test_generated_records_validate_and_score(tmp_path):
    """A tiny run of the pipeline: every stored answer is re-proven and scores 1 in English and PDDL."""
    from click.testing import CliRunner

    from acpgen.cli import cli

    config = _tiny_config(
        tmp_path,
        seed=2,
        states={"rollouts_per_state": 1, "rollout_length": 3, "max_per_problem": 10},
        qa={"questions_per_task": 2, "candidates_per_task": 10, "tasks": list(RAC_TASKS)},
        domains={
            "ferry": {"problems": 1, "sizes": [{"locations": 2, "cars": 2}]},
            "blocksworld": {"problems": 1, "sizes": [{"blocks": 3}]},
        },
    )
    runner = CliRunner()
    for domain in ("ferry", "blocksworld"):
        assert runner.invoke(cli, ["generate", "--config", str(config), "--domain", domain]).exit_code == 0
    data = tmp_path / "out"
    records = [
        json.loads(line) for path in sorted(data.glob("*/*.gen.jsonl")) for line in path.read_text().splitlines()
    ]
    assert {r["ramifications"] for r in records} == {True, False}  # both domains' templates have rules
    assert any("Some properties are not changed by the actions" in r["context"] for r in records if r["ramifications"])
    assert runner.invoke(cli, ["validate", str(data)]).exit_code == 0
    preds = tmp_path / "preds.jsonl"
    assert runner.invoke(cli, ["reference-answers", str(data), "-o", str(preds)]).exit_code == 0
    scores = tmp_path / "scores.jsonl"
    assert runner.invoke(cli, ["score", str(preds), "--dataset", str(data), "-o", str(scores)]).exit_code == 0
    lines = [json.loads(line) for line in scores.read_text().splitlines()]
    assert lines and all(line["score"] == 1.0 for line in lines)


# ----- ramification variants: derived fluents evaluated by the interpreter's own fixpoint -------------------
def variant_pddl() -> tuple[str, str]:
    from acpgen.nl.ramified import rules_of
    from acpgen.nl.template import load_template
    from acpgen.pddl.ramifications import variant_domain, variant_problem

    base = GroundTask.from_strings(DOMAIN, PROBLEM)
    rules = rules_of(load_template("blocksworld"))
    return variant_domain(base.lifted, rules), variant_problem(base, rules)


def test_a_variant_lists_the_base_domains_fluents_and_the_derivable_rule_atoms():
    """The blocksworld variant of the 3-block problem: its base atoms are the base domain's 16 (no block on
    itself), and each rule atom a rule can derive from them (clear, handempty, alone and astray of each block,
    spread, idle, by the template's rules) is listed too."""
    from acpgen.tasks.sequences import base_pddl

    domain, problem = variant_pddl()
    task = GroundTask.from_strings(domain, problem)
    base = base_pddl({"domain": "blocksworld"}, task.lifted)
    assert base is not None and "(:derived" not in base[0] and "(clear a)" in base[1]
    core = CoreWorld(task, {}, GroundTask.from_strings(*base)).atoms
    lifted = LiftedWorld(task.lifted, {}, GroundTask.from_strings(*base).lifted).atoms
    assert core == lifted
    assert not {"(on a a)", "(on b b)", "(on c c)"} & set(core)
    assert {"(on a b)", "(clear a)", "(handempty)", "(alone c)", "(spread)", "(idle)"} <= set(core)


def brute_force_derived(base_atoms: set[str], blocks: tuple[str, ...]) -> set[str]:
    """The blocksworld rules written out by hand (templates/blocksworld.yaml), four levels deep:
    clear, handempty -> alone -> spread -> idle."""
    holding = {b for b in blocks if f"(holding {b})" in base_atoms}
    clear = {b for b in blocks if b not in holding and not any(f"(on {o} {b})" in base_atoms for o in blocks)}
    alone = {b for b in clear if f"(ontable {b})" in base_atoms}
    out = {f"(clear {b})" for b in clear} | {f"(alone {b})" for b in alone}
    if not holding:
        out.add("(handempty)")
    if all(b in alone or b in holding for b in blocks):
        out.add("(spread)")
        if not holding:
            out.add("(idle)")
    return out


def test_interpreter_derives_the_rules_like_a_brute_force_evaluation_and_the_core():
    domain, problem = variant_pddl()
    task = GroundTask.from_strings(domain, problem)
    types = {p: "derived" for p in ("clear", "handempty", "alone", "spread", "idle")}
    types.update(on="self_derived", holding="self_derived", ontable="base")
    core, lifted = CoreWorld(task, types), LiftedWorld(task.lifted, types)
    derived = {"clear", "handempty", "alone", "spread", "idle"}
    rng = random.Random(5)
    facts, seen = lifted.init, set()
    assert facts == core.init
    for step in range(40):
        base = {a for a in facts if a[1:].split()[0].rstrip(")") not in derived}
        assert {a for a in facts if a not in base} == brute_force_derived(base, ("a", "b", "c"))
        seen |= facts - base
        assert core.executable(facts) == lifted.executable(facts)
        # first to the state where every block stands alone (idle holds), then a random walk
        action = UNSTACK_PUTDOWN[step] if step < len(UNSTACK_PUTDOWN) else rng.choice(lifted.executable(facts))
        facts, other = lifted.step(facts, action), core.step(facts, action)
        assert facts == other
    assert {"(idle)", "(spread)", "(alone a)"} <= seen  # the deepest rules fired on the walk


def test_variant_record_answers_by_hand_score_one_in_english_and_pddl():
    domain, problem = variant_pddl()
    # after unstacking a and putting it down, every block stands alone and the hand is idle
    rec = {
        **record("rac_fluent", "true", UNSTACK_PUTDOWN, ["(alone a)", "(clear a)"], object="a", fluent_type="derived"),
        "PDDL_domain": domain,
        "PDDL_problem": problem,
        "ramifications": True,
    }
    assert TASKS["rac_fluent"].validate(RecordContext(rec)).verdict == "ok"
    responses = TASKS["rac_fluent"].to_responses(rec)
    assert len(responses) == 2 and "a is alone" in responses[1]
    assert [score(rec, r).score for r in responses] == [1.0, 1.0]
    assert score(rec, "a is clear and a is alone").score == 1.0
    assert score(rec, "a is clear").score == 0.0
    wrong = {**rec, "answer": ["(clear a)"]}
    assert TASKS["rac_fluent"].validate(RecordContext(wrong)).verdict == "wrong"
    state = {**record("rac_state", "true", UNSTACK_PUTDOWN, ["(idle)", "(spread)"], fluent_type="derived")}
    state.update(PDDL_domain=domain, PDDL_problem=problem, ramifications=True)
    assert TASKS["rac_state"].validate(RecordContext(state)).verdict == "wrong"  # clear, alone, handempty too
    state["answer"] = sorted(
        ["(idle)", "(spread)", "(handempty)"] + [f"({p} {b})" for p in ("alone", "clear") for b in "abc"]
    )
    assert TASKS["rac_state"].validate(RecordContext(state)).verdict == "ok"


# ----- the question text, read back: a text that leaves out a restriction of its answer is wrong ----------
# After (unstack a b), (stack a c) makes a on c, a clear and the hand empty, and c no longer clear; of those,
# clear and handempty are derived (TYPES).
SEQ_TEXT = "Suppose these 1 actions are performed in order from the current state: unstack a from b."
EFFECTS = (
    SEQ_TEXT + ' If then the action "stack a onto c" is performed, which {words} become true (they were false '
    "before)? List all of them."
)


def effects_record(text: str, fluent_type: str = "derived", stored=("(clear a)", "(handempty)")) -> dict:
    return record(
        "rac_effects",
        "added",
        ["(unstack a b)"],
        list(stored),
        action="(stack a c)",
        fluent_type=fluent_type,
        fluent_types=record_types(TYPES),
        question=text,
    )


def validate(rec: dict, kind: str | None = None):
    from acpgen.evaluation.validate import check_record
    from acpgen.tasks import ScoreOptions

    return check_record(kind or rec["task"], rec, ScoreOptions())


def test_a_text_that_names_its_restriction_validates():
    check = validate(effects_record(EFFECTS.format(words="properties that follow from other properties")))
    assert check.verdict == "ok", check.reason


@pytest.mark.parametrize(
    "text, why",
    [
        # the case: the text asks for every fact made true, (on a c) included
        (EFFECTS.format(words="properties"), "fluent_type"),
        # another type than the record's: ontable is the only base predicate, and it does not change
        (EFFECTS.format(words="properties that actions change directly"), "fluent_type"),
        # the text written before the fix, which names no type: no question acp asks
        (
            SEQ_TEXT + ' If then the action "stack a onto c" is performed, which facts that were false become true? '
            "List all of them.",
            "not read back",
        ),
        # another further action: stacking a onto b makes b unclear instead; added derived: a clear, hand empty
        # (the same), so the text must also differ in what it reads back -> the action field disagrees
        (
            SEQ_TEXT.replace("unstack a from b", "pick up c from the table")
            + ' If then the action "stack c onto a" is performed, which properties that follow from other properties '
            "become true (they were false before)? List all of them.",
            "sequence",
        ),
    ],
)
def test_a_text_that_asks_something_else_than_the_fields_is_wrong(text, why):
    check = validate(effects_record(text))
    assert check.verdict == "wrong"
    assert why in check.reason


# unstack a b, put-down a: every block on the table and clear, the hand empty
FLUENT_TEXT = (
    "Suppose these {n} actions are performed in order from the current state: {seq}. Which properties of {obj} "
    "are {pol} afterwards? List all of them."
)


@pytest.mark.parametrize(
    "n, seq, obj, pol, verdict",
    [
        ("2", "unstack a from b, put a down on the table", "a", "true", "ok"),
        ("2", "unstack a from b, put a down on the table", "c", "true", "wrong"),  # another object
        ("2", "unstack a from b, put a down on the table", "a", "false", "wrong"),  # the other polarity
        ("1", "unstack a from b", "a", "true", "wrong"),  # a shorter sequence: a is held, not on the table
        ("2", "unstack a from b", "a", "true", "wrong"),  # the count does not match the list
        ("2", "unstack a from b, fly a to the moon", "a", "true", "wrong"),  # a step that names no action
    ],
)
def test_fluent_questions_are_read_back_from_their_text(n, seq, obj, pol, verdict):
    # a after the two actions: on the table and clear (and not held, not on anything)
    rec = record(
        "rac_fluent",
        "true",
        UNSTACK_PUTDOWN,
        ["(clear a)", "(ontable a)"],
        object="a",
        fluent_type="all",
        fluent_types=record_types(TYPES),
        question=FLUENT_TEXT.format(n=n, seq=seq, obj=obj, pol=pol),
    )
    assert validate(rec).verdict == verdict


BOOL_EFFECTS = (
    "Suppose these 1 actions are performed in order from the current state: unstack a from b, and then the "
    'action "stack a onto c". Is the following true afterwards: {fact}?'
)


@pytest.mark.parametrize(
    "fact, answer, verdict",
    [
        ("a is on c", "yes", "ok"),
        ("c is not clear", "yes", "ok"),
        ("a is on b", "yes", "wrong"),  # the claim's fields say (on a c); the text asks about (on a b)
        ("a is on c", "no", "wrong"),
    ],
)
def test_boolean_questions_are_decided_from_their_text(fact, answer, verdict):
    claim_value = "(not (clear c))" if "clear" in fact else "(on a c)"
    truth = claim_value in ("(on a c)", "(not (clear c))")
    rec = {
        **record("rac_effects", "holds_after", ["(unstack a b)"], answer, action="(stack a c)"),
        "format": "bool",
        "fluent_type": "fluents",
        "fluent_types": record_types(TYPES),
        "claim": {"about": "holds_after", "value": claim_value},
        "question": BOOL_EFFECTS.format(fact=fact),
    }
    check = validate(rec, "rac_effects.bool")
    if answer == "no" and truth:  # the fields themselves are wrong: caught before the text is read
        assert check.verdict == "wrong"
    else:
        assert check.verdict == verdict, check.reason


def test_multiple_choice_options_are_read_back_in_their_order():
    stem = (
        "Suppose these 2 actions are performed in order from the current state: unstack a from b, put a down on "
        "the table. How many actions can be performed in the resulting state?"
    )
    # every block on the table and clear, the hand empty: pick up a, b or c -> 3 actions
    options = [{"about": "executable", "value": v} for v in (3, 1, 2, 5)]
    rec = {
        **record("rac_num", "executable", UNSTACK_PUTDOWN, "A"),
        "format": "mcq",
        "fluent_type": None,
        "fluent_types": record_types(TYPES),
        "options": options,
        "query": stem,
        "question": stem + " A. 3. B. 1. C. 2. D. 5.",
        "choices": {"text": ["3", "1", "2", "5"], "label": list("ABCD")},
    }
    assert validate(rec, "rac_num.mcq").verdict == "ok"
    rec["choices"] = {"text": ["1", "3", "2", "5"], "label": list("ABCD")}  # the texts no longer follow the claims
    assert validate(rec, "rac_num.mcq").verdict == "wrong"


# ----- fluent types are the domain's: the same for a state whose goal is unreachable ------------------------
FLOORTILE = (DOMAINS_DIR / "floortile" / "domain.pddl").read_text()
# t1 above t2, one robot on t2 holding white; black and white available
TILES = """(define (problem two) (:domain floor-tile)
  (:objects t1 t2 - tile r - robot black white - color)
  (:init (up t1 t2) (down t2 t1) (robot-at r t2) (robot-has r white) (available-color black)
         (available-color white) {extra})
  (:goal (painted t1 black)))"""


def test_fluent_types_do_not_depend_on_the_records_state():
    from acpgen.tasks.base import QAItem
    from acpgen.tasks.sequences import item_fluent_types

    solvable = TILES.format(extra="(clear t1)")
    dead_end = TILES.format(extra="(painted t1 white)")  # t1 is painted white: it can never be black
    problems = (solvable,)
    types = []
    for problem in (solvable, dead_end):
        ctx = RecordContext({"id": 1, "domain": "floortile", "PDDL_domain": FLOORTILE, "PDDL_problem": problem})
        types.append(item_fluent_types(ctx, ctx, QAItem({}, None, (), problems)))
    assert types[0] == types[1]
    # by hand: a robot is on one tile and holds one colour; a tile has one colour; clear is derived
    # (the template), the grid and the available colours are static
    assert types[0] == {
        "available-color": "static",
        "clear": "derived",
        "down": "static",
        "free-color": "static",
        "left": "static",
        "painted": "self_derived",
        "right": "static",
        "robot-at": "self_derived",
        "robot-has": "self_derived",
        "up": "static",
    }


@pytest.mark.parametrize("domain, translations", [("ferry", 1), ("grippers", 1), ("blocksworld", 3)])
def test_fluent_types_need_only_the_problems_that_decide_them(domain, translations):
    """The types come from the mutex groups of the domain's problems, translated in order only until every
    predicate whose type the groups decide is single-valued. Ferry's and grippers' are after the first problem;
    blocksworld's ontable never is (two blocks are on the table at once), so all three are translated. Either
    way the types are those of the groups of all the problems."""
    from acpgen.nl.template import load_template
    from acpgen.pddl.fluents import classify, single_valued_predicates
    from acpgen.planners import Status
    from acpgen.tasks.base import QAItem
    from acpgen.tasks.sequences import item_fluent_types

    generator = get_generator(domain)
    size = {"ferry": {"locations": 3, "cars": 2}, "grippers": {"robots": 1, "rooms": 2, "balls": 2}}.get(
        domain, {"blocks": 3}
    )
    problems = tuple(generator.render(generator.generate(size, random.Random(seed))) for seed in (7, 8, 9))
    text = (DOMAINS_DIR / domain / "domain.pddl").read_text()
    ctx = RecordContext({"id": 1, "domain": domain, "PDDL_domain": text, "PDDL_problem": problems[0]})
    translated = []
    ask = ctx.planners.mutex_groups

    def counted(domain_text, problem, limits):
        translated.append(problem)
        return ask(domain_text, problem, limits)

    ctx.planners.mutex_groups = counted
    types = item_fluent_types(ctx, ctx, QAItem({}, None, (), problems))
    assert translated == list(problems[:translations])
    groups = []
    for problem in problems:
        result = ask(text, problem, ctx.options.limits)
        assert result.status == Status.SOLVED
        groups += result.groups
    overrides = load_template(domain).fluent_types
    whole = classify(ctx.task.lifted, single_valued_predicates(groups), overrides)
    assert types == {p: t.value for p, t in whole.items()}


def test_every_record_of_a_domain_has_the_domains_fluent_types(tmp_path):
    """A generated dataset (floortile, whose rollout states include dead ends): one type map per domain and
    variant in all records, every record valid with its text read back."""
    from click.testing import CliRunner

    from acpgen.cli import cli

    config = _tiny_config(
        tmp_path,
        seed=5,
        states={"rollouts_per_state": 2, "rollout_length": 6, "max_per_problem": 40},
        qa={"questions_per_task": 6, "candidates_per_task": 40, "tasks": ["rac_fluent", "rac_state", "rac_effects"]},
        domains={"floortile": {"problems": 2, "sizes": [{"rows": 2, "columns": 3, "robots": 2}]}},
    )
    runner = CliRunner()
    result = runner.invoke(cli, ["generate", "--config", str(config), "--domain", "floortile"])
    assert result.exit_code == 0, result.output
    data = tmp_path / "out"
    records = [
        json.loads(line) for path in sorted(data.glob("*/rac_*.jsonl")) for line in path.read_text().splitlines()
    ]
    assert len(records) == 36  # 3 tasks x 2 formats x 6 questions
    maps: dict[bool, set[str]] = {}
    for r in records:
        maps.setdefault(r["ramifications"], set()).add(json.dumps(r["fluent_types"], sort_keys=True))
    assert {k: len(v) for k, v in maps.items()} == {False: 1, True: 1}
    assert runner.invoke(cli, ["validate", str(data)]).exit_code == 0


def _walked_task(domain: str, seed: int) -> GroundTask:
    """A state a few random steps from a generated problem's initial state, as the task of its own PDDL."""
    task = generated_problem(domain, seed)
    rng = random.Random(seed)
    return GroundTask.from_strings(
        task.lifted.domain_text, render_problem(task, random_walk(task, rng.randint(1, 6), rng))
    )


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_two_worlds_list_the_same_atoms_from_states_of_every_domain(domain):
    # the core's h² on bit masks and the separate interpreter's on sets of pairs, each kept for the process
    # per kind of world and state: two routes to one set, asked twice
    for seed in (1, 2):
        task = _walked_task(domain, seed)
        core, lifted = CoreWorld(task, {}), LiftedWorld(task.lifted, {})
        assert core.universe() == lifted.universe(), (domain, seed)
        assert core.universe() is CoreWorld(task, {}).universe()
        assert set(task.atoms.atoms(task.init)) <= core.universe()
        # the atoms of the first states reached breadth first (a lower bound of the listed ones), each world its own
        # way: among the listed atoms, and alike where the whole space is explored
        for most in (1, 30, 300):
            assert core.reached(most) <= core.universe() and lifted.reached(most) <= core.universe(), (domain, most)
        if explore(task, task.init, 300).complete:
            assert core.reached(300) == lifted.reached(300), domain


def _explore_for_unfit(monkeypatch) -> None:
    """surely_unfit explores from every state, the listed atoms known or not (else it leaves small states, and
    states whose listed atoms it has, to the answer)."""
    from acpgen.proofs.change import questions
    from acpgen.proofs.change.world import World

    monkeypatch.setattr(questions, "UNFIT_FACTS", 0)
    monkeypatch.setattr(World, "universe_known", lambda self: False)


def _answers_against_the_listed_atoms(task: GroundTask, worlds: list, rng: random.Random) -> int:
    """answer() lists the true literals and an action's effects from the states alone, and surely_unfit judges
    the length of a false-literal answer without the listed atoms (World.atoms, h²); both are compared here with
    what the listed atoms give (_relevant), every list derived here: the same lists, and a verdict of unfit only
    for an answer longer than `most` or empty (never for an answer that needs no h²). Returns the number of
    comparisons."""
    from acpgen.proofs.change.literals import negated
    from acpgen.proofs.change.questions import _relevant, surely_unfit
    from acpgen.proofs.change.sequences import walk

    compared = 0
    questions = [("fluent", v) for v in ("true", "false", "both")] + [("state", "true"), ("state", "false")]
    questions += [("effects", "added"), ("effects", "deleted"), ("numerical", "true"), ("composite", "fluents_before")]
    for world in worlds:
        for _ in range(12):
            sequence = walk(task, task.init, rng, rng.randint(1, 4))
            if sequence is None:
                continue
            states = world.run(sequence)[0]
            for category, variant in questions:
                kind = rng.choice(sorted(set(world.types.values())) + ["all"])
                obj = rng.choice(sorted(task.lifted.objects)) if category == "fluent" else None
                action = rng.choice(world.executable(states[-1]) or [""]) if category == "effects" else None
                q = Question(category, variant, tuple(sequence), kind, obj, action)
                if category == "effects" and not action:
                    continue
                if category == "composite":  # about the state before an inexecutable last action
                    q = Question(category, variant, (*sequence[:-1], "(no-such-action)"), kind, obj)
                    states = world.run(sequence[:-1])[0]
                listed = _relevant(world, q)
                if category == "effects":
                    after = world.step(states[-1], action)
                    before = states[-1]
                    changed = (after - before) if variant == "added" else (before - after)
                    expected = [a for a in listed if a in changed]
                elif variant in ("true", "fluents_before"):
                    expected = [a for a in listed if a in states[-1]]
                else:  # false literals, or all of them
                    false = [negated(a) for a in listed if a not in states[-1]]
                    true = [a for a in listed if a in states[-1]] if variant == "both" else []
                    expected = sorted(false + true)
                if category == "numerical":
                    assert answer(world, q) == len(expected), q
                else:
                    assert answer(world, q) == expected, q
                for most in (2, 40):
                    unfit = surely_unfit(world, q, most)
                    assert not unfit or len(expected) > most or not expected, (q, most, expected)
                    assert not unfit or variant in ("false", "both"), q
                    compared += 1
    return compared


@pytest.mark.parametrize("domain", DOMAINS)
def test_answers_from_the_states_alone_are_those_of_the_listed_atoms(domain, monkeypatch):
    _explore_for_unfit(monkeypatch)
    # a state where something applies (in alfworld, a walk may end after the goal's validation)
    task = next(t for t in map(lambda seed: _walked_task(domain, seed), range(1, 40)) if t.applicable(t.init))
    types = {p: ("base", "derived")[i % 2] for i, p in enumerate(sorted(task.lifted.predicates))}
    worlds = [CoreWorld(task, types), LiftedWorld(task.lifted, types)]
    assert _answers_against_the_listed_atoms(task, worlds, random.Random(5)) > 100


def test_answers_from_the_states_alone_are_those_of_the_listed_atoms_in_a_ramification_variant(monkeypatch):
    _explore_for_unfit(monkeypatch)
    from acpgen.tasks.sequences import base_pddl

    domain, problem = variant_pddl()
    task = GroundTask.from_strings(domain, problem)
    base = base_pddl({"domain": "blocksworld"}, task.lifted)
    assert base is not None
    types = {p: "derived" for p in ("clear", "handempty", "alone", "spread", "idle")}
    types.update(on="self_derived", holding="self_derived", ontable="base")
    worlds = [
        CoreWorld(task, types, GroundTask.from_strings(*base)),
        LiftedWorld(task.lifted, types, GroundTask.from_strings(*base).lifted),
    ]
    assert _answers_against_the_listed_atoms(task, worlds, random.Random(6)) > 100
    for world in worlds:
        assert world.reached(500) <= world.universe()


@pytest.mark.parametrize("domain", ["satellite", "grid", "rovers"])
def test_no_static_literal_is_ever_false_among_the_listed_atoms(domain):
    # surely_unfit's first argument: a question about the false literals of static predicates has an empty answer,
    # derived here from the listed atoms (h²) and the predicates no action changes
    from acpgen.pddl.fluents import classify
    from acpgen.proofs.change.questions import _relevant, surely_unfit
    from acpgen.proofs.change.sequences import walk

    task = _walked_task(domain, 3)
    types = {p: t.value for p, t in classify(task.lifted, frozenset()).items()}
    assert "static" in types.values()
    world = CoreWorld(task, types)
    sequence = walk(task, task.init, random.Random(3), 3)
    assert sequence is not None
    q = Question("state", "false", tuple(sequence), "static")
    final = world.run(list(sequence))[0][-1]
    assert [a for a in _relevant(world, q) if a not in final] == []
    assert answer(world, q) == [] and surely_unfit(world, q, 40)
    assert not surely_unfit(world, Question("state", "true", tuple(sequence), "static"), 40)
