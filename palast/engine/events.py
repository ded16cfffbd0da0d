"""Events: what an action caused, each carrying the rule and clause ids it rests on."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    :ivar kind: ``deck_built``, ``round_dealt``, ``king_deck_ready``, ``scores_start``, ``king_stays``,
        ``round_starter``, ``card_played``, ``hand_shown``, ``exchange_partner``,
        ``exchange_count``, ``cards_given``, ``cards_exchanged``, ``card_discarded``,
        ``card_drawn``, ``no_card_drawn``, ``cards_swapped``, ``card_taken_back``,
        ``king_revealed``, ``king_deck_reshuffled``, ``action_muted``, ``action_skipped``,
        ``action_void``, ``action_none``, ``action_not_carried_out``, ``round_ended``,
        ``points_scored``, ``next_player``, ``target_reached``, ``game_ended``, ``rule_gap``,
        ``marks_dealt``, ``card_destroyed``, ``card_searched``
        (each declared in spec/visibility.yaml, ``effects``: who sees its fields).
    :ivar rule: the id of the rule in ``spec/`` that makes it happen.
    :ivar clauses: the clause ids that rule rests on.
    :ivar player: the seat it concerns, or -1.
    :ivar other: a second seat (exchange partner, swap partner), or -1.
    :ivar card: a card, or -1.
    :ivar role: a role index (King card, muted role), or -1.
    :ivar count: a number (cards exchanged, King cards reshuffled, round number, points
        each scorer scores), or -1.
    :ivar cards: cards (a shown hand, given cards, swapped cards).
    :ivar seats: seats (scorers, winners, swap seats).
    :ivar detail: a word of detail: the round-end kind, the tie-break used, a gap's point.
    :ivar points: variation points whose reading decided this event.
    """

    kind: str
    rule: str
    clauses: tuple[str, ...]
    player: int = -1
    other: int = -1
    card: int = -1
    role: int = -1
    count: int = -1
    cards: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()
    detail: str = ""
    points: tuple[str, ...] = ()

