"""`make bench-sessions`: many OpenEnv sessions at once against acp's episode service.

Starts the documented server as a subprocess on 127.0.0.1 (``python -m acpgen.adapters.openenv --records
PATH --port P``, with ``--max-sessions`` when given; ``--packaged``: the packaged server of
``environments/acp_env``, ``python -m server.app`` with ``ACP_RECORDS`` and ``ACP_MAX_CONCURRENT_ENVS``), then
opens ``--sessions`` sessions concurrently through acp's own client (``AcpEnvClient``, asyncio, one process).
Each session connects, resets the episode of record ``i`` (``reset(index=i)``), waits until every session has
reset or failed (so that all of them are open at once), then plays the record's stored plan one action per
step, checks its own state (the trajectory is its record's plan) and the final reward (1), and closes.

Printed: sessions completed and failed, the failures grouped by the exception's type and text, the 50th and
99th percentile and the maximum step latency (the client's round trip: sending a step until its observation is
read), the total time, the server's memory before the sessions and with all of them open (per session), its
CPU time per step, and the warnings and errors its log holds. The records are ferry plan records made by
``acp generate --level L`` (cached in ``--cache``) unless ``--records`` names a file; the machine's load
average is printed with the figures, since the client and the server share the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from common import percentile

from acpgen.adapters.openenv import AcpAction, AcpEnvClient

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "environments" / "acp_env"


def plan_records(level: int, cache: Path) -> Path:
    """ferry plan records at ``level``, made once by ``acp generate`` into ``cache``."""
    out = cache / f"ferry-level-{level}"
    path = out / "ferry" / "plan.gen.jsonl"
    if not path.exists():
        acp = Path(sys.executable).parent / "acp"
        command = [str(acp), "generate", "--domain", "ferry", "--level", str(level), "--tasks", "plan"]
        subprocess.run([*command, "--formats", "gen", "--out", str(out)], check=True, capture_output=True)
    return path


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(args: argparse.Namespace, records: Path, port: int, log: Path) -> subprocess.Popen:
    environ = dict(os.environ)
    if args.packaged:
        command = [sys.executable, "-m", "server.app", "--port", str(port)]
        environ["ACP_RECORDS"] = str(records.resolve())
        if args.max_sessions is not None:
            environ["ACP_MAX_CONCURRENT_ENVS"] = str(args.max_sessions)
        cwd: Path | None = PACKAGE
    else:
        command = [sys.executable, "-m", "acpgen.adapters.openenv", "--records", str(records), "--port", str(port)]
        if args.max_sessions is not None:
            command += ["--max-sessions", str(args.max_sessions)]
        cwd = None
    with log.open("w") as handle:
        process = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT, cwd=cwd, env=environ)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"the server exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
                if response.status == 200:
                    return process
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    process.kill()
    sys.exit("the server did not answer /health in 120 s")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Load:
    """The sessions' shared measures: step latencies, completions, failures, and the moment all have reset."""

    def __init__(self, sessions: int):
        self.sessions = sessions
        self.latencies: list[float] = []
        self.completed = 0
        self.failures: list[str] = []
        self.ready = 0
        self.all_ready = asyncio.Event()

    def arrived(self) -> None:
        self.ready += 1
        if self.ready == self.sessions:
            self.all_ready.set()


async def play(url: str, index: int, record: dict[str, Any], load: Load) -> None:
    client = AcpEnvClient(base_url=url)
    arrived = False
    try:
        await client.connect()
        await client.reset(index=index)
        load.arrived()
        arrived = True
        await load.all_ready.wait()
        result = None
        for action in record["answer"]:
            start = time.perf_counter()
            result = await client.step(AcpAction(text=action))
            load.latencies.append((time.perf_counter() - start) * 1000)
        state = await client.state()
        if result is None or not result.done or result.reward != 1.0:
            raise AssertionError(
                f"the plan ended with reward {result and result.reward}, done {result and result.done}"
            )
        if state.trajectory != [a.lower() for a in record["answer"]]:
            raise AssertionError(f"session {index} holds another episode: {state.trajectory}")
        load.completed += 1
    except Exception as err:  # every failure is counted with its reason
        load.failures.append(f"{type(err).__name__}: {err}")
    finally:
        if not arrived:
            load.arrived()
        await client.close()


async def sample_rss(pid: int, peak: list[float], load: Load) -> None:
    await load.all_ready.wait()  # every session open (or failed): the server holds them all
    peak.append(rss_mb(pid))


async def measured(url: str, records: list[dict[str, Any]], sessions: int, pid: int) -> tuple[Load, float, float]:
    peak: list[float] = []
    load = Load(sessions)
    sampler = asyncio.ensure_future(sample_rss(pid, peak, load))
    start = time.perf_counter()
    await asyncio.gather(*(play(url, i, records[i % len(records)], load) for i in range(sessions)))
    elapsed = time.perf_counter() - start
    await sampler
    return load, elapsed, peak[0] if peak else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=128, help="sessions at once (default 128)")
    parser.add_argument("--records", type=Path, help="a records file of plan records (default: ferry at --level)")
    parser.add_argument("--level", type=int, default=3, help="the level of the generated records (default 3)")
    parser.add_argument("--port", type=int, default=0, help="the server's port (default: a free one)")
    parser.add_argument("--max-sessions", type=int, help="the server's limit (default: the server's default)")
    parser.add_argument(
        "--packaged", action="store_true", help="serve with environments/acp_env (python -m server.app)"
    )
    parser.add_argument(
        "--cache", type=Path, default=ROOT / "out" / "bench-sessions", help="records and the server log"
    )
    parser.add_argument("--examples", type=int, default=8, help="failure groups printed (default 8)")
    args = parser.parse_args()

    args.cache.mkdir(parents=True, exist_ok=True)
    records_path = args.records or plan_records(args.level, args.cache)
    records = [json.loads(line) for line in records_path.read_text().splitlines() if line.strip()]
    port = args.port or free_port()
    log = args.cache / "server.log"
    server = start_server(args, records_path, port, log)
    try:
        url = f"http://127.0.0.1:{port}"
        base = rss_mb(server.pid)
        cpu_before = cpu_s(server.pid)
        gc.collect()
        gc.freeze()  # the client's own full collections (150 ms over what it has loaded) are not the server's latency
        load, elapsed, peak = asyncio.run(measured(url, records, args.sessions, server.pid))
        cpu = cpu_s(server.pid) - cpu_before
        time.sleep(0.5)  # the server's log of the last closes
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)

    served = "environments/acp_env (python -m server.app)" if args.packaged else "python -m acpgen.adapters.openenv"
    limit = "its default" if args.max_sessions is None else str(args.max_sessions)
    steps = len(load.latencies)
    print(f"server: {served}, limit {limit}; {len(records)} records of {records_path}; {os.cpu_count()} CPUs")
    print(f"sessions: {args.sessions}; completed {load.completed}, failed {len(load.failures)}")
    for reason, count in collections.Counter(load.failures).most_common(args.examples):
        print(f"  {count:5d} x {reason[:300]}")
    if steps:
        latencies = load.latencies
        print(
            f"steps: {steps}; latency ms p50 {percentile(latencies, 0.5):.1f}, p99 {percentile(latencies, 0.99):.1f},"
            f" max {max(latencies):.1f}"
        )
        print(f"server CPU per step (resets and closes included): {cpu / steps * 1000:.2f} ms")
    print(f"total: {elapsed:.2f} s")
    per_session = (peak - base) / max(1, args.sessions - len(load.failures))
    print(f"server RSS: {base:.0f} MB before, {peak:.0f} MB with all sessions open ({per_session * 1024:.0f} KB each)")
    lines = log.read_text(errors="replace").splitlines()
    logged = [
        re.sub(r"\d+\.\d+\.\d+\.\d+:\d+", "<client>", line) for line in lines if "WARNING" in line or "ERROR" in line
    ]
    print(f"server log: {len(logged)} warning/error lines ({log})")
    for line, count in collections.Counter(logged).most_common(3):
        print(f"  {count:5d} x {line[:300]}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
