"""A scenario's character cards (``marks``) and the rulesets it is asked under: refused
(exit 2, at the key) when no ruleset asked switches on a rule module that deals them, since
the marks would change nothing; answered with a warning naming the rulesets that ignore
them when only some do (the comparison with and without the module is a fair question).
Before, they were accepted and silently ignored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from palast.errors import ScenarioError
from palast.formats.position import parse_position
from palast.formats.scenario import parse_scenario
from palast.query.ask import ask, render_text
from palast.query.ask_view import ask_as
from palast.query.scenario_marks import dealing_modules
from palast.spec.load import Spec
from tests.cli_runs import in_process

ROOT = Path(__file__).resolve().parent.parent

MARKED = """players: [red, blue, green]
to_move: red
marks: {red: blue, blue: red, green: green}
hands:
  red: [jester/red, maid/red, wizard/red, treasurer/grey]
  blue: [treasurer/blue, wizard/blue, maid/blue, marshal/blue, guard/grey]
  green: [treasurer/green, maid/green, jester/green, guard/green]
displays:
  red: [treasurer/red, guard/red]
  blue: [cupbearer/blue]
  green: [wizard/green, marshal/green]
"""


@pytest.fixture()
def marked(tmp_path: Path) -> Path:
    path = tmp_path / "marked.yaml"
    path.write_text(MARKED, encoding="utf-8")
    return path


def test_the_fan_module_deals_character_cards(spec: Spec) -> None:
    assert [m.id for m in dealing_modules(spec)] == ["fan"]


def test_marks_no_ruleset_asked_deals_are_refused_at_the_key(marked: Path) -> None:
    r = in_process("ask", str(marked), "-r", "source-a")
    assert r.code == 2 and r.stdout == ""
    assert r.stderr == (f"palast: error: {marked}: line 3, column 8 (marks): no ruleset asked switches on a rule "
                        "module that deals character cards (fan); source-a does not, so the marks would be ignored: "
                        "ask under one that does (-r fan, -r fan-b or --reading fan-expansion=on) or leave the marks "
                        "out\n")


def test_by_default_the_three_rulesets_are_asked_and_none_deals_them(marked: Path) -> None:
    r = in_process("ask", str(marked), "--json")
    assert r.code == 2
    error = json.loads(r.stdout)["error"]
    assert (error["file"], error["line"], error["place"]) == (str(marked), 3, "line 3, column 8 (marks)")
    assert "source-a, source-b and reference do not" in error["message"]


def test_the_same_under_as_and_in_a_position_line(spec: Spec, marked: Path) -> None:
    r = in_process("ask", str(marked), "--as", "red", "-r", "reference")
    assert r.code == 2 and "(marks): no ruleset asked switches on" in r.stderr
    line = parse_position("red* 0 jester/red mark blue; blue 0 mark red; green 0 mark green", spec)
    with pytest.raises(ScenarioError, match=r"column 24 \(marks\): no ruleset asked switches on"):
        ask(spec, line)
    with pytest.raises(ScenarioError, match="no ruleset asked switches on"):
        ask_as(spec, line, "red", ["source-b"])


def test_marks_are_answered_where_a_ruleset_asked_deals_them(marked: Path) -> None:
    for args in (["-r", "fan"], ["--reading", "fan-expansion=on"], ["-r", "fan-b", "-r", "fan"]):
        r = in_process("ask", str(marked), "--json", *args)
        assert r.code == 0, (args, r.stderr)
        assert not [w for w in json.loads(r.stdout)["warnings"] if "character cards" in w], args


def test_under_some_rulesets_only_the_answer_says_which_ignore_them(spec: Spec, marked: Path) -> None:
    from palast.formats.house import resolve_all

    full = resolve_all(spec, ["fan"])
    answer = ask(full, parse_scenario(MARKED, full, str(marked)), ["source-a", "reference", "fan"])
    warning = ("line 3, column 8 (marks): the character cards are ignored under source-a and reference, which "
               "switch on no rule module that deals them (fan); they are in play under fan")
    assert answer["warnings"][0] == warning
    assert set(answer["rulesets"]) == {"source-a", "reference", "fan"}
    assert " ".join(render_text(answer, width=80).split()).count("warning: " + warning) == 1
    r = in_process("ask", str(marked), "-r", "source-b", "-r", "fan-b", "--json")
    assert r.code == 0, r.stderr
    assert json.loads(r.stdout)["warnings"][0].endswith(
        "ignored under source-b, which switches on no rule module that deals them (fan); they are in play under fan-b")


def test_a_module_ruling_is_asked_with_the_warning(spec: Spec) -> None:
    """A fan ruling states results with and without the module; asked, it is answered
    under all of them and says under which the character cards are ignored."""
    r = in_process("ask", str(ROOT / "spec" / "rulings" / "fan-ranger-stacks.yaml"), "--json")
    assert r.code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["warnings"][0].startswith("line ") and "(scenario.marks): the character cards are ignored under " \
        "source-a, source-b and reference" in doc["warnings"][0]


def test_asked_as_a_player_under_some_rulesets_only_the_answer_says_which_ignore_them(marked: Path) -> None:
    """``ask --as`` says it too: first in the text, and under ``warnings`` in its JSON."""
    r = in_process("ask", str(marked), "--as", "red", "-r", "source-a", "-r", "fan")
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines()[0] == (
        "warning: line 3, column 8 (marks): the character cards are ignored under source-a, which switches on no "
        "rule module that deals them (fan); they are in play under fan")
    r = in_process("ask", str(marked), "--as", "red", "-r", "fan", "--json")
    assert r.code == 0 and json.loads(r.stdout)["warnings"] == []
