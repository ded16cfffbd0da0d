"""Hand plus display (invariant ``hand-plus-display``, with its lemma
``hand-plus-display-after-deal``).

The step invariant says how an action changes a player's hand plus display; its lemma, the
conjunct of the strengthening, says what the sum is once a round has been dealt: the hand
size (``spec/game.yaml`` ``hand_size``), one fewer for the Maid's player between the discard
and the draw. Under every ruleset's readings a Maid never meets an empty draw deck
(``maid-empty-deck``), so the draw always comes. Both are compiled from their declarations
in ``spec/invariants.yaml`` (:mod:`proofs.lang_z3`).
Clauses: A.setup.deck, A.role.maid, A.role.wizard, A.role.captain, B.round.deal, B.role.zofe.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from palast.spec.load import Spec
from proofs.declared_z3 import declared
from proofs.encoding import ZState
from proofs.invariant import STRENGTHENING, prove_invariant
from proofs.obligation import Obligation, Options, Outcome
from proofs.step import prove_declared_step

FAMILY = "hand_display"
#: The lemma of hand-plus-display that the strengthening assumes.
LEMMA = "hand-plus-display-after-deal"


def after_deal(s: ZState) -> Any:
    """The lemma hand-plus-display-after-deal, compiled from its declaration."""
    return declared(s, LEMMA)


def _run(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    out = prove_invariant(spec, ruleset, after_deal, name=LEMMA, out_dir=opts.out_dir)
    if out.result != "proved":
        return out
    ok, where = prove_declared_step(spec, ruleset, "hand-plus-display")
    if not ok:
        return Outcome("counterexample", f"hand plus display changes otherwise: {where}")
    return Outcome("proved", f"{out.detail}; every action of every kind keeps the step invariant ({where})")


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations, one per ruleset."""
    return [Obligation("hand-plus-display", r, "proved",
                       "after a deal every hand plus display holds six cards (five while a Maid's draw is pending), "
                       "and an action changes the sum only as the invariant says",
                       partial(_run, ruleset=r), FAMILY, ("hand-plus-display",),
                       needs=STRENGTHENING)
            for r in spec.rulesets]
