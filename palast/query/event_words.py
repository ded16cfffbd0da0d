"""A few words for each event kind, for one-line summaries read by people (``palast
rulings``, the witness lines of ``palast explain``), where the event kind itself
(``action_void``) is an internal name. A full sentence for one event is
:func:`palast.query.describe.describe_event`.
"""

from __future__ import annotations

#: Event kind -> a short phrase (``tests/test_internal_names.py`` checks every kind has one).
EVENT_WORDS: dict[str, str] = {
    "deck_built": "role deck built",
    "king_deck_ready": "King deck ready",
    "scores_start": "scores start at 0",
    "king_stays": "King card stays in force",
    "round_starter": "round starter named",
    "round_dealt": "round dealt",
    "card_played": "card played",
    "hand_shown": "hand shown",
    "exchange_partner": "exchange partner named",
    "exchange_count": "exchange count named",
    "cards_given": "cards picked to hand over",
    "cards_exchanged": "cards exchanged",
    "card_discarded": "card discarded",
    "card_drawn": "card drawn",
    "no_card_drawn": "nothing drawn (empty draw deck)",
    "cards_swapped": "displayed cards swapped",
    "card_taken_back": "card taken back",
    "king_revealed": "King card revealed",
    "king_deck_reshuffled": "King deck reshuffled",
    "action_muted": "action not carried out (banned role)",
    "action_skipped": "action not carried out (sixth card played)",
    "action_void": "the action does nothing",
    "action_none": "no action (Jester)",
    "action_not_carried_out": "action not carried out (the card ends the round)",
    "round_ended": "round ends",
    "points_scored": "points scored",
    "next_player": "next player named",
    "target_reached": "target reached",
    "game_ended": "game ends",
    "rule_gap": "play stops at an open variation point",
    "marks_dealt": "character cards dealt",
    "card_destroyed": "displayed card destroyed",
    "card_searched": "draw deck searched",
}


def event_words(kind: str) -> str:
    """The phrase for event ``kind`` (the kind itself for one this table does not know)."""
    return EVENT_WORDS.get(kind, kind)
