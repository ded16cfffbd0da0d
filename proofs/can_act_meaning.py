"""The meaning in Z3 of the rule-language primitive ``can_act`` ("whoever must decide has
at least one legal action"), which the declaration of player-can-act uses; see
:mod:`proofs.can_act` for the proof and why the candidates below suffice.
Clauses: A.play.turn, A.king.jester, B.turn.play.
"""

from __future__ import annotations

from typing import Any

import z3

from palast.engine.state import DecisionKind
from proofs.encoding import ZState, code, ite
from proofs.lang_z3 import PROVIDED
from proofs.legality import Legality
from proofs.transition import Label

K = DecisionKind

#: Decisions that need no action of a player: the game is over, a gap, a deal (chance); and
#: the two decisions only a rule module opens (the chance deal of marks, a module's choice),
#: which the proofs' model, a model of the base game, never reaches.
EXEMPT = (K.GAME_OVER, K.GAP, K.DEAL, K.MARKS, K.CHOICE)


def _label(s: ZState, a: tuple[int, ...] = (), vec: list[Any] | None = None) -> Label:
    """A label of Python ints (so seat and kind choices fold while the terms are built)."""
    lay = s.lay
    nk = len(lay.kinds)
    return Label([*a, *([0] * (4 - len(a)))], vec if vec is not None else [0] * nk,
                 [[0] * nk for _ in range(lay.n)], -1)


def _first_cards(s: ZState, seat: Any) -> list[Any]:
    """The first ``count`` cards of (symbolic) ``seat``'s hand, per kind in kind order."""
    out: list[Any] = []
    before: Any = z3.IntVal(0)
    for k in range(len(s.lay.kinds)):
        have = s.hand_cnt(seat, k)
        want = s["count"] - before
        out.append(ite(want <= 0, 0, ite(want < have, want, have)))
        before = before + have
    return out


def candidates(s: ZState, kind: DecisionKind) -> list[Label]:
    """Concrete actions (and for an exchange, the first cards of the hand) answering a
    ``kind`` decision in ``s``; see the module docstring."""
    lay = s.lay
    nk = len(lay.kinds)
    if kind in (K.PLAY, K.DISCARD, K.DRAW, K.TAKE_BACK):
        return [_label(s, (k,)) for k in range(nk)]
    if kind in (K.EXCHANGE_PARTNER, K.NEXT_PLAYER):
        return [_label(s, (p,)) for p in range(lay.n)]
    if kind is K.EXCHANGE_COUNT:
        return [_label(s, (m,)) for m in range(lay.hand_size + 1)]
    if kind in (K.EXCHANGE_GIVE, K.EXCHANGE_ANSWER):
        return [_label(s, vec=_first_cards(s, s["dp"]))]
    if kind is K.SWAP:
        return [_label(s, (a, ka, b, kb)) for a in range(lay.n) for b in range(a + 1, lay.n)
                for ka in range(nk) for kb in range(nk)]
    if kind is K.REVEAL:
        return [_label(s, (j,)) for j in range(len(lay.king_roles))]
    raise ValueError(f"no player acts at a {kind.value} decision")


def can_act(s: ZState) -> Any:
    """The meaning in Z3 of the rule-language primitive ``can_act`` (player-can-act's
    expression uses it): unless :data:`EXEMPT`, some candidate action is legal in ``s``;
    where the decision's options are built from parts (the Cupbearer's swap), that there is
    an option, asked without listing them (:meth:`~proofs.resume_z3.Resuming.some_offered`,
    the same question the swap's void case asks; the pairs of seats and card kinds were
    listed as candidates before, 490 at five players)."""
    legality = Legality(s.lay)
    parts = []
    for kind in DecisionKind:
        if kind in EXEMPT:
            continue
        some = legality.some_offered(s, kind)
        if some is None:
            some = z3.Or([legality.legal(s, kind, lab) for lab in candidates(s, kind)])
        parts.append(z3.Implies(s["dk"] == code(kind), some))
    return z3.And(parts)


__all__ = ["EXEMPT", "can_act", "candidates"]


PROVIDED["can_act"] = can_act
