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
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"acpgen.adapters.openenv needs OpenEnv's openenv package ({err}); install it with `pip install 'acpgen[rl]'`"
    ) from err

from acpgen.api import generate, load
from acpgen.errors import DataError
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


def make_app(
    records: str | Path | Sequence[dict[str, Any]] = (),
    settings: EpisodeSettings | None = None,
    max_concurrent_envs: int = 16,
) -> Any:
    """The FastAPI app serving :class:`AcpEnvironment` over ``records`` (a records file or folder, or a
    list; episodes may also be given their record at reset), one environment per WebSocket session."""
    chosen = load(records) if isinstance(records, (str, Path)) else list(records)
    factory = lambda: AcpEnvironment(chosen, settings)  # noqa: E731 - one environment per session
    app = create_app(factory, AcpAction, AcpObservation, env_name="acp", max_concurrent_envs=max_concurrent_envs)
    app.add_middleware(_ClientGone)
    return app


class _ClientGone:
    """ASGI middleware: a WebSocket session whose client left before the server's closing handshake ends
    quietly. OpenEnv 0.3's session handler closes the socket when the session ends (the client's ``close``
    message, or the connection dropped); when the client has already gone, Starlette raises
    ``WebSocketDisconnect`` from that ``close()`` and uvicorn logs it as an error with a traceback, although
    the session ended as sessions do (the other sessions are not affected). Other errors pass through."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "websocket":
            await self.app(scope, receive, send)
            return
        with contextlib.suppress(WebSocketDisconnect):
            await self.app(scope, receive, send)


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
    "ACP_MAX_CONCURRENT_ENVS": "16",
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
    ``ACP_MAX_CONCURRENT_ENVS`` (sessions at once): the app of ``environments/acp_env/server/app.py``."""
    env = {**ENVIRON_DEFAULTS, **(os.environ if environ is None else environ)}
    settings = EpisodeSettings(representation=env["ACP_STATES"])
    return make_app(records_from_environ(env), settings, max_concurrent_envs=int(env["ACP_MAX_CONCURRENT_ENVS"]))


class AcpEnvClient(EnvClient[AcpAction, AcpObservation, AcpState]):
    """The client of a served :class:`AcpEnvironment` (a WebSocket session keeps the episode)."""

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


def main(argv: list[str] | None = None) -> None:
    """Serve the episodes of a records file or folder: ``python -m acpgen.adapters.openenv --records PATH``."""
    parser = argparse.ArgumentParser(description="Serve acp episodes as an OpenEnv environment")
    parser.add_argument("--records", required=True, help="records file or folder (e.g. plan.gen.jsonl)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--states", default="nl", choices=("nl", "pddl"))
    args = parser.parse_args(argv)
    import uvicorn

    uvicorn.run(make_app(args.records, EpisodeSettings(representation=args.states)), host=args.host, port=args.port)


if __name__ == "__main__":
    main()
