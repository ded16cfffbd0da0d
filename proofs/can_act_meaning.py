"""The meaning in Z3 of the rule-language primitive ``can_act`` ("whoever must decide has
at least one legal action"), which the declaration of player-can-act uses; see
:mod:`proofs.can_act` for the proof and why the candidates below suffice.
Clauses: A.play.turn, A.king.jester, B.turn.play.
"""

from __future__ import annotations

import itertools
from typing import Any

import z3

from proofs.encoding import Layout, ZState
from proofs.lang_z3 import PROVIDED
from proofs.legality import Legality, label_width, shapes
from proofs.terms import ite
from proofs.transition import Label
from proofs.z3_values import Picks, Span, _n


def exempt(lay: Layout) -> tuple[str, ...]:
    """Decisions that need no action of a player under ``lay``: the terminal ones (the game
    is over, a gap), a deal (chance, always possible), and those no action of the model
    answers (:func:`proofs.legality.shapes`: the chance deal of marks and a choice, which only
    a rule module opens and the proofs' model of the base game never reaches)."""
    sh = shapes(lay)
    return tuple(k for k in lay.decisions if k not in sh or sh[k].form in ("deal", "never"))


def _label(s: ZState, a: tuple[Any, ...] = (), vec: list[Any] | None = None) -> Label:
    """A label of Python ints (so seat and kind choices fold while the terms are built)."""
    lay = s.lay
    nk = len(lay.kinds)
    return Label([*a, *([0] * (label_width(lay) - len(a)))], vec if vec is not None else [0] * nk,
                 [[0] * nk for _ in range(lay.n)], -1)


def _first_picks(picks: Picks, nk: int) -> list[Any]:
    """The first ``picks.n`` cards of the collection ``picks`` picks from, per kind in kind
    order."""
    have = dict(picks.cards.items)
    out: list[Any] = []
    before: Any = z3.IntVal(0)
    for k in range(nk):
        m = have.get(k, 0)
        want = _n(picks.n) - before
        out.append(ite(want <= 0, 0, ite(want < m, want, m)))
        before = before + m
    return out


def _domain(s: ZState, part: str) -> range:
    """Every value of a label part of kind ``part`` (a seat, a card kind, a role)."""
    lay = s.lay
    sizes = {"seat": lay.n, "card": len(lay.kinds), "role": lay.nroles}
    if part not in sizes:
        raise ValueError(f"no candidate values of {part}")
    return range(sizes[part])


def candidates(s: ZState, kind: str) -> list[Label]:
    """Concrete actions answering a ``kind`` decision in ``s``, by the decision's shape
    (:mod:`proofs.shapes`); see the module docstring."""
    lay = s.lay
    shape = shapes(lay).get(kind)
    if shape is None or shape.form in ("deal", "never"):
        raise ValueError(f"no player acts at a {kind} decision")
    if shape.form == "cards":
        got = Legality(lay).declared_options(s, kind)
        if not isinstance(got, Picks):
            raise ValueError(f"the options of {kind} are not picks of cards")
        return [_label(s, vec=_first_picks(got, len(lay.kinds)))]
    if shape.parts == ("int",):  # a range of numbers: its least one
        got = Legality(lay).options(s, kind)
        return [_label(s, (got.lo,))] if isinstance(got, Span) else [_label(s, (e,)) for e, _ in got.items]
    return [_label(s, values) for values in itertools.product(*(_domain(s, p) for p in shape.parts))]


def can_act(s: ZState) -> Any:
    """The meaning in Z3 of the rule-language primitive ``can_act`` (player-can-act's
    expression uses it): unless :func:`exempt`, some candidate action is legal in ``s``;
    where the decision's options are built from parts (the Cupbearer's swap), that there is
    an option, asked without listing them (:meth:`~proofs.resume_z3.Resuming.some_offered`,
    the same question the swap's void case asks; the pairs of seats and card kinds were
    listed as candidates before, 490 at five players)."""
    legality = Legality(s.lay)
    parts = []
    skip = exempt(s.lay)
    for kind in s.lay.decisions:
        if kind in skip:
            continue
        some = legality.some_offered(s, kind)
        if some is None:
            some = z3.Or(legality.legal_all(s, kind, candidates(s, kind)))
        parts.append(z3.Implies(s["dk"] == s.lay.code(kind), some))
    return z3.And(parts)


__all__ = ["can_act", "candidates", "exempt"]


PROVIDED["can_act"] = can_act
