"""Every check the state machine (tests/stateful/machine.py) makes, where it is made, and the
tests that show it can fail: a broken engine or a broken state trips it and the machine
reports the failure. tests/test_nonvacuous_stateful.py verifies the table: every check site
of the machine (a ``raise``, an ``assert``, a call of the invariants, a problem appended, an
``@invariant`` method, a precondition) belongs to a check here, every check names tests, and
every named test is one pytest collects. A check without a tripping test fails that test.

A site is ``METHOD:WHAT:N`` (the N-th such statement of the method, from 0), ``METHOD:CALLEE``
for a call of :func:`palast.invariants.check.state_problems` or ``step_problems``,
``METHOD:@invariant``, or ``precondition:FUNCTION``.
"""

from __future__ import annotations

from dataclasses import dataclass

FILE = "tests/test_nonvacuous_stateful.py"


@dataclass(frozen=True)
class Check:
    """One check of the state machine.

    :ivar what: what it checks, in words.
    :ivar sites: where the machine makes it.
    :ivar tests: pytest node ids of the tests that trip it.
    """

    what: str
    sites: tuple[str, ...]
    tests: tuple[str, ...]


def _t(name: str) -> str:
    return f"{FILE}::{name}"


CHECKS: dict[str, Check] = {
    "start-position": Check(
        "the position a run starts from keeps every state invariant",
        ("_begin:state_problems", "_begin:raise:0"),
        (_t("test_start_position_check_trips"),)),
    "state-invariants": Check(
        "after every step (@invariant) the position keeps every state invariant",
        ("every_invariant_holds:@invariant", "every_invariant_holds:state_problems", "every_invariant_holds:raise:0"),
        (_t("test_every_step_state_check_trips"),)),
    "action-invariants": Check(
        "every action keeps every state and step invariant (palast.invariants.check.step_problems)",
        ("_apply:step_problems", "_apply:raise:0"),
        (_t("test_action_check_trips_on_every_stored_violation"),)),
    "round-action-bound": Check(
        "a round has at most palast.invariants.check.round_action_bound actions (turn-is-bounded over a round)",
        ("_apply:problems.append:0",),
        (_t("test_round_action_bound_trips"),)),
    "round-scores-once": Check(
        "no player's score rises by more than one within a round (scores-rise-slowly over a round)",
        ("_apply:problems.append:1",),
        (_t("test_round_scores_once_trips"),)),
    "deal-repeatable": Check(
        "the same seed deals the same deal",
        ("_deal:raise:0",),
        (_t("test_deal_repeatable_trips"),)),
    "playout-matches": Check(
        "Game.playout with a seed reaches the state the same choices reach action by action",
        ("play_on:raise:0",),
        (_t("test_playout_matches_trips"),)),
    "chance-adds-up": Check(
        "the probabilities of a chance decision's outcomes add up to one",
        ("chance:assert:0",),
        (_t("test_chance_adds_up_trips"),)),
    "history-replays": Check(
        "replaying a game's actions from its start gives the same states",
        ("_check_replay:raise:0", "_check_replay:raise:1"),
        (_t("test_history_replay_trips_on_a_broken_history"), _t("test_history_replay_trips_on_a_forgetful_engine"))),
    "pre:player-decision": Check(
        "decide runs only where a player decides",
        ("precondition:_is_player_decision",),
        (_t("test_precondition_separates_decisions[_is_player_decision]"),)),
    "pre:enumerable-chance": Check(
        "chance runs only at a draw or a King card reveal",
        ("precondition:_is_enumerable_chance",),
        (_t("test_precondition_separates_decisions[_is_enumerable_chance]"),)),
    "pre:deal": Check(
        "deal runs only at a deal",
        ("precondition:_is_deal",),
        (_t("test_precondition_separates_decisions[_is_deal]"),)),
    "pre:running": Check(
        "play_on runs only while the game goes on",
        ("precondition:_is_running",),
        (_t("test_precondition_separates_decisions[_is_running]"),)),
    "pre:over": Check(
        "new_game runs only once the game is over or stopped at a gap",
        ("precondition:_is_over",),
        (_t("test_precondition_separates_decisions[_is_over]"),)),
}
