"""Z3 terms built without z3py's coercions, for the compilers of :mod:`proofs`.

z3py's operators look up and compare the sorts of their operands, wrap every sort and
Python number they meet in a new object, and check for errors after each such call; the
encoding builds millions of terms, and that bookkeeping was a large share of the proofs'
time (building the hottest terms here took ``benchmarks/prove.py --jobs 2`` from 150.6 to
126.2 processor seconds on one machine; the solver's checks were about 75 of them). The
builders here take Z3 terms (or Python ``bool``/``int`` values, turned into one shared term
per value) whose sorts already agree, as the compilers' terms do, and call Z3's C API once
per term. They know nothing of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import z3
from z3.z3 import _to_expr_ref

_INTS: dict[int, Any] = {}
_BOOLS: dict[bool, Any] = {}


def as_term(x: Any) -> Any:
    """``x`` as a Z3 term: a Python ``bool`` or ``int`` as its Z3 value (one term per
    value, made once), a Z3 term as it is."""
    if isinstance(x, bool):
        b = _BOOLS.get(x)
        if b is None:
            b = _BOOLS[x] = z3.BoolVal(x)
        return b
    if isinstance(x, int):
        v = _INTS.get(x)
        if v is None:
            v = _INTS[x] = z3.IntVal(x)
        return v
    return x


def ite(cond: Any, a: Any, b: Any) -> Any:
    """``If(cond, a, b)`` built without z3py's coercions; folded for a Python bool ``cond``."""
    if isinstance(cond, bool):
        return a if cond else b
    a, b = as_term(a), as_term(b)
    ctx = cond.ctx
    ast = z3.Z3_mk_ite(ctx.ref(), cond.as_ast(), a.as_ast(), b.as_ast())
    # the sort of both branches: wrapped at once (not looked up again, as _to_expr_ref does)
    if isinstance(a, z3.BoolRef):
        return z3.BoolRef(ast, ctx)
    if isinstance(a, z3.ArithRef):
        return z3.ArithRef(ast, ctx)
    return _to_expr_ref(ast, ctx)


def total(items: Iterable[Any]) -> Any:
    """The sum of Z3 integer terms (0 for none), built without z3py's coercions."""
    xs = [as_term(x) for x in items]
    if not xs:
        return as_term(0)
    if len(xs) == 1:
        return xs[0]
    ctx = xs[0].ctx
    arr = (z3.Ast * len(xs))(*[x.as_ast() for x in xs])
    return z3.ArithRef(z3.Z3_mk_add(ctx.ref(), len(xs), arr), ctx)


def count_true(conds: Iterable[Any]) -> Any:
    """How many of the Boolean terms ``conds`` hold."""
    one, zero = as_term(1), as_term(0)
    return total(ite(c, one, zero) for c in conds)


#: (context, AST id) -> (the integer term, its comparisons with small constants); the term
#: is kept so that its id is not given to another term while the entry lives
_EQS: dict[tuple[int, int], tuple[Any, dict[int, Any]]] = {}


def eq_const(term: Any, value: int) -> Any:
    """``term == value`` for a Z3 integer ``term``, built without z3py's coercions and once
    per term and value (:func:`pick` compares one index with every position, again and
    again while an expression is compiled)."""
    ctx = term.ctx
    key = (id(ctx), term.get_id())
    got = _EQS.get(key)
    if got is None:
        if len(_EQS) > 20000:
            _EQS.clear()
        got = _EQS[key] = (term, {})
    eqs = got[1]
    found = eqs.get(value)
    if found is None:
        c = as_term(value)
        found = eqs[value] = z3.BoolRef(z3.Z3_mk_eq(ctx.ref(), term.as_ast(), c.as_ast()), ctx)
    return found


def pick(index: Any, values: Sequence[Any]) -> Any:
    """``values[index]`` for a symbolic ``index`` in range (the last value otherwise); a
    Python ``int`` index picks directly."""
    if isinstance(index, int):
        return values[index]
    out = as_term(values[-1])
    for i in range(len(values) - 2, -1, -1):
        out = ite(eq_const(index, i), values[i], out)
    return out


def pick_by(index: Any, make: Callable[[int], Any], count: int) -> Any:
    """:func:`pick` of ``make(i)`` for ``i`` below ``count``; for a Python ``int`` index
    only ``make(index)`` is built."""
    if isinstance(index, int):
        if not 0 <= index < count:
            raise IndexError(index)
        return make(index)
    return pick(index, [make(i) for i in range(count)])


def maximum(values: Sequence[Any]) -> Any:
    """The largest of Z3 integer terms."""
    out = values[0]
    for v in values[1:]:
        out = ite(v > out, v, out)
    return out


def minimum(values: Sequence[Any]) -> Any:
    """The smallest of Z3 integer terms."""
    out = values[0]
    for v in values[1:]:
        out = ite(v < out, v, out)
    return out


def _int_like(x: Any) -> bool:
    return isinstance(x, z3.ArithRef) or (isinstance(x, int) and not isinstance(x, bool))


def _bool_like(x: Any) -> bool:
    return isinstance(x, (z3.BoolRef, bool))


def eq(a: Any, b: Any) -> Any:
    """``a == b`` for two integer or two Boolean terms of one context, either side possibly
    a Python value of its sort (a Python ``bool`` when both are Python values); any other
    pair (a Boolean against a number, terms of two contexts) goes through z3py, which
    coerces it or raises as it always did."""
    if not isinstance(a, z3.ExprRef) and not isinstance(b, z3.ExprRef):
        return a == b
    if (_int_like(a) and _int_like(b)) or (_bool_like(a) and _bool_like(b)):
        x, y = as_term(a), as_term(b)
        ctx = x.ctx
        if y.ctx is ctx:
            return z3.BoolRef(z3.Z3_mk_eq(ctx.ref(), x.as_ast(), y.as_ast()), ctx)
    return a == b


def gt(a: Any, b: Any) -> Any:
    """``a > b`` for two integer terms of one context, either side possibly a Python
    ``int`` (a Python ``bool`` when both are); any other pair goes through z3py."""
    if not isinstance(a, z3.ExprRef) and not isinstance(b, z3.ExprRef):
        return a > b
    if _int_like(a) and _int_like(b):
        x, y = as_term(a), as_term(b)
        ctx = x.ctx
        if y.ctx is ctx:
            return z3.BoolRef(z3.Z3_mk_gt(ctx.ref(), x.as_ast(), y.as_ast()), ctx)
    return a > b


def conj(terms: Sequence[Any]) -> Any:
    """The conjunction of Boolean terms (``True`` for none), as ``z3.And`` makes it."""
    return _connective(z3.Z3_mk_and, terms)


def disj(terms: Sequence[Any]) -> Any:
    """The disjunction of Boolean terms (``False`` for none), as ``z3.Or`` makes it."""
    return _connective(z3.Z3_mk_or, terms)


def _connective(make: Any, terms: Sequence[Any]) -> Any:
    """``make`` (Z3's ``Z3_mk_and`` or ``Z3_mk_or``) of ``terms``, Python ``bool`` values
    among them as their shared terms, in the main context where there are none."""
    xs = [as_term(t) for t in terms]
    ctx = xs[0].ctx if xs else z3.main_ctx()
    arr = (z3.Ast * len(xs))(*[x.as_ast() for x in xs])
    return z3.BoolRef(make(ctx.ref(), len(xs), arr), ctx)


def negation(term: Any) -> Any:
    """``Not(term)`` for a Boolean term."""
    t = as_term(term)
    ctx = t.ctx
    return z3.BoolRef(z3.Z3_mk_not(ctx.ref(), t.as_ast()), ctx)
