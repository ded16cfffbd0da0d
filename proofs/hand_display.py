"""Hand plus display (invariant ``hand-plus-display``).

Once a round has been dealt, every player's hand plus display holds the hand size of
cards (``spec/game.yaml`` ``hand_size``), except the Maid's player between the discard and
the draw, who holds one fewer. Under every ruleset's readings a Maid never meets an empty
draw deck (``maid-empty-deck``), so the draw always comes.
Clauses: A.setup.deck, A.role.maid, A.role.wizard, A.role.captain, B.round.deal, B.role.zofe.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import z3

from palast.engine.state import DecisionKind
from palast.spec import Spec
from proofs.encoding import ZState, code
from proofs.invariant import STRENGTHENING, prove_invariant
from proofs.obligation import Obligation, Options, Outcome

FAMILY = "hand_display"


def hand_plus_display(s: ZState) -> Any:
    """After the first deal: hand + display = hand size, minus one for the player who
    must draw."""
    lay = s.lay
    drawing = s["dk"] == code(DecisionKind.DRAW)
    parts = []
    for p in range(lay.n):
        held = s.zone_size(lay.hand[p]) + s.zone_size(lay.disp[p])
        parts.append(held == lay.hand_size - z3.If(z3.And(drawing, s["dp"] == p), 1, 0))
    return z3.Implies(s["rnd"] >= 1, z3.And(parts))


def _run(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    return prove_invariant(spec, ruleset, hand_plus_display, name="hand-plus-display", out_dir=opts.out_dir)


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations, one per ruleset."""
    return [Obligation("hand-plus-display", r, "proved",
                       "after a deal every hand plus display holds six cards (five while a Maid's draw is pending)",
                       partial(_run, ruleset=r), FAMILY, ("hand-plus-display",),
                       needs=STRENGTHENING)
            for r in spec.rulesets]
