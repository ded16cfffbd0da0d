"""Where cards lie, as the statements of the rules see them: taking a card out of a zone,
putting one in, drawing from a deck whose order may be unknown, shuffling cards into a
deck. Every zone is declared in ``spec/state.yaml`` (:class:`palast.spec.state.ZoneDecl`): its
``order`` says how its cards lie and its ``fields`` where the position keeps them, and
nothing here names a zone.

A ``sorted`` zone stays in card order; a ``laid`` zone grows at its end; a ``one`` zone
holds a card or ``-1``; a ``deck`` is a known top part, a part of unknown order (its cards
any of its unseen cards) and, for a deck with a place under it, known cards under that.
"""

from __future__ import annotations

from typing import Any

from palast.engine.draft import Draft, insert_sorted, remove_one
from palast.spec.state import StateDecl, ZoneDecl


class Places:
    """The zones of a spec by the names statements give them (a deck's ``under`` place
    included), with the operations the generated code calls (``R.take``, ``R.put``, ...).

    :param decl: the spec's :class:`~palast.spec.state.StateDecl`.
    """

    def __init__(self, decl: StateDecl) -> None:
        #: name -> (the zone, True for the place under a deck)
        self.named: dict[str, tuple[ZoneDecl, bool]] = {z.name: (z, False) for z in decl.zones}
        self.named.update({z.under: (z, True) for z in decl.zones if z.under})
        #: name -> the fields of the deck it names (:meth:`ZoneDecl.deck_fields`), looked up once
        self.decks: dict[str, tuple[str, str, str, str | None]] = {
            name: z.deck_fields() for name, (z, _) in self.named.items() if z.order == "deck"}

    def zone(self, name: str) -> ZoneDecl:
        """The zone a statement names ``name``.

        :raises KeyError: for a name no zone has.
        """
        return self.named[name][0]

    def take(self, d: Draft, name: str, seat: int, c: int) -> None:
        """Take card (or King card) ``c`` out of the zone named ``name`` (of ``seat``, for a
        zone each player holds); from a deck, wherever it lies in it.

        :raises ValueError: when it is not there.
        """
        z, under = self.named[name]
        f = z.fields[0]
        if under:
            raise ValueError(f"cards are not taken out of {name}: take them out of {z.name}")
        if z.order == "one":
            if getattr(d, f) != c:
                raise ValueError(f"no card {c} in {name}")
            setattr(d, f, -1)
        elif z.order == "deck":
            top, _, _, bottom = z.deck_fields()
            if c in getattr(d, top):
                setattr(d, top, remove_one(getattr(d, top), c))
            elif bottom is not None and c in getattr(d, bottom):
                setattr(d, bottom, remove_one(getattr(d, bottom), c))
            elif not self.take_unknown(d, name, c):
                raise ValueError(f"no card {c} in {name}")
        elif z.per_player:
            cards = getattr(d, f)
            cards[seat] = remove_one(cards[seat], c)
        else:
            setattr(d, f, remove_one(getattr(d, f), c))

    def put(self, d: Draft, name: str, seat: int, c: int) -> None:
        """Put card (or King card) ``c`` into the zone named ``name``: a sorted zone stays
        sorted, a laid zone grows at its end, a card under a deck goes below every other.

        :raises ValueError: for a ``one`` zone that holds a card already, or the top of a deck.
        """
        z, under = self.named[name]
        f = z.fields[0]
        if z.order == "deck":
            top, hidden, _, bottom = z.deck_fields()
            if not under or bottom is None:
                raise ValueError(f"cards are not put onto {name}: shuffle them in")
            if getattr(d, hidden) == 0 and not getattr(d, bottom):
                setattr(d, top, getattr(d, top) + (c,))
            else:
                setattr(d, bottom, getattr(d, bottom) + (c,))
        elif z.order == "one":
            if getattr(d, f) >= 0:
                raise ValueError(f"{name} holds a card already")
            setattr(d, f, c)
        elif z.per_player:
            cards = getattr(d, f)
            cards[seat] = insert_sorted(cards[seat], c) if z.order == "sorted" else cards[seat] + (c,)
        else:
            setattr(d, f, insert_sorted(getattr(d, f), c) if z.order == "sorted" else getattr(d, f) + (c,))

    def empty_place(self, d: Draft, name: str) -> tuple[int, ...]:
        """Take every card out of a zone on the table (for a shuffle) and return them.

        :raises ValueError: for a zone each player holds.
        """
        z = self.named[name][0]
        f = z.fields[0]
        if z.per_player:
            raise ValueError(f"cards are not shuffled out of {name}")
        if z.order == "one":
            v = getattr(d, f)
            setattr(d, f, -1)
            return (v,) if v >= 0 else ()
        if z.order == "deck":
            top, hidden, unseen, bottom = z.deck_fields()
            out = getattr(d, top) + getattr(d, unseen) + (getattr(d, bottom) if bottom else ())
            setattr(d, top, ())
            setattr(d, unseen, ())
            setattr(d, hidden, 0)
            if bottom:
                setattr(d, bottom, ())
            return tuple(out)
        out = getattr(d, f)
        setattr(d, f, ())
        return tuple(out)

    def shuffle_into(self, d: Draft, name: str, cards: tuple[int, ...]) -> None:
        """Add ``cards`` face down to the deck named ``name``, whose whole order is then
        unknown (its known cards and the cards whose place is not fixed join them)."""
        top, hidden, unseen, bottom = self.decks[name]
        pool = getattr(d, unseen) + getattr(d, top) + (getattr(d, bottom) if bottom else ()) + cards
        setattr(d, unseen, tuple(sorted(pool)))
        setattr(d, top, ())
        if bottom:
            setattr(d, bottom, ())
        setattr(d, hidden, len(pool))

    def draw_known(self, d: Draft, name: str) -> int | None:
        """Take the top card of the deck named ``name`` when it is known (the known top, or a
        card under a hidden part that is gone); ``None`` otherwise."""
        top, hidden, _, bottom = self.decks[name]
        known = getattr(d, top)
        if known:
            setattr(d, top, known[1:])
            return int(known[0])
        if bottom is not None and getattr(d, hidden) == 0 and getattr(d, bottom):
            under = getattr(d, bottom)
            setattr(d, bottom, under[1:])
            return int(under[0])
        return None

    def hidden(self, d: Draft | Any, name: str) -> int:
        """How many cards of the deck named ``name`` lie face down in an unknown order."""
        _, hidden, _, _ = self.decks[name]
        return int(getattr(d, hidden))

    def unknown(self, d: Draft | Any, name: str) -> tuple[int, ...]:
        """The cards a draw from the unknown part of the deck named ``name`` may give."""
        _, _, unseen, _ = self.decks[name]
        return tuple(getattr(d, unseen))

    def take_unknown(self, d: Draft, name: str, c: int) -> bool:
        """Take ``c`` from the unknown part of the deck named ``name``; ``False`` when it
        cannot be there."""
        _, hidden, unseen, _ = self.decks[name]
        pool = getattr(d, unseen)
        if c not in pool or getattr(d, hidden) <= 0:
            return False
        setattr(d, unseen, remove_one(pool, c))
        setattr(d, hidden, getattr(d, hidden) - 1)
        return True
