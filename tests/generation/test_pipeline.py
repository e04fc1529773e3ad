"""`acp generate` as a whole: the same seed gives the same bytes (whatever the hash seed), and a killed
run resumes to the same artefacts."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time

from conftest import FIXTURES, SMALL, generate, generate_command, snapshot

from acpgen.data import DOMAINS_DIR
from acpgen.pddl.grounding import GroundTask


def test_same_seed_gives_identical_bytes_and_another_seed_differs(reference_run, tmp_path):
    generate(tmp_path / "b")
    assert snapshot(tmp_path / "b") == snapshot(reference_run)
    generate(tmp_path / "c", "--seed", "8", "--stage", "problems")
    assert (tmp_path / "c" / "ferry/problems/p001.pddl").read_bytes() != (
        reference_run / "ferry/problems/p001.pddl"
    ).read_bytes()


def test_artefacts_do_not_depend_on_the_hash_seed(tmp_path):
    """Two processes with different PYTHONHASHSEED (set iteration order) write the same bytes."""
    snapshots = []
    for seed in ("1", "2"):
        out = tmp_path / f"hash-{seed}"
        run = subprocess.run(
            generate_command(out, FIXTURES / "pipeline" / "ci.yaml"),
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            timeout=600,
        )
        assert run.returncode == 0, run.stderr[-2000:]
        snapshots.append(snapshot(out))
    assert snapshots[0] == snapshots[1]
    assert any(name.endswith("reach.mcq.jsonl") for name in snapshots[0])


def test_a_killed_run_resumes_to_the_same_artefacts(reference_run, tmp_path):
    out = tmp_path / "killed"
    command = generate_command(out, SMALL)
    scratch = tmp_path / "tmp"  # the planner folders a SIGKILL leaves behind stay inside the test's folder
    scratch.mkdir()
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    deadline = time.time() + 120
    while time.time() < deadline and not list((out / "ferry" / "plans").glob("*.json")):
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # the planner children too
    process.wait()
    # Whatever the kill left behind is complete: every finished file parses.
    root = out / "ferry"
    domain = (DOMAINS_DIR / "ferry" / "domain.pddl").read_text()
    for problem in (root / "problems").glob("*.pddl"):
        GroundTask.from_strings(domain, problem.read_text())
    assert all(json.loads(p.read_text())["plans"] for p in (root / "plans").glob("*.json"))
    generate(out)
    assert snapshot(out) == snapshot(reference_run)


def test_a_resumed_run_removes_what_a_kill_left_half_written_in_every_stage_folder(reference_run, tmp_path):
    """A SIGKILL during the qa stage leaves a temporary file in qa/ (CI saw one); the next run removes it,
    as it does in the other stage folders, and the artefacts are those of an uninterrupted run."""
    out = tmp_path / "resumed"
    shutil.copytree(reference_run, out)
    for folder in ("qa", "plans", "stamps"):
        (out / "ferry" / folder / ".half.jsonl.abc123.tmp").write_text('{"PDDL_domain": "; ferry')
    generate(out)
    assert snapshot(out) == snapshot(reference_run)


def test_stamps_lost_or_torn_by_a_machine_crash_make_their_files_again(reference_run, tmp_path):
    """The stamp sidecars are written without a flush to the disk: after a crash of the machine a sidecar may be
    torn (unreadable) or lack its last entries, and a file may hold other bytes than its entry records. Each case
    makes the files concerned again, never takes them for up to date: the artefacts are those of an uninterrupted
    run."""
    out = tmp_path / "crashed"
    shutil.copytree(reference_run, out)
    stamps = out / "ferry" / "stamps"
    qa = (stamps / "qa.json").read_bytes()
    (stamps / "qa.json").write_bytes(qa[: len(qa) // 2])  # torn: unreadable
    plans = json.loads((stamps / "plans.json").read_text())
    lost = sorted(plans)[-1]
    del plans[lost]  # the last entry never reached the disk
    (stamps / "plans.json").write_text(json.dumps(plans))
    (out / "ferry" / "plans" / lost).write_text("{}")  # and its file holds what a half-finished write left
    states = sorted((out / "ferry" / "states").glob("p*.jsonl"))[0]
    states.write_text(states.read_text()[:10])  # another digest than its entry records
    generate(out)
    assert snapshot(out) == snapshot(reference_run)
