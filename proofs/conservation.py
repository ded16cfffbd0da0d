"""Card conservation (invariant ``card-conservation``).

Every card of the game is in exactly one zone, with the multiplicity the spec gives
(``game.composition``: one card of each role per seated colour, two neutral cards per
role); each King card is in exactly one of the King deck, the spent King cards and the
card in force, and the banned role is the role of a King card or none.
Clauses: A.setup.deck, A.setup.box, A.setup.king, B.setup.deck, B.setup.king.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import z3

from palast.spec.load import Spec
from proofs.declared_z3 import declared
from proofs.encoding import ZState
from proofs.invariant import card_level_needs, formed_assumed, prove_invariant
from proofs.obligation import Obligation, Options, Outcome
from proofs.well_formed import kept_formed

FAMILY = "conservation"


def conserved(s: ZState) -> Any:
    """card-conservation as declared in spec/invariants.yaml, with its lemma
    counts-are-whole (both compiled from their expressions by :mod:`proofs.lang_z3`)."""
    return z3.And(declared(s, "card-conservation"), declared(s, "counts-are-whole"))


#: The assumption of each position term, built once: the prover asks for it once per seat
#: case, and building the card-level sums is most of the Python time of the proof.
_ASSUMED: dict[int, tuple[ZState, Any]] = {}


def _assumed(s: ZState) -> Any:
    """:func:`conserved` and :func:`proofs.well_formed.kept_formed` of ``s`` (cached per term)."""
    got = _ASSUMED.get(id(s))
    if got is None or got[0] is not s:
        got = _ASSUMED[id(s)] = (s, z3.And(conserved(s), kept_formed(s)))
    return got[1]


def _run(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    # card level: every card of every colour is accounted for. Conservation needs of the
    # other invariants only that a pending Wizard answer is well formed (kept_formed, proved
    # by decisions-well-formed.colours), which is not assumed where the ruleset leaves that
    # lemma out of its strengthening (formed_assumed)
    return prove_invariant(spec, ruleset, conserved, level="card", name="card-conservation", out_dir=opts.out_dir,
                           assume=_assumed if formed_assumed(spec, ruleset) else conserved)


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations, one per ruleset."""
    return [Obligation("card-conservation", r, "proved",
                       "every card and every King card is in exactly one place, in every position of every game",
                       partial(_run, ruleset=r), FAMILY, ("card-conservation",),
                       needs=card_level_needs(spec), cost=20.0)
            for r in spec.rulesets]
