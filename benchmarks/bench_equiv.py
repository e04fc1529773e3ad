"""Benchmark of `acp equivalent`: milliseconds per equivalence check, by problem size.

Usage: python benchmarks/bench_equiv.py [--dataset DATASET] [--config pipeline.yaml] [--domain D ...]
       python benchmarks/bench_equiv.py --batch [-j N]   # also the same pairs as one `acp equivalent --pairs` batch
       python benchmarks/bench_equiv.py --compare        # the graph libraries on the same graphs
       python benchmarks/bench_equiv.py --planetarium CHECKOUT --planetarium-python VENV/bin/python
                                                          # side by side with Planetarium's checker

Truth problems: the t2p records of DATASET (any *.jsonl under it) when given, else one generated
problem per configured size of each domain (the generators of pipeline.yaml, seed 1). Each truth is
checked against five perturbed answers: renamed objects with shuffled facts (equivalent), one more
goal fact taken from the initial state, one goal literal dropped, one initial fact dropped, and
one more object. Each check is cold: a fresh checker, the parsed and grounded problems forgotten and a
fresh planner cache (the domain is read once per process); the size of a
check is its truth's number of true propositions (initial facts plus goal literals), bucketed as
1-20, 21-40, 41-60, 61-80 and >80. Planner calls are bounded by --planner-time seconds (no retry) and a
check is stopped after --cap seconds; prints the median and 99th percentile of the decided checks per
bucket and per domain (with the 90th percentile), the undecided and stopped checks counted apart.
``--batch`` then checks the same pairs again as one
batch (`acpgen.proofs.equivalence.check_pairs`, what `acp equivalent --pairs` runs: each truth analysed
once for its five candidates, on ``-j`` processes, with the same planner budget and no retry, but without
the per-check stop) and prints both rates and their ratio. ``--planetarium CHECKOUT`` (a checkout of
github.com/BatsResearch/planetarium) and ``--planetarium-python`` (the interpreter of the environment
where it is installed with its fork of ``pddl``) time Planetarium's own checker and acp's on the same
pairs instead (see benchmarks/planetarium_side.py).
"""

from __future__ import annotations

import argparse
import json
import math
import operator
import random
import signal
import statistics
import sys
import time
from pathlib import Path

from acpgen.config import load_config
from acpgen.executors import Executor
from acpgen.generators import get_generator
from acpgen.pddl import grounding, tarski_io
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import canonical
from acpgen.pddl.render import problem_text
from acpgen.planners import Limits, Planners, warm
from acpgen.planners.cache import PlanCache
from acpgen.proofs.equivalence import EquivalenceChecker, Pair, ProblemGraph, check_pairs

BUCKETS = ((1, 20), (21, 40), (41, 60), (61, 80), (81, 10**9))


def bucket_name(size: int) -> str:
    for low, high in BUCKETS:
        if low <= size <= high:
            return f"{low}-{high}" if high < 10**9 else f">{low - 1}"
    return "0"


def truths_from_dataset(path: Path) -> list[tuple[str, str, str, bool]]:
    """(domain name, domain text, truth text, placeholder) of every t2p record under ``path``."""
    out = []
    files = [path] if path.is_file() else sorted(path.rglob("*.jsonl"))
    for file in files:
        for line in file.read_text().splitlines():
            record = json.loads(line)
            if record.get("task") == "t2p":
                out.append(
                    (record["domain"], record["PDDL_domain"], record["PDDL_problem"], bool(record["placeholder"]))
                )
    return out


def truths_from_generators(config_path: Path | None, domains: list[str] | None) -> list[tuple[str, str, str, bool]]:
    config = load_config(config_path)
    out = []
    for name in domains or list(config.domains):
        generator = get_generator(name)
        for k, size in enumerate(config.domains[name].sizes):
            spec = generator.generate(size, random.Random(f"bench-equiv/{name}/{k}"))
            out.append((name, generator._domain_text, generator.render(spec), False))
    return out


def _literal(lit) -> str:
    atom = canonical(lit.predicate, lit.args)
    return atom if lit.positive else f"(not {atom})"


def perturbations(domain_text: str, truth: str, rng: random.Random) -> list[tuple[str, str]]:
    """(kind, candidate text) pairs written from the truth's parsed facts."""
    lifted = GroundTask.from_strings(domain_text, truth).lifted
    objects = {o: t for o, t in lifted.objects.items() if o not in lifted.constants}
    typed = set(lifted.supertypes) != {"object"}
    init = sorted(canonical(p, a) for p, a in lifted.init)
    goal = [_literal(lit) for lit in lifted.goal]
    fresh = {o: f"obj{i}" for i, o in enumerate(rng.sample(sorted(objects), len(objects)))}

    def rename(fact: str) -> str:
        return " ".join(fresh.get(t.strip("()"), t.strip("()")) for t in fact.split()).join("()")

    def write(objs, init_facts, goal_facts) -> str:
        return problem_text(
            lifted.problem_name, lifted.domain_name, objs, init_facts, goal_facts or ["(and)"], typed=typed
        )

    renamed_init = [rename(f) if not f.startswith("(not ") else f for f in init]
    rng.shuffle(renamed_init)
    renamed_goal = [f"(not {rename(f[5:-1])})" if f.startswith("(not ") else rename(f) for f in goal]
    rng.shuffle(renamed_goal)
    static = {p for p in lifted.predicates if p in GroundTask.from_strings(domain_text, truth).static_predicates}
    fluent_init = [f for f in init if f[1:].split()[0].rstrip(")") not in static and f not in goal]
    out = [("renamed", write({fresh[o]: t for o, t in objects.items()}, renamed_init, renamed_goal))]
    if fluent_init:
        out.append(("goal+init fact", write(objects, init, goal + [rng.choice(fluent_init)])))
    if len(goal) > 1:
        dropped = rng.randrange(len(goal))
        out.append(("goal fact dropped", write(objects, init, goal[:dropped] + goal[dropped + 1 :])))
    dropped = rng.randrange(len(init))
    out.append(("init fact dropped", write(objects, init[:dropped] + init[dropped + 1 :], goal)))
    some_type = objects[sorted(objects)[0]]
    out.append(("object added", write({**objects, "extra-object": some_type}, init, goal)))
    return out


def p99(values: list[float]) -> float:
    """The 99th percentile of sorted values (nearest rank)."""
    return values[min(len(values) - 1, math.ceil(0.99 * len(values)) - 1)]


def p90(values: list[float]) -> float:
    """The 90th percentile of sorted values (nearest rank)."""
    return values[min(len(values) - 1, math.ceil(0.9 * len(values)) - 1)]


def cold_checker(domain_text: str, planner_time: float = 5.0) -> EquivalenceChecker:
    """A fresh checker with nothing of earlier checks cached: the parsed and grounded problems of this
    process are forgotten (the domain's own parse is kept) and the planners get an empty cache."""
    tarski_io._PARSED.clear()
    grounding._RECENT.clear()
    planners = Planners(cache=PlanCache(env=False))
    return EquivalenceChecker(domain_text, planners, limits=Limits(time=planner_time), retry_factor=1)


def run_bench(truths, jobs_note: str, planner_time: float = 5.0, cap: int = 30) -> float:
    """Each check cold, with planner calls bounded by ``planner_time`` seconds (no retry) and stopped after
    ``cap`` seconds; percentiles are over the decided checks, undecided and stopped ones counted apart."""
    times: dict[str, list[float]] = {}
    by_domain: dict[str, list[float]] = {}
    domain_apart: dict[str, dict[str, int]] = {}
    apart: dict[str, dict[str, int]] = {}
    verdicts: dict[str, dict[str, int]] = {}
    signal.signal(signal.SIGALRM, _alarm)
    for domain, domain_text, truth, placeholder in truths:
        rng = random.Random(f"{domain}/{truth}")
        size_task = GroundTask.from_strings(domain_text, truth)
        size = len(size_task.lifted.init) + len(size_task.lifted.goal)
        bucket = bucket_name(size)
        for kind, candidate in perturbations(domain_text, truth, rng):
            checker = cold_checker(domain_text, planner_time)
            start = time.perf_counter()
            signal.alarm(cap)
            try:
                equivalent = checker.check(truth, candidate, placeholder).equivalent
                outcome = {True: "equivalent", False: "not", None: "undecided"}[equivalent]
            except _Slow:
                outcome = "stopped"
                warm.reset()  # the stop may have cut a request to the warm translator short
            finally:
                signal.alarm(0)
            elapsed = (time.perf_counter() - start) * 1000
            if outcome in ("equivalent", "not"):
                times.setdefault(bucket, []).append(elapsed)
                by_domain.setdefault(domain, []).append(elapsed)
            else:
                for table, key in ((apart, bucket), (domain_apart, domain)):
                    tally = table.setdefault(key, {"undecided": 0, "stopped": 0})
                    tally[outcome] += 1
            print(f"  {domain} size {size} {kind}: {elapsed:.0f} ms, {outcome}", file=sys.stderr, flush=True)
            by_kind = verdicts.setdefault(kind, {"equivalent": 0, "not": 0, "undecided": 0, "stopped": 0})
            by_kind[outcome] += 1
    print(
        f"equivalence checks ({jobs_note}; planner {planner_time:g} s per call, a check stopped after {cap} s), "
        "ms per decided check by truth size (true propositions)"
    )
    print(f"{'size':>8} {'decided':>8} {'median':>9} {'p99':>9} {'max':>9} {'undecided':>10} {'stopped':>8}")
    everything, undecided, stopped = [], 0, 0
    for low, _ in BUCKETS:
        name = bucket_name(low)
        values = sorted(times.get(name, []))
        tally = apart.get(name, {"undecided": 0, "stopped": 0})
        everything += values
        undecided, stopped = undecided + tally["undecided"], stopped + tally["stopped"]
        if values:
            print(
                f"{name:>8} {len(values):8d} {statistics.median(values):9.1f} {p99(values):9.1f} {values[-1]:9.1f}"
                f" {tally['undecided']:10d} {tally['stopped']:8d}"
            )
        elif tally["undecided"] or tally["stopped"]:
            print(f"{name:>8} {0:8d} {'-':>9} {'-':>9} {'-':>9} {tally['undecided']:10d} {tally['stopped']:8d}")
    if everything:
        everything.sort()
        print(
            f"{'all':>8} {len(everything):8d} {statistics.median(everything):9.1f} {p99(everything):9.1f} "
            f"{everything[-1]:9.1f} {undecided:10d} {stopped:8d}"
        )
    print(
        f"{'domain':>12} {'decided':>8} {'median':>9} {'p90':>9} {'p99':>9} {'max':>9} {'undecided':>10} {'stopped':>8}"
    )
    for domain in sorted(set(by_domain) | set(domain_apart)):
        values = sorted(by_domain.get(domain, [])) or [math.nan]
        tally = domain_apart.get(domain, {"undecided": 0, "stopped": 0})
        print(
            f"{domain:>12} {len(by_domain.get(domain, [])):8d} {statistics.median(values):9.1f} {p90(values):9.1f}"
            f" {p99(values):9.1f} {values[-1]:9.1f} {tally['undecided']:10d} {tally['stopped']:8d}"
        )
    if everything:
        print(f"all decided checks: median {statistics.median(everything):.1f} ms, p90 {p90(everything):.1f} ms")
    print("verdicts by perturbation:", json.dumps(verdicts, sort_keys=True))
    return sum(len(v) for v in times.values()) + sum(sum(t.values()) for t in apart.values())


def run_batch(truths, planner_time: float, jobs: int) -> tuple[int, int, float]:
    """The bench's pairs as batches (one per domain text), each truth analysed once: (pairs, undecided, seconds)."""
    by_domain: dict[str, list[Pair]] = {}
    for domain, domain_text, truth, placeholder in truths:
        rng = random.Random(f"{domain}/{truth}")
        for _, candidate in perturbations(domain_text, truth, rng):
            by_domain.setdefault(domain_text, []).append(Pair(truth, candidate, placeholder))
    count, undecided = 0, 0
    start = time.perf_counter()
    with Executor(jobs) as executor:
        for domain_text, pairs in by_domain.items():
            for verdict in check_pairs(
                domain_text, pairs, executor=executor, limits=Limits(time=planner_time), retry_factor=1, progress=False
            ):
                count += 1
                undecided += isinstance(verdict, str) or verdict.equivalent is None
    return count, undecided, time.perf_counter() - start


class _Slow(Exception):
    pass


def _alarm(signum, frame):
    raise _Slow


def compare_libraries(truths, limit_s: int = 10) -> None:
    """Isomorphism of a truth's problem graph with its renamed copy, timed with each library on the same
    graphs (argument positions as nodes, so every library sees the same coloured simple graph). A
    pure-Python search that runs longer than ``limit_s`` seconds is stopped and counted as such."""
    import networkx as nx

    try:
        import rustworkx as rx
    except ImportError:
        rx = None
    names = ("pynauty", "rustworkx", "networkx-vf2", "networkx-vf2pp")
    rows: dict[str, list[float]] = {name: [] for name in names}
    stopped = dict.fromkeys(names, 0)
    signal.signal(signal.SIGALRM, _alarm)
    for _, domain_text, truth, _ in truths:
        renamed = perturbations(domain_text, truth, random.Random(0))[0][1]
        graphs = []
        for text in (truth, renamed):
            task = GroundTask.from_strings(domain_text, text)
            graph = ProblemGraph(task.lifted)
            for predicate, args in sorted(task.lifted.init):
                graph.add("init", predicate, args)
            for lit in task.lifted.goal:
                graph.add("goal", lit.predicate, lit.args, lit.positive)
            graphs.append(graph)
        a, b = graphs

        def timed(name, call, first, second):
            signal.alarm(limit_s)
            start = time.perf_counter()
            try:
                assert call(first, second), name
                rows[name].append((time.perf_counter() - start) * 1000)
            except _Slow:
                stopped[name] += 1
            finally:
                signal.alarm(0)

        timed("pynauty", lambda x, y: _fresh(x).isomorphic(_fresh(y)), a, b)
        if rx is not None:
            timed(
                "rustworkx",
                lambda x, y: _rustworkx_isomorphic(rx, x, y),
                _to_rustworkx(a, rx),
                _to_rustworkx(b, rx),
            )
        nxa, nxb = (_to_networkx(g, nx) for g in (a, b))
        timed("networkx-vf2", lambda x, y: nx.is_isomorphic(x, y, node_match=_same_colour), nxa, nxb)
        timed("networkx-vf2pp", lambda x, y: nx.vf2pp_is_isomorphic(x, y, node_label="colour"), nxa, nxb)
        print(f"  {len(a.colours)} nodes done", file=sys.stderr)
    print(f"graph isomorphism of {len(truths)} problem graphs with their renamed copies, ms per check")
    print(f"{'library':16} {'median':>9} {'mean':>9} {'max':>9}  stopped (after {limit_s} s or {RX_CALL_LIMIT} states)")
    for name, values in rows.items():
        if values:
            print(
                f"{name:16} {statistics.median(values):9.2f} {statistics.mean(values):9.2f} {max(values):9.2f}"
                f"  {stopped[name]}"
            )
        else:
            print(f"{name:16} not installed or always stopped ({stopped[name]})")


def _rustworkx_isomorphic(rx, first, second) -> bool:
    """rustworkx's VF2 cannot be interrupted by the alarm: its own bound on visited states stops it."""
    if not rx.is_isomorphic(first, second, node_matcher=operator.eq, id_order=False, call_limit=RX_CALL_LIMIT):
        raise _Slow
    return True


RX_CALL_LIMIT = 2_000_000


def _fresh(graph: ProblemGraph) -> ProblemGraph:
    """The graph without its cached certificate (so the timing includes computing it)."""
    graph._certificate = None
    return graph


def _same_colour(a, b) -> bool:
    return a["colour"] == b["colour"]


def _to_networkx(graph: ProblemGraph, nx):
    out = nx.Graph()
    for index, colour in enumerate(graph.colours):
        out.add_node(index, colour=colour)
    out.add_edges_from(graph.edges)
    return out


def _to_rustworkx(graph: ProblemGraph, rx):
    out = rx.PyGraph(multigraph=False)
    out.add_nodes_from(graph.colours)
    out.add_edges_from_no_data(graph.edges)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=None)
    parser.add_argument("--config", type=Path, default=None)
    parser.add_argument("--domain", action="append", default=None)
    parser.add_argument("--compare", action="store_true", help="time the graph libraries instead")
    parser.add_argument("--planner-time", type=float, default=5.0, help="seconds per planner call (no retry)")
    parser.add_argument("--cap", type=int, default=30, help="seconds after which a check is stopped")
    parser.add_argument("--batch", action="store_true", help="also check the same pairs as one batch")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="processes of the batch")
    parser.add_argument("--planetarium", type=Path, default=None, help="a checkout of BatsResearch/planetarium")
    parser.add_argument("--planetarium-python", default="python3", help="the interpreter where it is installed")
    args = parser.parse_args()
    if args.planetarium is not None:
        import planetarium_side

        items = planetarium_side.pairs(args.planetarium, perturbations)
        theirs = planetarium_side.run_planetarium(args.planetarium_python, items)
        ours = planetarium_side.run_acp(items, cold_checker)
        planetarium_side.report(items, theirs, ours)
        return
    if args.dataset is not None:
        truths = truths_from_dataset(args.dataset)
        source = f"{len(truths)} t2p records of {args.dataset}"
    else:
        truths = truths_from_generators(args.config, args.domain)
        source = f"{len(truths)} generated problems, one per configured size"
    if not truths:
        sys.exit(f"no truth problems found ({source})")
    if args.compare:
        compare_libraries(truths)
        return
    start = time.perf_counter()
    pairs = run_bench(truths, f"{source}, one process", args.planner_time, args.cap)
    single = time.perf_counter() - start
    if args.batch:
        count, undecided, seconds = run_batch(truths, args.planner_time, args.jobs)
        print(
            f"the same {count} pairs, a fresh checker each (above): {single:.1f} s, {pairs / single:.1f} pairs/s; "
            f"as a batch on {args.jobs} process(es), each truth analysed once: {seconds:.1f} s, "
            f"{count / seconds:.1f} pairs/s ({single / seconds:.1f}x), {undecided} undecided or not checked"
        )


if __name__ == "__main__":
    main()
