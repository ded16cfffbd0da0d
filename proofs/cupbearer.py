"""Cupbearer swaps and repeated roles.

A swap never gives a player other than the actor a repeated role (role.cupbearer, under
every ruleset). Whether it may give the *actor* one is variation point
``cupbearer-actor-duplicate``: under the reading ``forbidden`` (sources A and the
reference) no swap does, which is proved; under ``whisper`` (source B's literal reading)
one can: that reading declares it breaks ``cupbearer-actor-repeat``
(spec/variation_points.yaml, ``breaks``), so the obligation expects the counterexample,
replayed by the engine and written as a scenario; a witness shows it happens in a game
from a real deal too.
Clauses: A.role.courtesan, B.role.mundschenk, B.end.whisper.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import z3

from palast.engine import Game, Step
from palast.engine.state import DecisionKind
from palast.spec.load import Spec
from proofs.encoding import ZState, code
from proofs.invariant import STRENGTHENING, Context, prove_step
from proofs.obligation import Obligation, Options, Outcome
from proofs.search import Unroller, counterexample
from proofs.witness import Question, verify

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


def _whisper_check(game: Game, steps: list[Step]) -> str | None:
    last = steps[-1]
    swaps = [e for e in last.events if e.kind == "cards_swapped"]
    ends = [e for e in last.events if e.kind == "round_ended" and e.detail == "whisper"]
    if not swaps or not ends or ends[0].player != swaps[0].player:
        return "its last action is not a swap that ends the round as the actor's whisper"
    actor = swaps[0].player
    roles = [game.cards.role_of(c) for c in last.state.displays[actor]]
    if len(set(roles)) == len(roles):
        return "the actor's display does not repeat a role"
    return None


def actor_whisper_question() -> Question:
    """From a real deal, a swap that gives the actor a repeated role (source B's reading)."""
    return Question(
        name="cupbearer-actor-whisper", title="A swap that makes the actor whisper",
        question="Can a Cupbearer swap give its own player a repeated role in a game from a real deal?",
        comment=("Witness found by Z3 (bounded model checking from the deal) and replayed by the engine.\n"
                 "Under source-b the actor may swap a card that repeats a role in their own display; the\n"
                 f"round ends at once as their whisper. {COMMENT_CLAUSES}"),
        ruleset="source-b", rulesets=("source-b",), players=3,
        goal=swap_ends_round, engine_check=_whisper_check, max_steps=6)


def swap_ends_round(u: Unroller, i: int) -> Any:
    """Step ``i`` is a swap that ends the round: a whisper, the only round end a swap can
    cause (the actor's display repeats a role; role.cupbearer under cupbearer-actor-duplicate)."""
    return z3.And(u.state(i)["dk"] == code(K.SWAP), u.flag(i, "whisper"))


def _verify(spec: Spec, opts: Options, question: Question, ruleset: str) -> Outcome:
    # the stored witness, or the one --search just wrote to the output directory
    return verify(spec, question, ruleset, opts.out_dir if opts.search else None)


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
    q = actor_whisper_question()
    for r in q.rulesets:
        out.append(Obligation(q.name, r, "witness", q.question,
                              partial(_verify, question=q, ruleset=r), FAMILY, ()))
    return out
