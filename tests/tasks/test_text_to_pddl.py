"""The t2p task: extracting the problem from model text, the abstract patterns (build and read back),
generation, scoring with the three flags, and validation catching a wrong record."""

from __future__ import annotations

import pickle
import random

import pytest

from acpgen.evaluation.scoring import Scored
from acpgen.generators import DOMAINS, get_generator
from acpgen.generators.blocksworld import PATTERNS as BLOCKSWORLD
from acpgen.generators.ferry import PATTERNS as FERRY
from acpgen.generators.grippers import PATTERNS as GRIPPERS
from acpgen.generators.visitall import PATTERNS as VISITALL
from acpgen.nl.answers import ParseError
from acpgen.nl.describe import Describer
from acpgen.nl.template import load_template
from acpgen.pddl.grounding import GroundTask
from acpgen.tasks import TASKS, RecordContext, ScoreOptions
from acpgen.tasks.base import OK, SCORED, UNPROVEN, WRONG, QAItem
from acpgen.tasks.text_to_pddl import CATEGORIES, last_problem

T2P = TASKS["t2p"]
FERRY_DOMAIN = get_generator("ferry")._domain_text
TRUTH = """(define (problem f) (:domain ferry)
  (:objects c0 c1 - car l0 l1 - location)
  (:init (at c0 l0) (at c1 l1) (at-ferry l0) (empty-ferry) (not-eq l0 l1) (not-eq l1 l0))
  (:goal (and (at c0 l1) (at c1 l0))))"""
RENAMED = TRUTH.replace("c0", "car_a").replace("l0", "dock")


# ----- parse ----------------------------------------------------------------------------------------
def test_parse_takes_the_last_complete_problem():
    first = "(define (problem a) (:domain ferry) (:init) (:goal (and)))"
    response = f"Here is a draft:\n{first}\nand the final one:\n```pddl\n{TRUTH}\n```\nDone (really)."
    assert last_problem(response) == TRUTH


def test_parse_skips_an_unfinished_last_candidate_and_comments():
    commented = TRUTH.replace("(:init", "; a comment with a ) parenthesis\n  (:init")
    response = f"{commented}\nNow (define (problem b) (:domain ferry) (:init"
    assert last_problem(response) == commented


@pytest.mark.parametrize("text", ["no pddl at all", "(define (domain ferry))", "(define (problem p) (:init"])
def test_parse_refuses(text):
    with pytest.raises(ParseError):
        last_problem(text)


def test_case_of_define_problem_does_not_matter():
    assert last_problem(TRUTH.upper()) == TRUTH.upper()


# ----- patterns: every pattern reads back what it builds, and refuses a changed instance -------------
PATTERN_OBJECTS = {
    "blocksworld": {f"b{i}": "object" for i in range(4)},
    "ferry": {"c0": "car", "c1": "car", "l0": "location", "l1": "location", "l2": "location"},
    "grippers": {
        "ball1": "ball",
        "ball2": "ball",
        "room1": "room",
        "room2": "room",
        "robot1": "robot",
        "left1": "gripper",
        "right1": "gripper",
    },
    "visitall": {f"loc-x{i}-y{j}": "place" for i in range(2) for j in range(3)},
}
# patterns that read facts of the problem are built over generated problems (GENERATED below)
ALL_PATTERNS = [
    (d, p)
    for d, group in zip(PATTERN_OBJECTS, (BLOCKSWORLD, FERRY, GRIPPERS, VISITALL))
    for p in group
    if not p.uses_facts
]


@pytest.mark.parametrize("domain,pattern", ALL_PATTERNS, ids=lambda x: getattr(x, "name", x))
def test_patterns_read_back_what_they_build(domain, pattern):
    objects = PATTERN_OBJECTS[domain]
    for seed in range(5):
        facts, names = pattern.build(objects, random.Random(seed))
        assert pattern.read(objects, facts) == names
        assert all(name in pattern.fill(names) for name in names.values())
        dropped = frozenset(sorted(facts)[1:])
        assert pattern.read(objects, dropped) is None, sorted(facts)[0]


@pytest.mark.parametrize("domain,pattern", ALL_PATTERNS, ids=lambda x: getattr(x, "name", x))
def test_patterns_pickle_for_worker_processes(domain, pattern):
    """Generators travel to pool and Dask workers; a pattern built from a closure would not."""
    objects = PATTERN_OBJECTS[domain]
    copy = pickle.loads(pickle.dumps(pattern))
    facts, names = copy.build(objects, random.Random(3))
    assert (facts, names) == pattern.build(objects, random.Random(3))
    assert copy.read(objects, facts) == names


def test_tower_reads_only_single_towers():
    tower = next(p for p in BLOCKSWORLD if p.name == "tower")
    objects = PATTERN_OBJECTS["blocksworld"]
    assert tower.read(objects, frozenset({"(on b1 b0)", "(on b2 b1)", "(on b3 b2)"})) == {}
    assert tower.read(objects, frozenset({"(on b1 b0)", "(on b3 b2)", "(on b2 b0)"})) is None  # two on b0
    assert tower.read(objects, frozenset({"(on b1 b0)", "(on b0 b1)", "(on b3 b2)"})) is None  # a cycle
    assert tower.placeholder and not next(p for p in FERRY if p.name == "all-at").placeholder


def test_generators_declare_patterns_for_every_domain():
    from acpgen.generators import DOMAINS

    with_patterns = [d for d in DOMAINS if get_generator(d).patterns]
    assert len(with_patterns) == 13 and "alfworld" in with_patterns


def _generated_problem(domain: str, seed: int, size: int = 1):
    generator = get_generator(domain)
    sizes = generator.example_sizes
    spec = generator.generate(sizes[min(size, len(sizes) - 1)], random.Random(seed))
    task = GroundTask.from_strings(generator._domain_text, generator.render(spec))
    lifted = task.lifted
    objects = {o: t for o, t in lifted.objects.items() if o not in lifted.constants}
    atoms = frozenset(task.state_atoms(task.init))
    static = frozenset(a for a in atoms if task.is_static_atom(a))
    return objects, static, atoms


GENERATED = [(d, p) for d in DOMAINS for p in get_generator(d).patterns]


@pytest.mark.parametrize("domain,pattern", GENERATED, ids=lambda x: getattr(x, "name", x))
def test_patterns_over_generated_problems_read_back_what_they_build(domain, pattern):
    """On generated problems (the facts a pattern reads: the static ones for an initial state, all initial
    ones for a goal), every instance reads back into its names, and a dropped fact makes it no instance."""
    built = 0
    # four problems of the second example size, then one of each size (alfworld's lamps need an examine goal)
    for seed, size in [(seed, 1) for seed in range(4)] + [(0, size) for size in range(4)]:
        objects, static, atoms = _generated_problem(domain, seed, size)
        given = static if pattern.part == "init" else atoms
        made = pattern.make(objects, random.Random(seed), given)
        if made is None:
            continue
        built += 1
        facts, names = made
        assert pattern.recognise(objects, facts, given) == names
        assert all(name in pattern.fill(names) for name in names.values())
        assert pattern.recognise(objects, frozenset(sorted(facts)[1:]), given) is None
        copy = pickle.loads(pickle.dumps(pattern))
        assert copy.make(objects, random.Random(seed), given) == made
    assert built, f"{domain} {pattern.name}: no instance on eight generated problems"


# ----- generation, scoring, validation --------------------------------------------------------------
def _record(problem: str = TRUTH, domain: str = "ferry") -> dict:
    return {"id": 1, "task": "t2p", "domain": domain, "PDDL_domain": FERRY_DOMAIN, "PDDL_problem": problem}


def _generated(seed: int) -> dict | None:
    """A t2p record from TRUTH's initial state; None when the drawn patterns make the goal hold at the start."""
    record = _record()
    state = {"id": "p-s0000", "problem": "p", "source": "plan", "plan": 0, "step": 0, "goal": False}
    ctx = RecordContext(record, ScoreOptions(recheck=True))
    fields = T2P.generate(ctx, QAItem(state, None), random.Random(seed), None)
    if fields is None:
        return None
    record = {**record, **fields}
    lifted = GroundTask.from_strings(FERRY_DOMAIN, record["PDDL_problem"]).lifted
    return {**record, "context": T2P.context(Describer(load_template("ferry"), lifted), record, "nl")}


def _records(n: int = 16) -> list[dict]:
    return [r for r in (_generated(seed) for seed in range(n)) if r is not None]


def test_generate_mixes_categories_and_records_size_and_placeholder():
    records = _records(40)  # ferry has 4 x 4 pattern choices (none drawn is one of them for each part)
    assert len(records) >= 12
    assert {r["abstraction"] for r in records} == set(CATEGORIES)
    for r in records:
        task = GroundTask.from_strings(FERRY_DOMAIN, r["answer"])
        assert r["PDDL_problem"] == r["answer"]
        assert r["size"] == len(task.lifted.init) + len(task.lifted.goal)
        assert r["placeholder"] is False  # ferry's abstract goal names its location
        if r["goal_pattern"]["name"] == "all-at":
            loc = r["goal_pattern"]["text"].split()[-1]
            assert {(lit.predicate, lit.args[1]) for lit in task.lifted.goal} == {("at", loc)}
        assert T2P.validate(RecordContext(r, ScoreOptions(recheck=True))).verdict == OK


def test_validate_catches_a_pattern_text_that_does_not_fit():
    record = next(r for r in _records() if r["goal_pattern"]["name"])
    text = record["goal_pattern"]["text"]
    other = "l0" if not text.endswith("l0") else "l1"
    wrong = {**record, "goal_pattern": {"name": "all-at", "text": text[: text.rfind(" ")] + " " + other}}
    check = T2P.validate(RecordContext(wrong, ScoreOptions(recheck=True)))
    assert check.verdict == WRONG and "pattern" in check.reason


def _explicit(part: str) -> dict:
    return next(r for r in _records() if not r[f"{part}_pattern"]["name"])


def _validate(record: dict, context: str):
    return T2P.validate(RecordContext({**record, "context": context}, ScoreOptions(recheck=True)))


# Written by hand from TRUTH (not by the describer): the facts the explicit texts must state.
TRUTH_STATE = (
    "Initially, the ferry is at location l0; the ferry is empty; car c0 is at location l0; car c1 is at location l1."
)
TRUTH_GOAL = (
    "The goal is to reach a state where the following facts hold: car c1 is at location l0; car c0 is at location l1."
)


def test_explicit_description_reads_back_into_the_truth():
    record = {**_record(), "answer": TRUTH, "abstraction": "explicit_explicit", "init_pattern": {}, "goal_pattern": {}}
    context = (
        f"{load_template('ferry').description} \nThis problem has 2 locations and 2 cars. \n{TRUTH_STATE} {TRUTH_GOAL}"
    )
    assert _validate(record, context).verdict == OK  # clause order does not matter, the facts do
    for wrong in (
        context.replace("; the ferry is empty", ""),  # a fact dropped
        context.replace("car c1 is at location l1", "car c1 is at location l0"),  # a fact changed
        context.replace("car c0 is at location l1.", "car c0 is at location l1; the ferry is empty."),  # goal extra
        context.replace("2 cars", "3 cars"),  # the size sentence does not fit the objects
    ):
        check = _validate(record, wrong)
        assert check.verdict == WRONG, wrong
    assert _validate(record, context.replace("car c0 is at location l0", "car c0 sits at l0")).verdict == UNPROVEN


def test_validate_catches_an_altered_explicit_state_or_goal():
    for part, opening in (("init", "Initially, "), ("goal", "the following facts hold: ")):
        record = _explicit(part)
        assert _validate(record, record["context"]).verdict == OK
        start = record["context"].index(opening) + len(opening)
        end = record["context"].index(".", start)
        clauses = record["context"][start:end].split("; ")
        if len(clauses) > 1:
            dropped = record["context"][:start] + "; ".join(clauses[1:]) + record["context"][end:]
            check = _validate(record, dropped)
            assert check.verdict == WRONG and "reads back as other facts" in check.reason, check
        first = clauses[0]
        changed = first.replace("l0", "@").replace("l1", "l0").replace("@", "l1")
        assert changed != first
        check = _validate(record, record["context"].replace(first, changed, 1))
        assert check.verdict == WRONG, (first, changed, check)


def test_a_qa_record_without_text_is_proven_on_its_structure_only():
    """The qa stage verifies records before export writes their English: truth, answer and patterns are
    proven then, and the text is read back once it exists (acp validate, the dataset's self-check)."""
    first, other = ({k: v for k, v in r.items() if k != "context"} for r in _records(4)[:2])
    check = T2P.validate(RecordContext(first, ScoreOptions(recheck=True)))
    assert check.verdict == OK and "no text to read back" in check.reason
    # the stored answer is still proven against the truth: another record's problem is not it
    assert other["answer"] != first["answer"]
    wrong = T2P.validate(RecordContext({**first, "answer": other["answer"]}, ScoreOptions(recheck=True)))
    assert wrong.verdict == WRONG and wrong.reason.startswith("answer is not the truth")


def test_score_rows_carry_the_three_flags():
    ctx = RecordContext(_record(), ScoreOptions())
    right = T2P.score(ctx, T2P.parse(f"```\n{RENAMED}\n```"))
    assert right.score == 1.0 and right.status == SCORED
    assert right.details == {"parseable": True, "solvable": True, "equivalent": True}
    swapped_goal = TRUTH.replace("(at c0 l1) (at c1 l0)", "(at c0 l1) (at c1 l1)")
    wrong = T2P.score(ctx, swapped_goal)
    assert wrong.score == 0.0 and wrong.details == {"parseable": True, "solvable": True, "equivalent": False}
    broken = T2P.score(ctx, TRUTH.replace("(at c0 l0)", "(at c9 l0)"))
    assert broken.details == {"parseable": False, "solvable": False, "equivalent": False}


def test_score_row_output_has_the_flags():
    from acpgen.evaluation.records import Prediction

    ctx = RecordContext(_record(), ScoreOptions())
    verdict = T2P.score(ctx, RENAMED)
    prediction = Prediction(record=_record(), task="t2p", response=RENAMED, line={"id": 1, "response": RENAMED})
    line = Scored(prediction, verdict, "ferry").output_line()
    assert (line["parseable"], line["solvable"], line["equivalent"], line["score"]) == (True, True, True, 1.0)


def test_to_responses_score_one():
    record = _records(1)[0]
    ctx = RecordContext(record, ScoreOptions())
    for response in T2P.to_responses(record):
        assert T2P.score(ctx, T2P.parse(response)).score == 1.0


def test_acp_score_analyses_a_truth_once_for_all_its_answers(monkeypatch):
    """Every answer to one t2p record is checked by one checker, which parses, grounds and closes the truth
    once (the same sharing as `acp equivalent --pairs`, one truth per unit)."""
    from acpgen.evaluation.records import Prediction
    from acpgen.evaluation.scoring import score_predictions
    from acpgen.proofs import equivalence

    checkers, analysed = [], []
    original_init, original_parse = equivalence.EquivalenceChecker.__init__, equivalence.EquivalenceChecker._parse

    def counting_init(self, *args, **kwargs):
        checkers.append(self)
        original_init(self, *args, **kwargs)

    def counting_parse(self, text, source):
        if text not in self._parsed:
            analysed.append(text)
        return original_parse(self, text, source)

    monkeypatch.setattr(equivalence.EquivalenceChecker, "__init__", counting_init)
    monkeypatch.setattr(equivalence.EquivalenceChecker, "_parse", counting_parse)
    record = _record()
    answers = [RENAMED, TRUTH, TRUTH.replace("(at c0 l1) (at c1 l0)", "(at c0 l1) (at c1 l1)"), "no pddl"]
    predictions = [Prediction(record=record, task="t2p", response=a, line={"id": 1, "response": a}) for a in answers]
    scored = score_predictions(predictions, progress=False)
    assert [s.verdict.score for s in scored] == [1.0, 1.0, 0.0, 0.0]
    assert len(checkers) == 1 and analysed.count(record["PDDL_problem"]) == 1
