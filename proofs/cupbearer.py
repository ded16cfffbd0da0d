"""Cupbearer swaps and repeated roles.

A swap never gives a player other than the actor a repeated role (role.cupbearer, under
every ruleset). Whether it may give the *actor* one is variation point
``cupbearer-actor-duplicate``: under the reading ``forbidden`` (sources A and the
reference) no swap does, which is proved; under ``whisper`` (source B's literal reading)
one can: that reading declares it breaks ``cupbearer-actor-repeat``
(spec/variation_points.yaml, ``breaks``), so the obligation expects the counterexample,
replayed by the engine and written as a scenario; the reachability question
cupbearer-actor-whisper (spec/invariants.yaml) shows it happens in a game from a real deal
too.
Clauses: A.role.courtesan, B.role.mundschenk, B.end.whisper.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import z3

from palast.engine.state import DecisionKind
from palast.spec.load import Spec
from proofs.encoding import ZState
from proofs.invariant import STRENGTHENING, Context, prove_step
from proofs.obligation import Obligation, Options, Outcome
from proofs.search import Unroller, counterexample

K = DecisionKind
FAMILY = "cupbearer"
#: the obligation that a swap never repeats a role in the actor's display
ACTOR_REPEAT = "cupbearer-actor-repeat"
COMMENT_CLAUSES = "Clauses: A.role.courtesan (83-86), B.role.mundschenk (69-72), B.end.whisper."


def repeats(s: ZState, seat: Any) -> Any:
    """(Symbolic) ``seat``'s display holds some role twice."""
    lay = s.lay
    return s.at_seat(seat, lambda q: z3.Or([s.role_in(lay.disp[q], r) >= 2 for r in range(lay.nroles)]))


def _others_safe(ctx: Context, kind: DecisionKind) -> Any:
    t, p = ctx.t, ctx.s["dp"]
    return z3.And([z3.Implies(p != q, z3.Not(repeats(t, q))) for q in range(ctx.lay.n)])


def _actor_safe(ctx: Context, kind: DecisionKind) -> Any:
    return z3.Not(repeats(ctx.t, ctx.s["dp"]))


def _run_others(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    ok, where = prove_step(spec, ruleset, (K.SWAP,), _others_safe)
    if ok:
        return Outcome("proved", f"no swap repeats a role in another player's display ({where})")
    return Outcome("counterexample", f"a swap repeats a role in another player's display: {where}")


def _run_actor(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    ok, where = prove_step(spec, ruleset, (K.SWAP,), _actor_safe)
    if ok:
        return Outcome("proved", f"no swap repeats a role in the actor's display ({where})")
    n = int(where.split()[0])

    def bad(u: Unroller, i: int) -> Any:
        s, t = u.state(i), u.state(i + 1)
        return z3.And(s["dk"] == z3.IntVal(list(DecisionKind).index(K.SWAP)), repeats(t, s["dp"]))

    return counterexample(
        spec, ruleset, n, bad, name=f"{ACTOR_REPEAT}.{ruleset}", out_dir=opts.out_dir,
        title="A Cupbearer swap repeats a role in the actor's display",
        question="May the player who played the Cupbearer swap so that their own display repeats a role?",
        comment=("Counterexample to 'no swap repeats a role in the actor's display', found by Z3 from a\n"
                 "position satisfying every proved invariant, replayed by the engine.\n"
                 f"Under {ruleset} the swap is legal (a reading it takes declares that it breaks\n"
                 f"{ACTOR_REPEAT}) and the round ends as the actor's whisper. {COMMENT_CLAUSES}"))


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations."""
    out = []
    for r in spec.rulesets:
        out.append(Obligation("cupbearer-protects-others", r, "proved",
                              "no Cupbearer swap repeats a role in a display other than the actor's",
                              partial(_run_others, ruleset=r), FAMILY, (), needs=STRENGTHENING))
        out.append(Obligation(ACTOR_REPEAT, r, "proved",
                              "no Cupbearer swap repeats a role in the actor's display",
                              partial(_run_actor, ruleset=r), FAMILY, (), needs=STRENGTHENING))
    return out
