"""Step proofs: a claim about single actions (each action from a position satisfying the
strengthening, or the part of it some obligations prove, satisfies the claim), checked
action kind by action kind at every player count in the proof contexts of
:mod:`proofs.invariant`; and the same for a declared step invariant of
``spec/invariants.yaml``, compiled to Z3 by :mod:`proofs.lang_z3`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from palast.spec.load import Spec
from proofs.invariant import Context, context, player_counts
from proofs.obligation import Options, Outcome


class NotFromAssumed(Exception):
    """A step claim proved from part of the strengthening (:func:`prove_step`'s ``assumes``)
    follows only from the whole of it: the obligation, which rests on that part alone,
    fails (with this error) rather than pass on conjuncts it does not name."""


def prove_step(spec: Spec, ruleset: str, kinds: tuple[str, ...] | None,
               claim: Callable[[Context, str], Any], *, level: str = "role",
               assumes: tuple[str, ...] | None = None) -> tuple[bool, str]:
    """Check a claim about single actions: for every player count and every action of
    ``kinds`` (``None``: every kind an action answers) from a position satisfying the
    strengthening, ``claim(ctx, kind)`` (a formula over ``ctx.s``, ``ctx.label``,
    ``ctx.t``) holds.

    :param assumes: prove it from just the conjuncts of the strengthening these
        obligations prove (:meth:`Context.hypothesis`), which makes each check smaller
        (proving it from less is proving it all the same); the obligation then rests on
        those alone (its ``needs``). An action kind for which that finds a breaking action
        is asked again from the whole strengthening: where that finds one too, the claim
        fails as without ``assumes``; where it does not, :class:`NotFromAssumed`.
    :returns: ``(True, summary)``, the summary naming the player counts and the level the
        proof ran at (:meth:`~proofs.encoding.Layout.describe`: ``"3, 4, 5 players, role
        level"``), or ``(False, where it fails)`` (``"5 players, play"``).
    :raises Unknown: if a check is undecided.
    :raises NotFromAssumed: where the claim follows from the whole strengthening but not
        from the conjuncts ``assumes`` names.
    """
    hard: set[tuple[str, int]] = set()  # checks a smaller game split or nearly had to (Context.breaks)
    levels: list[str] = []
    for n in player_counts(spec):
        ctx = context(spec, ruleset, n, level)
        if ctx.lay.describe() not in levels:
            levels.append(ctx.lay.describe())
        for kind in ctx.kinds if kinds is None else kinds:
            broken = z3.Not(claim(ctx, kind))
            if ctx.breaks(kind, broken, hard=hard, only=assumes):
                if assumes is not None and not ctx.breaks(kind, broken):
                    raise NotFromAssumed(
                        f"{failed_at(n, kind)}: the claim follows from the whole strengthening but not from what "
                        f"{', '.join(assumes)} prove(s), which is all the proof assumes: assume more")
                return False, failed_at(n, kind)
    return True, f"{', '.join(map(str, player_counts(spec)))} players, {'; '.join(levels)}"


def failed_at(n: int, kind: str) -> str:
    """Where :func:`prove_step` says a claim fails: ``"5 players, play"``."""
    return f"{n} players, {kind}"


def failing_step(where: str) -> tuple[int, str]:
    """The player count and action kind of a :func:`failed_at` text.

    :raises ValueError: for a text :func:`failed_at` did not write.
    """
    players, sep, kind = where.partition(" players, ")
    if not sep or not players.isdigit() or not kind:
        raise ValueError(f"not where a step claim fails: {where!r}")
    return int(players), kind


def prove_declared_step(spec: Spec, ruleset: str, invariant: str, kinds: tuple[str, ...] | None = None,
                        *, level: str = "role", assumes: tuple[str, ...] | None = None) -> tuple[bool, str]:
    """:func:`prove_step` of the declared step invariant ``invariant`` (its ``holds`` in
    spec/invariants.yaml compiled to Z3 by :mod:`proofs.lang_z3`) over the actions of
    ``kinds`` (``None``: every kind), from the conjuncts of the strengthening that
    ``assumes`` names (default: all).

    :returns: ``(True, summary)`` or ``(False, where it fails)``.
    :raises Unknown: if a check is undecided.
    :raises NotFromAssumed: where the claim follows from the whole strengthening but not
        from the conjuncts ``assumes`` names.
    """
    from proofs.declared_z3 import declared

    return prove_step(spec, ruleset, kinds, lambda ctx, kind: declared(ctx.t, invariant, ctx.s), level=level,
                      assumes=assumes)


def declared_step_counterexample(spec: Spec, ruleset: str, invariant: str, where: str, summary: str,
                                 opts: Options) -> Outcome:
    """The counterexample to the declared step invariant ``invariant`` that
    :func:`prove_declared_step` found failing at ``where`` (:func:`failed_at`: ``"3 players,
    take-back"``):
    searched by Z3 at that player count, replayed by the engine and written as the
    scenario ``INVARIANT.RULESET.yaml`` in ``opts.out_dir`` (:func:`proofs.search.counterexample`,
    which keeps a stored one that still shows it). Its comment names ``summary`` and the
    reasons of the readings the ruleset takes that declare they break it. Where
    ``opts.stored_counterexample`` says a stored scenario is replayed instead (a named
    house ruleset's, :mod:`proofs.house_rulesets`), nothing is searched or written.

    :returns: ``counterexample`` with the scenario file (none with
        ``opts.stored_counterexample``), or ``error`` as :func:`proofs.search.counterexample`
        gives it.
    :raises Unknown: if a check is undecided.
    """
    import textwrap

    from proofs.declared_z3 import declared
    from proofs.obligation import broken_by_readings
    from proofs.search import Unroller, counterexample

    n, kind = failing_step(where)
    if opts.stored_counterexample:
        return Outcome("counterexample", f"{n} players: a {kind} action breaks it")

    def bad(u: Unroller, i: int) -> Any:
        return z3.Not(declared(u.state(i + 1), invariant, u.state(i)))

    why = "".join(f" Reading {b.reading} of {b.point} declares that it breaks {invariant}: "
                  f"{' '.join(b.because.split())}" for b in broken_by_readings(spec, ruleset).get(invariant, ()))
    return counterexample(
        spec, ruleset, n, bad, name=f"{invariant}.{ruleset}", out_dir=opts.out_dir,
        title=f"Counterexample to {invariant}",
        question=f"Does {invariant} hold after every action?",
        comment="\n".join(textwrap.wrap(
            f"Counterexample to the step invariant {invariant} ({summary}) under {ruleset}, found by Z3 from a "
            f"position satisfying every proved invariant and replayed by the engine.{why} "
            f"Clauses: {spec.cite(spec.invariants[invariant].clauses)}.")),
        where=f"a {kind} action breaks it")
