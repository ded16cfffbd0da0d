"""What ``palast ask`` reports as a disagreement between rulesets, and what not: outcomes
are compared by what they come to (an event detail, a different position, a difference in
effects alone, different choices next are disagreements; clause ids alone, the same winner
by different tie-breaks, different reasons for no effect are not), and a group of rulesets
reached for different reasons names each reason."""

from __future__ import annotations

import copy

from palast.formats.scenario import load_scenario, parse_scenario
from palast.query.ask import ask, disagreements
from palast.spec.load import Spec
from tests.ask_scenarios import EXAMPLES

# ---------------------------------------------------------------- outcomes compared by what they come to
RESHUFFLE = """\
players: [red, blue, green]
banned: jester
king_deck: 0
to_move: red
hands:
  red: [marshal/red, jester/red]
deck: 17
"""


def test_an_outcome_differing_only_in_an_event_detail_is_a_disagreement(spec: Spec) -> None:
    """Under every ruleset the Marshal reshuffles the empty King deck (same event kinds, same
    next decision), but source-b's deck holds one King card fewer and keeps the Jester
    banned (king-reshuffle-scope): ask must not say the rulesets agree."""
    a = ask(spec, parse_scenario(RESHUFFLE, spec, "reshuffle.yaml"))
    [d] = [d for d in a["disagreements"] if d["what"] == "outcome"]
    assert d["action"] == "play marshal/red"
    assert sorted(map(sorted, d["groups"])) == [["reference", "source-a"], ["source-b"]]
    assert "king-reshuffle-scope" in d["variation_points"]
    assert "King deck 5" in d["rulesets"]["source-b"] and "King deck 6" in d["rulesets"]["source-a"]


def test_actions_leading_to_different_positions_are_a_disagreement(spec: Spec) -> None:
    """The same scenario with the Marshal applied: the positions answered differ, which is
    said once (``position``), not again for every King card that may come up next."""
    a = ask(spec, parse_scenario(RESHUFFLE + "actions: [play marshal/red]\n", spec, "reshuffle.yaml"))
    whats = [d["what"] for d in a["disagreements"]]
    assert whats.count("position") == 1 and "outcome" not in whats
    [d] = [d for d in a["disagreements"] if d["what"] == "position"]
    assert "banned role: jester" in d["rulesets"]["source-b"] and "banned role: none" in d["rulesets"]["reference"]


def test_clause_ids_alone_do_not_make_a_disagreement(spec: Spec) -> None:
    """Each ruleset cites its own sources: answers that differ only in the clause ids of
    their events agree (the clauses of source-b's events are replaced here)."""
    a = ask(spec, load_scenario(EXAMPLES / "guard-alone.yaml", spec))
    assert a["disagreements"] == []
    results = copy.deepcopy(a["rulesets"])
    for o in results["source-b"]["outcomes"]:
        for e in o["events"]:
            e["clauses"] = ["B.only"]
    assert disagreements(results) == []
    results["source-b"]["outcomes"][0]["events"][0]["kind"] = "card_drawn"  # another effect
    assert [d["what"] for d in disagreements(results)] == ["outcome"]


# ---------------------------------------------------------------- what is not a disagreement
SAME_WINNER = """\
players: [red, blue, green]
round: 9
to_move: green
scores: {red: 5, blue: 5, green: 3}
played: {red: 5, blue: 3, green: 2}
hands: {red: [treasurer/red, marshal/red], blue: [treasurer/green, guard/blue, marshal/blue],
        green: [maid/green, wizard/green, cupbearer/red, jester/grey]}
displays: {red: [jester/blue, guard/grey, treasurer/grey, wizard/red], blue: [wizard/blue, cupbearer/green, guard/red],
           green: [maid/blue, wizard/grey]}
discard: [marshal/green]
deck: 15
"""

SIXTH_BANNED = """\
players: [red, blue, green]
to_move: red
banned: treasurer
king_deck: 5
played: {red: 5, blue: 0, green: 0}
hands: {red: [treasurer/red, marshal/grey],
        blue: [treasurer/blue, wizard/blue, maid/blue, guard/blue, jester/blue, cupbearer/grey],
        green: [treasurer/green, wizard/green, maid/green, cupbearer/green, guard/green, jester/grey]}
displays: {red: [guard/red, jester/red, wizard/red, maid/red]}
discard: [cupbearer/blue]
deck: 16
"""


def test_the_same_winner_by_different_tie_breaks_is_no_disagreement(spec: Spec) -> None:
    """Red leads blue both on cards displayed (A's tie-break) and on cards played (B's):
    the rulesets name different tie-breaks but the same winner, before and after the
    whisper is applied."""
    for text in (SAME_WINNER, SAME_WINNER + "actions: [play wizard/green]\n"):
        a = ask(spec, parse_scenario(text, spec, "tie.yaml"))
        # (green's Cupbearer is another matter: the rulesets allow different swaps)
        about_the_win = [d for d in a["disagreements"]
                         if d.get("action") == "play wizard/green" or (d["what"] in ("position", "history", "outcome")
                         and "play cupbearer/red" not in d["text"])]
        assert about_the_win == [], about_the_win
    a = ask(spec, parse_scenario(SAME_WINNER + "actions: [play wizard/green]\n", spec, "tie.yaml"))
    tiebreaks = {res["decision"]["tiebreak"] for res in a["rulesets"].values()}
    assert len(tiebreaks) > 1 and {tuple(res["decision"]["winners"]) for res in a["rulesets"].values()} == {("red",)}


def test_different_reasons_for_no_effect_are_no_disagreement(spec: Spec) -> None:
    """A banned Treasurer as the sixth card played: muted under source-a and the reference,
    skipped as the sixth card under source-b; nothing happens either way."""
    a = ask(spec, parse_scenario(SIXTH_BANNED, spec, "sixth.yaml"))
    kinds = {r: {e["kind"] for o in res["outcomes"] if o["action"] == "play treasurer/red" for e in o["events"]}
             for r, res in a["rulesets"].items()}
    assert "action_muted" in kinds["source-a"] and "action_skipped" in kinds["source-b"]
    assert not [d for d in a["disagreements"] if d.get("action") == "play treasurer/red"]
    # the Marshal as the sixth card is another matter: it reveals a King card or not
    assert [d["what"] for d in a["disagreements"] if d.get("action") == "play marshal/grey"] == ["outcome"]


def test_a_difference_in_effects_alone_is_a_history_disagreement(spec: Spec) -> None:
    """An unbanned Treasurer as the sixth card: source-a and the reference show red's hand,
    source-b skips the action; the position and the next decision are the same."""
    text = SIXTH_BANNED.replace("banned: treasurer", "banned: guard") + "actions: [play treasurer/red]\n"
    a = ask(spec, parse_scenario(text, spec, "sixth.yaml"))
    [d] = [d for d in a["disagreements"] if d["what"] == "history"]
    assert sorted(map(sorted, d["groups"])) == [["reference", "source-a"], ["source-b"]]
    assert "sixth-card-action" in d["variation_points"]
    assert not [d for d in a["disagreements"] if d["what"] in ("position", "decision")]


CUPBEARER_SCOPE = """\
players: [red, blue, green]
to_move: red
hands: {red: [cupbearer/red, treasurer/grey, maid/red, wizard/red, guard/blue],
        blue: [treasurer/blue, wizard/blue, jester/blue, marshal/blue, guard/grey],
        green: [treasurer/green, wizard/green, cupbearer/green, jester/green, marshal/green]}
displays: {red: [jester/red], blue: [maid/green], green: [guard/red]}
deck: 16
"""


def test_different_choices_next_are_a_disagreement(spec: Spec) -> None:
    """Red's Cupbearer leads to a swap decision under every ruleset, but only source-a and
    the reference allow swapping two opponents' cards (cupbearer-scope)."""
    a = ask(spec, parse_scenario(CUPBEARER_SCOPE, spec, "cup.yaml"))
    [d] = [d for d in a["disagreements"] if d.get("action") == "play cupbearer/red"]
    assert sorted(map(sorted, d["groups"])) == [["reference", "source-a"], ["source-b"]]
    assert "may then choose swap blue:maid/green green:guard/red" in d["rulesets"]["source-a"]
    assert "cupbearer-scope" in d["variation_points"]


def test_a_group_reached_for_different_reasons_names_each_reason() -> None:
    from palast.query.ask_compare import _said

    words = {"source-a": "shown", "source-b": "skipped (sixth card)", "reference": "void (no partner)"}
    text = _said([["source-a"], ["source-b", "reference"]], words)
    assert text == "source-a: shown | source-b: skipped (sixth card); reference: void (no partner)"
    assert _said([["source-a", "reference"]], {"source-a": "x", "reference": "x"}) == "source-a and reference: x"
