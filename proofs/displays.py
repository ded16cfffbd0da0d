"""Displays (invariants ``no-repeated-role``, ``display-below-six`` and ``round-end-cause``).

No display holds a role twice, except the whisperer's once the round has ended by a
whisper; while a round runs no display holds six cards (``spec/game.yaml`` ``six``); a
round that ended shows its cause in the ender's display (a repeated role after a whisper
that was not forced, six different roles after six).
Clauses: A.goal, A.end.whisper, A.end.six, A.role.courtesan, A.king.jester, B.end.whisper,
B.end.six, B.role.mundschenk.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from palast.spec.load import Spec
from proofs.declared_z3 import declared
from proofs.encoding import ZState
from proofs.invariant import STRENGTHENING, prove_invariant
from proofs.obligation import Obligation, Options, Outcome

FAMILY = "displays"


def no_repeat(s: ZState) -> Any:
    """no-repeated-role, compiled from its declaration (:mod:`proofs.lang_z3`)."""
    return declared(s, "no-repeated-role")


def below_six(s: ZState) -> Any:
    """display-below-six, compiled from its declaration (:mod:`proofs.lang_z3`)."""
    return declared(s, "display-below-six")


def _run(spec: Spec, opts: Options, ruleset: str, prop: str) -> Outcome:
    def holds(s: ZState) -> Any:
        return declared(s, prop)

    return prove_invariant(spec, ruleset, holds, name=prop, out_dir=opts.out_dir)


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations, one per ruleset and invariant."""
    out = []
    for r in spec.rulesets:
        out.append(Obligation("no-repeated-role", r, "proved",
                              "no display repeats a role except the whisperer's after the round ended",
                              partial(_run, ruleset=r, prop="no-repeated-role"), FAMILY,
                              ("no-repeated-role",),
                              needs=STRENGTHENING))
        out.append(Obligation("display-below-six", r, "proved",
                              "while a round runs no display holds six cards",
                              partial(_run, ruleset=r, prop="display-below-six"), FAMILY,
                              ("display-below-six",),
                              needs=STRENGTHENING))
        out.append(Obligation("round-end-cause", r, "proved",
                              "a round that ended shows its cause in the ender's display",
                              partial(_run, ruleset=r, prop="round-end-cause"), FAMILY,
                              ("round-end-cause",),
                              needs=STRENGTHENING))
    return out
