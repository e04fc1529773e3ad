"""A warm Fast Downward translator: run as a script, never imported by acp.

``python -B translator_server.py BIN_DIR`` imports the translator found in ``BIN_DIR`` (the
``builds/release/bin`` folder of the up-fast-downward wheel, as its driver does through
``PYTHONPATH``) once, then serves requests, one JSON object per line on standard input:

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
import os
import resource
import signal
import sys
import traceback
from typing import Any

TRANSLATE_OUT_OF_MEMORY = 20
TRANSLATE_OUT_OF_TIME = 21
TRANSLATE_INPUT_ERROR = 31
_RESERVE: list[bytes] = []


def _child(request: dict[str, Any]) -> int:
    from fast_downward.translate import pddl_parser  # type: ignore[import-untyped]
    from fast_downward.translate.main import main  # type: ignore[import-untyped]
    from fast_downward.translate.options import set_options  # type: ignore[import-untyped]

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
        set_options(request["args"])
        _RESERVE.append(b"x" * 10**7)  # freed on MemoryError so that the report can be written
        main()
        return 0
    except MemoryError:
        _RESERVE.clear()
        print("Translator ran out of memory")
        return TRANSLATE_OUT_OF_MEMORY
    except pddl_parser.ParseError as exc:
        print(exc)
        return TRANSLATE_INPUT_ERROR
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # any crash: the driver reports exit 1 as a critical translator error
        traceback.print_exc()
        return 1


def serve(bin_dir: str) -> None:
    sys.path.insert(0, bin_dir)
    # Import everything the translations need once, before the first fork.
    import fast_downward.translate.main  # type: ignore[import-untyped]
    import fast_downward.translate.options  # noqa: F401
    from fast_downward.translate import pddl_parser  # noqa: F401

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
                code = _child(request)
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
    serve(sys.argv[1])
