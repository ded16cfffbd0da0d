"""``palast ask --as``: another player's options are shown where they are public under the
declared visibility (cards face up in displays), and only there."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from palast.cli import main
from palast.engine.views import observation
from palast.formats.house import resolve
from palast.formats.notation import format_action
from palast.formats.scenario import load_scenario
from palast.query.ask import play_actions
from palast.query.seen_options import seen_options
from palast.spec.load import Spec
from tests.test_views_cli import MAID

ROOT = Path(__file__).resolve().parent.parent


def _ruling_scenario(tmp_path: Path, ruling: str, rulesets: list[str]) -> Path:
    data = yaml.safe_load((ROOT / "spec" / "rulings" / f"{ruling}.yaml").read_text(encoding="utf-8"))
    path = tmp_path / f"{ruling}.yaml"
    path.write_text(yaml.safe_dump({**data["scenario"], "rulesets": rulesets}), encoding="utf-8")
    return path


def test_another_players_choice_among_displayed_cards_is_public(spec: Spec, tmp_path: Path) -> None:
    """fan-dwarf-destroys: blue chooses a displayed Jester or none; red and green see the
    options (every one of blue's legal actions) and what each would show them."""
    path = _ruling_scenario(tmp_path, "fan-dwarf-destroys", ["fan"])
    fan = resolve(spec, "fan")
    sc = load_scenario(str(path), fan)
    game = sc.game(fan, "fan")
    state = play_actions(game, sc).state
    decider = game.colour_name(state.decision.player)
    legal = [format_action(game, a) for a in game.legal_actions(state)]
    assert len(legal) > 1
    for viewer in (c for c in ("red", "green") if c != decider):
        r = CliRunner().invoke(main, ["ask", str(path), "--as", viewer, "--json"])
        assert r.exit_code == 0, r.output
        res = json.loads(r.stdout)["rulesets"]["fan"]
        assert res["options"] == legal, res
        assert "does not see" not in res["decision"]["text"]
        assert [o["action"] for o in res["outcomes"]] == legal
        assert res["legal_actions"] == []  # the viewer has nothing to decide
        text = CliRunner().invoke(main, ["ask", str(path), "--as", viewer]).stdout
        assert "does not see their options" not in text and all(a in text for a in legal)


def test_options_that_depend_on_a_hidden_hand_are_not_shown(spec: Spec, tmp_path: Path) -> None:
    """The Maid's discard is a card of red's hand: blue does not see the options."""
    path = tmp_path / "maid.yaml"
    path.write_text(MAID, encoding="utf-8")
    sc = load_scenario(str(path), spec)
    game = sc.game(spec, "reference")
    state = play_actions(game, sc).state
    assert game.colour_name(state.decision.player) == "red"
    assert seen_options(game, state, observation(game, state, "blue")) is None
    # a play, too: its options are the hand
    start = sc.start(game)
    assert seen_options(game, start, observation(game, start, "blue")) is None


def test_a_guard_take_back_is_public(spec: Spec, tmp_path: Path) -> None:
    """The Guard takes back a displayed card: nothing hidden decides the options."""
    path = _ruling_scenario(tmp_path, "guard-must-take-back", ["reference"])
    sc = load_scenario(str(path), spec)
    game = sc.game(spec, "reference")
    state = play_actions(game, sc).state
    data = yaml.safe_load((ROOT / "spec" / "rulings" / "guard-must-take-back.yaml").read_text(encoding="utf-8"))
    from palast.formats.notation import parse_action

    state = game.apply(state, parse_action(game, data["action"])).state
    assert state.decision.kind == "take-back"
    other = next(s for s in range(game.n) if s != state.decision.player)
    seen = seen_options(game, state, observation(game, state, other))
    assert seen is not None and set(seen) == set(game.legal_actions(state))


GOBLIN = """players: [red, green, purple]
to_move: green
marks: {green: purple, purple: yellow, red: blue}
hands:
  red: [jester/red, maid/red, wizard/red]
  green: [treasurer/green, maid/green, wizard/green]
  purple: [treasurer/purple, maid/purple, guard/purple]
displays:
  red: [treasurer/red]
  purple: [wizard/purple]
DECK
actions: [play treasurer/green]
"""


def test_a_search_of_the_draw_deck_shows_no_result_to_those_who_cannot_see_it(tmp_path: Path) -> None:
    """green holds the purple character card (the Goblin) and may search the draw deck for
    the purple Jester. Whether it is there depends on cards no one at the table sees (the
    deck, purple's hand): asked as any player, the search's result is not given (it was a
    crash with the deck given, and a certain result, leaking where the card lies, without
    it), while not searching has its one result."""
    for deck in ("deck: [jester/purple, maid/grey]", ""):
        path = tmp_path / "goblin.yaml"
        path.write_text(GOBLIN.replace("DECK", deck), encoding="utf-8")
        for viewer in ("red", "green", "purple"):
            res = CliRunner().invoke(main, ["ask", "--json", "-r", "fan", str(path), "--as", viewer])
            assert res.exit_code == 0 and "Traceback" not in res.output, res.output
            out = json.loads(res.stdout)["rulesets"]["fan"]["outcomes"]
            search = next(o for o in out if o["action"] == "choose jester/purple")
            assert [r["probability"] for r in search["results"]] == ["?"]
            assert "hidden cards" in search["results"][0]["depends_on"]
            none = next(o for o in out if o["action"] == "choose none")
            assert [r["probability"] for r in none["results"]] == ["1"]
