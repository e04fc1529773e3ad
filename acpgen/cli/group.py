"""The `acp` command group, the single error boundary, and the options its commands share."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import click

from acpgen.errors import AcpError
from acpgen.executors import EXECUTORS
from acpgen.generation.stages import STAGES
from acpgen.nl.describe import REPRESENTATIONS
from acpgen.tasks import ScoreOptions
from acpgen.version import __version__

#: the path types of the options and arguments: a file or folder that must exist
EXISTING_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
EXISTING_DIR = click.Path(exists=True, file_okay=False, path_type=Path)


class AcpGroup(click.Group):
    """Turns library errors into one-line messages (exit 1); ACP_DEBUG=1 keeps the traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except AcpError as err:
            if os.environ.get("ACP_DEBUG"):
                raise
            raise click.ClickException(str(err)) from err


@click.group(cls=AcpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="acp")
@click.option("-v", "--verbose", is_flag=True, help="Log planner calls and decisions to stderr.")
def cli(verbose: bool) -> None:
    """acp: generate and score planning-reasoning benchmarks (ACPBench, ACPBench-Hard).

    \b
    Build the benchmark:   acp dataset                (pipeline.yaml -> dataset/)
    Generate questions:    acp generate --domain ferry --out out/acp --seed 1
    See how a record reads: acp describe --domain ferry out/acp/ferry/prog.gen.jsonl
    lm-eval task files:    acp export lm-eval dataset
    Check a dataset:       acp validate out/acp/ferry/qa
    Score model outputs:   acp score predictions.jsonl --dataset out/acp/ferry/qa
    List the tasks:        acp tasks
    """
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )


def planner_options(func):
    """Options shared by every command that may call planners."""
    func = click.option(
        "--planner-backend",
        type=click.Choice(["local", "apptainer"]),
        default="local",
        show_default=True,
        help="Run planners from the installed wheels or inside an Apptainer image.",
    )(func)
    func = click.option(
        "--image",
        type=click.Path(path_type=Path),
        default=None,
        help="Apptainer image (.sif) built from containers/acp.def (with --planner-backend apptainer).",
    )(func)
    func = click.option(
        "--cache-dir",
        type=click.Path(path_type=Path),
        default=None,
        help="Keep planner results here, keyed by a hash of the exact planner input.",
    )(func)
    func = click.option(
        "--planner-timeout",
        type=float,
        default=20.0,
        show_default=True,
        help="Seconds per planner call; a call that times out is retried once with 4x the budget.",
    )(func)
    func = click.option(
        "--max-states",
        type=int,
        default=ScoreOptions.max_states,
        show_default=True,
        help="Explore the reachable state space exhaustively when it has at most this many states.",
    )(func)
    return func


def executor_options(func):
    """Where the units of work run: --executor local|dask, --scheduler ADDRESS (see docs/cluster.md)."""
    func = click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="A running Dask scheduler (tcp://host:8786, or a scheduler file); implies --executor dask.",
    )(func)
    func = click.option(
        "--executor",
        "executor_kind",
        type=click.Choice(EXECUTORS),
        default=None,
        help="local: -j processes on this machine (default); dask: a Dask cluster (--scheduler, the config's "
        "executor section, or a LocalCluster of -j worker processes).",
    )(func)
    return func


def run_options(func):
    """Options shared by the commands that run the pipeline (`acp generate`, `acp dataset`)."""
    options = [
        click.option(
            "--config",
            "config_path",
            type=EXISTING_FILE,
            default=None,
            help="Pipeline configuration (default: acp's default acpgen/data/pipeline.yaml).",
        ),
        click.option("--seed", type=int, default=None, help="Run seed (default: 'seed' in the config)."),
        click.option(
            "--representation",
            type=click.Choice(REPRESENTATIONS),
            default=None,
            help="What record contexts contain: natural language (nl), the PDDL only (pddl), or both "
            "(pddl+nl). Default: export.representation in the config (nl).",
        ),
        click.option(
            "--formats",
            default=None,
            metavar="LIST",
            help="Question formats, comma-separated: gen (open-ended, ACPBench-Hard), bool, mcq (ACPBench). "
            "Default: qa.formats in the config.",
        ),
        click.option(
            "--tasks",
            "task_names",
            default=None,
            metavar="LIST",
            help="Tasks to ask about, comma-separated (`acp tasks` lists them), e.g. --tasks plan,optplan. "
            "Default: qa.tasks in the config (every task).",
        ),
        click.option(
            "--force",
            "force",
            multiple=True,
            type=click.Choice(list(STAGES)),
            help="Make this stage's artefacts again even where their stamps are current (repeatable); later "
            "stages then redo what changed.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func
