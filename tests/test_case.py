"""Names are read in any case, everywhere palast reads them (README, "Scenario files"):
cards, roles and colours in card notation, actions, scenario files, position lines,
records, rulings and command-line options, and ids (rulesets) are not names. Each test
writes a name in other case where one place reads it and checks that the result is what
the lower-case text gives, and that a wrong name in other case is still wrong."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from palast.cli import main
from palast.engine import Game, PickPair, Play
from palast.errors import NotationError, ScenarioError
from palast.formats.notation import parse_action
from palast.formats.position import parse_position
from palast.formats.record import read_record
from palast.formats.scenario import parse_scenario
from palast.query.replay import Status, replay
from palast.query.ruling_files import load_ruling, rulings_dir
from palast.query.rulings import check_ruling
from palast.spec.cards import Cards
from palast.spec.load import Spec

ROOT = Path(__file__).resolve().parent.parent


def test_cards_roles_and_colours(spec: Spec) -> None:
    cards = Cards.from_spec(spec)
    assert cards.parse_card("Guard/Red") == cards.parse_card("guard/red")
    assert cards.card_id(" GUARD / red ") == "guard/red"
    assert cards.role_id("Hofnarr") == "jester" and cards.role_id("WÄCHTER") == cards.role_id("waechter")
    assert cards.colour_id("Brown") == "grey" and cards.colour_id("RED") == "red"
    assert cards.colour_id("Rot", "Rot") == "Rot"  # no colour: the default given
    with pytest.raises(NotationError, match="unknown colour 'Rot'"):
        cards.colour_id("Rot")
    with pytest.raises(NotationError, match="unknown role 'Gard'"):
        cards.parse_card("Gard/Red")


def test_actions(spec: Spec) -> None:
    game = Game(spec, "reference", ["red", "blue", "green"])
    assert parse_action(game, "PLAY Guard/Red") == Play(game.cards.parse_card("guard/red"))
    assert parse_action(game, "Swap BLUE:Guard/Blue Red:MAID/grey") == parse_action(
        game, "swap red:maid/grey blue:guard/blue")
    assert isinstance(parse_action(game, "SWAP Red:maid/grey Blue:guard/blue"), PickPair)
    deal = "deal red:{0} blue:{0} green:{0} deck:maid/red".format(",".join(["jester/grey"] * 6))
    assert parse_action(game, deal.upper()) == parse_action(game, deal)


SCENARIO = """\
players: [red, blue, green]
to_move: red
banned: jester
king_deck: [maid]
king_spent: [guard]
scores: {red: 1}
played: {green: 1}
hands:
  red: [guard/red, maid/grey]
  blue: [jester/blue]
displays:
  green: [wizard/green]
deck: [treasurer/red]
discard: [cupbearer/grey]
actions: [play maid/grey]
"""

SHOUTED = """\
players: [Red, BLUE, green]
to_move: RED
banned: Jester
king_deck: [MAID]
king_spent: [Guard]
scores: {Red: 1}
played: {GREEN: 1}
hands:
  RED: [Guard/Red, Maid/Grey]
  Blue: [JESTER/blue]
displays:
  green: [Wizard/GREEN]
deck: [Treasurer/Red]
discard: [CUPBEARER/grey]
actions: [PLAY Maid/Grey]
"""


def position_of(sc: Any) -> tuple[Any, ...]:
    return (sc.players, sc.to_move, sc.hands, sc.displays, sc.deck, sc.discard, sc.banned, sc.king_deck,
            sc.king_spent, sc.scores, sc.played, sc.tally)


def test_scenario_files(spec: Spec) -> None:
    plain, shouted = parse_scenario(SCENARIO, spec), parse_scenario(SHOUTED, spec)
    assert position_of(shouted) == position_of(plain)
    game = plain.game(spec, "reference")
    assert shouted.position(game)[0] == plain.position(game)[0]
    with pytest.raises(ScenarioError, match="unknown ruleset 'Reference'"):  # an id, not a name
        parse_scenario(SCENARIO + "rulesets: [Reference]\n", spec)
    with pytest.raises(ScenarioError, match="unknown colour 'Rot'"):
        parse_scenario(SHOUTED.replace("to_move: RED", "to_move: Rot"), spec)


def test_position_lines(spec: Spec) -> None:
    plain = parse_position("red* 1 guard/red,maid/grey; blue jester/blue; green | wizard/green; banned jester", spec)
    shouted = parse_position("RED* 1 Guard/Red,MAID/grey; Blue JESTER/blue; green | Wizard/Green; BANNED Jester",
                             spec)
    assert position_of(shouted) == position_of(plain)


def shout_record(lines: list[str]) -> list[str]:
    """A record with every colour, card and action verb in upper or title case."""
    out = []
    for i, line in enumerate(lines):
        d = json.loads(line)
        if i == 0:
            d["players"] = [p.upper() for p in d["players"]]
        if "action" in d:
            d["action"] = d["action"].upper()
        if d.get("by") not in (None, "chance"):
            d["by"] = d["by"].title()
        if "result" in d:
            r = d["result"]
            r["winners"] = [w.title() for w in r["winners"]]
            r["scores"] = {k.upper(): v for k, v in r["scores"].items()}
        out.append(json.dumps(d))
    return out


def test_records(spec: Spec, tmp_path: Path) -> None:
    lines = (ROOT / "examples" / "records" / "seed7-reference.jsonl").read_text(encoding="utf-8").splitlines()
    shouted = tmp_path / "shouted.jsonl"
    shouted.write_text("\n".join(shout_record(lines)) + "\n", encoding="utf-8")
    report = replay(spec, read_record(shouted))
    assert report.status is Status.CONFIRMED and not report.mismatches, report
    # a wrong result or a wrong player in other case is still found wrong
    result = json.loads(lines[-1])
    winner = result["result"]["winners"][0]
    other = next(p for p in json.loads(lines[0])["players"] if p != winner)
    result["result"]["winners"] = [other.upper()]
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text("\n".join(shout_record(lines)[:-1] + [json.dumps(result)]) + "\n", encoding="utf-8")
    report = replay(spec, read_record(wrong))
    assert any("winners" in m for m in report.mismatches), report


def shout_ruling(data: dict[str, Any]) -> dict[str, Any]:
    """A ruling with the colours, cards, roles and actions of its scenario, action and
    expectations in other case (ids as they are)."""
    def up(x: Any) -> Any:
        if isinstance(x, str):
            return x.upper()
        if isinstance(x, list):
            return [up(v) for v in x]
        if isinstance(x, dict):
            return {up(k): up(v) for k, v in x.items()}
        return x

    sc = dict(data["scenario"])
    for key in ("players", "to_move", "banned", "king_deck", "king_spent", "hands", "displays", "discard", "deck",
                "actions", "scores", "played", "tally"):
        if key in sc:
            sc[key] = up(sc[key])
    out = dict(data, scenario=sc)
    if out.get("action"):
        out["action"] = out["action"].title()
    expect = {}
    for rs, exp in data["expect"].items():
        e = dict(exp)
        for key in ("player", "next_to_move", "winners", "scores", "hands", "displays", "banned", "legal_actions",
                    "probabilities"):
            if e.get(key) is not None:
                e[key] = up(e[key])
        expect[rs] = e
    out["expect"] = expect
    return out


def test_rulings(spec: Spec, tmp_path: Path) -> None:
    """Every ruling, written with its names in upper case, loads and checks as it does
    written in lower case; a wrong expectation in upper case is still found wrong."""
    files = sorted(rulings_dir(spec).glob("*.yaml"))
    assert len(files) > 40
    for path in files:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        shouted = tmp_path / path.name
        shouted.write_text(yaml.safe_dump(shout_ruling(data), allow_unicode=True, sort_keys=False), encoding="utf-8")
        plain_checks = check_ruling(spec, load_ruling(path, spec))
        checks = check_ruling(spec, load_ruling(shouted, spec))
        assert [c.agrees for c in checks] == [c.agrees for c in plain_checks] and all(c.agrees for c in checks), \
            (path.name, [c.differences for c in checks if not c.agrees])
    data = yaml.safe_load((rulings_dir(spec) / "banned-jester-two-in-hand.yaml").read_text(encoding="utf-8"))
    data["expect"]["source-a"]["next_to_move"] = "Blue"
    bad = tmp_path / "banned-jester-two-in-hand.yaml"
    bad.write_text(yaml.safe_dump(shout_ruling(data), sort_keys=False), encoding="utf-8")
    checks = check_ruling(spec, load_ruling(bad, spec), ["source-a"])
    assert [d.field for c in checks for d in c.differences] == ["next_to_move"]


def test_command_line_colours() -> None:
    r = CliRunner().invoke(main, ["play", "--colours", "Red,BLUE,green", "-q"], prog_name="palast")
    assert r.exit_code == 0 and "3 players (red, blue, green)" in r.stdout
    r = CliRunner().invoke(main, ["play", "--colours", "Red,Bleu,green", "-q"], prog_name="palast")
    assert r.exit_code == 2 and "unknown colour 'Bleu'" in r.stderr
