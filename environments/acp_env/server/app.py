"""FastAPI application of acp's OpenEnv environment (``acpgen.adapters.openenv.make_app_from_environ``): HTTP and
WebSocket endpoints (``/reset``, ``/step``, ``/state``, ``/schema``, ``/health``, ``/ws``), one episode per session.

The records it serves come from environment variables: ``ACP_RECORDS`` (a records file or folder, e.g.
``out/ferry/plan.gen.jsonl``), or else ``ACP_N`` records of ``ACP_TASK`` (default ``plan``) per domain of
``ACP_DOMAINS`` (default ``ferry``) at ``ACP_LEVEL`` (default 1), made by ``acpgen.generate`` with ``ACP_SEED``
when the server starts; ``ACP_STATES`` (``nl`` or ``pddl``), ``ACP_MAX_CONCURRENT_ENVS`` (sessions at once; default
64 per CPU, 128 on 2 CPUs: a client past it is turned away with an error saying so, and the server logs a warning).

Usage::

    uv run --project . server --port 8000          # or: python -m acp_env.server.app
    uvicorn server.app:app --host 0.0.0.0 --port 8000  # what the Dockerfile runs
"""

from acpgen.adapters.openenv import make_app_from_environ

app = make_app_from_environ()


def main(argv: list[str] | None = None) -> None:
    """Serve the app with uvicorn on ``--host`` (default 127.0.0.1; the container listens on 0.0.0.0) and
    ``--port`` (default 8000): ``uv run --project . server --port 8001``, ``python -m acp_env.server.app``."""
    import argparse

    import uvicorn

    parser = argparse.ArgumentParser(description="Serve acp's OpenEnv environment")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    uvicorn.run(app, host=args.host, port=args.port)


if __name__ == "__main__":
    main()
