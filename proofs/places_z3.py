"""Where cards lie, for the rules' statements compiled to Z3 (:mod:`proofs.statements_z3`):
the places the statements name, as spec/state.yaml declares them and the encoding holds them
(:class:`~proofs.encoding.Layout`: cards counted per kind and zone, what lies under a deck
counted with the deck; King cards as a flag per card, ``kd{j}`` for a deck and ``ks{j}``
for a laid place, or the banned role for a place of one), and moving and shuffling cards
between them, and what a deal sets (each zone's, counter's and machinery part's ``deal``):
the Z3 counterpart of :mod:`palast.engine.places` and :mod:`palast.engine.resets`. Nothing
here names a zone or a counter. The order of a deck is not encoded: only which cards it
holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import z3

from palast.engine.resets import COUNTER_VALUES
from palast.lang.statements import Zone
from palast.lang.syntax import Node
from proofs.encoding import CLEARED, MACHINE_FIELDS, ZState, per_seat
from proofs.terms import ite
from proofs.z3_values import Coll, NotCompiled, Picks, _b, at_least_one


def unordered_readings(spec: Any) -> dict[tuple[str, str], str]:
    """The readings whose statements put cards under a deck (a zone's ``under`` in
    spec/state.yaml): the encoding counts those cards with the deck's and forgets the order
    the engine keeps, so the model lets any draw give them.

    :returns: ``(point, reading)`` -> the place, for each ``readings`` statement of a rule's
        declared logic (its statements and parts) whose branch for that reading moves cards
        there.
    """
    from palast.lang.blocks import program
    from palast.lang.statements import walk

    unordered = {z.under for z in spec.state.zones if z.under}
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
                        if inner.head == "move" and isinstance(to, Zone) and to.zone in unordered:
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
        nums = self.lay.slots.get(z.zone)
        if nums is None:
            raise NotCompiled(f"the Z3 back-end has no cards in {z.zone}")
        return nums, self._value(d, z.seat, env) if z.seat is not None else 0

    def _move(self, d: ZState, what: Any, src: Zone | None, dst: Zone, env: Mapping[str, Any]) -> None:
        """Move the card (a kind) or the cards (a collection) ``what`` from ``src`` to ``dst``.

        Written as the hand-written model wrote a move, so that a solver sees at once that
        it keeps every card: for each pair of zones the move may use (one per seat a place
        of a player may be), the same condition takes the cards out of one and puts them in
        the other.
        """
        kings = self.lay.king_places
        if dst.zone in kings or (src is not None and src.zone in kings):
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
        tag = self.lay.king_places.get(zone)
        if tag == "banned":
            banned = d["banned"]
            d["banned"] = ite(_bool(_or_all([z3.And(banned == r, _bool(has(r))) for r in roles])), -1, banned)
        elif tag is not None:
            for j, r in enumerate(roles):
                d[f"{tag}{j}"] = z3.And(d[f"{tag}{j}"], z3.Not(_bool(has(r))))
        else:
            raise NotCompiled(f"King cards are not taken out of {zone}")

    def _put_kings(self, d: ZState, zone: str, has: Callable[[int], Any], one: Any = None) -> None:
        """Put the King cards ``has(role)`` says into King place ``zone`` (``one``: the role
        of the single card put in force)."""
        roles = self._king_roles_by_card()
        tag = self.lay.king_places.get(zone)
        if tag == "banned":
            if one is None:
                raise NotCompiled("only one King card at a time is put in force")
            d["banned"] = one
        elif tag is not None:
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
        """Carry out a ``deal`` statement on ``d``, as the engine's ``Game.place_deal`` does,
        from each zone's, counter's and machinery part's ``deal`` in spec/state.yaml: the
        zone dealt into gets ``hands[p][k]`` cards of kind ``k`` in seat ``p``'s part, the
        zone of the rest every other card (of no order), a zone dealt ``empty`` none (of
        cards or of King cards); a
        counter dealt ``zero`` is 0, ``one more`` one more, ``none`` -1; a part of the
        machinery dealt ``cleared`` is cleared; what is ``kept`` stays."""
        lay = self.lay
        n = len(lay.hand)
        dealt = [z3.Sum([_int(hands[p][k]) for p in range(n)]) for k in range(self.nk)]
        for z, nums in lay.card_zones:
            for k in range(self.nk):
                for q, num in enumerate(nums):
                    if z.deal == "dealt":
                        d.set_cnt(num, k, _int(hands[q][k]))
                    elif z.deal == "rest":
                        d.set_cnt(num, k, lay.kinds[k].copies - dealt[k])
                    elif z.deal == "empty":
                        d.set_cnt(num, k, z3.IntVal(0))
                    elif z.deal != "kept":
                        raise NotCompiled(f"a deal that leaves {z.zone} {z.deal}")
        for z in lay.game.spec.state.zones:  # the places of King cards: emptied, or kept
            if z.holds == "cards" or z.deal == "kept":
                continue
            if z.deal != "empty":
                raise NotCompiled(f"a deal that leaves {z.zone} {z.deal}")
            self._take_kings(d, z.name, lambda r: True)
        for c in lay.counters.values():
            for f in ([f"{c.name}{p}" for p in range(n)] if per_seat(c) else [c.name]):
                if c.deal in COUNTER_VALUES:  # the engine's value for it (palast.engine.resets)
                    d[f] = z3.IntVal(COUNTER_VALUES[c.deal])
                elif c.deal == "one more":
                    d[f] = d[f] + 1
                elif c.deal != "kept":
                    raise NotCompiled(f"a deal that leaves the {c.counter} counter {c.deal}")
        for m in lay.game.spec.state.machine:
            if m.deal == "cleared":
                for f, _ in MACHINE_FIELDS.get(m.part, ()):
                    d[f] = _int(CLEARED[f]) if not isinstance(CLEARED[f], bool) else z3.BoolVal(CLEARED[f])

    def _shuffle(self, d: ZState, places: tuple[Zone, ...], deck: str) -> None:
        """Shuffle the King cards of ``places`` into the King deck (its order is not
        encoded: only which cards it holds)."""
        if self.lay.king_places.get(deck) != "kd":
            raise NotCompiled("the Z3 back-end shuffles King cards only, into a deck of them")
        roles = self._king_roles_by_card()
        for z in places:
            tag = self.lay.king_places.get(z.zone)
            if tag == "banned":
                banned = d["banned"]
                in_force = {r: banned == r for r in roles}
                self._put_kings(d, deck, in_force.__getitem__)
                self._take_kings(d, z.zone, in_force.__getitem__)
            elif tag == "ks":
                spent = {r: d[f"ks{j}"] for j, r in enumerate(roles)}
                self._put_kings(d, deck, spent.__getitem__)
                self._take_kings(d, z.zone, spent.__getitem__)
            else:
                raise NotCompiled(f"the Z3 back-end does not shuffle {z.zone}")


def _bool(v: Any) -> Any:
    return _b(v)


def _or_all(parts: list[Any]) -> Any:
    return z3.Or(parts) if parts else z3.BoolVal(False)


def _int(v: Any) -> Any:
    return z3.IntVal(v) if isinstance(v, int) else v
