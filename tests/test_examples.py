"""Every example scenario gives the answer its comment states, per ruleset."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from palast.ask import ask
from palast.scenario import load_scenario
from palast.spec import Spec

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def answer(spec: Spec, name: str) -> dict[str, Any]:
    return ask(spec, load_spec_scenario(spec, name))


def load_spec_scenario(spec: Spec, name: str) -> Any:
    return load_scenario(EXAMPLES / name, spec)


def outcome(res: dict[str, Any], action: str) -> dict[str, Any]:
    return next(o for o in res["outcomes"] if o["action"] == action)


def kinds(o: dict[str, Any]) -> list[str]:
    return [e["kind"] for e in o["events"]]


def test_there_are_at_least_eight_examples() -> None:
    assert len(list(EXAMPLES.glob("*.yaml"))) >= 8


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_example_loads_and_answers_for_every_ruleset(spec: Spec, path: Path) -> None:
    a = ask(spec, load_scenario(path, spec))
    assert set(a["rulesets"]) == {"source-a", "source-b", "reference"}
    for res in a["rulesets"].values():
        assert res["decision"]["kind"]
        assert len(res["legal_actions"]) == len(res["outcomes"]) or res["decision"]["kind"] in ("gap", "deal")


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
    o = outcome(a["source-b"], "play cupbearer/red")
    assert "action_void" in kinds(o) and o["next_decision"] == "play"


def test_grey_three_way_tie(spec: Spec) -> None:
    for res in answer(spec, "grey-three-way-tie.yaml")["rulesets"].values():
        o = outcome(res, "play jester/grey")
        assert o["next_decision"] == "next-player" and o["next_to_move"] == "red"


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
