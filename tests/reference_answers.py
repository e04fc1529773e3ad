"""Reference dev records whose stored answer is provably wrong (with the witness each proof is about),
and scoring one response against one record (reference or hand-made); shared by the task and scoring tests."""

from __future__ import annotations

from conftest import dev_records

from acpgen.evaluation.scoring import score_one
from acpgen.tasks import RecordContext, ScoreOptions

# Reference records whose stored answer is provably wrong, with the witness the proof is about.
# reach: the stored list is empty (expected answer "None"), but the witness atom is unreachable.
WRONG_REACH_NONE = {
    "-2134372784773760055": "(clear tile_10)",
    "-8682376828094741291": "(clear tile_4)",
    "2064180602739641629": "(clear tile_1)",
    "7344892383778863426": "(clear tile_14)",
}


# land: the stored landmark list is empty (expected answer "None"), but the witness is a landmark.
WRONG_LAND_NONE = {
    "-3519325945012220404": "(at-robot loc-x1-y0)",
    "-6363950698238859515": "(at-robot loc-x0-y0)",
    "1051296040055604884": "(at-robot loc-x0-y1)",
    "2769321894672039299": "(at-robot loc-x1-y2)",
    "374220601309851534": "(at-robot loc-x2-y1)",
}


def by_id(task: str) -> dict[str, dict]:
    return {str(r["id"]): r for r in dev_records(task)}


def verdict(task: str, record: dict, response: str, **options):
    return score_one(RecordContext(record, ScoreOptions(**options)), task, response)
