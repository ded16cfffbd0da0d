"""Scenario files as a new user writes them after reading the README (issue 8, point 5).

Each file in ``tests/newcomer/`` holds one mistake a person makes: a typo in a role, a
misspelt German role name among correct ones, ``brown`` seated as a player (source B's
name for grey), a forgotten ``to_move``, indentation with the tab key. For each, ``palast
ask`` must exit 2 with a message that names the file and the place and says how to fix
it; carrying out that fix, as the person would, must give a file palast answers. The
aliases the README lists (German role names with or without umlauts, in any case, and
``brown`` for grey) are accepted and mean the same cards as the English names.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from palast.formats.scenario import parse_scenario
from palast.spec.load import Spec

ROOT = Path(__file__).resolve().parent.parent
NEWCOMER = ROOT / "tests" / "newcomer"

#: file -> (what the message must say, the text to replace, the fix the message asks for)
CASES: dict[str, tuple[str, str, str]] = {
    "typo-in-role.yaml": (
        "line 6, column 19 (hands.red[1]): unknown role 'wizzard'; did you mean 'wizard'?",
        "wizzard", "wizard"),
    "german-role-names.yaml": (
        "line 9, column 27 (displays.green[1]): unknown role 'Hofnar'; did you mean 'hofnarr' (the jester)?",
        "Hofnar/", "hofnarr/"),
    "brown-for-grey.yaml": (
        "line 2, column 22 (players[2]): 'brown' is the neutral colour (grey cards belong to nobody); "
        "a player is one of blue, green, red, yellow, purple",
        "players: [red, blue, brown]", "players: [red, blue, green]"),
    "missing-to-move.yaml": (
        "missing key 'to_move': add to_move: the colour of the player to move, e.g. red "
        "(one of the players: red, blue, green)",
        "players: [red, blue, green]\n", "players: [red, blue, green]\nto_move: red\n"),
    "tab-indented.yaml": (
        "line 5, column 1: a tab character; YAML indents with spaces only, so replace the tab with spaces",
        "\t", "  "),
    # review finding 3: an unknown key is placed at the key, not at line 1, column 1
    "unknown-key-banner.yaml": (
        "line 6, column 1 (banner): unknown key 'banner'; did you mean 'banned'?",
        "banner:", "banned:"),
    # review finding 11: no King card in force is null, not the word none
    "banned-none.yaml": (
        "line 4, column 9 (banned): 'none' is not a role; when no King card is in force write banned: null "
        "(or leave banned out)",
        "banned: none", "banned: null"),
    # review finding 11: numbers are whole numbers everywhere; round: 2.0 was accepted
    "round-decimal.yaml": (
        "line 4, column 8 (round): expected a whole number (the round number, 1 or more), written without a "
        "decimal point; found 2.0 (write 2)",
        "round: 2.0", "round: 2"),
    # review finding 4: YAML splits give CARD,CARD at the comma inside [...]
    "give-not-quoted.yaml": (
        "line 15, column 66 (actions[4]): 'jester/red' is not an action: YAML splits a [...] list at every "
        "comma, so it cut 'give maid/grey,jester/red' after 'give maid/grey'; put that action in quotes: "
        "\"give maid/grey,jester/red\"",
        "give maid/grey,jester/red]", "\"give maid/grey,jester/red\"]"),
}


def ask(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "palast", "ask", str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_every_newcomer_file_has_a_case() -> None:
    assert sorted(p.name for p in NEWCOMER.glob("*.yaml")) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_message_tells_how_to_fix_it(name: str, tmp_path: Path) -> None:
    """The mistake: exit 2, the file, the place and the fix. The fix carried out: exit 0."""
    message, wrong, right = CASES[name]
    path = NEWCOMER / name
    r = ask(path)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith(f"palast: error: {path}: "), r.stderr
    assert message in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1, "one mistake, one message: " + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    fixed = tmp_path / name
    text = path.read_text(encoding="utf-8")
    assert wrong in text
    fixed.write_text(text.replace(wrong, right), encoding="utf-8")
    r = ask(fixed)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("== ") and "reference" in r.stdout  # answered, for every ruleset


def _cards(spec: Spec, text: str) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], int]:
    sc = parse_scenario(text, spec)
    return sc.hands, sc.displays, sc.banned


def test_german_names_mean_the_english_roles(spec: Spec) -> None:
    """Every German role name of game.yaml, with umlauts, without (ae), and in any case,
    reads as the same card as the English id; so does every alias the spec lists."""
    base = "players: [red, blue, green]\nto_move: red\nhands:\n  red: [{card}/red]\n"
    for role in spec.roles:
        english = _cards(spec, base.format(card=role))
        german = str(spec.role_names[role]["german"])
        spellings = {german, german.lower(), german.upper(), german.replace("ä", "ae"),
                     *spec.role_names[role].get("aliases", [])}
        for s in sorted(spellings):
            assert _cards(spec, base.format(card=s)) == english, (role, s)


def test_wachter_and_waechter_and_waechter_with_umlaut(spec: Spec) -> None:
    """The Guard's German name written the three ways people type it."""
    base = "players: [red, blue, green]\nto_move: red\nhands:\n  red: [{card}/red]\n"
    want = _cards(spec, base.format(card="guard"))
    for s in ("Wächter", "wächter", "Waechter", "WAECHTER", "wachter"):
        assert _cards(spec, base.format(card=s)) == want, s


def test_brown_is_grey(spec: Spec) -> None:
    """``brown`` (any case) names the neutral cards, as ``grey`` does."""
    base = "players: [red, blue, green]\nto_move: red\nhands:\n  red: [maid/{c}, jester/{c}]\n"
    want = _cards(spec, base.format(c="grey"))
    for c in ("brown", "Brown", "BROWN"):
        assert _cards(spec, base.format(c=c)) == want, c


def test_german_file_fixed_equals_its_english_translation(spec: Spec) -> None:
    """The German newcomer file, its typo fixed, is the same position as written in English."""
    german = (NEWCOMER / "german-role-names.yaml").read_text(encoding="utf-8").replace("Hofnar/", "hofnarr/")
    english = german
    for de, en in (("Hofnarr", "jester"), ("hofnarr", "jester"), ("Zofe", "maid"), ("Mundschenk", "cupbearer"),
                   ("Wächter", "guard"), ("Waechter", "guard"), ("Schatzmeister", "treasurer"),
                   ("Hofmarschall", "marshal"), ("Zauberer", "wizard")):
        english = english.replace(de, en)
    assert parse_scenario(german, spec) == parse_scenario(english, spec)


# --------------------------------------------------------------- review findings 3, 4, 11
def _problem(spec: Spec, text: str) -> str:
    """The message loading scenario ``text`` gives (it must fail)."""
    from palast.errors import ScenarioError

    with pytest.raises(ScenarioError) as err:
        parse_scenario(text, spec, "s.yaml")
    return err.value.render()


WIZARD = ("players: [red, blue, green]\nto_move: red\nhands:\n  red: [wizard/red, maid/grey, jester/red, guard/red]\n"
          "  blue: [treasurer/blue, guard/blue, jester/blue, treasurer/grey]\n")


def test_give_split_at_its_commas_is_one_problem_with_the_quoted_action(spec: Spec) -> None:
    """``give A,B,C`` in a [...] list becomes three entries; one message names the whole
    action to quote, and the pieces after the first are not reported again."""
    msg = _problem(spec, WIZARD + "actions: [play wizard/red, partner blue, count 3, give maid/grey,jester/red,"
                                  "guard/red]\n")
    assert msg.count("is not an action") == 1 and "problems" not in msg, msg
    assert "line 6, column 66 (actions[4]): 'jester/red' is not an action" in msg, msg
    assert "put that action in quotes: \"give maid/grey,jester/red,guard/red\"" in msg, msg
    fixed = WIZARD + "actions: [play wizard/red, partner blue, count 3, \"give maid/grey,jester/red,guard/red\"]\n"
    assert parse_scenario(fixed, spec).actions[3][0] == "give maid/grey,jester/red,guard/red"


def test_deal_split_at_a_comma_names_the_deal_to_quote(spec: Spec) -> None:
    msg = _problem(spec, "players: [red, blue, green]\nto_move: red\n"
                         "actions: [deal red:maid/red,guard/red blue:maid/blue]\n")
    assert "(actions[1]): 'guard/red blue:maid/blue' is not an action" in msg, msg
    assert "\"deal red:maid/red,guard/red blue:maid/blue\"" in msg, msg


def test_a_card_alone_is_not_an_action(spec: Spec) -> None:
    """A bare card with no give or deal before it: the message says what an action is."""
    msg = _problem(spec, "players: [red, blue, green]\nto_move: red\nhands:\n  red: [maid/red]\n"
                         "actions: [maid/red]\n")
    assert "(actions[0]): 'maid/red' is a card, not an action; an action starts with one of: play" in msg, msg
    assert "e.g. 'play maid/red'" in msg, msg


def test_notation_says_a_card_is_not_an_action(spec: Spec) -> None:
    """The same hint where actions are read one by one (records, ``ask``'s actions)."""
    from palast.engine import Game
    from palast.errors import NotationError
    from palast.formats.notation import parse_action

    game = Game(spec, spec.default_ruleset, (0, 1, 2))
    with pytest.raises(NotationError, match=r"'guard/red' is a card, not an action; .*e\.g\. 'play guard/red'"):
        parse_action(game, "guard/red")
    with pytest.raises(NotationError, match=r"^unknown action 'lay maid/red'"):
        parse_action(game, "lay maid/red")


def test_whole_numbers_only_everywhere(spec: Spec) -> None:
    """``round: 2.0`` and ``scores: {red: 1.5}`` are refused alike; ``round: 2`` is read."""
    base = "players: [red, blue, green]\nto_move: red\n"
    assert "found 2.0 (write 2)" in _problem(spec, base + "round: 2.0\n")
    whole = "expected a whole number, 0 or more; found"
    assert "(scores.red): expected a whole number, 0 or more, written without a decimal point; found 2.0" \
        in _problem(spec, base + "scores: {red: 2.0}\n")
    assert f"(played.red): {whole} 1.5" in _problem(spec, base + "played: {red: 1.5}\n")
    assert "(deck): expected a number of cards" in _problem(spec, base + "deck: 3.0\n")
    # a wrong type is named, with what the field means beside it
    assert "(round): expected a whole number (the round number, 1 or more); found true" \
        in _problem(spec, base + "round: true\n")
    assert "(title): expected text; found [1]" in _problem(spec, base + "title: [1]\n")
    assert parse_scenario(base + "round: 2\n", spec).round == 2


def test_every_unknown_key_is_placed_at_its_own_line(spec: Spec) -> None:
    msg = _problem(spec, "players: [red, blue, green]\nto_move: red\nhand: {}\nscores: {}\n  \nbanner: jester\n")
    assert "line 3, column 1 (hand): unknown key 'hand'; did you mean 'hands'?" in msg, msg
    assert "line 6, column 1 (banner): unknown key 'banner'; did you mean 'banned'?" in msg, msg
    assert "line 1, column 1" not in msg, msg
