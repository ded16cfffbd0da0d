"""What ``palast ask`` reads, and how it refuses bad input: with ``--json`` bad input (a
scenario, an option, a file, a spec directory) is one error document (exit 2); a malformed
action is bad input even after play stopped; ``palast ask -`` reads the scenario from
standard input; a short-handed position is answered with a warning (none where a rule
module makes it reachable)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from palast.cli import main
from palast.errors import ScenarioError
from palast.formats.scenario import load_scenario, parse_scenario
from palast.query.ask import ask
from palast.spec.load import Spec
from tests.ask_scenarios import EXAMPLES, ROOT, readme_scenario


def palast_run(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m palast ARGS`` in a fresh process (stdout and stderr apart)."""
    return subprocess.run([sys.executable, "-m", "palast", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


# ---------------------------------------------------------------- bad input with --json
def test_json_bad_input_is_one_error_document(tmp_path: Path) -> None:
    """With --json, bad input prints one JSON document: an error with file, line, column
    and message (exit 2); the message also goes to standard error as without --json."""
    path = ROOT / "tests" / "bad_inputs" / "scenarios" / "unknown-key.yaml"
    r = palast_run("ask", "--json", str(path))
    assert r.returncode == 2
    err = json.loads(r.stdout)["error"]
    assert err["file"] == str(path) and (err["line"], err["column"]) == (3, 1)
    assert "unknown key 'hand'; did you mean 'hands'?" in err["message"]
    assert r.stderr.startswith("palast: error: ") and "unknown key 'hand'" in r.stderr
    plain = palast_run("ask", str(path))
    assert plain.returncode == 2 and plain.stdout == "" and plain.stderr.startswith("palast: error: ")
    for args, message in ((["--bogus"], "no such option '--bogus'"),
                          ([], "missing argument 'SCENARIO'"),
                          (["-r", "source-c", str(EXAMPLES / "guard-alone.yaml")], "unknown ruleset 'source-c'"),
                          ([str(tmp_path / "none.yaml")], "none.yaml")):
        r = palast_run("ask", "--json", *args)
        assert r.returncode == 2, args
        doc = json.loads(r.stdout)
        said = str(doc["error"]["file"]) + doc["error"]["message"]
        assert list(doc) == ["error"] and message.lower() in said.lower()
        assert set(doc["error"]) >= {"file", "line", "column", "message"}


def test_json_error_document_of_a_bad_ruling_file(tmp_path: Path) -> None:
    """A ruling file asked about is bad input like a scenario: its error document gives the
    file, line and column apart (they were all null, everything in the message), one
    problem or several."""
    ruling = (ROOT / "spec" / "rulings" / "guard-alone.yaml").read_text(encoding="utf-8")
    path = tmp_path / "mine.yaml"
    path.write_text(ruling, encoding="utf-8")  # its id is not the file's name
    err = json.loads(palast_run("ask", "--json", str(path)).stdout)["error"]
    assert (err["file"], err["line"], err["column"], err["place"]) == (str(path), 1, 5, "line 1, column 5 (id)"), err
    assert err["message"] == "the id must be the file name, 'mine'"
    path.write_text(ruling.replace("clauses: [", "clauses: [A.nope.x, ", 1), encoding="utf-8")
    err = json.loads(palast_run("ask", "--json", str(path)).stdout)["error"]
    assert (err["file"], err["line"], err["column"]) == (str(path), 1, 5), err
    assert err["message"].startswith("2 problems:\n  - line 1, column 5 (id): "), err
    # an unknown ruleset under expect: at its place, with the closest name, beside the other problems
    path.write_text(ruling.replace("\n  reference:", "\n  referense:", 1), encoding="utf-8")
    err = json.loads(palast_run("ask", "--json", str(path)).stdout)["error"]
    assert err["file"] == str(path) and "(expect.referense): unknown ruleset 'referense'; did you mean " \
        "'reference'?" in err["message"] and "(id): the id must be the file name" in err["message"], err


def test_error_document_places() -> None:
    from palast.errors import InputError
    from palast.query.ask import error_document

    assert error_document(InputError("bad", "f.yaml", "line 4, column 3 (hands.red[0])"))["error"] == {
        "file": "f.yaml", "line": 4, "column": 3, "place": "line 4, column 3 (hands.red[0])", "message": "bad"}
    many = InputError("2 problems:\n  - line 1, column 1: missing key 'players'\n  - line 5, column 2: x", "f.yaml")
    assert (error_document(many)["error"]["line"], error_document(many)["error"]["column"]) == (1, 1)
    unknown = error_document(InputError("a colour is seated twice", "f.yaml", "players"))["error"]
    assert (unknown["line"], unknown["column"], unknown["place"]) == (None, None, "players")


def test_a_malformed_action_after_a_stop_is_still_bad_input(spec: Spec) -> None:
    text = readme_scenario().replace("actions: [play jester/grey]", "actions: [play jester/grey, frobnicate]")
    with pytest.raises(ScenarioError, match=r"\(actions\[1\]\): unknown action 'frobnicate'"):
        ask(spec, parse_scenario(text, spec, "README.md"), ["source-b"])


def test_json_error_document_for_a_bad_spec_directory(tmp_path: Path) -> None:
    """`palast --spec DIR ask --json` with a spec directory that does not exist still prints
    one JSON document with an error object (exit 2)."""
    missing = tmp_path / "nonexist"
    r = CliRunner().invoke(main, ["--spec", str(missing), "ask", "--json", str(EXAMPLES / "guard-alone.yaml")])
    assert r.exit_code == 2
    doc = json.loads(r.stdout)
    assert "does not exist" in doc["error"]["message"]


# ---------------------------------------------------------------- standard input
def test_ask_dash_reads_the_scenario_from_standard_input() -> None:
    """``palast ask -`` answers the scenario piped in exactly as it answers the file."""
    path = EXAMPLES / "guard-alone.yaml"
    from_file = CliRunner().invoke(main, ["ask", "--json", str(path)])
    from_stdin = CliRunner().invoke(main, ["ask", "--json", "-"], input=path.read_text(encoding="utf-8"))
    assert from_file.exit_code == 0 and from_stdin.exit_code == 0, from_stdin.output
    assert json.loads(from_stdin.output)["rulesets"] == json.loads(from_file.output)["rulesets"]


def test_ask_dash_names_standard_input_in_a_message() -> None:
    r = CliRunner().invoke(main, ["ask", "-"], input="players: [red\n")
    assert r.exit_code == 2
    assert "<stdin>: line 2, column 1: not valid YAML" in r.output
    assert "Traceback" not in r.output


# ---------------------------------------------------------------- short-handed positions
def test_a_short_handed_position_is_answered_with_a_warning(spec: Spec) -> None:
    """A scenario may leave cards out; ask answers it but warns, per player, that hand and
    display do not hold the hand size (invariant hand-plus-display). The examples, complete
    positions, draw no warning."""
    sc = parse_scenario("players: [red, blue, green]\nto_move: red\nhands:\n  red: [maid/red]\n"
                        "displays:\n  red: [guard/red, wizard/red, treasurer/red, jester/red, marshal/red]\n",
                        spec, "short.yaml")
    warnings = ask(spec, sc)["warnings"]
    assert [w.split()[0] for w in warnings] == ["blue", "green"]
    assert all("hand-plus-display" in w for w in warnings)
    assert all(w.endswith("play cannot reach") for w in warnings)  # every ruleset asked keeps it
    for path in sorted(EXAMPLES.glob("*.yaml")):
        assert ask(spec, load_scenario(path, spec))["warnings"] == [], path.name


def test_no_short_handed_warning_where_a_rule_module_breaks_hand_plus_display(spec: Spec) -> None:
    """Under a ruleset whose rule module breaks hand-plus-display (the fan module: the
    Healer draws, the Dwarf destroys a displayed Jester) a short hand is reachable, so ask
    warns only when some ruleset asked keeps the invariant."""
    from palast.formats.house import resolve_all

    fan = resolve_all(spec, ["fan"])
    sc = parse_scenario("players: [red, blue, green]\nto_move: red\nmarks: {red: blue, blue: red, green: green}\n"
                        "hands:\n  red: [maid/red]\n"
                        "displays:\n  red: [guard/red, wizard/red, treasurer/red, jester/red, marshal/red]\n",
                        fan, "short.yaml")
    assert ask(fan, sc, ["fan"])["warnings"] == []
    short = [w for w in ask(fan, sc, ["fan", "reference"])["warnings"] if "hand-plus-display" in w]
    assert [w.split()[0] for w in short] == ["blue", "green"]
    # the warning says which of the rulesets asked it is about
    assert all(w.endswith("play cannot reach under reference (the others asked break the invariant)")
               for w in short), short
    both = resolve_all(spec, ["fan", "fan-b"])
    short = [w for w in ask(both, sc, ["fan", "fan-b", "reference", "source-a"])["warnings"]
             if "hand-plus-display" in w]
    assert short and all(w.endswith("under reference and source-a (the others asked break the invariant)")
                         for w in short), short

