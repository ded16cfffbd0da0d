"""What a new game and every deal set in a position, as ``spec/state.yaml`` declares it: each
zone's, counter's and machinery part's ``start`` and ``deal`` (round.deal, setup.*).
Nothing here names a zone or a counter.
"""

from __future__ import annotations

from typing import Any

from palast.spec.state import StateDecl, ZoneDecl

#: A counter's value for ``start`` or ``deal``: ``none`` is -1, or no value at all for a
#: counter of colours (no mark dealt).
COUNTER_VALUES: dict[str, int] = {"zero": 0, "none": -1, "first player": 0}


def start_fields(decl: StateDecl, n: int, all_cards: tuple[int, ...], king_cards: tuple[int, ...]) -> dict[str, Any]:
    """The fields of the position before the first deal (every field but those of the
    machinery), for ``n`` players, a game of ``all_cards`` and ``king_cards`` (role indices).

    :returns: field name -> value, as :class:`~palast.engine.state.State` takes it.
    """
    out: dict[str, Any] = {}
    for z in decl.zones:
        if z.order == "deck":
            top, hidden, unseen, under = z.deck_fields()
            pool = all_cards if z.holds == "cards" else king_cards
            out[top] = ()
            out[hidden] = len(pool) if z.start == "full" else 0
            out[unseen] = tuple(pool) if z.start in ("full", "unplaced") else ()
            if under is not None:
                out[under] = ()
        elif z.order == "one":
            out[z.fields[0]] = -1
        else:
            out[z.fields[0]] = tuple(() for _ in range(n)) if z.per_player else ()
    for c in decl.counters:
        value: Any = () if c.kind == "colours" else COUNTER_VALUES[c.start]
        out[c.fields[0]] = (value,) * n if c.per_player else value
    return out


class Dealing:
    """Where a deal puts the cards and what else it sets, from the declarations.

    :ivar hands: the field of the zone each player is dealt into (``deal: dealt``).
    :ivar deck: the fields of the deck the rest goes to (``deal: rest``): its known top, its
        hidden count, its unseen cards.
    """

    def __init__(self, decl: StateDecl, n: int) -> None:
        dealt = next(z for z in decl.zones if z.deal == "dealt")
        rest = next(z for z in decl.zones if z.deal == "rest")
        self.hands = dealt.fields[0]
        top, hidden, unseen, under = rest.deck_fields()
        self.deck = (top, hidden, unseen)
        self._n = n
        #: what the deal sets besides, by the kind of new value: field -> the value (the
        #: same object each deal: an immutable one), field -> the value each seat gets in a
        #: new list, and the fields made one more (a counter of the game, or of each seat)
        self._values: list[tuple[str, Any]] = []
        self._lists: list[tuple[str, Any]] = []
        self._more: list[tuple[str, bool]] = []
        if under is not None:
            self._values.append((under, ()))
        for z in decl.zones:
            if z.deal == "empty":
                self._emptied(z)
        for c in decl.counters:
            f = c.fields[0]
            if c.deal in ("zero", "none"):
                value: Any = () if c.kind == "colours" else COUNTER_VALUES[c.deal]
                (self._lists if c.per_player else self._values).append((f, value))
            elif c.deal == "one more":
                self._more.append((f, c.per_player))
        for m in decl.machine:
            if m.deal == "cleared":
                self._values.extend((f, None) for f in m.fields)

    def _emptied(self, z: ZoneDecl) -> None:
        """Note the fields a deal empties for zone ``z`` (``deal: empty``)."""
        if z.order == "deck":
            top, hidden, unseen, under = z.deck_fields()
            self._values.extend([(top, ()), (hidden, 0), (unseen, ())] + ([(under, ())] if under is not None else []))
        elif z.order == "one":
            self._values.append((z.fields[0], -1))
        else:
            (self._lists if z.per_player else self._values).append((z.fields[0], ()))

    def place(self, d: Any, hands: list[tuple[int, ...]], top: tuple[int, ...], hidden: int,
              unseen: tuple[int, ...]) -> None:
        """Put a deal into the working copy ``d``: ``hands`` (one per seat) into the dealt
        zone, the rest as the deck's known ``top``, ``hidden`` cards of unknown order among
        ``unseen``; then everything else a deal sets."""
        setattr(d, self.hands, hands)
        t, h, u = self.deck
        setattr(d, t, top)
        setattr(d, h, hidden)
        setattr(d, u, unseen)
        for f, value in self._values:
            setattr(d, f, value)
        n = self._n
        for f, value in self._lists:
            setattr(d, f, [value] * n)
        for f, each in self._more:
            old = getattr(d, f)
            setattr(d, f, [x + 1 for x in old] if each else old + 1)
