"""Text for readers names a reading of a variation point in its words (``words`` in
spec/variation_points.yaml), not by its id: the end of a game says "tie-break: most cards
displayed", where it said "tie-break: most-displayed". The ``--json`` documents keep the
ids in their fields (a decision's and a record's ``tiebreak``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from palast.errors import SpecError
from palast.formats.scenario import load_scenario
from palast.query.ask import ask, render_text
from palast.spec.load import Spec, load_spec
from tests.cli_runs import in_process
from tests.spec_copy import edited_spec

ROOT = Path(__file__).resolve().parent.parent
TIE = ROOT / "examples" / "game-end-tie.yaml"
RECORD = ROOT / "examples" / "records" / "seed7-reference.jsonl"


def test_the_tie_break_readings_have_words(spec: Spec) -> None:
    words = {r.id: r.words for r in spec.variation_points["game-end-tiebreak"].readings}
    assert words == {"most-displayed": "most cards displayed",
                     "most-played-last-round": "most cards played in the last round",
                     "most-played-total": "most cards played in the rounds they scored in"}


def test_ask_says_the_tie_break_in_words(spec: Spec) -> None:
    text = render_text(ask(spec, load_scenario(TIE, spec)), width=1000)
    assert "source-a: the game ends: blue wins (tie-break: most cards displayed)" in text
    assert "the game ends: red wins (tie-break: most cards played in the last round)" in text
    for reading in spec.variation_points["game-end-tiebreak"].readings:
        assert reading.id not in text


def test_a_game_over_decision_says_it_in_words_and_its_json_keeps_the_id(tmp_path: Path) -> None:
    """After the play that ends the game, the decision (the game is over) says the
    tie-break in words; the --json document's ``tiebreak`` field is still the reading's id."""
    scenario = tmp_path / "over.yaml"
    scenario.write_text(TIE.read_text(encoding="utf-8") + "\nactions: [play maid/green]\n", encoding="utf-8")
    r = in_process("ask", str(scenario), "-r", "source-a")
    assert r.code == 0, r.stderr
    assert "the game is over: blue wins (tie-break: most cards displayed)" in " ".join(r.stdout.split())
    doc = json.loads(in_process("ask", str(scenario), "-r", "source-a", "--json").stdout)
    assert doc["rulesets"]["source-a"]["decision"]["tiebreak"] == "most-displayed"
    assert doc["rulesets"]["source-a"]["decision"]["text"] == "the game is over: blue wins (tie-break: most cards " \
                                                               "displayed)"


def test_replay_says_it_in_words_and_its_json_keeps_the_id() -> None:
    r = in_process("replay", str(RECORD))
    assert r.code == 0, r.stderr
    assert "blue wins (tie-break: most cards played in the last round)" in r.stdout
    assert "most-played-last-round" not in r.stdout
    assert "most cards played" not in in_process("replay", str(RECORD), "--json").stdout
    result = json.loads(RECORD.read_text(encoding="utf-8").splitlines()[-1])["result"]
    assert result["tiebreak"] == "most-played-last-round"  # a record, written by palast play, keeps the id


def test_a_tie_break_reading_without_words_is_a_spec_problem(tmp_path: Path) -> None:
    """The end of a game names its tie-break in words, so spec check refuses a reading of a
    rule's tie-break point that has none, naming the reading's place."""
    copy = edited_spec(tmp_path, "variation_points.yaml", "        words: most cards displayed\n", "")
    with pytest.raises(SpecError) as exc:
        load_spec(copy)
    message = str(exc.value)
    assert "variation_points.yaml: line" in message
    assert "reading most-displayed of game-end-tiebreak has no words" in message


def test_two_tie_breaks_with_the_same_words_are_a_spec_problem(tmp_path: Path) -> None:
    """Words that another reading of the point has already could not tell a reader which
    tie-break decided (the fresh review's finding: they were accepted)."""
    copy = edited_spec(tmp_path, "variation_points.yaml", "words: most cards played in the last round",
                       "words: most cards displayed")
    with pytest.raises(SpecError) as exc:
        load_spec(copy)
    assert ("reading most-played-last-round of game-end-tiebreak has the words of reading most-displayed"
            in str(exc.value))


@pytest.mark.parametrize("words", ["Most cards displayed", "most cards\n  displayed.", "most {cards}"])
def test_words_are_a_few_lower_case_words(tmp_path: Path, words: str) -> None:
    copy = edited_spec(tmp_path, "variation_points.yaml", "words: most cards displayed",
                       f"words: {json.dumps(words)}")
    with pytest.raises(SpecError, match="words"):
        load_spec(copy)


def test_words_written_wrong_are_told_in_words_not_as_a_pattern(tmp_path: Path) -> None:
    """A value that does not match its schema's pattern is told what is expected, from the
    schema's description (it was jsonschema's raw regular expression)."""
    copy = edited_spec(tmp_path, "variation_points.yaml", "words: most cards displayed",
                       'words: "Most Cards displayed."')
    with pytest.raises(SpecError) as exc:
        load_spec(copy)
    assert ("expected the reading in a few lower-case words, as text for readers names it; found "
            '"Most Cards displayed."') in str(exc.value)
    assert "does not match" not in str(exc.value)


@pytest.mark.parametrize("words", ["most-displayed", "most_cards displayed"])
def test_words_that_read_as_an_id_are_a_spec_problem(tmp_path: Path, words: str) -> None:
    """Words that are a reading's id, or written with '_', would show readers an id (the
    second fresh review found 'most-displayed' accepted as words and printed in prose)."""
    copy = edited_spec(tmp_path, "variation_points.yaml", "words: most cards displayed", f"words: {words}")
    with pytest.raises(SpecError, match=f"has the words '{words}', which read as an id"):
        load_spec(copy)


def test_words_too_long_say_the_limit(tmp_path: Path) -> None:
    copy = edited_spec(tmp_path, "variation_points.yaml", "words: most cards displayed",
                       "words: " + "most cards displayed " * 4 + "now")
    with pytest.raises(SpecError, match="must be at most 60 characters long; found 87"):
        load_spec(copy)
