"""The player to decide can act (invariant ``player-can-act``).

Unless the game is over, play stopped at a gap, or the next thing is a deal (chance, and
always possible), the pending decision has a legal action. For each decision kind the
proof names candidate actions (:func:`candidates`) and shows that one of them is legal
(:class:`~proofs.legality.Legality`, the same conditions the transition uses) in every
position reachable from the start of a game: the property holds at the start (a deal is
pending) and after every action from a position satisfying the strengthening
(:func:`proofs.invariant.prove_invariant`). It need not assume itself: every action opens
its decision only where the decision has a choice (the engine's rules do the same), and
the proof checks that the encoding does.

The candidates: for a play, a Maid's discard and draw, and a Guard's take-back, each card
kind; for a Wizard's partner and the next player after a neutral tie, each seat; for a
Wizard's count, each number up to the hand size; for the cards given in an exchange, the
first ``count`` cards of the hand in kind order; for a swap, each pair of seats and
kinds; for a King card, each King card. A candidate is a concrete action, so proving one
legal proves that a legal action exists.

The proof is at the role level: a role-level position abstracts the card-level ones, the
legality of a role-level action depends only on role counts, and an action legal on
roles has a card-level action of the same roles that is legal (a card of each role it
names lies where it must, the card just played excepted as it is in both levels).
Clauses: A.play.turn, A.king.jester, B.turn.play, A.role.wizard, A.role.maid,
A.role.courtesan, A.role.captain, A.role.informer, B.role.zauberer, B.role.zofe,
B.role.mundschenk, B.role.waechter, B.role.hofmarschall.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import z3

from palast.engine.state import DecisionKind
from palast.spec import Spec
from proofs.encoding import ZState, code, ite
from proofs.invariant import STRENGTHENING, prove_invariant
from proofs.legality import Legality
from proofs.obligation import Obligation, Options, Outcome
from proofs.transition import Label

K = DecisionKind
FAMILY = "can_act"
#: Decisions that need no action of a player: the game is over, a gap, a deal (chance).
EXEMPT = (K.GAME_OVER, K.GAP, K.DEAL)


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
    """player-can-act: unless :data:`EXEMPT`, some candidate action is legal in ``s``."""
    legality = Legality(s.lay)
    parts = []
    for kind in DecisionKind:
        if kind in EXEMPT:
            continue
        parts.append(z3.Implies(s["dk"] == code(kind),
                                z3.Or([legality.legal(s, kind, lab) for lab in candidates(s, kind)])))
    return z3.And(parts)


def _run(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    return prove_invariant(spec, ruleset, can_act, name="player-can-act", out_dir=opts.out_dir)


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations, one per ruleset."""
    return [Obligation("player-can-act", r, "proved",
                       "whoever must decide (a deal, the end of the game and a gap apart) has a legal action",
                       partial(_run, ruleset=r), FAMILY, ("player-can-act",), needs=STRENGTHENING)
            for r in spec.rulesets]


__all__ = ["EXEMPT", "can_act", "candidates", "obligations"]
