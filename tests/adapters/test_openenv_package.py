"""acp's OpenEnv environment as a package (environments/acp_env, the layout `openenv init` writes) against the
installed OpenEnv (openenv-core 0.3) and its CLI: `openenv validate` passes on the folder; the packaged server
(`python -m server.app`, what `uv run server` and the Dockerfile run) passes `openenv validate --url` and plays
an episode through acp's client and OpenEnv's own generic client; sessions end with no traceback in the server's
log, whether the client closes or drops the connection (while OpenEnv's plain app logs one per dropped session,
every time: the control), and acp's client closes cleanly even against OpenEnv's plain app; `openenv push`'s
staging of the folder is self-contained (acp's sources copied, not linked); the lock matches acp's dependencies.
Servers run as subprocesses on 127.0.0.1."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
from openenv.core.generic_client import GenericEnvClient
from packaging.requirements import Requirement
from servers import free_port, serve
from websockets.sync.client import connect

from acpgen.adapters.openenv import AcpAction, AcpEnvClient
from acpgen.training.episode import Episode
from acpgen.training.policies import optimal_turns

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "environments" / "acp_env"
OPENENV = Path(sys.executable).parent / "openenv"
needs_cli = pytest.mark.skipif(not OPENENV.exists(), reason="the openenv CLI (openenv-core) is not installed")

#: OpenEnv's own app over acp's environment, without acp's make_app: the control of the clean-close test
PLAIN_APP = """
import json, sys, uvicorn
from openenv.core.env_server.http_server import create_app
from acpgen.adapters.openenv import AcpAction, AcpEnvironment, AcpObservation
records = [json.loads(line) for line in open(sys.argv[1])]
app = create_app(lambda: AcpEnvironment(records), AcpAction, AcpObservation, env_name="acp")
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[3]))
"""


def openenv(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([str(OPENENV), *args], capture_output=True, text=True, timeout=120, check=False, cwd=cwd)


@pytest.fixture(scope="module")
def plan_file(rl_records, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("acp-env") / "plan.gen.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rl_records["plan"]))
    return path


@pytest.fixture(scope="module")
def packaged(plan_file, tmp_path_factory):
    """The packaged server, as `uv run server` runs it (`python -m server.app` in the package folder)."""
    port = free_port()
    command = [sys.executable, "-m", "server.app", "--host", "127.0.0.1", "--port", str(port)]
    environ = os.environ | {"ACP_RECORDS": str(plan_file)}
    log = tmp_path_factory.mktemp("acp-env-log") / "server.log"
    with serve(command, port, "/health", log, cwd=PACKAGE, env=environ) as served:
        yield served


@needs_cli
def test_openenv_validate_passes_on_the_package():
    done = openenv("validate", str(PACKAGE), "--json", "--verbose")
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["passed"], done.stdout + done.stderr
    assert report["issues"] == [] and report["environment"] == "acp"
    assert all(report["deployment_modes"].values()), report["deployment_modes"]  # docker, serve, uv run, module


@needs_cli
def test_the_packaged_server_passes_runtime_validation(packaged):
    done = openenv("validate", "--url", packaged.url)
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["passed"] and report["mode"] == "simulation", done.stdout
    assert {c["id"] for c in report["criteria"] if c["passed"]} >= {"health_endpoint", "schema_endpoint"}


def test_the_packaged_server_plays_episodes_and_closes_cleanly(packaged, rl_records):
    record = rl_records["plan"][0]
    with AcpEnvClient(base_url=packaged.url).sync() as env:
        first = env.reset(index=0)
        first_id = env.state().episode_id
        for turn in optimal_turns(Episode(record)):
            result = env.step(AcpAction(text=turn))
        assert result.done and result.reward == 1.0 and first.observation.text == Episode(record).prompt
        env.reset(index=0)
        assert env.state().episode_id not in (None, first_id)  # each reset a fresh episode id
        env.reset(index=0, episode_id="run-7/episode-3")
        assert env.state().episode_id == "run-7/episode-3"
    with GenericEnvClient(base_url=packaged.url).sync() as generic:  # OpenEnv's own client closes abruptly
        assert generic.reset(index=1).observation["text"] == Episode(rl_records["plan"][1]).prompt
    time.sleep(0.5)  # the server's side of the closing
    log = packaged.log()
    assert log.count("connection open") >= 2, log
    assert "Traceback" not in log and "WebSocketDisconnect" not in log and "ERROR" not in log, log


def drop_sessions(url: str, count: int) -> None:
    """``count`` sessions that reset an episode, then drop the connection (a TCP reset, no closing handshake): a
    client killed or cut off."""
    ws_url = url.replace("http://", "ws://") + "/ws"
    for _ in range(count):
        with contextlib.suppress(Exception), connect(ws_url, open_timeout=30) as ws:
            ws.send(json.dumps({"type": "reset", "data": {"index": 0}}))
            ws.recv(timeout=30)
            ws.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            ws.socket.close()


def test_sessions_end_without_a_traceback_where_openenvs_plain_app_logs_one(plan_file, packaged, tmp_path):
    """OpenEnv 0.3's own app logs a WebSocketDisconnect traceback for every session whose client has gone when it
    closes the socket (the control, here clients that drop the connection); acp's app (the packaged server) logs
    none for the same clients, and acp's client, which waits for the server's close, leaves none even in OpenEnv's
    plain app."""
    port = free_port()
    command = [sys.executable, "-c", PLAIN_APP, str(plan_file), "--port", str(port)]
    with serve(command, port, "/health", tmp_path / "plain.log", cwd=tmp_path) as plain:
        for _ in range(3):
            with AcpEnvClient(base_url=plain.url).sync() as env:
                env.reset(index=0)
        time.sleep(0.5)
        assert plain.log().count("connection open") == 3 and "Traceback" not in plain.log(), plain.log()
        drop_sessions(plain.url, 3)
        deadline = time.monotonic() + 20
        while plain.log().count("starlette.websockets.WebSocketDisconnect") < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert plain.log().count("starlette.websockets.WebSocketDisconnect") == 3, plain.log()
    opened = packaged.log().count("connection open")
    drop_sessions(packaged.url, 3)
    deadline = time.monotonic() + 20
    while packaged.log().count("connection open") < opened + 3 and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(0.5)
    assert packaged.log().count("connection open") == opened + 3
    assert "Traceback" not in packaged.log() and "WebSocketDisconnect" not in packaged.log(), packaged.log()


def test_push_staging_is_self_contained(tmp_path):
    """What `openenv push` uploads (its own staging step): acp's sources copied as files, the Dockerfile at the
    root, the Space's front matter."""
    from openenv.cli.commands.push import DEFAULT_PUSH_IGNORE_PATTERNS, _prepare_staging_directory

    staging = tmp_path / "staging"
    _prepare_staging_directory(PACKAGE, "acp_env", staging, list(DEFAULT_PUSH_IGNORE_PATTERNS))
    adapter = staging / "acpgen_src" / "acpgen" / "adapters" / "openenv.py"
    assert adapter.is_file() and not adapter.is_symlink()
    assert adapter.read_text() == (ROOT / "acpgen" / "adapters" / "openenv.py").read_text()
    assert (staging / "acpgen_src" / "acpgen" / "data" / "pipeline.yaml").is_file()
    assert (staging / "acpgen_src" / "environments" / "acp_tasks" / "acp_tasks" / "taskset.py").is_file()
    assert not any(p.is_symlink() for p in staging.rglob("*"))
    assert not list(staging.rglob("__pycache__"))
    assert (staging / "Dockerfile").is_file() and (staging / "uv.lock").is_file()
    assert "sdk: docker" in (staging / "README.md").read_text()


def _requirements(texts: list[str]) -> set[tuple[str, str, str]]:
    out = set()
    for text in texts:
        req = Requirement(text)
        out.add((req.name.lower().replace("_", "-"), str(req.specifier), str(req.marker or "")))
    return out


def test_the_lock_matches_acps_dependencies():
    """uv.lock records acpgen's requirements when it was made: it must be re-made (`uv lock` in the package)
    when pyproject.toml's dependencies change, or the image would install stale ones."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lock = tomllib.loads((PACKAGE / "uv.lock").read_text())
    acpgen = next(p for p in lock["package"] if p["name"] == "acpgen")
    locked = set()
    for item in acpgen["metadata"]["requires-dist"]:
        marker = item.get("marker", "").replace("'", '"')
        extras = f"[{','.join(item['extras'])}]" if item.get("extras") else ""
        text = f"{item['name']}{extras}{item.get('specifier', '')}" + (f"; {marker}" if marker else "")
        locked |= _requirements([text])
    declared = _requirements(project["dependencies"])
    for extra, requirements in project["optional-dependencies"].items():
        declared |= _requirements([f"{r}; extra == '{extra}'" for r in requirements])
    assert locked == declared, "environments/acp_env/uv.lock is stale: run `uv lock` in environments/acp_env"


def test_the_package_reuses_the_adapter():
    """models.py, client.py and the server re-export acpgen.adapters.openenv (no copy of its code)."""
    sources = [PACKAGE / "models.py", PACKAGE / "client.py", PACKAGE / "server" / "acp_env_environment.py"]
    for path in sources + [PACKAGE / "server" / "app.py"]:
        assert "from acpgen.adapters.openenv import" in path.read_text()
        assert "class " not in path.read_text()
