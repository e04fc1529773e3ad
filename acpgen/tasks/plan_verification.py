"""pver: verify a given plan — is it a plan for the current state, and if not, where does it fail first?

The question shows a candidate sequence: a stored plan from the state (as val and just use it) or a near
miss of it (:func:`near_misses`: the last steps cut off, one step dropped, two neighbouring steps swapped,
one argument replaced by another object of its type, a step's arguments reversed, a step missing its
last argument). The answer is one of three kinds (:class:`PlanCheck`):

* ``valid``: every step names an action of the problem, each can be applied after the ones before it,
  and the goal holds after the last;
* ``step N``: step N (counting from 1) is the first that names no action of the problem (unknown name,
  wrong number or types of arguments) or cannot be applied at its turn;
* ``goal not reached``: every step applies, but the goal does not hold at the end.

Generation judges each candidate on acp's grounded task (:func:`acpgen.proofs.plans.judge`); the
stored answer is re-proven on the separate lifted interpreter (:func:`acpgen.proofs.plans.lifted_verdict`)
and, for the plan/not-a-plan part, by unified-planning's validator where it is installed and can read
the domain. Score 1 for the same kind and, for ``step N``, the same step.

Boolean and multiple-choice formats: "is this sequence a plan?" and "which of these four sequences is a
plan?", with the near misses whose every step is an action of the problem as distractors (a step that
names no action cannot be worded in English).

A record about a state from which no plan reaches the goal has ``"solvable": false`` and the usual answer
(``goal not reached`` or ``step N``: no sequence from such a state is a plan). An answer that says no plan
exists (:func:`acpgen.nl.plan_steps.no_plan_statement`) is no verdict of this task: it is read as the verdict
"invalid", as every answer that says the sequence fails without saying where, and scores 0.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from acpgen.config import QAConfig
from acpgen.errors import DataError
from acpgen.nl.answers import ParseError, answer_section
from acpgen.nl.plan_steps import no_plan_statement
from acpgen.pddl.explore import random_walk
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.model import canonical, split_canonical
from acpgen.proofs.claims import Claim, PlanClaim, expect
from acpgen.proofs.oracle import Decision, Method
from acpgen.proofs.plans import Failure, Step, judge, lifted_verdict, unified_planning_verdict
from acpgen.schema import is_unsolvable
from acpgen.tasks.base import (
    OK,
    WRONG,
    Check,
    QAItem,
    RecordContext,
    Task,
    Verdict,
    Words,
    lowered,
    on_plan_before_goal,
)
from acpgen.tasks.choice import ChoiceFormats, Claims, Matcher

VALID, STEP, GOAL, INVALID = "valid", "step", "goal not reached", "invalid"


@dataclass(frozen=True)
class PlanCheck:
    """A verdict on a sequence: ``kind`` valid, step (with the 1-based ``step``), goal not reached; and,
    as read from an answer only, invalid (the answer says the sequence fails but not where; ``no_plan``: it
    says that no plan exists from the state)."""

    kind: str
    step: int | None = None
    no_plan: bool = field(default=False, compare=False)

    def text(self) -> str:
        """The verdict as the stored answer writes it: ``valid``, ``step 3``, ``goal not reached``."""
        return f"step {self.step}" if self.kind == STEP else self.kind

    @classmethod
    def from_text(cls, text: str) -> PlanCheck:
        """A stored answer read back (:meth:`text`); DataError for anything else."""
        found = re.fullmatch(r"step (\d+)", text.strip().lower())
        if found and int(found[1]) >= 1:
            return cls(STEP, int(found[1]))
        if text.strip().lower() in (VALID, GOAL):
            return cls(text.strip().lower())
        raise DataError(f"not a plan-verification answer: {text!r} (valid, step N or goal not reached)")


def _steps(sequence: Sequence[str]) -> list[Step]:
    """The sequence's steps as the plan judge takes them (a text that is no action form stays unreadable)."""
    out = []
    for text in sequence:
        try:
            name, args = split_canonical(text.lower())
        except IndexError:
            out.append(Step(text, None))
            continue
        out.append(Step(text, name, args))
    return out


def check_of(task: GroundTask, sequence: Sequence[str]) -> PlanCheck:
    """The verdict on a sequence, judged on acp's grounded task (generation and ``--recheck``)."""
    run = judge(task, _steps(sequence))
    if run.failure in (Failure.UNREADABLE, Failure.NOT_EXECUTABLE):
        return PlanCheck(STEP, run.prefix + 1)
    return PlanCheck(VALID) if run.reaches_goal else PlanCheck(GOAL)


def lifted_check(ctx: RecordContext, sequence: Sequence[str]) -> PlanCheck:
    """The verdict on a sequence, judged on the separate lifted interpreter (the second proof)."""
    verdict = lifted_verdict(ctx.lifted, lowered(sequence))
    if verdict.first_failure is not None:
        return PlanCheck(STEP, verdict.first_failure + 1)
    return PlanCheck(VALID) if verdict.reaches_goal else PlanCheck(GOAL)


# ----- near misses ----------------------------------------------------------------------------------------
def _with_step(plan: list[str], index: int, step: str) -> list[str]:
    return plan[:index] + [step] + plan[index + 1 :]


def _changed_steps(task: GroundTask, plan: list[str], rng: random.Random) -> list[tuple[str, list[str]]]:
    """Near misses that change one step: an argument replaced by another object of its type, the
    arguments reversed, the last argument left out."""
    lifted, out = task.lifted, []
    for index, step in enumerate(plan):
        name, args = split_canonical(step)
        schema = lifted.schemas.get(name)
        if schema is None or not args:
            continue
        slot = rng.randrange(len(args))
        others = sorted(set(lifted.objects_of(schema.params[slot][1])) - {args[slot]})
        if others:
            changed = (*args[:slot], rng.choice(others), *args[slot + 1 :])
            out.append(("object_replaced", _with_step(plan, index, canonical(name, changed))))
        if len(args) > 1 and args != args[::-1]:
            out.append(("arguments_reversed", _with_step(plan, index, canonical(name, args[::-1]))))
        out.append(("argument_missing", _with_step(plan, index, canonical(name, args[:-1]))))
    return out


def near_misses(task: GroundTask, plan: list[str], rng: random.Random) -> list[tuple[str, list[str]]]:
    """(kind, sequence) of the candidates built from ``plan``, the plan itself first (kind ``plan``).
    Deterministic for the rng; a candidate may still be a plan (two independent steps swapped)."""
    out: list[tuple[str, list[str]]] = [("plan", plan)]
    out += [("truncated", plan[:-k]) for k in (1, 2) if len(plan) - k >= 1]
    out += [("step_dropped", plan[:i] + plan[i + 1 :]) for i in range(len(plan)) if len(plan) > 1]
    out += [
        ("steps_swapped", plan[:i] + [plan[i + 1], plan[i]] + plan[i + 2 :])
        for i in range(len(plan) - 1)
        if plan[i] != plan[i + 1]
    ]
    out += _changed_steps(task, plan, rng)
    seen: set[tuple[str, ...]] = set()
    unique = []
    for kind, sequence in out:
        if tuple(sequence) not in seen:
            seen.add(tuple(sequence))
            unique.append((kind, sequence))
    return unique


def _judged(ctx: RecordContext, item: QAItem, rng: random.Random) -> list[tuple[str, list[str], PlanCheck]]:
    plan = lowered(item.suffix or [])
    if len(plan) < 2 or check_of(ctx.task, plan).kind != VALID:
        return []
    return [(kind, seq, check_of(ctx.task, seq)) for kind, seq in near_misses(ctx.task, plan, rng)]


# ----- reading answers ------------------------------------------------------------------------------------
_STEP = re.compile(
    r"\b(?:step|action|position)\s*(?:number\s*|no\.?\s*|#\s*)?(\d+)\b|\b(\d+)(?:st|nd|rd|th)\s+(?:step|action)\b"
)
_FAILS = re.compile(
    r"\b(?:cannot|can't|can ?not|could not|fails?|failed|inapplicable|not applicable|not be applied|"
    r"precondition|unknown|no action|not an action|wrong|invalid|not executable|not valid)\b"
)
_GOAL_MISSED = re.compile(
    r"\bgoal\b[^.;]*\b(?:not|never|isn't|is not|unreached|unmet|unsatisfied)\b|"
    r"\b(?:not|never|doesn't|does not|fails to|fail to)\b[^.;]*\b(?:reach|achieve|satisfy|attain)\w*[^.;]*\bgoal\b"
)
_VALID = re.compile(r"\b(?:valid|is a (?:valid |correct )?plan|correct|yes)\b")
_NOT_VALID = re.compile(r"\b(?:invalid|not (?:a )?(?:valid|plan|correct))\b")
_BARE = re.compile(r"^[^\w-]*(-?\d+)\W*$")  # "3", "step: 3." and "-1", which names no step


def parse_check(response: str) -> PlanCheck:
    """A verdict in a response. The answer's own forms first (``valid``, ``step 3``, ``goal not
    reached``; a bare number is a step); then prose: a step named with a word of failure, a goal said
    to be missed, a step named alone, the plan said to be valid; "invalid" without a step or a goal,
    and "no plan exists" (the sequence is no plan, where it fails unsaid), are kept as such (always
    wrong). ParseError when none of these is found."""
    text = " ".join(answer_section(response).lower().replace("*", " ").split())
    plain = text.strip(" .\"'`")
    if plain in (VALID, GOAL, "the plan is valid"):
        return PlanCheck(GOAL if plain == GOAL else VALID)
    bare = _BARE.match(plain)
    if bare:
        return _step(int(bare[1]))
    step = _STEP.search(text)
    if step and _FAILS.search(text):
        return _step(int(step[1] or step[2]))
    if _GOAL_MISSED.search(text):
        return PlanCheck(GOAL)
    if step:
        return _step(int(step[1] or step[2]))
    if no_plan_statement(text) is not None:  # before "valid": "no valid plan exists"
        return PlanCheck(INVALID, no_plan=True)
    if _NOT_VALID.search(text):
        return PlanCheck(INVALID)
    if _VALID.search(text):
        return PlanCheck(VALID)
    raise ParseError("no verdict found (valid, step N or goal not reached)")


def _step(number: int) -> PlanCheck:
    if number < 1:
        raise ParseError(f"steps are counted from 1, not {number}")
    return PlanCheck(STEP, number)


# ----- boolean and multiple-choice formats ------------------------------------------------------------------
class PlanVerificationChoice(ChoiceFormats):
    bool_group = "plan_verification_bool"
    mcq_group = "plan_verification_mcq"
    goal_in_context = True

    def claims(self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig) -> Claims | None:
        judged = [(seq, check) for _, seq, check in _judged(ctx, item, rng) if _readable(ctx.task, seq)]
        true: list[Claim] = [PlanClaim(seq) for seq, check in judged if check.kind == VALID]
        false: list[Claim] = [PlanClaim(seq) for seq, check in judged if check.kind != VALID]
        return Claims(true, false) if true and false else None

    def decide(self, ctx: RecordContext, claim: Claim) -> Decision:
        return Decision(lifted_check(ctx, expect(claim, PlanClaim).steps).kind == VALID, Method.SIMULATOR)

    def words(self, describer: Words, record: dict[str, Any], claim: Claim) -> dict[str, str]:
        return {"plan": ", ".join(describer.action(s) for s in expect(claim, PlanClaim).steps)}

    def read_reference(
        self, fmt: str, question: str, options: list[str], match: Matcher
    ) -> tuple[list[Claim], dict[str, Any]]:
        raise DataError("pver has no reference questions (it is acp's own task)")


def _walk(task: GroundTask, rng: random.Random, length: int) -> list[str]:
    """A random sequence of up to ``length`` applicable actions from the task's initial state."""
    return [action.name for action, _ in random_walk(task, task.init, rng, length)]


def _readable(task: GroundTask, sequence: list[str]) -> bool:
    return all(task.action(step) is not None for step in sequence)


class PlanVerification(Task):
    name = "pver"
    gen_group = "plan_verification_gen"
    family = "plan"
    description = "is a given sequence a plan; if not, the first failing step or that the goal is not reached"
    context_parts = ("goal", "actions")
    instruction = (
        'Answer "valid" if the sequence is a plan; otherwise "step N" for the first step that cannot be applied '
        '(or names no action of the problem), or "goal not reached" if every step applies but the goal does not '
        "hold after the last one."
    )
    question_fields = ("plan",)
    choice = PlanVerificationChoice()
    unsolvable_formats = ("gen",)  # "is it a plan?" has no true option there

    def required_fields(self, record: dict[str, Any]) -> tuple[str, ...]:
        return super().required_fields(record) + ("plan",)

    def accepts(self, state: dict[str, Any]) -> bool:
        return on_plan_before_goal(state)

    def parse(self, response: str) -> PlanCheck:
        return parse_check(response)

    def score(self, ctx: RecordContext, answer: PlanCheck) -> Verdict:
        expected = check_of(ctx.task, ctx.record["plan"]) if ctx.recheck else PlanCheck.from_text(str(ctx.answer))
        if answer == expected:
            return Verdict.correct(expected.text())
        if answer.kind == INVALID and answer.no_plan:
            return Verdict.wrong(
                f"says no plan exists from the state, not where the sequence fails; expected {expected.text()}"
            )
        if answer.kind == INVALID:
            return Verdict.wrong(f"says the sequence fails without saying where; expected {expected.text()}")
        return Verdict.wrong(f"expected {expected.text()}, got {answer.text()}")

    def validate(self, ctx: RecordContext) -> Check:
        stored = PlanCheck.from_text(str(ctx.answer))
        if is_unsolvable(ctx.record) and stored.kind == VALID:
            return Check(WRONG, "no sequence from a state without a plan is valid")
        lifted = lifted_check(ctx, ctx.record["plan"])
        if lifted != stored:
            return Check(WRONG, f"the lifted interpreter gives {lifted.text()}, stored {stored.text()}")
        if not ctx.options.external_validators:
            return Check(OK)
        external = unified_planning_verdict(ctx.record["PDDL_domain"], ctx.record["PDDL_problem"], ctx.record["plan"])
        if external is not None and (external.executes and external.reaches_goal) != (stored.kind == VALID):
            return Check(WRONG, f"unified-planning's validator disagrees with the stored {stored.text()}")
        return Check(OK)

    def generate(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        """A candidate of the wanted kind (drawn evenly from valid, failing step, goal not reached), a
        near miss where one has it: a valid candidate is the plan itself or, half the time, a near miss
        that is still a plan."""
        judged = _judged(ctx, item, rng)
        if not judged:
            return None
        want = rng.choice((VALID, STEP, GOAL))
        pool = [c for c in judged if c[2].kind == want] or judged
        near = [c for c in pool if c[0] != "plan"]
        kind, sequence, check = rng.choice(near) if near and (want != VALID or rng.random() < 0.5) else pool[0]
        return {"plan": sequence, "answer": check.text(), "perturbation": kind}

    def generate_unsolvable(
        self, ctx: RecordContext, item: QAItem, rng: random.Random, settings: QAConfig
    ) -> dict[str, Any] | None:
        """A question about a state from which no plan reaches the goal (the qa stage asks it for such states, once
        they are proven so): the sequence is ``item.suffix`` (a sequence the stage gives: a plan of the problem
        before its goal was changed) or a near miss of it, drawn evenly between a failing step and the goal not
        reached; without one, a random walk of two to six steps from the state (perturbation ``walk``) or its near
        misses. None when neither has two steps."""
        given, walked = lowered(item.suffix or []), False
        if len(given) < 2:
            given, walked = _walk(ctx.task, rng, rng.randint(2, 6)), True
        if len(given) < 2:
            return None
        judged = [(kind, seq, check_of(ctx.task, seq)) for kind, seq in near_misses(ctx.task, given, rng) if seq]
        want = rng.choice((STEP, GOAL))
        pool = [c for c in judged if c[2].kind == want] or judged
        kind, sequence, check = rng.choice(pool)
        kind = "walk" if walked and kind == "plan" else kind
        return {"plan": sequence, "answer": check.text(), "perturbation": kind, "solvable": False}

    def question_values(self, record: dict[str, Any], words: Words, pddl_actions: bool) -> dict[str, str]:
        return {"plan": " ".join(f"{i}. {step}" for i, step in enumerate(record["plan"], start=1))}

    def to_responses(self, record: dict[str, Any]) -> list[str]:
        return [str(record["answer"])]


TASK = PlanVerification()
