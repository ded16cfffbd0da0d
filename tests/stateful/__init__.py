"""Helpers of the Hypothesis stateful verification (tests/test_stateful.py,
tests/test_live_invariants.py): machine configurations, the state machine, generated
positions, broken engine variants and the ledger of what the machines exercised."""
