"""The `acp` command line: thin commands over the library; the single error boundary."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import sys
import time
from pathlib import Path

import click

from acpgen.adapters.lmeval import export_lm_eval
from acpgen.artefacts import atomic_write_text, write_jsonl
from acpgen.config import OBFUSCATIONS, check_formats, load_config
from acpgen.errors import AcpError
from acpgen.evaluation import arb, peers, planetarium
from acpgen.evaluation.planbench import failure_rates, planbench_predictions
from acpgen.evaluation.records import Dataset, iter_predictions, reference_predictions
from acpgen.evaluation.scoring import Summary, flag_rates, score_predictions
from acpgen.evaluation.validate import validate_records, verdict_counts
from acpgen.executors import EXECUTORS, make_executor
from acpgen.generation.benchmark import build_dataset, counts_table
from acpgen.generation.levels import at_level
from acpgen.generation.pipeline import fell_short, run_domains, stages_up_to
from acpgen.generation.sources import DomainSource
from acpgen.generation.stages import STAGES
from acpgen.generation.stages.base import StageReport
from acpgen.generators import domain_file
from acpgen.nl.describe import REPRESENTATIONS, Describer
from acpgen.nl.scaffold import starting_template
from acpgen.nl.template import load_template
from acpgen.pddl.tarski_io import read_domain, read_strings
from acpgen.planners import Limits, PlannerSetup
from acpgen.proofs.equivalence import EquivalenceChecker, check_pairs, pair_line, read_pairs
from acpgen.tasks import TASKS, UNDECIDED, ScoreOptions, get_task, task_texts
from acpgen.tasks.base import ERROR, OK, UNPROVEN, WRONG, Outcome
from acpgen.version import __version__


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
            type=click.Path(exists=True, dir_okay=False, path_type=Path),
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


@cli.command("score")
@click.argument("predictions", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--dataset",
    type=click.Path(exists=True, path_type=Path),
    default=None,
    help="Records file (JSON list or JSONL, .gz allowed) or folder of them. Not needed for lm-eval samples files.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write every input line with score, status and reason to this JSONL file.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON instead of a table.")
@click.option(
    "--recheck",
    is_flag=True,
    help="Re-prove every answer, also for records acp proved itself (default: re-prove answers to any other record).",
)
@click.option(
    "--trust-stored",
    is_flag=True,
    help="Trust every record's stored answer sets, acp's or not (the papers' reading; inherits the reference "
    "data's provably wrong answers).",
)
@click.option(
    "--strict-just",
    is_flag=True,
    help="Justification: accept only the removal of one action or two consecutive actions.",
)
@click.option(
    "--strict-reading",
    is_flag=True,
    help="The reading for rewards: parts of a set answer that read as nothing make it wrong (default: left out "
    "and named in the reason). Rows whose two readings differ carry both.",
)
@click.option(
    "--planbench-domain",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="PREDICTIONS are PlanBench task files (responses/ or results/ JSON): their domain PDDL file.",
)
@click.option(
    "--planbench-instances",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="With --planbench-domain: the folder of their instance-N.pddl files.",
)
@click.option(
    "--planbench-config",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="With --planbench-domain: the PlanBench config (configs/<domain>.yaml) wording the answers "
    "(default: built in for the blocksworld family; otherwise answers are read as PDDL actions).",
)
@click.option(
    "--domain-file",
    "domain_files",
    multiple=True,
    metavar="NAME=PATH",
    help="With --dataset of Planetarium rows: the PDDL domain of the rows whose domain is NAME (repeatable; "
    "default: a domains.jsonl table beside the rows, else acp's domain of that name).",
)
@click.option(
    "--search-states",
    type=click.IntRange(min=0),
    default=ScoreOptions.search_states,
    show_default=True,
    help="Before a planner is asked for a path (a state reached, a plan avoiding an atom, a plan as short as a "
    "proven lower bound), search this many states in acp's own process (0: never).",
)
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Parallel workers.")
@executor_options
@planner_options
def score(
    predictions: tuple[Path, ...],
    dataset: Path | None,
    domain_files: tuple[str, ...],
    output: Path | None,
    as_json: bool,
    recheck: bool,
    trust_stored: bool,
    strict_just: bool,
    strict_reading: bool,
    planbench_domain: Path | None,
    planbench_instances: Path | None,
    planbench_config: Path | None,
    jobs: int,
    executor_kind: str | None,
    scheduler: str | None,
    planner_backend: str,
    image: Path | None,
    cache_dir: Path | None,
    planner_timeout: float,
    max_states: int,
    search_states: int,
) -> None:
    """Score model answers: open-ended (ACPBench-Hard) symbolically, yes/no and A-D (ACPBench) leniently.

    PREDICTIONS is one or more JSONL files with one model output per line, {"id": <record id>,
    "response": "<text>"}, optionally with "task" (app, prog, reach, areach, val, just, land, nexta;
    app.bool, app.mcq, ... for the ACPBench formats) or "group" when an id occurs in several tasks.
    Extra fields are passed through to --output. lm-evaluation-harness --log_samples files
    (samples_*.jsonl) are read directly, without --dataset. PlanBench task files
    (plan generation, optimality, generalization, goal reformulation) are scored with
    --planbench-domain and --planbench-instances, as acp's plan and optplan tasks.
    --dataset also reads the peers' rows: Planetarium's (JSONL or Parquet; their
    parseable, solvable and equivalent rates per domain, abstraction and size band
    are printed) and the ActionReasoningBench rows `acp export arb` writes.

    \b
    Status per answer: scored (score 0 or 1), parse_error (score 0),
    undecided (a planner gave no answer even with a larger budget; not counted in accuracy).

    \b
    Exact by default: answers to records acp generated (and proved) are compared with their stored
    answer sets; answers to any other record, such as the reference ACPBench data, are re-proven,
    so its provably wrong stored answers are not inherited. --trust-stored reproduces the papers'
    reading (stored sets trusted everywhere); --recheck re-proves everything.
    """
    if recheck and trust_stored:
        raise click.UsageError("--recheck and --trust-stored exclude each other")
    planbench = planbench_domain is not None or planbench_instances is not None
    if planbench_domain is not None and planbench_instances is not None and dataset is None:
        items = [
            item
            for path in predictions
            for item in planbench_predictions(path, planbench_domain, planbench_instances, planbench_config)
        ]
    elif planbench:
        raise click.UsageError("--planbench-domain and --planbench-instances go together, without --dataset")
    else:
        if domain_files and dataset is None:
            raise click.UsageError("--domain-file goes with --dataset (Planetarium rows)")
        records = None
        if dataset is not None:
            domains = planetarium.read_domains(domain_files, dataset)
            records = Dataset.load(dataset, foreign=peers.reader(domains))
        items = [item for path in predictions for item in iter_predictions(path, records)]
    options = ScoreOptions(
        recheck=recheck,
        trust_stored=trust_stored,
        strict_just=strict_just,
        strict_reading=strict_reading,
        max_states=max_states,
        search_states=search_states,
        limits=Limits(time=planner_timeout),
    )
    setup = PlannerSetup(planner_backend, image, cache_dir)
    with make_executor(executor_kind, jobs=jobs, scheduler=scheduler) as executor:
        results = score_predictions(items, options, setup, jobs=jobs, progress=sys.stderr.isatty(), executor=executor)
    if output:
        write_jsonl(output, [r.output_line() for r in results])
    summary = Summary.of(results)
    click.echo(json.dumps(summary.as_dict(), indent=2, sort_keys=True) if as_json else summary.table())
    rates = flag_rates(results)
    if rates and not as_json:
        click.echo(rates)
    if planbench and not as_json:
        click.echo(failure_rates(results))
    undecided = sum(r.verdict.status == UNDECIDED for r in results)
    if undecided:
        click.echo(
            f"warning: {undecided} answers undecided (planner timeout or error); see 'reason' in the output", err=True
        )


@cli.command("validate")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per record: id, task, verdict, reason.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Parallel workers.")
@executor_options
@planner_options
def validate(
    path: Path,
    as_json: bool,
    jobs: int,
    executor_kind: str | None,
    scheduler: str | None,
    planner_backend: str,
    image: Path | None,
    cache_dir: Path | None,
    planner_timeout: float,
    max_states: int,
) -> None:
    """Re-prove the stored answer of every record under PATH (file or folder).

    Reads reference-format records and acp's own files (symbolic qa/<task>.jsonl and exported
    records). app, prog and val answers are recomputed; every stored reach, areach, land and nexta
    element is re-proven; justification lists are compared with all valid removals.
    Verdicts: ok, wrong (with the reason), unproven (a planner gave no answer), error (the check
    raised an exception: a bug in acp or a record it cannot handle; type and message are shown).
    Exit status 1 if any answer is wrong or any check raised.
    """
    dataset = Dataset.load(path)
    items = [(task, record) for (task, _), record in sorted(dataset.records.items(), key=lambda kv: kv[0])]
    options = ScoreOptions(
        max_states=max_states, limits=Limits(time=planner_timeout), second_opinion=True, external_validators=True
    )
    setup = PlannerSetup(planner_backend, image, cache_dir)
    with make_executor(executor_kind, jobs=jobs, scheduler=scheduler) as executor:
        results = validate_records(items, options, setup, jobs=jobs, progress=sys.stderr.isatty(), executor=executor)
    for result in results:
        if as_json:
            click.echo(json.dumps(result.as_dict(), sort_keys=True))
        elif result.verdict != Outcome.OK:
            click.echo(f"{result.verdict:8} {result.task:6} {result.id}: {result.reason}")
    counts = verdict_counts(results)
    click.echo(
        f"{len(results)} records: {counts[OK]} ok, {counts[WRONG]} wrong, {counts[UNPROVEN]} unproven, "
        f"{counts[ERROR]} errors (a check that raised)",
        err=True,
    )
    if counts[WRONG] or counts[ERROR]:
        sys.exit(1)


@cli.command("reference-answers")
@click.argument("dataset", type=click.Path(exists=True, path_type=Path))
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True, help="Predictions JSONL to write."
)
def reference_answers(dataset: Path, output: Path) -> None:
    """Write the stored answers of DATASET as predictions, one line per correct answer.

    Scoring this file with `acp score` checks a dataset and the scorer together: every line
    should score 1, except where a stored answer is provably wrong (visible with --recheck).
    """
    lines = list(reference_predictions(Dataset.load(dataset)))
    write_jsonl(output, lines)
    click.echo(f"wrote {len(lines)} predictions to {output}", err=True)


@cli.command("generate")
@click.option(
    "--domain",
    "domains",
    multiple=True,
    help="Domain to generate (repeatable), or 'all' for every domain in the config.",
)
@click.option(
    "--domain-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Your own PDDL domain (instead of --domain); its problems come from --problems.",
)
@click.option(
    "--problems",
    "problems_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="With --domain-file: the folder of your problem files (*.pddl), taken in file-name order.",
)
@click.option(
    "--template",
    "template_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="With --domain-file: your natural-language template (`acp template init` writes a start); "
    "without one, only --representation pddl is possible.",
)
@click.option(
    "--name",
    "domain_name",
    default=None,
    help="With --domain-file: the domain's name in records and under OUT/ (default: its PDDL name).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder (default: 'out' in the config); artefacts go to OUT/<domain>/.",
)
@click.option(
    "--stage",
    type=click.Choice(list(STAGES)),
    default=None,
    help="Run the stages up to and including this one (default: all stages).",
)
@click.option(
    "--level",
    type=click.IntRange(1, 5),
    default=None,
    help="Difficulty 1-5: the level's share of each domain's sizes and states at its distance from the goal "
    "(acpgen/generation/levels.py; `levels` in the config).",
)
@click.option(
    "--obfuscate",
    type=click.Choice(OBFUSCATIONS),
    default=None,
    help="Rename the domain and its problems so that no name means anything (PlanBench's Mystery variants): "
    "mystery gives each domain one fixed mapping to unrelated English words (objects keep their names), "
    "random seeded random strings (objects become o0, o1, ...). Records carry the renaming; artefacts go to "
    "OUT/<domain>-<mode>/. Default: obfuscate in the config (none).",
)
@run_options
@click.option(
    "--strict",
    is_flag=True,
    help="Exit 1 also when a file holds fewer records than asked for (the states give no more), as acp dataset "
    "does; by default such files are written with what the states give, and named.",
)
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Parallel workers.")
@executor_options
def generate(
    domains: tuple[str, ...],
    domain_file: Path | None,
    problems_dir: Path | None,
    template_file: Path | None,
    domain_name: str | None,
    out: Path | None,
    seed: int | None,
    stage: str | None,
    level: int | None,
    obfuscate: str | None,
    config_path: Path | None,
    representation: str | None,
    formats: str | None,
    task_names: str | None,
    force: tuple[str, ...],
    strict: bool,
    jobs: int,
    executor_kind: str | None,
    scheduler: str | None,
) -> None:
    """Generate benchmark material for DOMAIN, stage by stage.

    \b
    Stages: problems -> plans -> states -> qa -> export (artefacts under OUT/<domain>/):
      problems/pNNN.pddl  seeded problems (solvability checked where not guaranteed)
      plans/pNNN.json     top-quality plans (small state spaces: read off the graph; else K*,
                          diverse planning as fallback), each re-validated
      states.jsonl        states along the plans and random rollouts from them
      qa/<task>.jsonl     symbolic questions with verified answers for every task and format
      <task>.gen.jsonl    the records: reference schema, text from acpgen/data/templates/<domain>.yaml
    Every stage resumes: finished files are kept, and files are written atomically, so a killed
    run can simply be started again. Each artefact's stamp (OUT/<domain>/stamps/) records what it
    was made from (inputs, config, templates, code); a file whose stamp changed is made again.
    The same seed and config give byte-identical artefacts (while planners finish within their
    time budgets). Exit status 1 if any stage failed (a problem without a plan, a unit that
    crashed, ...); the last line names the domains and stages. A qa file with fewer questions than
    asked for (a small level's states give no more) is written with what they give and named
    ("short"); --strict makes that exit 1 too.

    \b
    Your own domain: the problems stage copies your problem files (each checked: it parses, and
    its goal is relaxed-reachable; a failing one is reported and skipped):
      acp generate --domain-file my/domain.pddl --problems my/problems --template my.yaml --out out
    """
    config = run_config(config_path, out, seed, representation, formats, task_names).with_overrides(obfuscate=obfuscate)
    source = own_domain(domains, domain_file, problems_dir, template_file, domain_name)
    if source is not None:
        source = source.obfuscated_as(config.obfuscate, config.seed)
    if level is not None and source is not None:
        raise click.UsageError("--level goes with --domain (it chooses among the generator's sizes)")
    if source is not None and "export" in stages_up_to(stage):
        source.check_representation(config.export.representation)  # before hours of planning, not after
    names = [source.name] if source else list(config.domains) if "all" in domains else list(domains)
    if level is not None:
        config = at_level(config, names, level)
    reports: list[StageReport] = []

    def report(stage_report: StageReport) -> None:
        echo_report(stage_report)
        reports.append(stage_report)

    with make_executor(executor_kind, jobs=jobs, scheduler=scheduler, config=config.executor) as executor:
        runs = run_domains(
            config,
            names,
            config.planner.setup(config.out),
            stages=stages_up_to(stage),
            jobs=jobs,
            progress=sys.stderr.isatty(),
            report=report,
            force=frozenset(force),
            source=source,
            executor=executor,
            timed=lambda name, seconds: click.echo(f"stage {name}: {seconds:.1f} s", err=True),
        )
        for name, counts in runs:
            click.echo(
                f"{name}: {counts['problems']} problems, {counts['plans']} plans, {counts['states']} states, "
                f"{counts['questions']} questions"
            )
    short = fell_short(reports, strict=strict)
    if short:
        click.echo(f"fell short: {short}; see the failures above", err=True)
        sys.exit(1)
    fewer = fell_short(reports)
    if fewer:
        click.echo(f"fewer records than asked for: {fewer}; see the lines 'short:' above (--strict: exit 1)", err=True)


def own_domain(
    domains: tuple[str, ...],
    domain_file: Path | None,
    problems_dir: Path | None,
    template_file: Path | None,
    name: str | None,
) -> DomainSource | None:
    """The user's domain of `acp generate --domain-file`, or None for built-in --domain runs."""
    if domain_file is None:
        if problems_dir or template_file or name:
            raise click.UsageError("--problems, --template and --name go with --domain-file")
        if not domains:
            raise click.UsageError("give --domain NAME (a built-in domain, or 'all') or --domain-file with --problems")
        return None
    if domains:
        raise click.UsageError("give either --domain or --domain-file, not both")
    if problems_dir is None:
        raise click.UsageError("--domain-file needs --problems FOLDER (the folder of your problem files)")
    return DomainSource.from_files(domain_file, problems_dir, template_file, name)


def run_config(
    path: Path | None,
    out: Path | None,
    seed: int | None,
    representation: str | None,
    formats: str | None,
    task_names: str | None = None,
):
    """The configuration of a pipeline run: the config file with the options of `run_options` and the
    artefacts folder applied."""
    config = load_config(path).with_overrides(seed=seed, out=str(out) if out else None)
    if representation:
        config = dataclasses.replace(config, export=dataclasses.replace(config.export, representation=representation))
    if formats:
        config = dataclasses.replace(
            config, qa=dataclasses.replace(config.qa, formats=check_formats(formats, "--formats"))
        )
    if task_names:
        chosen = tuple(get_task(name.strip()).name for name in task_names.split(",") if name.strip())
        if not chosen:
            raise click.UsageError("--tasks needs at least one task name (see `acp tasks`)")
        config = dataclasses.replace(config, qa=dataclasses.replace(config.qa, tasks=chosen))
    return config


def echo_report(report) -> None:
    click.echo(report.summary(), err=True)
    for failure in report.failed:
        click.echo(f"  failed: {failure}", err=True)
    for short in report.short:
        click.echo(f"  short: {short}", err=True)


@cli.command("dataset")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Dataset folder (default: dataset.out in the config); splits go to OUT/<task>/<split>.gen.jsonl.",
)
@click.option(
    "--work",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of the generation artefacts (default: 'out' in the config).",
)
@run_options
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=2, show_default=True, help="Parallel workers.")
@executor_options
def dataset_command(
    config_path: Path | None,
    out: Path | None,
    work: Path | None,
    seed: int | None,
    representation: str | None,
    formats: str | None,
    task_names: str | None,
    force: tuple[str, ...],
    jobs: int,
    executor_kind: str | None,
    scheduler: str | None,
) -> None:
    """Build the whole benchmark from the config: every domain, all stages, test and dev splits.

    \b
    Then re-proves every stored answer (as `acp validate`), scores every stored answer as a model
    answer (as `acp score` on `acp reference-answers`), prints counts per task and domain, and
    writes OUT/manifest.json. Exit status 1 if a stage fell short, a record is wrong, unproven or
    its check raised an error, a stored answer does not score 1, or a domain gave fewer questions
    than the splits need.
      make dataset                                     # pipeline.yaml -> dataset/
      acp dataset --config tests/fixtures/pipeline/ci.yaml --out /tmp/ds
    """
    config = run_config(config_path, work, seed, representation, formats, task_names)
    with make_executor(executor_kind, jobs=jobs, scheduler=scheduler, config=config.executor) as executor:
        built = build_dataset(
            config,
            Path(out or config.dataset.out),
            jobs=jobs,
            progress=sys.stderr.isatty(),
            report=echo_report,
            force=frozenset(force),
            executor=executor,
        )
    assembly, checks, seconds, domains, target = (
        built.assembly,
        built.checks,
        built.seconds,
        built.domains,
        built.target,
    )
    click.echo(counts_table(assembly, domains))
    click.echo(
        f"{checks.records} records in {target}; validate: {checks.validate['ok']} ok, "
        f"{checks.validate['wrong']} wrong, {checks.validate['unproven']} unproven, "
        f"{checks.validate['error']} errors; stored answers: "
        f"{checks.answers_scored_1} of {checks.answers} score 1 ({checks.answers_undecided} undecided)"
    )
    stages = ", ".join(f"{name} {seconds[name]:.0f} s" for name in STAGES if name in seconds)
    click.echo(
        f"time: {seconds['total']:.0f} s in total ({seconds['generate']:.0f} s generating: {stages}; "
        f"{seconds['check']:.0f} s checking); {checks.records / seconds['total']:.2f} records/s overall"
    )
    for line in built.stage_failures + assembly.shortfalls + checks.problems:
        click.echo(f"problem: {line}", err=True)
    if built.fell_short:
        click.echo(f"fell short: {built.fell_short}; see the failures above", err=True)
    if built.stage_failures or assembly.shortfalls or checks.problems:
        sys.exit(1)


@cli.group("export")
def export_group() -> None:
    """Write a generated dataset in the formats of evaluation harnesses."""


@export_group.command("lm-eval")
@click.argument("dataset", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for the task files (default: DATASET/lm_eval).",
)
def export_lm_eval_command(dataset: Path, out: Path | None) -> None:
    """lm-evaluation-harness tasks (2-shot, scored by acp) for a dataset written by `acp dataset`.

    \b
    One task per task and format of the dataset, tagged as the reference ACPBench tasks:
      acpgen_<task>_gen   tags acpgen_gen_2shot, acpgen_bench_hard
      acpgen_<task>_bool  tags acpgen_bool_cot_2shot, acpgen_bench   (chain of thought)
      acpgen_<task>_mcq   tags acpgen_mcq_cot_2shot, acpgen_bench    (chain of thought)
    \b
      acp export lm-eval dataset
      lm_eval --model hf --model_args pretrained=MODEL --include_path dataset/lm_eval \\
              --tasks acpgen_bench_hard,acpgen_bench --log_samples --output_path results
      acp score results/MODEL/samples_acpgen_*.jsonl

    A dataset holds one representation: for one built with `acp dataset --representation pddl`
    the names and tags end in _with_pddl (acpgen_app_gen_with_pddl, acpgen_bench_with_pddl;
    pddl+nl: _with_pddl_nl). Export an nl and a pddl dataset with the same --out to run both.
    lm-eval must run where acp is installed; the gen tasks' 'undecided' metric counts answers a
    planner could not decide within the default budget (`acp score` re-scores them with retries).
    """
    out = out or dataset / "lm_eval"
    for path in export_lm_eval(dataset, out):
        click.echo(str(path))


@cli.command("report")
@click.argument("scores", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True, help="Folder to write into."
)
@click.option(
    "--dataset",
    type=click.Path(exists=True, path_type=Path),
    default=None,
    help="The scored records (as for acp score): adds Jaccard/F1 for app and prog and accuracy against difficulty.",
)
def report_command(scores: tuple[Path, ...], output: Path, dataset: Path | None) -> None:
    """Tables and figures from `acp score --output` files (SCORES), one or more per model.

    \b
    The model of a line is its "model" field, else the model name of an lm-eval results_*.json
    next to a file of scored lm-eval samples, else the file name (model-a.jsonl -> model-a).
    Answers to obfuscated records (acp generate --obfuscate) add accuracy per task and
    obfuscation, plain and obfuscated side by side.
    Writes OUTPUT/report.md, OUTPUT/report.html (one self-contained page) and every figure as
    PNG and SVG (needs matplotlib: pip install -e '.[report]').
      acp score preds-a.jsonl --dataset DATA -o model-a.jsonl
      acp report model-a.jsonl model-b.jsonl --dataset DATA -o report/
    """
    from acpgen.evaluation.report import build_report, write_report

    written = write_report(build_report(scores, dataset), output)
    for path in written:
        click.echo(str(path))


@export_group.command("hf")
@click.argument("dataset", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--license",
    "license_id",
    default="apache-2.0",
    show_default=True,
    help="Licence id for the card's header (a Hugging Face hub licence id).",
)
def export_hf_command(dataset: Path, out: Path, license_id: str) -> None:
    """A Hugging Face dataset folder for a dataset written by `acp dataset`.

    \b
    One config per task and format (app_gen, app_bool, reach_mcq, ...), its splits as
    OUT/data/<config>/<split>.jsonl, and a dataset card OUT/README.md (configs, field types,
    licence, how answers are scored, how the dataset was made, citations):
      acp export hf dataset hf-dataset
      python -c 'import datasets; print(datasets.load_dataset("hf-dataset", "app_gen"))'
    """
    from acpgen.adapters.hub import export_hf

    written = export_hf(dataset, out, license_id)
    rows = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in written if p.suffix == ".jsonl")
    configs = len({p.parent.name for p in written if p.suffix == ".jsonl"})
    click.echo(f"{configs} configs, {rows} records -> {out / 'README.md'}")


@export_group.command("planetarium")
@click.argument("dataset", type=click.Path(exists=True, path_type=Path))
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--no-parquet", is_flag=True, help="Write the JSONL files only (Parquet needs the datasets package).")
def export_planetarium_command(dataset: Path, out: Path, no_parquet: bool) -> None:
    """The t2p records of DATASET as rows of Planetarium's dataset.

    \b
    OUT/<split>.jsonl and OUT/<split>.parquet: id, name, domain, init, goal,
    num_objects, problem_pddl, natural_language, init_is_abstract,
    init_num_propositions, goal_is_abstract, goal_num_propositions,
    is_placeholder; OUT/domains.jsonl: name, domain_pddl (its domains table).
      acp export planetarium dataset planetarium-rows
      acp score predictions.jsonl --dataset planetarium-rows/test.jsonl
    """
    written = planetarium.write_rows(dataset, out, parquet=not no_parquet)
    for path in written:
        click.echo(str(path))


@export_group.command("arb")
@click.argument("dataset", type=click.Path(exists=True, path_type=Path))
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
def export_arb_command(dataset: Path, out: Path) -> None:
    """The reasoning-about-actions records of DATASET as ActionReasoningBench rows.

    \b
    OUT/<split>.jsonl: question_id, domain_name, instance_id,
    initial_state_nl, action_sequence, plan_length, question_category,
    question_name, question, answer_type (free_answer, true_false_answer),
    answer, fluent_type, fluent_sign_question, question_subcategories, and
    acp's record under "acp" (what `acp score` judges with).
      acp export arb dataset arb-rows
      acp score predictions.jsonl --dataset arb-rows/test.jsonl
    """
    for path in arb.write_rows(dataset, out):
        click.echo(str(path))


@cli.command("describe")
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
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
@click.argument("domain_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
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
@click.argument("domain", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("truth", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=False)
@click.argument("candidate", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=False)
@click.option("--placeholder", is_flag=True, help="The truth's goal names no particular objects (any fitting ones do).")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the verdict as one line of JSON (the default is indented)."
)
@click.option(
    "--pairs",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
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


def main() -> None:
    cli(prog_name="acp")
