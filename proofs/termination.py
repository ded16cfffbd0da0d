"""Round termination (invariant ``round-is-bounded``) and a bound on actions per round.

**Plays.** Let *progress* be the number of cards in all displays plus the number of
displayed cards whose role's action is a take-back (Guards), minus one while a Guard's
take-back is pending. Every play that does not end the round raises progress by at least
one (a card enters a display; a Guard adds a Guard, and its take-back removes a card it
already paid for), no other action lowers it (a Cupbearer swap moves cards between
displays; Wizard and Maid touch hands), and a deal sets it and the plays to zero. So
*plays this round ≤ progress* is inductive. Progress is at most ``players × six`` inside
a round, because no display holds six cards (``display-below-six``) or a role twice
(``no-repeated-role``). Hence a round ends after at most ``six × players + 1`` plays.

**Actions.** Every action moves along the turn's declared state machine
(``spec/flow.yaml`` with the roles' choices; invariant ``turn-is-bounded``, compiled from
its declaration), and no decision within a turn comes back (``palast spec check`` refuses a
cycle). So a turn has at most ``T`` actions, ``T`` the longest chain of decisions from a
play (:meth:`palast.spec.flow.Flow.turn_actions_max`), and a round has at most
``T × (six × players + 1)`` actions after its deal.
Clauses: A.role.captain, B.role.waechter, A.end.six, B.end.six.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import z3

from palast.engine.state import DecisionKind
from palast.spec.load import Spec
from proofs.declared_z3 import declared
from proofs.encoding import ZState
from proofs.invariant import (
    STRENGTHENING,
    in_round,
    player_counts,
    prove_invariant,
)
from proofs.obligation import Obligation, Options, Outcome
from proofs.step import declared_step_counterexample, prove_declared_step, prove_step
from proofs.terms import total

K = DecisionKind
FAMILY = "termination"
#: What obligation round-progress states.
PROGRESS = ("a play raises cards + Guards displayed, a take-back lowers it by one, nothing else in a round "
            "changes it")

def plays(s: ZState) -> Any:
    """Cards played this round by all players."""
    return total(s[f"played{p}"] for p in range(s.lay.n))


def play_bound(n: int, six: int) -> int:
    """The bound on plays in a round of ``n`` players."""
    return six * n + 1


def plays_bounded(s: ZState) -> Any:
    """round-is-bounded with its lemma plays-within-progress, compiled from their
    declarations (:mod:`proofs.lang_z3`)."""
    return z3.And(declared(s, "plays-within-progress"), declared(s, "round-is-bounded"))


def _run_plays(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    # a counterexample is searched at the card level unless a stored one is replayed instead
    out = prove_invariant(spec, ruleset, plays_bounded, name="" if opts.stored_counterexample else "round-is-bounded",
                          out_dir=opts.out_dir)
    if out.result != "proved":
        return out
    # the bound itself: inside a round progress ≤ six × players, so plays ≤ six × players
    # (assuming what was just proved, which the strengthening leaves out where it is refuted)
    ok, where = prove_step(spec, ruleset, (K.PLAY,), lambda ctx, kind: z3.Implies(
        z3.And(in_round(ctx.s), plays_bounded(ctx.s)), plays(ctx.s) <= ctx.lay.six * ctx.lay.n))
    if not ok:
        return Outcome("counterexample", f"progress exceeds six × players: {where}")
    bounds = ", ".join(f"{n} players: {play_bound(n, spec.six)}" for n in player_counts(spec))
    return Outcome("proved", f"plays per round <= six × players + 1 ({bounds})")


def _run_actions(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    ok, where = prove_declared_step(spec, ruleset, "turn-is-bounded")
    if not ok:
        return Outcome("counterexample", f"an action leaves the declared flow: {where}")
    per_turn = spec.flow.turn_actions_max()
    bounds = ", ".join(f"{n} players: {per_turn * play_bound(n, spec.six)}" for n in player_counts(spec))
    return Outcome("proved", f"every action follows the declared flow; at most {per_turn} actions per turn; "
                             f"actions per round after the deal <= {bounds}")


def _run_progress(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    ok, where = prove_declared_step(spec, ruleset, "round-progress")
    if ok:
        return Outcome("proved", f"every action of every kind ({where})")
    # the measure changes otherwise than declared: Z3's counterexample, replayed by the engine
    return declared_step_counterexample(spec, ruleset, "round-progress", where, PROGRESS, opts)


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations, one per ruleset."""
    out = []
    for r in spec.rulesets:
        out.append(Obligation("round-is-bounded", r, "proved",
                              "a round ends after at most six × players + 1 plays (ranking: cards + Guards displayed)",
                              partial(_run_plays, ruleset=r), FAMILY, ("round-is-bounded",),
                              needs=STRENGTHENING))
        out.append(Obligation("round-progress", r, "proved", PROGRESS,
                              partial(_run_progress, ruleset=r), FAMILY, ("round-progress",), needs=STRENGTHENING))
        out.append(Obligation("round-actions-bounded", r, "proved",
                              "every action follows the declared turn flow, so a turn has a bounded number of actions",
                              partial(_run_actions, ruleset=r), FAMILY, ("turn-is-bounded",),
                              needs=STRENGTHENING))
    return out
