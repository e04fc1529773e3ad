"""The qa stage: every question validates and its stored answer scores 1."""

from __future__ import annotations

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
