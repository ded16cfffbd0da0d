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

**Actions.** Number the decisions a turn can wait for after its play by a *stage*
(:data:`STAGE`); every action taken at such a decision leads to a later stage or to the
next play (or ends the round). So a play is followed by at most ``max(STAGE)`` further
actions, and a round has at most ``(1 + max(STAGE)) × (six × players) + 1`` actions after
its deal.
Clauses: A.role.captain, B.role.waechter, A.end.six, B.end.six.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import z3

from palast.engine.state import DecisionKind
from palast.spec import Spec
from proofs.encoding import ZState, code, total
from proofs.invariant import (
    STRENGTHENING,
    Context,
    in_round,
    player_counts,
    prove_invariant,
    prove_step,
    role_on_table,
    role_with_action,
)
from proofs.lang_z3 import declared
from proofs.obligation import Obligation, Options, Outcome
from proofs.transition import ACTION_KINDS, SUB_DECISIONS

K = DecisionKind
FAMILY = "termination"
#: The stage of each decision a turn can wait for after its play.
STAGE: dict[DecisionKind, int] = {
    K.EXCHANGE_PARTNER: 1, K.EXCHANGE_COUNT: 2, K.EXCHANGE_GIVE: 3, K.EXCHANGE_ANSWER: 4,
    K.DISCARD: 1, K.DRAW: 2, K.SWAP: 1, K.TAKE_BACK: 1, K.REVEAL: 1, K.NEXT_PLAYER: 5,
}


def progress(s: ZState) -> Any:
    """Cards displayed + Guards displayed - a pending take-back."""
    lay = s.lay
    guard = role_with_action(lay, "take-back")
    cards = total(s.zone_size(z) for z in lay.disp)
    return cards + role_on_table(s, guard) - z3.If(s["dk"] == code(K.TAKE_BACK), 1, 0)


def plays(s: ZState) -> Any:
    """Cards played this round by all players."""
    return total(s[f"pl{p}"] for p in range(s.lay.n))


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
    ok, where = prove_step(spec, ruleset, (K.PLAY,), lambda ctx, kind: z3.Implies(
        in_round(ctx.s), plays(ctx.s) <= ctx.lay.six * ctx.lay.n))
    if not ok:
        return Outcome("counterexample", f"progress exceeds six x players: {where}")
    bounds = ", ".join(f"{n} players: {play_bound(n, spec.six)}" for n in player_counts(spec))
    return Outcome("proved", f"plays per round <= six x players + 1 ({bounds})")


def _stage(ctx: Context, kind: DecisionKind) -> Any:
    t = ctx.t
    later = z3.Or([t["dk"] == code(k) for k, st in STAGE.items() if st > STAGE[kind]])
    return z3.Or(later, t["dk"] == code(K.PLAY), t["dk"] == code(K.DEAL), t["dk"] == code(K.GAME_OVER),
                 t["dk"] == code(K.GAP))


def _run_actions(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    ok, where = prove_step(spec, ruleset, SUB_DECISIONS, _stage)
    if not ok:
        return Outcome("counterexample", f"an action does not move to a later stage: {where}")
    per_play = 1 + max(STAGE.values())
    bounds = ", ".join(f"{n} players: {per_play * spec.six * n + 1}" for n in player_counts(spec))
    return Outcome("proved", f"at most {per_play} actions per play; actions per round after the deal <= {bounds}")


def _run_progress(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    ok, where = prove_step(spec, ruleset, ACTION_KINDS,
                           lambda ctx, kind: declared(ctx.t, "round-progress", ctx.s))
    if ok:
        return Outcome("proved", f"every action of every kind ({where})")
    return Outcome("counterexample", f"the measure changes otherwise: {where}")


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations, one per ruleset."""
    out = []
    for r in spec.rulesets:
        out.append(Obligation("round-is-bounded", r, "proved",
                              "a round ends after at most six x players + 1 plays (ranking: cards + Guards displayed)",
                              partial(_run_plays, ruleset=r), FAMILY, ("round-is-bounded",),
                              needs=STRENGTHENING))
        out.append(Obligation("round-progress", r, "proved",
                              "a play raises cards + Guards displayed, a take-back lowers it by one, nothing else "
                              "in a round changes it",
                              partial(_run_progress, ruleset=r), FAMILY, ("round-progress",), needs=STRENGTHENING))
        out.append(Obligation("round-actions-bounded", r, "proved",
                              "a play is followed by at most five more actions before the next play",
                              partial(_run_actions, ruleset=r), FAMILY, (), needs=STRENGTHENING))
    return out
