"""Where cards lie, as the statements of the rules see them: taking a card out of a
place, putting one in, drawing from a deck whose order may be unknown, shuffling cards into
a deck (:mod:`palast.lang.statements` names the places: ``hand(P)``, ``display(P)``,
``discard_pile``, ``under_draw_deck``, ``in_force``, ``spent_kings``, and the decks
``draw_deck`` and ``king_deck``).

A hand stays sorted; a display and a pile grow at their end; the draw deck is a known top
part, a part of unknown order (its cards any of ``unseen``) and known cards under it; the
King deck is a known top part and a part of unknown order.
"""

from __future__ import annotations

from typing import Any

from palast.engine.draft import Draft, insert_sorted, remove_one


def take(d: Draft, zone: str, seat: int, c: int) -> None:
    """Take card (or King card) ``c`` out of a place of ``d``.

    :raises ValueError: when it is not there.
    """
    if zone == "hand":
        d.hands[seat] = remove_one(d.hands[seat], c)
    elif zone == "display":
        d.displays[seat] = remove_one(d.displays[seat], c)
    elif zone == "discard_pile":
        d.discard = remove_one(d.discard, c)
    elif zone == "in_force":
        if d.king_in_force != c:
            raise ValueError(f"no King card {c} in force")
        d.king_in_force = -1
    elif zone == "spent_kings":
        d.king_spent = remove_one(d.king_spent, c)
    elif zone == "draw_deck":  # a named card searched out of the deck, wherever it lies in it
        if c in d.deck:
            d.deck = remove_one(d.deck, c)
        elif c in d.deck_bottom:
            d.deck_bottom = remove_one(d.deck_bottom, c)
        elif not take_unknown(d, zone, c):
            raise ValueError(f"no card {c} in the draw deck")
    else:
        raise ValueError(f"cards are not taken out of {zone} this way")


def put(d: Draft, zone: str, seat: int, c: int) -> None:
    """Put card (or King card) ``c`` into a place of ``d``: a hand stays sorted, a display and
    a pile grow at their end, a card under the draw deck goes below every other."""
    if zone == "hand":
        d.hands[seat] = insert_sorted(d.hands[seat], c)
    elif zone == "display":
        d.displays[seat] = d.displays[seat] + (c,)
    elif zone == "discard_pile":
        d.discard = d.discard + (c,)
    elif zone == "under_draw_deck":
        if d.deck_hidden == 0 and not d.deck_bottom:
            d.deck = d.deck + (c,)
        else:
            d.deck_bottom = d.deck_bottom + (c,)
    elif zone == "in_force":
        if d.king_in_force >= 0:
            raise ValueError("a King card is already in force")
        d.king_in_force = c
    elif zone == "spent_kings":
        d.king_spent = d.king_spent + (c,)
    else:
        raise ValueError(f"cards are not put into {zone} this way")


def empty_place(d: Draft, zone: str) -> tuple[int, ...]:
    """Take every card out of a place (for a shuffle) and return them."""
    if zone == "spent_kings":
        out, d.king_spent = d.king_spent, ()
        return out
    if zone == "in_force":
        if d.king_in_force < 0:
            return ()
        out = (d.king_in_force,)
        d.king_in_force = -1
        return out
    if zone == "king_deck":
        out = d.king_deck + d.king_unseen
        d.king_deck, d.king_unseen, d.king_hidden = (), (), 0
        return out
    raise ValueError(f"cards are not shuffled out of {zone}")


def shuffle_into(d: Draft, deck: str, cards: tuple[int, ...]) -> None:
    """Add ``cards`` face down to ``deck``, whose whole order is then unknown (its known
    top and the cards whose place is not fixed join them)."""
    if deck == "king_deck":
        d.king_unseen = tuple(sorted(d.king_unseen + d.king_deck + cards))
        d.king_deck = ()
        d.king_hidden = len(d.king_unseen)
    else:
        d.unseen = tuple(sorted(d.unseen + d.deck + d.deck_bottom + cards))
        d.deck, d.deck_bottom = (), ()
        d.deck_hidden = len(d.unseen)


def draw_known(d: Draft, deck: str) -> int | None:
    """Take the top card of ``deck`` when it is known (the known top, or for the draw deck
    a card under a hidden part that is gone); ``None`` otherwise."""
    if deck == "draw_deck":
        if d.deck:
            top = d.deck[0]
            d.deck = d.deck[1:]
            return top
        if d.deck_hidden == 0 and d.deck_bottom:
            top = d.deck_bottom[0]
            d.deck_bottom = d.deck_bottom[1:]
            return top
        return None
    if d.king_deck:
        top = d.king_deck[0]
        d.king_deck = d.king_deck[1:]
        return top
    return None


def hidden(d: Draft | Any, deck: str) -> int:
    """How many cards of ``deck`` lie face down in an unknown order."""
    return int(d.deck_hidden if deck == "draw_deck" else d.king_hidden)


def unknown(d: Draft | Any, deck: str) -> tuple[int, ...]:
    """The cards a draw from the unknown part of ``deck`` may give."""
    return tuple(d.unseen if deck == "draw_deck" else d.king_unseen)


def take_unknown(d: Draft, deck: str, c: int) -> bool:
    """Take ``c`` from the unknown part of ``deck``; ``False`` when it cannot be there."""
    if deck == "draw_deck":
        if c not in d.unseen or d.deck_hidden <= 0:
            return False
        d.unseen = remove_one(d.unseen, c)
        d.deck_hidden -= 1
        return True
    if c not in d.king_unseen or d.king_hidden <= 0:
        return False
    d.king_unseen = remove_one(d.king_unseen, c)
    d.king_hidden -= 1
    return True
