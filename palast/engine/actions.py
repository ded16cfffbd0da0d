"""Actions: every decision is one action (DESIGN.md, "The state machine").

Actions are small frozen dataclasses. Chance outcomes (:class:`Deal`, :class:`Draw`,
:class:`Reveal`) are actions too, so a record can give every deal and draw explicitly.
Their notation is in :mod:`palast.notation`.
"""

from __future__ import annotations

from dataclasses import dataclass


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


Action = Play | Partner | Count | Give | Discard | Swap | TakeBack | NextPlayer | Deal | Draw | Reveal
