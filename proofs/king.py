"""The banned role (invariant ``banned-role``).

At most one role is banned (the encoding holds one banned role), it is the role of the
King card in force (card-conservation), and it is never a role
whose action reveals King cards (the Marshal): no King card names it (``spec/game.yaml``
``king_cards``), and the proof shows no action makes it banned.
Clauses: A.king.reveal, A.king.lasts, B.role.hofmarschall, B.king.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from palast.spec import Spec
from proofs.encoding import ZState
from proofs.invariant import STRENGTHENING, prove_invariant
from proofs.lang_z3 import declared
from proofs.obligation import Obligation, Options, Outcome

FAMILY = "king"


def banned_not_marshal(s: ZState) -> Any:
    """banned-role, compiled from its declaration (:mod:`proofs.lang_z3`)."""
    return declared(s, "banned-role")


def _run(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    return prove_invariant(spec, ruleset, banned_not_marshal, name="banned-role", out_dir=opts.out_dir)


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations, one per ruleset."""
    return [Obligation("banned-role", r, "proved", "the banned role is never the Marshal",
                       partial(_run, ruleset=r), FAMILY, ("banned-role",),
                       needs=STRENGTHENING)
            for r in spec.rulesets]
