"""`acp score`, `acp validate` and `acp reference-answers`: judging answers and records."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from acpgen.artefacts import write_jsonl
from acpgen.cli.group import EXISTING_DIR, EXISTING_FILE, cli, executor_options, planner_options
from acpgen.evaluation import peers, planetarium
from acpgen.evaluation.planbench import failure_rates, planbench_files
from acpgen.evaluation.records import Dataset, iter_predictions, reference_predictions
from acpgen.evaluation.scoring import Summary, flag_rates, score_predictions
from acpgen.evaluation.validate import validate_records, validation_options, verdict_counts
from acpgen.executors import make_executor
from acpgen.planners import Limits, PlannerSetup
from acpgen.tasks import UNDECIDED, ScoreOptions
from acpgen.tasks.base import ERROR, OK, UNPROVEN, WRONG, Outcome


@cli.command("score")
@click.argument("predictions", nargs=-1, required=True, type=EXISTING_FILE)
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
    "--planbench",
    "planbench_prompts",
    is_flag=True,
    help="PREDICTIONS are PlanBench task files whose prompts show their PDDL ([DOMAIN], [QUERY PROBLEM]): each "
    "instance is scored on that PDDL (otherwise give --planbench-domain and --planbench-instances).",
)
@click.option(
    "--planbench-domain",
    type=EXISTING_FILE,
    default=None,
    help="PREDICTIONS are PlanBench task files (responses/ or results/ JSON): their domain PDDL file. A file acp "
    "does not score (a task without a plan) is reported and left out.",
)
@click.option(
    "--planbench-instances",
    type=EXISTING_DIR,
    default=None,
    help="With --planbench-domain: the folder of their instance-N.pddl files.",
)
@click.option(
    "--planbench-config",
    type=EXISTING_FILE,
    default=None,
    help="With --planbench(-domain): the PlanBench config (configs/<domain>.yaml) wording the answers "
    "(default: built in for the blocksworld family and logistics; otherwise the domain's own names).",
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
    planbench_prompts: bool,
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
    "response": "<text>"}, optionally with "task" (one of the 18 of `acp tasks`: app, prog, ...,
    pver; app.bool, app.mcq, ... for the yes/no and multiple-choice formats) or "group" when an id
    occurs in several tasks. A null response is no answer (parse_error), as in acpgen.score.
    Extra fields are passed through to --output. lm-evaluation-harness --log_samples files
    (samples_*.jsonl) are read directly, without --dataset. PlanBench task files
    (plan generation, optimality, generalization, goal reformulation) are scored with
    --planbench-domain and --planbench-instances (or --planbench, on the PDDL their
    prompts show), as acp's plan and optplan tasks; a file acp does not score is
    reported and left out.
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
    planbench = planbench_prompts or planbench_domain is not None or planbench_instances is not None
    if planbench:
        if dataset is not None or (planbench_domain is None) != (planbench_instances is None):
            raise click.UsageError("--planbench-domain and --planbench-instances go together, without --dataset")
        items, skipped = planbench_files(predictions, planbench_domain, planbench_instances, planbench_config)
        for path, reason in skipped.items():
            click.echo(f"not scored: {reason if str(path) in reason else f'{path}: {reason}'}", err=True)
        if not items:
            raise click.ClickException(f"no PlanBench file scored ({len(skipped)} left out, see above)")
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
@click.option(
    "--allow-unproven",
    is_flag=True,
    help="Exit 0 when nothing is wrong even if some records are unproven (the summary says so).",
)
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Parallel workers.")
@executor_options
@planner_options
def validate(
    path: Path,
    as_json: bool,
    allow_unproven: bool,
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
    Verdicts: ok, wrong (with the reason), unproven (no proof either way: a planner gave no answer,
    or a record's English has no template to read it with), error (the check raised an exception: a
    bug in acp or a record it cannot handle; type and message are shown).

    \b
    Exit status: 0 every record ok; 1 a record is wrong or a check raised; 3 none wrong but some
    unproven (0 with --allow-unproven, which the summary line says).
    """
    dataset = Dataset.load(path)
    items = [(task, record) for (task, _), record in sorted(dataset.records.items(), key=lambda kv: kv[0])]
    options = validation_options(max_states, planner_timeout)
    setup = PlannerSetup(planner_backend, image, cache_dir)
    with make_executor(executor_kind, jobs=jobs, scheduler=scheduler) as executor:
        results = validate_records(items, options, setup, jobs=jobs, progress=sys.stderr.isatty(), executor=executor)
    for result in results:
        if as_json:
            click.echo(json.dumps(result.as_dict(), sort_keys=True))
        elif result.verdict != Outcome.OK:
            click.echo(f"{result.verdict:8} {result.task:6} {result.id}: {result.reason}")
    counts = verdict_counts(results)
    accepted = " (accepted: --allow-unproven)" if allow_unproven and counts[UNPROVEN] else ""
    click.echo(
        f"{len(results)} records: {counts[OK]} ok, {counts[WRONG]} wrong, {counts[UNPROVEN]} unproven{accepted}, "
        f"{counts[ERROR]} errors (a check that raised)",
        err=True,
    )
    if counts[WRONG] or counts[ERROR]:
        sys.exit(1)
    if counts[UNPROVEN] and not allow_unproven:
        sys.exit(3)


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
    records = Dataset.load(dataset)
    lines = list(reference_predictions(records))
    write_jsonl(output, lines)
    questions = len(records.records)
    more = (
        f" ({len(lines) - questions} more than records: a record with several correct answers (reach, areach, land, "
        f"nexta, just) gets a line for each)"
        if len(lines) > questions
        else ""
    )
    click.echo(f"wrote {len(lines)} predictions for {questions} records to {output}{more}", err=True)
