"""The rule language compiled to Z3: a declared expression (an invariant's ``holds``, a
lemma) becomes a Z3 term over a symbolic position (:class:`~proofs.encoding.ZState`).

This is the second back-end of :mod:`palast.lang` beside the engine's Python one, and it
reads the same parsed expressions, so an invariant is stated once, in
``spec/invariants.yaml``. Values are represented as follows (``n`` players, the layout's
card kinds and roles):

* a number, a condition, a player, a role, a card kind, a decision: a Python ``int`` or
  ``bool`` when it is known while the term is built, else a Z3 term (a player is its seat
  number, a decision the number :meth:`proofs.encoding.Layout.code` gives it);
* a collection: a :class:`Coll`, a list of ``(element, multiplicity)`` pairs with every
  element a known Python ``int`` and the multiplicity a Z3 integer term (or ``int``). The
  order of a collection is forgotten (the encoding counts each zone's cards per kind), so
  ``in_order`` is the identity, ``==`` between collections compares multiplicities, and a
  primitive that depends on order (``first``) has no meaning here.

A name this back-end cannot compile raises :class:`NotCompiled` naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import z3

from palast.engine.state import DecisionKind
from palast.lang.invariant_exprs import constant_kinds, constant_values
from palast.lang.kinds import infer
from palast.lang.primitives import ELEMENT, PRIMITIVES
from palast.lang.syntax import ExpressionError, Node, each_conditions, each_parts, names
from proofs.encoding import ANY, NEUTRAL, ZState, per_seat
from proofs.terms import ite, maximum, minimum, total
from proofs.z3_values import (
    Coll,
    ColoursForgotten,
    NotCompiled,
    Picks,
    Span,
    Tuples,
    _and,
    _b,
    _cmp,
    _count_eq,
    _eq,
    _minus,
    _n,
    _not,
    _or,
    _per_kind,
    _positive,
    _sum,
    _times,
    _v,
    _when,
    _without,
    arrangements,
    identity,
)

K = DecisionKind


class Z3Back:
    """Compiles expressions of one spec over one symbolic position.

    :param s: the symbolic position (after the action, for a step invariant).
    :param before: the position before the action, which ``old(...)`` reads.
    """

    def __init__(self, s: ZState, before: ZState | None = None, *, last_colour: Any = None) -> None:
        self.s = s
        self.before = before
        #: at the role level, which forgets colours: the colour of the card played this turn
        #: (``card``), as the action's label gives it (a seat, ``NEUTRAL``); ``None``: unknown
        self.last_colour = last_colour
        self.lay = lay = s.lay
        spec = lay.game.spec
        #: the colours' names: a player colour by its number in the box (spec order), the
        #: neutral colour as :data:`~proofs.encoding.NEUTRAL`
        colours = {**{c: i for i, c in enumerate(spec.player_colours)}, spec.neutral_colour: NEUTRAL}
        self.kinds = {**constant_kinds(spec), **dict.fromkeys(colours, "colour")}
        self.values = {**constant_values(spec), **colours}
        self.domain: dict[str, range] = {"seat": range(lay.n), "card": range(len(lay.kinds)),
                                         "role": range(lay.nroles), "int": range(0)}
        #: values of calls and binders already computed (see :meth:`_value`)
        self._memo: dict[tuple[Any, ...], tuple[Node, Any, list[Any]]] = {}
        self.calls: dict[str, Callable[..., Any]] = {
            "follows": lambda a, b: self._follows(a, b),
            "in_action": lambda d: _or([_eq(d, lay.code(x.name)) for x in lay.game.spec.flow.decisions.values()
                                        if x.role]),
            "minus": _minus,
            "others": lambda p: Coll("seats", [(q, 1 if isinstance(p, int) and q != p else
                                                 0 if isinstance(p, int) else ite(p != q, 1, 0))
                                                for q in range(lay.n)]),
            "role": self._role_of,
            "colour": self._colour_of,
            "neutral": lambda c: _eq(self._colour_of(c), NEUTRAL),
            # a colour is numbered as the box's player colours are (spec order); its owner is
            # the seat that plays it; a colour of nobody seated, and the neutral colour, have none
            "owner": self._owner,
            "seat": lambda p: p,
            "roles": self._roles,
            "count": lambda c: self._count(c),
            "upto": Span,
            "subsets": Picks,
            "arrangements": arrangements,
            "distinct": lambda c: Coll(c.kind, [(e, ite(_positive(m), 1, 0) if not isinstance(m, int)
                                                 else min(m, 1)) for e, m in c.items]),
            "in_order": lambda c: c,
            "first": self._first,
            "without": _without,
            "occurrences": lambda c, x: _sum(_when(_eq(e, x), m) for e, m in c.items),
            "empty": lambda c: _eq(self._count(c), 0),
            "smaller": lambda a, b: min(a, b) if isinstance(a, int) and isinstance(b, int) else minimum(
                [_n(a), _n(b)]),
        }
        self.names: dict[str, Callable[[], Any]] = {
            "players": lambda: Coll("seats", [(p, 1) for p in range(lay.n)]),
            "decider": lambda: s["dp"],
            "actor": lambda: s["actor"],
            "card": lambda: s["card"],
            "forced_play": lambda: s["forced"],
            "banned": lambda: s["banned"],
            "nobody": lambda: -1,
            "no_card": lambda: -1,
            "target": lambda: lay.target,
            "six": lambda: lay.six,
            "hand_size": lambda: lay.hand_size,
            "deck_size": lambda: s.deck_size(),
            "king_deck_size": lambda: total(ite(s[f"kd{j}"], 1, 0) for j in range(len(lay.king_roles))),
            "running": lambda: z3.And(s["round"] >= 1, s["rk"] == 0, s["dk"] != lay.code(K.DEAL),
                                      s["dk"] != lay.code(K.GAME_OVER)),
            "ended": lambda: s["rk"] != 0,
            "whisper_ended": lambda: s["rk"] == _round_end("whisper"),
            "six_ended": lambda: s["rk"] == _round_end("six"),
            "forced_whisper": lambda: z3.And(s["rk"] != 0, s["rforced"]),
            "ender": lambda: s["rp"],
            "decision": lambda: s["dk"],
            "dealing": lambda: s["dk"] == lay.code(K.DEAL),
            "game_over": lambda: s["dk"] == lay.code(K.GAME_OVER),
            "stopped": lambda: s["dk"] == lay.code(K.GAP),
            "can_act": lambda: _can_act(s),
            "all_cards": lambda: Coll("cards", [(k.index, k.copies) for k in lay.kinds]),
            "all_roles": lambda: Coll("roles", [(r, 1) for r in range(lay.nroles)]),
            "player_colours": lambda: Coll("colours", [(i, 1) for i in range(len(spec.player_colours))]),
            "king_cards": lambda: Coll("roles", [(r, sum(1 for x in lay.king_roles if x == r))
                                                 for r in sorted(set(lay.king_roles))]),
        }

        self._declared_places()

    def _declared_places(self) -> None:
        """The zones and counters of spec/state.yaml, each under the name expressions give it,
        read from the encoding's fields (:class:`~proofs.encoding.Layout`)."""
        lay, s = self.lay, self.s
        for z, nums in lay.card_zones:
            if z.per_player:
                self.calls[z.name] = partial(self._zone, nums)
            else:
                self.names[z.name] = partial(self._zone, nums, 0)
        for name, tag in lay.king_places.items():
            self.names[name] = partial(self._kings, tag)
        for c in lay.counters.values():
            if per_seat(c):
                self.calls[c.name] = partial(self._per_seat, c.name)
                # a value per seat kept for the table (the marks) is read one seat at a time
                # by the primitive whose engine code indexes its field
                for prim in PRIMITIVES.values():
                    if not c.per_player and prim.args == ("seat",) and f"D.{c.fields[0]}[" in prim.python:
                        self.calls[prim.name] = partial(self._per_seat, c.name)
            else:
                self.names[c.name] = partial(s.__getitem__, c.name)

    def _per_seat(self, field: str, p: Any) -> Any:
        return self.s.at_seat(p, lambda q: self.s[f"{field}{q}"])

    def _kings(self, tag: str) -> Coll:
        """The King cards of a place the encoding holds as ``tag`` (see ``Layout.king_places``),
        by the roles they ban."""
        lay, s = self.lay, self.s
        if tag == "banned":  # -2 stands for a value that is no role
            return Coll("roles", [(r, ite(s["banned"] == r, 1, 0)) for r in range(lay.nroles)]
                        + [(-2, ite(z3.Or(s["banned"] < -1, s["banned"] >= lay.nroles), 1, 0))])
        return Coll("roles", [(r, ite(s[f"{tag}{j}"], 1, 0)) for j, r in enumerate(lay.king_roles)])

    # -------------------------------------------------------------- collections
    def _follows(self, before: Any, after: Any) -> Any:
        """``follows(before, after)``: some pair of decisions the declared flow allows is
        ``(before, after)`` (decisions as numbered by :meth:`proofs.encoding.Layout.code`)."""
        succ: dict[int, list[int]] = {}
        for a, b in self.lay.game.spec.flow.pairs():
            succ.setdefault(self.lay.code(a), []).append(self.lay.code(b))
        return _or([_and([_eq(before, a), _or([_eq(after, b) for b in sorted(bs)])]) for a, bs in sorted(succ.items())])

    def _zone(self, zones: tuple[int, ...], p: Any, state: Any = None) -> Coll:
        s = state if state is not None else self.s
        if isinstance(p, int):
            z = zones[p]
            return Coll("cards", [(k, s.cnt(z, k)) for k in range(len(self.lay.kinds))], z, state=s)
        def count_at(k: int) -> Any:
            return s.at_seat(p, lambda q: s.cnt(zones[q], k))

        return Coll("cards", [(k, count_at(k)) for k in range(len(self.lay.kinds))], at=(zones, p), state=s)

    def _count(self, c: Coll | Span) -> Any:
        if isinstance(c, Span):
            if isinstance(c.lo, int) and isinstance(c.hi, int):
                return max(c.hi - c.lo + 1, 0)
            return ite(_b(_cmp(">=", c.hi, c.lo)), _n(c.hi) - _n(c.lo) + 1, 0)
        if not isinstance(c, Coll):
            raise NotCompiled("the number of picks of a collection")
        s = c.state if c.state is not None else self.s  # a zone of old(...) is the position before's
        if c.zone is not None:
            return s.zone_size(c.zone)
        if c.at is not None:
            zones, p = c.at
            return s.at_seat(p, lambda q: s.zone_size(zones[q]))
        return _sum(m for _, m in c.items)

    def _roles(self, c: Coll) -> Coll:
        lay = self.lay
        s = c.state if c.state is not None else self.s  # a zone of old(...) is the position before's
        if c.zone is not None:
            return Coll("roles", [(r, s.role_in(c.zone, r)) for r in range(lay.nroles)])
        by: dict[int, list[Any]] = {}
        for k, m in c.items:
            by.setdefault(lay.kinds[k].role, []).append(m)
        return Coll("roles", [(r, _sum(ms)) for r, ms in sorted(by.items())])

    def _role_of(self, card: Any) -> Any:
        from proofs.each_z3 import RoleOnly

        if isinstance(card, RoleOnly):  # a card part of an ``each`` enumerated by role
            return card.role
        return _per_kind(card, [k.role for k in self.lay.kinds], -1)

    def _owner(self, col: Any) -> Any:
        """``owner(col)``: the seat whose colour is ``col`` (a colour's number in the box),
        -1 for a colour nobody seated plays and for the neutral colour."""
        seat_of = self.lay.game.seat_of_colour
        if isinstance(col, int):
            return seat_of.get(col, -1)
        out: Any = z3.IntVal(-1)
        for c, p in sorted(seat_of.items()):
            out = ite(col == c, p, out)
        return out

    def _colour_of(self, card: Any) -> Any:
        """A card kind's colour: its number in the box (spec order of the player colours),
        ``NEUTRAL`` for the neutral colour, -3 for no card (which has no colour).

        :raises ColoursForgotten: at the role level, which forgets the colours of a role's
            cards (unless it tells that role apart by colour, :attr:`Layout.coloured`),
            for a card that may be of such a kind; except for the card played this turn
            where :attr:`last_colour` is given (a seat: the role level's games seat the
            colours in the box's order, so a seated colour's number is its seat), whose
            colour is then its kind's where known, else that one. The error names the
            card's role where the card is of a known kind.
        """
        kinds = self.lay.kinds
        cards = self.lay.game.cards
        known = [None if k.seat == ANY else NEUTRAL if k.seat == NEUTRAL else cards.colour_of(k.card) for k in kinds]
        if isinstance(card, int) and card >= 0 and known[card] is None:
            raise ColoursForgotten("colours are forgotten at the role level: prove this at the card level",
                                   kinds[card].role)
        if isinstance(card, int) or all(c is not None for c in known):
            return _per_kind(card, [-3 if c is None else c for c in known], -3)
        if self.last_colour is not None and isinstance(card, z3.ExprRef) and card.eq(self.s["card"]):
            out: Any = self.last_colour
            for k in range(len(kinds) - 1, -1, -1):
                c = known[k]
                if c is not None:
                    out = ite(card == k, c, out)
            return out
        raise ColoursForgotten("colours are forgotten at the role level: prove this at the card level")

    @staticmethod
    def _first(c: Any) -> Any:
        """``first(c)``: the first element of ``c`` there, in the collection's order (-1 for
        an empty one, where the engine stops with an error)."""
        if not isinstance(c, Coll):
            raise NotCompiled("first of a range or of picks")
        out: Any = -1
        for e, m in reversed(c.items):
            there = m > 0 if isinstance(m, int) else _positive(m)
            out = (e if there else out) if isinstance(there, bool) else ite(there, e, out)
        return out

    def _join(self, a: Coll, b: Coll) -> Coll:
        got: dict[int, list[Any]] = {}
        for e, m in [*a.items, *b.items]:
            got.setdefault(e, []).append(m)
        return Coll(a.kind, [(e, _sum(ms) if len(ms) > 1 else ms[0]) for e, ms in got.items()])

    def _list(self, kind: str, values: list[Any]) -> Coll:
        """A list of values of ``kind`` as a collection over that kind's known elements."""
        if all(isinstance(v, int) for v in values):
            got: dict[int, int] = {}
            for v in values:
                got[v] = got.get(v, 0) + 1
            return Coll(kind + "s", sorted(got.items()))
        dom = self.domain.get(kind)
        if not dom:
            raise NotCompiled(f"a list of unknown {kind} values")
        return Coll(kind + "s", [(d, _sum(ite(_eq(v, d), 1, 0) for v in values)) for d in dom])

    # -------------------------------------------------------------- expressions
    def compile(self, node: Node) -> Any:
        """The Z3 term (or known Python value) of ``node``, a checked expression of the spec.

        :raises NotCompiled: for a primitive this back-end has no meaning for.
        """
        return self._value(node, {}, {})

    def _value(self, n: Node, env: Mapping[str, Any], kinds: Mapping[str, str]) -> Any:
        op = n.op
        if op in ("int", "bool"):
            return n.value
        if op == "name":
            name = str(n.value)
            if name in env:
                return env[name]
            if name in self.values:
                v = self.values[name]
                return v  # a decision's number is its code in the encoding (both number the declared ones)
            make = self.names.get(name)
            if make is None:
                raise NotCompiled(f"the Z3 back-end has no meaning for {name!r}")
            return make()
        if op in ("call", "bind", "each") and n.value != "old":
            # a part of a binder's body that does not read the bound name is the same for
            # every element: computed once per node and values of the names it reads (for
            # options built from parts, costly and few, by the values' Z3 ids: a rule's
            # statements reached by two paths give them as distinct objects of one term)
            free = _FREE.get(id(n))
            if free is None or free[0] is not n:
                free = _FREE[id(n)] = (n, tuple(sorted(names(n))))
            ident = identity if op == "each" else id
            key = (id(n), tuple((x, ident(env[x]), kinds.get(x)) for x in free[1] if x in env))
            got = self._memo.get(key)
            if got is not None and got[0] is n:
                return got[1]
            value = self._compute(n, env, kinds)
            self._memo[key] = (n, value, [env[x] for x in free[1] if x in env])  # the values kept alive
            return value
        return self._compute(n, env, kinds)

    def _compute(self, n: Node, env: Mapping[str, Any], kinds: Mapping[str, str]) -> Any:
        op = n.op
        if op == "call" and n.value == "old":
            if self.before is None:
                raise NotCompiled("old(...) needs the position before an action")
            return Z3Back(self.before)._value(n.args[0], env, kinds)
        if op == "call":
            fn = self.calls.get(str(n.value))
            if fn is None:
                raise NotCompiled(f"the Z3 back-end has no meaning for {n.value!r}")
            values = [self._value(a, env, kinds) for a in n.args]
            if n.value in ("count", "empty") and isinstance(values[0], Tuples):
                some = values[0].some()
                return _not(some) if n.value == "empty" else _sum(_when(c, 1) for _, c in values[0].items)
            if n.value not in ("count", "empty") and any(isinstance(v, Span | Picks | Tuples) for v in values):
                raise NotCompiled(f"{n.value} of a range or of picks (only count and empty have a meaning)")
            return fn(*values)
        if op == "bind":
            return self._bind(n, env, kinds)
        if op == "each":
            return self._each(n, env, kinds)
        if op == "list":
            kind = infer(n, kinds, self.kinds)
            return self._list(ELEMENT.get(kind, "int"), [self._value(a, env, kinds) for a in n.args])
        if op in ("and", "or"):  # stop at the first known operand that decides it
            stop = op == "or"
            got = []
            for a in n.args:
                v = self._value(a, env, kinds)
                if v is stop:
                    return stop
                got.append(v)
            return _or(got) if stop else _and(got)
        args = [self._value(a, env, kinds) for a in n.args]
        if op == "not":
            return _not(args[0])
        if op == "if":
            c, a, b = args
            if isinstance(c, bool):
                return a if c else b
            if isinstance(a, Coll) and isinstance(b, Coll):  # per element, the multiplicity of the branch taken
                ma, mb = dict(a.items), dict(b.items)
                elems = sorted(set(ma) | set(mb))
                return Coll(a.kind if a.items else b.kind,
                            [(e, ite(_b(c), _n(ma.get(e, 0)), _n(mb.get(e, 0)))) for e in elems])
            if any(isinstance(x, Span | Picks | Coll) for x in (a, b)):
                raise NotCompiled("a choice between a range or picks and another value")
            return z3.If(_b(c), _v(a), _v(b))
        if op in ("==", "!="):
            a, b = args
            if any(isinstance(x, Span | Picks | Tuples) for x in (a, b)) or isinstance(a, Coll) != isinstance(b, Coll):
                raise NotCompiled("a comparison of picks, ranges or tuples (the Z3 back-end compares numbers, players, "
                                  "cards and collections of them)")
            if isinstance(a, Coll):
                elems = sorted({e for e, _ in a.items} | {e for e, _ in b.items})
                ma, mb = dict(a.items), dict(b.items)
                same = _and([_count_eq(ma.get(e, 0), mb.get(e, 0)) for e in elems])
            else:
                same = _eq(a, b)
            return same if op == "==" else _not(same)
        if op in ("<", "<=", ">", ">="):
            return _cmp(op, *args)
        if op == "+":
            a, b = args
            return self._join(a, b) if isinstance(a, Coll) else _sum([a, b])
        if op == "-":
            a, b = args
            return a - b if isinstance(a, int) and isinstance(b, int) else _n(a) - _n(b)
        if op == "*":
            return _times(*args)
        if op in ("in", "not in"):
            x, c = args
            if isinstance(c, Span):
                inside = _and([_cmp(">=", x, c.lo), _cmp("<=", x, c.hi)])
                return inside if op == "in" else _not(inside)
            inside = self.member(x, c)
            return inside if op == "in" else _not(inside)
        raise NotCompiled(f"the Z3 back-end has no meaning for {op!r}")

    def _each(self, n: Node, env: Mapping[str, Any], kinds: Mapping[str, str]) -> Tuples:
        """Options built from parts (``each``): asked whether a tuple is one, or whether
        there is one, without listing them (:mod:`proofs.each_z3`); listed only when
        counted, every combination of the parts' elements, each part's collection computed
        with the names before it known, under the condition that its elements are there and
        every ``where`` condition holds."""
        from proofs import each_z3

        parts = each_parts(n)
        conds = [c for c, _ in each_conditions(n)]
        env, kinds = dict(env), dict(kinds)

        def items() -> list[tuple[tuple[int, ...], Any]]:
            out: list[tuple[tuple[int, ...], Any]] = []

            def go(i: int, env: dict[str, Any], kinds: dict[str, str], chosen: tuple[int, ...],
                   present: list[Any]) -> None:
                if i == len(parts):
                    cond = _and([*present, *(self._value(c, env, kinds) for c in conds)])
                    if cond is not False:
                        out.append((chosen, cond))
                    return
                name, coll = parts[i]
                c = self._value(coll, env, kinds)
                if not isinstance(c, Coll):
                    raise NotCompiled("each over a range or over picks")
                inner = {**kinds, name: ELEMENT.get(c.kind, "any")}
                for e, m in c.items:
                    there = _positive(m)
                    if there is False:
                        continue
                    go(i + 1, {**env, name: e}, inner, (*chosen, e), [*present, there])

            go(0, env, kinds, (), [])
            return out

        part_kinds: dict[str, str] = dict(kinds)
        for name, coll in parts:  # the kind of each part's elements, the parts before it known
            try:
                part_kinds[name] = ELEMENT.get(infer(coll, part_kinds, self.kinds), "any")
            except (ExpressionError, KeyError):  # a name whose kind is not known here
                part_kinds[name] = "any"
        return Tuples(tuple(name for name, _ in parts), tuple(part_kinds[name] for name, _ in parts),
                      lambda values: each_z3.holds(self, n, env, kinds, values),
                      lambda: each_z3.some(self, n, env, kinds), items)

    def member(self, x: Any, c: Coll) -> Any:
        """The condition that ``x`` (a known number or a Z3 term) is an element of ``c``:
        for elements ``0 .. m-1`` each known to be there, ``0 <= x < m``; for the cards of
        a zone of a seat not known while the term is built, the condition for each seat's
        zone, chosen by the seat (the shapes the hand-written model had, which the solver
        handles best); else one case per element."""
        if not isinstance(c, Coll) or isinstance(x, Coll | Span | Picks | Tuples):
            raise NotCompiled("membership in picks or in a range, or of a collection")
        if isinstance(x, int):  # a known element: only its own multiplicity counts
            return _or([_positive(m) for e, m in c.items if e == x])
        if c.items and all(isinstance(m, int) and m > 0 for _, m in c.items) \
                and sorted(e for e, _ in c.items) == list(range(len(c.items))):
            return _and([_cmp(">=", x, 0), _cmp("<", x, len(c.items))])
        if c.at is not None:
            zones, p = c.at
            st = c.state if c.state is not None else self.s  # a zone of old(...) is the position before's
            return st.at_seat(p, lambda q: _b(self.member(x, self._zone(zones, q, st))))
        return _or([_and([_eq(e, x), _positive(m)]) for e, m in c.items])

    def _bind(self, n: Node, env: Mapping[str, Any], kinds: Mapping[str, str]) -> Any:
        var, coll, *rest = n.args
        c = self._value(coll, env, kinds)
        if not isinstance(c, Coll):
            raise NotCompiled(f"{n.value} over a range or over picks")
        name = str(var.value)
        inner_kinds = {**kinds, name: ELEMENT.get(c.kind, "any")}
        bodies = [(e, m, self._value(rest[0], {**env, name: e}, inner_kinds)) for e, m in c.items]
        prim = str(n.value)
        if prim == "all":
            return _and([b if isinstance(m, int) and m > 0 else _or([_not(_positive(m)), b])
                         for _, m, b in bodies if not (isinstance(m, int) and m <= 0)])
        if prim == "any":
            return _or([_and([_positive(m), b]) for _, m, b in bodies])
        if prim == "filter":
            return Coll(c.kind, [(e, _when(b, m)) for e, m, b in bodies])
        if prim == "number":
            return _sum(_when(b, m) for _, m, b in bodies)
        if prim == "sum":
            return _sum(_times(b, m) for _, m, b in bodies)
        if prim == "gather":  # each element's collection, where the element is there
            out: Coll | None = None
            for _, m, b in bodies:
                if isinstance(m, int) and m <= 0:
                    continue
                if not isinstance(b, Coll):
                    raise NotCompiled("gather of something other than collections")
                if not (isinstance(m, int) and m == 1):
                    there = _positive(m)
                    b = Coll(b.kind, [(e, _when(there, x)) for e, x in b.items])
                out = b if out is None else self._join(out, b)
            if out is None:
                raise NotCompiled("gather over an empty collection")
            return out
        if prim in ("fewest", "most"):  # the elements whose value is the least (the most)
            if not all(isinstance(m, int) and m > 0 for _, m, _ in bodies):
                raise NotCompiled(f"{prim} over a collection whose elements are not known to be there")
            values = [_n(b) for _, _, b in bodies]
            best = minimum(values) if prim == "fewest" else maximum(values)
            return Coll(c.kind, [(e, ite(v == best, m, 0)) for (e, m, _), v in zip(bodies, values, strict=True)])
        if prim == "highest":
            if not all(isinstance(m, int) and m > 0 for _, m, _ in bodies):
                raise NotCompiled("highest over a collection whose elements are not known to be there")
            return maximum([_n(b) for _, _, b in bodies])
        raise NotCompiled(f"the Z3 back-end has no meaning for {prim!r}")


def _round_end(kind: str) -> int:
    from proofs.encoding import ROUND_ENDS

    return ROUND_ENDS.index(kind)


#: Names of the rule language whose Z3 meaning another module of proofs/ gives, registered
#: by that module when it is imported (so this module, which the Z3 legality of actions
#: uses, imports none of them): ``can_act`` by :mod:`proofs.can_act_meaning`.
PROVIDED: dict[str, Callable[[ZState], Any]] = {}


def _can_act(s: ZState) -> Any:
    fn = PROVIDED.get("can_act")
    if fn is None:
        raise NotCompiled("can_act has its Z3 meaning in proofs.can_act_meaning, which is not imported")
    return fn(s)


def compile_text(s: ZState, text: str, env: Mapping[str, Any] | None = None, before: ZState | None = None) -> Any:
    """The Z3 value of the declared expression ``text`` (a rule's logic, e.g. a choice's
    ``options``) on ``s``, with the names of ``env`` bound to the values given (e.g.
    ``actor``): a term, a known value or a :class:`Coll`. With ``before`` (the position
    before an action that reached ``s``), ``old(...)`` reads that position.

    :raises NotCompiled: when it uses a primitive without a Z3 meaning.
    """
    from palast.lang.syntax import parse

    node = _TEXTS.get(text)
    if node is None:
        node = _TEXTS[text] = parse(text)
    return Z3Back(s, before)._value(node, dict(env or {}), {})


def compile_condition(s: ZState, text: str, before: ZState | None = None) -> Any:
    """The Z3 term (a Boolean) of the declared condition ``text`` on ``s``, ``old(...)``
    reading ``before`` (a reachability question's ``reaches``, spec/invariants.yaml).

    :raises NotCompiled: when it uses a primitive without a Z3 meaning.
    """
    return _b(compile_text(s, text, before=before))


_TEXTS: dict[str, Node] = {}
#: the names each call or binder node reads (by the node's id; the node is kept so that its id
#: is not reused)
_FREE: dict[int, tuple[Node, tuple[str, ...]]] = {}
