"""`acp describe`, `acp template`, `acp equivalent` and `acp tasks`: domains, problems and tasks."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import click
import yaml

from acpgen.artefacts import atomic_write_text, write_jsonl
from acpgen.cli.group import EXISTING_FILE, cli, planner_options
from acpgen.data import load_yaml
from acpgen.errors import AcpError, DataError, PddlError
from acpgen.executors import make_executor
from acpgen.generators import domain_file
from acpgen.nl.describe import REPRESENTATIONS, Describer
from acpgen.nl.scaffold import starting_template
from acpgen.nl.template import DomainTemplate, TemplateError, load_template, load_template_file
from acpgen.pddl.tarski_io import read_domain, read_domain_text, read_strings
from acpgen.planners import Limits, PlannerSetup
from acpgen.proofs.equivalence import EquivalenceChecker, Pair, check_pairs, pair_line, read_pairs
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
    """Write a starting template for DOMAIN_FILE: a text for every predicate and action made from its
    name and its typed parameters ("van {v} at city {c}"), for you to reword, and the description and
    size as TODO texts for you to write.

    \b
      acp template init my/domain.pddl -o my.yaml     # then edit my.yaml
      acp template check my.yaml --domain-file my/domain.pddl
      acp generate --domain-file my/domain.pddl --problems my/problems --template my.yaml
    """
    text = starting_template(domain_file)
    target = output or Path(f"{read_domain(domain_file).domain_name}.yaml")
    if target.exists():
        raise click.ClickException(f"{target} exists; acp does not overwrite a template (give another -o)")
    atomic_write_text(target, text)
    click.echo(f"wrote {target}: replace its TODO texts, then pass it to acp generate --template", err=True)


@template_group.command("check")
@click.argument("template_file", type=EXISTING_FILE)
@click.option("--domain-file", type=EXISTING_FILE, required=True, help="The PDDL domain the template is written for.")
def template_check(template_file: Path, domain_file: Path) -> None:
    """Check TEMPLATE_FILE against the PDDL domain of --domain-file: the checks acp generate --template
    runs before its first stage. Every predicate and action has an entry whose text uses exactly its
    parameters, no text still says TODO, and no two predicates or two actions (nor an action and a wrong
    action) read the same: texts equal once their objects are left open ("{} is at {}"), over types an
    object can have in common.

    Exit status: 0 the template passes (one line: its predicates and actions); 1 findings, one line
    each (the file, the entries, what is wrong, the fix); 2 a file that cannot be read (a template that
    is not YAML, a domain that does not parse).

    \b
      acp template check my.yaml --domain-file my/domain.pddl
    """
    try:
        lifted = read_domain(domain_file)
    except PddlError as err:
        raise _BadInput(str(err)) from err  # the message names the file
    try:
        load_yaml(template_file.read_text())
    except (OSError, UnicodeDecodeError) as err:
        raise _BadInput(f"{template_file}: cannot read ({err})") from err
    except yaml.YAMLError as err:
        raise _BadInput(f"{template_file}: not valid YAML ({err})") from err
    findings: list[str] = []
    template: DomainTemplate | None = None
    try:
        template = load_template_file(template_file, lifted.domain_name, tasks=task_texts())
    except TemplateError as err:
        findings.append(str(err))
    if template is not None:
        try:
            template.check(lifted, unambiguous=False)
        except TemplateError as err:
            findings.append(str(err))
        findings += [clash.message(template_file) for clash in template.text_clashes(lifted)]
    if findings:
        for finding in findings:
            click.echo(finding)
        click.echo(f"{template_file}: {len(findings)} finding(s)", err=True)
        sys.exit(1)
    predicates = len([p for p in lifted.predicates if p != "="])
    click.echo(
        f"{template_file}: OK for domain {lifted.domain_name}: {predicates} predicates, {len(lifted.schemas)} actions"
    )


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
    every reachable goal state, onto each other. A CANDIDATE that does not parse is a verdict:
    not equivalent, "parseable": false, the reason naming the file.

    \b
    Exit status, as cmp and diff:
      0  equivalent
      1  not equivalent (a CANDIDATE that does not parse among them)
      2  bad input: a DOMAIN or TRUTH that does not parse, a file that
         cannot be read, a usage error; or a planner that cannot start
      3  undecided (a planner could not answer)

    \b
    Many pairs at once (each truth parsed, explored and closed once for all its candidates):
      acp equivalent DOMAIN --pairs pairs.jsonl -j 2 -o verdicts.jsonl
    pairs.jsonl: {"id": 7, "truth": "(define (problem ...", "candidate": "...", "placeholder": false}
    per line; the output has one line per pair, in order: the id and the verdict (or "error").
    Exit status 0 if every pair was decided, 2 for a bad pairs file or DOMAIN,
    3 if a pair was undecided or not checked (an "error" line: a truth that
    does not parse, a worker that failed).
    """
    if pairs is not None and (truth is not None or candidate is not None):
        raise click.UsageError("give TRUTH and CANDIDATE, or --pairs, not both")
    if pairs is None and (truth is None or candidate is None):
        raise click.UsageError("give TRUTH and CANDIDATE (or --pairs FILE)")
    setup, limits = PlannerSetup(planner_backend, image, cache_dir), Limits(time=planner_timeout)
    try:  # a verdict exits 0, 1 or 3; anything acp cannot read or run, 2
        domain_text = _read_text(domain, "DOMAIN")
        read_domain_text(domain_text, f"DOMAIN {domain}")  # so that its errors name it, not the problems
        if pairs is not None:
            _equivalent_pairs(domain_text, read_pairs(pairs), output, jobs, setup, limits, max_states)
        elif truth is not None and candidate is not None:
            truth_text = _read_text(truth, "TRUTH")
            candidate_text = _read_text(candidate, "CANDIDATE", undecodable=True)
            checker = EquivalenceChecker(domain_text, setup.build(), max_states=max_states, limits=limits)
            result = checker.check(
                truth_text,
                candidate_text,
                placeholder,
                truth_name=f"TRUTH {truth}",
                candidate_name=f"CANDIDATE {candidate}",
            )
            click.echo(json.dumps(result.to_json(), indent=None if as_json else 1))
            sys.exit({True: 0, False: 1, None: UNDECIDED}[result.equivalent])
    except AcpError as err:  # a truth that does not parse (a candidate is judged), a bad pairs file, no planner
        raise _BadInput(str(err)) from err


BAD_INPUT, UNDECIDED = 2, 3  # `acp equivalent`'s exit statuses besides 0 (equivalent) and 1 (not)


class _BadInput(click.ClickException):
    """Input acp cannot read, or a run it cannot make: exit status 2, as click's usage errors."""

    exit_code = BAD_INPUT


def _read_text(path: Path, role: str, *, undecodable: bool = False) -> str:
    """The text of the file ``path`` (DataError naming it as ``role`` when it cannot be read); ``undecodable``:
    bytes that are not UTF-8 are replaced (a model's answer is judged, whatever its bytes)."""
    try:
        return path.read_text(errors="replace" if undecodable else "strict")
    except (OSError, UnicodeDecodeError) as err:
        raise DataError(f"{role} {path}: cannot read ({err})") from err


_VERDICT_WORDS = {True: "equivalent", False: "not equivalent", None: "undecided"}


def _equivalent_pairs(
    domain_text: str,
    items: list[tuple[Any, Pair]],
    output: Path | None,
    jobs: int,
    setup: PlannerSetup,
    limits: Limits,
    max_states: int,
) -> None:
    """`acp equivalent --pairs`: the verdicts as JSONL (stdout or ``output``), a count line on stderr; exit
    status 0 when every pair was decided, else 3."""
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
    sys.exit(0 if counts["undecided"] + counts["error"] == 0 else UNDECIDED)


@cli.command("tasks")
def tasks_list() -> None:
    """List the tasks with their short names and reference group names."""
    for task in TASKS.values():
        click.echo(f"{task.name:7} {task.gen_group:26} {task.description}")
