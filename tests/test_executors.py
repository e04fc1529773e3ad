"""Executors (acpgen/executors.py): the local pool and a real Dask LocalCluster (2 worker processes).

Outputs of `acp generate` (all stages) and `acp score --recheck` are byte-identical for the local
executor and Dask; a worker killed in the middle of a unit is survived with identical bytes; a
unit that raises is reported by name and reason while the others finish.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import textwrap
import time
from concurrent.futures import Future
from pathlib import Path

import cloudpickle
import pytest
from click.testing import CliRunner
from conftest import FIXTURES, snapshot
from distributed import LocalCluster

from acpgen.cli import cli
from acpgen.config import load_config
from acpgen.errors import ConfigError
from acpgen.executors import DaskExecutor, Executor, ExecutorConfig, cluster_spec, make_executor, shard_size, shards
from acpgen.generation import pipeline
from acpgen.generation.stages import base as stage_base
from acpgen.generation.stages import qa

CONFIG = FIXTURES / "pipeline" / "dask.yaml"
_CALL_UNIT = stage_base.call_unit  # the real unit runner, called by the killing wrapper below

# Workers unpickle this module's functions from their bytes (they need not find the tests folder).
cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, memory_limit=0, dashboard_address=None
    ) as local_cluster:
        yield local_cluster


def invoke(*args: str):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def local_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("local")
    invoke("generate", "--domain", "all", "--config", str(CONFIG), "--out", str(out))
    return out


# --- the executors on plain functions


def _square_unless_four(n: int) -> int:
    time.sleep(0.05 * (5 - n))  # later units finish first
    if n == 4:
        raise ValueError("four is refused")
    return n * n


def _fail_first_time(marker: str) -> str:
    if not Path(marker).exists():
        Path(marker).write_text("failed once")
        raise RuntimeError("first attempt fails")
    return "second attempt"


def check_order_and_failure(executor: Executor) -> None:
    names = [f"unit-{n}" for n in range(6)]
    outcomes = list(executor.map(_square_unless_four, list(range(6)), names, progress=False))
    assert [o.name for o in outcomes] == names
    assert [o.value for o in outcomes if o.ok] == [0, 1, 4, 9, 25]
    (failed,) = [o for o in outcomes if not o.ok]
    assert failed.name == "unit-4"
    assert failed.error is not None and failed.error.startswith("ValueError: four is refused at test_executors.py:")
    assert all(o.worker for o in outcomes if o.ok)


def _slow_first(n: int) -> int:
    time.sleep(1.5 if n == 0 else 0.02)
    return n


def test_a_worker_goes_on_while_this_process_works_on_a_long_unit(monkeypatch):
    # jobs 2: this process takes the first unit (1.5 s), the worker process every other unit meanwhile (all of
    # them were handed to it at once, from the back), and the outcomes still come in unit order
    import acpgen.executors as executors_module

    monkeypatch.setattr(executors_module, "LOCAL_FIRST", 0.0)
    here = f"{socket.gethostname()}:{os.getpid()}"
    outcomes = list(Executor(jobs=2).map(_slow_first, list(range(12)), [f"u{n}" for n in range(12)], progress=False))
    assert [o.value for o in outcomes] == list(range(12))
    assert [o.worker == here for o in outcomes] == [True] + [False] * 11


def _dies_on_a_worker(unit: tuple[int, int]) -> int:
    n, parent = unit
    if n == 7 and os.getpid() != parent:
        os._exit(1)  # the worker process dies, as one killed or out of memory would
    time.sleep(0.05)
    return n


def test_a_dead_worker_loses_only_its_unit_and_this_process_takes_the_units_left(monkeypatch):
    # jobs 2 from the first unit: the worker is handed the last unit, dies on it, and the pool is broken; that unit
    # fails, naming why, and this process runs every other unit (none was handed to the worker before it was ready)
    import acpgen.executors as executors_module

    monkeypatch.setattr(executors_module, "LOCAL_FIRST", 0.0)
    here = f"{socket.gethostname()}:{os.getpid()}"
    units = [(n, os.getpid()) for n in range(8)]
    outcomes = list(Executor(jobs=2).map(_dies_on_a_worker, units, [f"u{n}" for n in range(8)], progress=False))
    assert [o.value for o in outcomes[:7]] == list(range(7)) and all(o.worker == here for o in outcomes[:7])
    assert not outcomes[7].ok and outcomes[7].error.startswith("BrokenProcessPool"), outcomes[7].error


class _HeldPool:
    """A stand-in for a process pool: keeps what it is handed; the test finishes each handing when it likes."""

    def __init__(self) -> None:
        self.handed: list[tuple[list, Future]] = []

    def submit(self, fn, *args):
        future: Future = Future()
        self.handed.append((args[1], future))
        return future


def _unit_value(n: int) -> int:
    return n * 10


def test_a_worker_is_handed_runs_of_small_units_and_one_slow_unit_at_a_time(monkeypatch):
    # a unit handed to a worker waits milliseconds for the executor's threads: units that take less than
    # HANDED_SECONDS go to a worker in runs from the back, at most a share of the units left; without a pace
    # measured yet, or with slow units, one at a time
    import acpgen.executors as executors_module
    from acpgen.executors import _BothEnds, _run_units

    monkeypatch.setattr(executors_module, "HANDED_SECONDS", 0.05)
    units = list(range(100))
    names = [f"u{n}" for n in units]

    pool = _HeldPool()
    _BothEnds(pool, _unit_value, units, names, 0, 1)  # nothing measured yet: one unit
    assert [run for run, _ in pool.handed] == [[99]]

    pool = _HeldPool()
    both = _BothEnds(pool, _unit_value, units, names, 4, 1, spent=0.004)  # 1 ms a unit: a run of 50, capped
    assert [run for run, _ in pool.handed] == [list(range(99, 75, -1))]  # at a quarter of the 96 left (two ends)
    run, future = pool.handed[0]
    future.set_result(_run_units(_unit_value, run))  # the worker finished its run: the next one, from the back
    assert [run for run, _ in pool.handed[1:]] == [list(range(75, 57, -1))]  # a quarter of the 72 left
    received = [both._received() for _ in range(24)]
    assert [(i, o.value) for i, o in received] == [(i, i * 10) for i in range(99, 75, -1)]

    pool = _HeldPool()
    _BothEnds(pool, _unit_value, units, names, 4, 1, spent=2.0)  # half a second a unit: one at a time
    assert [run for run, _ in pool.handed] == [[99]]


def test_a_unit_that_raises_in_a_run_fails_alone():
    from acpgen.executors import UnitError, _run_units

    ran = _run_units(_square_unless_four, [5, 4, 5])
    assert [r.value for r in ran if not isinstance(r, UnitError)] == [25, 25]
    assert isinstance(ran[1], UnitError) and str(ran[1]).startswith("ValueError: four is refused")


def test_local_executor_gives_outcomes_in_unit_order_and_names_a_failing_unit():
    check_order_and_failure(Executor(jobs=2))
    check_order_and_failure(Executor(jobs=1))


def _slow_square(n: int) -> int:
    time.sleep(0.2)
    return n * n


def test_the_local_executor_starts_processes_only_for_units_left_after_its_first_seconds(monkeypatch):
    # units run here until they have taken LOCAL_FIRST seconds; then this process goes on from the front and a
    # worker process (jobs 2: one besides this one) takes units from the back; the outcomes are the same, in unit
    # order, wherever they ran
    import acpgen.executors as executors_module

    here = f"{socket.gethostname()}:{os.getpid()}"

    def workers(first: float) -> list[bool]:
        monkeypatch.setattr(executors_module, "LOCAL_FIRST", first)
        outcomes = list(Executor(jobs=2).map(_slow_square, list(range(5)), [f"u{n}" for n in range(5)], progress=False))
        assert [o.value for o in outcomes] == [0, 1, 4, 9, 16]
        return [o.worker == here for o in outcomes]

    assert workers(60.0) == [True] * 5  # the map's work within the bound: no process started
    for first in (0.0, 0.1):  # 0.2 s each: the first unit passes 0.1 s
        here_first = workers(first)
        done_here = here_first.count(True)
        assert 1 <= done_here <= 4 and here_first == [True] * done_here + [False] * (5 - done_here), here_first


def test_this_process_goes_on_alone_while_the_work_done_and_the_work_left_are_both_small():
    from acpgen.executors import LOCAL_FIRST, alone

    now = time.perf_counter()
    assert alone(now, 0, 50)  # nothing measured yet
    assert alone(now - LOCAL_FIRST / 10, 10, 5)  # ten quick units: five more take half as long again
    assert not alone(now - LOCAL_FIRST / 2, 1, 9)  # one slow unit: nine more would take 4.5 times the bound
    assert not alone(now - LOCAL_FIRST * 1.5, 100, 1)  # the bound spent already


def test_dask_executor_gives_outcomes_in_unit_order_and_names_a_failing_unit(cluster):
    with DaskExecutor(scheduler=cluster.scheduler_address, retries=0) as executor:
        check_order_and_failure(executor)


def test_dask_retries_a_unit_that_raised(cluster, tmp_path):
    with DaskExecutor(scheduler=cluster.scheduler_address, retries=1) as executor:
        (outcome,) = executor.map(_fail_first_time, [str(tmp_path / "marker")], ["flaky"], progress=False)
    assert outcome.ok and outcome.value == "second attempt"
    with DaskExecutor(scheduler=cluster.scheduler_address, retries=0) as executor:
        (outcome,) = executor.map(_fail_first_time, [str(tmp_path / "other")], ["flaky"], progress=False)
    assert outcome.error == f"RuntimeError: first attempt fails at test_executors.py:{_line_of_raise()}"


def _line_of_raise() -> int:
    source = Path(__file__).read_text().splitlines()
    return 1 + source.index('        raise RuntimeError("first attempt fails")')


def test_shards_cover_the_items_in_order():
    items = list(range(10))
    assert shards(items, 3) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert shard_size(10, workers=2) == 2  # 8 shards wanted, ceil(10 / 8)
    assert shard_size(3, workers=8) == 1


# --- generate and score: local and Dask give the same bytes


def generate_on(cluster, out: Path):
    """`acp generate --domain all` of the test config on the cluster."""
    return invoke(
        "generate",
        "--domain",
        "all",
        "--config",
        str(CONFIG),
        "--out",
        str(out),
        "--scheduler",
        cluster.scheduler_address,
    )


def test_generate_on_dask_gives_the_local_bytes(cluster, local_run, tmp_path):
    out = tmp_path / "dask"
    result = generate_on(cluster, out)
    assert "ferry: 1 problems" in result.output and "grippers: 1 problems" in result.output
    local = snapshot(local_run)
    assert any(name.endswith(".gen.jsonl") for name in local) and any(name.endswith(".bool.jsonl") for name in local)
    assert snapshot(out) == local


def _call_unit_killing_its_worker_once(pair: tuple):
    """ferry's first qa unit, the first time: its questions are made, then the worker process dies
    before it can hand them back."""
    fn, args = pair
    ctx = args[0]
    marker = Path(ctx.config.out).parent / "killed-ferry"
    value = _CALL_UNIT(pair)
    if fn is qa._generate and ctx.domain == "ferry" and not marker.exists():
        marker.write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
    return value


def test_a_worker_killed_mid_unit_is_survived_with_the_same_bytes(cluster, local_run, tmp_path, monkeypatch):
    monkeypatch.setattr(stage_base, "call_unit", _call_unit_killing_its_worker_once)
    out = tmp_path / "run"
    generate_on(cluster, out)
    killed = tmp_path / "killed-ferry"
    assert killed.exists(), "no ferry qa unit ran the killing path"
    assert int(killed.read_text()) != os.getpid()  # a worker process died, not the client
    assert snapshot(out) == snapshot(local_run)
    cluster.wait_for_workers(2, timeout=60)  # the nanny restarted the killed worker for the next tests


def test_score_recheck_on_dask_gives_the_local_bytes(cluster, local_run, tmp_path):
    predictions = tmp_path / "predictions.jsonl"
    invoke("reference-answers", str(local_run), "-o", str(predictions))
    lines = predictions.read_text().splitlines()
    # wrong answers too: every second one answers "None" (a parse or a wrong answer, depending on the task)
    mixed = [
        line if i % 2 else line.replace('"response": ', '"response": "None", "was": ') for i, line in enumerate(lines)
    ]
    predictions.write_text("\n".join(mixed) + "\n")
    common = ["score", str(predictions), "--dataset", str(local_run), "--recheck", "--cache-dir"]
    invoke(*common, str(tmp_path / "cache-local"), "-o", str(tmp_path / "local.jsonl"))
    invoke(
        *common,
        str(tmp_path / "cache-dask"),
        "-o",
        str(tmp_path / "dask.jsonl"),
        "--scheduler",
        cluster.scheduler_address,
    )
    local = (tmp_path / "local.jsonl").read_bytes()
    assert local.count(b'"score": 1.0') and local.count(b'"score": 0.0')
    assert (tmp_path / "dask.jsonl").read_bytes() == local


# --- configuration


def test_executor_section_of_the_config(tmp_path):
    config = tmp_path / "pipeline.yaml"
    config.write_text(CONFIG.read_text() + "executor: {kind: dask, scheduler: 'tcp://head:8786', retries: 2}\n")
    assert load_config(config).executor == ExecutorConfig(kind="dask", scheduler="tcp://head:8786", retries=2)
    for bad, named in [
        ("{kind: spark}", "executor.kind"),
        ("{kind: dask, cluster: {kind: condor}}", "executor.cluster.kind"),
        ("{kind: dask, cluster: {kind: slurm, jobs: 0}}", "executor.cluster.jobs"),
        ("{kind: dask, scheduler: 'tcp://a:1', cluster: {kind: slurm}}", "not both"),
        ("{kind: dask, workers: 2, queue: long}", "unknown key(s) queue"),
    ]:
        config.write_text(CONFIG.read_text() + f"executor: {bad}\n")
        with pytest.raises(ConfigError, match=named.replace("(", r"\(").replace(")", r"\)")):
            load_config(config)


def test_scheduler_goes_with_the_dask_executor():
    with pytest.raises(ConfigError, match="--scheduler goes with --executor dask"):
        make_executor("local", scheduler="tcp://head:8786")


def test_a_domain_that_cannot_run_is_reported_and_the_other_domains_finish(tmp_path):
    config = load_config(CONFIG).with_overrides(out=str(tmp_path / "out"))
    reports = []
    done = list(
        pipeline.run_domains(
            config,
            ["ferry", "nosuch", "grippers"],
            config.planner.setup(config.out),
            stages=["problems"],
            jobs=2,
            progress=False,
            report=reports.append,
        )
    )
    assert [domain for domain, _ in done] == ["ferry", "grippers"]
    assert [counts["problems"] for _, counts in done] == [1, 1]
    (failure,) = [r for r in reports if r.failed]
    assert (failure.stage, failure.domain) == ("run", "nosuch")
    assert failure.failed[0].startswith("cannot run: ConfigError: unknown domain 'nosuch'")
    assert pipeline.fell_short(reports) == "nosuch run (1 failed)"


def test_a_failing_unit_is_reported_by_name_and_the_other_units_finish(tmp_path):
    """A unit that raises (here: ferry's plan file names an action the problem does not have, so its
    states unit fails) is one
    failure with the unit's name and reason; the other domain's units and later stages go on, and
    the failed unit's stale file does not stay."""
    config = load_config(CONFIG).with_overrides(out=str(tmp_path / "out"))
    setup = config.planner.setup(config.out)
    run = dict(stages=["problems", "plans", "states"], jobs=2, progress=False)
    list(pipeline.run_domains(config, ["ferry", "grippers"], setup, **run))
    ferry = tmp_path / "out" / "ferry"
    (ferry / "plans" / "p001.json").write_text('{"plans": [{"actions": ["(fly ferry moon)"], "cost": 1}]}')
    reports: list = []
    run["stages"] = ["states"]  # the plans stage would remake the changed file
    done = dict(
        pipeline.run_domains(
            config, ["ferry", "grippers"], setup, **run, report=reports.append, force=frozenset({"states"})
        )
    )
    failed = {(r.domain, r.stage): r.failed for r in reports if r.failed}
    (failure,) = failed[("ferry", "states")]
    assert failure.startswith("p001: PddlError: ") and "names no action of the problem ((fly ferry moon))" in failure
    assert list(failed) == [("ferry", "states")]
    assert not (ferry / "states" / "p001.jsonl").exists() and (ferry / "states.jsonl").read_text() == ""
    # ferry's problems a plan solves have no states (the unit failed); those of its problems no plan solves do
    assert done["ferry"]["states"] == done["ferry"]["unsolvable_states"] and done["grippers"]["states"] > 0


# --- docs/cluster.md: the Slurm example is a valid executor section and gives a batch script

CLUSTER_DOC = Path(__file__).parents[1] / "docs" / "cluster.md"


def documented_executor_section() -> str:
    blocks = CLUSTER_DOC.read_text().split("```yaml\n")[1:]
    (section,) = [block.split("```")[0] for block in blocks if block.startswith("executor:")]
    return section


def test_the_documented_slurm_section_gives_a_slurm_job_script(tmp_path):
    dask_jobqueue = pytest.importorskip("dask_jobqueue")
    config_file = tmp_path / "pipeline.yaml"
    config_file.write_text(CONFIG.read_text() + documented_executor_section())
    executor = load_config(config_file).executor
    assert (executor.kind, executor.retries, executor.cluster["kind"], executor.cluster["jobs"]) == (
        "dask",
        1,
        "slurm",
        8,
    )
    class_name, jobs, spec = cluster_spec(executor.cluster)
    assert (class_name, jobs) == ("SLURMCluster", 8)
    spec["log_directory"] = str(tmp_path / "logs")  # the cluster makes this folder; not /shared/... here
    cluster = dask_jobqueue.SLURMCluster(**spec)
    try:
        script = cluster.job_script()
    finally:
        cluster.close()
    directives = [line for line in script.splitlines() if line.startswith("#SBATCH")]
    for wanted in ("-p compute", "-A my-project", "--cpus-per-task=16", "-t 04:00:00"):
        assert any(line.endswith(wanted) for line in directives), (wanted, directives)
    assert any(line.startswith("#SBATCH --mem=") for line in directives)  # 64GB, in dask-jobqueue's own unit
    assert "module load apptainer" in script and "export OMP_NUM_THREADS=1" in script
    assert "/shared/USER/acp/.venv/bin/python -m distributed.cli.dask_worker" in script
    assert "--nworkers 16" in script and "--nthreads 1" in script


def test_the_documented_worker_image_section_starts_workers_inside_the_image(tmp_path):
    """docs/cluster.md, way 2: workers started by the job script run Python from the acp-worker image."""
    dask_jobqueue = pytest.importorskip("dask_jobqueue")
    blocks = [textwrap.dedent(b.split("```")[0]) for b in CLUSTER_DOC.read_text().split("```yaml\n")[1:]]
    (section,) = [b for b in blocks if "acp-worker.sif" in b]
    config_file = tmp_path / "pipeline.yaml"
    config_file.write_text(CONFIG.read_text() + section)
    class_name, jobs, spec = cluster_spec(load_config(config_file).executor.cluster)
    assert (class_name, jobs) == ("SLURMCluster", 8)
    spec["log_directory"] = str(tmp_path / "logs")
    cluster = dask_jobqueue.SLURMCluster(**spec)
    try:
        script = cluster.job_script()
    finally:
        cluster.close()
    assert "apptainer exec --bind /shared /shared/USER/acp-worker.sif python -m distributed.cli.dask_worker" in script
    assert (Path(__file__).parents[1] / "containers" / "acp-worker.def").exists()
