"""`acp generate` and `acp dataset`: making records, stage by stage, and the whole benchmark."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click

from acpgen.cli.group import EXISTING_DIR, EXISTING_FILE, cli, executor_options, run_options
from acpgen.config import OBFUSCATIONS, PipelineConfig, check_formats, load_config
from acpgen.executors import make_executor
from acpgen.generation.benchmark import build_dataset, counts_table
from acpgen.generation.levels import OPTIMUM_FOLDER, at_level, task_groups
from acpgen.generation.pipeline import fell_short, run_domains, stages_up_to
from acpgen.generation.sources import DomainSource
from acpgen.generation.stages import STAGES
from acpgen.generation.stages.base import StageReport
from acpgen.tasks import get_task


@cli.command("generate")
@click.option(
    "--domain",
    "domains",
    multiple=True,
    help="Domain to generate (repeatable), or 'all' for every domain in the config.",
)
@click.option(
    "--domain-file",
    type=EXISTING_FILE,
    default=None,
    help="Your own PDDL domain (instead of --domain); its problems come from --problems.",
)
@click.option(
    "--problems",
    "problems_dir",
    type=EXISTING_DIR,
    default=None,
    help="With --domain-file: the folder of your problem files (*.pddl), taken in file-name order.",
)
@click.option(
    "--template",
    "template_file",
    type=EXISTING_FILE,
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
    "(acpgen/generation/levels.py; `levels` in the config). At level 5, nexta and optplan draw from level 4's "
    "sizes and, beside other tasks, run apart into OUT/optimum/.",
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
                          else one optimal or one plan), each re-validated
      states.jsonl        states along the plans and random rollouts from them
      qa/<task>.jsonl     symbolic questions with verified answers for every task and format
      <task>.gen.jsonl    the records: reference schema, text from acpgen/data/templates/<domain>.yaml
    Every stage resumes: finished files are kept, and files are written atomically, so a killed
    run can simply be started again. Each artefact's stamp (OUT/<domain>/stamps/) records what it
    was made from (inputs, config, templates, code); a file whose stamp changed is made again.
    The same seed and config give byte-identical artefacts on any machine: every search that
    shapes a record is bounded by work (states expanded), not seconds; a planner call that meets
    its time limit first (the safety net) fails its unit. Exit status 1 if any stage failed (a
    problem without a plan, a unit that crashed, ...); the last line names the domains and
    stages. A qa file with fewer questions than asked for (a small level's states give no more)
    is written with what they give and named ("short"); --strict makes that exit 1 too.

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
    configs = [config] if level is None else leveled(config, names, level)
    reports: list[StageReport] = []

    def report(stage_report: StageReport) -> None:
        echo_report(stage_report)
        reports.append(stage_report)

    with make_executor(executor_kind, jobs=jobs, scheduler=scheduler, config=config.executor) as executor:
        for settings in configs:
            runs = run_domains(
                settings,
                names,
                settings.planner.setup(settings.out),
                stages=stages_up_to(stage),
                jobs=jobs,
                progress=sys.stderr.isatty(),
                report=report,
                force=frozenset(force),
                source=source,
                executor=executor,
                timed=lambda name, seconds: click.echo(f"stage {name}: {seconds:.1f} s", err=True),
            )
            where = "" if settings is configs[0] else f" ({OPTIMUM_FOLDER}/)"
            for name, counts in runs:
                click.echo(
                    f"{name}{where}: {counts['problems']} problems"
                    + (f" and {counts['unsolvable']} no plan solves" if counts.get("unsolvable") else "")
                    + f", {counts['plans']} plans, {counts['states']} states, "
                    f"{counts['questions']} questions"
                )
    short = fell_short(reports, strict=strict)
    if short:
        click.echo(f"fell short: {short}; see the failures above", err=True)
        sys.exit(1)
    fewer = fell_short(reports)
    if fewer:
        click.echo(f"fewer records than asked for: {fewer}; see the lines 'short:' above (--strict: exit 1)", err=True)


def leveled(config: PipelineConfig, names: list[str], level: int) -> list[PipelineConfig]:
    """The configurations of a run at ``level``: one, unless the level gives the tasks that need optima sizes of
    their own (`acpgen.generation.levels.task_groups`); their run then goes to OUT/optimum/ (said on stderr)."""
    groups = task_groups(config, level)
    if len(groups) == 1:
        return [at_level(config, names, level)]
    configs = []
    for number, group in enumerate(groups):
        out = config.out if number == 0 else str(Path(config.out) / OPTIMUM_FOLDER)
        qa = dataclasses.replace(config.qa, tasks=group)
        configs.append(at_level(config.with_overrides(out=out, qa=qa), names, level))
    click.echo(
        f"level {level}: the questions of {', '.join(groups[1])} come from smaller sizes "
        f"(levels.{level}.optimum_sizes); their artefacts and records go to {configs[1].out}/<domain>/",
        err=True,
    )
    return configs


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
