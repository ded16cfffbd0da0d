"""A mutable working copy of a :class:`~palast.engine.state.State`, used inside one
``apply`` and frozen again at its end. Nothing outside the engine sees a draft."""

from __future__ import annotations

from bisect import bisect_left

from palast.engine.events import Event
from palast.engine.state import Decision, GameResult, RoundEnd, State


class Draft:
    """The fields of a :class:`State`, assignable (per-seat fields as lists), plus the events collected so far
    (``None`` when events are not recorded, as in :meth:`Game.playout`)."""

    __slots__ = (
        "actor",
        "decision",
        "deck",
        "deck_bottom",
        "deck_hidden",
        "discard",
        "displays",
        "events",
        "frames",
        "hands",
        "king_deck",
        "king_hidden",
        "king_in_force",
        "king_spent",
        "king_unseen",
        "last_card",
        "marks",
        "options",
        "played",
        "result",
        "round",
        "round_end",
        "scores",
        "tally",
        "unseen",
    )

    hands: list[tuple[int, ...]]
    displays: list[tuple[int, ...]]
    deck: tuple[int, ...]
    deck_hidden: int
    deck_bottom: tuple[int, ...]
    unseen: tuple[int, ...]
    discard: tuple[int, ...]
    king_deck: tuple[int, ...]
    king_hidden: int
    king_unseen: tuple[int, ...]
    king_in_force: int
    king_spent: tuple[int, ...]
    scores: list[int]
    played: list[int]
    tally: list[int]
    round: int
    actor: int
    last_card: int
    decision: Decision
    round_end: RoundEnd | None
    result: GameResult | None
    marks: tuple[int, ...]
    events: list[Event] | None
    #: where play goes on after the steps being applied (keys of the runner's continuations)
    frames: tuple[str, ...]
    #: the options of the decision just opened, when the rules had them at hand (a value
    #: they computed on this very position); ``None`` otherwise. Only
    #: :meth:`~palast.engine.game.Game.playout` reads it (and clears it): the options
    #: function of the decision computes the same.
    options: tuple[object, ...] | None

    def __init__(self, s: State, record: bool = True) -> None:
        self.hands = list(s.hands)
        self.displays = list(s.displays)
        self.deck = s.deck
        self.deck_hidden = s.deck_hidden
        self.deck_bottom = s.deck_bottom
        self.unseen = s.unseen
        self.discard = s.discard
        self.king_deck = s.king_deck
        self.king_hidden = s.king_hidden
        self.king_unseen = s.king_unseen
        self.king_in_force = s.king_in_force
        self.king_spent = s.king_spent
        self.scores = list(s.scores)
        self.played = list(s.played)
        self.tally = list(s.tally)
        self.round = s.round
        self.actor = s.actor
        self.last_card = s.last_card
        self.decision = s.decision
        self.round_end = s.round_end
        self.result = s.result
        self.marks = s.marks
        self.events = [] if record else None
        self.frames = ()
        self.options = None

    def freeze(self) -> State:
        """Return the :class:`State` this draft now describes."""
        return State(
            tuple(self.hands), tuple(self.displays), self.deck, self.deck_hidden, self.deck_bottom, self.unseen,
            self.discard, self.king_deck, self.king_hidden, self.king_unseen, self.king_in_force,
            self.king_spent, tuple(self.scores), tuple(self.played), tuple(self.tally), self.round, self.actor,
            self.last_card, self.decision, self.round_end, self.result, self.marks,
        )


def remove_one(items: tuple[int, ...], x: int) -> tuple[int, ...]:
    """``items`` without its first ``x``. :raises ValueError: if ``x`` is not in it."""
    i = items.index(x)
    return items[:i] + items[i + 1:]


def insert_sorted(items: tuple[int, ...], x: int) -> tuple[int, ...]:
    """``items`` (sorted) with ``x`` added in order (before any equal ones)."""
    i = bisect_left(items, x)
    return items[:i] + (x,) + items[i:]


def distinct(items: tuple[int, ...]) -> list[int]:
    """The different values of ``items``, in first-seen order (sorted input stays sorted)."""
    return list(dict.fromkeys(items))
