"""Which tests establish each invariant of ``spec/invariants.yaml``: the registry the book's
invariants page reads (``docs/_ext/palast_book/register.py``, without importing this
module: it reads the two tables below as literals) and that
``tests/test_invariant_registry.py`` verifies: every invariant has at least one test that
shows its check can fail, every named test is one pytest collects, and every broken engine
of ``tests/stateful/mutants.py`` is listed under the invariant it trips.

Entries are pytest node ids relative to the repository; a parametrized test is named with
its parameter id in brackets (``...[GuardTakesItselfBack]``) or without it for all of them.
The proof obligations are not listed here: each obligation names the invariants it proves
(``proofs/``), and ``spec/invariants.yaml`` says the same (``established_by.proved_by``,
checked by ``tests/test_proofs.py``).
"""

from __future__ import annotations

#: Tests that play games and check every invariant after every action.
EVERY_INVARIANT: tuple[str, ...] = (
    "tests/test_stateful.py::test_real_deals",
    "tests/test_stateful.py::test_generated_positions",
    "tests/test_stateful.py::test_scenario_starts",
    "tests/test_stateful.py::test_synthetic_readings",
    "tests/test_random_games.py::test_random_games_keep_every_invariant",
)

#: Invariant id -> the tests that show its check is live: a broken engine it catches in
#: play, or a corrupted position or action it reports.
CAUGHT_BY: dict[str, tuple[str, ...]] = {
    "card-conservation": ("tests/test_random_games.py::test_invariant_checking_is_live",),
    "hand-plus-display": (
        "tests/test_live_invariants.py::test_broken_engine_is_caught_by_its_invariant[MaidDoesNotDraw]",
    ),
    "no-repeated-role": (
        "tests/test_live_invariants.py::test_broken_engine_is_caught_by_its_invariant[SwapIgnoresDuplicates]",
    ),
    "display-below-six": (
        "tests/test_invariant_registry.py::test_check_reports_a_corrupted_position[display-below-six]",
    ),
    "banned-role": (
        "tests/test_live_invariants.py::test_broken_engine_is_caught_by_its_invariant[MarshalCanBeBanned]",
    ),
    "scores-rise-slowly": (
        "tests/test_live_invariants.py::test_broken_engine_is_caught_by_its_invariant[WhispererScores]",
    ),
    "game-ends-at-target": (
        "tests/test_invariant_registry.py::test_check_reports_a_corrupted_position[game-ends-at-target]",
    ),
    "player-can-act": (
        "tests/test_invariant_registry.py::test_check_reports_a_corrupted_position[player-can-act]",
        "tests/test_proofs.py::test_player_can_act_check_can_fail",
    ),
    "round-is-bounded": (
        "tests/test_invariant_registry.py::test_check_reports_a_corrupted_position[round-is-bounded]",
    ),
    "round-end-cause": ("tests/test_invariant_registry.py::test_check_reports_a_corrupted_position[round-end-cause]",
    ),
    "round-progress": (
        "tests/test_live_invariants.py::test_broken_engine_is_caught_by_its_invariant[GuardTakesItselfBack]",
    ),
    "turn-is-bounded": ("tests/test_invariant_registry.py::test_check_reports_a_corrupted_position[turn-is-bounded]",
    ),
    "next-player": (
        "tests/test_live_invariants.py::test_broken_engine_is_caught_by_its_invariant[GreyIgnoresTies]",
        "tests/test_live_invariants.py::test_broken_engine_is_caught_by_its_invariant[ColourIgnored]",
    ),
    "cupbearer-protects-others": (
        "tests/test_invariant_registry.py::test_check_reports_a_corrupted_swap[cupbearer-protects-others]",
    ),
    "cupbearer-actor-repeat": (
        "tests/test_invariant_registry.py::test_check_reports_a_corrupted_swap[cupbearer-actor-repeat]",
    ),
    "muted-card-does-nothing": (
        "tests/test_live_invariants.py::test_broken_engine_is_caught_by_its_invariant[MutedRoleActs]",
        "tests/test_live_invariants.py::test_broken_engine_is_caught_by_its_invariant[BannedJesterPlayable]",
    ),
}
