"""The library API (acpgen.api): generate equals `acp generate`, load, score, score_many (on worker processes: the
same scores as one at a time, budgets, workers that die), reference_answer, its doctests and the README section's
examples."""

from __future__ import annotations

import doctest
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pool_stubs
import pytest
from click.testing import CliRunner
from conftest import CI, DEV, FIXTURES

import acpgen
from acpgen import api
from acpgen.cli import cli
from acpgen.errors import DataError, PddlError
from acpgen.evaluation import pool
from acpgen.evaluation.scoring import score_answer
from acpgen.tasks import TASKS, ScoreOptions

ROOT = Path(__file__).resolve().parents[1]
TINY = FIXTURES / "pipeline" / "api.yaml"


@pytest.fixture(scope="module")
def cli_out(tmp_path_factory) -> Path:
    """`acp generate` of the tiny config (ferry, tasks app and reach, formats gen and bool)."""
    out = tmp_path_factory.mktemp("cli")
    result = CliRunner().invoke(
        cli, ["generate", "--domain", "ferry", "--config", str(TINY), "--out", str(out)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return out / "ferry"


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_import_acpgen_does_not_import_the_api():
    code = "import sys, acpgen; print('acpgen.api' in sys.modules, 'acpgen.generation.pipeline' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["False", "False"]
    assert acpgen.score is api.score  # and the attribute loads it


def test_generate_gives_the_records_of_acp_generate(cli_out, tmp_path):
    expected = _lines(cli_out / "app.gen.jsonl")
    assert len(expected) == 2
    got = list(acpgen.generate("ferry", "app", n=2, config=TINY, cache_dir=tmp_path / "cache"))
    assert got == expected
    # A temporary cache folder (removed afterwards) gives the same records; n=1 is the first of them.
    assert list(acpgen.generate(domain="ferry", task="app", n=1, config=TINY)) == expected[:1]


def test_generate_bool_format_equals_the_cli_and_caches(cli_out, tmp_path):
    expected = _lines(cli_out / "reach.bool.jsonl")
    cache = tmp_path / "cache"
    first = list(acpgen.generate("ferry", "reach", n=2, format="bool", config=TINY, cache_dir=cache))
    assert first == expected
    stamp = (cache / "ferry" / "problems" / "p001.pddl").stat().st_mtime_ns
    again = list(acpgen.generate("ferry", "reach", n=2, format="bool", config=TINY, cache_dir=cache))
    assert again == expected
    assert (cache / "ferry" / "problems" / "p001.pddl").stat().st_mtime_ns == stamp  # resumed, not made again


def test_generate_obfuscated_gives_the_records_of_acp_generate_obfuscate(tmp_path):
    out = tmp_path / "cli"
    args = ["generate", "--domain", "ferry", "--config", str(TINY), "--obfuscate", "mystery", "--out", str(out)]
    assert CliRunner().invoke(cli, args, catch_exceptions=False).exit_code == 0
    expected = _lines(out / "ferry-mystery" / "app.gen.jsonl")
    got = list(acpgen.generate("ferry", "app", n=2, config=TINY, obfuscate="mystery"))
    assert got == expected and {r["obfuscation"] for r in got} == {"mystery"}
    with pytest.raises(acpgen.errors.ConfigError, match="obfuscate must be one of none, mystery, random"):
        next(acpgen.generate("ferry", "app", config=TINY, obfuscate="rot13"))


def test_generate_refuses_bad_arguments():
    with pytest.raises(DataError, match="unknown task 'nope'"):
        next(acpgen.generate("ferry", "nope", config=TINY))
    with pytest.raises(acpgen.errors.ConfigError, match="no bool format"):
        next(acpgen.generate("ferry", "nexta", format="bool", config=TINY))
    with pytest.raises(acpgen.errors.ConfigError, match="not configured"):
        next(acpgen.generate("rovers", "app", config=TINY))


def test_generated_reference_answers_score_one_and_wrong_ones_zero(cli_out):
    for path in sorted(cli_out.glob("*.*.jsonl")):
        for record in _lines(path):
            assert acpgen.score(record, acpgen.reference_answer(record)).score == 1.0, (path.name, record["id"])
    app = _lines(cli_out / "app.gen.jsonl")[0]
    wrong = acpgen.score(app, " ".join(app["answer"][1:]))  # one applicable action left out
    assert (wrong.score, wrong.status) == (0.0, "scored")
    assert wrong.recall == pytest.approx((len(app["answer"]) - 1) / len(app["answer"]))
    assert wrong.precision == 1.0
    unknown = acpgen.score(app, "(fly ferry moon)")
    assert (unknown.score, unknown.precision, unknown.recall) == (0.0, 0.0, 0.0)
    assert unknown.reason.startswith("unknown_action")
    parse = acpgen.score(app, "no idea")
    assert (parse.score, parse.status, parse.recall) == (0.0, "parse_error", 0.0)
    assert acpgen.score(app, None).status == "parse_error"
    reach = _lines(cli_out / "reach.bool.jsonl")[0]
    flipped = "No" if reach["answer"] == "yes" else "Yes"
    assert acpgen.score(reach, flipped).score == 0.0
    assert acpgen.score(reach, "maybe").status == "parse_error"


def test_score_matches_the_cli_on_reference_records():
    """Every stored answer of the reference dev records scores as `acp score` scores it."""
    records = acpgen.load(DEV)
    app = [r for r in records if r["group"] == "applicable_actions_gen"]
    scores = acpgen.score_many(app, [acpgen.reference_answer(r) for r in app], workers=2)
    assert [s.score for s in scores] == [1.0] * len(app)
    assert all(s.precision == 1.0 and s.recall == 1.0 for s in scores)


def test_bad_records_raise_typed_errors():
    with pytest.raises(DataError, match="no known task"):
        acpgen.score({"id": 1, "group": "nonsense"}, "x")
    with pytest.raises(DataError, match="no PDDL_domain, PDDL_problem"):
        acpgen.score({"id": 1, "group": "applicable_actions_gen", "answer": []}, "(a)")
    with pytest.raises(DataError, match="not list"):
        acpgen.score([], "x")
    broken = {"id": 2, "group": "applicable_actions_gen", "answer": [], "PDDL_domain": "(define", "PDDL_problem": "("}
    unreadable = acpgen.score(broken, "(a b)")  # a per-answer status, as in `acp score`: never a silent 0
    assert (unreadable.status, unreadable.score) == ("undecided", 0.0)
    assert unreadable.reason.startswith("record PDDL error")
    with pytest.raises(DataError, match="2 records but 1 responses"):
        acpgen.score_many([broken, broken], ["x"])


def test_load_reads_every_reference_record():
    expected = sum(len(json.loads(p.read_text())) for p in DEV.glob("*.json"))
    records = acpgen.load(DEV)
    assert len(records) == expected
    assert acpgen.load(DEV / "app.gen.json") == json.loads((DEV / "app.gen.json").read_text())
    with pytest.raises(DataError, match="no such file"):
        acpgen.load(DEV / "missing.json")


def test_load_of_a_generate_output_folder_reads_exactly_its_exported_records(cli_out):
    """`acp generate` writes its exported records (OUT/D/<task>.<format>.jsonl) beside the qa stage's symbolic
    questions (OUT/D/qa/*.jsonl, the same ids without context) and the other stages' files: loading the output
    folder or the domain folder gives the exported records, each once, and nothing else."""
    exported = sorted(cli_out.glob("*.*.jsonl"))
    assert {p.name for p in exported} == {"app.gen.jsonl", "app.bool.jsonl", "reach.gen.jsonl", "reach.bool.jsonl"}
    assert sorted((cli_out / "qa").glob("*.jsonl")) and (cli_out / "states.jsonl").exists()  # the intermediates
    expected = [json.loads(line) for p in exported for line in p.read_text().splitlines()]
    for folder in (cli_out, cli_out.parent):
        records = acpgen.load(folder)
        assert records == expected
        assert all(r["context"] and r["question"] for r in records)
    assert len(acpgen.load(cli_out / "qa")) == len(expected)  # the qa folder named itself is read


def _score_in_child(pair):
    record, response = pair
    return acpgen.score(record, response).score


def test_score_is_thread_and_fork_safe():
    records = [r for r in acpgen.load(DEV) if r["group"] in ("applicable_actions_gen", "progression_gen")][:12]
    answers = [acpgen.reference_answer(r) for r in records]
    assert [s.score for s in acpgen.score_many(records, answers)] == [1.0] * len(records)  # planners now exist
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(lambda p: acpgen.score(*p).score, zip(records, answers))) == [1.0] * len(records)
    if "fork" in multiprocessing.get_all_start_methods():
        with multiprocessing.get_context("fork").Pool(2) as pool:
            assert pool.map(_score_in_child, list(zip(records, answers))) == [1.0] * len(records)


WRONG = {"gen": "(no-such-action x)", "bool": "**Final Answer**: Maybe.", "mcq": "**Final Answer**: E."}


@pytest.fixture(scope="module")
def every_task(tmp_path_factory) -> list[dict]:
    """Records of all 18 tasks, formats gen, bool and mcq (ferry, the CI configuration), and six reference nexta
    records (re-proven when scored: answers that need optimal planner calls)."""
    out = tmp_path_factory.mktemp("every-task")
    args = ["generate", "--domain", "ferry", "--config", str(CI), "--formats", "gen,bool,mcq", "--out", str(out)]
    CliRunner().invoke(cli, args)  # exit 1 when a task and format falls short: not needed here
    records = acpgen.load(out / "ferry")
    assert {api._kind(r).partition(".")[0] for r in records} == set(TASKS)
    assert {api._kind(r).partition(".")[2] or "gen" for r in records} == {"gen", "bool", "mcq"}
    return records + acpgen.load(DEV / "nexta.gen.json")[:6]


def answers_to(records: list[dict]) -> tuple[list[dict], list[str | None]]:
    """Each record four times: its stored answer as a model writes it, a wrong one, no answer, and 5,000
    parentheses; the nexta records also every action applicable in their state (each an optimal search)."""
    pairs: list[tuple[dict, str | None]] = []
    for record in records:
        kind = api._kind(record)
        wrong = WRONG[kind.partition(".")[2] or "gen"]
        pairs += [(record, acpgen.reference_answer(record)), (record, wrong), (record, None), (record, "(" * 5000)]
        if kind == "nexta":
            task = api.ground_task(record)
            pairs += [(record, action.name) for _, action in task.successors(task.init)]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def fields(scores: list[acpgen.Score]) -> list[tuple]:
    return [(s.score, s.status, s.reason, s.precision, s.recall, s.details) for s in scores]


def test_score_many_on_processes_gives_the_scores_of_one_at_a_time(every_task):
    """Every task and format, stored, wrong, missing and malformed answers, answers that need planner calls: the
    same scores (every field, in order) on two worker processes as one at a time in this process, with the
    reading for evaluation and the strict one; the pool is kept for the next call."""
    records, answers = answers_to(every_task)
    for strict in (False, True):
        alone = [acpgen.score(r, a, strict=strict) for r, a in zip(records, answers)]
        assert fields(acpgen.score_many(records, answers, workers=2, strict=strict)) == fields(alone)
        assert fields(acpgen.score_many(records, answers, strict=strict)) == fields(alone)  # workers=1
    assert {s.status for s in alone} == {"scored", "parse_error"}
    workers = [w.process.pid for w in pool.shared_pool(2)._workers]
    acpgen.score_many(records[:8], answers[:8], workers=2)
    assert [w.process.pid for w in pool.shared_pool(2)._workers] == workers  # the same processes, kept


def test_score_many_with_one_worker_stays_in_this_process(monkeypatch):
    def no_pool(*args, **kwargs):
        raise AssertionError("workers=1 started the pool")

    monkeypatch.setattr(api, "run_all", no_pool)
    record = {"id": 1, "group": "applicable_actions_bool", "answer": "no"}
    assert [s.score for s in acpgen.score_many([record, record], ["Yes", "No"], workers=1)] == [0.0, 1.0]


def _app_records(n: int = 6) -> list[dict]:
    return [r for r in acpgen.load(DEV / "app.gen.json")][:n]


def test_an_answer_over_its_budget_is_undecided_and_its_worker_replaced(monkeypatch):
    """The scoring of one answer sleeps for a minute (tests/pool_stubs.py); with a budget of 0.5 s it is
    undecided, not 0, the others are scored, the batch is not held up, and the pool has two workers again."""
    monkeypatch.setattr(api, "_score_call", pool_stubs.score_call)
    records = _app_records()
    answers = [acpgen.reference_answer(r) for r in records]
    answers[2] += pool_stubs.SLEEP
    start = time.monotonic()
    scores = acpgen.score_many(records, answers, workers=2, budget=0.5)
    assert time.monotonic() - start < 30
    assert (scores[2].score, scores[2].status) == (0.0, "undecided")
    assert scores[2].reason == "scoring took longer than its budget of 0.5 s"
    expected = [acpgen.score(r, a) for r, a in zip(records, answers)]
    assert fields(scores[:2] + scores[3:]) == fields(expected[:2] + expected[3:])
    shared = pool.shared_pool(2)
    assert len(shared._workers) == 2 and shared.alive
    again = acpgen.score_many(records[:2] + records[3:], answers[:2] + answers[3:], workers=2, budget=0.5)
    assert fields(again) == fields(expected[:2] + expected[3:])


def test_a_killed_workers_answers_are_not_lost(monkeypatch, tmp_path):
    """A worker killed while it scores (SIGKILL from outside, as the kernel's out-of-memory killer does): the
    answer it was scoring is scored again on a new worker, and every answer of the batch has its score."""
    monkeypatch.setattr(api, "_score_call", pool_stubs.score_call)
    records = _app_records() * 3
    answers = [acpgen.reference_answer(r) for r in records]
    flag = tmp_path / "sleeping"
    answers[0] += f"<sleep-once:{flag}>"
    with ThreadPoolExecutor(1) as runner:
        batch = runner.submit(acpgen.score_many, records, answers, workers=2, budget=None)
        deadline = time.monotonic() + 60
        while not (flag.exists() and flag.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(int(flag.read_text()), signal.SIGKILL)
        scores = batch.result(timeout=120)
    assert fields(scores) == fields([acpgen.score(r, a) for r, a in zip(records, answers)])


def test_an_answer_whose_worker_dies_twice_is_undecided(monkeypatch, tmp_path):
    monkeypatch.setattr(api, "_score_call", pool_stubs.score_call)
    records = _app_records()
    answers = [acpgen.reference_answer(r) for r in records]
    answers[1] += f"<die-once:{tmp_path / 'died'}>"  # dies once, then is scored
    answers[4] += "<die-once:always>"
    scores = acpgen.score_many(records, answers, workers=2)
    assert (scores[4].status, scores[4].score) == ("undecided", 0.0)
    assert scores[4].reason == "the worker scoring it died 2 times (exit code 3)"
    expected = [acpgen.score(r, a) for r, a in zip(records, answers)]
    assert fields(scores[:4] + scores[5:]) == fields(expected[:4] + expected[5:])


def test_docstring_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    globs = {"acpgen": acpgen, "DOMAIN": api._DOCTEST_DOMAIN, "PROBLEM": api._DOCTEST_PROBLEM}
    result = doctest.testmod(api, extraglobs=globs, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 8
    assert result.failed == 0


def readme_section_blocks(heading: str) -> list[str]:
    """The fenced python blocks of one ``## `` section of the README."""
    text = (ROOT / "README.md").read_text()
    start = text.index(f"## {heading}")
    end = text.find("\n## ", start + 1)
    section = text[start : end if end != -1 else len(text)]
    return re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)


def test_ground_tasks_are_kept_by_pddl_text_and_bounded():
    records = [r for r in acpgen.load(DEV) if r["group"] == "reachable_atom_gen"][:3]
    cache = api._GroundedTasks(size=2)
    first = cache.get(records[0])
    assert cache.get(dict(records[0], id=99, answer=["x"])) is first  # only the PDDL text counts
    cache.get(records[1])
    cache.get(records[2])  # evicts records[0], the least recently used
    assert cache.get(records[0]) is not first
    # A score with the kept ground task equals a score from a fresh grounding (`acp score`).
    for record in records:
        task = api._GROUNDED.get(record)
        true_atom = task.state_atoms(task.init & ~task.static_mask)[0]  # reachable: needs the oracle
        for response in (acpgen.reference_answer(record), "(at c0 l9)", true_atom):
            for recheck in (False, True):
                fresh = score_answer(record, "reach", response, ScoreOptions(recheck=recheck))
                for _ in range(2):  # the second score reuses the ground task and the oracle
                    got = acpgen.score(record, response, recheck=recheck)
                    assert (got.score, got.reason) == (fresh.score, fresh.reason), (record["id"], response)
        oracles = api._GROUNDED.entry(record).oracles
        assert api._oracle_key(ScoreOptions(recheck=True)) in oracles  # one oracle, with or without recheck
        assert len(oracles) == 1


def test_reference_answer_is_the_first_line_acp_reference_answers_writes(tmp_path):
    out = tmp_path / "preds.jsonl"
    result = CliRunner().invoke(cli, ["reference-answers", str(DEV), "-o", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    first: dict[tuple[str, str], str] = {}
    for line in _lines(out):
        first.setdefault((line["task"], str(line["id"])), line["response"])
    records = acpgen.load(DEV)
    assert len(first) == len(records)
    for record in records:
        kind = api._kind(record)
        assert acpgen.reference_answer(record) == first[(kind, str(record["id"]))]


def test_equivalent_pairs_mirror_the_command():
    """acpgen.equivalent_pairs is `acp equivalent --pairs`: verdicts in order with their ids, an error line
    for a truth that does not parse; the same on 1 and 2 processes. Labels: b is never `here`, so
    (done b) is unreachable; renaming a and b in the object list changes nothing."""
    domain, problem = api._DOCTEST_DOMAIN, api._DOCTEST_PROBLEM
    pairs = [
        {"id": "same", "truth": problem, "candidate": problem.replace("(:objects a b", "(:objects b a")},
        {"id": "unreachable", "truth": problem, "candidate": problem.replace("(done a)", "(done b)")},
        {"id": "broken", "truth": problem[:40], "candidate": problem},
    ]
    one = list(acpgen.equivalent_pairs(domain, pairs))
    assert [v["id"] for v in one] == ["same", "unreachable", "broken"]
    assert [v.get("equivalent") for v in one[:2]] == [True, False] and "does not parse" in one[2]["error"]
    assert list(acpgen.equivalent_pairs(domain, pairs, jobs=2)) == one
    with pytest.raises(PddlError):
        acpgen.equivalent(domain, problem[:40], problem)


def test_validate_mirrors_the_command(cli_out):
    """acpgen.validate is `acp validate --json`: the same verdict per record, on a folder or on the records in
    memory (then in their order); a stored answer with an action left out is wrong, on 1 and 2 processes; what
    is no record raises DataError."""
    result = CliRunner().invoke(cli, ["validate", "--json", str(cli_out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    command = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    from_folder = acpgen.validate(cli_out)
    key = lambda check: (check["task"], str(check["id"]))  # noqa: E731
    assert sorted(from_folder, key=key) == sorted(command, key=key) and len(command) >= 4
    assert {check["verdict"] for check in from_folder} == {"ok"}

    records = _lines(cli_out / "app.gen.jsonl")
    tampered = dict(records[0], answer=records[0]["answer"][1:])  # one applicable action left out
    assert records[0]["answer"][1:] != records[0]["answer"]
    checks = acpgen.validate([tampered, records[1]])
    assert [c["id"] for c in checks] == [tampered["id"], records[1]["id"]]
    assert [c["verdict"] for c in checks] == ["wrong", "ok"] and checks[0]["reason"]
    assert acpgen.validate([tampered, records[1]], jobs=2) == checks
    with pytest.raises(DataError):
        acpgen.validate([{"id": 1, "question": "no task"}])
