"""The banned role (invariants ``banned-role`` and ``muted-card-does-nothing``).

At most one role is banned (the encoding holds one banned role), it is the role of the
King card in force (card-conservation), and it is never a role
whose action reveals King cards (the Marshal): no King card names it (``spec/game.yaml``
``king_cards``), and the proof shows no action makes it banned.
Clauses: A.king.reveal, A.king.lasts, B.role.hofmarschall, B.king.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from palast.engine.state import DecisionKind
from palast.spec.load import Spec
from proofs.declared_z3 import declared
from proofs.encoding import ZState
from proofs.invariant import STRENGTHENING, prove_invariant
from proofs.obligation import Obligation, Options, Outcome
from proofs.step import prove_declared_step

FAMILY = "king"


def banned_not_marshal(s: ZState) -> Any:
    """banned-role, compiled from its declaration (:mod:`proofs.lang_z3`)."""
    return declared(s, "banned-role")


def _run(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    return prove_invariant(spec, ruleset, banned_not_marshal, name="banned-role", out_dir=opts.out_dir)


def _run_muted(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    ok, where = prove_declared_step(spec, ruleset, "muted-card-does-nothing", (DecisionKind.PLAY,))
    if ok:
        return Outcome("proved", f"every play ({where})")
    # the invariant says two things; Z3's model of the failing play does not say which broke
    return Outcome("counterexample", f"a play breaks muted-card-does-nothing (a card that does not act moves "
                                     f"something else, or a banned Jester is played from a hand holding other "
                                     f"cards): {where}")


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations, one per ruleset and invariant."""
    out = []
    for r in spec.rulesets:
        out.append(Obligation("banned-role", r, "proved", "the banned role is never the Marshal",
                              partial(_run, ruleset=r), FAMILY, ("banned-role",), needs=STRENGTHENING))
        out.append(Obligation("muted-card-does-nothing", r, "proved",
                              "a card that does not act only moves from hand to display, and a banned Jester is "
                              "played only from a hand of banned Jesters",
                              partial(_run_muted, ruleset=r), FAMILY, ("muted-card-does-nothing",),
                              needs=STRENGTHENING))
    return out
