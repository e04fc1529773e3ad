"""`bench_gen.py --reasoning-core-python PY`: Reasoning Core's planning generator timed in the same run.

Reasoning Core (PyPI ``reasoning-core``) is not part of acp: it runs in its own environment (``PY``, the
interpreter of a venv where ``pip install reasoning-core`` was run), in a subprocess that imports its planning
task (``reasoning_core.tasks.planning.Planning``) before the clock and then times ``generate_example(level=L)``
``n`` times on one core. Its items are grounded STRIPS puzzles with a unique plan, built forwards from a plan
(nothing is proven by a second procedure); acp's records are proven twice. The rate is items per second, the
process's start and imports not counted.
"""

from __future__ import annotations

import json
import subprocess

# Run by the peer's interpreter: only the standard library and Reasoning Core.
_SCRIPT = """
import json, sys, time, warnings
warnings.simplefilter("ignore")  # without tiktoken it counts words for max_tokens, and says so
from reasoning_core.tasks.planning import Planning
level, n = int(sys.argv[1]), int(sys.argv[2])
task = Planning()
task.generate_example(level=level)  # a first item: lazy set-up, not counted
start = time.perf_counter()
for _ in range(n):
    task.generate_example(level=level)
print(json.dumps({"items": n, "seconds": time.perf_counter() - start}))
"""


def check(python: str) -> None:
    """Exit with a message now, before acp's cells run, unless ``python`` imports Reasoning Core's planning task."""
    _run(python, "import reasoning_core.tasks.planning")


def rate(python: str, level: int, n: int = 300) -> float:
    """Items per second of Reasoning Core's planning generator at ``level`` (``n`` items, one process)."""
    timed = json.loads(_run(python, _SCRIPT, str(level), str(n)).strip().splitlines()[-1])
    return timed["items"] / timed["seconds"]


def _run(python: str, code: str, *args: str) -> str:
    """The standard output of ``code`` run by ``python``; SystemExit naming the interpreter when it fails."""
    try:
        done = subprocess.run([python, "-c", code, *args], capture_output=True, text=True, check=False, timeout=600)
    except OSError as err:
        raise SystemExit(f"--reasoning-core-python {python}: {err.strerror or err}") from None
    if done.returncode != 0:
        raise SystemExit(
            f"Reasoning Core failed under {python} (a venv where `pip install reasoning-core` was run?): "
            f"{done.stderr.strip()[-300:]}"
        )
    return done.stdout
