"""Displays (invariants ``no-repeated-role`` and ``display-below-six``).

No display holds a role twice, except the whisperer's once the round has ended by a
whisper; while a round runs no display holds six cards (``spec/game.yaml`` ``six``).
Clauses: A.goal, A.end.whisper, A.end.six, A.role.courtesan, B.end.whisper, B.end.six,
B.role.mundschenk.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import z3

from palast.spec import Spec
from proofs.encoding import ZState
from proofs.invariant import STRENGTHENING, in_round, prove_invariant
from proofs.obligation import Obligation, Options, Outcome
from proofs.transition import WHISPER

FAMILY = "displays"


def no_repeat(s: ZState) -> Any:
    """Every display holds each role at most once, but the whisperer's after a whisper."""
    lay = s.lay
    parts = []
    for p in range(lay.n):
        whisperer = z3.And(s["rk"] == WHISPER, s["rp"] == p)
        parts += [z3.Or(s.role_in(lay.disp[p], r) <= 1, whisperer) for r in range(lay.nroles)]
    return z3.And(parts)


def below_six(s: ZState) -> Any:
    """While a round runs, every display holds fewer cards than the six."""
    lay = s.lay
    return z3.Implies(in_round(s), z3.And([s.zone_size(lay.disp[p]) < lay.six for p in range(lay.n)]))


def _run(spec: Spec, opts: Options, ruleset: str, prop: str) -> Outcome:
    return prove_invariant(spec, ruleset, no_repeat if prop == "no-repeated-role" else below_six, name=prop,
                           out_dir=opts.out_dir)


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
    return out
