"""The ``patterns:`` section of a template: parsed, checked against the domain, and clear about bad entries."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from acpgen.nl.template import TemplateError, load_template_file
from acpgen.nl.template_patterns import PatternDecl, PatternDeclError, pattern_from
from acpgen.pddl.tarski_io import read_domain

PORTER = Path(__file__).parents[1] / "fixtures" / "byod" / "porter"
ALL_IN = {
    "name": "all-in",
    "part": "goal",
    "kind": "same",
    "predicate": "ball-in",
    "subjects": ["ball"],
    "values": ["room"],
    "key": "room",
    "text": "every ball is in room {room}",
}


def _template(tmp_path: Path, patterns: list) -> Path:
    """The porter template with ``patterns`` as its patterns section."""
    data = yaml.safe_load((PORTER / "template.yaml").read_text())
    data["patterns"] = patterns
    path = tmp_path / "porter.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def _checked(path: Path):
    template = load_template_file(path, "ball-porter")
    template.check(read_domain(PORTER / "domain.pddl"))
    return template


def test_the_fixture_declares_two_goal_patterns():
    template = _checked(PORTER / "template-patterns.yaml")
    assert template.patterns == (
        PatternDecl("all-in", "goal", "same", "ball-in", "every ball is in room {room}", ("ball",), ("room",), "room"),
        PatternDecl("hands-free", "goal", "each", "free", "every hand is free", types=("hand",)),
    )


def test_a_declaration_round_trips_through_its_dict():
    decl = pattern_from(ALL_IN, "here")
    assert decl.as_dict() == ALL_IN
    assert pattern_from(decl.as_dict(), "here") == decl


@pytest.mark.parametrize(
    "change,message",
    [
        ({"kind": "every"}, r"patterns\[0\]: unknown kind 'every'; use one of same, each"),
        ({"part": "start"}, r"patterns\[0\]: unknown part 'start'; use 'init' or 'goal'"),
        ({"key": None}, r"patterns\[0\]: kind 'same' needs key"),
        ({"colour": "red"}, r"unknown key\(s\) \['colour'\] for kind 'same'"),
        ({"text": "every ball is in room {place}"}, r"placeholder\(s\) \['place'\].*write '\{room\}' for the value"),
    ],
)
def test_a_malformed_entry_names_the_file_and_the_fix(tmp_path, change, message):
    entry = {k: v for k, v in {**ALL_IN, **change}.items() if v is not None}
    path = _template(tmp_path, [entry])
    with pytest.raises(TemplateError, match=rf"porter.yaml: {message}" if "patterns" in message else message):
        load_template_file(path, "ball-porter")


@pytest.mark.parametrize(
    "change,message",
    [
        ({"predicate": "inside"}, r"patterns\[0\] \(all-in\): predicate 'inside' is not in the domain ball-porter"),
        ({"predicate": "robot-in"}, r"kind 'same' needs a predicate with 2 argument\(s\); 'robot-in' has 1"),
        ({"values": ["box"]}, r"'box' is not a type of the domain"),
        ({"part": "init"}, r"an init pattern gives every fluent fact.*declare it with 'part: goal' instead"),
    ],
)
def test_an_entry_that_does_not_fit_the_domain_is_refused_on_check(tmp_path, change, message):
    path = _template(tmp_path, [{**ALL_IN, **change}])
    with pytest.raises(TemplateError, match=message) as raised:
        _checked(path)
    assert str(path) in str(raised.value)


def test_each_needs_a_one_argument_predicate_and_a_text_naming_nothing(tmp_path):
    each = {"name": "x", "part": "goal", "kind": "each", "predicate": "holding", "types": ["hand"], "text": "t"}
    with pytest.raises(TemplateError, match=r"kind 'each' needs a predicate with 1 argument\(s\); 'holding' has 2"):
        _checked(_template(tmp_path, [each]))
    message = r"placeholder\(s\) \['h'\]; the text of a pattern of kind 'each' must name no object"
    with pytest.raises(TemplateError, match=message):
        load_template_file(_template(tmp_path, [{**each, "text": "hand {h} is free"}]), "ball-porter")


def test_a_pattern_declared_twice_and_a_section_that_is_no_list_are_refused(tmp_path):
    with pytest.raises(TemplateError, match=r"patterns\[1\]: a goal pattern 'all-in' is declared twice"):
        load_template_file(_template(tmp_path, [ALL_IN, ALL_IN]), "ball-porter")
    with pytest.raises(PatternDeclError, match="expected a mapping"):
        pattern_from(["all-in"], "here")
    with pytest.raises(TemplateError, match="'patterns' must be a list"):
        load_template_file(_template(tmp_path, {"all-in": ALL_IN}), "ball-porter")  # type: ignore[arg-type]
