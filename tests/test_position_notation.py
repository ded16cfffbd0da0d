"""The position line (palast/formats/position.py): it round-trips with the scenario form
for generated positions of 3, 4 and 5 players and for every example, ruling and witness;
other ways of writing it read the same; ``palast ask`` reads it and gives the position it
answers as a line that reads back to that position; mistakes are reported at their column."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from palast.cli import main
from palast.engine import Game
from palast.engine.state import DecisionKind
from palast.errors import ScenarioError
from palast.formats.notation import format_action, parse_action
from palast.formats.position import (
    answer_position,
    format_position,
    looks_like_position,
    parse_position,
    state_position,
)
from palast.formats.scenario import Scenario, load_scenario
from palast.query.ask import error_document, play_actions
from palast.query.ruling_files import load_rulings
from tests.conftest import PLAYER_COUNTS, RULESETS
from tests.stateful.configs import spec
from tests.stateful.positions import positions
from tests.test_properties import any_action

ROOT = Path(__file__).resolve().parent.parent
SCENARIO_FILES = sorted((ROOT / "examples").glob("*.yaml")) + sorted((ROOT / "proofs" / "witnesses").glob("*.yaml"))


def fields(sc: Scenario) -> tuple[Any, ...]:
    """What a position line holds: every scenario field but the texts, the file and the
    places of the actions."""
    return (sc.players, sc.rulesets, sc.to_move, sc.hands, sc.displays, sc.deck, sc.discard, sc.banned,
            sc.king_deck, sc.king_spent, sc.scores, sc.played, sc.tally, sc.round, tuple(t for t, _ in sc.actions))


@st.composite
def scenarios(draw: st.DrawFn, players: int) -> Scenario:
    """A generated position of ``players`` players, with a deck and King deck also left out,
    some rulesets and actions of every kind (not necessarily legal: a line holds any)."""
    ruleset = draw(st.sampled_from(RULESETS))
    sc = draw(positions(ruleset).filter(lambda s: len(s.players) == players))
    game = Game(spec(), ruleset, list(sc.players))
    actions = draw(st.lists(any_action(game), max_size=3))
    rulesets = draw(st.lists(st.sampled_from(list(spec().rulesets)), min_size=1, unique=True))
    return replace(sc, deck=draw(st.sampled_from([sc.deck, None])),
                   king_deck=draw(st.sampled_from([sc.king_deck, None])), rulesets=tuple(rulesets),
                   actions=tuple((format_action(game, a), "") for a in actions))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@given(data=st.data())
def test_scenario_line_scenario_and_line_scenario_line(players: int, data: st.DataObject) -> None:
    sc = data.draw(scenarios(players))
    line = format_position(sc, spec())
    again = parse_position(line, spec())
    assert fields(again) == fields(sc), line
    assert format_position(again, spec()) == line
    assert "\n" not in line and len(again.players) == players


def other_spelling(line: str, rng: random.Random) -> str:
    """``line`` written another way: names (not ruleset ids) in other case, spaces after
    commas or in place of them, spaces around ';', '|' and '*' left out or added."""
    out = []
    ids = line.find("; rulesets ")  # ruleset ids are ids, written as the spec lists them
    for i, ch in enumerate(line):
        if ch.isalpha() and rng.random() < 0.3 and (ids < 0 or i < ids + 11):
            ch = ch.upper()
        elif ch == "," and rng.random() < 0.5:
            ch = rng.choice([", ", " ", " ,"])
        elif ch == ";" and rng.random() < 0.5:
            ch = rng.choice([" ;", ";  ", ";"])
        elif ch == "*" and rng.random() < 0.5:
            ch = " * "
        out.append(ch)
    text = "".join(out).replace(" | ", rng.choice(["|", " | ", "  |"]))
    return "  " + text + " "


@given(st.data(), st.integers(0, 2**32 - 1))
def test_other_spellings_read_the_same(data: st.DataObject, seed: int) -> None:
    sc = data.draw(scenarios(data.draw(st.sampled_from(PLAYER_COUNTS))))
    sc = replace(sc, actions=())  # the action notation's own spellings are tested in test_properties
    line = format_position(sc, spec())
    written = other_spelling(line, random.Random(seed))
    assert fields(parse_position(written, spec())) == fields(sc), written


def scenario_files_and_rulings() -> list[tuple[str, Scenario]]:
    out = [(str(p.relative_to(ROOT)), load_scenario(p, spec())) for p in SCENARIO_FILES]
    out += [(f"spec/rulings/{r.id}.yaml", r.scenario) for r in load_rulings(spec())]
    return out


def test_every_example_ruling_and_witness_round_trips() -> None:
    """Written as a line and read back, every scenario of examples/, spec/rulings/ and
    proofs/witnesses/ is the same scenario, and builds the same position under each of its
    rulesets (its actions applied)."""
    items = scenario_files_and_rulings()
    assert len(items) > 60 and any(p.startswith("spec/rulings/") for p, _ in items)
    for path, sc in items:
        line = format_position(sc, spec())
        again = parse_position(line, spec())
        assert fields(again) == fields(sc), path
        assert format_position(again, spec()) == line, path
        for ruleset in sc.rulesets:
            game = sc.game(spec(), ruleset)
            assert again.start(game) == sc.start(game), (path, ruleset)


def test_the_line_ask_gives_reads_back_to_the_position_it_answers() -> None:
    """For every scenario and ruleset, the line of the answered position (the scenario's
    actions applied as far as they go) builds that position again."""
    mid_decision = 0
    for path, sc in scenario_files_and_rulings():
        for ruleset in sc.rulesets:
            game = sc.game(spec(), ruleset)
            played = play_actions(game, sc)
            line = answer_position(game, sc, played.history)
            again = parse_position(line, spec())
            final = again.start(game)
            for text, _ in again.actions:
                final = game.apply(final, parse_action(game, text)).state
            assert final == played.state, (path, ruleset, line)
            mid_decision += bool(again.actions)
    assert mid_decision, "some answered position waits for a decision other than a play"


@given(st.sampled_from(RULESETS), st.sampled_from(PLAYER_COUNTS), st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_positions_reached_in_play_read_back(ruleset: str, n: int, seed: int, stop: int) -> None:
    """A seeded game played ``stop`` actions on: every position of a play on the way, as a
    line, builds the same state."""
    game = Game(spec(), ruleset, list(spec().player_colours[:n]))
    rng = random.Random(seed)
    s = game.initial_state()
    for _ in range(stop):
        if s.is_terminal:
            break
        if s.decision.kind == DecisionKind.PLAY and not s.deck_bottom:
            assert parse_position(state_position(game, s), spec()).start(game) == s
        if s.decision.is_chance:
            a = game.sample_chance(s, rng)
        else:
            acts = game.legal_actions(s)
            a = acts[int(rng.random() * len(acts))]
        s = game.apply(s, a).state


# ---------------------------------------------------------------------- mistakes
BAD = [
    ("red 0; blue; green", 1, "no player is marked to move"),
    ("red* 0; blue*; green", 13, "red is marked to move already"),
    ("red* 0 jester/gry; blue; green", 8, "unknown colour 'gry'"),
    ("red* 0; blue; green; dek 3", 22, "did you mean 'deck'?"),
    ("red* 0; blue; green; deck 3; deck 4", 30, "deck is given twice (first at column 22)"),
    ("red* 0; blue; green; round x", 28, "round needs a whole number, not 'x'"),
    ("red* 0; blue; green; round 0", 28, "round"),
    ("red* 0 | maid/red | guard/red; blue; green", 19, "a second '|'"),
    ("red* 0 maid/red played; blue; green", 23, "played needs a whole number"),
    ("red* 0 maid/red | guard/red tally 2 foo; blue; green", 37, "'foo' in red's section"),
    ("red* 0; blue; green; banned jester maid", 36, "banned names one role"),
    ("red* 0; blue; green; banned marshal", 29, "no King card bans the marshal"),
    ("red* 0 maid/yellow; blue; green", 8, "maid/yellow belongs to yellow, who is not seated"),
    ("red* 0 | maid/red,maid/grey; blue; green", 10, "red's display repeats a role"),
    ("red* 6; blue; green", 6, "reached the target"),
    ("red* 0; blue; green > play maid/red >", 37, "an empty action"),
    ("red* 0; blue; green > play maid/red; round 2", 36, "the position's sections come before the actions"),
    ("red* 0; blue; green; deck 100", 27, "a deck of 100 cards"),
    ("red* 0 * ; blue; green", 8, "'*' marks the player to move"),
]


@pytest.mark.parametrize(("line", "column", "words"), BAD, ids=[b[0] for b in BAD])
def test_mistakes_are_reported_at_their_column(line: str, column: int, words: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_position(line, spec())
    msg = str(info.value)
    assert msg.startswith("<position>: "), msg
    assert f"column {column}" in msg and words in msg, msg
    doc = error_document(info.value)["error"]  # the --json document gives the column too
    assert (doc["line"], doc["column"]) == (1, column), doc


def test_an_impossible_position_names_a_column() -> None:
    """A check made when the position is built (an invariant of the spec) names the column
    of the part it concerns as well."""
    with pytest.raises(ScenarioError) as info:
        parse_position("red* 0 | maid/red played 99; blue; green", spec()).start(Game(spec(), "reference",
                                                                                    ["red", "blue", "green"]))
    assert str(info.value).startswith("<position>: column 26 (played): the position is impossible: ")
    assert "played(p)) is 99" in str(info.value)
    assert "A round ends after at most 6 × players + 1 plays (round-is-bounded); here " in str(info.value)


def test_empty_and_multi_line_text_is_refused() -> None:
    for text in ("", "   ", "red* 0\nblue; green"):
        with pytest.raises(ScenarioError, match="<position>"):
            parse_position(text, spec())


# ---------------------------------------------------------------------- palast ask
def invoke(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), prog_name="palast")
    return r.exit_code, r.stdout, r.stderr


LINE = ("red* 0 jester/grey | guard/red,cupbearer/blue,wizard/grey,maid/green,treasurer/red; blue 2 "
        "jester/blue,jester/green,guard/grey | guard/blue,treasurer/blue,wizard/red; green 1 "
        "maid/blue,treasurer/green,treasurer/grey | maid/red,cupbearer/red,wizard/green; round 3; deck 15; "
        "discard marshal/grey,jester/red; banned jester; king_deck 3; king_spent maid,guard")


def test_ask_reads_a_line_as_the_file_it_came_from() -> None:
    """The example written as a line gets the same answer as the example file (but for the
    file name, title and question), and the answer gives the line back."""
    code, out, err = invoke("ask", "--json", LINE)
    assert code == 0, err
    got = json.loads(out)
    code, out, _ = invoke("ask", "--json", str(ROOT / "examples" / "banned-jester-only-card.yaml"))
    want = json.loads(out)
    assert got["scenario"] == "<position>"
    for key in ("scenario", "title", "question"):
        got.pop(key), want.pop(key)
    assert got == want
    assert {r: a["notation"] for r, a in got["rulesets"].items()} == {r: LINE for r in RULESETS}


def test_ask_text_shows_the_line_and_the_line_after_actions() -> None:
    code, out, err = invoke("ask", LINE.replace("red* 0 jester/grey", "red* 0 Jester/Grey"))
    assert code == 0, err
    assert f"   as one line: {LINE}\n" in out
    # after the forced Jester the round is over (a deal is due): the line is the position
    # before it and the action
    code, out, err = invoke("ask", "--json", "-r", "reference", LINE + " > play jester/grey")
    assert code == 0, err
    assert json.loads(out)["rulesets"]["reference"]["notation"] == LINE + " > play jester/grey"


def test_ask_reports_a_bad_line_with_exit_2_and_no_traceback() -> None:
    code, out, err = invoke("ask", "red* 0 jester/gry; blue; green")
    assert code == 2 and out == ""
    assert err.startswith("palast: error: <position>: column 8 (hands.red[0]): unknown colour 'gry'")
    assert "Traceback" not in err


def test_what_is_read_as_a_line() -> None:
    example = str(ROOT / "examples" / "banned-jester-only-card.yaml")
    assert not looks_like_position(example)
    assert not looks_like_position("-")
    assert not looks_like_position("no-such-file.yaml")
    assert looks_like_position("red* 0; blue; green")
    assert looks_like_position("red 0; blue; green")  # then reported: no player is marked to move
    code, _, err = invoke("ask", "no-such-file.yaml")
    assert code == 2 and "<position>" not in err


def test_the_lines_shown_in_the_readme_and_the_book_read_back() -> None:
    """The position lines the README and the book's notation page show are lines palast
    reads and writes back unchanged."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    book = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    shown = [m for m in re.findall(r"^\$ palast ask '(.*)'$", readme, re.M)]
    shown += [line for line in re.findall(r"^```text\n(.*)\n```$", book, re.M) if "palast:" not in line]
    assert len(shown) == 2
    for line in shown:
        assert format_position(parse_position(line, spec()), spec()) == line
