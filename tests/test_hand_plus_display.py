"""hand-plus-display, declared as a step expression (spec/invariants.yaml): what the engine's
check mode does with a Maid on an empty draw deck under each place her discard may go, and
what a failure says (the player, the sum before and after, the named parts)."""

from __future__ import annotations

from dataclasses import replace

from palast.engine import State
from palast.formats.house import resolve
from palast.invariants.declared import failure
from palast.spec.load import Spec
from tests.positions import cards, play, position, seat

#: Red's Maid on an empty draw deck (the position of the ruling maid-empty-draw-deck).
EMPTY_DECK = """
    players: [red, blue, green]
    to_move: red
    deck: 0
    hands:
      red: [maid/red, jester/grey, wizard/red]
      blue: [treasurer/blue, wizard/blue, jester/blue, marshal/blue]
      green: [treasurer/green, maid/green, jester/green]
    displays:
      red: [treasurer/red, guard/red, cupbearer/grey]
      blue: [maid/blue, guard/blue]
      green: [wizard/green, guard/green, cupbearer/green]
"""
DISCARD_ONLY = "reference+maid-empty-deck=discard-only"


def _held(state: State, p: int) -> int:
    return len(state.hands[p]) + len(state.displays[p])


def test_a_maid_who_draws_nothing_lowers_the_sum_by_one(spec: Spec) -> None:
    """Discard-only, to the discard pile: red's sum falls from six to five and check mode
    accepts it; one card more gone from red's hand is reported, naming red and the sums."""
    game, start = position(resolve(spec, DISCARD_ONLY), DISCARD_ONLY, EMPTY_DECK)
    red = seat(game, "red")
    before = play(game, start, "play maid/red").state
    after = play(game, before, "discard jester/grey").state  # check mode: no InvariantViolation
    assert (_held(before, red), _held(after, red)) == (6, 5)
    assert failure(game, "hand-plus-display", after, before) is None
    wizard = cards(game, ["wizard/red"])[0]
    worse = replace(after, hands=tuple(() if p == red else h for p, h in enumerate(after.hands)),
                    discard=after.discard + (wizard,))
    why = failure(game, "hand-plus-display", worse, before)
    assert why is not None and why.startswith("for p = red: hand_and_display == old(hand_and_display)"), why
    assert "hand_and_display is 4" in why and "old(hand_and_display) is 6" in why, why
    assert "drew_nothing is true" in why, why


def test_a_discard_under_an_empty_deck_is_drawn_back(spec: Spec) -> None:
    """Discard-only, under the deck: the discarded card is the only one to draw, so red
    draws it back and the sum stays six; check mode accepts it."""
    ruleset = DISCARD_ONLY + "+maid-discard-destination=under-deck"
    game, start = position(resolve(spec, ruleset), ruleset, EMPTY_DECK)
    red = seat(game, "red")
    before = play(game, start, "play maid/red").state
    after = play(game, before, "discard jester/grey").state
    assert _held(after, red) == 6 and cards(game, ["jester/grey"])[0] in after.hands[red]
    assert failure(game, "hand-plus-display", after, before) is None
    # had red not drawn it back, the sum would fall with no card gone to the discard pile
    lost = replace(after, hands=tuple(tuple(c for c in h if c != cards(game, ["jester/grey"])[0]) if p == red else h
                                      for p, h in enumerate(after.hands)))
    why = failure(game, "hand-plus-display", lost, before)
    assert why is not None and "hand_and_display is 5" in why and "drew_nothing is false" in why, why

