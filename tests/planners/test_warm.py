"""The warm Fast Downward path (acpgen.planners.warm) answers exactly as the driver does.

Each query is asked twice, through Fast Downward's own driver (``ACP_FD_DRIVER=1``) and through
the warm translator plus the search binary, and the results must agree: status, plans, landmarks
and mutex groups. The expected values are the driver's, an independent program.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from conftest import FIXTURES, generated_problem

from acpgen.config import load_config
from acpgen.data import DOMAINS_DIR
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.render import render_problem
from acpgen.pddl.sas import sas_query
from acpgen.pddl.semantics import relaxed_reachable
from acpgen.planners import Limits, LocalBackend, PlanCache, Planners, Status, warm
from acpgen.planners.backends import FAST_DOWNWARD, KSTAR, release_bin

FIX = FIXTURES / "planner"
LIMITS = Limits(time=20.0, memory_mb=2048)
FERRY = (FIX / "ferry-domain.pddl").read_text()
FERRY_P01 = (FIX / "ferry-p01.pddl").read_text()
# Two cars to carry and no sail action that reaches l1 from l0: unsolvable.
FERRY_CUT = FERRY_P01.replace("(not-eq l0 l1)", "").replace("(not-eq l1 l0)", "")
CASES = {
    "solvable": (FERRY, FERRY_P01),
    "unsolvable": (FERRY, FERRY_CUT),
    "unsolvable-by-mutex": (FERRY, (FIX / "ferry-unsolvable-search.pddl").read_text()),
    "unsolvable-by-search": ((FIX / "tokens-domain.pddl").read_text(), (FIX / "tokens-unsolvable.pddl").read_text()),
    "axioms": ((FIX / "axioms-domain.pddl").read_text(), (FIX / "axioms-p01.pddl").read_text()),
    "malformed-problem": (FERRY, "(define (problem"),
    "malformed-domain": ("(define (domain", FERRY_P01),
}


def _answers(monkeypatch, driver: bool, domain: str, problem: str):
    monkeypatch.setenv(warm.ENV_VAR, "1" if driver else "0")
    planners = Planners(LocalBackend(), PlanCache(None, env=False))
    solve, optimal = planners.solve(domain, problem, LIMITS), planners.optimal(domain, problem, LIMITS)
    landmarks, mutexes = planners.landmarks(domain, problem, LIMITS), planners.mutex_groups(domain, problem, LIMITS)
    return (
        (solve.status, solve.plans),
        (optimal.status, optimal.plans, optimal.costs),
        (landmarks.status, landmarks.landmarks),
        (mutexes.status, mutexes.groups),
    )


@pytest.mark.parametrize("case", sorted(CASES))
def test_warm_answers_like_the_driver(monkeypatch, case):
    domain, problem = CASES[case]
    through_driver = _answers(monkeypatch, True, domain, problem)
    assert _answers(monkeypatch, False, domain, problem) == through_driver


def test_expected_statuses(monkeypatch):
    monkeypatch.delenv(warm.ENV_VAR, raising=False)
    assert warm.enabled()
    planners = Planners(LocalBackend(), PlanCache(None, env=False))
    assert planners.solve(FERRY, FERRY_P01, LIMITS).status == Status.SOLVED
    assert planners.solve(FERRY, FERRY_CUT, LIMITS).status == Status.UNSOLVABLE
    assert planners.optimal(FERRY, FERRY_P01, LIMITS).costs == (7,)
    assert planners.solve(FERRY, "(define (problem", LIMITS).status == Status.ERROR


def test_a_dead_server_is_replaced():
    planners = Planners(LocalBackend(), PlanCache(None, env=False))
    assert planners.solve(FERRY, FERRY_P01, LIMITS).status == Status.SOLVED
    server = warm._server()
    server.proc.kill()
    server.proc.wait()
    result = Planners(LocalBackend(), PlanCache(None, env=False)).optimal(FERRY, FERRY_P01, LIMITS)
    assert result.status == Status.SOLVED and result.costs == (7,)


def test_translator_watchdog_kills_a_long_translation(tmp_path):
    # 400 locations: the translator grounds 160,000 sail actions, far more than 0.2 s of work.
    places = [f"l{i}" for i in range(400)]
    not_eq = " ".join(f"(not-eq {a} {b})" for a in places for b in places if a != b)
    problem = (
        f"(define (problem big) (:domain ferry) (:objects {' '.join(places)} - location c0 - car)"
        f" (:init {not_eq} (at-ferry l0) (empty-ferry) (at c0 l0)) (:goal (at c0 l399)))"
    )
    (tmp_path / "domain.pddl").write_text(FERRY)
    (tmp_path / "problem.pddl").write_text(problem)
    request = {"cwd": str(tmp_path), "args": ["domain.pddl", "problem.pddl"], "cpu": 60, "memory_mb": None}
    code, _, fired = warm._server().translate({**request, "log": "t.log"}, wall_limit=0.2)
    assert fired and code < 0
    # The server still serves the next request.
    code, _, fired = warm._server().translate(
        {**request, "args": ["domain.pddl", "missing.pddl"], "log": "t.log"}, wall_limit=30
    )
    assert not fired and code != 0


def test_an_answer_that_came_with_the_pid_line_is_not_waited_for(tmp_path):
    # The client is slow to read (a busy machine) and the translation fails at once: the server's pid and
    # status lines reach the pipe together. Read through a buffered file object, the status line sat in its
    # buffer while select() waited on the empty pipe until the watchdog fired (twice in one `make dataset`,
    # some 100 s each); the answer must come at once.
    server = warm._Server(sys.executable)
    try:
        request = {"cwd": str(tmp_path), "args": ["missing.pddl", "missing.pddl"], "cpu": 5, "memory_mb": None}
        assert server.proc.stdin is not None
        server.proc.stdin.write(json.dumps({**request, "log": "t.log"}) + "\n")
        server.proc.stdin.flush()
        time.sleep(0.5)  # the child has ended and the server has answered twice
        assert set(server._line(None) or {}) == {"pid"}
        answer = server._line(2.0)
        assert answer is not None and answer["status"] != 0
    finally:
        server.close()


def test_a_translation_without_the_memory_it_needs_is_reported_out_of_memory(tmp_path):
    # address-space limits below what the translator needs, one far below, one a few MB above the server's own
    # (no room for the 10 MB the child holds for its report): exit code 20, as the driver reports a translator
    # out of memory, not a crash (1); the server serves the next request
    (tmp_path / "domain.pddl").write_text(FERRY)
    (tmp_path / "problem.pddl").write_text(FERRY_P01)
    request = {"cwd": str(tmp_path), "args": ["domain.pddl", "problem.pddl"], "cpu": 60, "log": "t.log"}
    server = warm._server()
    server.translate({**request, "memory_mb": 2048}, wall_limit=30)  # the translator imported
    status = Path(f"/proc/{server.proc.pid}/status").read_text()
    size_mb = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmSize:"))) // 1024
    for limit in (1, size_mb + 4):
        code, _, fired = server.translate({**request, "memory_mb": limit}, wall_limit=30)
        assert (code, fired) == (20, False), limit
    code, _, fired = warm._server().translate({**request, "memory_mb": 2048}, wall_limit=30)
    assert (code, fired) == (0, False)


@pytest.mark.parametrize("case", ["solvable", "unsolvable", "unsolvable-by-mutex", "unsolvable-by-search"])
def test_sas_tasks_are_searched_like_the_driver_does(monkeypatch, case):
    """A SAS task written by acp (acpgen.pddl.sas) goes to the search alone: the same answer through the
    driver, which recognises the file as translator output, and through the warm path."""
    domain, problem = CASES[case]
    task = GroundTask.from_strings(domain, problem)
    sas = sas_query(task, task.init, task.goal_pos, task.goal_neg, relaxed_reachable(task, task.init)[0])
    assert sas is not None
    answers = []
    for driver in (True, False):
        monkeypatch.setenv(warm.ENV_VAR, "1" if driver else "0")
        result = Planners(LocalBackend(), PlanCache(None, env=False)).optimal_sas(sas, LIMITS)
        answers.append((result.status, result.plans, result.costs))
    assert answers[0] == answers[1]
    assert answers[0][0] == (Status.SOLVED if case == "solvable" else Status.UNSOLVABLE)
    if case == "solvable":
        assert answers[0][2] == (7,)  # the optimal cost the translator's route finds (test_expected_statuses)


def _kstar_answers(monkeypatch, driver: bool, domain: str, problem: str):
    monkeypatch.setenv(warm.ENV_VAR, "1" if driver else "0")
    planners = Planners(LocalBackend(), PlanCache(None, env=False))
    quality = planners.top_quality(domain, problem, 1.2, k=10, limits=LIMITS)
    top = planners.top_k(domain, problem, 5, LIMITS)
    return (quality.status, quality.plans), (top.status, top.plans)


@pytest.mark.parametrize("case", sorted(CASES))
def test_warm_kstar_answers_like_its_driver(monkeypatch, case):
    # K* through its own driver (which starts two interpreters and translates with K*'s own, older translator)
    # and through the warm path (K*'s translator in a warm server, then K*'s search binary): the same plans, in
    # the same order, and the same statuses (axioms: LM-cut refuses them and blind search runs instead)
    domain, problem = CASES[case]
    through_driver = _kstar_answers(monkeypatch, True, domain, problem)
    assert _kstar_answers(monkeypatch, False, domain, problem) == through_driver


@pytest.mark.parametrize("domain", ["blocksworld", "ferry", "grippers", "logistics", "depots", "rovers"])
def test_warm_kstar_plans_like_its_driver_on_generated_problems(monkeypatch, domain):
    # problems with more plans within the quality bound than asked for: which ten K* keeps depends on its
    # search, so the same ten show that it searched the same task the same way
    text = (DOMAINS_DIR / domain / "domain.pddl").read_text()
    for seed in (1, 2):
        task = generated_problem(domain, seed, load_config().domain(domain).sizes[1])
        problem = render_problem(task, task.init)
        through_driver = _kstar_answers(monkeypatch, True, text, problem)
        assert _kstar_answers(monkeypatch, False, text, problem) == through_driver, (domain, seed)


@pytest.mark.parametrize("case", ["solvable", "axioms"])
@pytest.mark.parametrize("layout", [FAST_DOWNWARD, KSTAR])
def test_the_warm_translator_writes_what_its_own_script_writes(tmp_path, layout, case):
    # each planner's translator, run cold as its driver runs it, and warm: the same SAS task, byte for byte (the
    # two translators differ: on the task with axioms their outputs do)
    import subprocess
    import sys

    domain, problem = CASES[case]
    (tmp_path / "domain.pddl").write_text(domain)
    (tmp_path / "problem.pddl").write_text(problem)
    bin_dir = release_bin(layout)
    script = [str(bin_dir / "translate" / "translate.py")] if layout == KSTAR else ["-m", "fast_downward.translate"]
    cold = tmp_path / "cold"
    cold.mkdir()
    subprocess.run(
        [sys.executable, *script, "../domain.pddl", "../problem.pddl", "--sas-file", "output.sas"],
        cwd=cold,
        env={"PYTHONPATH": str(bin_dir)},
        check=True,
        capture_output=True,
    )
    code, _, fired, _ = warm.translate(
        tmp_path, ["domain.pddl", "problem.pddl", "--sas-file", "output.sas"], 20, None, layout
    )
    assert code == 0 and not fired
    assert (tmp_path / "output.sas").read_text() == (cold / "output.sas").read_text()
