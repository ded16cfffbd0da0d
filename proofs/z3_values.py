"""The values of the rule language in Z3 and the operations on them (for
:mod:`proofs.lang_z3`, which compiles the declared expressions with them).

A value is a Python ``int`` or ``bool`` when it is known while a term is built, else a Z3
term; a collection is a :class:`Coll` (its elements known, their multiplicities terms),
``upto(a, b)`` a :class:`Span`, ``subsets(cards, n)`` a :class:`Picks`. The helpers keep
known values known (``_and`` of ``True`` and a term is the term) and build conjunctions and
sums as flat lists (:class:`Conj`, :class:`Lin`) until a term is needed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3

from palast.lang.primitives import ELEMENT
from proofs.terms import as_term, conj, disj, eq, gt, ite, negation, total


class NotCompiled(ValueError):
    """A primitive or form the Z3 back-end has no meaning for."""


class ColoursForgotten(NotCompiled):
    """A rule reads a card's colour where the role level of the encoding forgets colours.
    :func:`proofs.invariant.context` then tells that card's role apart by colour at the
    role level, where :attr:`role` names it, or compiles the rules at the card level.

    :ivar role: the role of the card whose colour was read, where the card is of a known
        kind (else None).
    """

    def __init__(self, message: str, role: int | None = None) -> None:
        super().__init__(message)
        self.role = role

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.role))


@dataclass
class Coll:
    """A collection: ``(element, multiplicity)`` pairs, elements known, of ``kind``
    (``seats``, ``cards``, ``roles``, ``ints``). ``zone`` is set when the collection is
    exactly one zone's cards (so role counts reuse the encoding's cached terms)."""

    kind: str
    items: list[tuple[int, Any]]
    zone: int | None = field(default=None)
    #: for the cards of a zone of a seat not known while the term is built: the zones, one
    #: per seat, and the seat's term (so counting it reuses the encoding's zone sizes)
    at: tuple[tuple[int, ...], Any] | None = field(default=None)
    #: the position whose zone ``zone`` or ``at`` is (``old(...)`` reads the one before the
    #: action), so its sizes and role counts are that position's
    state: Any = field(default=None, compare=False)


@dataclass(frozen=True)
class Span:
    """``upto(lo, hi)``: the whole numbers from ``lo`` to ``hi``, both included, kept as its
    two ends (known numbers or Z3 terms), since its elements are not known while the term
    is built. It answers ``in``, ``count`` and ``empty``; anything else raises
    :class:`NotCompiled`."""

    lo: Any
    hi: Any


@dataclass(frozen=True)
class Picks:
    """``subsets(cards, n)``: every pick of ``n`` of the collection ``cards``, kept as the
    collection and the number, since its elements (collections themselves) are not known
    while the term is built. A pick given as its multiplicity per element is one of them
    when it takes no element more often than ``cards`` holds it and ``n`` in all
    (:meth:`holds`); anything else raises :class:`NotCompiled`."""

    cards: Coll
    n: Any

    def holds(self, pick: list[Any]) -> Any:
        """The condition that ``pick`` (a multiplicity per element of ``cards``, by
        element number) is one of the picks."""
        mult = dict(self.cards.items)
        return _b(_and([*(_and([_cmp(">=", pick[e], 0), _cmp("<=", pick[e], mult.get(e, 0))])
                          for e in range(len(pick))),
                        _eq(_sum(pick), self.n)]))


class Tuples:
    """Options built from parts (``each``), kept as three ways to ask about them, so that
    none has to list every combination of the parts' elements unless asked to:
    :meth:`holds` (is a given tuple one of them), :meth:`some` (is there one) and
    :attr:`items` (every combination, known numbers in the order of ``names``, with the
    condition under which it is an option). It answers ``count``, ``empty`` and
    :meth:`holds`; anything else raises :class:`NotCompiled`.

    :param names: the parts' names, in order.
    :param kinds: the kind of each part's elements (``"seat"``, ``"card"``, ...), in order.
    :param holds: given one term or number per part, the condition that they are an option.
    :param some: the condition that there is an option.
    :param items: the list of every combination with its condition.
    """

    __slots__ = ("_holds", "_items", "_list", "_some", "_some_term", "kinds", "names")

    def __init__(self, names: tuple[str, ...], kinds: tuple[str, ...], holds: Callable[[tuple[Any, ...]], Any],
                 some: Callable[[], Any], items: Callable[[], list[tuple[tuple[int, ...], Any]]]) -> None:
        self.names = names
        self.kinds = kinds
        self._holds = holds
        self._some = some
        self._items = items
        self._list: list[tuple[tuple[int, ...], Any]] | None = None
        self._some_term: Any = None

    @property
    def items(self) -> list[tuple[tuple[int, ...], Any]]:
        """Every combination of the parts' elements with its condition (built once)."""
        if self._list is None:
            self._list = self._items()
        return self._list

    def holds(self, values: tuple[Any, ...]) -> Any:
        """The condition that ``values`` (one term or number per part) is one of the options."""
        return _b(self._holds(values))

    def some(self) -> Any:
        """The condition that there is an option (built once: a rule may ask it at more
        than one statement)."""
        if self._some_term is None:
            self._some_term = _b(self._some())
        return self._some_term


class Conj:
    """A conjunction kept as a Python list of Z3 conditions until it is needed as one term
    (building and flattening Z3 terms from Python is what costs)."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[Any]) -> None:
        self.parts = parts


class Lin:
    """A sum kept as a Python list of Z3 integer terms plus a known number."""

    __slots__ = ("known", "terms")

    def __init__(self, terms: list[Any], known: int) -> None:
        self.terms = terms
        self.known = known


def identity(x: Any) -> tuple[str, int]:
    """A key for ``x`` in a memo: a Z3 term by its AST id (Z3 shares structurally equal
    terms, so two Python objects of one term get one key), anything else by its Python id.
    The memo must keep ``x`` alive, or the id may be reused."""
    if isinstance(x, z3.AstRef):
        return ("z", x.get_id())
    return ("p", id(x))


def _b(x: Any) -> Any:
    """A condition as a Z3 term."""
    if isinstance(x, Conj):
        return conj(x.parts)
    if isinstance(x, bool):
        return as_term(x)
    return x


def _n(x: Any) -> Any:
    """A number as a Z3 term."""
    if isinstance(x, Lin):
        return total([*x.terms, x.known] if x.known else x.terms)
    if isinstance(x, int):
        return as_term(x)
    return x


def _v(x: Any) -> Any:
    """Any value but a collection as a Z3 term."""
    if isinstance(x, (bool, Conj)):
        return _b(x)
    return _n(x)


def _sum(items: Any) -> Any:
    """The sum of terms and numbers (a known number when every item is one)."""
    known = 0
    terms: list[Any] = []
    for x in items:
        if isinstance(x, int):
            known += x
        elif isinstance(x, Lin):
            known += x.known
            terms.extend(x.terms)
        else:
            terms.append(x)
    if not terms:
        return known
    if len(terms) == 1 and not known:
        return terms[0]
    return Lin(terms, known)


def _indicator(x: Any) -> Any:
    """The condition ``c`` when ``x`` is ``If(c, 1, 0)``, else ``None``."""
    if z3.is_app_of(x, z3.Z3_OP_ITE):
        c, a, b = x.children()
        if z3.is_int_value(a) and z3.is_int_value(b) and a.as_long() == 1 and b.as_long() == 0:
            return c
    return None


def _count_eq(a: Any, b: Any) -> Any:
    """``a == b`` for two multiplicities; a count of conditions equal to a known number is
    a pseudo-Boolean constraint (which the solver handles far better than a sum of Ifs)."""
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    if isinstance(a, int):
        a, b = b, a
    if isinstance(b, int):
        parts = a.terms if isinstance(a, Lin) and not a.known else [a] if not isinstance(a, Lin) else []
        conds = [_indicator(x) for x in parts]
        if conds and all(c is not None for c in conds):
            if len(conds) == 1:
                return conds[0] if b == 1 else z3.Not(conds[0]) if b == 0 else False
            return z3.PbEq([(c, 1) for c in conds], b)
    return _n(a) == _n(b)


def _and(parts: list[Any]) -> Any:
    rest: list[Any] = []
    for p in parts:  # one flat conjunction, not conjunctions of conjunctions
        if p is False:
            return False
        if isinstance(p, Conj):
            rest.extend(p.parts)
        elif p is not True:
            rest.append(p)
    return True if not rest else rest[0] if len(rest) == 1 else Conj(rest)


def _or(parts: list[Any]) -> Any:
    if any(p is True for p in parts):
        return True
    rest = [_b(p) for p in parts if p is not False]
    return False if not rest else rest[0] if len(rest) == 1 else disj(rest)


def _not(x: Any) -> Any:
    return (not x) if isinstance(x, bool) else negation(_b(x))


def _eq(a: Any, b: Any) -> Any:
    if isinstance(a, (int, bool)) and isinstance(b, (int, bool)):
        return a == b
    return eq(_v(a), _v(b))


def _cmp(op: str, a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        return a < b if op == "<" else a <= b if op == "<=" else a > b if op == ">" else a >= b
    x, y = _n(a), _n(b)
    return x < y if op == "<" else x <= y if op == "<=" else x > y if op == ">" else x >= y


def _positive(m: Any) -> Any:
    return m > 0 if isinstance(m, int) else gt(_n(m), 0)


def _when(cond: Any, m: Any) -> Any:
    """``m`` where ``cond`` holds, else 0."""
    if isinstance(cond, bool):
        return m if cond else 0
    return ite(_b(cond), _n(m), 0)


def _times(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if isinstance(b, int):
        return a if b == 1 else _n(a) * b
    if isinstance(a, int):
        return b if a == 1 else _n(b) * a
    return _n(a) * _n(b)


def _without(c: Coll, x: Any) -> Coll:
    """``without(c, x)``: ``c`` less one copy of ``x`` where it holds one."""
    items: list[tuple[int, Any]] = []
    for e, m in c.items:
        hit = _eq(e, x)
        if hit is False:
            items.append((e, m))
        elif hit is True and isinstance(m, int):
            items.append((e, max(m - 1, 0)))
        else:
            items.append((e, ite(z3.And(_b(hit), _b(_positive(m))), _n(m) - 1, _n(m))))
    return Coll(c.kind, items)


def _per_kind(card: Any, values: list[int], none: int) -> Any:
    """The value of ``values`` (one per card kind) for ``card`` (a kind, known or a Z3
    term), ``none`` for no card (-1)."""
    if isinstance(card, int):
        return values[card] if card >= 0 else none
    out: Any = z3.IntVal(none)
    for k in range(len(values) - 1, -1, -1):
        out = ite(eq(card, k), values[k], out)
    return out


def _minus(c: Coll, less: Coll) -> Coll:
    """``minus(c, less)``: per element, the multiplicity in ``c`` less the one in ``less``,
    never below zero."""
    other = dict(less.items)
    items: list[tuple[int, Any]] = []
    for e, m in c.items:
        o = other.get(e, 0)
        if isinstance(m, int) and isinstance(o, int):
            items.append((e, max(m - o, 0)))
        else:
            items.append((e, ite(_n(m) > _n(o), _n(m) - _n(o), 0)))
    return Coll(c.kind, items)


def at_least_one(m: Any) -> Any:
    """The condition ``m >= 1`` for a multiplicity ``m`` (a number or a Z3 integer term),
    with the choices of ``m`` (``If(c, a, b)``, as filters and conditions compile) written
    as conditions: ``Or(And(c, a >= 1), And(Not(c), b >= 1))``, a branch of multiplicity 0
    left out (the form a solver handles best, as the hand-written model wrote it)."""
    if isinstance(m, int):
        return z3.BoolVal(m >= 1)
    if z3.is_int_value(m):
        return z3.BoolVal(m.as_long() >= 1)
    if z3.is_app_of(m, z3.Z3_OP_ITE):
        c, a, b = m.children()
        ra, rb = at_least_one(a), at_least_one(b)
        if z3.is_false(rb):
            return ra if z3.is_false(ra) else z3.And(c, ra)
        if z3.is_false(ra):
            return z3.And(z3.Not(c), rb)
        return z3.Or(z3.And(c, ra), z3.And(z3.Not(c), rb))
    return m >= 1


def arrangements(c: Any, k: Any) -> Tuples:
    """``arrangements(c, k)``: every way to give ``k`` players one element of ``c`` each, no
    element twice, in seat order, as options of ``k`` parts (part ``i``: seat ``i``'s)."""
    if not isinstance(c, Coll) or not isinstance(k, int):
        raise NotCompiled("arrangements of a collection not known, or of a number not known while the term is built")
    there = [(e, _positive(m)) for e, m in c.items]

    def member(v: Any) -> Any:
        return _or([_and([_eq(v, e), t]) for e, t in there])

    def holds(values: tuple[Any, ...]) -> Any:
        return _and([*(member(v) for v in values),
                     *(_not(_eq(a, b)) for a, b in itertools.combinations(values, 2))])

    def items() -> list[tuple[tuple[int, ...], Any]]:
        return [(tuple(e for e, _ in pick), _and([t for _, t in pick])) for pick in itertools.permutations(there, k)]

    return Tuples(tuple(f"#{i}" for i in range(k)), (ELEMENT[c.kind],) * k, holds,
                  lambda: _or([cond for _, cond in items()]), items)
