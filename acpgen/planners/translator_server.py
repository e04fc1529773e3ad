"""A warm Fast Downward translator: run as a script, never imported by acp.

``python -B translator_server.py BIN_DIR [LAYOUT]`` imports the translator found in ``BIN_DIR`` (the
``builds/release/bin`` folder of the up-fast-downward wheel, as its driver does through
``PYTHONPATH``; with LAYOUT ``kstar``, that of the kstar-planner wheel, whose ``translate/translate.py``
its driver runs) once, then serves requests, one JSON object per line on standard input:

    {"cwd": DIR, "args": [translator arguments], "cpu": SECONDS, "memory_mb": MB or null, "log": FILE}

For each request it forks. The child works in ``cwd`` with standard output and error going to
``log``, under the CPU limit ``(cpu, cpu + 1)`` and the address-space limit the driver would set,
runs the translator's ``main`` and exits with the translator's own exit codes (20 out of memory,
21 out of time, 31 input error; 1 any other failure). The server answers ``{"pid": PID}`` as soon
as the child runs (so that the client can kill it) and ``{"status": WAIT_STATUS, "cpu": SECONDS}``
when it has ended. A fork starts from the freshly imported translator, so nothing of one
translation leaks into the next. The server ends when its standard input closes (its client
exited or closed it); it is single-threaded, so forking it is safe.

This file only uses the standard library and the translator, so that it starts quickly.
"""

import json
import mmap
import os
import resource
import signal
import sys
import traceback
from typing import Any

FAST_DOWNWARD, KSTAR = "fast-downward", "kstar"  # whose translator: up-fast-downward's or K*'s (an older one)
TRANSLATE_OUT_OF_MEMORY = 20
TRANSLATE_OUT_OF_TIME = 21
TRANSLATE_INPUT_ERROR = 31
_RESERVE: list[mmap.mmap] = []


def _child(request: dict[str, Any], layout: str) -> int:
    os.setsid()
    os.chdir(request["cwd"])
    log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    sys.stdout = os.fdopen(1, "w", buffering=1)
    sys.stderr = os.fdopen(2, "w", buffering=1)
    cpu = int(request["cpu"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    if request.get("memory_mb"):
        size = int(request["memory_mb"]) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    signal.signal(signal.SIGXCPU, lambda *_: os._exit(TRANSLATE_OUT_OF_TIME))
    try:
        main = _prepared(request["args"], layout)
        _RESERVE.append(_reserve())  # freed on MemoryError so that the report can be written
        main()
        return 0
    except MemoryError:
        _RESERVE.clear()
        print("Translator ran out of memory")
        return TRANSLATE_OUT_OF_MEMORY
    except SystemExit as exc:
        if isinstance(exc.code, int):
            return exc.code
        print(exc.code)  # what the interpreter prints for an exit with a message (K*'s translator's input errors)
        return 1
    except BaseException as exc:  # any crash: the driver reports exit 1 as a critical translator error
        if type(exc).__name__ == "ParseError":  # but Fast Downward's translator's own: an input error
            print(exc)
            return TRANSLATE_INPUT_ERROR
        traceback.print_exc()
        return 1


def _reserve() -> mmap.mmap:
    """10 MB of address space held for the out-of-memory report: mapped, not written (writing it would cost
    each translation some milliseconds), and under the address-space limit like any allocation."""
    try:
        return mmap.mmap(-1, 10**7)
    except OSError:  # the limit leaves no room even for the reserve
        raise MemoryError from None


def _prepared(args: list[str], layout: str) -> Any:
    """The translator's ``main`` with its options read from ``args``."""
    if layout == KSTAR:
        import options  # type: ignore[import-not-found]
        import translate  # type: ignore[import-not-found]

        sys.argv = ["translate.py", *args]
        options.setup()  # K*'s translator reads its options from sys.argv
        return translate.main
    from fast_downward.translate.main import main  # type: ignore[import-untyped]
    from fast_downward.translate.options import set_options  # type: ignore[import-untyped]

    set_options(args)
    return main


def _load(bin_dir: str, layout: str) -> None:
    """Import the translator once, before the first fork: up-fast-downward's package ``fast_downward.translate``,
    or K*'s ``translate/translate.py`` with its modules (whose options are parsed from sys.argv on import)."""
    if layout == KSTAR:
        sys.path.insert(0, os.path.join(bin_dir, "translate"))
        saved, sys.argv = sys.argv, ["translate.py", "domain.pddl", "problem.pddl"]
        import translate  # noqa: F401

        sys.argv = saved
        return
    sys.path.insert(0, bin_dir)
    import fast_downward.translate.main  # type: ignore[import-untyped]
    import fast_downward.translate.options  # noqa: F401
    from fast_downward.translate import pddl_parser  # noqa: F401


def serve(bin_dir: str, layout: str = FAST_DOWNWARD) -> None:
    _load(bin_dir, layout)

    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        out.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                code = _child(request, layout)
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code)
        out.write(json.dumps({"pid": pid}) + "\n")
        out.flush()
        _, status, usage = os.wait4(pid, 0)
        out.write(json.dumps({"status": status, "cpu": usage.ru_utime + usage.ru_stime}) + "\n")
        out.flush()


if __name__ == "__main__":
    serve(*sys.argv[1:3])
