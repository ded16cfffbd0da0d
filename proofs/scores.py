"""Scores (invariants ``scores-rise-slowly`` and ``game-ends-at-target``).

Scores never fall; an action changes them only when it ends a round, and then raises
each player's score by at most one: every player but the whisperer after a whisper, only
the player after six. The game is over exactly when a score has reached the target for
the player count (``spec/game.yaml`` ``targets``), or play stopped at a gap of the game's
end.
Clauses: A.end.whisper, A.end.six, B.end.whisper, B.end.six, A.gameend.target, B.gameend.target.
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

K = DecisionKind
FAMILY = "scores"


def over_at_target(s: ZState) -> Any:
    """game-ends-at-target, compiled from its declaration (:mod:`proofs.lang_z3`)."""
    return declared(s, "game-ends-at-target")


def _run_rise(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    ok, where = prove_declared_step(spec, ruleset, "scores-rise-slowly")
    if ok:
        return Outcome("proved", f"every action of every kind ({where})")
    return Outcome("counterexample", f"scores change otherwise: {where}")


def _run_target(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    return prove_invariant(spec, ruleset, over_at_target, name="game-ends-at-target", out_dir=opts.out_dir)


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations, one per ruleset and invariant."""
    out = []
    for r in spec.rulesets:
        out.append(Obligation("scores-rise-slowly", r, "proved",
                              "scores change only at a round end, by one for exactly its scorers",
                              partial(_run_rise, ruleset=r), FAMILY, ("scores-rise-slowly",),
                              needs=STRENGTHENING))
        out.append(Obligation("game-ends-at-target", r, "proved",
                              "the game is over exactly when a score has reached the target",
                              partial(_run_target, ruleset=r), FAMILY,
                              ("game-ends-at-target",), needs=STRENGTHENING))
    return out
