"""Natural-language templates: every domain has one that fits its PDDL, texts are unambiguous,
facts are grouped as documented, and a broken template is reported by name."""

from __future__ import annotations

import itertools
import random
import re
import shutil

import pytest
from conftest import GEN_TASKS, dev_records

from acpgen.generators import DOMAINS, domain_file, get_generator
from acpgen.nl.describe import Describer
from acpgen.nl.template import TEMPLATES_DIR, TemplateError, load_template
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.tarski_io import read_strings
from acpgen.tasks import TASKS

MAX_ACTIONS = 20000  # ground actions whose texts are compared per domain


def example_problem(domain: str, size_index: int = 0) -> tuple[str, str]:
    generator = get_generator(domain)
    spec = generator.generate(generator.example_sizes[size_index], random.Random(7))
    return domain_file(domain).read_text(), generator.render(spec)


def describer_for(domain: str, problem_text: str | None = None) -> tuple[Describer, GroundTask]:
    domain_text, generated = example_problem(domain)
    problem_text = problem_text or generated
    lifted = read_strings(domain_text, problem_text)
    return Describer(load_template(domain), lifted), GroundTask(lifted)


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_template_fits_domain(domain):
    domain_text, problem_text = example_problem(domain)
    load_template(domain).check(read_strings(domain_text, problem_text))


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_atom_texts_are_unambiguous(domain):
    describer, task = describer_for(domain)
    texts: dict[str, str] = {}
    for atom in task.all_atoms():
        text = describer.atom(atom)
        assert "{" not in text and "?" not in text, (atom, text)
        assert text not in texts, f"{atom} and {texts.get(text)} both read '{text}'"
        texts[text] = atom


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_action_texts_are_unambiguous(domain):
    describer, task = describer_for(domain)
    texts: dict[str, str] = {}
    for action in itertools.islice(task.all_action_names(), MAX_ACTIONS):
        text = describer.action(action)
        assert "{" not in text, (action, text)
        assert text not in texts, f"{action} and {texts.get(text)} both read '{text}'"
        texts[text] = action


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_contexts_follow_the_reference_layout(domain):
    domain_text, problem_text = example_problem(domain)
    describer, _ = describer_for(domain, problem_text)
    for task in TASKS.values():
        parts = task.context_parts
        context = describer.context(parts, "nl", domain_text, problem_text)
        description, _, rest = context.split(" \n")
        assert description == load_template(domain).description
        assert rest.startswith("Currently, ")
        assert ("The goal is to reach a state where" in rest) == ("goal" in parts)
        assert ("The available actions are: " in rest) == ("actions" in parts)
        assert ("The available propositions are: " in rest) == ("propositions" in parts)
        assert "{" not in context and "}" not in context


PART_SENTENCES = {
    "goal": "The goal is to reach a state where",
    "actions": "The available actions are",
    "propositions": "The available propositions are",
}


@pytest.mark.parametrize("task", sorted(GEN_TASKS))
def test_context_parts_of_each_task_are_those_of_the_reference_records(task):
    """The parts a task's contexts add after the state, in order, as the reference dev records have them."""
    for record in dev_records(task)[:5]:
        found = sorted(
            (record["context"].find(s), part) for part, s in PART_SENTENCES.items() if s in record["context"]
        )
        assert tuple(part for _, part in found) == TASKS[task].context_parts, record["id"]


def ferry_problem(extra_init: str = "", omit_pair: bool = False) -> str:
    pairs = [(a, b) for a in ("l0", "l1", "l2") for b in ("l0", "l1", "l2") if a != b]
    if omit_pair:
        pairs = pairs[1:]
    noteq = " ".join(f"(not-eq {a} {b})" for a, b in pairs)
    return (
        f"(define (problem t) (:domain ferry) (:objects c0 c3 c5 c10 c2 - car l0 l1 l2 - location) "
        f"(:init (at-ferry l2) (on c2) (at c10 l1) (at c5 l1) (at c0 l1) (at c3 l1) {noteq} {extra_init}) "
        f"(:goal (and (at c0 l0) (at c2 l0))))"
    )


def test_ferry_state_groups_cars_by_location():
    describer, _ = describer_for("ferry", ferry_problem())
    assert describer.state_part() == (
        "Currently, the ferry is at location l2; car c2 is on the ferry; cars c0, c3, c5, and c10 are at location l1."
    )
    assert describer.goal_part() == (
        "The goal is to reach a state where the following facts hold: cars c0 and c2 are at location l0."
    )


def test_implied_facts_are_left_out_only_when_the_rule_holds():
    complete, _ = describer_for("ferry", ferry_problem())
    assert complete.static_part() == ""
    partial, _ = describer_for("ferry", ferry_problem(omit_pair=True))
    # One pair missing: the remaining five facts are written out.
    assert partial.static_part().count("are different locations") == 5


def test_prog_question_names_the_action_in_words():
    describer, _ = describer_for("ferry", ferry_problem())
    record = {"action": "(debark c2 l2)"}
    assert "debark car c2 from the ferry at location l2" in describer.question(TASKS["prog"], record, "nl")
    assert '"(debark c2 l2)"' in describer.question(TASKS["prog"], record, "pddl")


def test_representations():
    domain_text, _ = example_problem("ferry")
    problem_text = ferry_problem()
    describer, _ = describer_for("ferry", problem_text)
    parts = TASKS["app"].context_parts
    nl = describer.context(parts, "nl", domain_text, problem_text)
    pddl = describer.context(parts, "pddl", domain_text, problem_text)
    both = describer.context(parts, "pddl+nl", domain_text, problem_text)
    assert "Currently," in nl and "(define (domain ferry)" not in nl
    assert "Currently," not in pddl and "(define (domain ferry)" in pddl and "(at-ferry l2)" in pddl
    assert both.startswith(nl) and both.endswith(pddl)


def copy_templates(tmp_path, domain="ferry"):
    folder = tmp_path / "templates"
    folder.mkdir()
    shutil.copy(TEMPLATES_DIR / "questions.yaml", folder)
    shutil.copy(TEMPLATES_DIR / f"{domain}.yaml", folder)
    return folder


def test_missing_predicate_entry_names_the_predicate(tmp_path):
    folder = copy_templates(tmp_path)
    path = folder / "ferry.yaml"
    path.write_text(path.read_text().replace('  (empty-ferry): "the ferry is empty"\n', ""))
    template = load_template("ferry", folder)
    domain_text, problem_text = example_problem("ferry")
    with pytest.raises(TemplateError, match=r"ferry.yaml: no entry for predicate 'empty-ferry'"):
        template.check(read_strings(domain_text, problem_text))


def test_missing_action_entry_names_the_action(tmp_path):
    folder = copy_templates(tmp_path)
    path = folder / "ferry.yaml"
    text = path.read_text()
    path.write_text("\n".join(line for line in text.splitlines() if not line.strip().startswith("debark:")) + "\n")
    domain_text, problem_text = example_problem("ferry")
    with pytest.raises(TemplateError, match=r"no entry for action 'debark'"):
        load_template("ferry", folder).check(read_strings(domain_text, problem_text))


def test_text_with_a_wrong_variable_is_rejected(tmp_path):
    folder = copy_templates(tmp_path)
    path = folder / "ferry.yaml"
    path.write_text(path.read_text().replace('"car {car} is on the ferry"', '"car {c} is on the ferry"'))
    with pytest.raises(TemplateError, match=r"predicate 'on' text .* must use exactly the variables"):
        load_template("ferry", folder)


def test_missing_template_file_says_what_to_write(tmp_path):
    folder = copy_templates(tmp_path)
    with pytest.raises(TemplateError, match=r"grid.yaml: no such template file"):
        load_template("grid", folder)


def test_size_placeholders_count_name_and_find_grid_gaps():
    domain_text = domain_file("visitall").read_text()
    places = [f"loc-x{x}-y{y}" for x in range(3) for y in range(2) if (x, y) not in {(0, 1), (2, 0)}]
    problem = (
        f"(define (problem v) (:domain grid-visit-all) (:objects {' '.join(places)} - place) "
        f"(:init (at-robot loc-x0-y0) (visited loc-x0-y0)) (:goal (and (visited loc-x1-y1))))"
    )
    template = load_template("visitall")
    lifted = read_strings(domain_text, problem)
    from dataclasses import replace

    probe = replace(template, size="{n:place|place|places}; {grid:place}; missing: {gaps:place}; {list:place}")
    assert Describer(probe, lifted).size_sentence() == (
        "4 places; 3 by 2; missing: loc-x0-y1 and loc-x2-y0; loc-x0-y0, loc-x1-y0, loc-x1-y1, and loc-x2-y1"
    )
    one = replace(template, size="{n:place|place|places}")
    single = read_strings(
        domain_text,
        problem.replace(" ".join(places), "loc-x0-y0").replace("(visited loc-x1-y1)", "(visited loc-x0-y0)"),
    )
    assert Describer(one, single).size_sentence() == "1 place"


def test_converse_predicate_is_left_out_only_when_it_mirrors_the_other():
    domain_text = domain_file("floortile").read_text()
    tiles = "tile_1 tile_2 tile_3"
    base = (
        "(define (problem f) (:domain floor-tile) (:objects {t} - tile robot1 - robot white - color) "
        "(:init (robot-at robot1 tile_1) (robot-has robot1 white) (available-color white) (clear tile_2) "
        "(clear tile_3) (right tile_2 tile_1) (right tile_3 tile_2) {left}) (:goal (and (painted tile_3 white))))"
    )
    template = load_template("floortile")
    assert template.predicates["left"].implied == "converse right"
    mirrored = Describer(
        template, read_strings(domain_text, base.format(t=tiles, left="(left tile_1 tile_2) (left tile_2 tile_3)"))
    )
    broken = Describer(template, read_strings(domain_text, base.format(t=tiles, left="(left tile_1 tile_2)")))
    left_text = template.predicates["left"].fill(("tile_1", "tile_2"))
    assert left_text not in mirrored.static_part()
    assert left_text in broken.static_part()


def test_named_rule_requires_every_numbered_object_to_carry_its_type():
    from acpgen.nl.template import implied_holds

    left, right = ["apple1", "apple2", "cup1", "knife"], ["appletype", "cuptype"]
    complete = [("apple1", "appletype"), ("apple2", "appletype"), ("cup1", "cuptype")]
    assert implied_holds("named type", complete, [left, right])
    assert not implied_holds("named type", complete[:2], [left, right])
    assert not implied_holds("named type", complete + [("knife", "cuptype")], [left, right])


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_wrong_actions_never_read_as_real_actions(domain):
    describer, task = describer_for(domain)
    template = load_template(domain)
    assert len(template.wrong_actions) >= 4, "areach and val need wrong-action texts"
    rng = random.Random(3)
    for index, wrong in enumerate(template.wrong_actions):
        for _ in range(200):
            args = [rng.choice(sorted(task.lifted.objects_of(t))) for t in wrong.types.values()]
            text = describer.wrong_action(index, args)  # raises TemplateError if it reads as a real action
            assert "{" not in text and describer.reads_as_action(text) is None


def test_reads_as_action_inverts_action_texts():
    describer, task = describer_for("logistics")
    for name in itertools.islice(task.all_action_names(), 300):
        assert describer.reads_as_action(describer.action(name)) == name


def test_action_texts_with_commas_are_rejected(tmp_path):
    folder = copy_templates(tmp_path)
    path = folder / "ferry.yaml"
    path.write_text(
        path.read_text().replace(
            'sail: "sail the ferry from location {from} to location {to}"',
            'sail: "from location {from}, sail the ferry to location {to}"',
        )
    )
    domain_text, problem_text = example_problem("ferry")
    with pytest.raises(TemplateError, match="action 'sail' text contains ','"):
        load_template("ferry", folder).check(read_strings(domain_text, problem_text))


def test_join_rule_leaves_out_derived_locations_only_when_they_follow():
    domain_text, problem_text = example_problem("alfworld")
    lifted = read_strings(domain_text, problem_text)
    template = load_template("alfworld")
    describer = Describer(template, lifted)
    located = [(p, a) for p, a in lifted.init if p == "objectatlocation"]
    assert located, "the example problem has objects in receptacles"
    receptacle_at = {a[0]: a[1] for p, a in lifted.init if p == "receptacleatlocation"}
    derived = {(a[0], receptacle_at[a[1]]) for p, a in lifted.init if p == "inreceptacle"}

    def words(clause: str) -> set[str]:
        return set(re.findall(r"[\w-]+", clause))

    def written(state: str, args) -> bool:
        return any({args[0], args[1], "at"} <= words(c) for c in state.split("; ") if " is in " not in c)

    state = describer.state_part()
    for _, args in located:
        # a location that follows from the object's receptacle is left out, any other one is written
        assert written(state, args) != (args in derived), args
    # a derived location missing from the state: the rule does not hold and every fact is written out
    dropped = sorted(derived)[0]
    broken_text = problem_text.replace(f"(objectatlocation {dropped[0]} {dropped[1]})", "")
    broken = Describer(template, read_strings(domain_text, broken_text))
    remaining = [args for _, args in read_strings(domain_text, broken_text).init if _ == "objectatlocation"]
    assert all(written(broken.state_part(), a) for a in remaining)
