"""`acp score` and `acp reference-answers` through the command line; the documentation's copies of --help."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DEV, dev_records

from acpgen.cli import cli

AMBIGUOUS_ID = 6158202132410658806  # occurs in both app.gen.json and prog.gen.json


def write_jsonl(path, lines):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_score_writes_every_line_with_score_status_reason(tmp_path):
    app = dev_records("app")[0]
    val = dev_records("val")[0]
    preds = write_jsonl(
        tmp_path / "p.jsonl",
        [
            {"id": app["id"], "task": "app", "response": " ".join(app["answer"]), "model": "m1"},
            {"id": app["id"], "task": "app", "response": "(sail l0 l1)", "model": "m1"},
            {"id": val["id"], "response": "The answer is: ((( ", "model": "m2"},
        ],
    )
    out = tmp_path / "scores.jsonl"
    result = run("score", preds, "--dataset", DEV, "--output", out)
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["score"] for x in lines] == [1.0, 0.0, 0.0]
    assert [x["status"] for x in lines] == ["scored", "scored", "parse_error"]
    assert all(x["model"] in ("m1", "m2") and x["reason"] for x in lines)
    assert "parse errors: 1" in result.output


def test_ambiguous_id_is_an_error_naming_it_and_task_resolves_it(tmp_path):
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": AMBIGUOUS_ID, "response": "None"}])
    result = CliRunner().invoke(cli, ["score", str(preds), "--dataset", str(DEV)])
    assert result.exit_code == 1
    assert str(AMBIGUOUS_ID) in result.output and "ambiguous" in result.output and "p.jsonl:1" in result.output
    record = next(r for r in dev_records("app") if r["id"] == AMBIGUOUS_ID)
    preds = write_jsonl(
        tmp_path / "q.jsonl",
        [{"id": AMBIGUOUS_ID, "group": "applicable_actions_gen", "response": " ".join(record["answer"])}],
    )
    result = run("score", preds, "--dataset", DEV, "--json")
    summary = json.loads(result.output)
    assert summary["app"]["all"]["accuracy"] == 1.0 and summary["all"]["all"]["answers"] == 1


def test_lm_eval_samples_are_scored_without_dataset(tmp_path):
    record = dev_records("nexta")[0]
    samples = write_jsonl(
        tmp_path / "samples_acp_nexta_gen_2026.jsonl",
        [
            {
                "doc_id": 0,
                "doc": record,
                "target": str(record["answer"]),
                "resps": [[record["answer"]["yes"][0] + "\n\nmore text", "garbage"]],
                "filtered_resps": ["None"],
                "filter": "acp_grammar_parse",
                "metrics": ["score"],
            }
        ],
    )
    out = tmp_path / "scores.jsonl"
    result = run("score", samples, "--output", out, "--json")
    assert result.exit_code == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [(x["sample"], x["score"], x["status"]) for x in lines] == [(0, 1.0, "scored"), (1, 0.0, "parse_error")]
    assert all("doc" not in x and x["id"] == record["id"] for x in lines)


def test_gzip_jsonl_dataset_and_parallel_workers_agree(tmp_path):
    records = dev_records("land")[:6]
    data = tmp_path / "land.jsonl.gz"
    with gzip.open(data, "wt") as handle:
        handle.writelines(json.dumps(r) + "\n" for r in records)
    preds = write_jsonl(
        tmp_path / "p.jsonl", [{"id": r["id"], "response": (r["answer"]["yes"] or ["None"])[0]} for r in records]
    )
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    run("score", preds, "--dataset", data, "-o", one)
    run("score", preds, "--dataset", data, "-o", two, "-j", "2")
    assert one.read_text() == two.read_text()
    assert all(json.loads(x)["score"] == 1.0 for x in one.read_text().splitlines())


def test_malformed_prediction_file_names_file_and_line(tmp_path):
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"id": 1, "response": "x"}\n{not json}\n')
    result = CliRunner().invoke(cli, ["score", str(preds), "--dataset", str(DEV)])
    assert result.exit_code == 1 and "p.jsonl:2" in result.output


def test_reference_answers_round_trip(tmp_path):
    out = tmp_path / "ref.jsonl"
    result = run("reference-answers", DEV / "val.gen.json", "-o", out)
    assert result.exit_code == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 40 and {x["task"] for x in lines} == {"val"}
    scored = run("score", out, "--dataset", DEV / "val.gen.json", "--json")
    assert json.loads(scored.output)["val"]["all"]["accuracy"] == 1.0


def test_reference_answers_says_why_there_are_more_lines_than_records(tmp_path):
    out = tmp_path / "ref.jsonl"
    result = run("reference-answers", DEV / "land.gen.json", "-o", out)
    lines = out.read_text().splitlines()
    assert len(lines) > 40  # the 40 land records store several landmarks each
    assert (
        f"wrote {len(lines)} predictions for 40 records to {out} ({len(lines) - 40} more than records: a record "
        in (" ".join(result.output.split()))
    )
    single = run("reference-answers", DEV / "val.gen.json", "-o", out)
    assert f"wrote 40 predictions for 40 records to {out}" in single.output and "more than" not in single.output


def test_help_and_pages_count_every_task():
    # "8 tasks" / "eight tasks" named the ACPBench-Hard tasks when there were no others; acp has 18
    root = Path(__file__).parents[1]
    helps = [CliRunner().invoke(cli, [*c, "--help"]).output for c in (["score"], ["validate"], ["generate"], [])]
    pages = [
        p.read_text() for p in [root / "README.md", *(root / "docs").rglob("*.md")] if p.name != "acpbench-hard.md"
    ]
    for text in helps + pages:
        assert not re.search(r"\b(?:all )?(?:8|eight) tasks\b", text, re.IGNORECASE), re.findall(
            r".{60}8 tasks.{20}", text
        )


# ----- the documentation's copies of --help ----------------------------------------------------------------
COMMAND_PAGES = sorted((Path(__file__).parents[1] / "docs" / "commands").glob("*.md"))
HELP_BLOCK = re.compile(r"```text\n\$ (acp[\w -]*?) --help\n(.*?)\n```", re.S)


@pytest.mark.parametrize("page", COMMAND_PAGES, ids=lambda p: p.stem)
def test_every_documented_help_text_is_the_commands_own(page):
    """docs/commands/*.md show each command's --help under "Every option": it must be what the command
    prints (at the width the pages use), so that a new option cannot go undocumented."""
    blocks = HELP_BLOCK.findall(page.read_text())
    for command, shown in blocks:
        printed = CliRunner().invoke(cli, [*command.split()[1:], "--help"], terminal_width=78, prog_name="acp")
        assert printed.exit_code == 0
        assert shown == printed.output.rstrip(), f"{page}: `{command} --help` changed; copy its output into the page"
