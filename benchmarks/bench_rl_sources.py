"""`make bench-rl-sources`: how fast the training adapters turn records a generate run already made into datasets.

A generate run first: `acp generate --domain ferry --level L --formats gen --out CACHE/split/level-L` for L in
1-4 (kept in ``--cache``; its time is printed). Then, each measured in a fresh process with a fresh planner
cache (``ACP_CACHE_DIR``), so that no measurement warms another:

* TRL's ``episode_dataset``, rows per second: ``before``, an episode started per record for its first observation
  (the code before 2026-11-28: grounding, the describer, and the optimal cost, which the oracle works out for a
  record that does not store it) against ``after``, ``episode_dataset`` (the record's own context where `acp
  generate` wrote that text, else described from its parsed PDDL; no optimal cost). On the plan records of the
  four levels, and on every record of level 3 (all 18 tasks). The two give the same prompts (checked).
* reasoning-gym's ``acp_<task>`` at curriculum level 3 (acp levels 1-4, reasoning-gym's default inclusive
  range), records per second to make and read every entry: ``before``, generated (the dataset's default: a
  temporary folder, every stage from scratch) against ``after``, the same configuration with ``split`` (the
  generate run's records of the task, format, domain and levels).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LEVELS = (1, 2, 3, 4)


def make_split(cache: Path, domain: str) -> Path:
    split = cache / "split"
    for level in LEVELS:
        out = split / f"level-{level}"
        if (out / domain / "plan.gen.jsonl").exists():
            continue
        start = time.perf_counter()
        command = [sys.executable, "-m", "acpgen", "generate", "--domain", domain, "--level", str(level)]
        subprocess.run([*command, "--formats", "gen", "--out", str(out)], check=True, capture_output=True)
        print(f"generate run: {domain} level {level} in {time.perf_counter() - start:.1f} s", flush=True)
    return split


def episode_rows(records: list[dict], how: str) -> tuple[int, float, list[str]]:
    import acpgen.adapters.trl as trl
    from acpgen.training.episode import Episode

    start = time.perf_counter()
    if how == "before":  # the loop of episode_dataset before this change, as it was
        rows = []
        for record in records:
            context = Episode(record, None).context
            prompt = [{"role": "user", "content": context}]
            rows.append({"prompt": prompt, "acp_record": json.dumps(record, sort_keys=True)})
        dataset = trl.Dataset.from_list(rows)
    else:
        dataset = trl.episode_dataset(records)
    seconds = time.perf_counter() - start
    return len(dataset), seconds, [row["prompt"][0]["content"] for row in dataset]


def gym_entries(split: Path, domain: str, task: str, size: int, seed: int, how: str) -> tuple[int, float, list[int]]:
    import reasoning_gym
    from reasoning_gym.factory import create_curriculum

    import acpgen.adapters.gym  # noqa: F401 - registers the datasets

    curriculum = create_curriculum(f"acp_{task}")
    curriculum.set_attr_level("level", 3)  # acp levels 1-4
    base = {"domains": (domain,), "size": size, "seed": seed} | ({"split": str(split)} if how == "after" else {})
    start = time.perf_counter()
    config = curriculum.generate_configuration(base)
    data = reasoning_gym.create_dataset(f"acp_{task}", **vars(config))
    entries = [data[i] for i in range(len(data))]
    seconds = time.perf_counter() - start
    assert all(data.score_answer(e["answer"], e) == 1.0 for e in entries)
    return len(entries), seconds, sorted(e["metadata"]["level"] for e in entries)


def one(args: argparse.Namespace) -> None:
    """A single measurement (in its own process): prints one JSON line."""
    from acpgen.api import load

    split = Path(args.split)
    if args.one.startswith("episodes"):
        _, which, how = args.one.split(":")
        if which == "plan":
            records = [r for level in LEVELS for r in load(split / f"level-{level}" / args.domain / "plan.gen.jsonl")]
        else:
            records = load(split / "level-3" / args.domain)
        count, seconds, prompts = episode_rows(records, how)
        print(json.dumps({"rows": count, "seconds": seconds, "prompts": prompts}))
    else:
        _, how = args.one.split(":")
        count, seconds, levels = gym_entries(split, args.domain, args.task, args.size, args.seed, how)
        print(json.dumps({"rows": count, "seconds": seconds, "levels": levels}))


def measure(args: argparse.Namespace, split: Path, what: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="acp-bench-cache-") as cache:
        command = [sys.executable, __file__, "--one", what, "--split", str(split), "--domain", args.domain]
        command += ["--task", args.task, "--size", str(args.size), "--seed", str(args.seed)]
        environ = os.environ | {"ACP_CACHE_DIR": cache}
        done = subprocess.run(command, capture_output=True, text=True, check=True, env=environ)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", default="out/bench-rl-sources", help="where the generate run is kept")
    parser.add_argument("--domain", default="ferry")
    parser.add_argument("--task", default="plan", help="the reasoning-gym dataset's task")
    parser.add_argument("--size", type=int, default=20, help="the reasoning-gym dataset's size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2, help="alternating before/after runs of each measurement")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--split", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args)
        return
    split = make_split(Path(args.cache), args.domain)
    load = os.getloadavg()[0]
    print(f"load average {load:.2f}; {args.rounds} alternating round(s); each measurement a fresh process and cache")
    for label, what in (
        ("episode_dataset, plan records of levels 1-4", "episodes:plan"),
        ("episode_dataset, every record of level 3 (18 tasks)", "episodes:all"),
        (f"reasoning-gym acp_{args.task}, curriculum level 3 (acp levels 1-4), size {args.size}", "gym"),
    ):
        rates: dict[str, list[float]] = {"before": [], "after": []}
        outputs: dict[str, list] = {}
        for _ in range(args.rounds):
            for how in ("before", "after"):
                result = measure(args, split, f"{what}:{how}")
                rates[how].append(result["rows"] / result["seconds"])
                outputs[how] = result.get("prompts", result.get("levels"))
                count = result["rows"]
        same = outputs["before"] == outputs["after"]
        note = "the same prompts" if what.startswith("episodes") else f"levels {outputs['after']}"
        if what.startswith("episodes") and not same:
            raise SystemExit(f"{label}: the prompts differ before and after")
        span = {how: f"{min(r):.1f}-{max(r):.1f}" if len(r) > 1 else f"{r[0]:.1f}" for how, r in rates.items()}
        gain = min(rates["after"]) / max(rates["before"])
        print(f"{label}: {count} rows; per second {span['before']} -> {span['after']} (x{gain:.0f} at least); {note}")


if __name__ == "__main__":
    main()
