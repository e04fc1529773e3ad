"""Fast Downward without its start-up cost: a warm translator and the search binary called directly.

A call through Fast Downward's driver starts two Python interpreters (the driver, then the
translator) and imports the translator each time; on the small tasks acp asks about, that start-up
is most of the call (about 0.3 s against 10-20 ms of translating and searching). :func:`run`
does what the driver does for acp's two kinds of call -- translate, then ``downward --search S``
on the translator's ``output.sas`` (or translate only) -- with the same translator and search
binary of the up-fast-downward wheel, the same limits and the driver's exit codes, but the
translation runs in a fork of a long-lived process that has imported the translator once
(``translator_server.py``; one per acp process and thread, started on first use).

The answers are those of the driver: same translator code, same search binary, same options. Only
the cost differs. Setting ``ACP_FD_DRIVER=1`` in the environment turns this off (every call then
goes through the driver, as the Apptainer backend always does).
"""

from __future__ import annotations

import json
import logging
import math
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from acpgen.errors import ToolError
from acpgen.planners import run as _run
from acpgen.planners.backends import FAST_DOWNWARD, KSTAR, release_bin
from acpgen.planners.parse import Work

log = logging.getLogger(__name__)

ENV_VAR = "ACP_FD_DRIVER"
SERVER = Path(__file__).with_name("translator_server.py")
TRANSLATE_CRITICAL_ERROR = 30
DRIVER_INPUT_ERROR = 36
SAS_FILE = "output.sas"
TRANSLATE_LOG = "translate.log"


def enabled() -> bool:
    """Whether Fast Downward calls of the local backend go through :func:`run`."""
    return os.environ.get(ENV_VAR, "") in ("", "0")


class _Server:
    """One translator server process, owned by one process and thread."""

    def __init__(self, python: str, layout: str = FAST_DOWNWARD) -> None:
        self.owner = os.getpid()
        self.proc = subprocess.Popen(
            [python, "-B", str(SERVER), str(release_bin(layout)), layout],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            text=True,
            bufsize=1,
        )
        self._pending = b""  # what the server has written and :meth:`_line` has not returned yet

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.proc.poll() is None

    def close(self) -> None:
        if self.owner != os.getpid():
            return  # a forked copy: the parent's server is not ours to stop
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()

    def _line(self, timeout: float | None) -> dict[str, Any] | None:
        """The server's next answer, or None when ``timeout`` seconds pass first.

        The pipe is read here, into :attr:`_pending`, never through the file object: its buffer could hold
        the next answer already (the child ended before its ``pid`` line was read), and ``select`` on the
        pipe would then wait for data that has arrived, until the watchdog fired."""
        assert self.proc.stdout is not None
        deadline = None if timeout is None else time.monotonic() + max(0.0, timeout)
        while b"\n" not in self._pending:
            if deadline is not None:
                ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
                if not ready:
                    return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise BrokenPipeError("translator server ended")
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        answer: dict[str, Any] = json.loads(line)
        return answer

    def translate(self, request: dict[str, Any], wall_limit: float) -> tuple[int, float, bool]:
        """(exit code or -signal, CPU seconds, whether the wall-clock watchdog fired)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        started = self._line(None)
        assert started is not None
        deadline = time.monotonic() + wall_limit
        answer = self._line(wall_limit)
        fired = answer is None
        if answer is None:
            log.info("watchdog: translator exceeded %.1fs wall-clock, killing it", wall_limit)
            _run._kill_group(started["pid"], signal.SIGKILL)
            answer = self._line(max(5.0, deadline - time.monotonic()))
            if answer is None:
                raise BrokenPipeError("translator server does not answer")
        status = int(answer["status"])
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        return code, float(answer["cpu"]), fired


_local = threading.local()


def _servers() -> dict[str, _Server]:
    servers: dict[str, _Server] | None = getattr(_local, "servers", None)
    if servers is None:
        servers = _local.servers = {}
    return servers


def _server(layout: str = FAST_DOWNWARD) -> _Server:
    """This thread's translator server for ``layout`` (up-fast-downward's translator, or K*'s)."""
    servers = _servers()
    server = servers.get(layout)
    if server is None or not server.alive():
        server = servers[layout] = _Server(sys.executable, layout)
    return server


def reset() -> None:
    """Close this thread's translator servers (after a request was interrupted, e.g. by a signal, its
    answers would no longer match the requests); the next translation starts a fresh one."""
    servers = _servers()
    while servers:
        servers.popitem()[1].close()


def translate(
    workdir: Path, args: list[str], cpu: int, memory_mb: int | None, layout: str = FAST_DOWNWARD
) -> tuple[int, float, bool, str]:
    """Run the translator of ``layout`` with ``args`` in ``workdir``: (exit code, CPU s, timed out, its output)."""
    request = {"cwd": str(workdir), "args": args, "cpu": cpu, "memory_mb": memory_mb, "log": TRANSLATE_LOG}
    for attempt in range(2):
        try:
            code, used, fired = _server(layout).translate(request, _run.watchdog_seconds(cpu))
            break
        except (BrokenPipeError, OSError, ValueError) as exc:  # the server died: start another, once
            dead = _servers().pop(layout, None)
            if dead is not None:
                dead.close()
            if attempt:
                raise ToolError(f"the warm Fast Downward translator failed: {exc}") from exc
    output = (workdir / TRANSLATE_LOG).read_text(encoding="utf-8", errors="replace")
    return code, used, fired, output


def run(
    args: list[str],
    workdir: Path,
    memory_mb: int | None,
    layout: str = FAST_DOWNWARD,
    watch: Work | None = None,
) -> _run.ToolRun:
    """Run a Fast Downward command line (driver arguments, as acp writes them) like the driver; with
    ``layout`` ``kstar``, a K* command line like K*'s driver (its own translator and search binary).

    Understood: ``--overall-time-limit Ns``, ``--overall-memory-limit NM``, ``--plan-file F``,
    ``--translate`` (translate only), two input files (domain and problem) or one SAS task, and
    ``--search S``, with K*'s ``--symmetries S`` before it (passed to the search in their order).
    ``watch``: the search's output watcher (:func:`acpgen.planners.run.run_tool`), which also gives an eager search
    the expansion limit of its work budget (:meth:`Work.bounded`).
    """
    start = time.monotonic()
    seconds, plan_file, translate_only = 0, "sas_plan", False
    inputs: list[str] = []
    search: str | None = None
    options: list[str] = []  # the search's own options before --search (K*'s symmetries)
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg == "--overall-time-limit":
            seconds = int(rest.pop(0).rstrip("s"))
        elif arg == "--overall-memory-limit":
            rest.pop(0)  # the memory limit arrives as ``memory_mb``
        elif arg == "--plan-file":
            plan_file = rest.pop(0)
        elif arg == "--translate":
            translate_only = True
        elif arg == "--search":
            search = rest.pop(0)
        elif arg == "--symmetries" and layout == KSTAR:
            options += [arg, rest.pop(0)]
        elif not arg.startswith("--"):
            inputs.append(arg)
        else:
            raise ToolError(f"warm Fast Downward: unexpected argument {arg!r} (set {ENV_VAR}=1 to use the driver)")
    cmd = (layout, *args)
    searched = len(inputs) == 1 and search is not None and not translate_only  # a SAS task: search only
    if not searched and (len(inputs) != 2 or (search is None) != translate_only):
        return _run.ToolRun(cmd, DRIVER_INPUT_ERROR, "", "bad arguments", time.monotonic() - start, False)
    if searched:
        code, used, fired, output, sas = 0, 0.0, False, "", Path(inputs[0])
    else:
        code, used, fired, output = translate(workdir, [*inputs, "--sas-file", SAS_FILE], seconds, memory_mb, layout)
        sas = workdir / SAS_FILE
    if code == 1:
        code = TRANSLATE_CRITICAL_ERROR
    if code != 0 or fired or search is None:
        return _run.ToolRun(cmd, code, output, "", time.monotonic() - start, fired)
    if watch is not None:  # the translator's output first, as the driver's would come
        watch(output.encode("utf-8", errors="replace"))
        search = watch.bounded(search)  # the operators are known now: stop the search at its budget exactly
    # The driver gives the search what is left of the overall limit, rounded down.
    left = math.floor(max(0.0, seconds - used))
    binary = release_bin(layout) / "downward"
    search_run = _run.run_tool(
        [str(binary), *options, "--search", search, "--internal-plan-file", plan_file],
        time_limit=max(left - 1, 0),
        memory_mb=memory_mb,
        cwd=workdir,
        stdin_path=sas,
        watch=watch,
    )
    return _run.ToolRun(
        cmd,
        search_run.returncode,
        output + search_run.stdout,
        search_run.stderr,
        time.monotonic() - start,
        search_run.timed_out,
        search_run.stopped,
    )
