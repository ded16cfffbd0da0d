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

from palast.spec.load import Spec
from proofs.can_act_meaning import EXEMPT, can_act, candidates
from proofs.invariant import STRENGTHENING, prove_invariant
from proofs.lang_z3 import declared
from proofs.obligation import Obligation, Options, Outcome

FAMILY = "can_act"


def _run(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    return prove_invariant(spec, ruleset, lambda s: declared(s, "player-can-act"), name="player-can-act",
                           out_dir=opts.out_dir)


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations, one per ruleset."""
    return [Obligation("player-can-act", r, "proved",
                       "whoever must decide (a deal, the end of the game and a gap apart) has a legal action",
                       partial(_run, ruleset=r), FAMILY, ("player-can-act",), needs=STRENGTHENING)
            for r in spec.rulesets]


__all__ = ["EXEMPT", "can_act", "candidates", "obligations"]
