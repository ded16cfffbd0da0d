"""The clause tests are complete: one test per rule-bearing clause of sources A and B.

Each rule-bearing clause has a test named after its id (``test_A_role_wizard`` for clause
``A.role.wizard``): source A's in tests/test_rules_by_clause_a.py, source B's in
tests/test_rules_by_clause_b.py, their helpers, positions and shared checks in
tests/clause_checks.py. :func:`test_every_rule_bearing_clause_has_a_test` keeps the list
complete (and names a test named after no clause); :func:`test_uncited_clauses_are_in_no_event`
keeps :data:`tests.clause_checks.NOT_IN_EVENTS` true.
"""

from __future__ import annotations

from palast.spec.load import Spec
from tests import test_rules_by_clause_a, test_rules_by_clause_b
from tests.clause_checks import EXCLUDED, NOT_IN_EVENTS, clause_test_name, clauses_in_recorded_games, rule_bearing

#: The modules that hold the clause tests, one per source.
CLAUSE_TEST_MODULES = (test_rules_by_clause_a, test_rules_by_clause_b)


def test_every_rule_bearing_clause_has_a_test(spec: Spec) -> None:
    modules = CLAUSE_TEST_MODULES
    assert set(EXCLUDED) <= set(spec.clauses), "an excluded id is not in the registry"
    cited = {c for r in spec.rules.values() for c in r.clauses}
    assert not set(EXCLUDED) & cited, "a rule cites an excluded clause: it is rule-bearing after all"
    missing = sorted(c for c in rule_bearing(spec)
                     if not any(callable(getattr(m, clause_test_name(c), None)) for m in modules))
    assert not missing, f"clauses without a test: {missing}"
    names = {clause_test_name(c) for c in spec.clauses}
    strays = [n for m in modules for n in dir(m) if n.startswith(("test_A_", "test_B_")) and n not in names]
    assert not strays, f"tests named after no clause: {strays}"
    assert set(NOT_IN_EVENTS) <= rule_bearing(spec)


def test_uncited_clauses_are_in_no_event(spec: Spec) -> None:
    """No event of a few recorded games cites a clause listed in :data:`NOT_IN_EVENTS`
    (if one starts to, its test should check that event instead)."""
    seen = clauses_in_recorded_games(spec)
    assert "A.end.whisper" in seen or "A.end.six" in seen  # the games did end rounds
    assert not seen & set(NOT_IN_EVENTS)
