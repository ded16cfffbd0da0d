"""Scenario files as a new user writes them after reading the README (issue 8, point 5).

Each file in ``tests/newcomer/`` holds one mistake a person makes: a typo in a role, a
misspelt German role name among correct ones, ``brown`` seated as a player (source B's
name for grey), a forgotten ``to_move``, indentation with the tab key. For each, ``palast
ask`` must exit 2 with a message that names the file and the place and says how to fix
it; carrying out that fix, as the person would, must give a file palast answers. The
aliases DESIGN.md lists (German role names with or without umlauts, in any case, and
``brown`` for grey) are accepted and mean the same cards as the English names.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from palast.scenario import parse_scenario
from palast.spec import Spec

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
    assert "-- ruleset reference" in r.stdout


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
