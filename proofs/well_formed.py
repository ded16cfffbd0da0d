"""What obligation decisions-well-formed proves, as a Z3 term on a position: the lemma
declared in ``spec/invariants.yaml`` with what the rule language does not speak of (the
encoding's own fields, the cards a pending decision keeps). The strengthening of
:mod:`proofs.invariant` holds it, and the prover's rest case assumes it.
"""

from __future__ import annotations

from typing import Any

import z3

from palast.engine.state import DecisionKind
from proofs.declared_z3 import declared
from proofs.encoding import ZState
from proofs.kept import kept_facts, legality_of

K = DecisionKind
#: The lemma (spec/invariants.yaml) whose obligation proves :func:`well_formed`.
FORMED = "decisions-well-formed"


def kept_formed(s: ZState) -> Any:
    """The part of :func:`well_formed` about the cards a pending decision keeps
    (:func:`proofs.kept.kept_facts` of field ``given``): they are among the cards its rule
    offered, and none where no decision keeps cards (role.wizard: the cards given lie in
    the giver's hand until the partner answers)."""
    return z3.And(kept_facts(legality_of(s.lay), s, ("given",)))


def well_formed(s: ZState) -> Any:
    """decisions-well-formed: the lemma as declared in spec/invariants.yaml (under
    player-can-act: who decides, the card just played and where it lies, scores below the
    target while play goes on, ...), compiled by :mod:`proofs.lang_z3`, with what the rule
    language does not speak of:

    * the encoding's own fields: the decision and round-end codes in range, the gap field
      set only at a gap, the site of the pending decision one of its decision's, a forced
      whisper marked only once a round ended, no winner
      before the game is over;
    * what a pending decision keeps (:func:`proofs.kept.kept_facts`, derived from the
      declared ``choose`` statements) and, for each statement of a role's rule that waits
      for a decision (the Maid's draw; under the fan module the Healer's too, a Jester's
      rule: which one is pending is the position's ``site``), that the card just played has
      that role.

    At the role level the lemma's ``colours`` part (a next-player decision follows a
    neutral card) is left out (:func:`proofs.declared_z3.declared`)."""
    lay = s.lay
    n = lay.n
    dk = s["dk"]
    last = s["card"]
    roles = list(lay.game.spec.roles)
    parts = [
        declared(s, FORMED),
        dk >= 0, dk < len(lay.decisions),
        z3.Or(s["rk"] == 0, s["rk"] == 1, s["rk"] == 2),
        z3.Implies(s["rk"] == 0, z3.Not(s["rforced"])),
        z3.Implies(dk != lay.code(K.GAME_OVER), z3.And(z3.Not(s["shared"]), *[z3.Not(s[f"win{p}"]) for p in range(n)])),
        *kept_facts(legality_of(lay), s),
        z3.Implies(dk != lay.code(K.GAP), s["gap"] == -1),
    ]
    if lay.site_field:  # which statement opened the pending decision: one of its decision's
        for kind in lay.decisions:
            count = len(lay.sites.get(kind, ()))
            site = s["site"]
            parts.append(z3.Implies(dk == lay.code(kind),
                                    site == -1 if count <= 1 else z3.And(site >= 0, site < count)))
    legality = legality_of(lay)
    for kind in lay.decisions:  # a decision a role's rule waits for follows a card of that role
        for site, w in legality.sites(kind, any_step=True):
            role = next((r.role for r in w.chain if r.role), None)
            if role is not None:
                parts.append(z3.Implies(z3.And(dk == lay.code(kind), legality.at_site(s, site)),
                                        s.role_is(last, roles.index(role))))
    return z3.And(parts)
