"""One test per rule-bearing clause of source B, named after the clause id.

``test_B_role_zauberer`` checks what clause ``B.role.zauberer`` states, on a small legal
position, under every ruleset that reads the clause as its source does (see
:func:`tests.clause_checks.applies_to`): where A and B differ, a B clause runs under
``source-b`` (and ``reference`` where it follows B). Each test also checks that the engine's
event (or, for a rule acting outside play, the spec rule) cites the clause. Source A's
clauses are tested in tests/test_rules_by_clause_a.py; the helpers, positions and the checks
both share are in tests/clause_checks.py, and
:func:`tests.test_rules_by_clause.test_every_rule_bearing_clause_has_a_test` keeps the list
complete.
"""

from __future__ import annotations

from fractions import Fraction

from palast.engine import DecisionKind
from palast.formats.notation import parse_action
from palast.spec.load import Spec
from tests.clause_checks import (
    CUPBEARER_THIRD_TURN,
    MIDROUND,
    SIX,
    TIED_END,
    WHISPER,
    K,
    _banned_jester,
    _boxed_card,
    _colour_next,
    _deal,
    _empty_king_deck,
    _first_player,
    _guard,
    _jester,
    _king_revealed,
    _kings_at_setup,
    _maid_known,
    _neutral_next,
    _next_starter,
    _play_card,
    _players,
    _scores_start_at_zero,
    _six,
    _target,
    _treasurer,
    _whisper,
    applies_to,
    cites,
    positions,
)
from tests.conftest import make_game
from tests.positions import card, legal, play, position, role, seat

# ---------------------------------------------------------------------------- source B


def test_B_meta(spec: Spec) -> None:
    _players(spec, "B.meta")


def test_B_theme(spec: Spec) -> None:
    _whisper(spec, "B.theme")


def test_B_setup_colour(spec: Spec) -> None:
    _boxed_card(spec, "B.setup.colour")
    game = make_game(spec, "source-b", 3)
    for s in range(3):
        mine = [c for c in game.all_cards if game.cards.colour_of(c) == game.seats[s]]
        assert sorted(game.cards.role_of(c) for c in mine) == list(range(7)), "seven cards, one per role"


def test_B_setup_score(spec: Spec) -> None:
    _scores_start_at_zero(spec, "B.setup.score")


def test_B_setup_king(spec: Spec) -> None:
    _kings_at_setup(spec, "B.setup.king")


def test_B_setup_deck(spec: Spec) -> None:
    _boxed_card(spec, "B.setup.deck")
    game = make_game(spec, "source-b", 3)
    assert card(game, "maid/brown") == card(game, "maid/grey"), "brown is the neutral colour"
    assert sum(1 for c in game.all_cards if game.cards.is_neutral(c)) == 14


def test_B_round_deal(spec: Spec) -> None:
    _deal(spec, "B.round.deal")


def test_B_round_start(spec: Spec) -> None:
    _first_player(spec, "B.round.start")
    _next_starter(spec, "B.round.start")


def test_B_turn_play(spec: Spec) -> None:
    _play_card(spec, "B.turn.play")


SIXTH_PLAYED = """
players: [red, blue, green]
to_move: red
played: {red: 5}
hands:
  red: [treasurer/red, cupbearer/grey]
  blue: [treasurer/blue, wizard/blue, maid/blue, jester/blue, marshal/blue, guard/blue]
  green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
displays: {red: [guard/red, wizard/grey, maid/red, jester/red]}
"""


def test_B_turn_action(spec: Spec) -> None:
    clause = "B.turn.action"
    for game, state in positions(spec, clause, SIXTH_PLAYED):
        line = play(game, state, "play treasurer/red")  # red's sixth card played, fifth displayed
        assert cites(line, "action_skipped", clause).role == role(game, "treasurer")
        assert "hand_shown" not in line.kinds() and line.state.decision.player == 0
    for game, state in positions(spec, clause, MIDROUND + "banned: treasurer\n"):
        line = play(game, state, "play treasurer/red")
        assert cites(line, "action_muted", clause).role == role(game, "treasurer")
    for game, state in positions(spec, clause, WHISPER):
        line = play(game, state, "play maid/grey")
        assert cites(line, "action_not_carried_out", clause).role == role(game, "maid")
    for game, state in positions(spec, clause, MIDROUND):
        assert play(game, state, "play treasurer/red").kinds()[:2] == ["card_played", "hand_shown"]


def test_B_turn_next(spec: Spec) -> None:
    _colour_next(spec, "B.turn.next")


def test_B_turn_brown(spec: Spec) -> None:
    _neutral_next(spec, "B.turn.brown", "brown")


def test_B_end_six(spec: Spec) -> None:
    _six(spec, "B.end.six")
    for game, state in positions(spec, "B.end.six", SIX):
        assert cites(play(game, state, "play marshal/red"), "action_not_carried_out", "B.end.six")


def test_B_end_whisper(spec: Spec) -> None:
    _whisper(spec, "B.end.whisper")


def test_B_gameend_target(spec: Spec) -> None:
    ends = list(_target(spec, "B.gameend.target", "target_reached"))
    assert len(ends) == 3 * len(applies_to(spec, "B.gameend.target"))


def test_B_gameend_winner(spec: Spec) -> None:
    for game, state in positions(spec, "B.gameend.winner", TIED_END):
        line = play(game, state, "play maid/grey")
        ended = cites(line, "game_ended", "B.gameend.winner")
        assert ended.seats == (seat(game, "green"),) and ended.detail == "most-played-last-round"


def test_B_gameend_tally(spec: Spec) -> None:
    for game, state in positions(spec, "B.gameend.tally", TIED_END):
        line = play(game, state, "play maid/grey")
        assert cites(line, "game_ended", "B.gameend.tally")
        assert line.state.tally == (9, 7 + 3, 8 + 4), "scorers add the cards they played; the whisperer nothing"
    readings = {r.id for r in spec.variation_points["game-end-tiebreak"].readings}
    assert "most-played-total" in readings, "the optional tally is a reading of the tie-break"


def test_B_role_schatzmeister(spec: Spec) -> None:
    _treasurer(spec, "B.role.schatzmeister")


def test_B_role_zauberer(spec: Spec) -> None:
    for game, state in positions(spec, "B.role.zauberer", MIDROUND):
        line = play(game, state, "play wizard/grey", "partner green")
        assert legal(game, line.state)[0] == "count 1", "an exchange gives at least one card each way"
        assert legal(game, line.state)[-1] == f"count {min(len(line.state.hands[0]), len(line.state.hands[2]))}"
        one = play(game, line.state, "count 1", "give jester/green", "give marshal/green")
        assert cites(one, "cards_exchanged", "B.role.zauberer").count == 1
        assert card(game, "marshal/green") in one.state.hands[0] and card(game, "jester/green") in one.state.hands[2]


def test_B_role_zofe(spec: Spec) -> None:
    _maid_known(spec, "B.role.zofe")
    unknown = MIDROUND[:MIDROUND.index("deck:")]  # the draw deck's order unknown
    for game, state in positions(spec, "B.role.zofe", unknown):
        line = play(game, state, "play maid/grey", "discard jester/green")
        assert cites(line, "card_discarded", "B.role.zofe") and line.state.decision.kind == "draw"
        outcomes = dict(game.chance_outcomes(line.state))
        assert sum(outcomes.values()) == 1
        # the deck: 35 cards in a three-player game, 18 in hands and displays; two grey Jesters
        assert outcomes[parse_action(game, "draw jester/grey")] == Fraction(2, 35 - 18)
        drawn = play(game, line.state, "draw jester/grey")
        assert cites(drawn, "card_drawn", "B.role.zofe").card == card(game, "jester/grey")


def test_B_role_mundschenk(spec: Spec) -> None:
    for game, state in positions(spec, "B.role.mundschenk", CUPBEARER_THIRD_TURN):
        line = play(game, state, "play cupbearer/red")
        swaps = legal(game, line.state)
        assert swaps and all(s.startswith("swap red:maid/red ") for s in swaps), "own card with one named player"
        assert "swap red:maid/red green:guard/green" not in swaps, "no repeat in another player's display"
        done = play(game, line.state, "swap red:maid/red blue:guard/blue")
        assert cites(done, "cards_swapped", "B.role.mundschenk").seats == (0, 1)
        empty = (CUPBEARER_THIRD_TURN.replace("red: [maid/red]", "red: []")
                 .replace("jester/red]", "jester/red, maid/red]"))
        game, state = position(spec, game.ruleset, empty)
        line = play(game, state, "play cupbearer/red")
        assert cites(line, "action_void", "B.role.mundschenk").player == 0, "no card of one's own to swap"


def test_B_role_waechter(spec: Spec) -> None:
    _guard(spec, "B.role.waechter")


def test_B_role_hofmarschall(spec: Spec) -> None:
    _king_revealed(spec, "B.role.hofmarschall")
    _empty_king_deck(spec, "B.role.hofmarschall", everything=False)


def test_B_role_hofnarr(spec: Spec) -> None:
    _jester(spec, "B.role.hofnarr")


def test_B_king(spec: Spec) -> None:
    for game, state in positions(spec, "B.king", MIDROUND + "banned: maid\n"):
        line = play(game, state, "play maid/grey")
        assert cites(line, "action_muted", "B.king").role == role(game, "maid")
        assert line.state.decision.kind == K.PLAY, "no discard"
    _banned_jester(spec, "B.king")


def test_B_fan(spec: Spec) -> None:
    """B.fan: five character cards, one drawn at random for each player, each bending a rule
    for a Jester (the rule module spec/modules/fan.yaml; tests/test_modules.py and the rulings
    fan-* check each card). Under the house ruleset fan the game begins with the chance deal
    of the cards, every way of giving three players one card each equally likely (5 x 4 x 3)."""
    from palast.formats.house import resolve_all

    fan = resolve_all(spec, ["fan"])
    game = make_game(fan, "fan", 3)
    start = game.initial_state()
    assert start.decision.kind == DecisionKind.MARKS
    outcomes = game.chance_outcomes(start)
    assert len(outcomes) == 60 and {p for _, p in outcomes} == {Fraction(1, 60)}
    assert make_game(spec, "reference", 3).initial_state().decision.kind == DecisionKind.DEAL
