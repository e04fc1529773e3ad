"""`acp report`: the numbers on hand-written score files, the set measures on hand-made records,
the figures (PNG, SVG with titles and axis labels), the self-contained HTML page, the numbers
against `acp score`'s own summary on really scored reference answers, and accuracy plain vs
obfuscated, on hand-written lines and on a generated plain and mystery run."""

from __future__ import annotations

import base64
import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DEV

from acpgen.cli import cli
from acpgen.errors import DataError
from acpgen.evaluation.records import Dataset, iter_predictions, reference_predictions
from acpgen.evaluation.report import (
    ALL,
    build_report,
    f1,
    init_atom_count,
    jaccard,
    load_answers,
    markdown,
    plan_length,
    value_bins,
    write_report,
)
from acpgen.evaluation.scoring import Summary, score_predictions

pytest.importorskip("matplotlib")

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def line(task: str, domain: str, score: float, status: str = "scored", reason: str = "correct", rid: int = 1) -> dict:
    """A line as `acp score --output` writes it (the prediction's own fields plus the verdict)."""
    return {"id": rid, "task": task, "domain": domain, "score": score, "status": status, "reason": reason}


def write_lines(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(item) + "\n" for item in lines))
    return path


# Model a: app/ferry 3 right, 1 wrong, 1 undecided; prog/ferry 1 right, 1 parse error;
# reach/grid one unknown atom and one static atom.
MODEL_A = (
    [line("app", "ferry", 1.0) for _ in range(3)]
    + [line("app", "ferry", 0.0, reason="missing 1, not applicable 0")]
    + [line("app", "ferry", 0.0, status="undecided", reason="planner timeout")]
    + [line("prog", "ferry", 1.0), line("prog", "ferry", 0.0, status="parse_error", reason="parse_error: nothing")]
    + [line("reach", "grid", 0.0, reason="unknown_atom: (at x)"), line("reach", "grid", 0.0, reason="static_atom: (s)")]
)
# Model b: app/ferry 1 right of 2.
MODEL_B = [line("app", "ferry", 1.0), line("app", "ferry", 0.0, reason="missing 2, not applicable 0")]


@pytest.fixture
def scores(tmp_path) -> list[Path]:
    return [write_lines(tmp_path / "model-a.jsonl", MODEL_A), write_lines(tmp_path / "model-b.jsonl", MODEL_B)]


def test_accuracy_and_standard_error_over_decided_answers(scores):
    report = build_report(scores)
    assert report.models == ["model-a", "model-b"]
    app = report.cells[("model-a", "app", "ferry")]
    assert (app.answers, app.decided, app.undecided) == (5, 4, 1)
    assert app.accuracy == pytest.approx(0.75)
    assert app.stderr == pytest.approx(math.sqrt(0.75 * 0.25 / 4))
    prog = report.cells[("model-a", "prog", ALL)]
    assert prog.accuracy == pytest.approx(0.5)
    assert prog.stderr == pytest.approx(0.5 / math.sqrt(2))
    overall = report.cells[("model-a", ALL, ALL)]  # 4 right of 8 decided
    assert (overall.decided, overall.accuracy) == (8, pytest.approx(0.5))
    assert report.cells[("model-a", ALL, "grid")].accuracy == 0.0
    assert report.cells[("model-a", ALL, "grid")].stderr == 0.0
    assert report.cells[("model-b", "app", "ferry")].accuracy == pytest.approx(0.5)


def test_error_categories_come_from_status_and_reason(scores):
    counts = build_report(scores).categories[("model-a", ALL)]
    assert dict(counts) == {
        "correct": 4,
        "wrong answer": 1,
        "undecided": 1,
        "parse error": 1,
        "unknown atom": 1,
        "static atom": 1,
    }


def test_model_names_from_field_lm_eval_results_or_file_name(tmp_path):
    named = write_lines(tmp_path / "a.jsonl", [dict(line("app", "ferry", 1.0), model="granite")])
    folder = tmp_path / "lm" / "org__model"
    folder.mkdir(parents=True)
    (folder / "results_2024-01-01T00-00-00.json").write_text(json.dumps({"model_name": "org/model"}))
    sampled = write_lines(folder / "scored.jsonl", [dict(line("app", "ferry", 1.0), doc_id=0, resps=[["x"]])])
    plain = write_lines(tmp_path / "plain.scores.jsonl", [line("app", "ferry", 1.0)])
    assert [a.model for a in load_answers([named, sampled, plain])] == ["granite", "org/model", "plain"]


def test_a_file_that_is_not_score_output_is_refused_with_its_name(tmp_path):
    path = write_lines(tmp_path / "preds.jsonl", [{"id": 1, "response": "(a)"}])
    with pytest.raises(DataError, match=r"preds.jsonl:1: not a line of `acp score --output`"):
        load_answers([path])


def test_jaccard_and_f1():
    assert jaccard({"a", "b", "d"}, {"a", "b", "c"}) == pytest.approx(2 / 4)
    assert f1({"a", "b", "d"}, {"a", "b", "c"}) == pytest.approx(2 * 2 / 6)
    assert f1({"a"}, {"a", "b", "c", "d"}) == pytest.approx(2 / 5)  # precision 1, recall 1/4
    assert jaccard(set(), set()) == f1(set(), set()) == 1.0
    assert jaccard(set(), {"a"}) == f1(set(), {"a"}) == 0.0


PROBLEM = """(define (problem p) (:domain ferry) ; a comment (with (parens))
  (:objects l0 l1 - location c0 - car)
  (:init (at-ferry l0) (at c0 l1)
         ; (not-counted l0)
         (empty-ferry) (= (total-cost) 0))
  (:goal (and (at c0 l0))))"""


def app_record(rid: int, answer: list[str]) -> dict:
    return {"id": rid, "group": "applicable_actions_gen", "answer": answer, "PDDL_problem": PROBLEM}


def test_set_measures_on_hand_made_app_and_prog_records(tmp_path):
    records = [
        app_record(1, ["(sail l0 l1)", "(sail l0 l0)", "(board c0 l0)"]),
        app_record(2, ["(sail l0 l1)"]),
        {"id": 3, "group": "progression_gen", "answer": {"pos": ["(at-ferry l1)"], "neg": ["(at-ferry l0)"]}},
    ]
    dataset = write_lines(tmp_path / "records.jsonl", records)
    answers = [
        # 2 of 3 right plus 1 wrong: Jaccard 2/4, F1 4/6
        dict(
            line("app", "ferry", 0.0, reason="missing 1, not applicable 1", rid=1),
            response="(sail l0 l1) (sail l0 l0) (debark c0 l0)",
        ),
        # unparseable: 0 and 0
        dict(line("app", "ferry", 0.0, status="parse_error", rid=2), response="I do not know."),
        # effects swapped: no (side, atom) pair in common
        dict(
            line("prog", "ferry", 0.0, reason="swapped", rid=3),
            response="Positive effects: (at-ferry l0)\nNegative effects: (at-ferry l1)",
        ),
        dict(line("app", "ferry", 1.0, rid=99), response="(sail l0 l1)"),  # no such record
    ]
    report = build_report([write_lines(tmp_path / "m.jsonl", answers)], dataset)
    app = report.set_measures[("m", "app")]
    assert app.answers == 2
    assert app.jaccard == pytest.approx((2 / 4 + 0) / 2)
    assert app.f1 == pytest.approx((4 / 6 + 0) / 2)
    assert app.exact.accuracy == 0.0
    prog = report.set_measures[("m", "prog")]
    assert (prog.jaccard, prog.f1) == (0.0, 0.0)
    assert report.without_record == 1
    features = {d.feature.name: d for d in report.difficulty}
    assert features["init_atoms"].bins == [(3, 3)]  # the two app records; the prog record has no PDDL
    assert features["applicable_actions"].bins == [(1, 1), (3, 3)]


def test_init_atom_count_and_plan_length():
    assert init_atom_count(PROBLEM) == 3
    assert init_atom_count("(define (problem p) (:domain d) (:init) (:goal (a)))") == 0
    assert init_atom_count("(define (problem p) (:goal (a)))") is None
    assert plan_length({"plan": ["(a)", "(b)"]}) == 2
    question = 'What is the first inapplicable action in the next sequence of actions: "(a x) (b y) (c)"?'
    assert plan_length({"question": question}) == 3
    assert plan_length({"question": "no plan here"}) is None


def test_value_bins_are_contiguous_ranges_of_about_equal_size():
    assert value_bins([3, 1, 2, 2]) == [(1, 1), (2, 2), (3, 3)]
    values = list(range(1, 11))  # ten distinct values into five bins of two
    assert value_bins(values) == [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)]
    # 50 of 60 values are 1: the value 1 fills the first four fifths, the rest shares the last range
    assert value_bins([1] * 50 + list(range(2, 12))) == [(1, 1), (2, 11)]
    # values below each: 1 and 2 under 12 of 60 (slot 0), 3: 14 (slot 1), 4: 26 (2), 5: 38 (3), 14: 48 (4)
    assert value_bins([1] * 6 + [2] * 8 + [3] * 12 + [4] * 12 + [5] * 2 + list(range(6, 26))) == [
        (1, 2),
        (3, 3),
        (4, 4),
        (5, 13),
        (14, 25),
    ]


def test_written_report_has_figures_with_titles_and_a_self_contained_page(scores, tmp_path):
    out = tmp_path / "report"
    written = write_report(build_report(scores), out)
    names = {p.name for p in written}
    figures = ["accuracy_by_task", "heatmap_task_domain", "answer_categories"]
    assert names == {"report.md", "report.html"} | {f"{f}.{x}" for f in figures for x in ("png", "svg")}
    for name in figures:
        png = (out / f"{name}.png").read_bytes()
        assert png.startswith(PNG_MAGIC) and len(png) > 5000
        svg = (out / f"{name}.svg").read_text()
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    bars = (out / "accuracy_by_task.svg").read_text()
    for text in ("Accuracy per task", "task", "accuracy (decided answers, ± standard error)", "model-a", "model-b"):
        assert f">{text}<" in bars, text
    heat = (out / "heatmap_task_domain.svg").read_text()
    for text in ("Accuracy per task and domain: model-a", "domain", "task", "ferry", "grid", "0.75"):
        assert f">{text}<" in heat, text
    page = (out / "report.html").read_text()
    inlined = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert sorted(base64.b64decode(i) for i in inlined) == sorted((out / f"{f}.png").read_bytes() for f in figures)
    assert not re.search(r'src="(?!data:)', page)  # nothing loaded from elsewhere
    assert "0.750 ± 0.217 (n=4), 1 undecided" in page
    md = (out / "report.md").read_text()
    assert "| app | 0.750 ± 0.217 (n=4), 1 undecided | 0.500 ± 0.354 (n=2) |" in md
    assert "Skipped: the score files do not carry the records" in md
    first = {p.name: p.read_bytes() for p in written}
    write_report(build_report(scores), out)
    assert {p.name: p.read_bytes() for p in written} == first  # the same report, byte for byte


def test_cli_with_really_scored_reference_answers_matches_acp_score(tmp_path):
    """app and prog dev answers, every other one cut short, scored by acp: the report's accuracies
    equal `acp score`'s own summary, and the difficulty figures are drawn from the records."""
    records = Dataset.load(DEV / "app.gen.json", files=[DEV / "app.gen.json", DEV / "prog.gen.json"])
    lines = list(reference_predictions(records))
    for index, item in enumerate(lines):
        if index % 2:
            item["response"] = item["response"].rsplit("(", 1)[0] or "None"
    predictions = write_lines(tmp_path / "preds.jsonl", lines)
    scored = score_predictions(list(iter_predictions(predictions, records)), progress=False)
    scores = write_lines(tmp_path / "cut.jsonl", [s.output_line() for s in scored])
    dataset = tmp_path / "records"
    dataset.mkdir()
    for task in ("app", "prog"):
        shutil.copy(DEV / f"{task}.gen.json", dataset)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["report", str(scores), "--dataset", str(dataset), "-o", str(out)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    report = build_report([scores], dataset)
    summary = Summary.of(scored)
    for (task, domain), cell in summary.cells.items():
        assert report.cells[("cut", task, domain)].accuracy == pytest.approx(cell.accuracy), (task, domain)
        assert report.cells[("cut", task, domain)].answers == cell.answers
    assert 0 < summary.cells[("all", "all")].accuracy < 1
    for task in ("app", "prog"):  # a cut-short answer keeps part of the set: similarity above exact accuracy
        measure = report.set_measures[("cut", task)]
        assert measure.answers == 40
        assert measure.jaccard > measure.exact.accuracy
    svg = (out / "difficulty_init_atoms.svg").read_text()
    assert ">Accuracy against atoms in the problem's :init<" in svg
    assert "(mean of each range)" in svg
    assert (out / "difficulty_applicable_actions.png").read_bytes().startswith(PNG_MAGIC)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is not installed")
def test_headless_chromium_renders_the_page(scores, tmp_path):
    out = tmp_path / "report"
    write_report(build_report(scores), out)
    shot = tmp_path / "shot.png"
    command = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={shot}"]
    command += ["--window-size=1200,1600", (out / "report.html").as_uri()]
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    assert shot.read_bytes().startswith(PNG_MAGIC) and shot.stat().st_size > 20000


# ----- plain vs obfuscated ----------------------------------------------------------------------


def obfuscated(mode: str | None, task: str, score: float, **kwargs) -> dict:
    """A score line of an answer to a record of the given obfuscation (None: a line written before
    `acp score` wrote the field, read as a plain record's)."""
    item = line(task, "ferry", score, **kwargs)
    return item if mode is None else dict(item, obfuscation=mode)


# Model a: app plain 3 of 4 (three lines without the field), mystery 1 of 2, random 0 of 2 and one
# undecided; prog plain 1 of 1, mystery a parse error.
OBFUSCATED_A = [
    obfuscated(None, "app", 1.0),
    obfuscated(None, "app", 1.0),
    obfuscated(None, "app", 0.0, reason="missing 1, not applicable 0"),
    obfuscated("none", "app", 1.0),
    obfuscated("mystery", "app", 1.0),
    obfuscated("mystery", "app", 0.0, reason="unknown_action: (sail l0 l1)"),
    obfuscated("random", "app", 0.0, reason="missing 2, not applicable 0"),
    obfuscated("random", "app", 0.0, reason="missing 1, not applicable 1"),
    obfuscated("random", "app", 0.0, status="undecided", reason="planner timeout"),
    obfuscated("none", "prog", 1.0),
    obfuscated("mystery", "prog", 0.0, status="parse_error", reason="parse_error: nothing"),
]
# Model b: app plain 0 of 1, mystery 2 of 2; reach plain 3 of 4; nothing random.
OBFUSCATED_B = [
    obfuscated("none", "app", 0.0, reason="missing 1, not applicable 0"),
    obfuscated("mystery", "app", 1.0),
    obfuscated("mystery", "app", 1.0),
    *(obfuscated("none", "reach", score) for score in (1.0, 0.0, 1.0, 1.0)),
]


@pytest.fixture
def obfuscated_scores(tmp_path) -> list[Path]:
    return [
        write_lines(tmp_path / "model-a.jsonl", OBFUSCATED_A),
        write_lines(tmp_path / "model-b.jsonl", OBFUSCATED_B),
    ]


def test_accuracy_per_task_and_obfuscation_by_hand(obfuscated_scores):
    report = build_report(obfuscated_scores)
    assert report.obfuscated and report.obfuscations == ["none", "mystery", "random"]
    cells = report.obfuscation_cells
    expected = {  # (model, task, obfuscation): (decided, accuracy, undecided)
        ("model-a", "app", "none"): (4, 3 / 4, 0),
        ("model-a", "app", "mystery"): (2, 1 / 2, 0),
        ("model-a", "app", "random"): (2, 0.0, 1),
        ("model-a", "prog", "none"): (1, 1.0, 0),
        ("model-a", "prog", "mystery"): (1, 0.0, 0),
        ("model-a", ALL, "none"): (5, 4 / 5, 0),  # app 3 + prog 1 of 5
        ("model-a", ALL, "mystery"): (3, 1 / 3, 0),  # app 1 + prog 0 of 3
        ("model-a", ALL, "random"): (2, 0.0, 1),
        ("model-b", "app", "none"): (1, 0.0, 0),
        ("model-b", "app", "mystery"): (2, 1.0, 0),
        ("model-b", "reach", "none"): (4, 3 / 4, 0),
        ("model-b", ALL, "none"): (5, 3 / 5, 0),  # app 0 + reach 3 of 5
        ("model-b", ALL, "mystery"): (2, 1.0, 0),
    }
    assert set(cells) == set(expected)
    for key, (decided, accuracy, undecided) in expected.items():
        cell = cells[key]
        assert (cell.decided, cell.undecided) == (decided, undecided), key
        assert cell.accuracy == pytest.approx(accuracy), key
        assert cell.stderr == pytest.approx(math.sqrt(accuracy * (1 - accuracy) / decided)), key
    # the other tables pool plain and obfuscated answers
    assert report.cells[("model-a", "app", "ferry")].accuracy == pytest.approx(4 / 8)


def test_obfuscation_table_sits_beside_the_per_task_table(obfuscated_scores):
    md = markdown(build_report(obfuscated_scores), [])
    rows = [
        "| model | task | none | mystery | random |",
        # sqrt(3/4 * 1/4 / 4) = 0.2165, sqrt(1/2 * 1/2 / 2) = 0.3536
        "| model-a | app | 0.750 ± 0.217 (n=4) | 0.500 ± 0.354 (n=2) | 0.000 ± 0.000 (n=2), 1 undecided |",
        "| model-a | prog | 1.000 ± 0.000 (n=1) | 0.000 ± 0.000 (n=1) |  |",
        # sqrt(4/5 * 1/5 / 5) = 0.1789, sqrt(1/3 * 2/3 / 3) = 0.2722
        "| model-a | all | 0.800 ± 0.179 (n=5) | 0.333 ± 0.272 (n=3) | 0.000 ± 0.000 (n=2), 1 undecided |",
        "| model-b | app | 0.000 ± 0.000 (n=1) | 1.000 ± 0.000 (n=2) |  |",
        "| model-b | reach | 0.750 ± 0.217 (n=4) |  |  |",
        # sqrt(3/5 * 2/5 / 5) = 0.2191
        "| model-b | all | 0.600 ± 0.219 (n=5) | 1.000 ± 0.000 (n=2) |  |",
    ]
    table = md.split("## Accuracy per task and obfuscation\n", 1)[1].split("\n## ", 1)[0]
    assert [r for r in table.splitlines() if r.startswith("|") and r != "| --- | --- | --- | --- | --- |"] == rows
    headings = re.findall(r"^## (.+)$", md, re.MULTILINE)
    assert headings[:4] == ["Sources", "Accuracy per task", "Accuracy per task and obfuscation", "Figures"]


def test_obfuscation_columns_are_the_obfuscations_present(tmp_path):
    lines = [obfuscated(None, "app", 1.0), obfuscated("random", "app", 0.0)]
    md = markdown(build_report([write_lines(tmp_path / "m.jsonl", lines)]), [])
    assert "| model | task | none | random |" in md
    assert "| m | app | 1.000 ± 0.000 (n=1) | 0.000 ± 0.000 (n=1) |" in md


def test_plain_answers_only_leave_the_report_as_it_was(scores, tmp_path):
    plain = write_lines(tmp_path / "plain.jsonl", [obfuscated("none", "app", 1.0), obfuscated(None, "app", 0.0)])
    for report in (build_report(scores), build_report([plain])):
        assert not report.obfuscated
        md = markdown(report, [])
        assert "obfuscation" not in md and "mystery" not in md
        assert re.findall(r"^## (.+)$", md, re.MULTILINE)[:3] == ["Sources", "Accuracy per task", "Figures"]


def test_obfuscation_figure_and_page(obfuscated_scores, tmp_path):
    out = tmp_path / "report"
    written = write_report(build_report(obfuscated_scores), out)
    assert {"accuracy_by_obfuscation.png", "accuracy_by_obfuscation.svg"} <= {p.name for p in written}
    assert (out / "accuracy_by_obfuscation.png").read_bytes().startswith(PNG_MAGIC)
    svg = (out / "accuracy_by_obfuscation.svg").read_text()
    for text in (
        "Accuracy per task: plain and obfuscated",
        "Accuracy per task and obfuscation: model-a",
        "Accuracy per task and obfuscation: model-b",
        "obfuscation",
        "none",
        "mystery",
        "random",
        "task",
    ):
        assert f">{text}<" in svg, text
    page = (out / "report.html").read_text()
    table = page.index("<h2>Accuracy per task and obfuscation</h2>")
    assert page.index("<h2>Accuracy per task</h2>") < table < page.index("<h2>Figures</h2>")
    assert "<td>model-a</td><td>app</td><td>0.750 ± 0.217 (n=4)</td><td>0.500 ± 0.354 (n=2)</td>" in page


def run_cli(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_plain_and_mystery_ferry_runs_side_by_side(tmp_path):
    """A tiny plain and a tiny mystery ferry run (app, level 1), their stored answers scored by acp:
    the report puts both at 1 side by side, and matches each answer with its own run's record."""
    out = tmp_path / "out"
    scores = []
    for mode, folder in (("none", "ferry"), ("mystery", "ferry-mystery")):
        args = ["generate", "--domain", "ferry", "--level", "1", "--tasks", "app", "--formats", "gen"]
        run_cli(*args, "--obfuscate", mode, "--out", str(out))
        predictions = tmp_path / f"{folder}.preds.jsonl"
        run_cli("reference-answers", str(out / folder), "-o", str(predictions))
        scores.append(tmp_path / f"ref.{folder}.jsonl")  # one model, ref, answering both runs
        run_cli("score", str(predictions), "--dataset", str(out / folder), "-o", str(scores[-1]))
    plain, mystery = ([json.loads(x) for x in path.read_text().splitlines()] for path in scores)
    assert {x["obfuscation"] for x in plain} == {"none"} and {x["obfuscation"] for x in mystery} == {"mystery"}
    n = len((out / "ferry" / "app.gen.jsonl").read_text().splitlines())
    assert n == len(plain) == len(mystery) > 0
    assert not {x["id"] for x in plain} & {x["id"] for x in mystery}  # other questions: other ids
    report_dir = tmp_path / "report"
    run_cli("report", *map(str, scores), "--dataset", str(out), "-o", str(report_dir))
    md = (report_dir / "report.md").read_text()
    assert "| model | task | none | mystery |" in md
    assert f"| ref | app | 1.000 ± 0.000 (n={n}) | 1.000 ± 0.000 (n={n}) |" in md
    assert (report_dir / "accuracy_by_obfuscation.svg").exists()
    measure = build_report(scores, out).set_measures[("ref", "app")]
    assert (measure.answers, measure.jaccard, measure.f1) == (2 * n, 1.0, 1.0)
