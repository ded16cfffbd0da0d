"""Every example scenario gives the answer its comment states, per ruleset."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from palast.formats.notation import format_action, parse_action
from palast.formats.scenario import load_scenario
from palast.query.ask import ask
from palast.spec.load import Spec

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.yaml"))


def answer(spec: Spec, name: str) -> dict[str, Any]:
    return ask(spec, load_spec_scenario(spec, name))


def load_spec_scenario(spec: Spec, name: str) -> Any:
    return load_scenario(EXAMPLES / name, spec)


def outcome(res: dict[str, Any], action: str) -> dict[str, Any]:
    return next(o for o in res["outcomes"] if o["action"] == action)


def kinds(o: dict[str, Any]) -> list[str]:
    return [e["kind"] for e in o["events"]]


def legal_after(spec: Spec, name: str, ruleset: str, *actions: str) -> list[str]:
    """The legal actions, in notation, after the example's position and ``actions``."""
    sc = load_spec_scenario(spec, name)
    game = sc.game(spec, ruleset, check=True)
    state, _ = sc.position(game)
    for text in actions:
        state = game.apply(state, parse_action(game, text)).state
    return sorted(format_action(game, a) for a in game.legal_actions(state))


def test_there_are_at_least_eight_examples() -> None:
    assert len(list(EXAMPLES.glob("*.yaml"))) >= 8


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_every_example_loads_and_answers_for_every_ruleset(spec: Spec, path: Path) -> None:
    a = ask(spec, load_scenario(path, spec))
    assert set(a["rulesets"]) == {"source-a", "source-b", "reference"}
    for res in a["rulesets"].values():
        assert res["decision"]["kind"]
        assert len(res["legal_actions"]) == len(res["outcomes"]) or res["decision"]["kind"] in ("gap", "deal")


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_every_example_is_a_complete_position(spec: Spec, path: Path) -> None:
    """Every seated player holds hand + display = the hand size, before and after the
    example's actions, and the draw deck and King deck hold exactly the cards not placed."""
    sc = load_scenario(path, spec)
    for ruleset in sc.rulesets:
        game = sc.game(spec, ruleset, check=True)
        start = sc.start(game)
        assert start.deck_hidden == len(start.unseen), f"{path.name}: the draw deck is not every unplaced card"
        assert start.king_hidden == len(start.king_unseen), f"{path.name}: King cards are missing"
        for state in (start, sc.position(game)[0]):
            for seat in range(game.n):
                held = len(state.hands[seat]) + len(state.displays[seat])
                assert held == spec.hand_size, (
                    f"{path.name} ({ruleset}): {game.colour_name(seat)} holds {held} cards in hand and display")


#: The gaps an example is about, per ruleset; every other answer must be free of gaps.
GAPS_ASKED_ABOUT: dict[str, dict[str, set[str]]] = {
    "banned-jester-only-card.yaml": {"source-b": {"banned-jester-forced"}},
}


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_examples_reach_only_the_gaps_they_are_about(spec: Spec, path: Path) -> None:
    """No reference answer is a gap, and a source ruleset's only where the example asks about it
    (a complete position never reaches, say, a Wizard with nobody to exchange with)."""
    for ruleset, res in ask(spec, load_scenario(path, spec))["rulesets"].items():
        gaps = {o["gap"] for o in res["outcomes"] if o["gap"] is not None}
        if res["decision"]["kind"] == "gap":
            gaps.add(res["decision"]["gap"])
        assert gaps == GAPS_ASKED_ABOUT.get(path.name, {}).get(ruleset, set()), f"{path.name} ({ruleset})"


def test_banned_jester_only_card(spec: Spec) -> None:
    a = answer(spec, "banned-jester-only-card.yaml")["rulesets"]
    for r in ("source-a", "reference"):
        assert a[r]["decision"]["forced"] is True
        o = outcome(a[r], "play jester/grey")
        assert o["round_end"] == "whisper"
        assert o["scores"] == {"red": 0, "blue": 3, "green": 2}
        ended = next(e for e in o["events"] if e["kind"] == "round_ended")
        assert "A.king.jester" in ended["clauses"]
    assert a["source-b"]["decision"]["kind"] == "gap"
    assert a["source-b"]["decision"]["gap"] == "banned-jester-forced"
    assert a["source-b"]["legal_actions"] == []


def test_cupbearer_only_duplicate_swaps(spec: Spec) -> None:
    a = answer(spec, "cupbearer-only-duplicate-swaps.yaml")["rulesets"]
    for r in ("source-a", "reference"):
        o = outcome(a[r], "play cupbearer/red")
        assert "action_void" in kinds(o)
        assert o["next_to_move"] == "red" and o["next_decision"] == "play"
    o = outcome(a["source-b"], "play cupbearer/red")
    assert o["next_decision"] == "swap"


def test_cupbearer_third_turn(spec: Spec) -> None:
    a = answer(spec, "cupbearer-third-turn.yaml")["rulesets"]
    for r in ("source-a", "reference"):
        assert outcome(a[r], "play cupbearer/red")["next_decision"] == "swap"
        assert legal_after(spec, "cupbearer-third-turn.yaml", r, "play cupbearer/red") == [
            "swap blue:maid/green green:guard/red"]
    o = outcome(a["source-b"], "play cupbearer/red")
    assert "action_void" in kinds(o) and o["next_decision"] == "play"


def test_grey_three_way_tie(spec: Spec) -> None:
    for res in answer(spec, "grey-three-way-tie.yaml")["rulesets"].values():
        o = outcome(res, "play jester/grey")
        assert o["next_decision"] == "next-player" and o["next_to_move"] == "red"
    for r in ("source-a", "source-b", "reference"):
        assert legal_after(spec, "grey-three-way-tie.yaml", r, "play jester/grey") == [
            "next blue", "next green", "next yellow"]


def test_marshal_as_sixth_role(spec: Spec) -> None:
    a = answer(spec, "marshal-as-sixth-role.yaml")
    assert a["disagreements"] == []
    for res in a["rulesets"].values():
        o = outcome(res, "play marshal/red")
        assert o["round_end"] == "six"
        assert "king_revealed" not in kinds(o)
        assert o["scores"]["red"] == 2


def test_guard_alone(spec: Spec) -> None:
    for res in answer(spec, "guard-alone.yaml")["rulesets"].values():
        o = outcome(res, "play guard/red")
        assert "action_void" in kinds(o) and o["next_to_move"] == "red"


def test_wizard_hands_2_and_4(spec: Spec) -> None:
    a = answer(spec, "wizard-hands-2-and-4.yaml")["rulesets"]
    for r in ("source-a", "source-b", "reference"):
        assert a[r]["legal_actions"] == ["count 1", "count 2"]


def test_marshal_empty_king_deck(spec: Spec) -> None:
    a = answer(spec, "marshal-empty-king-deck.yaml")["rulesets"]
    for r in ("source-a", "reference"):
        assert len(a[r]["legal_actions"]) == 6 and "reveal jester" in a[r]["legal_actions"]
        assert all(o["probability"] == "1/6" for o in a[r]["outcomes"])
    assert len(a["source-b"]["legal_actions"]) == 5 and "reveal jester" not in a["source-b"]["legal_actions"]
    assert all(o["probability"] == "1/5" for o in a["source-b"]["outcomes"])


def test_sixth_card_played(spec: Spec) -> None:
    a = answer(spec, "sixth-card-played.yaml")["rulesets"]
    assert "hand_shown" in kinds(outcome(a["source-a"], "play treasurer/red"))
    assert "action_skipped" in kinds(outcome(a["source-b"], "play treasurer/red"))
    assert "hand_shown" in kinds(outcome(a["reference"], "play treasurer/red"))


def test_game_end_tie(spec: Spec) -> None:
    a = answer(spec, "game-end-tie.yaml")["rulesets"]
    assert outcome(a["source-a"], "play maid/green")["winners"] == ["blue"]
    assert outcome(a["source-b"], "play maid/green")["winners"] == ["red"]
    assert outcome(a["reference"], "play maid/green")["winners"] == ["red"]
    for res in a.values():
        assert outcome(res, "play maid/green")["scores"] == {"red": 6, "blue": 6, "green": 3}
