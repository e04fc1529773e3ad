"""The only place where acp starts an external tool: :func:`run_tool` (acp's own worker interpreters are
`acpgen.evaluation.pool`'s).

Every external tool runs in its own session (hence its own process group) with ``RLIMIT_CPU``
and, unless the caller opts out, ``RLIMIT_AS`` set before ``exec``: by util-linux's ``prlimit``, which
sets them on itself and then executes the tool, when it is installed (a child that runs Python code
between fork and exec is forked in full, about 8 ms from a process of 150 MB against under 1 ms for
the ``vfork`` the standard library uses otherwise), else by a ``preexec_fn``. A wall-clock watchdog ends a
run that outlives ``time_limit * 1.5 + 5`` seconds (a thread, so that the main thread can block in
``waitpid`` without polling): the whole group gets SIGTERM, then SIGKILL. A caller may also ``watch`` the
tool's output as it is written (the thread reads what is new every :data:`WATCH_SECONDS`) and stop the run
when the output shows that it has done the work it was given (a planner's reported work).
Fast Downward's driver starts the translator and the search as children, and forbiditerative
starts whole driver runs; killing only the direct child would leave them running. After every
run, also a normal one, the group is sent SIGKILL so that no straggler survives.

Output goes to files (given ones, or anonymous temporary files in ``cwd``) so that a chatty tool
cannot block on a full pipe; what is read back is capped (head and tail are kept).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from acpgen.errors import ToolError

log = logging.getLogger(__name__)

#: Characters of stdout/stderr kept in a :class:`ToolRun` (half from the start, half from the end).
OUTPUT_CAP = 4_000_000
#: Seconds between SIGTERM and SIGKILL when the watchdog fires.
KILL_GRACE = 2.0
#: Seconds between two looks at the output of a watched run.
WATCH_SECONDS = 0.05


@dataclass(frozen=True)
class ToolRun:
    """A finished tool run. ``returncode`` is negative when the tool died from a signal."""

    cmd: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    wall_time: float
    timed_out: bool
    stopped: bool = False  # ended by its watcher (it asked for the run to stop), not by itself or a limit

    def tail(self, lines: int = 4) -> str:
        """The last non-empty lines of stderr (of stdout when stderr is empty), joined by ' / '."""
        for text in (self.stderr, self.stdout):
            kept = [line.strip() for line in text.splitlines() if line.strip()]
            if kept:
                return " / ".join(kept[-lines:])[-600:]
        return ""


def watchdog_seconds(time_limit: float) -> float:
    """Wall-clock budget of a run with CPU budget ``time_limit``."""
    return time_limit * 1.5 + 5.0


def _clamp(value: int, hard: int) -> int:
    return value if hard == resource.RLIM_INFINITY else min(value, hard)


def _limits(time_limit: float, memory_mb: int | None) -> list[tuple[int, tuple[int, int]]]:
    """The rlimits to set in the child, computed in the parent (never raise in preexec_fn).

    The CPU hard limit leaves room above the soft one because Fast Downward's driver sets
    ``(t, t + 1)`` on its own children and may not raise a hard limit.
    """
    _, cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = math.ceil(time_limit) + 1
    wanted = [(resource.RLIMIT_CPU, (_clamp(soft, cpu_hard), _clamp(soft + 2, cpu_hard)))]
    if memory_mb is not None:
        _, as_hard = resource.getrlimit(resource.RLIMIT_AS)
        size = _clamp(int(memory_mb) * 1024 * 1024, as_hard)
        wanted.append((resource.RLIMIT_AS, (size, size)))
    return wanted


#: util-linux's prlimit (None: not installed, the limits are set by a preexec_fn)
PRLIMIT = shutil.which("prlimit")
_OPTIONS = {resource.RLIMIT_CPU: "--cpu", resource.RLIMIT_AS: "--as"}


def _launch(
    cmd: tuple[str, ...], limits: list[tuple[int, tuple[int, int]]], cwd: Path, env: dict[str, str] | None
) -> tuple[list[str], Callable[[], None] | None]:
    """The command line to start and the preexec_fn (None when prlimit sets the limits). Raises
    ToolError when the tool does not exist (prlimit would only report it in its exit status); the tool
    is looked up as the child will: a name on the PATH it gets, a relative path from ``cwd``."""
    if PRLIMIT is None:
        return list(cmd), _preexec(limits)
    if os.sep in cmd[0]:
        found = os.access(Path(cwd) / cmd[0], os.X_OK)
    else:
        found = shutil.which(cmd[0], path=(os.environ if env is None else env).get("PATH")) is not None
    if not found:
        raise ToolError(f"cannot start {cmd[0]}: no such executable")
    options = [f"{_OPTIONS[which]}={soft}:{hard}" for which, (soft, hard) in limits]
    return [PRLIMIT, *options, "--", *cmd], None


def _preexec(limits: list[tuple[int, tuple[int, int]]]) -> Callable[[], None]:
    def apply() -> None:  # runs in the child between fork and exec
        for which, values in limits:
            resource.setrlimit(which, values)

    return apply


def _kill_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _read_capped(handle: IO[bytes], cap: int) -> str:
    handle.flush()
    handle.seek(0, os.SEEK_END)
    size = handle.tell()
    handle.seek(0)
    if size <= cap:
        return handle.read().decode("utf-8", errors="replace")
    half = cap // 2
    head = handle.read(half).decode("utf-8", errors="replace")
    handle.seek(size - half)
    tail = handle.read().decode("utf-8", errors="replace")
    return f"{head}\n[... {size - 2 * half} bytes cut ...]\n{tail}"


def _output(path: Path | None, cwd: Path) -> IO[bytes]:
    if path is not None:
        return open(path, "w+b")
    return tempfile.TemporaryFile(dir=cwd)


def run_tool(
    cmd: Sequence[str],
    *,
    time_limit: float,
    memory_mb: int | None,
    cwd: Path,
    stdout_path: Path | None = None,
    stderr_path: Path | None = None,
    wall_limit: float | None = None,
    output_cap: int = OUTPUT_CAP,
    env: dict[str, str] | None = None,
    stdin_path: Path | None = None,
    watch: Callable[[bytes], bool] | None = None,
) -> ToolRun:
    """Run ``cmd`` in ``cwd`` under CPU, memory and wall-clock limits; never leave processes behind.

    ``time_limit``: CPU seconds (RLIMIT_CPU soft limit ``ceil(time_limit) + 1``); the watchdog
    fires after ``wall_limit`` (default :func:`watchdog_seconds`). ``memory_mb``: RLIMIT_AS in
    MiB, or None for no address-space limit (for wrappers such as apptainer that must pass the
    limit on to the tool themselves). Output is written to ``stdout_path``/``stderr_path`` when
    given (the files are kept), else to anonymous temporary files; the texts in the result are
    capped at ``output_cap`` characters. Raises :class:`ToolError` only when the command cannot
    be started at all; every other failure is reported in the returned :class:`ToolRun`.
    ``stdin_path``: a file to read standard input from (default: none). ``watch``: called with each new
    piece of standard output while the tool runs, in order, and with the rest once it has ended; when it
    returns True during the run, the run is stopped (the whole group ended, ``ToolRun.stopped``).
    """
    cmd = tuple(str(part) for part in cmd)
    budget = watchdog_seconds(time_limit) if wall_limit is None else wall_limit
    launched, preexec = _launch(cmd, _limits(time_limit, memory_mb), cwd, env)
    with (
        _output(stdout_path, cwd) as out,
        _output(stderr_path, cwd) as err,
        open(stdin_path, "rb") if stdin_path is not None else contextlib.nullcontext(subprocess.DEVNULL) as inp,
    ):
        start = time.monotonic()
        try:
            proc = subprocess.Popen(
                launched,
                cwd=cwd,
                stdin=inp,
                stdout=out,
                stderr=err,
                start_new_session=True,
                preexec_fn=preexec,
                env=env,
            )
        except OSError as exc:
            raise ToolError(f"cannot start {cmd[0]}: {exc}") from exc
        done, fired, stopped = threading.Event(), threading.Event(), threading.Event()
        seen = [0]  # bytes of standard output given to ``watch``

        def watched() -> bool:
            """Give ``watch`` what is new; whether it asks to stop."""
            if watch is None:
                return False
            chunk = os.pread(out.fileno(), 1 << 20, seen[0])
            asked = False
            while chunk:
                seen[0] += len(chunk)
                asked = watch(chunk) or asked
                chunk = os.pread(out.fileno(), 1 << 20, seen[0])
            return asked

        def watchdog() -> None:
            if watch is None:
                ended = done.wait(budget)
            else:
                deadline = time.monotonic() + budget
                while not (ended := done.wait(min(WATCH_SECONDS, max(0.0, deadline - time.monotonic())))):
                    if watched():
                        stopped.set()
                        break
                    if time.monotonic() >= deadline:
                        break
            if ended:
                return
            if not stopped.is_set():
                fired.set()
                log.info("watchdog: %s exceeded %.1fs wall-clock, terminating its process group", cmd[0], budget)
            _kill_group(proc.pid, signal.SIGTERM)
            if not done.wait(KILL_GRACE):
                _kill_group(proc.pid, signal.SIGKILL)

        guard = threading.Thread(target=watchdog, name=f"watchdog-{proc.pid}", daemon=True)
        guard.start()
        try:
            proc.wait()  # blocking waitpid: no polling latency
        finally:
            done.set()
            # The session leader has ended (or we are unwinding): end the rest of its group too.
            _kill_group(proc.pid, signal.SIGKILL)
            if proc.returncode is None:
                proc.wait()
            guard.join()
        timed_out = fired.is_set()
        wall = time.monotonic() - start
        out.flush()
        watched()  # the rest of the output, written after the last look
        stdout, stderr = _read_capped(out, output_cap), _read_capped(err, output_cap)
    log.debug("%s exited %s after %.2fs", cmd[0], proc.returncode, wall)
    return ToolRun(
        cmd=cmd,
        returncode=proc.returncode,
        stdout=stdout,
        stderr=stderr,
        wall_time=wall,
        timed_out=timed_out,
        stopped=stopped.is_set(),
    )
