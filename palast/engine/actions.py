"""Actions: every decision is one action (DESIGN.md, "The state machine").

Actions are small frozen dataclasses. Chance outcomes (:class:`Deal`, :class:`Draw`,
:class:`Reveal`) are actions too, so a record can give every deal and draw explicitly.
Their notation is in :mod:`palast.formats.notation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` from the hand into the player's display (turn.play)."""

    card: int


@dataclass(frozen=True, slots=True)
class Partner:
    """Wizard: exchange with the player in seat ``seat`` (role.wizard)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Count:
    """Wizard: exchange ``n`` cards each way (role.wizard)."""

    n: int


@dataclass(frozen=True, slots=True)
class Give:
    """Wizard: the cards the deciding player hands over, sorted (role.wizard)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Discard:
    """Maid: discard ``card`` from the hand (role.maid)."""

    card: int


@dataclass(frozen=True, slots=True)
class Swap:
    """Cupbearer: swap ``card_a`` of seat ``seat_a`` with ``card_b`` of seat ``seat_b``.

    Always written with ``seat_a < seat_b`` (role.cupbearer).
    """

    seat_a: int
    card_a: int
    seat_b: int
    card_b: int


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Guard: take ``card`` from the display back into the hand (role.guard)."""

    card: int


@dataclass(frozen=True, slots=True)
class NextPlayer:
    """After a neutral card and a tie: seat ``seat`` takes the next turn (turn.next.neutral-tie)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the deal of a round (round.deal).

    :ivar hands: each seat's six cards, sorted.
    :ivar deck: the draw deck top first, or ``None`` when its order is left unknown (each
        draw is then a :class:`Draw` chance action).
    """

    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: ``card`` is drawn from a draw deck of unknown order (role.maid)."""

    card: int


@dataclass(frozen=True, slots=True)
class Reveal:
    """Chance: the King card revealed from a King deck of unknown order shows ``role`` (king.reveal)."""

    role: int


@dataclass(frozen=True, slots=True)
class Marks:
    """Chance: each seat's mark, a colour index in seat order (a rule module's character
    cards dealt at random; spec/modules/)."""

    colours: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    """Choose ``card`` among the options a rule module's rule offers, or none (``card == -1``)."""

    card: int


Action = Play | Partner | Count | Give | Discard | Swap | TakeBack | NextPlayer | Deal | Draw | Reveal | Marks | Choice


#: For each decision, the type of action that answers it.
ANSWERS: dict[str, type] = {
    "deal": Deal, "play": Play, "exchange-partner": Partner, "exchange-count": Count, "exchange-give": Give,
    "exchange-answer": Give, "discard": Discard, "draw": Draw, "swap": Swap, "take-back": TakeBack,
    "reveal": Reveal, "next-player": NextPlayer, "marks": Marks, "choice": Choice,
}


def action_value(action: object) -> object:
    """The value an action chooses: a card, a seat, a number, the cards given (sorted), a
    swap as ``(seat_a, seat_b, card_a, card_b)`` with the lower seat first, a King card's
    role; the marks dealt (colours in seat order); for a deal, the action itself.

    :raises TypeError: for an object that is no action.
    """
    if isinstance(action, Play | Discard | Draw | TakeBack | Choice):
        return action.card
    if isinstance(action, Partner | NextPlayer):
        return action.seat
    if isinstance(action, Count):
        return action.n
    if isinstance(action, Give):
        return tuple(sorted(action.cards))
    if isinstance(action, Swap):
        if action.seat_a > action.seat_b:
            return (action.seat_b, action.seat_a, action.card_b, action.card_a)
        return (action.seat_a, action.seat_b, action.card_a, action.card_b)
    if isinstance(action, Reveal):
        return action.role
    if isinstance(action, Marks):
        return action.colours
    if isinstance(action, Deal):
        return action
    raise TypeError(f"{action!r} is not an action")


def action_for(decision: str, value: object) -> Action:
    """The action of type :data:`ANSWERS` ``[decision]`` that chooses ``value`` (the inverse of
    :func:`action_value`).

    :raises KeyError: for a decision no action answers.
    """
    kind = ANSWERS[decision]
    if kind is Swap:
        a, b, x, y = cast("tuple[int, int, int, int]", value)
        return Swap(a, x, b, y)
    if kind is Give:
        return Give(tuple(value))  # type: ignore[arg-type]
    if kind is Marks:
        return Marks(tuple(value))  # type: ignore[arg-type]
    return kind(value)  # type: ignore[no-any-return]
