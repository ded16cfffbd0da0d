"""Cupbearer swaps and repeated roles (invariants ``cupbearer-protects-others`` and
``cupbearer-actor-repeat``).

Both are step invariants declared in spec/invariants.yaml; this family proves each from
its declaration (:func:`proofs.step.prove_declared_step`, compiled by
:mod:`proofs.lang_z3`) over every action kind. A swap never gives a player other than the
actor a repeated role, under every ruleset. Whether it may give the *actor* one is variation
point ``cupbearer-actor-duplicate``: under the reading ``forbidden`` (source A and the
reference) no swap does, which is proved; under ``whisper`` (source B's literal reading)
one can: that reading declares it breaks ``cupbearer-actor-repeat``
(spec/variation_points.yaml, ``breaks``), so the obligation expects the counterexample,
found by Z3 from the declaration, replayed by the engine and written as a scenario; the
reachability question cupbearer-actor-whisper shows it happens in a game from a real deal
too.
Clauses: A.role.courtesan, B.role.mundschenk, B.end.whisper.
"""

from __future__ import annotations

from functools import partial

from palast.spec.load import Spec
from proofs.invariant import STRENGTHENING
from proofs.obligation import Obligation, Options, Outcome
from proofs.step import declared_step_counterexample, prove_declared_step

FAMILY = "cupbearer"
#: This family's invariants (spec/invariants.yaml), each proved by the obligation of its
#: name, with the obligation's summary.
INVARIANTS = {
    "cupbearer-protects-others": "no Cupbearer swap repeats a role in a display other than the actor's",
    "cupbearer-actor-repeat": "no Cupbearer swap repeats a role in the actor's display",
}


def _run(spec: Spec, opts: Options, ruleset: str, invariant: str) -> Outcome:
    ok, where = prove_declared_step(spec, ruleset, invariant)
    summary = INVARIANTS[invariant]
    if ok:
        return Outcome("proved", f"{summary}: every action ({where})")
    return declared_step_counterexample(spec, ruleset, invariant, where, summary, opts)


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations: one per ruleset and invariant of :data:`INVARIANTS`."""
    return [Obligation(invariant, r, "proved", summary, partial(_run, ruleset=r, invariant=invariant), FAMILY,
                       (invariant,), needs=STRENGTHENING)
            for r in spec.rulesets for invariant, summary in INVARIANTS.items()]
