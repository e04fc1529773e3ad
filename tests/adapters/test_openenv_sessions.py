"""Many sessions at once on acp's OpenEnv service (acpgen.adapters.openenv.make_app, uvicorn on 127.0.0.1, the
installed openenv-core 0.3), played through acp's asynchronous client. Expected: sessions stepping at once, their
steps interleaved, each keep their own episode and reach reward 1; a server holding its limit of sessions turns the
next client away with an error naming the limit and the settings that raise it (acp's client raises ServerFull,
OpenEnv's generic client an error with the same words, the close frame has code 1013 and that reason) and logs a
warning, and takes a session again once one closes; every close carries a reason; a slow step holds up no other
session; `--max-sessions` and ACP_MAX_CONCURRENT_ENVS set the limit, whose default is 64 per CPU. The load of 128
sessions and more is `make bench-sessions` (docs/benchmarks.md); the slow test plays 128 against the documented
server."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
import websockets
from openenv.core.generic_client import GenericEnvClient
from servers import free_port, serve
from websockets.exceptions import ConnectionClosed

import acpgen.adapters.openenv as openenv_adapter
from acpgen.adapters.openenv import (
    AcpAction,
    AcpEnvClient,
    AcpEnvironment,
    LocalServer,
    ServerFull,
    default_max_sessions,
    make_app,
    make_app_from_environ,
)


async def open_session(url: str, **reset: Any) -> AcpEnvClient:
    client = AcpEnvClient(base_url=url)
    await client.connect()
    await client.reset(**reset)
    return client


async def play_at_once(url: str, records: list[dict], sessions: int) -> tuple[list, list]:
    """``sessions`` sessions of ``records`` in turn, all open; step k of every session is sent at once, after
    all steps k-1 have been answered (the steps of different sessions interleave). The last results, the states."""
    clients = await asyncio.gather(*(open_session(url, index=i) for i in range(sessions)))
    plans = [records[i % len(records)]["answer"] for i in range(sessions)]
    last: list[Any] = [None] * sessions
    for step in range(max(map(len, plans))):
        due = [i for i in range(sessions) if step < len(plans[i])]
        results = await asyncio.gather(*(clients[i].step(AcpAction(text=plans[i][step])) for i in due))
        for i, result in zip(due, results):
            last[i] = result
    states = await asyncio.gather(*(client.state() for client in clients))
    await asyncio.gather(*(client.close() for client in clients))
    return last, states


def test_many_sessions_at_once_keep_their_own_episodes(rl_records):
    records, sessions = rl_records["plan"], 48
    with LocalServer(make_app(records, max_concurrent_envs=sessions)) as url:
        last, states = asyncio.run(play_at_once(url, records, sessions))
    for index, (result, state) in enumerate(zip(last, states)):
        record = records[index % len(records)]
        assert result.done and result.reward == 1.0 and result.observation.goal_reached, index
        assert state.trajectory == [a.lower() for a in record["answer"]] and state.invalid_steps == 0, index
        assert state.record_id == str(record["id"]) and state.step_count == len(record["answer"]), index
    assert len({state.episode_id for state in states}) == sessions


class Caught(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname} {record.getMessage()}")


@contextlib.contextmanager
def server_log() -> Iterator[list[str]]:
    """What the server logs at WARNING and above (uvicorn's log, where acp's service writes); entered after
    the server's uvicorn configuration, which replaces that logger's handlers."""
    caught = Caught()
    logger = logging.getLogger("uvicorn.error")
    logger.addHandler(caught)
    try:
        yield caught.lines
    finally:
        logger.removeHandler(caught)


async def turned_away(url: str) -> tuple[ServerFull, str, ConnectionClosed]:
    """A session past the limit, as acp's client, OpenEnv's generic client and a bare WebSocket see it."""
    with pytest.raises(ServerFull) as refused:
        await open_session(url, index=0)
    generic = GenericEnvClient(base_url=url)
    await generic.connect()
    with pytest.raises(Exception) as plain:  # an error answer, or the close frame's reason: either says why
        await generic.reset(index=0)
    await generic.close()
    async with websockets.connect(url.replace("http://", "ws://") + "/ws") as ws:
        error = json.loads(await ws.recv())
        assert error["type"] == "error" and error["data"]["code"] == "CAPACITY_REACHED"
        with pytest.raises(ConnectionClosed) as closed:
            await ws.recv()
    return refused.value, str(plain.value), closed.value


def test_a_full_server_turns_a_client_away_and_says_why(rl_records):
    async def main(url: str) -> None:
        held = [await open_session(url, index=i) for i in range(4)]
        refused, plain, closed = await turned_away(url)
        for words in (str(refused), plain, closed.rcvd.reason):
            assert "4 of 4 sessions" in words and "--max-sessions" in words and "ACP_MAX_CONCURRENT_ENVS" in words
        assert "full" in str(refused) and refused.code == 1013
        assert closed.rcvd.code == 1013  # try again later
        for client in held[1:]:  # the sessions held are not disturbed
            assert (await client.step(AcpAction(text="(teleport)"))).observation.failure
        await held[0].close()  # a session closes: room for one more
        again = await open_session(url, index=1)
        assert (await again.state()).step_count == 0
        await asyncio.gather(again.close(), *(client.close() for client in held[1:]))

    server = LocalServer(make_app(rl_records["plan"], max_concurrent_envs=4))
    with server_log() as logged, server as url:
        asyncio.run(main(url))
    turned = [line for line in logged if "turned away" in line]
    assert len(turned) == 3 and all(line.startswith("WARNING") and "4 of 4 sessions open" in line for line in turned)
    assert "--max-sessions" in turned[0] and not [line for line in logged if "turned away" not in line]


def test_every_close_says_why(rl_records, monkeypatch):
    """The client's close is answered with code 1000 and "closed at the client's request"; a session that cannot
    start (here the environment fails to build) with 1011 and the error, which acp's client raises and the
    server logs."""

    async def closes(url: str) -> tuple[ConnectionClosed, ConnectionClosed]:
        async with websockets.connect(url.replace("http://", "ws://") + "/ws") as ws:
            await ws.send(json.dumps({"type": "reset", "data": {"index": 0}}))
            assert json.loads(await ws.recv())["type"] == "observation"
            await ws.send(json.dumps({"type": "close"}))
            with pytest.raises(ConnectionClosed) as asked:
                await ws.recv()
        monkeypatch.setattr(openenv_adapter, "AcpEnvironment", None)  # the factory fails
        async with websockets.connect(url.replace("http://", "ws://") + "/ws") as ws:
            assert json.loads(await ws.recv())["data"]["code"] == "FACTORY_ERROR"
            with pytest.raises(ConnectionClosed) as failed:
                await ws.recv()
        with pytest.raises(RuntimeError, match="acp_environment' failed to create instance"):
            await open_session(url, index=0)
        return asked.value, failed.value

    server = LocalServer(make_app(rl_records["plan"]))
    with server_log() as logged, server as url:
        asked, failed = asyncio.run(closes(url))
    assert (asked.rcvd.code, asked.rcvd.reason) == (1000, "session closed at the client's request")
    assert failed.rcvd.code == 1011 and failed.rcvd.reason.startswith("session failed: Environment factory")
    assert len(logged) == 2 and all(line.startswith("ERROR acp: session from") for line in logged)


def test_a_slow_step_holds_up_no_other_session(rl_records, monkeypatch):
    """OpenEnv runs each session's steps on a thread of its own: while one session's step computes for 1.5 s
    (pure Python, holding the interpreter between thread switches), another session plays its whole plan. (Were
    the step run in the server's event loop, the other session's first step would wait for it.)"""
    plain_step = AcpEnvironment.step

    def step(self: AcpEnvironment, action: AcpAction, **kwargs: Any):
        if action.text == "(ponder)":
            end = time.perf_counter() + 1.5
            while time.perf_counter() < end:
                sum(range(1000))
        return plain_step(self, action, **kwargs)

    monkeypatch.setattr(AcpEnvironment, "step", step)
    record = rl_records["plan"][1]

    async def main(url: str) -> tuple[float, bool, Any]:
        slow, fast = await open_session(url, index=0), await open_session(url, index=1)

        async def timed_slow_step() -> float:
            start = time.perf_counter()
            await slow.step(AcpAction(text="(ponder)"))
            return time.perf_counter() - start

        pondering = asyncio.ensure_future(timed_slow_step())
        await asyncio.sleep(0.1)
        result = None
        for action in record["answer"]:
            result = await fast.step(AcpAction(text=action))
        still_pondering = not pondering.done()
        slow_time = await pondering
        await asyncio.gather(slow.close(), fast.close())
        return slow_time, still_pondering, result

    with LocalServer(make_app(rl_records["plan"])) as url:
        slow_time, still_pondering, result = asyncio.run(main(url))
    assert result.done and result.reward == 1.0 and slow_time >= 1.5
    assert still_pondering  # the whole plan played while the slow step computed


def test_the_cli_option_and_the_environment_variable_set_the_limit(rl_split, monkeypatch):
    limits, served = [], []
    real_create_app = openenv_adapter.create_app

    def create_app(*args: Any, **kwargs: Any) -> Any:
        limits.append(kwargs["max_concurrent_envs"])
        return real_create_app(*args, **kwargs)

    monkeypatch.setattr(openenv_adapter, "create_app", create_app)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: served.append(app))
    records = str(rl_split / "plan.gen.jsonl")
    openenv_adapter.main(["--records", records, "--max-sessions", "4"])
    openenv_adapter.main(["--records", records])
    make_app_from_environ({"ACP_RECORDS": records, "ACP_MAX_CONCURRENT_ENVS": "4"})
    make_app_from_environ({"ACP_RECORDS": records})
    assert limits == [4, default_max_sessions(), 4, default_max_sessions()]
    assert default_max_sessions() >= 64 and default_max_sessions() % 64 == 0
    with pytest.raises(SystemExit):
        openenv_adapter.main(["--records", records, "--max-sessions", "0"])

    async def fifth(url: str) -> str:
        held = [await open_session(url, index=i) for i in range(4)]
        with pytest.raises(ServerFull) as refused:
            await open_session(url, index=0)
        await asyncio.gather(*(client.close() for client in held))
        return str(refused.value)

    with LocalServer(served[0]) as url:  # the app `--max-sessions 4` serves
        assert "4 of 4 sessions are open" in asyncio.run(fifth(url))


@pytest.mark.slow
def test_128_sessions_at_once_on_the_documented_server(rl_split, tmp_path):
    """`python -m acpgen.adapters.openenv --records ...` with its default limit (128 on 2 CPUs, more on more)."""
    records = [json.loads(line) for line in (rl_split / "plan.gen.jsonl").read_text().splitlines()]
    port = free_port()
    command = [sys.executable, "-m", "acpgen.adapters.openenv", "--records", str(rl_split / "plan.gen.jsonl")]
    with serve([*command, "--port", str(port)], port, "/health", tmp_path / "server.log") as served:
        last, states = asyncio.run(play_at_once(served.url, records, 128))
        assert "WARNING" not in served.log() and "ERROR" not in served.log()
    assert all(result.done and result.reward == 1.0 for result in last)
    assert all(s.trajectory == [a.lower() for a in records[i % 3]["answer"]] for i, s in enumerate(states))
