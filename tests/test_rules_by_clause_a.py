"""One test per rule-bearing clause of source A, named after the clause id.

``test_A_role_wizard`` checks what clause ``A.role.wizard`` states, on a small legal
position, under every ruleset that reads the clause as its source does (see
:func:`tests.clause_checks.applies_to`): where A and B differ, an A clause runs under
``source-a`` (and ``reference`` where it follows A). Each test also checks that the engine's
event (or, for a rule acting outside play, the spec rule) cites the clause. Source B's
clauses are tested in tests/test_rules_by_clause_b.py; the helpers, positions and the checks
both share are in tests/clause_checks.py, and
:func:`tests.test_rules_by_clause.test_every_rule_bearing_clause_has_a_test` keeps the list
complete.
"""

from __future__ import annotations

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
    spec_cites,
)
from tests.conftest import make_game
from tests.positions import ONLY_BANNED_JESTERS, Line, cards, full_deal, legal, play, position, role, seat

# ---------------------------------------------------------------------------- source A


def test_A_meta(spec: Spec) -> None:
    _players(spec, "A.meta")


def test_A_goal(spec: Spec) -> None:
    _whisper(spec, "A.goal")


def test_A_setup_colour(spec: Spec) -> None:
    _scores_start_at_zero(spec, "A.setup.colour")
    game = make_game(spec, "reference", 3)
    assert [game.colour_name(s) for s in range(3)] == list(spec.player_colours[:3]), "players are named by colour"


def test_A_setup_deck(spec: Spec) -> None:
    _deal(spec, "A.setup.deck")


def test_A_setup_box(spec: Spec) -> None:
    _boxed_card(spec, "A.setup.box")


def test_A_setup_king(spec: Spec) -> None:
    _kings_at_setup(spec, "A.setup.king")


def test_A_play_start(spec: Spec) -> None:
    _first_player(spec, "A.play.start")


def test_A_play_turn(spec: Spec) -> None:
    _play_card(spec, "A.play.turn")
    for game, state in positions(spec, "A.play.turn", MIDROUND + "banned: treasurer\n"):
        line = play(game, state, "play treasurer/red")
        assert cites(line, "action_muted", "A.play.turn").role == role(game, "treasurer")
        assert "hand_shown" not in line.kinds()


def test_A_play_next(spec: Spec) -> None:
    _colour_next(spec, "A.play.next")


def test_A_play_grey(spec: Spec) -> None:
    _neutral_next(spec, "A.play.grey", "grey")


def test_A_end_whisper(spec: Spec) -> None:
    _whisper(spec, "A.end.whisper")


def test_A_end_six(spec: Spec) -> None:
    _six(spec, "A.end.six")


def test_A_end_noaction(spec: Spec) -> None:
    for game, state in positions(spec, "A.end.noaction", SIX):
        line = play(game, state, "play marshal/red")
        assert cites(line, "action_not_carried_out", "A.end.noaction").role == role(game, "marshal")
        assert "king_revealed" not in line.kinds()
    guard = WHISPER.replace("[treasurer/grey, maid/red]", "[treasurer/grey, guard/grey]").replace(
        "red: [maid/grey, treasurer/red]", "red: [guard/red, treasurer/red]")
    for game, state in positions(spec, "A.end.noaction", guard):
        line = play(game, state, "play guard/red")
        assert cites(line, "action_not_carried_out", "A.end.noaction").role == role(game, "guard")
        assert line.state.decision.kind == K.DEAL, "no take-back"


def test_A_end_reshuffle(spec: Spec) -> None:
    text = WHISPER + "discard: [jester/grey]\n"
    for game, state in positions(spec, "A.end.reshuffle", text):
        over = play(game, state, "play maid/grey").state
        deal = full_deal(game, {"red": ["maid/grey", "maid/red", "jester/grey"]})  # displayed and discarded cards
        step = game.apply(over, deal)
        assert cites(Line(step.state, step.events), "round_dealt", "A.end.reshuffle")
        s = step.state
        assert s.round == over.round + 1 and s.discard == () and all(d == () for d in s.displays)
        assert all(len(h) == 6 for h in s.hands)
        assert set(cards(game, ["maid/grey", "maid/red", "jester/grey"])) <= set(s.hands[0])


def test_A_end_kingstays(spec: Spec) -> None:
    text = WHISPER + "banned: wizard\nking_spent: [maid]\n"
    for game, state in positions(spec, "A.end.kingstays", text):
        over = play(game, state, "play maid/grey").state
        s = game.apply(over, full_deal(game, {"red": ["wizard/red"]})).state
        assert (s.king_in_force, s.king_spent, s.king_deck_size) == (over.king_in_force, over.king_spent,
                                                                      over.king_deck_size)
        assert s.king_in_force == role(game, "wizard")
        line = play(game, s, "play wizard/red")
        assert line.one("action_muted").role == role(game, "wizard"), "the ban is still in force"
    spec_cites(spec, "A.end.kingstays")


def test_A_end_nextstart(spec: Spec) -> None:
    _next_starter(spec, "A.end.nextstart")


def test_A_role_treasurer(spec: Spec) -> None:
    _treasurer(spec, "A.role.treasurer")


def test_A_role_wizard(spec: Spec) -> None:
    for game, state in positions(spec, "A.role.wizard", MIDROUND):
        line = play(game, state, "play wizard/grey")  # red keeps 4 cards, blue holds 4, green 6
        assert legal(game, line.state) == ["partner blue", "partner green"], "an opponent, never oneself"
        line = play(game, line.state, "partner blue")
        assert legal(game, line.state) == ["count 1", "count 2", "count 3", "count 4"], "at least one, at most both"
        line = play(game, line.state, "count 2")
        assert line.state.decision.kind == "exchange-give" and line.state.decision.player == 0
        answers = {}
        for give in ("give maid/grey,guard/red", "give jester/green,treasurer/red"):
            after = play(game, line.state, give).state
            assert after.decision.kind == "exchange-answer" and after.decision.player == seat(game, "blue")
            answers[give] = legal(game, after)
        assert len(set(map(tuple, answers.values()))) == 1, "blue's choice does not depend on red's: simultaneous"
        done = play(game, line.state, "give maid/grey,guard/red", "give treasurer/blue,jester/blue")
        assert cites(done, "cards_exchanged", "A.role.wizard").count == 2
        s = done.state
        assert sorted(s.hands[0]) == sorted(cards(game, ["treasurer/red", "jester/green", "treasurer/blue",
                                                         "jester/blue"]))
        assert sorted(s.hands[1]) == sorted(cards(game, ["maid/blue", "guard/blue", "maid/grey", "guard/red"]))


def test_A_role_maid(spec: Spec) -> None:
    _maid_known(spec, "A.role.maid")


def test_A_role_courtesan(spec: Spec) -> None:
    for game, state in positions(spec, "A.role.courtesan", CUPBEARER_THIRD_TURN):
        line = play(game, state, "play cupbearer/red")
        swaps = set(legal(game, line.state))
        assert "swap blue:guard/blue green:guard/green" in swaps, "any two players, the actor need not be one"
        assert "swap red:maid/red blue:guard/blue" in swaps
        assert not any("cupbearer/red" in s for s in swaps), "never the Courtesan just played"
        for dup in ("swap red:maid/red green:guard/green",        # green would hold two Maids
                    "swap red:maid/red blue:cupbearer/blue",      # red would hold two Courtesans
                    "swap blue:guard/blue green:maid/green"):     # green would hold two Guards
            assert dup not in swaps, dup
        assert "swap blue:cupbearer/blue green:maid/green" in swaps
        done = play(game, line.state, "swap blue:cupbearer/blue green:maid/green")
        assert cites(done, "cards_swapped", "A.role.courtesan").seats == (1, 2)
        assert done.state.displays[1] == tuple(cards(game, ["guard/blue", "maid/green"]))
        assert done.state.displays[2] == tuple(cards(game, ["guard/green", "cupbearer/blue"]))
        second = """
        players: [red, blue, green]
        to_move: blue
        hands:
          red: [treasurer/red, wizard/red, guard/red, jester/red, marshal/red]
          blue: [cupbearer/blue, treasurer/blue, wizard/blue, jester/blue, marshal/blue, maid/blue]
          green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
        displays: {red: [maid/red]}
        """
        game, state = position(spec, game.ruleset, second)
        line = play(game, state, "play cupbearer/blue")  # the round's second turn
        assert cites(line, "action_void", "A.role.courtesan").player == seat(game, "blue")


def test_A_role_captain(spec: Spec) -> None:
    _guard(spec, "A.role.captain")


def test_A_role_jester(spec: Spec) -> None:
    _jester(spec, "A.role.jester")


def test_A_role_informer(spec: Spec) -> None:
    _king_revealed(spec, "A.role.informer", cite="A.king.reveal")
    spec_cites(spec, "A.role.informer")


def test_A_king_reveal(spec: Spec) -> None:
    _king_revealed(spec, "A.king.reveal")


def test_A_king_jester(spec: Spec) -> None:
    for game, state in positions(spec, "A.king.jester", ONLY_BANNED_JESTERS):
        assert state.decision.forced and legal(game, state) == ["play jester/grey"]
        line = play(game, state, "play jester/grey")
        assert cites(line, "round_ended", "A.king.jester").detail == "whisper"
        assert line.state.scores == (0, 3, 2), "every other player scores 1"
    _banned_jester(spec, "A.king.jester")


def test_A_king_lasts(spec: Spec) -> None:
    text = """
    players: [red, blue, green]
    to_move: red
    banned: treasurer
    king_deck: [wizard, maid, guard, cupbearer, jester]
    hands:
      red: [treasurer/blue, maid/red, jester/red]
      blue: [marshal/blue, treasurer/grey, jester/blue, guard/blue]
      green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
    displays: {red: [cupbearer/red, wizard/red, guard/red], blue: [maid/blue, cupbearer/blue]}
    """
    for game, state in positions(spec, "A.king.lasts", text):
        line = play(game, state, "play treasurer/blue")
        assert line.one("action_muted").role == role(game, "treasurer")
        line = play(game, line.state, "play marshal/blue")
        assert cites(line, "king_revealed", "A.king.lasts").role == role(game, "wizard")
        line = play(game, line.state, "play treasurer/grey")
        assert line.one("hand_shown").player == seat(game, "blue"), "a King card naming another role ends the ban"


def test_A_king_reshuffle(spec: Spec) -> None:
    _empty_king_deck(spec, "A.king.reshuffle", everything=True)


def test_A_gameend_target(spec: Spec) -> None:
    ends = list(_target(spec, "A.gameend.target", "target_reached"))
    assert len(ends) == 3 * len(applies_to(spec, "A.gameend.target"))


def test_A_gameend_winner(spec: Spec) -> None:
    for _, line in _target(spec, "A.gameend.winner", "game_ended"):
        assert line.state.result is not None and line.state.result.winners == (0,), "first to the target"
    for game, state in positions(spec, "A.gameend.winner", TIED_END):
        line = play(game, state, "play maid/grey")
        ended = cites(line, "game_ended", "A.gameend.winner")
        assert ended.seats == (seat(game, "blue"),) and ended.detail == "most-displayed"
