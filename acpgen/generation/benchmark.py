"""`acp dataset` / `make dataset`: the whole benchmark from pipeline.yaml, split, validated and self-scored.

For every configured domain all stages run (resuming), then each task's exported records are
split: the first ``test_per_domain`` records of a domain go to the test split, the next ones to
the dev split, which takes ``dev_per_task`` records per task spread over the domains (the
first ``dev_per_task mod #domains`` domains, in config order, give one more). The plan tasks' records
about unsolvable problems are added to each split: ``qa.unsolvable_share`` of its count, rounded up. The splits are
written to ``DATASET/<task>/<split>.<format>.jsonl`` (formats gen, bool, mcq as configured);
then every record's stored answer is re-proven (`acp validate`) and scored as a model answer
(`acp score` on `reference-answers`), and the counts, time and rates go to
``DATASET/manifest.json``, with the hash of the effective config, the seed, the code version and
the versions of Python, acp and the planner packages.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from acpgen.artefacts import atomic_write_text, jsonl_text
from acpgen.config import PipelineConfig
from acpgen.errors import ConfigError, DataError
from acpgen.evaluation.records import Dataset, Prediction, reference_predictions
from acpgen.evaluation.scoring import score_predictions
from acpgen.evaluation.validate import validate_records, verdict_counts
from acpgen.executors import Executor
from acpgen.generation.pipeline import fell_short, run_domains
from acpgen.generation.stages import STAGES
from acpgen.generation.stages.export import export_file
from acpgen.generation.stages.qa import qa_files
from acpgen.generation.stamps import code_version, digest_of, tool_versions
from acpgen.planners import Limits, PlannerSetup
from acpgen.proofs.oracle import WALKS
from acpgen.schema import is_unsolvable
from acpgen.tasks import KINDS, Outcome, ScoreOptions, ScoreStatus, kind_of, split_kind
from acpgen.version import __version__

SPLITS = ("test", "dev")


def dev_quota(domains: list[str], dev_per_task: int) -> dict[str, int]:
    """Dev records per task for each domain: an even spread, earlier domains taking the remainder."""
    base, extra = divmod(dev_per_task, len(domains))
    return {d: base + (i < extra) for i, d in enumerate(domains)}


def domains_of(config: PipelineConfig, domains: list[str], task: str) -> list[str]:
    """The domains that ask ``task`` (all but those whose ``skip_tasks`` name it)."""
    return [d for d in domains if d not in config.domains or task not in config.domains[d].skip_tasks]


def check_sizes(config: PipelineConfig, domains: list[str]) -> None:
    fewest = min((domains_of(config, domains, t) for t, _ in qa_files(config.qa)), key=len, default=domains)
    quota = dev_quota(fewest or domains, config.dataset.dev_per_task)
    needed = config.dataset.test_per_domain + max(quota.values())
    if config.qa.questions_per_task < needed:
        raise ConfigError(
            f"qa.questions_per_task is {config.qa.questions_per_task}, but the dataset needs {needed} "
            f"per task and domain ({config.dataset.test_per_domain} test + up to {max(quota.values())} "
            f"dev); raise qa.questions_per_task or lower dataset.test_per_domain/dev_per_task"
        )


@dataclass
class Assembly:
    """Records per (split, task) and the counts per (split, task, domain)."""

    records: dict[tuple[str, str], list[dict]] = field(default_factory=dict)
    counts: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    shortfalls: list[str] = field(default_factory=list)


def assemble(config: PipelineConfig, domains: list[str]) -> Assembly:
    """Split every domain's exported records into test and dev."""
    out = Path(config.out)
    test_n = config.dataset.test_per_domain
    result = Assembly()
    for task, fmt in qa_files(config.qa):
        kind = kind_of(task, fmt)
        for split in SPLITS:
            result.records[(split, kind)] = []
        asked = domains_of(config, domains, task)
        quota = dev_quota(asked, config.dataset.dev_per_task)
        for domain in asked:
            path = export_file(out / domain, task, fmt)
            if not path.exists():
                raise DataError(f"{path}: missing; the export stage of {domain} did not run")
            every = [json.loads(line) for line in path.read_text().splitlines()]
            records = [r for r in every if not is_unsolvable(r)]
            parts = {"test": records[:test_n], "dev": records[test_n : test_n + quota[domain]]}
            # the records about unsolvable problems (the plan tasks'): the share of each split's, after them
            unsolvable = [r for r in every if is_unsolvable(r)]
            share = config.qa.unsolvable_share
            test_u = math.ceil(share * test_n) if unsolvable else 0
            parts["test"] += unsolvable[:test_u]
            parts["dev"] += unsolvable[test_u : test_u + math.ceil(share * quota[domain])]
            for split, chosen in parts.items():
                for record in chosen:
                    record["split"] = split
                result.records[(split, kind)].extend(chosen)
                result.counts.setdefault(split, {}).setdefault(kind, {})[domain] = len(chosen)
            wanted = test_n + quota[domain]
            if len(records) < wanted:
                result.shortfalls.append(f"{domain} {kind}: {len(records)} of {wanted} questions")
    return result


def split_file(target: Path, task: str, split: str, fmt: str) -> Path:
    """Where a dataset keeps a split of a task and format: ``DATASET/<task>/<split>.<format>.jsonl``."""
    return Path(target) / task / f"{split}.{fmt}.jsonl"


def write_splits(assembly: Assembly, target: Path) -> list[Path]:
    """DATASET/<task>/<split>.<format>.jsonl, records in the exported key order."""
    written = []
    for (split, kind), records in sorted(assembly.records.items()):
        task, fmt = split_kind(kind)
        path = split_file(target, task, split, fmt)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, jsonl_text(records, sort_keys=False))
        written.append(path)
    return written


@dataclass
class Checks:
    records: int
    validate: dict[str, int]
    problems: list[str]
    answers: int
    answers_scored_1: int
    answers_undecided: int


def self_check(
    files: list[Path],
    setup: PlannerSetup,
    options: ScoreOptions,
    jobs: int,
    progress: bool,
    executor: Executor | None = None,
) -> Checks:
    """Re-prove every stored answer, then score each stored answer as a model response."""
    dataset = Dataset.load(files[0], files)
    # validate_records and score_predictions take the records of one problem one after the other
    items = [(task, record) for (task, _), record in sorted(dataset.records.items())]
    results = validate_records(items, options, setup, jobs=jobs, progress=progress, executor=executor)
    verdicts = {str(v): n for v, n in verdict_counts(results).items()}
    problems = [f"{r.verdict} {r.task} {r.id}: {r.reason}" for r in results if r.verdict != Outcome.OK]
    predictions = [
        Prediction(line, line["task"], dataset.records[(line["task"], str(line["id"]))], line["response"])
        for line in reference_predictions(dataset)
    ]
    scored = score_predictions(
        predictions, ScoreOptions(limits=options.limits), setup, jobs=jobs, progress=progress, executor=executor
    )
    ones = sum(s.verdict.score == 1 for s in scored)
    undecided = sum(s.verdict.status == ScoreStatus.UNDECIDED for s in scored)
    problems += [
        f"stored answer scored {s.verdict.score} ({s.verdict.status}: {s.verdict.reason}) for "
        f"{s.prediction.task} {s.prediction.record['id']}"
        for s in scored
        if s.verdict.score != 1
    ][:20]
    return Checks(len(items), verdicts, problems, len(scored), ones, undecided)


def write_manifest(
    target: Path,
    config: PipelineConfig,
    domains: list[str],
    assembly: Assembly,
    checks: Checks,
    seconds: dict[str, float],
    stage_failures: Sequence[str] = (),
) -> Path:
    """DATASET/manifest.json: how the dataset was made (effective config, seed, code and tool
    versions), what it contains and what the checks found."""
    manifest = {
        "acp_version": __version__,
        "seed": config.seed,
        "config_sha256": digest_of({k: v for k, v in asdict(config).items() if k != "executor"}),
        "code_version": code_version(),
        "versions": tool_versions(),
        "representation": config.export.representation,
        # what bounded every search that shaped a record (states expanded times the task's operators), and the
        # time limits that are only the safety net (a unit that met one failed and is named in stage_failures)
        "budgets": {
            "problems_work": config.planner.work,
            "plans_work": config.plans.work,
            "qa_work": config.qa.planner_work,
            "qa_max_states": config.qa.max_states,
            "safety_net_seconds": {
                "problems": config.planner.time_limit,
                "plans": config.plans.time_limit,
                "qa": config.qa.planner_time_limit,
            },
        },
        "domains": domains,
        "counts": assembly.counts,
        "shortfalls": assembly.shortfalls,
        "stage_failures": list(stage_failures),
        "checks": asdict(checks),
        "seconds": {k: round(v, 1) for k, v in seconds.items()},
    }
    path = target / "manifest.json"
    atomic_write_text(path, json.dumps(manifest, indent=1) + "\n")
    return path


def counts_table(assembly: Assembly, domains: list[str]) -> str:
    """Rows: split/task; columns: domains and the total."""
    width = max(9, *(len(d) + 1 for d in domains))
    lines = ["split/task".ljust(18) + "".join(d[: width - 1].rjust(width) for d in domains) + "total".rjust(8)]
    for split in SPLITS:
        for kind in KINDS:
            if kind not in assembly.counts.get(split, {}):
                continue
            row = assembly.counts[split][kind]
            lines.append(
                f"{split}/{kind}".ljust(18)
                + "".join(str(row.get(d, 0)).rjust(width) for d in domains)
                + str(sum(row.values())).rjust(8)
            )
    return "\n".join(lines)


@dataclass
class Built:
    target: Path
    domains: list[str]
    assembly: Assembly
    checks: Checks
    seconds: dict[str, float]
    stage_failures: list[str] = field(default_factory=list)  # "<domain> <stage>: <failure>"
    fell_short: str | None = None  # the domains and stages that reported failures, in one line


def build_dataset(
    config: PipelineConfig,
    target: Path,
    *,
    jobs: int = 2,
    progress: bool = False,
    report=lambda r: None,
    force: frozenset[str] = frozenset(),
    executor: Executor | None = None,
) -> Built:
    """Generate every configured domain (resuming; the stages in ``force`` redo all their artefacts),
    split, write, self-check and write the manifest. ``executor``: where the domains and the
    self-check's shards run (default: ``jobs`` local processes)."""
    start = time.perf_counter()
    domains = list(config.domains)
    check_sizes(config, domains)
    setup = config.planner.setup(config.out)
    reports = []

    def keep(stage_report) -> None:
        reports.append(stage_report)
        report(stage_report)

    stage_seconds: dict[str, float] = {}
    for _ in run_domains(
        config,
        domains,
        setup,
        stages=list(STAGES),
        jobs=jobs,
        progress=progress,
        report=keep,
        force=force,
        executor=executor,
        timed=stage_seconds.__setitem__,
    ):
        pass
    failures = [f"{r.domain} {r.stage}: {failure}" for r in reports for failure in r.failed + r.short]
    seconds = {**stage_seconds, "generate": time.perf_counter() - start}
    assembly = assemble(config, domains)
    files = write_splits(assembly, target)
    mark = time.perf_counter()
    # The qa stage's verification budget: every record's re-proof repeats its verification by
    # the same route on the record as exported, so its planner answers come from the cache.
    options = ScoreOptions(
        max_states=config.qa.verify_max_states,
        limits=Limits(config.qa.planner_time_limit, config.planner.memory_mb, config.qa.planner_work),
        second_opinion=True,
        lifted_states=config.qa.verify_lifted_states,
        walks=WALKS,
        shared_grounding=False,
    )
    checks = self_check(files, setup, options, jobs, progress, executor)
    seconds["check"] = time.perf_counter() - mark
    seconds["total"] = time.perf_counter() - start
    write_manifest(target, config, domains, assembly, checks, seconds, failures)
    return Built(target, domains, assembly, checks, seconds, failures, fell_short(reports))
