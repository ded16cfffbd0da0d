"""What a new game and every deal set in a position, as ``spec/state.yaml`` declares it: each
zone's, counter's and machinery part's ``start`` and ``deal`` (round.deal, setup.*).
Nothing here names a zone or a counter.
"""

from __future__ import annotations

from collections.abc import Callable
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


def _const(value: Any) -> Callable[[Any], Any]:
    """A function giving ``value``, whatever it is given."""
    return lambda _: value


def _each(value: Any, n: int) -> Callable[[Any], Any]:
    """A function giving a new list of ``n`` times ``value`` (one per seat)."""
    return lambda _: [value] * n


def _one_more(old: int) -> int:
    return old + 1


def _each_one_more(old: list[int]) -> list[int]:
    return [x + 1 for x in old]


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
        #: what the deal sets besides: field -> a function making its new value
        self._sets: list[tuple[str, Callable[[Any], Any]]] = []
        if under is not None:
            self._sets.append((under, _const(())))
        for z in decl.zones:
            if z.deal == "empty":
                self._sets.extend(self._emptied(z, n))
        for c in decl.counters:
            f = c.fields[0]
            if c.deal in ("zero", "none"):
                value: Any = () if c.kind == "colours" else COUNTER_VALUES[c.deal]
                self._sets.append((f, _each(value, n) if c.per_player else _const(value)))
            elif c.deal == "one more":
                self._sets.append((f, _each_one_more if c.per_player else _one_more))
        for m in decl.machine:
            if m.deal == "cleared":
                self._sets.extend((f, _const(None)) for f in m.fields)

    @staticmethod
    def _emptied(z: ZoneDecl, n: int) -> list[tuple[str, Callable[[Any], Any]]]:
        if z.order == "deck":
            top, hidden, unseen, under = z.deck_fields()
            out = [(top, _const(())), (hidden, _const(0)), (unseen, _const(()))]
            return out + ([(under, _const(()))] if under is not None else [])
        if z.order == "one":
            return [(z.fields[0], _const(-1))]
        return [(z.fields[0], _each((), n) if z.per_player else _const(()))]

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
        for f, make in self._sets:
            setattr(d, f, make(getattr(d, f)))
