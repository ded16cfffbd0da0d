"""The Z3 side of palast: an encoding of positions and of one transition per action kind,
built from ``spec/`` through a :class:`~palast.engine.Game`, and the proof obligations
that ``palast prove`` runs.

* :mod:`proofs.encoding` — what the encoding tracks (:class:`~proofs.encoding.Layout`)
  and the symbolic positions it works on;
* :mod:`proofs.transition` — the transition relation, written after the engine's code;
* :mod:`proofs.concrete` — engine states and actions to Z3 values and back;
* :mod:`proofs.obligation` — obligations, results, solver settings (timeout, seed);
* one module per family of obligations: :mod:`proofs.conservation`,
  :mod:`proofs.hand_display`, :mod:`proofs.displays`, :mod:`proofs.king`,
  :mod:`proofs.cupbearer`, :mod:`proofs.termination`, :mod:`proofs.reachability`,
  :mod:`proofs.differential`;
* :mod:`proofs.runner` — collects and runs them.

z3 is imported by these modules only; ``palast`` itself never imports ``proofs``.
"""
