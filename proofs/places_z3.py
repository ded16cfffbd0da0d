"""Where cards lie, for the rules' statements compiled to Z3 (:mod:`proofs.statements_z3`):
the places the statements name (``hand(P)``, ``display(P)``, ``discard_pile``,
``under_draw_deck``, ``draw_deck``, and the King cards' ``king_deck``, ``spent_kings`` and
``in_force``) as the encoding holds them (:class:`~proofs.encoding.ZState`: cards counted
per kind and zone; King cards as ``kd{j}``, ``ks{j}`` and ``banned``), and moving and
shuffling cards between them, the Z3 counterpart of :mod:`palast.engine.places`. The
order of a deck is not encoded: only which cards it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import z3

from palast.lang.statements import Zone
from palast.lang.syntax import Node
from proofs.encoding import ZState, ite
from proofs.z3_values import Coll, NotCompiled, Picks, _b, at_least_one

#: The places of King cards (the encoding holds them as ``kd{j}``, ``ks{j}`` and ``banned``).
KING_PLACES = ("king_deck", "spent_kings", "in_force")
#: Places the encoding holds without the order the engine keeps: a card put under the draw
#: deck is counted with the deck's cards, and the model lets any draw give it.
UNORDERED_PLACES = ("under_draw_deck",)


def unordered_readings(spec: Any) -> dict[tuple[str, str], str]:
    """The readings whose statements put cards at a place of :data:`UNORDERED_PLACES`.

    :returns: ``(point, reading)`` -> the place, for each ``readings`` statement of a rule's
        declared logic (its statements and parts) whose branch for that reading moves cards
        there.
    """
    from palast.lang.blocks import program
    from palast.lang.statements import walk

    out: dict[tuple[str, str], str] = {}
    for r in program(spec).rules.values():
        blocks = [list(r.do or ()), *(list(p) for p in r.parts.values())]
        for block in blocks:
            for st in walk(block):
                if st.head != "readings":
                    continue
                for reading, branch in st.blocks.items():
                    for inner in walk(list(branch)):
                        to = inner.keys.get("to")
                        if inner.head == "move" and isinstance(to, Zone) and to.zone in UNORDERED_PLACES:
                            out[(str(st.arg), reading)] = to.zone
    return out


class Places:
    """Moves of cards and King cards on a symbolic position, for one layout (mixed into
    :class:`proofs.statements_z3.Statements`, which gives :meth:`_value`)."""

    lay: Any
    nk: int

    def _value(self, d: ZState, node: Node, env: Mapping[str, Any]) -> Any:
        raise NotImplementedError

    def _place(self, d: ZState, z: Zone, env: Mapping[str, Any]) -> tuple[tuple[int, ...], Any]:
        """The zones of place ``z`` (one per seat, or one) and the seat (0 for a shared place)."""
        lay = self.lay
        if z.zone == "hand":
            return lay.hand, self._value(d, z.seat, env) if z.seat is not None else 0
        if z.zone == "display":
            return lay.disp, self._value(d, z.seat, env) if z.seat is not None else 0
        if z.zone == "discard_pile":
            return (lay.discard,), 0
        if z.zone in ("draw_deck", "under_draw_deck"):
            return (lay.deck,), 0
        raise NotCompiled(f"the Z3 back-end has no cards in {z.zone}")

    def _move(self, d: ZState, what: Any, src: Zone | None, dst: Zone, env: Mapping[str, Any]) -> None:
        """Move the card (a kind) or the cards (a collection) ``what`` from ``src`` to ``dst``.

        Written as the hand-written model wrote a move, so that a solver sees at once that
        it keeps every card: for each pair of zones the move may use (one per seat a place
        of a player may be), the same condition takes the cards out of one and puts them in
        the other.
        """
        if dst.zone in KING_PLACES or (src is not None and src.zone in KING_PLACES):
            self._move_kings(d, what, src, dst)
            return
        if src is None:
            raise NotCompiled("a move from no place")
        if isinstance(what, Picks):
            raise NotCompiled("a move of picks")
        zs, ps = self._place(d, src, env)
        zd, pd = self._place(d, dst, env)
        # (zone from, zone to, condition on the seats); a zone of None: taken out, or put in,
        # alone (between two players' places: out of each player's place where the first
        # seat is theirs, into each where the second is, which the proofs split by seats)
        pairs: list[tuple[int | None, int | None, Any]] = []
        if len(zs) == 1 and len(zd) == 1:
            pairs = [(zs[0], zd[0], True)]
        elif len(zd) == 1:
            pairs = [(zs[q], zd[0], ps == q) for q in range(len(zs))]
        elif len(zs) == 1:
            pairs = [(zs[0], zd[q], pd == q) for q in range(len(zd))]
        elif ps is pd or (not isinstance(ps, int) and not isinstance(pd, int) and ps.eq(pd)):
            pairs = [(zs[q], zd[q], ps == q) for q in range(len(zs))]
        else:
            pairs = [*((zs[q], None, ps == q) for q in range(len(zs))),
                     *((None, zd[q], pd == q) for q in range(len(zd)))]
        mult = dict(what.items) if isinstance(what, Coll) else None
        for kk in range(self.nk):
            for z_from, z_to, on in pairs:
                if on is False:
                    continue
                if mult is None:  # one card, of kind ``what``
                    hit = _bool(on) if isinstance(what, int) and what == kk else (
                        False if isinstance(what, int) else z3.And(_bool(on), what == kk))
                    if hit is False:
                        continue
                    amount: Any = ite(hit, 1, 0)
                else:
                    m = mult.get(kk, 0)
                    if isinstance(m, int) and m == 0:
                        continue
                    amount = _int(m) if on is True else ite(_bool(on), _int(m), 0)
                if z_from is not None:
                    d.set_cnt(z_from, kk, d.cnt(z_from, kk) - amount)
                if z_to is not None:
                    d.set_cnt(z_to, kk, d.cnt(z_to, kk) + amount)

    # ------------------------------------------------------------------ King cards
    def _king_roles_by_card(self) -> tuple[int, ...]:
        """The role each King card bans, by its number in the encoding (``kd{j}``, ``ks{j}``).

        :raises NotCompiled: when two King cards ban the same role (a King card is then not
            known by its role, which is how the rules name it).
        """
        roles = tuple(self.lay.king_roles)
        if len(set(roles)) != len(roles):
            raise NotCompiled("two King cards ban the same role")
        return roles

    def _take_kings(self, d: ZState, zone: str, has: Callable[[int], Any]) -> None:
        """Take the King cards ``has(role)`` says out of King place ``zone``."""
        roles = self._king_roles_by_card()
        if zone == "in_force":
            banned = d["banned"]
            d["banned"] = ite(_bool(_or_all([z3.And(banned == r, _bool(has(r))) for r in roles])), -1, banned)
        elif zone in ("spent_kings", "king_deck"):
            tag = "ks" if zone == "spent_kings" else "kd"
            for j, r in enumerate(roles):
                d[f"{tag}{j}"] = z3.And(d[f"{tag}{j}"], z3.Not(_bool(has(r))))
        else:
            raise NotCompiled(f"King cards are not taken out of {zone}")

    def _put_kings(self, d: ZState, zone: str, has: Callable[[int], Any], one: Any = None) -> None:
        """Put the King cards ``has(role)`` says into King place ``zone`` (``one``: the role
        of the single card put in force)."""
        roles = self._king_roles_by_card()
        if zone == "in_force":
            if one is None:
                raise NotCompiled("only one King card at a time is put in force")
            d["banned"] = one
        elif zone in ("spent_kings", "king_deck"):
            tag = "ks" if zone == "spent_kings" else "kd"
            for j, r in enumerate(roles):
                d[f"{tag}{j}"] = z3.Or(d[f"{tag}{j}"], _bool(has(r)))
        else:
            raise NotCompiled(f"King cards are not put into {zone}")

    def _move_kings(self, d: ZState, what: Any, src: Zone | None, dst: Zone) -> None:
        """Move King cards: ``what`` a collection of roles (a King place's cards) or one role
        (a King card just drawn, in no place yet: ``src`` is ``None``)."""
        if isinstance(what, Coll):
            mult = dict(what.items)

            def has(r: int) -> Any:
                return at_least_one(mult.get(r, 0))
            one = None
        else:
            def has(r: int) -> Any:
                return what == r
            one = what
        if src is not None:
            self._take_kings(d, src.zone, has)
        self._put_kings(d, dst.zone, has, one)

    def place_deal(self, d: ZState, hands: list[list[Any]]) -> None:
        """Carry out a ``deal`` statement on ``d``, as the engine's ``Game.place_deal`` does:
        every card gathered, ``hands[p][k]`` cards of kind ``k`` in seat ``p``'s hand, the
        rest in the draw deck (of no order), displays and the discard pile empty, this
        round's plays at zero, the round number one more, no card played and no round ended
        yet."""
        lay = self.lay
        n = len(lay.hand)
        for k in range(self.nk):
            for p in range(n):
                d.set_cnt(lay.hand[p], k, _int(hands[p][k]))
                d.set_cnt(lay.disp[p], k, z3.IntVal(0))
            d.set_cnt(lay.deck, k, lay.kinds[k].copies - z3.Sum([_int(hands[p][k]) for p in range(n)]))
            d.set_cnt(lay.discard, k, z3.IntVal(0))
        for p in range(n):
            d[f"pl{p}"] = z3.IntVal(0)
        d["rnd"] = d["rnd"] + 1
        d["last"] = z3.IntVal(-1)
        d["rk"] = z3.IntVal(0)
        d["rp"] = z3.IntVal(-1)
        d["rforced"] = z3.BoolVal(False)

    def _shuffle(self, d: ZState, places: tuple[Zone, ...], deck: str) -> None:
        """Shuffle the King cards of ``places`` into the King deck (its order is not
        encoded: only which cards it holds)."""
        if deck != "king_deck":
            raise NotCompiled("the Z3 back-end shuffles King cards only")
        roles = self._king_roles_by_card()
        for z in places:
            if z.zone == "in_force":
                banned = d["banned"]
                in_force = {r: banned == r for r in roles}
                self._put_kings(d, deck, in_force.__getitem__)
                self._take_kings(d, "in_force", in_force.__getitem__)
            elif z.zone == "spent_kings":
                spent = {r: d[f"ks{j}"] for j, r in enumerate(roles)}
                self._put_kings(d, deck, spent.__getitem__)
                self._take_kings(d, "spent_kings", spent.__getitem__)
            else:
                raise NotCompiled(f"the Z3 back-end does not shuffle {z.zone}")


def _bool(v: Any) -> Any:
    return _b(v)


def _or_all(parts: list[Any]) -> Any:
    return z3.Or(parts) if parts else z3.BoolVal(False)


def _int(v: Any) -> Any:
    return z3.IntVal(v) if isinstance(v, int) else v
