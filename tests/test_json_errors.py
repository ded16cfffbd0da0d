"""With --json, every command that answers in JSON answers bad input with a JSON document
too (an "error" object, as palast ask prints it), exit code 2, and the usual message on
standard error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from palast.cli import main
from tests.spec_copy import edited_spec


@pytest.fixture(scope="module")
def bad_spec(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of spec/ whose hand zone is named as no primitive names it."""
    return edited_spec(tmp_path_factory.mktemp("bad"), "state.yaml", "    name: hand\n", "    name: hands\n")


@pytest.mark.parametrize("args", [
    ["rulings", "--json"], ["explain", "--json", "cupbearer-scope"], ["ask", "--json", "examples/guard-alone.yaml"],
])
def test_a_bad_spec_is_a_json_error_document(bad_spec: Path, args: list[str]) -> None:
    res = CliRunner().invoke(main, ["--spec", str(bad_spec), *args])
    assert res.exit_code == 2, res.output
    doc = json.loads(res.stdout)
    assert "state.yaml: line" in doc["error"]["message"] and "Traceback" not in res.output
    assert "palast: error:" in res.stderr
    # the file and the place of the (first) problem, not the spec's directory and nulls
    assert doc["error"]["file"] == str(bad_spec / "state.yaml"), doc
    assert isinstance(doc["error"]["line"], int) and isinstance(doc["error"]["column"], int), doc


@pytest.mark.parametrize("args", [["explain", "--json", "no-such-point"], ["rulings", "--json", "no-such-ruling"]])
def test_an_unknown_name_is_a_json_error_document(args: list[str]) -> None:
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    assert "no-such" in json.loads(res.stdout)["error"]["message"]


def test_a_position_line_error_has_no_file_and_gives_its_place_apart() -> None:
    """A position line is a command-line argument: ``file`` is null as the README says (it
    was ``"<position>"``), and the place the message started with is ``place`` (it was null,
    and the message carried it)."""
    res = CliRunner().invoke(main, ["ask", "--json", "red* 0 maid/rd; blue; green"])
    assert res.exit_code == 2, res.output
    assert json.loads(res.stdout)["error"] == {
        "file": None, "line": 1, "column": 8, "place": "column 8 (hands.red[0])",
        "message": "unknown colour 'rd'; did you mean 'red'? (known: blue, green, red, yellow, purple, grey)"}


def test_every_error_gives_its_place_apart_from_its_message(tmp_path: Path) -> None:
    """A schema problem in a file and an action of a position line that cannot be read give
    their place as ``place`` and the rest as ``message``, as other errors do (the second
    fresh review found the place inside the message and ``place`` null, and a position
    line's action error with ``file`` ``"<position>"`` and no line)."""
    bad = tmp_path / "s.yaml"
    bad.write_text("players: [red, blue, green]\nto_move: red\nscores: {red: -1}\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["ask", "--json", str(bad)])
    assert res.exit_code == 2, res.output
    assert json.loads(res.stdout)["error"] == {
        "file": str(bad), "line": 3, "column": 15, "place": "line 3, column 15 (scores.red)",
        "message": "must be at least 0; found -1"}
    res = CliRunner().invoke(main, ["ask", "--json", "red* 0 maid/red; blue; green > frobnicate"])
    error = json.loads(res.stdout)["error"]
    assert (error["file"], error["line"], error["column"], error["place"]) == (None, 1, 32, "column 32 (actions[0])")
    assert error["message"].startswith("unknown action 'frobnicate'")
