"""`acp template init` (acpgen.nl.scaffold) and `acp template check`: starting texts that read back, and
texts that two entries share found and named.

The init output of every built-in domain and of every test domain under tests/fixtures/byod, its TODO
texts replaced, must pass the template check and read back: every atom and action of a problem, written
in its words, is read by acp's answer reader as exactly that atom or action.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FIXTURES

from acpgen.cli import cli
from acpgen.generation.sources import DomainSource
from acpgen.generators import DOMAINS, domain_file, get_generator
from acpgen.nl.answer_reader import Reader
from acpgen.nl.describe import Describer
from acpgen.nl.scaffold import plural, starting_template, worded
from acpgen.nl.template import TemplateError, load_template, load_template_file, reading
from acpgen.pddl.grounding import GroundTask
from acpgen.pddl.tarski_io import read_domain, read_strings

BYOD = FIXTURES / "byod"
MAX_ACTIONS = 3000  # ground actions read back per domain


def filled_in(text: str) -> str:
    """A starting template with its two TODO texts written."""
    lines = []
    for line in text.splitlines():
        if line.startswith("description:"):
            line = 'description: "This is a test domain."'
        elif line.startswith("size:"):
            line = 'size: "This problem has {n:object|object|objects}."'
        lines.append(line)
    return "\n".join(lines) + "\n"


def write_domain(tmp_path: Path, predicates: str, actions: str = "", types: str = "room ball") -> Path:
    path = tmp_path / "domain.pddl"
    path.write_text(
        f"(define (domain d) (:requirements :strips :typing) (:types {types}) (:predicates {predicates}) {actions})"
    )
    return path


# ----- the texts init writes -------------------------------------------------------------------------


def test_plural_of_english_nouns():
    cases = {
        "city": "cities",
        "switch": "switches",
        "box": "boxes",
        "bus": "buses",
        "key": "keys",
        "person": "people",
        "room": "rooms",
        "dish": "dishes",
        "hard rock": "hard rocks",
        "day": "days",
        "y": "ys",
    }
    assert {noun: plural(noun) for noun in cases} == cases


@pytest.mark.parametrize(
    ("name", "params", "relation", "expected"),
    [
        ("robot-at", [("r", "room")], True, "robot at room {r}"),
        ("van-at", [("v", "van"), ("c", "city")], True, "van {v} at city {c}"),
        ("ball-in", [("b", "ball"), ("r", "room")], True, "ball {b} in room {r}"),
        ("has-key", [], True, "has key"),
        ("at", [("c", "car"), ("l", "location")], True, "car {c} at location {l}"),
        ("on", [("x", "object"), ("y", "object")], True, "{x} on {y}"),
        ("door", [("from", "room"), ("to", "room")], True, "door from room {from} to room {to}"),
        ("in-city", [("obj", "location"), ("city", "city")], True, "location {obj} in city {city}"),
        ("store_of", [("s", "store"), ("r", "rover")], True, "store {s} of rover {r}"),
        ("ball-in", [("ball", "item"), ("r", "room")], True, "ball {ball} in room {r}"),  # by its name
        ("lifting", [("x", "hoist"), ("y", "crate")], True, "lifting hoist {x} crate {y}"),
        (
            "drive",
            [("v", "van"), ("d", "driver"), ("from", "city"), ("to", "city")],
            False,
            "drive van {v} driver {d} from city {from} to city {to}",
        ),
        ("drive-truck", [("t", "truck"), ("c", "city")], False, "drive truck {t} city {c}"),
        ("go-to", [("to", "room")], False, "go to room {to}"),
        ("at", [("c", "car"), ("l", "location")], False, "at car {c} location {l}"),  # an action: verb first
        ("move", [("x", "hard-rock")], False, "move hard rock {x}"),
    ],
)
def test_texts_are_the_names_words_with_typed_parameters(name, params, relation, expected):
    assert worded(name, params, relation=relation) == expected


def test_init_of_a_domain_of_the_issue(tmp_path):
    domain = write_domain(
        tmp_path,
        "(robot-in ?r - room) (door ?a - room ?b - room) (switch-in ?s - switch ?r - room) (has-key)",
        "(:action move :parameters (?from - room ?to - room) :precondition (robot-in ?from) :effect (robot-in ?to))",
        types="room switch city",
    )
    text = starting_template(domain)
    assert '"(robot-in ?r)": "robot in room {r}"' in text
    assert '"(door ?a ?b)": "door room {a} room {b}"' in text
    assert '"(switch-in ?s ?r)": "switch {s} in room {r}"' in text
    assert '"(has-key)": "has key"' in text
    assert '"move": "move from room {from} to room {to}"' in text
    assert '# e.g. size: "This problem has {n:city|city|cities}, {n:room|room|rooms}, and ' in text
    assert "{n:switch|switch|switches}" in text
    assert "reword the texts made from the PDDL names" in text


def test_texts_that_would_read_alike_fall_back_to_the_pddl_names(tmp_path):
    domain = write_domain(
        tmp_path,
        "(ball-in ?b - ball ?r - room) (in ?b - ball ?r - room) (robot-at ?r - room) (robot_at ?r - room)"
        " (lit ?r - room)",
    )
    text = starting_template(domain)
    # "ball {b} in room {r}" twice, "robot at room {r}" twice: each pair falls back, the others keep their words
    assert '"(ball-in ?b ?r)": "ball-in ball {b} room {r}"' in text
    assert '"(in ?b ?r)": "in ball {b} room {r}"' in text
    assert '"(robot-at ?r)": "robot-at room {r}"' in text
    assert '"(robot_at ?r)": "robot_at room {r}"' in text
    assert '"(lit ?r)": "lit room {r}"' in text
    filled = tmp_path / "t.yaml"
    filled.write_text(filled_in(text))
    lifted = read_domain(domain)
    template = load_template_file(filled, "d")
    template.check(lifted)
    assert template.text_clashes(lifted) == []


def init_cases() -> list:
    builtin = [pytest.param(domain_file(d), d, id=d) for d in sorted(DOMAINS)]
    users = [pytest.param(p, None, id=p.parent.name) for p in sorted(BYOD.glob("*/domain.pddl"))]
    return builtin + users


def example_task(domain: Path, builtin: str | None) -> GroundTask:
    """A problem of the domain: the generator's smallest example, or the first of the test domain's problems."""
    if builtin is not None:
        generator = get_generator(builtin)
        problem = generator.render(generator.generate(generator.example_sizes[0], random.Random(7)))
    else:
        problem = sorted((domain.parent / "problems").glob("*.pddl"))[0].read_text()
    return GroundTask(read_strings(domain.read_text(), problem))


@pytest.mark.parametrize(("domain", "builtin"), init_cases())
def test_init_texts_pass_the_check_and_read_back(domain, builtin, tmp_path):
    result = CliRunner().invoke(cli, ["template", "init", str(domain), "-o", str(tmp_path / "start.yaml")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "start.yaml").read_text()
    assert "TODO" in text.split("predicates:")[0] and "TODO" not in text.split("predicates:")[1]
    filled = tmp_path / "filled.yaml"
    filled.write_text(filled_in(text))
    checked = CliRunner().invoke(cli, ["template", "check", str(filled), "--domain-file", str(domain)])
    assert checked.exit_code == 0 and " OK for domain " in checked.output, checked.output
    task = example_task(domain, builtin)
    template = load_template_file(filled, task.lifted.domain_name)
    describer = Describer(template, task.lifted)  # checks the template against the domain, clashes included
    reader = Reader(task.lifted, template)
    seen: dict[str, str] = {}
    for atom in task.all_atoms():
        words = describer.atom(atom)
        assert words not in seen, f"{atom} and {seen.get(words)} both read '{words}'"
        seen[words] = atom
        assert reader.one(words, atoms=True) == atom, (atom, words)
    for action in itertools.islice(task.all_action_names(), MAX_ACTIONS):
        words = describer.action(action)
        assert words not in seen, f"{action} and {seen.get(words)} both read '{words}'"
        seen[words] = action
        assert reader.one(words, atoms=False) == action, (action, words)


# ----- texts two entries share -------------------------------------------------------------------------

CLASHING = """\
domain: d
description: "Balls and rooms."
size: "There are {n:room|room|rooms}."
predicates:
  (at ?x ?y): "{x} is at {y}"
  (in ?a ?b): "{a} is at {b}."
  (held ?b ?h):
    text: "ball {b} is held by {h}"
    plural: "balls {b} are held by {h}"
    merge: b
  (grasped ?b ?h): "Balls {b} are held by {h}"
  (lit ?r): "room {r} is lit"
actions:
  go: "go from {from} to {to}"
  walk: "go from {a} to {b}"
  push: "push {b} into {r}"
wrong_actions:
  - {text: "push {x} into {y}", types: {x: ball, y: room}}
  - {text: "push {x} into {y}", types: {x: room, y: ball}}
"""
CLASHING_DOMAIN = """(define (domain d) (:requirements :strips :typing) (:types room ball hand)
  (:predicates (at ?x - ball ?y - room) (in ?a - ball ?b - room) (held ?b - ball ?h - hand)
               (grasped ?b - ball ?h - hand) (lit ?r - room))
  (:action go :parameters (?from - room ?to - room) :precondition (lit ?from) :effect (lit ?to))
  (:action walk :parameters (?a - room ?b - room) :precondition (lit ?a) :effect (lit ?b))
  (:action push :parameters (?b - ball ?r - room) :precondition (at ?b ?r) :effect (in ?b ?r)))
"""


def clashing(tmp_path: Path) -> tuple[Path, Path]:
    template, domain = tmp_path / "clash.yaml", tmp_path / "domain.pddl"
    template.write_text(CLASHING)
    domain.write_text(CLASHING_DOMAIN)
    return template, domain


def test_reading_leaves_the_objects_open():
    assert reading("Car {car} is at  {loc}.") == "car {} is at {}"
    assert reading("{x} is at {y}") == reading("{a} IS AT {b}.")


def test_text_clashes_name_both_entries(tmp_path):
    path, domain = clashing(tmp_path)
    template = load_template_file(path, "d")
    found = {(c.first, c.second, c.reading) for c in template.text_clashes(read_domain(domain))}
    assert found == {
        ("predicate 'at' text", "predicate 'in' text", "{} is at {}"),
        ("predicate 'held' plural", "predicate 'grasped' text", "balls {} are held by {}"),
        ("action 'go'", "action 'walk'", "go from {} to {}"),
        # the wrong action over the action's own types reads as the action; over other types it does not
        ("action 'push'", "wrong_actions[0]", "push {} into {}"),
    }


def test_texts_over_types_no_object_shares_do_not_clash(tmp_path):
    domain = tmp_path / "domain.pddl"
    domain.write_text(
        "(define (domain d) (:requirements :strips :typing) (:types room ball - object red - ball)"
        " (:predicates (at ?x - ball ?y - room) (in ?a - room ?b - ball) (on ?a - red ?b - room)))"
    )
    template = tmp_path / "t.yaml"
    template.write_text(
        'domain: d\ndescription: "x"\nsize: "x"\nactions: {}\npredicates:\n'
        '  (at ?x ?y): "{x} is at {y}"\n  (in ?a ?b): "{a} is at {b}"\n  (on ?a ?b): "{a} is at {b}"\n'
    )
    clashes = load_template_file(template, "d").text_clashes(read_domain(domain))
    # a red object is a ball: at and on share their objects' types; in (room, ball) shares none with either
    assert [(c.first, c.second) for c in clashes] == [("predicate 'at' text", "predicate 'on' text")]


def test_builtin_and_test_templates_have_no_clashes():
    for name in sorted(DOMAINS):
        assert load_template(name).text_clashes(read_domain(domain_file(name))) == [], name
    for path in sorted(BYOD.glob("*/template*.yaml")):
        template = load_template_file(path, path.parent.name)
        assert template.text_clashes(read_domain(path.parent / "domain.pddl")) == [], path


def test_template_check_lists_every_clash_with_the_fix(tmp_path):
    path, domain = clashing(tmp_path)
    result = CliRunner().invoke(cli, ["template", "check", str(path), "--domain-file", str(domain)])
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.startswith(f"{path}: ") and "both read" in line]
    assert len(lines) == 4
    assert all(line.endswith("reword one of them so that the two read differently") for line in lines)
    assert f"{path}: predicate 'at' text and predicate 'in' text both read '{{}} is at {{}}'" in lines[0]


def test_template_check_reports_todos_and_fit_and_passes_a_good_template(tmp_path):
    domain = BYOD / "porter" / "domain.pddl"
    start = tmp_path / "start.yaml"
    assert CliRunner().invoke(cli, ["template", "init", str(domain), "-o", str(start)]).exit_code == 0
    result = CliRunner().invoke(cli, ["template", "check", str(start), "--domain-file", str(domain)])
    assert result.exit_code == 1 and f"{start}: still TODO: description, size;" in result.output
    good = CliRunner().invoke(
        cli, ["template", "check", str(BYOD / "porter" / "template.yaml"), "--domain-file", str(domain)]
    )
    assert good.exit_code == 0, good.output
    assert good.output == f"{BYOD / 'porter' / 'template.yaml'}: OK for domain ball-porter: 5 predicates, 3 actions\n"
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text((BYOD / "porter" / "template.yaml").read_text().replace("(free ?h)", "(empty ?h)"))
    result = CliRunner().invoke(cli, ["template", "check", str(wrong), "--domain-file", str(domain)])
    assert result.exit_code == 1 and f"{wrong}: no entry for predicate 'free'" in result.output


def test_template_check_exits_2_on_input_it_cannot_read(tmp_path):
    domain = BYOD / "porter" / "domain.pddl"
    template = str(BYOD / "porter" / "template.yaml")
    not_yaml = tmp_path / "bad.yaml"
    not_yaml.write_text("predicates: [unclosed\n")
    broken = tmp_path / "broken.pddl"
    broken.write_text(domain.read_text()[:200])
    cases = [
        ([str(tmp_path / "missing.yaml"), "--domain-file", str(domain)], "does not exist"),
        ([str(not_yaml), "--domain-file", str(domain)], f"{not_yaml}: not valid YAML"),
        ([template, "--domain-file", str(broken)], f"{broken}: cannot parse PDDL"),
        ([template], "Missing option '--domain-file'"),
    ]
    for args, expected in cases:
        result = CliRunner().invoke(cli, ["template", "check", *args])
        assert result.exit_code == 2 and expected in result.output, (args, result.output)


def test_generate_refuses_a_template_with_a_clash_before_any_stage(tmp_path):
    path, domain = clashing(tmp_path)
    problems = tmp_path / "problems"
    problems.mkdir()
    with pytest.raises(TemplateError) as err:
        DomainSource.from_files(domain, problems, path)
    message = str(err.value)
    assert f"{path}: predicate 'at' text and predicate 'in' text both read" in message
    assert len(message.splitlines()) == 4


def test_records_generated_with_an_init_template_validate_and_score_one(tmp_path):
    """Generating with the starting template (its TODOs written) works end to end: every record is proven
    and every stored answer, written in the template's words as a model would, scores 1."""
    domain, problems = BYOD / "porter" / "domain.pddl", BYOD / "porter" / "problems"
    start, filled = tmp_path / "start.yaml", tmp_path / "filled.yaml"
    assert CliRunner().invoke(cli, ["template", "init", str(domain), "-o", str(start)]).exit_code == 0
    filled.write_text(filled_in(start.read_text()))
    out = tmp_path / "out"
    args = ["generate", "--domain-file", str(domain), "--problems", str(problems), "--template", str(filled)]
    args += ["--config", str(BYOD / "byod.yaml"), "--out", str(out), "--tasks", "app,prog,reach,val,nexta"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    root = out / "ball-porter"
    record = json.loads((root / "app.gen.jsonl").read_text().splitlines()[0])
    assert "Currently, robot in room " in record["context"]  # the template's words, not PDDL
    validated = CliRunner().invoke(cli, ["validate", str(root)])
    assert validated.exit_code == 0 and " 0 wrong, 0 unproven, 0 errors" in validated.output, validated.output
    answers, scores = tmp_path / "answers.jsonl", tmp_path / "scores.jsonl"
    assert CliRunner().invoke(cli, ["reference-answers", str(root), "-o", str(answers)]).exit_code == 0
    scored = CliRunner().invoke(cli, ["score", str(answers), "--dataset", str(root), "-o", str(scores), "--json"])
    assert scored.exit_code == 0, scored.output
    lines = [json.loads(line) for line in scores.read_text().splitlines()]
    assert lines and all(line["score"] == 1 for line in lines), [line for line in lines if line["score"] != 1][:3]
