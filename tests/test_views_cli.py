"""``palast ask --as`` and ``palast replay --as``: a player's side of an answer and of a record."""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from palast.cli import main
from tests.test_views import WIZARD as VIEW_WIZARD

ROOT = Path(__file__).resolve().parent.parent

MAID = """\
players: [red, blue, green]
to_move: red
deck: [marshal/grey, treasurer/grey, cupbearer/blue]
hands:
  red: [maid/red, jester/grey, wizard/red]
  blue: [treasurer/blue, wizard/blue, jester/blue, marshal/blue]
  green: [treasurer/green, maid/green, jester/green]
displays:
  red: [treasurer/red, guard/red, cupbearer/grey]
  blue: [maid/blue, guard/blue]
  green: [wizard/green, guard/green, cupbearer/green]
actions: [play maid/red]
"""

#: The Wizard position of the view tests, with red's exchange begun (one card, maid/grey).
WIZARD = textwrap.dedent(VIEW_WIZARD) + """rulesets: [reference]
actions: [play wizard/red, partner blue, count 1, "give maid/grey"]
"""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), prog_name="palast")


def scenario(tmp_path: Path, text: str) -> str:
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_ask_as_the_maid_lists_each_draw_with_its_probability(tmp_path: Path) -> None:
    """Red does not know the deck: each card red cannot place may be drawn, with
    probability copies / unplaced cards (exact fractions adding to 1), whatever the
    scenario's deck order."""
    r = invoke("ask", scenario(tmp_path, MAID), "--as", "red", "-r", "reference", "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.output)["rulesets"]["reference"]
    assert res["legal_actions"] == ["discard wizard/red", "discard jester/grey"]
    results = res["outcomes"][1]["results"]
    assert sum(Fraction(x["probability"]) for x in results) == 1
    drawn = {next(e["card"] for e in x["events"] if e["kind"] == "card_drawn"): Fraction(x["probability"])
             for x in results}
    # 35 cards; red places its 2 hand cards and the 9 displayed: 24 unplaced, grey cards twice
    assert drawn["treasurer/blue"] == Fraction(1, 24)  # in blue's hand, which red cannot see
    assert drawn["marshal/grey"] == Fraction(2, 24)
    assert "guard/red" not in drawn and "maid/red" not in drawn  # displayed: placed


def test_ask_as_another_player_hides_the_draw(tmp_path: Path) -> None:
    """Blue sees red discard and draw, never the cards, and is offered no actions."""
    r = invoke("ask", scenario(tmp_path, MAID), "--as", "blue", "-r", "reference", "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.output)["rulesets"]["reference"]
    assert res["legal_actions"] == [] and res["outcomes"] == []
    assert "blue does not see their options" in res["decision"]["text"]
    assert "jester/grey" not in r.output and "wizard/red" not in r.output  # red's hand


def test_ask_as_the_wizard_partner_never_shows_the_pick(tmp_path: Path) -> None:
    """While blue answers, red's pick (maid/grey) appears nowhere in blue's answer."""
    r = invoke("ask", scenario(tmp_path, WIZARD), "--as", "blue", "--json")
    assert r.exit_code == 0, r.output
    assert "maid/grey" not in r.output
    res = json.loads(r.output)["rulesets"]["reference"]
    assert len(res["legal_actions"]) == 4
    assert res["view"]["decision"]["hidden"] == ["given"]
    for o in res["outcomes"]:
        (x,) = o["results"]
        assert x["depends_on"] == ["given"] and "?" in x["hand"]
    red = invoke("ask", scenario(tmp_path, WIZARD), "--as", "red", "--json")
    assert json.loads(red.output)["rulesets"]["reference"]["view"]["decision"]["given"] == ["maid/grey"]


PICKS = """
players: [red, blue, green]
to_move: red
deck: 4
hands:
  red: [wizard/red, {first}, {second}]
  blue: [treasurer/blue, guard/blue, treasurer/grey, wizard/grey]
  green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green]
displays:
  red: [treasurer/red, guard/grey, cupbearer/red]
  blue: [wizard/blue, maid/blue]
  green: [guard/green]
actions: [play wizard/red, partner blue, count 2, "give {first},{second}"]
"""


@pytest.mark.parametrize("picks", [("maid/red", "jester/red"), ("jester/grey", "marshal/grey"),
                                   ("treasurer/grey", "maid/grey")])
def test_the_wizard_partners_answer_does_not_depend_on_the_picks(tmp_path: Path, picks: tuple[str, str]) -> None:
    """Blue answers red's exchange without knowing red's picks: blue's whole ``--as``
    answer (text and JSON) is the same whichever two cards red picked, including a pick
    with one copy only, a pick whose colour would show in a sorted hand, and a copy of a
    card blue holds (treasurer/grey)."""
    def answer(first: str, second: str, json_out: bool) -> str:
        path = scenario(tmp_path, PICKS.replace("{first}", first).replace("{second}", second))
        r = invoke("ask", path, "--as", "blue", "-r", "reference", *(["--json"] if json_out else []))
        assert r.exit_code == 0, r.output
        return r.output

    for json_out in (True, False):
        assert answer(*picks, json_out) == answer("maid/red", "jester/red", json_out)
    hands = {tuple(x["hand"]) for o in json.loads(answer(*picks, True))["rulesets"]["reference"]["outcomes"]
             for x in o["results"]}
    assert all(h[-2:] == ("?", "?") for h in hands)
    for o in json.loads(answer(*picks, True))["rulesets"]["reference"]["outcomes"]:
        assert sum(Fraction(x["probability"]) for x in o["results"]) == 1


@pytest.mark.parametrize(("colour", "message"), [("yellow", "'yellow' is not seated"), ("pink", "unknown colour")])
def test_ask_bad_as_is_bad_input(tmp_path: Path, colour: str, message: str) -> None:
    path = scenario(tmp_path, WIZARD)
    r = invoke("ask", path, "--as", colour)
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output
    j = invoke("ask", path, "--as", colour, "--json")
    assert j.exit_code == 2
    assert message in json.loads(j.output.split("\npalast: error")[0])["error"]["message"]


def test_replay_as_prints_only_what_the_player_saw() -> None:
    """Blue's replay names blue's own actions only; other players' hidden draws show no card."""
    record = str(ROOT / "examples" / "records" / "seed7-reference.jsonl")
    r = invoke("replay", record, "--as", "blue", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["as"] == "blue" and doc["status"] == "confirmed"
    assert all(s["action"] is None for s in doc["steps"] if s["by"] != "blue")
    assert any(s["action"] for s in doc["steps"] if s["by"] == "blue")
    others = [e for s in doc["steps"] for e in s["events"]
              if e["kind"] in ("card_drawn", "card_discarded") and e.get("player") != "blue"]
    assert others and all("card" not in e and e["hidden"] == ["card"] for e in others)
    assert [z["cards"] for z in doc["view"]["zones"] if z["zone"] == "hand" and z["player"] != "blue"] == [None] * 3
    dealt = doc["steps"][0]  # blue sees its own dealt hand, and nobody else's
    assert dealt["by"] == "chance" and len(dealt["hand"]) == 6
    text = invoke("replay", record, "--as", "blue")
    assert f"blue's hand now: [{', '.join(dealt['hand'])}]" in text.output and "red's hand now" not in text.output
    assert text.exit_code == 0 and "as blue saw it" in text.output and "deal " not in text.output
    bad = invoke("replay", record, "--as", "pink")
    assert bad.exit_code == 2 and "unknown colour" in bad.output


ILLEGAL = """
players: [red, blue, green]
to_move: red
hands:
  red: [maid/red, jester/red]
  blue: [treasurer/blue, wizard/blue]
  green: [maid/green, guard/green]
actions: [play guard/red]
"""


def test_ask_as_hides_why_another_players_action_is_illegal(tmp_path: Path) -> None:
    """Red's illegal action stops the scenario under every ruleset: ``ask --as`` exits 1 as
    ``ask`` does; blue learns only that red's action was not legal, not its notation nor the
    reason (which would tell blue about red's hand); red is told why."""
    path = scenario(tmp_path, ILLEGAL)
    blue = invoke("ask", path, "--as", "blue", "--json")
    assert blue.exit_code == 1, blue.output
    doc = json.loads(blue.output)
    assert doc["not_legal"] is True
    for res in doc["rulesets"].values():
        assert res["stopped_at"]["action"] is None and "not legal" in res["stopped_at"]["reason"]
    assert "guard/red" not in blue.output and "not in the player's hand" not in blue.output
    red = invoke("ask", path, "--as", "red", "--json")
    assert red.exit_code == 1
    assert all(r["stopped_at"]["action"] == "play guard/red" for r in json.loads(red.output)["rulesets"].values())


SPENT = """
players: [red, blue, green]
to_move: red
banned: maid
king_spent: [{spent}]
hands:
  red: [marshal/red, wizard/red, jester/red]
  blue: [treasurer/blue, maid/blue, jester/blue, marshal/blue, guard/blue]
  green: [treasurer/green, wizard/green, jester/green, marshal/green]
displays:
  red: [treasurer/red, guard/red, maid/grey]
  blue: [wizard/blue]
  green: [maid/green, guard/green]
"""


@pytest.mark.parametrize(("ruleset", "same"), [("reference+king-pile=discarded", True), ("reference", False)])
def test_spent_king_cards_out_of_view_leave_every_king_card_possible(tmp_path: Path, ruleset: str,
                                                                    same: bool) -> None:
    """With the spent King cards out of view (king-pile=discarded) and not seen turned in
    the scenario, red cannot tell which two were spent: red's Marshal may turn any of the
    five not in force, 1/5 each, whichever were spent; stacked in view (the reference),
    red knows them, and the chances differ."""
    answers = []
    for spent in ("guard, cupbearer", "treasurer, wizard"):
        r = invoke("ask", scenario(tmp_path, SPENT.replace("{spent}", spent)), "--as", "red", "-r", ruleset, "--json")
        assert r.exit_code == 0, r.output
        res = json.loads(r.output)["rulesets"][ruleset]
        (marshal,) = [o for o in res["outcomes"] if o["action"] == "play marshal/red"]
        answers.append({x["events"][1]["text"]: x["probability"] for x in marshal["results"]})
    assert (answers[0] == answers[1]) == same
    if same:
        assert len(answers[0]) == 5 and set(answers[0].values()) == {"1/5"}


def test_ask_as_and_replay_as_say_a_position_alike() -> None:
    """One renderer serves ask --as and replay --as: the table's zones by their titles of
    spec/state.yaml with their cards counted in words, the others' hands by their size (ask
    --as said "draw-deck 15" and "3 in hand" while replay --as said "draw deck: 15 cards")."""
    root = Path(__file__).resolve().parent.parent
    asked = CliRunner().invoke(main, ["ask", str(root / "examples" / "banned-jester-only-card.yaml"), "--as", "red"])
    replayed = CliRunner().invoke(main, ["replay", "--as", "blue",
                                         str(root / "examples" / "records" / "hand-written-round.jsonl")])
    for res in (asked, replayed):
        assert res.exit_code == 0, res.output
        assert "  draw deck: 15 cards; discard pile: 2 cards; King deck: " in res.output, res.output
        assert " cards in hand  display [" in res.output, res.output
        assert "card(s)" not in res.output and "draw-deck" not in res.output and "None" not in res.output
