"""Rulings seen from a player's side: the ``views`` field of a ruling's expectation.

A ruling may state, per seated colour, what that player learns from the outcome's events
and what stays hidden from them (:func:`palast.engine.views.observation` applied to the
ruling's position)::

    views:
      blue:
        shown: [maid/grey, jester/red]   # cards shown to blue by the outcome's events (multiset)
        hidden: [cards_given]            # the outcome's events with a field hidden from blue
        decision_hidden: [given]         # fields of the pending decision hidden from blue
        open_hands: {red: [guard/red]}   # other hands open to blue now
        hidden_zones: [draw-deck, ...]   # the zones on the table whose cards blue cannot see

Each listed key is compared; a key left out is not checked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from palast.engine.events import Event
from palast.engine.game import Game
from palast.engine.state import State
from palast.errors import NotationError

#: The keys a player's view in a ruling may state.
VIEW_KEYS: tuple[str, ...] = ("shown", "hidden", "decision_hidden", "open_hands", "hidden_zones")


def view_values(game: Game, state: State, history: Sequence[Event], first: int) -> dict[str, dict[str, Any]]:
    """Every seated player's view of ``state`` after ``history``, as a ruling states it.

    :param first: the index in ``history`` of the outcome's first event (earlier events are
        the scenario's: they count for what a player knows, not for ``shown``/``hidden``).
    :returns: colour -> the keys of :data:`VIEW_KEYS`, cards in notation.
    """
    fc = game.cards.format_card
    out: dict[str, dict[str, Any]] = {}
    for seat in range(game.n):
        obs = game.observation(state, seat, history)
        out[game.colour_name(seat)] = {
            "shown": [fc(c) for s in obs.shown if s.index >= first for c in s.cards],
            "hidden": [s.event.kind for s in obs.history if s.index >= first and s.hidden],
            "decision_hidden": list(obs.decision.hidden),
            "open_hands": {game.colour_name(s): [fc(c) for c in cards] for s, cards in obs.open_hands},
            "hidden_zones": [z.zone for z in obs.zones if z.seat < 0 and z.cards is None],
        }
    return out


def views_agree(want: Mapping[str, Mapping[str, Any]], have: Mapping[str, Mapping[str, Any]]) -> bool:
    """True if every stated key of every stated player's view matches (cards and event
    kinds as multisets, open hands per colour)."""
    for who, keys in want.items():
        got = have.get(who, {})
        for key, value in keys.items():
            if key == "open_hands":
                theirs = got.get(key, {})
                if set(value) != set(theirs) or any(Counter(value[c]) != Counter(theirs[c]) for c in value):
                    return False
            elif Counter(value) != Counter(got.get(key, [])):
                return False
    return True


def view_problems(game: Game, views: Mapping[str, Any], base: list[str | int],
                  err: Callable[[list[str | int], str], None]) -> None:
    """Report a colour that is not seated or a card that cannot be read in a ``views``
    expectation through ``err(path, message)``."""
    colours = {game.colour_name(s) for s in range(game.n)}
    for who, keys in views.items():
        if who not in colours:
            err([*base, who], f"{who!r} is not a seated player")
        cards: list[tuple[list[str | int], Any]] = [([*base, who, "shown", i], c)
                                                    for i, c in enumerate(keys.get("shown", []))]
        for owner, hand in keys.get("open_hands", {}).items():
            if owner not in colours:
                err([*base, who, "open_hands", owner], f"{owner!r} is not a seated player")
            cards.extend(([*base, who, "open_hands", owner, i], c) for i, c in enumerate(hand))
        for path, text in cards:
            try:
                game.cards.parse_card(text)
            except NotationError as exc:
                err(path, exc.message)
