"""PlanBench's own files, scored exactly: its task and result files turned into acp ``plan`` records and predictions.

A PlanBench task file (``prompts/<domain>/<task>.json``, and the same file with the model's answers
under ``responses/``, ``results/<domain>/<engine>/`` or ``results_backprompting/...``) is one JSON
object: ``task`` (``task_1_plan_generation``, ``task_1_plan_generation_zero_shot``, ``..._pddl``,
``..._state_tracking``, ``..._backprompting...``, ``t1``; any name PlanBench gives a task),
``domain`` (its config's name, or a folder name), optionally ``engine``, and ``instances``: a list
of objects with ``instance_id``, ``query``, ``ground_truth_plan`` (a text of PDDL actions, one a
line, or a list of them; in task 8 the plan in words) and, once a model answered,
``llm_raw_response`` (backprompting files: the dialogue ``messages``, whose last answer is the
model's plan). Instance N is the problem ``instance-N.pddl`` of the task's instance folder over the
domain file of its config, or the domain and problem its prompt shows (PlanBench's PDDL prompts:
``[DOMAIN]``, ``[QUERY PROBLEM]``).

Tasks (:func:`task_kind`, by the number in the task's name): 1 (plan generation), 5 (plan
generalization) and 8.1-8.3 (goal reformulations) become records of acp's ``plan`` task, 2 (plan
optimality) of ``optplan``; each answered instance is scored by acp's plan scorer: validity, goal,
optimality against acp's own optimal cost (the ground-truth plan is stored as the record's answer,
but its length is not taken as the optimum), prefix, goal share and the first failure and its class.
Tasks 3 and 7 ask for no plan, and 4 and 6 for a plan of an instance the prompt changed, which their
files no longer hold; the instances of PlanBench's ``unsolvable_*`` configs have no plan, and the
right answer there is to say so, which acp's plan task cannot score: such files are not scored.

**Reading an answer** (:func:`translate`: the text given to acp's plan reader,
:mod:`acpgen.nl.plan_steps`), leniently in form and exactly in content:

1. the answer: the text after the last ``</think>``, code fences and LaTeX's ``\\(`` ``\\)`` removed, a
   numbered list written on one line split; PlanBench's markers: the text before the first
   ``[STATEMENT]`` after a plan marker (a problem the model made up), and of that the last ``[PLAN]``
   ... ``[PLAN END]`` (the text before the last ``[PLAN END]``, after the ``[PLAN]`` or ``[PLAN END]``
   before it); an answer whose final statement says that no plan exists (acp's one reading rule,
   :func:`no_plan_said`: a sentence of :func:`acpgen.nl.plan_steps.no_plan_statement` in the answer,
   before a problem the model made up, with no step stated after it) is that answer, whatever plan it
   states before;
2. each line: its indentation, bullet (``-``, ``*``), numbering (``1.``, ``Step 2:``) and markdown
   set apart, then its words are read (:meth:`Wording.read`) as a **step** (it starts, after a label
   such as ``Action:`` and words such as ``Next,``, ``Finally, we``, ``Perform``, with one or more
   actions: PDDL actions ``(unstack a b)``, calls ``Unstack(red, blue)``, ``Feast(e from b)``, or an
   action's wording with an object's name in each slot, in the words of PlanBench's prompts or
   another form of them: ``unstack red block from blue block``, ``Stack the blue block onto the
   orange block``, ``Put blue on the table``, ``Feast d from b``, with a remark after it; a step
   corrected in its line, ``X is not correct, so Y``, is Y), a **named** action that cannot be read
   (it starts with an action's verb, and its objects cannot be read exactly: ``pick up the block``,
   ``put down the red block on the blue block``, ``pick up red and stack it on blue``), a
   **mention** (an action's wording inside a sentence: ``Since the hand is empty, unstack the blue
   block from the yellow block.``), or **prose** (a line that names no action; a verb used as a
   noun, ``Attack requires ...``, ``Stack from bottom to top:``); an answer's own letters for
   objects are names where it defines them (``the Red block (R)``);
3. the lines form a tree by their indentation and bullets; a step's sub-lines explain it and are
   no steps; a named action with steps under it (``1. **Unstack the red block**`` over ``- Action:
   unstack the red block from on top of the blue block``) is their heading; a mention is a step
   only between two steps;
4. the steps form **blocks**, which a heading announcing a plan (``**Action Sequence:**``, ``Final
   plan:``, ``Answer:``, ``So the final plan is``), a heading announcing a commentary
   (``**Explanation:**``) or numbering that starts again under the same parent ends; the answer's
   plan is its final statement: the last block with a step read (a commentary's only without
   another: ``Explanation: Step 1: we attack object a ...`` restates the plan above it); a plan
   restated (the same steps twice or more in a row) is one plan.

The answer goes to acp's plan reader one step a line: each step as its PDDL action ``(name arg ...)``, a
named action that cannot be read as its text in a group inside a group, ``((pick up the block))``,
which that reader never reads as an action (nor in words): every step that names an action is a step
of the plan, and one that cannot be read makes it invalid (content is never guessed). No step read: ""
(a ``parse_error``). An answer that says no plan exists goes as :data:`acpgen.nl.plan_steps.NO_PLAN_ANSWER`.
"""

from __future__ import annotations

from acpgen.evaluation.planbench.files import (
    FAILURE_COLUMNS,
    OTHER_TASKS,
    PLAN_TASKS,
    SAYS_NO_PLAN,
    TaskFile,
    failure_rates,
    planbench_files,
    planbench_predictions,
    prompt_of,
    prompt_pddl,
    read_task_file,
    response_of,
    score_planbench,
    task_kind,
)
from acpgen.evaluation.planbench.reading import (
    answer_text,
    no_plan_said,
    plan_block,
    plan_lines,
    plan_section,
    translate,
)
from acpgen.evaluation.planbench.wording import (
    ACTION_GROUP,
    NAMED,
    OBFUSCATED_BLOCKSWORLD,
    PROSE,
    UNSOLVABLE,
    WORDINGS,
    Reading,
    Wording,
    check_wording,
    config_name,
    fits_domain,
    pddl_wording,
    read_config,
    wording_of,
)

__all__ = [
    "ACTION_GROUP",
    "FAILURE_COLUMNS",
    "NAMED",
    "OBFUSCATED_BLOCKSWORLD",
    "OTHER_TASKS",
    "PLAN_TASKS",
    "PROSE",
    "SAYS_NO_PLAN",
    "UNSOLVABLE",
    "WORDINGS",
    "Reading",
    "TaskFile",
    "Wording",
    "answer_text",
    "check_wording",
    "config_name",
    "failure_rates",
    "fits_domain",
    "no_plan_said",
    "pddl_wording",
    "plan_block",
    "plan_lines",
    "plan_section",
    "planbench_files",
    "planbench_predictions",
    "prompt_of",
    "prompt_pddl",
    "read_config",
    "read_task_file",
    "response_of",
    "score_planbench",
    "task_kind",
    "translate",
    "wording_of",
]
