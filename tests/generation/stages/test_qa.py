"""The qa stage: every question validates and its stored answer scores 1."""

from __future__ import annotations

import random

from conftest import GEN_TASKS


def test_qa_questions_validate_and_their_answers_score_one(reference_run):
    from acpgen.evaluation.records import Dataset, Prediction, reference_predictions
    from acpgen.evaluation.scoring import score_predictions
    from acpgen.evaluation.validate import validate_records
    from acpgen.planners import PlannerSetup
    from acpgen.tasks import ScoreOptions

    qa = reference_run / "ferry" / "qa"
    counts = {t: len((qa / f"{t}.jsonl").read_text().splitlines()) for t in GEN_TASKS}
    assert counts == {t: 3 for t in GEN_TASKS}
    dataset = Dataset.load(qa)
    assert len(dataset.records) == 3 * len(GEN_TASKS)  # ids are unique across tasks
    items = [(task, record) for (task, _), record in sorted(dataset.records.items())]
    results = validate_records(items, ScoreOptions(), PlannerSetup(), progress=False)
    assert [r.verdict for r in results] == ["ok"] * 3 * len(GEN_TASKS)
    predictions = [
        Prediction(line, *dataset.resolve(line), line["response"]) for line in reference_predictions(dataset)
    ]
    for recheck in (False, True):
        scored = score_predictions(predictions, ScoreOptions(recheck=recheck), progress=False)
        assert [s.verdict.score for s in scored] == [1.0] * len(predictions)


class _Tried:
    """An attempt that skips every third state and otherwise records the state and the process that tried it (each
    try takes a moment, as a question does: the workers start before this process has taken every problem)."""

    def __call__(self, state: dict, records: list) -> tuple[str, dict | None]:
        import os
        import time

        time.sleep(0.02)
        if state["i"] % 3 == 2:
            return "skipped", None
        return "ok", {"i": state["i"], "pid": os.getpid()}


def test_states_spread_over_processes_give_their_outcomes_in_order(monkeypatch):
    import os

    from acpgen import executors
    from acpgen.generation.stages import qa

    monkeypatch.setattr(executors, "LOCAL_FIRST", 0.0)  # spread from the first state
    states = [{"i": i, "problem": f"p{i % 5}"} for i in range(40)]  # the problems alternate, as the stage orders them
    outcomes = list(qa._spread(_Tried(), states, 3))
    expected = [("skipped", None) if i % 3 == 2 else ("ok", i) for i in range(40)]
    assert [(kind, record and record["i"]) for kind, record in outcomes] == expected
    tried_by = {}
    for _, record in outcomes:
        if record:
            tried_by.setdefault(states[record["i"]]["problem"], set()).add(record["pid"])
    assert all(len(pids) == 1 for pids in tried_by.values())  # a problem's states on one process
    pids = set().union(*tried_by.values())
    assert os.getpid() in pids and len(pids) == 3  # this process and two workers
    # fewer problems than processes: the states in turn
    one = [{"i": i, "problem": "p0"} for i in range(12)]
    in_turn = list(qa._spread(_Tried(), one, 2))
    assert [record and record["i"] for _, record in in_turn] == [None if i % 3 == 2 else i for i in range(12)]
    assert len({record["pid"] for _, record in in_turn if record}) == 2
    # stopped early (the caller has enough), the rest is never handed out and the workers are gone
    taken = qa._spread(_Tried(), states, 2)
    assert [next(taken)[1]["i"] for _ in range(2)] == [0, 1]
    taken.close()
    assert qa._SPREADING == {}


def test_a_process_ready_for_a_state_takes_the_first_one_whose_problem_is_its_own_or_nobodys():
    import multiprocessing

    from acpgen.generation.stages.qa import _Claims

    states = [{"problem": f"p{i % 4}"} for i in range(12)]  # p0 p1 p2 p3 p0 p1 ...
    claims = _Claims(multiprocessing.get_context("fork"), states, 1, 2)  # state 0 tried here: p0 this process's
    assert claims.take(1) == 1  # p1 now the worker's
    assert claims.take(0) == 2  # p2 nobody's: now this process's (its own p0 comes later, at 4)
    assert claims.take(1) == 3  # the worker, ready again, takes p3 rather than its own p1 at 5
    assert [claims.take(0) for _ in range(3)] == [4, 6, 8]  # p0 and p2 alone are left to this process
    assert [claims.take(1) for _ in range(3)] == [5, 7, 9]
    claims.stop()
    assert claims.take(0) is None and claims.take(1) is None  # stopped: nothing more is handed out
    # fewer problems than processes: each state a share of its own
    alone = _Claims(multiprocessing.get_context("fork"), [{"problem": "p0"}] * 4, 0, 2)
    assert [alone.take(1), alone.take(0), alone.take(1), alone.take(1), alone.take(0)] == [0, 1, 2, 3, None]


def test_a_task_spread_over_two_processes_gives_the_records_and_counts_of_one(tmp_path, monkeypatch):
    # The same open-ended records (and the same search counts in the qa stamps) whether the one task of a run
    # tries its states in this process or on two forked workers.
    import json
    import warnings

    import acpgen
    from acpgen import executors

    monkeypatch.setattr(executors, "LOCAL_FIRST", 0.0)
    made = {}
    for jobs in (1, 2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            records = list(
                acpgen.generate("ferry", "reach", n=6, seed=2, level=2, cache_dir=tmp_path / str(jobs), jobs=jobs)
            )
        stamps = json.loads((tmp_path / str(jobs) / "ferry" / "stamps" / "qa.json").read_text())
        made[jobs] = records, {k: v for k, v in next(iter(stamps.values())).items() if k in ("got", "tried")}
    assert made[2] == made[1] and len(made[1][0]) == 6


def test_the_qa_stage_keeps_swaps_formula_only_its_walks_and_each_states_own_grounding(tmp_path, monkeypatch):
    """The qa stage's options: generating, no ferry formula (it would turn some of nexta's "maybe" actions into yes or
    no: records would change), re-proving, a second opinion (which takes none); both with the oracle's random walks,
    and each state grounded on its own (its questions follow its atom order). Scoring's defaults differ in all three:
    a state is served by its problem's grounding."""
    from conftest import SMALL

    from acpgen.config import load_config
    from acpgen.data import DOMAINS_DIR
    from acpgen.generation.stages import StageContext
    from acpgen.generation.stages.qa import _budgets
    from acpgen.generators import get_generator
    from acpgen.pddl import grounding
    from acpgen.pddl.render import render_problem
    from acpgen.proofs.oracle import WALKS
    from acpgen.tasks import RecordContext, ScoreOptions

    generator = get_generator("ferry")
    record = {
        "PDDL_domain": (DOMAINS_DIR / "ferry" / "domain.pddl").read_text(),
        "PDDL_problem": generator.render(generator.generate({"locations": 3, "cars": 4}, random.Random(0))),
    }
    _, generating, verifying = _budgets(StageContext("ferry", load_config(SMALL), tmp_path, None))
    generator_oracle, verifier_oracle = (RecordContext(record, options).oracle for options in (generating, verifying))
    assert generator_oracle._formula is None and generator_oracle.walks == WALKS > 0
    assert verifier_oracle.second_opinion and verifier_oracle.walks == WALKS  # a second opinion takes no formula
    scoring = RecordContext(record, ScoreOptions()).oracle
    assert scoring._formula is not None and scoring.walks == 0
    monkeypatch.setattr(grounding, "_BASES", grounding.OrderedDict())
    problem = grounding.GroundTask.from_strings(record["PDDL_domain"], record["PDDL_problem"], share=True)
    states = [a.apply(problem.init) for a in problem.applicable(problem.init)]
    states += [a.apply(states[0]) for a in problem.applicable(states[0])]
    served = {}
    for options, state in zip((generating, verifying, ScoreOptions()), states):  # a text grounded before is copied
        moved = dict(record, PDDL_problem=render_problem(problem, state))
        served[options] = RecordContext(moved, options).task.actions is problem.actions
    assert list(served.values()) == [False, False, True]
