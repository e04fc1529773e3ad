"""The `acp` command line: thin commands over the library, one module per group of commands.

``group`` holds the command group (the single error boundary: a library error becomes a one-line message) and
the options commands share; ``scoring`` the judging of answers and records (score, validate,
reference-answers); ``generation`` the making of records (generate, dataset); ``export`` the exports and
reports; ``domains`` the commands about domains, problems and tasks (describe, template, equivalent, tasks).
"""

from __future__ import annotations

from acpgen.cli import domains, export, generation, scoring
from acpgen.cli.group import cli

__all__ = ["cli", "main"]
_COMMANDS = (domains, export, generation, scoring)  # imported for the commands they add to the group


def main() -> None:
    cli(prog_name="acp")
