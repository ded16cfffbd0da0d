"""The Z3 side of palast: an encoding of positions and of one transition per action kind,
built from ``spec/`` through a :class:`~palast.engine.Game`, and the proof obligations
that ``palast prove`` runs.

Shared machinery:

* :mod:`proofs.encoding` — what the encoding tracks (:class:`~proofs.encoding.Layout`,
  the abstraction) and symbolic positions;
* :mod:`proofs.legality` — which actions are legal (the legality half of the relation;
  every decision's options compiled from their declarations);
* :mod:`proofs.shapes` — what an action's parameters (a label) carry, for each decision,
  read from its declared options (:func:`proofs.legality.shapes` per layout);
* :mod:`proofs.transition` — the transition relation, compiled from the declarations;
* :mod:`proofs.lang_z3` — the rule language's expressions compiled to Z3 (invariants,
  lemmas, declared options), with its values in :mod:`proofs.z3_values`; the declared
  invariants and lemmas as Z3 terms on a position in :mod:`proofs.declared_z3`;
* :mod:`proofs.concrete` — engine states and actions to Z3 values and back, scenarios;
* :mod:`proofs.obligation` — obligations, outcomes, solver settings (timeout, seed);
* :mod:`proofs.invariant` — proof contexts, the strengthening, the inductive prover;
* :mod:`proofs.step` — proofs of claims about single actions (the step invariants);
* :mod:`proofs.well_formed` — what obligation decisions-well-formed proves, on a position;
* :mod:`proofs.search` — paths found by Z3 (bounded model checking), replayed by the
  engine; counterexamples as scenarios;
* :mod:`proofs.witness` — stored witnesses of reachability questions: search, replay, Z3
  check (the questions themselves are declared in ``spec/invariants.yaml``);
* :mod:`proofs.runner` — collects and runs every family's obligations;
* :mod:`proofs.coverage` — which rules a compared position fires, and the differential
  check's coverage per rule;
* :mod:`proofs.explain` — what an obligation states, in words (``palast prove --explain``).

One module per family of obligations: :mod:`proofs.conservation`, :mod:`proofs.king`,
:mod:`proofs.hand_display`, :mod:`proofs.displays`, :mod:`proofs.scores`,
:mod:`proofs.termination`, :mod:`proofs.can_act`, :mod:`proofs.cupbearer`,
:mod:`proofs.reachability`, :mod:`proofs.differential` (and the well-formedness conjunct
in :mod:`proofs.invariant`). :mod:`proofs.mutation` is a diagnosis run by hand: which
wrong readings of a variation point the differential check would notice.

**Engine parameters in the encoding.** Every parameter of ``palast/engine/params.py`` is
read by the transition (a test checks this): the encoding follows each reading the engine
implements and stops at the gap where a ruleset leaves the point open. Three points are
encoded but never reached from a real deal, as obligations prove: no-card-to-play and
action-impossible (``empty-hand``) and maid-empty-deck (``maid-empty-deck``); so no
comparison with the engine can exercise them. One reading is outside the encoding: a
Maid's discard put under the draw deck (reading ``under-deck`` of
maid-discard-destination, which no ruleset takes) lies at a known place in the engine's
deck (drawn at once if the deck was empty; below the cards of unknown order otherwise, so
not drawn next), while the encoding keeps only which cards a deck holds: it waits for a
draw and lets any card of the deck be drawn, that one too; so ``palast prove`` refuses a
house ruleset that takes this reading (:func:`proofs.places_z3.unordered_readings`).

Witness and counterexample scenarios live in ``proofs/witnesses/``.
z3 is imported by these modules only; ``palast`` itself never imports ``proofs``
(``palast prove`` imports it when it runs).
"""
