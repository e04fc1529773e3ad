"""Local servers for the adapter tests, all on 127.0.0.1 and bounded in time: a free port, a subprocess server
waited for (with its log kept for the test to read), and a loopback OpenAI-compatible chat server (a mock
model: it answers every chat completion with a fixed reply, streamed or not)."""

from __future__ import annotations

import json
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(url: str, process: subprocess.Popen | None = None, timeout: float = 90.0) -> None:
    """Until ``url`` answers 200 (at most ``timeout`` seconds; the process must stay alive)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode} before {url} answered")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer in {timeout} s")


class Served:
    """A server process started by :func:`serve`: its ``url`` and what it has logged so far (:meth:`log`)."""

    def __init__(self, url: str, process: subprocess.Popen, log_path: Path):
        self.url, self.process, self.log_path = url, process, log_path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@contextmanager
def serve(command: list[str], port: int, health: str, log_path: Path, **popen: Any) -> Iterator[Served]:
    """Run ``command`` (a server on 127.0.0.1:``port``) until the block ends, waiting for ``health`` (a path)
    first; its stdout and stderr go to ``log_path``."""
    with log_path.open("w") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, **popen)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_for(url + health, process)
        yield Served(url, process, log_path)
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


class MockChat:
    """A loopback OpenAI-compatible chat server: ``GET /v1/models`` and ``POST /v1/chat/completions``, the
    latter answered with ``reply`` (a JSON completion, or server-sent events when ``stream`` is asked for).
    ``requests`` counts the completions served. ``with MockChat("(sail l1 l0)") as base_url: ...``."""

    def __init__(self, reply: str = "(sail l1 l0)"):
        self.reply = reply
        self.requests = 0
        mock = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _send_json(self, code: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    model = {"id": "mock", "object": "model", "created": 0, "owned_by": "acp-tests"}
                    self._send_json(200, {"object": "list", "data": [model]})
                else:
                    self._send_json(404, {"error": {"message": f"no {self.path}"}})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send_json(404, {"error": {"message": f"no {self.path}"}})
                    return
                mock.requests += 1
                head = {"id": f"mock-{mock.requests}", "created": int(time.time()), "model": body.get("model", "mock")}
                usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
                if not body.get("stream"):
                    message = {"role": "assistant", "content": mock.reply}
                    choice = {"index": 0, "message": message, "finish_reason": "stop"}
                    self._send_json(200, head | {"object": "chat.completion", "choices": [choice], "usage": usage})
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                chunk = head | {"object": "chat.completion.chunk"}
                events = [
                    chunk | {"choices": [{"index": 0, "delta": {"role": "assistant", "content": mock.reply}}]},
                    chunk | {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                ]
                if (body.get("stream_options") or {}).get("include_usage"):
                    events.append(chunk | {"choices": [], "usage": usage})
                for event in events:
                    self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> str:
        self._thread.start()
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(10)
