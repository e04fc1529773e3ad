"""Multi-step acp episodes as an OpenEnv environment, served locally (the extra ``rl``; the ``openenv``
package of OpenEnv, as distributed by ``openenv-core`` 0.3).

A thin layer over :class:`acpgen.training.episode.Episode`: :class:`AcpEnvironment` is an OpenEnv
``Environment`` over pydantic :class:`AcpAction` (``text``: the next action, or several, one per line),
:class:`AcpObservation` (the feedback ``text``, the actions ``applied``, the ``failure``, ``goal_reached``,
``steps_left``; ``reward`` and ``done``) and :class:`AcpState` (the episode's measures). ``reset`` starts
an episode from a ``record`` given in the call, or from the server's records: by ``index``, drawn with
``seed``, or the next one in turn. :func:`make_app` serves it with OpenEnv's ``create_app`` (HTTP and
the WebSocket sessions that keep an episode's state between steps); :class:`AcpEnvClient` is its client::

    python -m acpgen.adapters.openenv --records out/ferry/plan.gen.jsonl --port 8000
    with AcpEnvClient(base_url="http://127.0.0.1:8000").sync() as env:
        result = env.reset(index=0)
        result = env.step(AcpAction(text="(sail l1 l0)"))

Locally the server is a uvicorn process (or thread); ``environments/acp_env`` packages the same app in
the layout ``openenv init`` writes (``openenv.yaml``, ``server/app.py``, a Dockerfile, ``uv.lock``), for
``openenv validate``, ``openenv build`` and ``openenv push``, with its records chosen by environment
variables (:func:`make_app_from_environ`).

Each ``reset`` starts a new episode with the ``episode_id`` the client passes, or a fresh one (a UUID,
as OpenEnv's own environments do). The client closes its session cleanly: it asks the server to close
and waits (boundedly) for the server's close before closing itself, and the server treats a client
that has already gone as a finished session, not an error.

The server holds at most ``--max-sessions`` sessions at once (``ACP_MAX_CONCURRENT_ENVS`` for the packaged
server, ``make_app(max_concurrent_envs=...)``; default :func:`default_max_sessions`, 64 per CPU). A client
past the limit is turned away with the reason: the server is full, how many sessions it holds, which
setting raises the limit (:class:`AcpEnvClient` raises :class:`ServerFull`; the close frame has code 1013
and the same words), and the server logs a warning. Every close carries its reason. Each session's steps run
on a thread of its own (OpenEnv's session executor), so a slow step holds up no other session.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import os
import random
import threading
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

try:
    from openenv.core import EnvClient
    from openenv.core.client_types import StepResult
    from openenv.core.env_server.http_server import create_app
    from openenv.core.env_server.interfaces import Environment
    from openenv.core.env_server.types import Action, Observation, State
    from pydantic import Field
    from starlette.websockets import WebSocketDisconnect
    from websockets.exceptions import ConnectionClosed
    from websockets.frames import CLOSE_CODE_EXPLANATIONS
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"acpgen.adapters.openenv needs OpenEnv's openenv package ({err}); install it with `pip install 'acpgen[rl]'`"
    ) from err

from acpgen.api import generate, load
from acpgen.errors import DataError
from acpgen.training.batch import default_workers
from acpgen.training.episode import Episode, EpisodeSettings


class AcpAction(Action):
    text: str = Field(..., description="the next action as (name arg ...), or several, one per line")


class AcpObservation(Observation):
    text: str = Field(default="", description="the state, goal and actions at reset; after a step, its consequence")
    applied: list[str] = Field(default_factory=list, description="the actions applied by the step")
    failure: str | None = Field(default=None, description="the first action that could not be applied, and why")
    goal_reached: bool = False
    steps_left: int = 0


class AcpState(State):
    record_id: str | None = None
    domain: str | None = None
    goal_reached: bool = False
    cost: int = 0
    optimal_cost: int | None = None
    invalid_steps: int = 0
    steps_left: int = 0
    trajectory: list[str] = Field(default_factory=list)


class AcpEnvironment(Environment[AcpAction, AcpObservation, AcpState]):
    """One acp episode per session (see the module docstring)."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, records: Sequence[dict[str, Any]] = (), settings: EpisodeSettings | None = None):
        super().__init__()
        self.records = list(records)
        self.settings = settings or EpisodeSettings()
        self.episode: Episode | None = None
        self._turn = 0
        self._state = AcpState()

    def _record(self, record: dict[str, Any] | None, index: int | None, seed: int | None) -> dict[str, Any]:
        if record is not None:
            return record
        if not self.records:
            raise DataError("this environment has no records: pass record= to reset")
        if index is None:
            index = random.Random(seed).randrange(len(self.records)) if seed is not None else self._turn
            self._turn += 1
        return self.records[index % len(self.records)]

    def reset(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        record: dict[str, Any] | None = None,
        index: int | None = None,
        **kwargs: Any,
    ) -> AcpObservation:
        self.episode = Episode(self._record(record, index, seed), self.settings)
        self._state = AcpState(episode_id=episode_id or str(uuid.uuid4()), step_count=0)
        self._sync_state()
        return AcpObservation(text=self.episode.prompt, steps_left=self.episode.steps_left, reward=0.0, done=False)

    def step(self, action: AcpAction, timeout_s: float | None = None, **kwargs: Any) -> AcpObservation:
        if self.episode is None:
            return AcpObservation(text="No episode: call reset first.", done=True, reward=0.0)
        feedback = self.episode.step(action.text)
        self._state.step_count += 1
        self._sync_state()
        return AcpObservation(
            text=feedback.text,
            applied=list(feedback.applied),
            failure=feedback.failure,
            goal_reached=self.episode.goal_reached,
            steps_left=self.episode.steps_left,
            reward=feedback.reward,
            done=feedback.done,
        )

    def _sync_state(self) -> None:
        assert self.episode is not None
        summary = self.episode.summary()
        self._state.record_id = None if summary["record"] is None else str(summary["record"])
        self._state.domain = summary["domain"]
        self._state.goal_reached = summary["goal_reached"]
        self._state.cost = summary["cost"]
        self._state.optimal_cost = summary["optimal_cost"]
        self._state.invalid_steps = summary["invalid_steps"]
        self._state.steps_left = self.episode.steps_left
        self._state.trajectory = summary["trajectory"]

    @property
    def state(self) -> AcpState:
        return self._state


#: sessions per CPU of the default limit of sessions at once (:func:`default_max_sessions`)
SESSIONS_PER_CPU = 64

#: how a server full of sessions names the settings that raise its limit
RAISE_LIMIT = "--max-sessions, ACP_MAX_CONCURRENT_ENVS or make_app(max_concurrent_envs=...)"


def default_max_sessions() -> int:
    """The default limit of WebSocket sessions at once: :data:`SESSIONS_PER_CPU` (64) per CPU this process
    may run on, 128 on a 2-core machine. There, 128 sessions stepping back to back (the client on the same
    machine) answer a step within 250 ms at the 99th percentile and hold about 140 KB each
    (``make bench-sessions``, docs/benchmarks.md); sessions that wait for a model between steps load the
    server far less, and a larger limit suits them."""
    return SESSIONS_PER_CPU * default_workers()


def make_app(
    records: str | Path | Sequence[dict[str, Any]] = (),
    settings: EpisodeSettings | None = None,
    max_concurrent_envs: int | None = None,
) -> Any:
    """The FastAPI app serving :class:`AcpEnvironment` over ``records`` (a records file or folder, or a
    list; episodes may also be given their record at reset), one environment per WebSocket session, at most
    ``max_concurrent_envs`` sessions at once (default :func:`default_max_sessions`).

    A session past the limit is turned away: it receives OpenEnv's error message (code ``CAPACITY_REACHED``)
    saying that the server is full and which setting raises the limit, then a close with code 1013 (try
    again later) and that reason; the server logs a warning. Every close carries its reason (the client's
    request, the server full, the session failed). At start-up the server moves the objects it holds then
    (the records, the loaded code) out of the garbage collector's view (``gc.freeze``), so that a full
    collection during the sessions does not pause every session for 150-200 ms."""
    limit = default_max_sessions() if max_concurrent_envs is None else max_concurrent_envs
    if limit < 1:
        raise ValueError(f"max_concurrent_envs must be at least 1, not {limit}")
    chosen = load(records) if isinstance(records, (str, Path)) else list(records)

    def acp_environment() -> AcpEnvironment:  # one per session
        return AcpEnvironment(chosen, settings)

    app = create_app(acp_environment, AcpAction, AcpObservation, env_name="acp", max_concurrent_envs=limit)
    app.add_middleware(_SessionCloses)
    app.router.on_startup.append(_freeze_startup_objects)
    return app


async def _freeze_startup_objects() -> None:
    gc.collect()
    gc.freeze()


#: the server's log: uvicorn's, however it is started (``python -m acpgen.adapters.openenv``, the packaged
#: server, the Dockerfile's ``uvicorn server.app:app``)
log = logging.getLogger("uvicorn.error")

#: WebSocket close codes (RFC 6455 and IANA's registry): normal, the session failed, the server is full
_NORMAL, _INTERNAL_ERROR, _TRY_AGAIN_LATER = 1000, 1011, 1013
#: OpenEnv's error codes that end a session: the server closes the socket right after the message
_SESSION_ENDING = ("CAPACITY_REACHED", "FACTORY_ERROR", "SESSION_ERROR")


def _close_reason(text: str) -> str:
    """``text`` cut to the 123 bytes a WebSocket close frame's reason may hold."""
    data = text.encode()
    return text if len(data) <= 123 else data[:120].decode(errors="ignore") + "..."


class _SessionCloses:
    """ASGI middleware around OpenEnv 0.3's WebSocket session handler: every close says why, and a client
    turned away learns that the server is full and how to raise its limit.

    OpenEnv's handler accepts every connection, and when the session cannot start (the server holds
    ``max_concurrent_envs`` sessions: ``SessionCapacityError``; the factory failed) or fails, it sends an
    error message and closes the socket at once with code 1000 and no reason, logging nothing. A client that
    sends its ``reset`` meanwhile (they all do: the handshake has succeeded) finds the socket closed: the
    ``websockets`` client raises ``ConnectionClosedOK`` from ``send``, and the error message it has received
    is never read. Here the error message of a full server names the limit and the settings that raise it,
    the close that follows has code 1013 (try again later) and a reason saying the same (1011 and the error
    for a failed session, 1000 and "closed at the client's request" otherwise), and the server logs it.

    A session whose client left before the server's closing handshake ends quietly: Starlette raises
    ``WebSocketDisconnect`` from the handler's ``close()`` and uvicorn would log it with a traceback,
    although the session ended as sessions do. An error the handler lets through is logged with its
    traceback and closes the session with code 1011 and the error as its reason."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "websocket":
            await self.app(scope, receive, send)
            return
        close = {"code": _NORMAL, "reason": "session ended"}
        progress = {"accepted": False, "closed": False}

        async def receiving() -> Any:
            message = await receive()
            text = message.get("text") if message.get("type") == "websocket.receive" else None
            if text and len(text) < 64 and '"close"' in text and _is_close_message(text):
                close.update(code=_NORMAL, reason="session closed at the client's request")
            return message

        async def sending(message: Any) -> None:
            kind = message.get("type")
            if kind == "websocket.accept":
                progress["accepted"] = True
            elif kind == "websocket.send" and (message.get("text") or "").startswith('{"type":"error"'):
                message = self._session_error(message, close, scope)
            elif kind == "websocket.close":
                progress["closed"] = True
                if not message.get("reason"):
                    message = {**message, **close}
            await send(message)

        try:
            await self.app(scope, receiving, sending)
        except WebSocketDisconnect:
            pass  # the client has gone: the session ended
        except Exception as err:
            if not progress["accepted"]:
                raise
            log.exception("acp session %s failed", _client(scope))
            if not progress["closed"]:
                reason = _close_reason(f"session failed: {type(err).__name__}: {err}")
                with contextlib.suppress(Exception):
                    await send({"type": "websocket.close", "code": _INTERNAL_ERROR, "reason": reason})

    @staticmethod
    def _session_error(message: Any, close: dict[str, Any], scope: Any) -> Any:
        """An error message of OpenEnv's handler: one that ends the session sets the close's code and reason
        (and a full server's names its limit and the settings that raise it); others pass unchanged."""
        try:
            payload = json.loads(message["text"])
            data = payload["data"]
            code = data.get("code")
        except (ValueError, KeyError, TypeError, AttributeError):
            return message
        if code not in _SESSION_ENDING:
            return message
        if code == "CAPACITY_REACHED":
            active, limit = data.get("active_sessions"), data.get("max_sessions")
            data["message"] = (
                f"acp's episode server is full: {active} of {limit} sessions are open. Retry when one closes, "
                f"or raise the server's limit of sessions at once ({RAISE_LIMIT})."
            )
            close.update(
                code=_TRY_AGAIN_LATER,
                reason=_close_reason(
                    f"server full: {active} of {limit} sessions open; raise --max-sessions or ACP_MAX_CONCURRENT_ENVS"
                ),
            )
            log.warning(
                "acp: session from %s turned away: %s of %s sessions open (raise it: %s)",
                _client(scope),
                active,
                limit,
                RAISE_LIMIT,
            )
            return {**message, "text": json.dumps(payload)}
        close.update(code=_INTERNAL_ERROR, reason=_close_reason(f"session failed: {data.get('message')}"))
        log.error("acp: session from %s failed: %s (%s)", _client(scope), data.get("message"), code)
        return message


def _is_close_message(text: str) -> bool:
    with contextlib.suppress(ValueError, AttributeError):
        return bool(json.loads(text).get("type") == "close")
    return False


def _client(scope: Any) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "?"


#: the environment variables :func:`make_app_from_environ` reads, and their defaults
ENVIRON_DEFAULTS = {
    "ACP_RECORDS": "",
    "ACP_DOMAINS": "ferry",
    "ACP_TASK": "plan",
    "ACP_LEVEL": "1",
    "ACP_N": "10",
    "ACP_SEED": "0",
    "ACP_CONFIG": "",
    "ACP_STATES": "nl",
    "ACP_MAX_CONCURRENT_ENVS": "",
}


def records_from_environ(environ: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The records a packaged server (``environments/acp_env``) serves: those of the records file or folder
    ``ACP_RECORDS``, or else ``ACP_N`` records of ``ACP_TASK`` (default ``plan``) per domain of
    ``ACP_DOMAINS`` (comma-separated), made by `acpgen.generate` at ``ACP_LEVEL`` (1-5, or ``none`` for the
    configured sizes) with ``ACP_SEED`` from the pipeline configuration ``ACP_CONFIG`` (default: acp's)."""
    env = {**ENVIRON_DEFAULTS, **(os.environ if environ is None else environ)}
    if env["ACP_RECORDS"]:
        return load(env["ACP_RECORDS"])
    level = None if env["ACP_LEVEL"].lower() in ("", "none") else int(env["ACP_LEVEL"])
    domains = [d.strip() for d in env["ACP_DOMAINS"].split(",") if d.strip()]
    made = generate(
        domains, env["ACP_TASK"], n=int(env["ACP_N"]), seed=int(env["ACP_SEED"]), level=level,
        config=env["ACP_CONFIG"] or None,
    )  # fmt: skip
    records = list(made)
    if not records:
        raise DataError(f"no {env['ACP_TASK']} record of {', '.join(domains)} at level {level}: set ACP_RECORDS")
    return records


def make_app_from_environ(environ: Mapping[str, str] | None = None) -> Any:
    """:func:`make_app` over :func:`records_from_environ`, with ``ACP_STATES`` (``nl`` or ``pddl``) and
    ``ACP_MAX_CONCURRENT_ENVS`` (sessions at once; unset or empty: :func:`default_max_sessions`): the app of
    ``environments/acp_env/server/app.py``."""
    env = {**ENVIRON_DEFAULTS, **(os.environ if environ is None else environ)}
    settings = EpisodeSettings(representation=env["ACP_STATES"])
    limit = int(env["ACP_MAX_CONCURRENT_ENVS"]) if env["ACP_MAX_CONCURRENT_ENVS"].strip() else None
    return make_app(records_from_environ(env), settings, max_concurrent_envs=limit)


class SessionClosed(RuntimeError):
    """The server closed the session: ``code`` is the WebSocket close code, ``reason`` the server's words."""

    def __init__(self, message: str, code: int | None = None, reason: str = ""):
        super().__init__(message)
        self.code, self.reason = code, reason


class ServerFull(SessionClosed):
    """The server turned the session away: it holds as many sessions as its limit allows. The message
    names the limit and the settings that raise it (:data:`RAISE_LIMIT`); retrying later may succeed."""


class AcpEnvClient(EnvClient[AcpAction, AcpObservation, AcpState]):
    """The client of a served :class:`AcpEnvironment` (a WebSocket session keeps the episode). A session
    the server turns away or closes raises :class:`ServerFull` or :class:`SessionClosed` (both
    ``RuntimeError``, as OpenEnv's client raises for an error the server answers) with the server's reason."""

    def _step_payload(self, action: AcpAction) -> dict[str, Any]:
        return {"text": action.text}

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[AcpObservation]:
        fields = payload.get("observation", {})
        observation = AcpObservation(
            text=fields.get("text", ""),
            applied=fields.get("applied", []),
            failure=fields.get("failure"),
            goal_reached=fields.get("goal_reached", False),
            steps_left=fields.get("steps_left", 0),
            reward=payload.get("reward"),
            done=payload.get("done", False),
        )
        return StepResult(observation=observation, reward=payload.get("reward"), done=payload.get("done", False))

    def _parse_state(self, payload: dict[str, Any]) -> AcpState:
        return AcpState(**payload)

    async def _send_and_receive(self, message: dict[str, Any]) -> dict[str, Any]:
        """OpenEnv's exchange (send a message, read the answer; an error answer raises ``RuntimeError``),
        except that a session the server has closed raises why: the server sends its error and closes at
        once, so this client's next ``send`` finds the socket closed before the error is read."""
        try:
            await self._send(message)
            response: dict[str, Any] = await self._receive()
        except ConnectionClosed as closed:
            response = await self._last_words(closed)
        if response.get("type") == "error":
            data = response.get("data") or {}
            words = f"Server error: {data.get('message', 'Unknown error')} (code: {data.get('code', 'UNKNOWN')})"
            if data.get("code") == "CAPACITY_REACHED":  # the server's words name the limit and the settings
                raise ServerFull(str(data.get("message")), _TRY_AGAIN_LATER, str(data.get("message")))
            raise RuntimeError(words)
        return response

    async def _last_words(self, closed: ConnectionClosed) -> dict[str, Any]:
        """The message the server sent before closing the socket (its error, received but not read yet);
        without one, :class:`SessionClosed` (:class:`ServerFull` for code 1013) with the close's reason."""
        ws: Any = self._ws
        with contextlib.suppress(Exception):
            last: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout=1.0))
            return last
        code, reason = (closed.rcvd.code, closed.rcvd.reason) if closed.rcvd else (None, "")
        meaning = CLOSE_CODE_EXPLANATIONS.get(code, "unknown") if code is not None else "no close frame"
        words = f"the server closed the session (code {code}, {meaning}): {reason or 'no reason given'}"
        if code == _TRY_AGAIN_LATER:
            raise ServerFull(words, code, reason) from closed
        raise SessionClosed(words, code, reason) from closed

    #: how long :meth:`disconnect` waits for the server to close the session, at most (seconds)
    close_timeout_s: float = 5.0

    async def disconnect(self) -> None:
        """Close the session cleanly: send OpenEnv's ``close`` message, wait for the server to close the
        socket (at most :attr:`close_timeout_s`), then close it here. (OpenEnv's own client closes its side
        right after the message, so the server's closing handshake meets a socket that is gone.)"""
        ws: Any = getattr(self, "_ws", None)  # EnvClient (untyped) keeps the socket here
        if ws is None:
            return
        # best effort, as in OpenEnv's own disconnect: the socket is closed below whatever happens here
        with contextlib.suppress(Exception):
            await self._send({"type": "close"})
            await asyncio.wait_for(ws.wait_closed(), timeout=self.close_timeout_s)
        with contextlib.suppress(Exception):  # already closed
            await ws.close()
        self._ws = None


class LocalServer:
    """A uvicorn server for an app in a thread of this process, on 127.0.0.1 (tests, notebooks):
    ``with LocalServer(make_app(records)) as url: ...``."""

    def __init__(self, app: Any, port: int = 0):
        import uvicorn

        self._server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def __enter__(self) -> str:
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the OpenEnv server did not start")
            self._thread.join(0.02)
        port = self._server.servers[0].sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    def __exit__(self, *exc: Any) -> None:
        self._server.should_exit = True
        self._thread.join(10)


def _at_least_one(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a number of sessions, at least 1: {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> None:
    """Serve the episodes of a records file or folder: ``python -m acpgen.adapters.openenv --records PATH``."""
    parser = argparse.ArgumentParser(description="Serve acp episodes as an OpenEnv environment")
    parser.add_argument("--records", required=True, help="records file or folder (e.g. plan.gen.jsonl)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--states", default="nl", choices=("nl", "pddl"))
    parser.add_argument(
        "--max-sessions", type=_at_least_one, default=None,
        help=f"sessions at once (default {default_max_sessions()}: {SESSIONS_PER_CPU} per CPU); more are turned away",
    )  # fmt: skip
    args = parser.parse_args(argv)
    import uvicorn

    app = make_app(args.records, EpisodeSettings(representation=args.states), max_concurrent_envs=args.max_sessions)
    uvicorn.run(app, host=args.host, port=args.port)


if __name__ == "__main__":
    main()
