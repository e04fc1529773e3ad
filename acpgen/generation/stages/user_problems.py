"""Stage 1 for the user's own domain: the problem files of ``--problems`` -> OUT/D/problems/<name>.pddl.

Instead of generating problems, the ``*.pddl`` files of the user's folder are taken in file-name
order (a domain file in the folder is passed over). Each is checked before it is copied: it
parses against the domain (unsupported constructs are refused, naming the file), and its goal
is reachable in the delete relaxation. A problem that fails a check is reported by name and
skipped; the others go on. The copy keeps the text, with line endings normalised and one
final newline. A copy that exists already is kept when it is the same text (resume) and is an
error when the user's file has changed since (its plans and questions would be stale).
"""

from __future__ import annotations

from acpgen.errors import AcpError, DataError
from acpgen.generation.stages.base import StageContext, StageReport
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import declared_domain_name
from acpgen.pddl.semantics import relaxed_goal_reachable


def normalised(text: str) -> str:
    """The problem text with ``\\n`` line endings, no trailing blanks on lines, and one final newline."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).strip("\n") + "\n"


def copy_user_problems(ctx: StageContext) -> StageReport:
    report = StageReport("problems", ctx.domain)
    folder = ctx.source.problems
    assert folder is not None  # only called for a source with a problems folder
    files = sorted(p for p in folder.glob("*.pddl") if p.is_file())
    for path in files:
        text = normalised(path.read_text())
        if declared_domain_name(text) is not None:
            continue  # the domain file kept next to its problems, as IPC folders do
        target = ctx.problems_dir / path.name
        renamed = ctx.source.problem(text)[0]  # the text itself, unless the run is obfuscated
        if target.exists():
            if target.read_text() != renamed:
                raise DataError(
                    f"{path} differs from its copy {target} (made by an earlier run): the plans and questions "
                    f"of that copy would be stale; use another --out or delete {ctx.root}"
                )
            report.skipped += 1
            continue
        try:
            task = GroundTask.from_strings(ctx.domain_text, renamed, str(path))
        except AcpError as err:
            report.failed.append(f"{path.name}: skipped: {err}")
            continue
        if not relaxed_goal_reachable(task, task.init):
            report.failed.append(
                f"{path.name}: skipped: the goal is unreachable even in the delete relaxation (unsolvable)"
            )
            continue
        ctx.write_problem(target, text)
        report.done += 1
    if not files:
        report.failed.append(f"{folder}: no *.pddl problem files")
    report.items = len(ctx.problem_files())
    return report
