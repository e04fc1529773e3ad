"""`make report-demo`: an `acp report` of two made-up models, looked at in headless Chromium.

Usage: python benchmarks/report_demo.py DATASET --out OUT [-j 2] [--no-browser]

* model-a: the stored answers of the records of DATASET (as `acp reference-answers` writes them);
* model-b: the same answers with every third one replaced, in turn, by a text that commits to
  nothing ("Unclear."; a parse error), by a near miss (the last action or atom left out; yes and no
  swapped; the next option letter; the next plan index) and by a name the task does not know.

Both are scored with acp's scorer into OUT/model-a.jsonl and OUT/model-b.jsonl (the lines of
`acp score --output`), then `acp report` writes OUT/report/ (with --dataset DATASET, so the
Jaccard/F1 and difficulty sections are filled), and Chromium (`apt-get install -y chromium`)
renders OUT/report/report.html headless into OUT/report/screenshot.png.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

from acpgen.artefacts import write_jsonl
from acpgen.evaluation.records import Dataset, iter_predictions, reference_predictions
from acpgen.evaluation.report import build_report, write_report
from acpgen.evaluation.scoring import score_predictions
from acpgen.tasks import split_kind

_GROUP = re.compile(r"\([^()]*\)")
_UNKNOWN = "(teleport nobody nowhere)"


def near_miss(task: str, fmt: str, response: str) -> str:
    """A wrong answer close to the right one."""
    if fmt == "bool":
        return response.replace("Yes", "N-O").replace("No", "Yes").replace("N-O", "No")
    if fmt == "mcq":
        return re.sub(r"\b([A-D])\.", lambda m: "ABCD"[("ABCD".index(m.group(1)) + 1) % 4] + ".", response)
    if task == "val":
        return str(int(response) + 1) if response.strip().lstrip("-").isdigit() else response
    groups = list(_GROUP.finditer(response))
    if len(groups) >= 2:
        last = groups[-1]
        return response[: last.start()] + response[last.end() :]
    return unknown_name(task, fmt, response)


def unknown_name(task: str, fmt: str, response: str) -> str:
    """An answer naming an action or atom the task does not have (bool/mcq: the near miss)."""
    if fmt != "gen" or task == "val":
        return near_miss(task, fmt, response)
    if task == "prog":
        return f"Positive effects: {_UNKNOWN}\nNegative effects: None"
    if task == "just":
        return f"Simplified plan: {_UNKNOWN}"
    return _UNKNOWN


def perturbed(lines: list[dict]) -> list[dict]:
    """Every third line replaced, in turn, by a parse error, a near miss and an unknown name."""
    out = []
    for index, line in enumerate(lines):
        line = dict(line)
        if index % 3 == 0:
            task, fmt = split_kind(line["task"])
            style = (index // 3) % 3
            if style == 0:
                line["response"] = "Unclear."
            elif style == 1:
                line["response"] = near_miss(task, fmt, line["response"])
            else:
                line["response"] = unknown_name(task, fmt, line["response"])
        out.append(line)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--no-browser", action="store_true", help="Do not take the Chromium screenshot.")
    args = parser.parse_args()
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not args.no_browser and browser is None:
        sys.exit("report_demo: chromium is not installed (apt-get install -y chromium), or pass --no-browser")
    records = Dataset.load(args.dataset)
    answers = list(reference_predictions(records))
    for model, lines in (("model-a", answers), ("model-b", perturbed(answers))):
        predictions_path = args.out / f"{model}.predictions.jsonl"
        write_jsonl(predictions_path, lines)
        predictions = list(iter_predictions(predictions_path, records))
        scored = score_predictions(predictions, jobs=args.jobs, progress=False)
        write_jsonl(args.out / f"{model}.jsonl", [s.output_line() for s in scored])
        print(f"{model}: {len(scored)} answers scored, {sum(s.verdict.score for s in scored):.0f} correct")
    report_dir = args.out / "report"
    report = build_report([args.out / "model-a.jsonl", args.out / "model-b.jsonl"], args.dataset)
    for path in write_report(report, report_dir):
        print(path)
    if args.no_browser:
        return
    screenshot = (report_dir / "screenshot.png").resolve()
    page = (report_dir / "report.html").resolve().as_uri()
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    command += [f"--screenshot={screenshot}", "--window-size=1200,2000", page]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0 or not screenshot.is_file() or screenshot.stat().st_size == 0:
        sys.exit(f"report_demo: chromium did not write {screenshot}: {result.stderr.strip()[-500:]}")
    print(f"{screenshot} ({screenshot.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
