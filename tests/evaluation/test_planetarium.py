"""Planetarium's schema in and out: rows written by hand over its blocksworld and gripper domains scored
with flags derived by hand, the rates per domain, abstraction and size band, and acp's t2p records
exported as rows and scored back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from acpgen.cli import cli
from acpgen.errors import DataError
from acpgen.evaluation import peers, planetarium
from acpgen.evaluation.records import Dataset, iter_predictions
from acpgen.evaluation.scoring import flag_rates, score_predictions
from acpgen.tasks import ScoreOptions

FIXTURES = Path(__file__).parent.parent / "fixtures" / "planetarium"
DOMAINS = {name: (FIXTURES / f"{name}.pddl").read_text() for name in ("blocksworld", "gripper")}

# ----- blocksworld, three blocks on the table; goal: b1 on b2 on b3 ----------------------------------------
BW_INIT = "(arm-empty) (clear b1) (clear b2) (clear b3) (on-table b1) (on-table b2) (on-table b3)"
BW_TRUTH = f"""(define (problem on_table_to_stack_3) (:domain blocksworld) (:requirements :strips)
  (:objects b1 b2 b3)
  (:init {BW_INIT})
  (:goal (and (on b1 b2) (on b2 b3))))"""
# ----- blocksworld, b1 on b2, b3 alone; goal: one tower b3 on b2 on b1 (placeholder or not) -----------------
BW2_INIT = "(arm-empty) (on b1 b2) (on-table b2) (on-table b3) (clear b1) (clear b3)"
BW2_GOAL = "(on b2 b1) (on b3 b2) (clear b3) (on-table b1) (arm-empty)"
BW2_TRUTH = f"""(define (problem holding_to_stack_3) (:domain blocksworld)
  (:objects b1 b2 b3) (:init {BW2_INIT}) (:goal (and {BW2_GOAL})))"""
OTHER_TOWER = BW2_TRUTH.replace(BW2_GOAL, "(on b1 b2) (on b2 b3) (clear b1) (on-table b3) (arm-empty)")
# ----- gripper: two balls in room1 with the robot; goal: both in room2 ---------------------------------------
GR_TYPES = "(room room1) (room room2) (ball ball1) (ball ball2) (gripper gripper1) (gripper gripper2)"
GR_TRUTH = f"""(define (problem one_room_to_one_room_2_2) (:domain gripper)
  (:objects room1 room2 ball1 ball2 gripper1 gripper2)
  (:init {GR_TYPES} (at-robby room1) (at ball1 room1) (at ball2 room1) (free gripper1) (free gripper2))
  (:goal (and (at ball1 room2) (at ball2 room2))))"""


def row(rid: int, domain: str, truth: str, init: str, goal: str, abstract: tuple[bool, bool], counts, placeholder):
    return {
        "id": rid,
        "name": f"{domain}_{init}_to_{goal}",
        "domain": domain,
        "init": init,
        "goal": goal,
        "num_objects": 3,
        "problem_pddl": truth,
        "natural_language": "(the description)",
        "init_is_abstract": int(abstract[0]),
        "init_num_propositions": counts[0],
        "goal_is_abstract": int(abstract[1]),
        "goal_num_propositions": counts[1],
        "is_placeholder": int(placeholder),
    }


ROWS = [
    row(1, "blocksworld", BW_TRUTH, "on_table", "stack", (False, False), (7, 2), False),
    row(2, "blocksworld", BW2_TRUTH, "holding", "stack", (True, True), (6, 5), True),
    row(3, "blocksworld", BW2_TRUTH, "holding", "stack", (False, False), (6, 5), False),
    row(4, "gripper", GR_TRUTH, "one_room", "one_room", (False, True), (11, 2), False),
]

# (row id, response, (parseable, solvable, equivalent)), each derived by hand:
CASES = [
    # the truth with its blocks renamed and its facts reordered: the same problem
    (1, BW_TRUTH.replace("b1", "x").replace("b2", "y").replace("b3", "z"), (True, True, True)),
    # another tower order: the initial state is symmetric (three blocks alone on the table), so renaming
    # b1 <-> b2 maps this problem onto the truth even with object identity
    (1, BW_TRUTH.replace("(on b1 b2) (on b2 b3)", "(on b2 b1) (on b1 b3)"), (True, True, True)),
    # b3 not clear: no action can make it clear (nothing is on it and it is not held), so b2 never gets on it
    (1, BW_TRUTH.replace("(clear b3) ", ""), (True, False, False)),
    # only b1 on b2: solvable, but b3 may end anywhere (on b1, say), which the truth's goal forbids
    (1, BW_TRUTH.replace("(on b1 b2) (on b2 b3)", "(on b1 b2)"), (True, True, False)),
    # acp's own blocksworld predicate name: not a problem of this domain
    (1, BW_TRUTH.replace("on-table", "ontable"), (False, False, False)),
    (1, "I cannot write PDDL.", (False, False, False)),
    # a tower in another order: any tower of the three blocks is right in placeholder mode (row 2) ...
    (2, OTHER_TOWER, (True, True, True)),
    # ... but not with object identity (row 3): only the identity maps the asymmetric start onto itself
    (3, OTHER_TOWER, (True, True, False)),
    (4, GR_TRUTH.replace("room1", "kitchen").replace("room2", "hall"), (True, True, True)),
    # only ball1 must reach room2: ball2 may stay, which the truth's goal forbids
    (4, GR_TRUTH.replace("(at ball1 room2) (at ball2 room2)", "(at ball1 room2)"), (True, True, False)),
    # ball2 is no ball: it cannot be picked up, so it never reaches room2
    (4, GR_TRUTH.replace("(ball ball2) ", ""), (True, False, False)),
    # types the untyped domain does not declare (the models' habit Planetarium reports)
    (4, GR_TRUTH.replace("room1 room2 ball1 ball2 gripper1 gripper2", "room1 room2 - room ball1 ball2 - ball"), None),
]


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    folder = tmp_path_factory.mktemp("planetarium")
    rows = folder / "rows.jsonl"
    rows.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    preds = folder / "preds.jsonl"
    preds.write_text("".join(json.dumps({"id": rid, "response": text}) + "\n" for rid, text, _ in CASES))
    dataset = Dataset.load(rows, foreign=peers.reader(DOMAINS))
    return score_predictions(list(iter_predictions(preds, dataset)), ScoreOptions(), progress=False)


@pytest.mark.parametrize("index", range(len(CASES)))
def test_hand_written_rows_give_the_hand_derived_flags(scored, index):
    expected = CASES[index][2] or (False, False, False)
    verdict = scored[index].verdict
    flags = (verdict.details.get("parseable", False), verdict.details.get("solvable", False))
    flags += (verdict.details.get("equivalent", False),)
    assert flags == expected, verdict.reason
    assert verdict.score == float(expected[2])


def test_rows_become_t2p_records_with_their_cuts():
    record = planetarium.record_of(ROWS[1], DOMAINS, "row 2")
    assert record["abstraction"] == "abstract_abstract" and record["placeholder"] is True
    assert (record["size"], record["size_band"], record["pattern_class"]) == (11, "1-20", "holding_to_stack")
    assert record["PDDL_domain"] == DOMAINS["blocksworld"]


def test_rates_per_domain_abstraction_and_size_band(scored):
    table = flag_rates(scored).splitlines()
    cells = {tuple(line.split()[:3]): line.split()[3:] for line in table[1:]}
    # blocksworld: 8 answers; parseable 6 (all but the two parse failures), solvable 5, equivalent 3
    assert cells[("t2p", "blocksworld", "all")] == ["8", "0.75", "0.62", "0.38", "0"]
    # gripper: 4 answers, all in explicit_abstract and size 1-20 (11 + 2 propositions)
    assert cells[("t2p", "gripper", "explicit_abstract")] == ["4", "0.75", "0.50", "0.25", "0"]
    assert cells[("t2p", "gripper", "size")][:1] == ["1-20"]
    # row 2 and 3 (6 + 5 = 11 propositions) and row 1 (9): all in the band 1-20
    assert cells[("t2p", "blocksworld", "abstract_abstract")] == ["1", "1.00", "1.00", "1.00", "0"]


def test_a_row_of_an_unknown_domain_names_the_option():
    with pytest.raises(DataError, match="--domain-file floor-tile=PATH"):
        planetarium.record_of({**ROWS[0], "domain": "floor-tile"}, DOMAINS, "row 1")
    with pytest.raises(DataError, match="no problem of the domain"):
        planetarium.record_of({**ROWS[0], "domain": "gripper"}, DOMAINS, "row 1")


def test_cli_reads_domain_files_and_parquet(tmp_path):
    import datasets

    rows = tmp_path / "rows.parquet"
    datasets.Dataset.from_list(ROWS).to_parquet(str(rows))
    preds = tmp_path / "preds.jsonl"
    preds.write_text(json.dumps({"id": 4, "response": GR_TRUTH}) + "\n")
    args = ["score", str(preds), "--dataset", str(rows), "--json"]
    files = [f"{name}={FIXTURES / name}.pddl" for name in DOMAINS]
    result = CliRunner().invoke(cli, [*args, *(x for f in files for x in ("--domain-file", f))])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["t2p"]["gripper"]["accuracy"] == 1.0
    missing = CliRunner().invoke(cli, args)
    assert missing.exit_code != 0 and "--domain-file blocksworld=PATH" in missing.output


# ----- acp's records out as rows, and back ------------------------------------------------------------------
def test_export_then_score_stored_answers_and_perturbed_ones(tmp_path):
    from tests.tasks.test_text_to_pddl import _records

    records = [{**r, "id": 100 + i} for i, r in enumerate(_records(8))]
    data = tmp_path / "t2p"
    data.mkdir()
    (data / "test.gen.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "rows"
    written = planetarium.write_rows(data, out, parquet=False)
    assert [p.name for p in written] == ["test.jsonl", "domains.jsonl"]
    rows = [json.loads(line) for line in (out / "test.jsonl").read_text().splitlines()]
    assert [list(r) for r in rows] == [list(planetarium.COLUMNS)] * len(records)
    for r, record in zip(rows, records):
        assert (r["id"], r["problem_pddl"], r["is_placeholder"]) == (record["id"], record["answer"], 0)
        assert r["init_num_propositions"] + r["goal_num_propositions"] == record["size"]
        assert r["init_is_abstract"] == int(record["abstraction"].startswith("abstract"))
        assert "PDDL domain" not in r["natural_language"]
    # the stored answers score 1; the goal of car c0 moved elsewhere: parseable, solvable, not equivalent
    preds = tmp_path / "preds.jsonl"
    lines = [{"id": r["id"], "response": r["problem_pddl"]} for r in rows]
    perturbed = [{"id": r["id"], "response": _moved_goal(r["problem_pddl"])} for r in rows]
    preds.write_text("".join(json.dumps(x) + "\n" for x in lines + perturbed))
    dataset = Dataset.load(out / "test.jsonl", foreign=peers.reader(planetarium.read_domains((), out / "test.jsonl")))
    results = score_predictions(list(iter_predictions(preds, dataset)), ScoreOptions(), progress=False)
    assert [r.verdict.score for r in results[: len(rows)]] == [1.0] * len(rows)
    for r in results[len(rows) :]:
        assert (r.verdict.details["parseable"], r.verdict.details["equivalent"]) == (True, False), r.verdict.reason


def _moved_goal(problem: str) -> str:
    """The goal with every (at c0 LOC) made (at c0 OTHER): the ferry records' two locations l0 and l1 swap."""
    head, goal = problem.split("(:goal", 1)
    swapped = (
        goal.replace("(at c0 l0)", "(at c0 #)").replace("(at c0 l1)", "(at c0 l0)").replace("(at c0 #)", "(at c0 l1)")
    )
    if swapped == goal:  # c0's place is not in the goal: ask for c0 on the ferry as well
        formula = goal.strip()[:-1].rstrip()[:-1].strip()  # the problem ends with "(:goal FORMULA)\n)"
        conjuncts = formula[len("(and") : -1].strip() if formula.startswith("(and") else formula
        return f"{head}(:goal (and (on c0) {conjuncts}))\n)"
    return head + "(:goal" + swapped
