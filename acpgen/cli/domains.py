"""`acp describe`, `acp template`, `acp equivalent` and `acp tasks`: domains, problems and tasks."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from acpgen.artefacts import atomic_write_text, write_jsonl
from acpgen.cli.group import EXISTING_FILE, cli, planner_options
from acpgen.executors import make_executor
from acpgen.generators import domain_file
from acpgen.nl.describe import REPRESENTATIONS, Describer
from acpgen.nl.scaffold import starting_template
from acpgen.nl.template import load_template
from acpgen.pddl.tarski_io import read_domain, read_strings
from acpgen.planners import Limits, PlannerSetup
from acpgen.proofs.equivalence import EquivalenceChecker, check_pairs, pair_line, read_pairs
from acpgen.tasks import TASKS, get_task, task_texts


@cli.command("describe")
@click.argument("source", type=EXISTING_FILE)
@click.option("--domain", required=True, help="Domain whose template and PDDL domain to use (e.g. ferry).")
@click.option(
    "--task",
    type=click.Choice(list(TASKS)),
    default=None,
    help="Render the context of this task (default: each record's own task; app for a PDDL file).",
)
@click.option("--representation", type=click.Choice(REPRESENTATIONS), default="nl", show_default=True)
@click.option(
    "--limit", type=click.IntRange(min=1), default=3, show_default=True, help="Records to render from a JSONL file."
)
def describe(source: Path, domain: str, task: str | None, representation: str, limit: int) -> None:
    """Show how a problem or question reads: the context (and question) from acpgen/data/templates/DOMAIN.yaml.

    \b
    SOURCE is a PDDL problem file or a JSONL file of questions (qa/<task>.jsonl, <task>.gen.jsonl):
      acp describe --domain ferry out/acp/ferry/problems/p001.pddl
      acp describe --domain ferry out/acp/ferry/qa/prog.jsonl --limit 2
    """
    domain_text = domain_file(domain).read_text()
    template = load_template(domain, tasks=task_texts())
    if source.suffix in (".jsonl", ".json"):
        records = [json.loads(line) for line in source.read_text().splitlines() if line.strip()][:limit]
    else:
        records = [{"PDDL_domain": domain_text, "PDDL_problem": source.read_text(), "task": task or "app"}]
    for record in records:
        record_task = task or record.get("task") or "app"
        lifted = read_strings(domain_text, record["PDDL_problem"], str(source))
        describer = Describer(template, lifted)
        shown = get_task(record_task)
        click.echo(shown.context(describer, {**record, "PDDL_domain": domain_text}, representation))
        if all(field in record for field in shown.question_fields):
            click.echo("Question: " + describer.question(shown, record, representation))
        click.echo()


@cli.group("template")
def template_group() -> None:
    """Natural-language templates of your own domains."""


@template_group.command("init")
@click.argument("domain_file", type=EXISTING_FILE)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Template file to write (default: <domain name>.yaml in the current folder); never overwritten.",
)
def template_init(domain_file: Path, output: Path | None) -> None:
    """Write a starting template for DOMAIN_FILE: a placeholder text for every predicate and action
    (its name and parameters), and the description and size as TODO texts for you to write.

    \b
      acp template init my/domain.pddl -o my.yaml     # then edit my.yaml
      acp generate --domain-file my/domain.pddl --problems my/problems --template my.yaml
    """
    text = starting_template(domain_file)
    target = output or Path(f"{read_domain(domain_file).domain_name}.yaml")
    if target.exists():
        raise click.ClickException(f"{target} exists; acp does not overwrite a template (give another -o)")
    atomic_write_text(target, text)
    click.echo(f"wrote {target}: replace its TODO texts, then pass it to acp generate --template", err=True)


@cli.command("equivalent")
@click.argument("domain", type=EXISTING_FILE)
@click.argument("truth", type=EXISTING_FILE, required=False)
@click.argument("candidate", type=EXISTING_FILE, required=False)
@click.option("--placeholder", is_flag=True, help="The truth's goal names no particular objects (any fitting ones do).")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the verdict as one line of JSON (the default is indented)."
)
@click.option(
    "--pairs",
    type=EXISTING_FILE,
    default=None,
    help="Check many pairs instead: a JSONL file, one {truth, candidate, placeholder?, id?} per line "
    "(PDDL texts); each truth is analysed once for all its candidates.",
)
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), default=None, help="With --pairs: write the verdicts here."
)
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="With --pairs: processes.")
@planner_options
def equivalent_command(
    domain: Path,
    truth: Path | None,
    candidate: Path | None,
    placeholder: bool,
    as_json: bool,
    pairs: Path | None,
    output: Path | None,
    jobs: int,
    planner_backend: str,
    image: Path | None,
    cache_dir: Path | None,
    planner_timeout: float,
    max_states: int,
) -> None:
    """Is CANDIDATE the same planning problem as TRUTH (both over DOMAIN)?

    Prints {"parseable", "solvable", "equivalent", "reason"}: equivalent when a bijection of the
    objects maps one initial state onto the other and both goals, closed under the facts true in
    every reachable goal state, onto each other. Exit status 0 if equivalent, 1 if not, 2 if
    undecided (a planner could not answer).

    \b
    Many pairs at once (each truth parsed, explored and closed once for all its candidates):
      acp equivalent DOMAIN --pairs pairs.jsonl -j 2 -o verdicts.jsonl
    pairs.jsonl: {"id": 7, "truth": "(define (problem ...", "candidate": "...", "placeholder": false}
    per line; the output has one line per pair, in order: the id and the verdict (or "error").
    Exit status 0 if every pair was decided, 2 otherwise.
    """
    setup = PlannerSetup(planner_backend, image, cache_dir)
    domain_text = _read_text(domain)
    if pairs is not None:
        if truth is not None or candidate is not None:
            raise click.UsageError("give TRUTH and CANDIDATE, or --pairs, not both")
        _equivalent_pairs(domain_text, pairs, output, jobs, setup, Limits(time=planner_timeout), max_states)
        return
    if truth is None or candidate is None:
        raise click.UsageError("give TRUTH and CANDIDATE (or --pairs FILE)")
    checker = EquivalenceChecker(domain_text, setup.build(), max_states=max_states, limits=Limits(time=planner_timeout))
    result = checker.check(_read_text(truth), _read_text(candidate), placeholder)
    click.echo(json.dumps(result.to_json(), indent=None if as_json else 1))
    sys.exit({True: 0, False: 1, None: 2}[result.equivalent])


def _read_text(path: Path) -> str:
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError) as err:
        raise click.ClickException(f"cannot read {path}: {err}") from err


_VERDICT_WORDS = {True: "equivalent", False: "not equivalent", None: "undecided"}


def _equivalent_pairs(
    domain_text: str, path: Path, output: Path | None, jobs: int, setup: PlannerSetup, limits: Limits, max_states: int
) -> None:
    """`acp equivalent --pairs`: the verdicts as JSONL (stdout or ``output``), a count line on stderr."""
    items = read_pairs(path)
    start = time.perf_counter()
    lines, counts = [], {"equivalent": 0, "not equivalent": 0, "undecided": 0, "error": 0}
    with make_executor("local", jobs=jobs) as executor:
        verdicts = check_pairs(
            domain_text, [p for _, p in items], setup=setup, executor=executor, max_states=max_states, limits=limits
        )
        for (pair_id, _), verdict in zip(items, verdicts):
            line = pair_line(pair_id, verdict)
            kind = "error" if "error" in line else _VERDICT_WORDS[line["equivalent"]]
            counts[kind] += 1
            lines.append(line)
            if output is None:
                click.echo(json.dumps(line))
    if output is not None:
        write_jsonl(output, lines)
    seconds = time.perf_counter() - start
    summary = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    click.echo(f"{len(lines)} pairs in {seconds:.1f} s ({len(lines) / seconds:.1f} pairs/s): {summary}", err=True)
    sys.exit(0 if counts["undecided"] + counts["error"] == 0 else 2)


@cli.command("tasks")
def tasks_list() -> None:
    """List the tasks with their short names and reference group names."""
    for task in TASKS.values():
        click.echo(f"{task.name:7} {task.gen_group:26} {task.description}")
