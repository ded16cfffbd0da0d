"""Who takes the next turn (invariant ``next-player``).

When a turn is over and the round goes on, the player to move is the owner of the colour of
the card played this turn; after a neutral card, a player with the fewest cards displayed,
and on a tie for fewest the one the ruleset's reading of neutral-tie names (the player who
played names one, the first in seat order moves, or play stops at the open point). The
claim is the invariant's declaration (``spec/invariants.yaml``) compiled to Z3; it reads
colours, so it is proved at the card level. It follows from the lemma decisions-well-formed
alone (who decides, the card just played and where it lies), so only that conjunct of the
strengthening is assumed (:data:`ASSUMES`), and the obligation rests on it alone: with the
whole strengthening, whose card-level card counts are large, each check took about twice
as long. Should a ruleset make the claim follow only from more, the obligation fails and
says so (:class:`proofs.step.NotFromAssumed`).
Clauses: A.play.next, A.play.grey, B.turn.next, B.turn.brown.
"""

from __future__ import annotations

from functools import partial

from palast.spec.load import Spec
from proofs.invariant import card_level_needs
from proofs.obligation import Obligation, Options, Outcome
from proofs.step import prove_declared_step
from proofs.well_formed import FORMED

FAMILY = "turn"
#: The obligations proving the conjuncts of the strengthening the proof assumes.
ASSUMES = (FORMED,)


def _run(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    ok, where = prove_declared_step(spec, ruleset, "next-player", level="card", assumes=ASSUMES)
    if ok:
        return Outcome("proved", f"every action of every kind ({where})")
    return Outcome("counterexample", f"the turn goes to another player: {where}")


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations, one per ruleset."""
    return [Obligation("next-player", r, "proved",
                       "a turn passes to the owner of the card's colour, or after a neutral card to a player "
                       "with the fewest cards displayed (a tie as the ruleset reads it)",
                       partial(_run, ruleset=r), FAMILY, ("next-player",), needs=card_level_needs(spec, ASSUMES),
                       cost=20.0)
            for r in spec.rulesets]
