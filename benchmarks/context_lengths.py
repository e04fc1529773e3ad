"""Context lengths: acp's natural-language contexts against the reference ones, on the same problems.

For every reference gen record (tests/fixtures/acpbench-dev) acp renders the context of the
record's task from the record's own PDDL problem with acpgen/data/templates/<domain>.yaml, and compares its
length in characters with the reference context. Prints per domain the median and the largest
ratio acp / reference. Usage: python benchmarks/context_lengths.py [DEV_FOLDER]
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from acpgen.evaluation.reference_records import REFERENCE_DOMAINS
from acpgen.generators import domain_file
from acpgen.nl.describe import Describer
from acpgen.nl.template import load_template
from acpgen.pddl.tarski_io import read_strings
from acpgen.tasks import TASKS


def main(folder: Path) -> None:
    ratios: dict[str, list[float]] = {}
    lengths: dict[str, list[tuple[int, int]]] = {}
    for task in TASKS:
        for record in json.loads((folder / f"{task}.gen.json").read_text()):
            reference = read_strings(record["PDDL_domain"], record["PDDL_problem"])
            domain = REFERENCE_DOMAINS[reference.domain_name]
            ours = domain_file(domain).read_text()
            lifted = read_strings(ours, record["PDDL_problem"])
            context = Describer(load_template(domain), lifted).context(
                TASKS[task].context_parts, "nl", ours, record["PDDL_problem"]
            )
            ratios.setdefault(domain, []).append(len(context) / len(record["context"]))
            lengths.setdefault(domain, []).append((len(context), len(record["context"])))
    print(f"{'domain':12} {'records':>7} {'median':>7} {'max':>6} {'ours max':>9} {'ref max':>8}")
    for domain in sorted(ratios):
        values = ratios[domain]
        print(
            f"{domain:12} {len(values):7d} {statistics.median(values):7.2f} {max(values):6.2f} "
            f"{max(a for a, _ in lengths[domain]):9d} {max(b for _, b in lengths[domain]):8d}"
        )


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parents[1] / "tests/fixtures/acpbench-dev")
