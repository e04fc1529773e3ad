"""How the command line of a planner is built: from the installed wheels or inside Apptainer.

Three tools are known, by the names the Apptainer image gives its wrapper commands:

* ``kstar`` -- K* (``kstar-planner`` wheel): top-k and top-quality planning.
* ``fast-downward`` -- Fast Downward (``up-fast-downward`` wheel). Its driver runs the translator
  as ``python -m fast_downward.translate`` with the wheel's own ``builds/release/bin`` prepended
  to ``PYTHONPATH``, so the translator bundled with that wheel is used (the separately installed
  ``fast-downward-translate`` package provides the same module name as a fallback).
* ``forbiditerative`` -- diverse planning (``forbiditerative`` wheel). Its ``--use-local-folder``
  mode writes into a fresh folder under the hard-coded ``/tmp/planner_runs`` that is left behind
  when a run is killed; acp starts it through :data:`FORBIDITERATIVE_BOOTSTRAP`, which makes that
  folder a subfolder of the current directory (acp's per-call temporary directory) instead.

Tool arguments never contain a build directory: :class:`LocalBackend` adds ``--build`` for the
wheels that need it, and the image's wrapper scripts do the same inside the container.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

from acpgen.errors import ConfigError, ToolError

KSTAR = "kstar"
FAST_DOWNWARD = "fast-downward"
FORBIDITERATIVE = "forbiditerative"
TOOLS = (KSTAR, FAST_DOWNWARD, FORBIDITERATIVE)

#: Python code (for ``python -c``) that runs ``forbiditerative.plan`` with its local run folder
#: placed under the current directory. The Apptainer wrapper in containers/acp.def does the same.
FORBIDITERATIVE_BOOTSTRAP = (
    "import os, runpy\n"
    "import forbiditerative.copy_plans as cp\n"
    "def local_folder(create_found_plans_dir=True):\n"
    "    folder = os.path.join(os.getcwd(), 'fi_run')\n"
    "    os.makedirs(folder, exist_ok=True)\n"
    "    return folder\n"
    "cp.create_local_folder = local_folder\n"
    "runpy.run_module('forbiditerative.plan', run_name='__main__', alter_sys=True)\n"
)


class Backend:
    """Builds the command line that runs ``tool`` with ``args`` in ``workdir``."""

    name = "abstract"
    #: whether run_tool should put RLIMIT_AS on the started process itself
    limits_memory = True

    def command(self, tool: str, args: list[str], workdir: Path) -> list[str]:
        """The full command line (raises ToolError when the tool is not available)."""
        raise NotImplementedError


def _package_dir(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ToolError(f"Python package {module!r} is not installed (pip install acpgen installs it)")
    return Path(next(iter(spec.submodule_search_locations)))


def release_bin(tool: str) -> Path:
    """The ``builds/release/bin`` folder of K*'s or Fast Downward's wheel: its search binary ``downward`` and
    its translator (each wheel has its own; K*'s is older)."""
    if tool == KSTAR:
        return _package_dir("kstar_planner") / "builds" / "release" / "bin"
    if tool == FAST_DOWNWARD:
        return _package_dir("up_fast_downward") / "downward" / "builds" / "release" / "bin"
    raise ToolError(f"no release folder for the planner tool {tool!r} (known: {KSTAR}, {FAST_DOWNWARD})")


class LocalBackend(Backend):
    """The planners of the PyPI wheels installed next to acp (the default)."""

    name = "local"
    limits_memory = True

    def __init__(self, python: str | None = None):
        self.python = python or sys.executable

    def command(self, tool: str, args: list[str], workdir: Path) -> list[str]:
        """Command line for one of :data:`TOOLS` from the installed wheels."""
        if tool == KSTAR:
            return [self.python, "-B", "-m", "kstar_planner.driver.main", "--build", str(release_bin(KSTAR)), *args]
        if tool == FAST_DOWNWARD:
            script = _package_dir("up_fast_downward") / "downward" / "fast-downward.py"
            return [self.python, str(script), *args]
        if tool == FORBIDITERATIVE:
            build = _package_dir("forbiditerative") / "builds" / "release" / "bin"
            return [self.python, "-B", "-c", FORBIDITERATIVE_BOOTSTRAP, "--build", str(build), *args]
        raise ToolError(f"unknown planner tool {tool!r} (known: {', '.join(TOOLS)})")

    def __repr__(self) -> str:
        return "LocalBackend()"


class ApptainerBackend(Backend):
    """The same planners inside an Apptainer image built from ``containers/acp.def``.

    Runs ``apptainer exec --cleanenv --bind WORKDIR --pwd WORKDIR IMAGE TOOL ARGS``; the image
    provides the wrapper commands ``kstar``, ``fast-downward`` and ``forbiditerative``. No
    RLIMIT_AS is put on the apptainer process itself (its Go runtime reserves much address
    space); the memory limit reaches the planners through their own ``--overall-memory-limit``.
    """

    name = "apptainer"
    limits_memory = False

    def __init__(self, image: Path, executable: str = "apptainer"):
        self.image = Path(image)
        self.executable = executable

    def command(self, tool: str, args: list[str], workdir: Path) -> list[str]:
        """``apptainer exec`` command line running ``tool`` of the image in ``workdir``."""
        if tool not in TOOLS:
            raise ToolError(f"unknown planner tool {tool!r} (known: {', '.join(TOOLS)})")
        exe = shutil.which(self.executable)
        if exe is None:
            raise ToolError(f"{self.executable!r} not found on PATH (needed by --planner-backend apptainer)")
        if not self.image.is_file():
            raise ToolError(f"Apptainer image {self.image} does not exist")
        workdir = Path(workdir).resolve()
        return [
            exe,
            "exec",
            "--cleanenv",
            "--bind",
            str(workdir),
            "--pwd",
            str(workdir),
            str(self.image.resolve()),
            tool,
            *args,
        ]

    def __repr__(self) -> str:
        return f"ApptainerBackend({str(self.image)!r})"


def make_backend(name: str, image: Path | None = None) -> Backend:
    """The backend called ``name`` ("local" or "apptainer"; the latter needs ``image``)."""
    if name == "local":
        return LocalBackend()
    if name == "apptainer":
        if image is None:
            raise ConfigError(
                "--planner-backend apptainer needs --image PATH.sif "
                "(build one with: apptainer build acp.sif containers/acp.def)"
            )
        if not Path(image).is_file():
            raise ConfigError(
                f"Apptainer image {image} not found (build one with: apptainer build acp.sif containers/acp.def)"
            )
        return ApptainerBackend(Path(image))
    raise ConfigError(f"unknown planner backend {name!r}: use 'local' or 'apptainer'")
