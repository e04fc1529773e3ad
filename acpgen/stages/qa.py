"""Stage 4, qa: problems + plans + states -> OUT/D/qa/<task>.jsonl (symbolic questions and answers).

For each task, candidate states are taken in a seeded order that alternates between problems;
the task module generates the stored answer (or skips the state), and the answer is then
re-proven through :func:`Task.validate` by another route (planners and the delete relaxation
instead of exhaustive exploration, by default). Only verified questions are written. Records
carry the reference fields (``id``, ``group``, ``answer``, ``PDDL_domain``, ``PDDL_problem``
with the state as ``:init``) plus what the scorer needs as structured data (``plan``,
``action``), so neither scoring nor validation re-derives anything from prose.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import zip_longest

from tqdm import tqdm

from acpgen.artefacts import atomic_write_text, jsonl_text
from acpgen.errors import PddlError
from acpgen.generators import get_generator
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.render import render_problem
from acpgen.planners import Limits
from acpgen.scoring import PlannerSetup
from acpgen.stages.base import StageContext, StageReport
from acpgen.tasks import TASKS, RecordContext, ScoreOptions
from acpgen.tasks.base import OK, QAItem

log = logging.getLogger(__name__)


def record_id(seed: int, uid: str) -> int:
    """A signed 64-bit id (like the reference ids), stable for the seed and the question's path."""
    return int.from_bytes(hashlib.sha256(f"{seed}/{uid}".encode()).digest()[:8], "big", signed=True)


class QASource:
    """The domain's problems, plans and states, with states ordered for selection."""

    def __init__(self, ctx: StageContext):
        self.ctx = ctx
        self.domain_text = ctx.domain_text
        self.tasks: dict[str, GroundTask] = {}
        self.plans: dict[str, list[list[str]]] = {}
        by_problem: dict[str, list[dict]] = {}
        for line in ctx.states_file.read_text().splitlines():
            state = json.loads(line)
            by_problem.setdefault(state["problem"], []).append(state)
        self.by_problem = by_problem

    def task(self, problem: str) -> GroundTask:
        if problem not in self.tasks:
            text = (self.ctx.problems_dir / f"{problem}.pddl").read_text()
            self.tasks[problem] = GroundTask.from_strings(self.domain_text, text, problem)
            plans = json.loads((self.ctx.plans_dir / f"{problem}.json").read_text())["plans"]
            self.plans[problem] = [p["actions"] for p in plans]
        return self.tasks[problem]

    def candidates(self, task_name: str) -> list[dict]:
        """States in a seeded order, alternating between problems so questions spread over them."""
        rng = self.ctx.rng("qa-order", task_name)
        shuffled = []
        accepts = TASKS[task_name].accepts
        for problem in sorted(self.by_problem):
            states = [s for s in self.by_problem[problem] if accepts(s)]
            rng.shuffle(states)
            shuffled.append(states)
        order = [s for group in zip_longest(*shuffled) for s in group if s is not None]
        return order

    def item(self, state: dict) -> QAItem:
        self.task(state["problem"])
        suffix = None
        if state.get("source") == "plan":
            suffix = self.plans[state["problem"]][state["plan"]][state["step"]:]
        return QAItem(state, suffix)

    def base_record(self, task_name: str, state: dict) -> dict:
        problem_task = self.task(state["problem"])
        mask = problem_task.static_mask | problem_task.mask_of(state["atoms"])
        generator = get_generator(self.ctx.domain)
        uid = f"{self.ctx.domain}/{state['id']}/{task_name}"
        return {
            "id": record_id(self.ctx.config.seed, uid),
            "uid": uid,
            "task": task_name,
            "group": TASKS[task_name].gen_group,
            "domain": self.ctx.domain,
            "problem": state["problem"],
            "state": state["id"],
            "PDDL_domain": self.domain_text,
            "PDDL_problem": render_problem(problem_task, mask, requirements=generator.requirements),
        }


def generate_task(ctx: StageContext, task_name: str, setup: PlannerSetup | None = None) -> tuple[list[dict], dict]:
    """Verified question records of one task, and counts (tried, skipped, rejected)."""
    settings = ctx.config.qa
    planners = ctx.planners or (setup or PlannerSetup()).build()
    limits = Limits(time=settings.planner_time_limit, memory_mb=ctx.config.planner.memory_mb)
    # Generating, a question that needs a long planner call is skipped ("in case of doubt"): no retry.
    generate_options = ScoreOptions(recheck=True, max_states=settings.max_states, limits=limits, retry_factor=1.0)
    verify_options = ScoreOptions(recheck=True, max_states=settings.verify_max_states, limits=limits)
    source = QASource(ctx)
    task = TASKS[task_name]
    records, counts = [], {"tried": 0, "skipped": 0, "rejected": 0}
    for state in source.candidates(task_name)[: settings.candidates_per_task]:
        if len(records) >= settings.questions_per_task:
            break
        counts["tried"] += 1
        record = source.base_record(task_name, state)
        rng = ctx.rng("qa", task_name, state["id"])
        try:
            fields = task.generate(RecordContext(record, generate_options, planners), source.item(state), rng, settings)
        except PddlError as err:
            log.warning("%s %s: %s", task_name, state["id"], err)
            fields = None
        if fields is None:
            counts["skipped"] += 1
            continue
        record.update(fields)
        check = task.validate(RecordContext(record, verify_options, planners))
        if check.verdict != OK:
            counts["rejected"] += 1
            log.warning("%s %s: generated answer not verified (%s: %s)", task_name, state["id"], check.verdict,
                        check.reason)
            continue
        records.append(record)
    return records, counts


def _generate(args):
    ctx, task_name, setup = args
    return task_name, *generate_task(ctx, task_name, setup)


def run(ctx: StageContext) -> StageReport:
    start = time.perf_counter()
    report = StageReport("qa", ctx.domain)
    todo = [t for t in TASKS if not (ctx.root / "qa" / f"{t}.jsonl").exists()]
    report.skipped = len(TASKS) - len(todo)
    bar = tqdm(total=len(todo), desc=f"{ctx.domain} qa", disable=not ctx.progress)
    setup = PlannerSetup(ctx.config.planner.backend, ctx.config.planner.image)
    if ctx.jobs > 1:
        worker = StageContext(ctx.domain, ctx.config, ctx.out, None, progress=False)
        with ProcessPoolExecutor(max_workers=ctx.jobs) as pool:
            results = list(pool.map(_generate, [(worker, t, setup) for t in todo]))
    else:
        results = [_generate((ctx, t, setup)) for t in todo]
    for task_name, records, counts in results:
        bar.update()
        if len(records) < ctx.config.qa.questions_per_task:
            report.failed.append(f"{task_name}: {len(records)} of {ctx.config.qa.questions_per_task} questions "
                                 f"({counts['tried']} states tried, {counts['skipped']} skipped, "
                                 f"{counts['rejected']} not verified)")
        atomic_write_text(ctx.root / "qa" / f"{task_name}.jsonl", jsonl_text(records))
        report.done += 1
    bar.close()
    report.items = sum(len((ctx.root / "qa" / f"{t}.jsonl").read_text().splitlines()) for t in TASKS
                       if (ctx.root / "qa" / f"{t}.jsonl").exists())
    report.seconds = time.perf_counter() - start
    return report
