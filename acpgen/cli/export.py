"""`acp export` (lm-eval, the Hugging Face hub, Planetarium, ActionReasoningBench) and `acp report`."""

from __future__ import annotations

from pathlib import Path

import click

from acpgen.adapters.lmeval import export_lm_eval
from acpgen.cli.group import EXISTING_DIR, EXISTING_FILE, cli
from acpgen.evaluation import arb, planetarium


@cli.group("export")
def export_group() -> None:
    """Write a generated dataset in the formats of evaluation harnesses."""


@export_group.command("lm-eval")
@click.argument("dataset", type=EXISTING_DIR)
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
@click.argument("scores", nargs=-1, required=True, type=EXISTING_FILE)
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
@click.argument("dataset", type=EXISTING_DIR)
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
