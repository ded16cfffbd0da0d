"""Audiences of ``spec/visibility.yaml`` are rule-language conditions (issue 15, point 1):
the views evaluate the declared expression, so changing it changes what a player sees, and
``spec check`` refuses an audience that is not a condition on the seats."""

from __future__ import annotations

from pathlib import Path

import pytest

from palast.engine import Game
from palast.errors import SpecError
from palast.spec.load import load_spec
from palast.spec.visibility import SEATS, audience_problem, narrowed, sees
from tests.spec_copy import edited_spec
from tests.test_views import random_line

ROOT = Path(__file__).resolve().parent.parent


def spec_with(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of spec/ whose visibility.yaml has ``old`` replaced by ``new`` (once)."""
    return edited_spec(tmp_path, "visibility.yaml", old, new)


@pytest.mark.parametrize(("audience", "place", "want"), [
    (True, "table-zone", {0, 1, 2, 3, 4}),
    (False, "table-zone", set()),
    ("viewer == holder", "held-zone", {2}),
    ("viewer != holder", "held-zone", {0, 1, 3, 4}),
    ("viewer == player or viewer == other", "effect", {2, 4}),
    ("viewer in [player, other]", "effect", {2, 4}),
    ("viewer == partner", "decision", {4}),
])
def test_an_audience_is_evaluated_as_written(audience: str | bool, place: str, want: set[int]) -> None:
    seats = dict(zip(SEATS[place], (2, 4), strict=False))
    if place == "decision":
        seats = {"player": 2, "partner": 4}
    assert {v for v in range(5) if sees(audience, place, v, seats)} == want


def test_a_missing_seat_is_nobody() -> None:
    """An event without a second seat (other = -1): ``viewer == other`` holds for no player."""
    assert not any(sees("viewer == other", "effect", v, {"player": 1}) for v in range(5))


@pytest.mark.parametrize(("audience", "place", "said"), [
    ("viewer == holder", "table-zone", "unknown name 'holder'"),
    ("holder", "held-zone", "must be a condition on viewer, not seat"),
    ("count(hand(viewer)) > 0", "held-zone", "hand reads the game"),
    ("viewer in players", "effect", "players reads the game"),
    ("viewer ==", "effect", "not an expression"),
    ("viewer == partner", "effect", "unknown name 'partner'"),
])
def test_a_bad_audience_is_refused(audience: str, place: str, said: str) -> None:
    problem = audience_problem(audience, place)
    assert problem is not None and said in problem


def test_narrowing_is_found_over_the_seats() -> None:
    """A reading may only widen: ``narrowed`` finds a seating where the base shows and the
    reading does not, and none where the reading contains the base."""
    assert narrowed("viewer == player", "viewer == player or viewer == other", "effect") is not None
    assert narrowed(True, "viewer == player", "effect") is None
    assert narrowed("viewer in [player, other]", "viewer == player or viewer == other", "effect") is None
    assert narrowed("viewer == holder", True, "held-zone") is not None


def test_the_view_follows_the_declared_audience(tmp_path: Path) -> None:
    """Declaring every hand visible to everyone (``cards: true``) shows blue's hand to red:
    the view evaluates the declaration, not a copy of it in code."""
    spec = load_spec(spec_with(tmp_path, '    cards: "viewer == holder"\n', "    cards: true\n"))
    plain = load_spec(ROOT / "spec")
    for s, hands_open in ((spec, True), (plain, False)):
        game = Game(s, "reference", list(s.player_colours[:4]))
        state, events = random_line(game, 3, 12)
        obs = game.observation(state, 0, events)
        assert (obs.zone("hand", 1).cards == state.hands[1]) == hands_open
        assert obs.zone("hand", 0).cards == state.hands[0]
        assert obs.zone("hand", 1).count == len(state.hands[1])


def test_spec_check_refuses_a_narrowing_reading(tmp_path: Path) -> None:
    """A reading of king-pile that would hide the count every reading shows is refused."""
    with pytest.raises(SpecError, match=r"a reading may only widen what every reading shows: king-spent is seen "
                                        r"by true with viewer = seat 0, but not by false"):
        load_spec(spec_with(tmp_path, "      stacked: {cards: true}\n", "      stacked: {cards: true, count: false}\n"))


def test_what_a_player_remembers_follows_the_declared_effects(tmp_path: Path) -> None:
    """The Treasurer's showing is remembered because its effect says ``shows: hand``;
    without that line in visibility.yaml, red remembers nothing (the memory reads the
    declarations, not a table in code)."""
    from palast.formats.scenario import load_scenario
    from palast.query.ask_view import ask_as

    example = ROOT / "examples" / "treasurer-shown-then-maid-draw.yaml"
    for path, remembered in ((ROOT / "spec", True), (spec_with(tmp_path, "    shows: hand\n", ""), False)):
        spec = load_spec(path)
        answer = ask_as(spec, load_scenario(example, spec), "red", ["reference"])["rulesets"]["reference"]
        assert bool(answer["view"]["placed"]) == remembered


def test_a_knowledge_point_is_said_to_change_the_views() -> None:
    """``palast explain`` of a point whose readings change only what players know says the
    views apply it (not "not executed"), and a house reading of it is noted as changing the
    views, not as changing nothing."""
    from palast.formats.house import notes
    from palast.query.explain import explain_point, render_explanation
    from palast.spec.load import cached_spec

    spec = cached_spec()
    for point in spec.visibility.points():
        text = render_explanation(explain_point(spec, point))
        assert "not executed by the engine" not in text and "the players' views apply" in text
    (note,) = notes(spec, "reference", {"treasurer-reveal": "open-for-round"})
    assert "only the players' views" in note


def test_a_hand_hidden_from_its_holder_is_refused(tmp_path: Path) -> None:
    """A zone one player holds must be seen by that player: ``viewer != holder`` for the
    hand is a declaration error, named at its key."""
    with pytest.raises(SpecError, match=r"zones\[0\]\.cards\): the player who holds a hand must see its cards"):
        load_spec(spec_with(tmp_path, '    cards: "viewer == holder"\n', '    cards: "viewer != holder"\n'))
