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

The candidates follow the shape of each decision's declared options (:mod:`proofs.shapes`):
for one card, seat or role, each value of its kind (a play, a Maid's discard and draw, a
Guard's take-back, a Wizard's partner, the next player after a neutral tie, a King card);
for a number of a range, its least one (a Wizard's count); for a pick of cards, the first
cards of the collection picked from, in kind order (an exchange); for options built from
parts, each combination of the parts' values (a swap), asked without listing them where
:meth:`~proofs.resume_z3.Resuming.some_offered` can. A candidate is an action whose values
are known numbers or terms of the position, so proving one legal proves that a legal
action exists.

The proof is at the role level: a role-level position abstracts the card-level ones, the
legality of a role-level action depends only on the counts of its kinds (roles, and the
cards of a role told apart by colour, as fan's Jesters), and an action legal on those
kinds has a card-level action of the same kinds that is legal (a card of each role it
names lies where it must, the card just played excepted as it is in both levels).
Clauses: A.play.turn, A.king.jester, B.turn.play, A.role.wizard, A.role.maid,
A.role.courtesan, A.role.captain, A.role.informer, B.role.zauberer, B.role.zofe,
B.role.mundschenk, B.role.waechter, B.role.hofmarschall.
"""

from __future__ import annotations

from functools import partial

from palast.spec.load import Spec
from proofs.can_act_meaning import can_act, candidates, exempt
from proofs.declared_z3 import declared
from proofs.invariant import STRENGTHENING, prove_invariant
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


__all__ = ["can_act", "candidates", "exempt", "obligations"]
