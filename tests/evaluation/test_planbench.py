"""PlanBench's own files (acpgen.evaluation.planbench): read, turned into plan records and scored, on the
hand-written PlanBench-format files of tests/fixtures/planbench.

The fixtures, in PlanBench's layout and format: ``generated_domain.pddl`` (the 4-operator blocksworld,
written from the standard semantics), ``instances/instance-{1,2,3}.pddl`` and three result files,
``results/blocksworld/model-a/task_1_plan_generation.json`` (ground truths as a list of PDDL actions, as
PlanBench's task 1 results hold them), ``model-b/task_1_plan_generation.json`` (ground truths as a text with
PlanBench's colour names, as its prompt files hold them), ``model-a/task_2_plan_optimality.json`` (ground
truths in words, as its task 8 files hold them) and ``model-c/task_1_plan_generation.json`` (the domain named
``blocksworld_zero_shot`` as PlanBench's zero-shot result files name it; answers with prose, commentary
and markdown around their steps). PlanBench's blocksworld names objects a, b, c the red, blue
and orange block.

The three problems and their optimal costs, by hand:

* instance 1: red on blue, blue and orange on the table; goal blue on orange. The only action adding
  (on b c) is (stack b c), which needs b held; b is on the table, so (pick-up b), which needs b clear:
  (unstack a b) first, and the hand emptied of a before the pick-up: 4 steps at least, and
  (unstack a b) (put-down a) (pick-up b) (stack b c) is a plan. Optimal cost 4.
* instance 2: the three blocks on the table; goal red on blue and blue on orange. Two stacks, each
  after its own pick-up: 4 steps at least; (pick-up b) (stack b c) (pick-up a) (stack a b) is a plan
  (blue must go first: with red on it, blue is not clear to pick up). Optimal cost 4.
* instance 3: blue on red, red and orange on the table; goal red on orange. As instance 1 with the
  roles swapped: (unstack b a) (put-down b) (pick-up a) (stack a c). Optimal cost 4.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import FIXTURES

from acpgen.cli import cli
from acpgen.errors import DataError
from acpgen.evaluation.planbench import (
    WORDINGS,
    failure_rates,
    plan_block,
    planbench_predictions,
    read_config,
    score_planbench,
    translate,
    wording_of,
)
from acpgen.tasks import PARSE_ERROR, SCORED

PLANBENCH = FIXTURES / "planbench"
DOMAIN = PLANBENCH / "generated_domain.pddl"
INSTANCES = PLANBENCH / "instances"
RESULTS = PLANBENCH / "results" / "blocksworld"
A_T1 = RESULTS / "model-a" / "task_1_plan_generation.json"
B_T1 = RESULTS / "model-b" / "task_1_plan_generation.json"
A_T2 = RESULTS / "model-a" / "task_2_plan_optimality.json"
C_T1 = RESULTS / "model-c" / "task_1_plan_generation.json"

OPTIMAL = {
    1: ["(unstack a b)", "(put-down a)", "(pick-up b)", "(stack b c)"],
    2: ["(pick-up b)", "(stack b c)", "(pick-up a)", "(stack a b)"],
    3: ["(unstack b a)", "(put-down b)", "(pick-up a)", "(stack a c)"],
}


def predictions(path):
    return planbench_predictions(path, DOMAIN, INSTANCES)


# ----- records ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", [A_T1, B_T1, A_T2], ids=["list", "colour-text", "words"])
def test_each_answered_instance_is_a_plan_record_with_the_ground_truth_in_pddl_names(path):
    items = predictions(path)
    assert [p.line["instance_id"] for p in items] == ([1, 2, 3] if path != A_T2 else [1, 2])
    for item in items:
        number = item.line["instance_id"]
        record = item.record
        assert record["id"] == f"blocksworld/{number}" and record["domain"] == "blocksworld"
        assert record["PDDL_domain"] == DOMAIN.read_text()
        assert record["PDDL_problem"] == (INSTANCES / f"instance-{number}.pddl").read_text()
        # every file's ground truth, whatever its form, is the optimal plan worked out above
        assert record["answer"] == OPTIMAL[number]
        # the ground truth's length is no proof of optimality: the scorer decides the optimum itself
        assert "optimal_cost" not in record
        assert item.task == record["task"] == ("optplan" if path == A_T2 else "plan")


def test_a_line_keeps_the_raw_response_what_acp_read_and_planbench_s_verdict():
    first = predictions(A_T1)[0]
    assert first.line["planbench_task"] == "t1" and first.line["engine"] == "model-a"
    assert first.line["planbench_file"] == str(A_T1) and first.line["planbench_correct"] is True
    assert first.line["llm_raw_response"].startswith("Here is the plan:\n[PLAN]\n")
    assert first.response == first.line["response"]
    assert "planbench_correct" not in predictions(B_T1)[2].line  # PlanBench writes none for an empty response


# ----- reading ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "number", "read"),
    [
        # the plan block after "[PLAN]" and before "[PLAN END]"; each line in words is an action: line form
        (A_T1, 1, "unstack a b\nput-down a\npick-up b\nstack b c"),
        # PDDL form: no line in words, the block as written
        (A_T1, 2, "(pick-up b)\n(stack b c)\n(pick-up a)\n(stack a b)"),
        # numbering "1." ... "6." is not part of a step
        (A_T1, 3, "unstack b a\nstack b c\nunstack b c\nput-down b\npick-up a\nstack a c"),
        # "pick up the block" names no object: not an action in words, kept as written, a step
        (B_T1, 1, "unstack a b\nput-down a\npick up the block\npick-up b\nstack b c"),
        (B_T1, 3, ""),
        # the cost sentence after "[PLAN END]" is not read
        (A_T2, 2, "(pick-up b)\n(stack b c)\n(pick-up a)\n(stack a b)"),
    ],
)
def test_answers_are_read_as_derived_by_hand(path, number, read):
    item = next(p for p in predictions(path) if p.line["instance_id"] == number)
    assert item.response == read


BLOCKSWORLD, MYSTERY = WORDINGS["blocksworld"], WORDINGS["mystery_blocksworld"]
RANDOMIZED = WORDINGS["random_blocksworld"]


@pytest.mark.parametrize(
    ("wording", "line", "action"),
    [
        (BLOCKSWORLD, "unstack the yellow block from on top of the orange block", "(unstack d c)"),
        (BLOCKSWORLD, "Step 2: Stack the Red block on top of the blue block.", "(stack a b)"),
        (BLOCKSWORLD, "- pick up red block", "(pick-up a)"),  # "the" left out
        (BLOCKSWORLD, "unstack the yellow block from the blue block", "(unstack d b)"),  # "on top of" left out
        (BLOCKSWORLD, "put down the yellow block on the table", "(put-down d)"),
        (BLOCKSWORLD, "pick up the red block from the table", "(pick-up a)"),
        (BLOCKSWORLD, "stack the red on top of the blue", "(stack a b)"),  # the short names of the ground truths
        (BLOCKSWORLD, "3. unstack the red block from the blue block (now holding the red block)", "(unstack a b)"),
        # a colon before the remark, markdown's heading marks and underscores
        (
            BLOCKSWORLD,
            "1. unstack the red block from on top of the orange block:  (The red block is clear.)",
            "(unstack a c)",
        ),
        (BLOCKSWORLD, "#### Step 2: stack the _blue block_ on top of the _orange_ block", "(stack b c)"),
        (BLOCKSWORLD, "put down the yellow block in an empty space", None),  # words added
        (BLOCKSWORLD, "stack the red block under the orange block", None),  # "under" is no word of stack's
        (BLOCKSWORLD, "unstack the red block from the table", None),  # the table is no block
        (BLOCKSWORLD, "pick up the block", None),  # no object named
        (BLOCKSWORLD, "pick up the red block and the blue block", None),
        (BLOCKSWORLD, "(pick-up a)", None),  # PDDL, not words
        (MYSTERY, "feast object b from object c", "(feast b c)"),
        (MYSTERY, "Attack object a.", "(attack a)"),
        (MYSTERY, "2. overcome object c from object b", "(overcome c b)"),
        (MYSTERY, "succumb object", None),
        (MYSTERY, "### 4. overcome object _c_ from object _b_", "(overcome c b)"),
        (RANDOMIZED, "xptxjrdkbi3pqsqr object d from object c", "(unstack d c)"),
        (RANDOMIZED, "1jpkithdyjmlikck object c", "(pick-up c)"),  # the leading digit is no numbering
        (RANDOMIZED, "1. 9big8ruzarkkquyu object d", "(put-down d)"),
        (RANDOMIZED, "2ijg9q8swj2shjel object c from object a", "(stack c a)"),
    ],
)
def test_a_line_in_words_is_exactly_one_action_or_none(wording, line, action):
    assert wording.step(line) == action


def test_pddl_actions_with_object_names_get_the_objects_unless_the_instance_has_those_names():
    assert BLOCKSWORLD.rename("(unstack yellow orange) (put-down yellow)", {"a", "c", "d"}) == (
        "(unstack d c) (put-down d)"
    )
    assert BLOCKSWORLD.rename("(unstack red blue)", {"red", "blue"}) == "(unstack red blue)"
    assert BLOCKSWORLD.rename("(unstack red)", {"a"}) == "(unstack red)"  # one argument short: as written


def test_the_plan_block():
    assert plan_block("Sure.\n[PLAN]\n(pick-up a)\n[PLAN END]\n[STATEMENT]\n(stack a b)").strip() == "(pick-up a)"
    assert plan_block("(pick-up a)\n[PLAN END]\nThe total time is 1 minute.").strip() == "(pick-up a)"
    assert plan_block("(pick-up a)\n\n[STATEMENT]\nAs initial conditions").strip() == "(pick-up a)"
    assert plan_block("<think>[PLAN] (stack a b)</think>\n(pick-up a)").strip() == "(pick-up a)"
    # a plan worked through and restated under a "Final plan" heading: the restatement, once
    worked = "1. Attack object a\n   - Preconditions: harmony\n2. Succumb object a\n\n**Final Plan:**\n"
    assert plan_block(worked + "1. attack object a\n2. succumb object a").strip() == (
        "1. attack object a\n2. succumb object a"
    )
    # a heading with nothing after it, or "final plan" inside a sentence, is no heading to cut at
    assert plan_block("Final plan:\n(pick-up a)\n### Final Plan\n").strip() == "(pick-up a)\n### Final Plan"
    assert plan_block("The final plan is:\n(pick-up a)").strip() == "The final plan is:\n(pick-up a)"


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ("pick up the block", True),  # starts with an action's first word
        ("Put simply, that is all", True),
        ("- Action: put down the blue block", True),  # an action's wording among other words
        ("Next, unstack the red block from the blue block.", True),
        ("you must put down the blue block to free your hand", True),
        ("This is possible because the red block is clear and on top of the orange block.", False),
        ("This plan unstacks the blocks and stacks them again.", False),  # "unstacks", "stacks": no action's word
        ("Preconditions: the hand is empty", False),
        ("The stack is now three blocks high.", False),  # "the" first: no action's first word
        ("Plan:", False),
        ("Stack", True),
        ("(unstack the red block from the blue block)", False),  # only a remark, which is left out
    ],
)
def test_a_line_names_an_action_when_it_starts_with_one_or_holds_one(line, names):
    assert BLOCKSWORLD.holds_action(line) is names


def test_in_words_a_line_naming_an_action_is_a_step_and_one_naming_none_is_not():
    # a line that starts as an action is a step, an unreadable one when it is no action's wording;
    # PDDL lines are kept
    text = "unstack the yellow block from the top\n(put-down d)\npick up the orange block (see above)"
    assert translate(text, BLOCKSWORLD) == "unstack the yellow block from the top\nput-down d\npick-up c"
    # a heading, commentary between the steps and a closing remark name no action: no steps
    text = (
        "Here is my plan\n1. Unstack the red block from the blue block\n   - Now the hand holds the red block\n"
        "2. Put down the red block\nThis plan leaves the blue block clear."
    )
    assert translate(text, BLOCKSWORLD) == "unstack a b\nput-down a"
    # a line holding an action among other words stays a step (acp does not guess which words are the step)
    text = "pick up the red block\nNext, stack the red block on the blue block"
    assert translate(text, BLOCKSWORLD) == "pick-up a\nNext, stack the red block on the blue block"
    # without a wording the block is given to acp's reader as written
    assert translate("[PLAN]\npick up the red block\n[PLAN END]", None) == "pick up the red block"


def test_the_zero_shot_result_files_domain_names_have_their_config_s_wording():
    assert wording_of("blocksworld_zero_shot") is BLOCKSWORLD
    assert wording_of("blocksworld_zero_shot_3") is BLOCKSWORLD
    assert wording_of("mystery_blocksworld_zero_shot_3") is MYSTERY
    assert wording_of("logistics_zero_shot") is None


# ----- scores, by hand --------------------------------------------------------------------------------
# (file, instance) -> (score, status, valid, reaches_goal, optimal, cost, prefix, goal_fraction, failure class, reason)
EXPECTED = {
    # the optimal plan of instance 1 in PlanBench's words
    (A_T1, 1): (1.0, SCORED, True, True, True, 4, 4, 1.0, None, "a plan"),
    # the optimal plan of instance 2 in PDDL (PlanBench's reader finds no action in "(pick-up b)")
    (A_T1, 2): (1.0, SCORED, True, True, True, 4, 4, 1.0, None, "a plan"),
    # instance 3, a detour: blue onto orange, back off, down, then red onto orange. (unstack b a) holds b and
    # clears a; (stack b c) puts b on c; (unstack b c) holds b again, c clear; (put-down b); (pick-up a), a clear
    # and on the table; (stack a c), c clear: a plan of 6 steps, the goal first true after the last; optimal 4
    (A_T1, 3): (1.0, SCORED, True, True, False, 6, 6, 1.0, None, "a plan"),
    # instance 1 with "pick up the block" as step 3: no action named pick. Steps 1-2 execute; after them the
    # goal's one literal (on b c) is false. PlanBench skips that line (an action word, no object) and accepts
    # the rest
    (B_T1, 1): (
        0.0, SCORED, False, False, False, None, 2, 0.0, "unreadable_step",
        "step 3 (pick up the block): there is no action named pick",
    ),
    # instance 2, stopped after blue is on orange: both steps execute; one of the goal's two literals holds
    (B_T1, 2): (
        0.0, SCORED, True, False, False, 2, 2, 0.5, "goal_not_reached", "the goal does not hold after the last step",
    ),
    # instance 3, empty response (PlanBench leaves it out)
    (B_T1, 3): (0.0, PARSE_ERROR, None, None, None, None, None, None, None, "parse_error: no plan found in the answer"),
    # optimality task, instance 1: red onto orange and back to the table before blue goes on orange. (unstack a b),
    # (stack a c), (unstack a c), (put-down a), (pick-up b) with b clear on the table, (stack b c) with c clear:
    # 6 steps, valid, 2 more than the optimum
    (A_T2, 1): (0.0, SCORED, True, True, False, 6, 6, 1.0, None, "a plan of cost 6, optimal 4"),
    (A_T2, 2): (1.0, SCORED, True, True, True, 4, 4, 1.0, None, "an optimal plan (cost 4)"),
}  # fmt: skip


@pytest.fixture(scope="module")
def scored():
    return score_planbench([A_T1, B_T1, A_T2], DOMAIN, INSTANCES)


def test_every_answer_scores_as_derived_by_hand(scored):
    assert len(scored) == len(EXPECTED)
    for item in scored:
        key = (next(p for p in (A_T1, B_T1, A_T2) if str(p) == item.prediction.line["planbench_file"]),
               item.prediction.line["instance_id"])  # fmt: skip
        score, status, valid, reaches, optimal, cost, prefix, fraction, failure_class, reason = EXPECTED[key]
        details = item.verdict.details
        assert (item.verdict.score, item.verdict.status, item.verdict.reason) == (score, status, reason), key
        assert item.domain == "blocksworld"
        assert (details.get("valid"), details.get("reaches_goal"), details.get("optimal")) == (valid, reaches, optimal)
        assert (details.get("cost"), details.get("prefix"), details.get("goal_fraction")) == (cost, prefix, fraction)
        assert details.get("failure_class") == failure_class
        if status == SCORED:  # acp's own optimum, not the ground truth's length
            assert details["optimal_cost"] == 4


def test_answers_with_prose_commentary_and_markdown_score_as_derived_by_hand():
    # model-c, domain "blocksworld_zero_shot" (read with the blocksworld wording):
    # instance 1: a heading sentence, the four steps of instance 1's optimal plan (step 1 with a colon and a
    # remark, bullets of commentary under steps 1 and 2), a closing sentence: the plan read is exactly
    # (unstack a b) (put-down a) (pick-up b) (stack b c), valid and optimal (cost 4, see above)
    # instance 2: markdown headings "#### Step N:", underscores around names, a remark line between steps 2
    # and 3 and a closing sentence: (pick-up b) (stack b c) (pick-up a) (stack a b), instance 2's optimal plan
    # instance 3: "Action: put down the blue block" names an action among other words: an unreadable step 2,
    # after (unstack b a), which executes (b clear and on a, hand empty); the goal (on a c) is false then
    items = {item.prediction.line["instance_id"]: item for item in score_planbench([C_T1], DOMAIN, INSTANCES)}
    assert items[1].prediction.record["id"] == "blocksworld_zero_shot/1"
    assert items[1].prediction.response.splitlines() == [step[1:-1] for step in OPTIMAL[1]]
    assert items[2].prediction.response.splitlines() == [step[1:-1] for step in OPTIMAL[2]]
    for number in (1, 2):
        verdict = items[number].verdict
        assert (verdict.score, verdict.status, verdict.reason) == (1.0, SCORED, "a plan")
        assert verdict.details["optimal"] is True and verdict.details["cost"] == verdict.details["optimal_cost"] == 4
    verdict = items[3].verdict
    assert (verdict.score, verdict.status) == (0.0, SCORED)
    assert verdict.reason == "step 2 (action: put down the blue block): cannot be read as an action"
    assert (verdict.details["failure_class"], verdict.details["prefix"], verdict.details["goal_fraction"]) == (
        "unreadable_step",
        1,
        0.0,
    )


def test_failure_rates(scored):
    # plan: 6 answers, one each parse error, unreadable step and goal not reached; optplan: 2 answers, none fails
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in failure_rates(scored).splitlines()[1:]}
    assert rows[("plan", "blocksworld")] == ["6", "0.17", "0.17", "0.00", "0.17", "0.00"]
    assert rows[("optplan", "blocksworld")] == ["2", "0.00", "0.00", "0.00", "0.00", "0.00"]
    assert failure_rates([]) == ""


# ----- a config of PlanBench's --------------------------------------------------------------------------
CONFIG = """\
domain_name: mystery_blocksworld
instances_template: instance-{}.pddl
actions:
  {attack: "attack {}",
   succumb: "succumb {}",
   overcome: "overcome {} from {}",
   feast: "feast {} from {}"}

encoded_objects:
  {"a": "object a", "b": "object b", "c": "object c"}
"""


def test_a_planbench_config_gives_the_wording(tmp_path):
    config = tmp_path / "mystery_blocksworld.yaml"
    config.write_text(CONFIG)
    wording = read_config(config)
    assert wording.step("overcome object c from object b") == "(overcome c b)"
    assert wording.step("overcome object d from object b") is None  # no object d in this config
    # a config whose words are not the domain's actions: an error naming them and the fix
    with pytest.raises(DataError, match=r"attack/1.*domain file of this task's config"):
        planbench_predictions(A_T1, DOMAIN, INSTANCES, config)


def test_a_config_of_object_patterns_is_refused(tmp_path):
    config = tmp_path / "logistics.yaml"
    config.write_text('actions:\n  {fly-airplane: "fly {} from {} to {}"}\nencoded_objects:\n  {"a": "airplane_{}"}\n')
    with pytest.raises(DataError, match=r"patterns \('airplane_\{\}'\).*PDDL actions"):
        read_config(config)
    (tmp_path / "none.yaml").write_text("domain_name: x\n")
    with pytest.raises(DataError, match="needs the mappings 'actions' and 'encoded_objects'"):
        read_config(tmp_path / "none.yaml")


# ----- errors -----------------------------------------------------------------------------------------
def write(path, data):
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def task_file(**changes):
    data = json.loads(A_T1.read_text())
    data.update(changes)
    return data


def test_malformed_json_is_an_error_naming_file_and_line(tmp_path):
    bad = write(tmp_path / "task_1_plan_generation.json", '{\n  "task": "t1",\n  "instances": [\n')
    with pytest.raises(DataError, match=r"task_1_plan_generation.json: invalid JSON \(.* at line 4"):
        predictions(bad)
    with pytest.raises(DataError, match="not a PlanBench task file"):
        predictions(write(tmp_path / "list.json", "[]"))
    with pytest.raises(DataError, match="instance 1 of the list has no 'instance_id'"):
        predictions(write(tmp_path / "noid.json", task_file(instances=[{"llm_raw_response": ""}])))


def test_a_missing_file_or_folder_is_an_error_naming_it(tmp_path):
    with pytest.raises(DataError, match=r"missing.json: no such file \(a PlanBench task file"):
        predictions(tmp_path / "missing.json")
    with pytest.raises(DataError, match=r"nowhere: no such folder"):
        planbench_predictions(A_T1, DOMAIN, tmp_path / "nowhere")
    with pytest.raises(DataError, match=r"domain.pddl: no such domain file"):
        planbench_predictions(A_T1, tmp_path / "domain.pddl", INSTANCES)


def test_an_instance_id_with_no_pddl_is_an_error_naming_the_file_it_needs(tmp_path):
    data = task_file()
    data["instances"][1]["instance_id"] = 9
    with pytest.raises(DataError, match=r"instance 9: no PDDL for it: .*instance-9.pddl does not exist; pass "):
        predictions(write(tmp_path / "t.json", data))


def test_a_ground_truth_that_does_not_solve_its_instance_means_the_wrong_folder(tmp_path):
    folder = tmp_path / "instances"
    folder.mkdir()
    for number, source in ((1, 2), (2, 1), (3, 3)):  # instances 1 and 2 swapped
        (folder / f"instance-{number}.pddl").write_text((INSTANCES / f"instance-{source}.pddl").read_text())
    # instance 1's ground truth starts with (unstack a b); in instance 2 a is on the table
    with pytest.raises(DataError, match=r"instance 1: the file's ground_truth_plan does not solve it \(step 1 \(unst"):
        planbench_predictions(A_T1, DOMAIN, folder)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"task": "task_3_plan_verification"}, "'task_3_plan_verification' is not scored by acp"),
        ({"task": "t4"}, "'t4' is not scored by acp: it scores the plans of task_1_plan_generation"),
        ({"domain": "mystery_blocksworld"}, "worded for the actions attack/1"),
    ],
)
def test_tasks_without_a_plan_and_domains_of_other_actions_are_refused(tmp_path, changes, message):
    with pytest.raises(DataError, match=message):
        predictions(write(tmp_path / "t.json", task_file(**changes)))


def test_a_file_without_responses_is_a_prompts_file(tmp_path):
    data = task_file()
    for instance in data["instances"]:
        del instance["llm_raw_response"]
    with pytest.raises(DataError, match=r"no instance has an 'llm_raw_response' \(a prompts file\?\)"):
        predictions(write(tmp_path / "task_1_plan_generation.json", data))


def test_a_file_without_domain_uses_pddl_reading_only(tmp_path):
    # no wording: the answer in words is one unreadable step (no action named unstack the ... with 9 words)
    data = task_file(domain="")
    data["instances"] = data["instances"][:2]
    first, second = planbench_predictions(write(tmp_path / "t.json", data), DOMAIN, INSTANCES)
    assert first.record["id"] == "planbench/1" and first.response.startswith("unstack the red block from on top")
    assert second.response == "(pick-up b)\n(stack b c)\n(pick-up a)\n(stack a b)"


# ----- the command line -------------------------------------------------------------------------------
def run(*args):
    return CliRunner().invoke(cli, ["score", *(str(a) for a in args)])


def test_acp_score_reads_planbench_files(tmp_path):
    out = tmp_path / "scores.jsonl"
    result = run(A_T1, B_T1, A_T2, "--planbench-domain", DOMAIN, "--planbench-instances", INSTANCES, "-o", out)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(x["planbench_task"], x["instance_id"], x["task"], x["score"]) for x in lines] == [
        ("t1", 1, "plan", 1.0),
        ("t1", 2, "plan", 1.0),
        ("t1", 3, "plan", 1.0),
        ("task_1_plan_generation", 1, "plan", 0.0),
        ("task_1_plan_generation", 2, "plan", 0.0),
        ("task_1_plan_generation", 3, "plan", 0.0),
        ("task_2_plan_optimality", 1, "optplan", 0.0),
        ("task_2_plan_optimality", 2, "optplan", 1.0),
    ]
    assert lines[3]["planbench_correct"] is True and lines[3]["failure_class"] == "unreadable_step"
    table = result.output
    # accuracy: plan 3 of 6, optplan 1 of 2; the flags over plan's 6 answers (a parse error has every flag
    # false): valid 4 (all but the unreadable step and the empty answer), goal 3, optimal 2
    rows: dict[str, list[str]] = {}
    for line in table.splitlines():  # the summary table comes first
        rows.setdefault(line.split()[0], line.split()[1:])
    assert rows["plan"][:2] == ["0.50", "(6)"] and rows["optplan"][:2] == ["0.50", "(2)"]
    flags = next(line.split() for line in table.splitlines() if line.startswith("plan    blocksworld   all"))
    assert flags[4:7] == ["0.67", "0.50", "0.33"]
    assert "no_plan   unreadable_step    not_executable  goal_not_reached       extra_steps" in table


def test_acp_score_planbench_errors(tmp_path):
    result = run(A_T1, "--planbench-domain", DOMAIN)
    assert result.exit_code == 2 and "go together" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run(A_T1, "--planbench-domain", DOMAIN, "--planbench-instances", empty)
    assert result.exit_code == 1 and "instance-1.pddl does not exist" in result.output
