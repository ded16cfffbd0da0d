"""One test per rule-bearing clause of sources A and B, named after the clause id.

``test_A_role_wizard`` checks what clause ``A.role.wizard`` states, on a small legal
position, under every ruleset that reads the clause as its source does (see
:func:`applies_to`): where A and B differ, an A clause runs under ``source-a`` (and
``reference`` where it follows A) and a B clause under ``source-b``. Each test also checks
that the engine's event (or, for a rule acting outside play, the spec rule) cites the clause.
:func:`test_every_rule_bearing_clause_has_a_test` keeps the list complete.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from fractions import Fraction

import pytest

from palast.engine import Deal, DecisionKind, Event, Game, State
from palast.errors import IllegalActionError, InputError
from palast.formats.notation import parse_action
from palast.spec.load import Spec
from tests.conftest import RULESETS, make_game
from tests.positions import (
    GUARD,
    GUARD_ALONE,
    ONLY_BANNED_JESTERS,
    Line,
    card,
    cards,
    full_deal,
    legal,
    play,
    position,
    role,
    seat,
)

K = DecisionKind

#: Registry clauses with no rule in them, so no test: id -> why.
EXCLUDED: dict[str, str] = {
    "A.theme": "story only (the king's suspicion of courtiers); states no rule of play",
    "B.review": "the blogger's opinion of the game; states no rule",
}

#: Clauses the engine implements but no event cites: the rule acts at setup, between
#: rounds or on the seating, where the engine emits no event of its own; and the Marshal's
#: reveal, whose event cites rule king.reveal rather than role.marshal. Their tests check
#: the behaviour and that the spec place named here cites the clause;
#: :func:`test_uncited_clauses_are_in_no_event` keeps this list true.
NOT_IN_EVENTS: dict[str, str] = {
    "A.meta": "game:players", "B.meta": "game:players",
}


def clause_test_name(clause: str) -> str:
    """The name of the test function for ``clause``."""
    return "test_" + clause.replace(".", "_").replace("-", "_")


def rule_bearing(spec: Spec) -> set[str]:
    """Clause ids that need a test: those spec rules cite, plus the registry minus :data:`EXCLUDED`."""
    cited = {c for r in spec.rules.values() for c in r.clauses}
    return cited | (set(spec.clauses) - set(EXCLUDED))


def applies_to(spec: Spec, clause: str) -> list[str]:
    """The rulesets that read ``clause`` as its source does: on every variation point whose
    side for the clause's source cites it with a reading, the ruleset takes that reading."""
    source = clause.split(".")[0]
    out = []
    for ruleset in spec.rulesets:
        agree = True
        for vp in spec.variation_points.values():
            side = vp.sides.get(source) or {}
            if clause in side.get("clauses", ()) and side.get("reading") is not None:
                agree = agree and vp.choices[ruleset] == side["reading"]
        if agree:
            out.append(ruleset)
    return out


def positions(spec: Spec, clause: str, text: str) -> Iterator[tuple[Game, State]]:
    """The position ``text`` under each ruleset ``clause`` applies to."""
    rulesets = applies_to(spec, clause)
    assert rulesets, f"no ruleset reads {clause} as its source does"
    for ruleset in rulesets:
        yield position(spec, ruleset, text)


def cites(line: Line, kind: str, clause: str) -> Event:
    """The first event of ``kind`` citing ``clause``. :raises AssertionError: if there is none."""
    found = [e for e in line.of(kind) if clause in e.clauses]
    assert found, f"no {kind} event cites {clause}: {[(e.kind, e.clauses) for e in line.events]}"
    return found[0]


def spec_cites(spec: Spec, clause: str) -> None:
    """Assert that the clause is cited where it should be: by the spec place
    :data:`NOT_IN_EVENTS` names, or else by an event of a recorded game."""
    if clause in NOT_IN_EVENTS:
        kind, _, name = NOT_IN_EVENTS[clause].partition(":")
        cited = spec.rules[name].clauses if kind == "rule" else tuple(spec.game[name]["clauses"])
        assert clause in cited
    else:
        assert clause in clauses_in_recorded_games(spec), f"no event of a recorded game cites {clause}"


_RECORDED: dict[int, set[str]] = {}


def clauses_in_recorded_games(spec: Spec) -> set[str]:
    """Every clause id cited by an event of one seeded four-player game per ruleset."""
    key = id(spec)
    if key not in _RECORDED:
        seen: set[str] = set()
        for ruleset in RULESETS:
            game = make_game(spec, ruleset, 4, check=False)
            rng = random.Random(7)
            s = game.initial_state()
            while not s.is_terminal:
                a = game.sample_chance(s, rng) if s.decision.is_chance else rng.choice(game.legal_actions(s))
                step = game.apply(s, a)
                seen.update(c for e in step.events for c in e.clauses)
                s = step.state
        _RECORDED[key] = seen
    return _RECORDED[key]


# ---------------------------------------------------------------------------- positions

#: Red is to play a second Maid: a whisper. Every card red holds repeats a role red
#: displays, so the whisper is legal under every reading of voluntary-whisper.
WHISPER = """
players: [red, blue, green]
to_move: red
scores: {red: 1, blue: 2, green: 0}
hands:
  red: [maid/grey, treasurer/red]
  blue: [treasurer/blue, guard/blue, jester/blue, marshal/blue, cupbearer/blue]
  green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
displays: {red: [treasurer/grey, maid/red], blue: [wizard/blue]}
"""

#: Red holds a Marshal, the sixth different role for red's display.
SIX = """
players: [red, blue, green]
to_move: red
scores: {red: 1, blue: 2, green: 0}
king_deck: [guard, wizard, maid, treasurer, cupbearer, jester]
hands:
  red: [marshal/red]
  blue: [treasurer/blue, wizard/blue, maid/blue, jester/blue, marshal/blue, guard/blue]
  green: [treasurer/green, wizard/green, maid/grey, marshal/green, guard/green]
displays: {red: [treasurer/grey, wizard/red, maid/green, cupbearer/blue, guard/red], green: [jester/green]}
"""

#: Mid-round, red to move, nothing banned; the draw deck (all 17 other cards) is known.
MIDROUND = """
players: [red, blue, green]
to_move: red
hands:
  red: [treasurer/red, wizard/grey, maid/grey, guard/red, jester/green]
  blue: [treasurer/blue, maid/blue, guard/blue, jester/blue]
  green: [treasurer/green, wizard/green, maid/green, cupbearer/green, guard/green, marshal/green]
displays: {red: [marshal/red], blue: [cupbearer/blue, wizard/blue]}
deck: [guard/grey, jester/grey, treasurer/grey, treasurer/grey, wizard/grey, maid/grey, cupbearer/grey,
       cupbearer/grey, guard/grey, marshal/grey, marshal/grey, jester/grey, wizard/red, maid/red,
       cupbearer/red, jester/red, marshal/blue]
"""

#: Blue is to play a second Wizard: blue whispers and ends the round.
BLUE_WHISPERS = """
players: [red, blue, green]
to_move: blue
hands:
  red: [maid/grey, wizard/red, guard/red, jester/red]
  blue: [wizard/grey]
  green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
displays: {red: [treasurer/grey, maid/red], blue: [wizard/blue]}
"""

#: Blue and green tie on 5 of 6 points; red whispers and both reach the target. Blue
#: displays more cards, green played more this round (green's Guards took two cards back;
#: the first Guard was moved away by a Cupbearer before the second was played).
TIED_END = """
players: [red, blue, green]
to_move: red
scores: {red: 3, blue: 5, green: 5}
tally: {red: 9, blue: 7, green: 8}
played: {red: 1, blue: 3, green: 4}
hands:
  red: [maid/grey]
  blue: [guard/blue, jester/blue, marshal/blue]
  green: [treasurer/green, wizard/green, maid/green, marshal/green]
displays: {red: [maid/red], blue: [treasurer/blue, wizard/blue, maid/blue], green: [guard/green, jester/green]}
"""


def grey_position(red: int, blue: int, green: int) -> str:
    """Red to play a grey Jester with ``red``, ``blue``, ``green`` cards displayed."""
    shown = {"red": ["treasurer/red", "wizard/red", "maid/red"][:red],
             "blue": ["treasurer/blue", "wizard/blue", "maid/blue"][:blue],
             "green": ["treasurer/green", "wizard/green", "maid/green"][:green]}
    rest = {"red": ["jester/grey", "guard/red", "cupbearer/red", "marshal/red", "jester/red", "treasurer/grey"],
            "blue": ["guard/blue", "cupbearer/blue", "marshal/blue", "jester/blue", "wizard/grey", "maid/grey"],
            "green": ["guard/green", "cupbearer/green", "marshal/green", "jester/green", "guard/grey",
                      "cupbearer/grey"]}
    hands = {p: rest[p][: 6 - len(shown[p])] for p in shown}
    return ("players: [red, blue, green]\nto_move: red\n"
            f"hands: {{red: [{', '.join(hands['red'])}], blue: [{', '.join(hands['blue'])}], "
            f"green: [{', '.join(hands['green'])}]}}\n"
            f"displays: {{red: [{', '.join(shown['red'])}], blue: [{', '.join(shown['blue'])}], "
            f"green: [{', '.join(shown['green'])}]}}\n")


# ---------------------------------------------------------------------------- the meta-test


def test_every_rule_bearing_clause_has_a_test(spec: Spec) -> None:
    module = sys.modules[__name__]
    assert set(EXCLUDED) <= set(spec.clauses), "an excluded id is not in the registry"
    cited = {c for r in spec.rules.values() for c in r.clauses}
    assert not set(EXCLUDED) & cited, "a rule cites an excluded clause: it is rule-bearing after all"
    missing = sorted(c for c in rule_bearing(spec) if not callable(getattr(module, clause_test_name(c), None)))
    assert not missing, f"clauses without a test: {missing}"
    names = {clause_test_name(c) for c in spec.clauses}
    strays = [n for n in dir(module) if n.startswith(("test_A_", "test_B_")) and n not in names]
    assert not strays, f"tests named after no clause: {strays}"
    assert set(NOT_IN_EVENTS) <= rule_bearing(spec)


def test_uncited_clauses_are_in_no_event(spec: Spec) -> None:
    """No event of a few recorded games cites a clause listed in :data:`NOT_IN_EVENTS`
    (if one starts to, its test should check that event instead)."""
    seen = clauses_in_recorded_games(spec)
    assert "A.end.whisper" in seen or "A.end.six" in seen  # the games did end rounds
    assert not seen & set(NOT_IN_EVENTS)


# ---------------------------------------------------------------------------- shared checks


def _whisper(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, WHISPER):
        assert "play maid/grey" in legal(game, state), "a duplicate may be played (here: nothing else)"
        line = play(game, state, "play maid/grey")
        ended = cites(line, "round_ended", clause)
        assert ended.detail == "whisper" and ended.player == seat(game, "red")
        assert cites(line, "points_scored", clause).seats == (seat(game, "blue"), seat(game, "green"))
        assert line.state.scores == (1, 3, 1), "the whisperer scores nothing, every other player 1"
        assert line.state.decision.kind is K.DEAL, "the round is over: no Maid discard"
        assert card(game, "maid/grey") in line.state.displays[seat(game, "red")]


def _six(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, SIX):
        line = play(game, state, "play marshal/red")
        ended = cites(line, "round_ended", clause)
        assert ended.detail == "six" and ended.player == seat(game, "red")
        assert line.state.scores == (2, 2, 0), "only the player with six roles scores"
        assert "king_revealed" not in line.kinds() and line.state.king_in_force == -1
        assert line.state.decision.kind is K.DEAL


def _colour_next(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, MIDROUND):
        line = play(game, state, "play jester/green")
        assert cites(line, "next_player", clause).player == seat(game, "green")
        assert line.state.decision.kind is K.PLAY and line.state.decision.player == seat(game, "green")
        line = play(game, line.state, "play treasurer/green")  # green's own colour: green again
        assert line.state.decision.player == seat(game, "green")


def _neutral_next(spec: Spec, clause: str, grey: str) -> None:
    for ruleset in applies_to(spec, clause):
        game, state = position(spec, ruleset, grey_position(2, 1, 0))
        line = play(game, state, f"play jester/{grey}")
        assert cites(line, "next_player", clause).player == seat(game, "green"), "fewest cards displayed"
        game, state = position(spec, ruleset, grey_position(0, 1, 1))
        line = play(game, state, f"play jester/{grey}")
        dec = line.state.decision
        assert dec.kind is K.NEXT_PLAYER and dec.player == seat(game, "red")
        assert sorted(dec.options) == [0, 1, 2], "all three tie, the player of the grey card included"
        line = play(game, line.state, "next red")
        assert cites(line, "next_player", clause).player == seat(game, "red")
        assert line.state.decision.kind is K.PLAY and line.state.decision.player == seat(game, "red")
        game, state = position(spec, ruleset, grey_position(0, 2, 2))
        line = play(game, state, f"play jester/{grey}")
        assert cites(line, "next_player", clause).player == seat(game, "red"), "alone with fewest: again"


def _play_card(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, MIDROUND):
        hand = state.hands[0]
        assert sorted(game.legal_actions(state), key=str) == sorted(
            (parse_action(game, f"play {game.cards.format_card(c)}") for c in set(hand)), key=str)
        with pytest.raises(IllegalActionError) as bad:
            play(game, state, "play maid/blue")
        assert clause in bad.value.clauses
        with pytest.raises(IllegalActionError) as bad:
            play(game, state, "take-back marshal/red")
        assert clause in bad.value.clauses
        line = play(game, state, "play treasurer/red")
        assert cites(line, "card_played", clause).card == card(game, "treasurer/red")
        assert line.state.displays[0] == tuple(cards(game, ["marshal/red", "treasurer/red"]))
        assert line.kinds()[:2] == ["card_played", "hand_shown"], "the action follows at once"


def _deal(spec: Spec, clause: str) -> None:
    for ruleset in applies_to(spec, clause):
        game = make_game(spec, ruleset, 3)
        state = game.initial_state()
        assert state.decision.kind is K.DEAL
        step = game.apply(state, game.sample_chance(state, random.Random(3)))
        assert clause in next(e for e in step.events if e.kind == "round_dealt").clauses
        s = step.state
        assert [len(h) for h in s.hands] == [6, 6, 6], "six cards to every player (clause text)"
        assert len(s.deck) == 7 * 3 + 14 - 18, "the rest is the draw deck, face down"
        assert all(d == () for d in s.displays)


def _boxed_card(spec: Spec, clause: str) -> None:
    for ruleset in applies_to(spec, clause):
        game = make_game(spec, ruleset, 3)
        assert all(game.cards.colour_of(c) in (*game.seats, game.cards.neutral) for c in game.all_cards)
        assert len(game.all_cards) == 7 * 3 + 14, "seven cards per seated colour plus fourteen neutral"
        deal = full_deal(game, {})
        yellow = card(game, "maid/yellow")
        bad = Deal(((yellow,) + deal.hands[0][1:],) + deal.hands[1:], None)
        with pytest.raises(IllegalActionError) as exc:
            game.apply(game.initial_state(), bad)
        assert clause in exc.value.clauses
    spec_cites(spec, clause)


def _kings_at_setup(spec: Spec, clause: str) -> None:
    start = """
    players: [red, blue, green]
    to_move: red
    hands:
      red: [marshal/red, maid/red, wizard/red, treasurer/grey, jester/grey, guard/grey]
      blue: [treasurer/blue, wizard/blue, maid/blue, jester/blue, marshal/blue, guard/blue]
      green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
    """
    for ruleset in applies_to(spec, clause):
        game = make_game(spec, ruleset, 3)
        s = game.initial_state()
        assert s.king_in_force == -1 and s.king_deck_size == 6 == len(game.king_roles), "six, face down"
        assert role(game, "marshal") not in game.king_roles
        game, s = position(spec, ruleset, start)
        line = play(game, s, "play marshal/red")
        assert line.state.decision.kind is K.REVEAL
        assert game.chance_outcomes(line.state) == [
            (parse_action(game, f"reveal {game.cards.roles[r]}"), Fraction(1, 6)) for r in game.king_roles
        ], "shuffled: each King card equally likely"
    spec_cites(spec, clause)


def _first_player(spec: Spec, clause: str) -> None:
    for ruleset in applies_to(spec, clause):
        game = Game(spec, ruleset, ["green", "red", "blue"], check=True)
        s = game.initial_state()
        step = game.apply(s, game.sample_chance(s, random.Random(1)))
        assert step.state.decision.kind is K.PLAY and step.state.decision.player == 0, "the first seat starts"
        assert game.colour_name(0) == "green"
    spec_cites(spec, clause)


def _next_starter(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, BLUE_WHISPERS):
        line = play(game, state, "play wizard/grey")
        assert line.state.decision.kind is K.DEAL and line.state.round_end is not None
        assert line.state.round_end.player == seat(game, "blue")
        nxt = game.apply(line.state, full_deal(game, {}))
        assert nxt.state.decision.kind is K.PLAY and nxt.state.decision.player == seat(game, "blue")
    spec_cites(spec, clause)


def _players(spec: Spec, clause: str) -> None:
    assert (spec.min_players, spec.max_players) == (3, 5), "three to five players (clause text)"
    for ruleset in applies_to(spec, clause):
        for n in (3, 4, 5):
            assert make_game(spec, ruleset, n).n == n
        with pytest.raises(InputError):
            make_game(spec, ruleset, 2)
    spec_cites(spec, clause)


def _scores_start_at_zero(spec: Spec, clause: str) -> None:
    for ruleset in applies_to(spec, clause):
        for n in (3, 4, 5):
            assert make_game(spec, ruleset, n).initial_state().scores == (0,) * n
    spec_cites(spec, clause)


def _treasurer(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, MIDROUND):
        line = play(game, state, "play treasurer/red")
        shown = cites(line, "hand_shown", clause)
        assert shown.player == 0 and shown.cards == line.state.hands[0]
        assert sorted(shown.cards) == sorted(cards(game, ["wizard/grey", "maid/grey", "guard/red", "jester/green"]))


def _maid_known(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, MIDROUND):
        line = play(game, state, "play maid/grey")
        assert line.state.decision.kind is K.DISCARD and line.state.decision.player == 0
        line = play(game, line.state, "discard jester/green")
        assert cites(line, "card_discarded", clause).card == card(game, "jester/green")
        assert cites(line, "card_drawn", clause).card == card(game, "guard/grey"), "the top card"
        s = line.state
        assert s.discard == (card(game, "jester/green"),) and s.deck[0] == card(game, "jester/grey")
        assert len(s.deck) == len(state.deck) - 1
        assert card(game, "guard/grey") in s.hands[0] and card(game, "jester/green") not in s.hands[0]


def _jester(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, MIDROUND):
        line = play(game, state, "play jester/green")
        assert cites(line, "action_none", clause).player == 0
        assert line.kinds() == ["card_played", "action_none", "next_player"], "no action"
    _banned_jester(spec, clause)


def _banned_jester(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, MIDROUND + "banned: jester\n"):
        assert "play jester/green" not in legal(game, state)
        with pytest.raises(IllegalActionError) as exc:
            play(game, state, "play jester/green")
        assert clause in exc.value.clauses


def _guard(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, GUARD):
        line = play(game, state, "play guard/red")
        assert sorted(legal(game, line.state)) == ["take-back jester/red", "take-back marshal/red"], "not the Guard"
        line = play(game, line.state, "take-back jester/red")
        assert cites(line, "card_taken_back", clause).card == card(game, "jester/red")
        assert line.state.displays[0] == tuple(cards(game, ["marshal/red", "guard/red"]))
        assert card(game, "jester/red") in line.state.hands[0]
    for game, state in positions(spec, clause, GUARD_ALONE):
        line = play(game, state, "play guard/red")
        assert cites(line, "action_void", clause).player == 0
        assert line.state.decision.kind is K.PLAY and line.state.displays[0] == (card(game, "guard/red"),)


def _king_revealed(spec: Spec, clause: str, *, cite: str = "") -> None:
    text = """
    players: [red, blue, green]
    to_move: red
    banned: wizard
    king_spent: [maid]
    king_deck: [guard, jester, treasurer, cupbearer]
    hands:
      red: [marshal/blue, maid/red, jester/red]
      blue: [guard/blue, wizard/grey, treasurer/blue, jester/blue]
      green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
    displays: {red: [treasurer/red, wizard/red, guard/red], blue: [maid/blue, cupbearer/blue]}
    """
    for game, state in positions(spec, clause, text):
        line = play(game, state, "play marshal/blue")
        assert cites(line, "king_revealed", cite or clause).role == role(game, "guard")
        assert line.state.king_in_force == role(game, "guard"), "the top King card is in force"
        assert line.state.king_spent == (role(game, "maid"), role(game, "wizard")), "laid on the earlier ones"
        assert line.state.king_deck == (role(game, "jester"), role(game, "treasurer"), role(game, "cupbearer"))
        line = play(game, line.state, "play guard/blue")
        assert line.one("action_muted").role == role(game, "guard"), "playable, but no action"
        line = play(game, line.state, "play wizard/grey")
        assert line.state.decision.kind is K.EXCHANGE_PARTNER, "the Wizard's ban has ended"


def _empty_king_deck(spec: Spec, clause: str, *, everything: bool) -> None:
    """A Marshal on an empty King deck: ``everything``: all six King cards are shuffled (the
    one in force too); otherwise only the spent ones."""
    text = """
    players: [red, blue, green]
    to_move: red
    banned: jester
    king_deck: 0
    king_spent: [treasurer, wizard, maid, cupbearer, guard]
    hands:
      red: [marshal/red, maid/grey, wizard/red]
      blue: [treasurer/blue, wizard/blue, maid/blue, jester/blue, marshal/blue, guard/blue]
      green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
    displays: {red: [treasurer/red, guard/red, cupbearer/red]}
    """
    for game, state in positions(spec, clause, text):
        line = play(game, state, "play marshal/red")
        shuffled = cites(line, "king_deck_reshuffled", clause)
        assert shuffled.count == (6 if everything else 5)
        outcomes = dict(game.chance_outcomes(line.state))
        jester = parse_action(game, "reveal jester")
        assert (jester in outcomes) is everything
        assert set(outcomes.values()) == {Fraction(1, shuffled.count)}
        revealed = play(game, line.state, "reveal guard").state
        assert revealed.king_in_force == role(game, "guard") and revealed.king_deck_size == shuffled.count - 1


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
        assert line.state.decision.kind is K.DEAL, "no take-back"


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
        assert line.state.decision.kind is K.EXCHANGE_GIVE and line.state.decision.player == 0
        answers = {}
        for give in ("give maid/grey,guard/red", "give jester/green,treasurer/red"):
            after = play(game, line.state, give).state
            assert after.decision.kind is K.EXCHANGE_ANSWER and after.decision.player == seat(game, "blue")
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


CUPBEARER_THIRD_TURN = """
players: [red, blue, green]
to_move: red
hands:
  red: [cupbearer/red, treasurer/grey, wizard/red, guard/red, jester/red]
  blue: [treasurer/blue, wizard/blue, jester/blue, marshal/blue]
  green: [treasurer/green, wizard/green, jester/green, marshal/green]
displays: {red: [maid/red], blue: [guard/blue, cupbearer/blue], green: [maid/green, guard/green]}
"""


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


def _target(spec: Spec, clause: str, kind: str) -> Iterator[tuple[Game, Line]]:
    colours = list(spec.player_colours)
    by_clause = {3: 6, 4: 5, 5: 4}  # the targets the clause text states
    for ruleset in applies_to(spec, clause):
        for n in (3, 4, 5):
            target = spec.target(n)
            assert target == by_clause[n]
            grey = "treasurer/grey, wizard/grey, maid/grey, cupbearer/grey, guard/grey"
            others = "\n".join(f"  {c}: [treasurer/{c}, wizard/{c}, maid/{c}, cupbearer/{c}, guard/{c}, jester/{c}]"
                               for c in colours[1:n])
            text = (f"players: [{', '.join(colours[:n])}]\nto_move: {colours[0]}\n"
                    f"scores: {{{colours[0]}: {target - 1}, {colours[1]}: {target - 1}}}\n"
                    f"hands:\n  {colours[0]}: [marshal/{colours[0]}]\n{others}\n"
                    f"displays: {{{colours[0]}: [{grey}]}}\n")
            game, state = position(spec, ruleset, text)
            line = play(game, state, f"play marshal/{colours[0]}")
            assert line.state.decision.kind is K.GAME_OVER and line.state.scores[0] == target
            assert cites(line, kind, clause)
            assert line.one("target_reached").count == target
            yield game, line


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
        assert cites(line, "card_discarded", "B.role.zofe") and line.state.decision.kind is K.DRAW
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
        assert line.state.decision.kind is K.PLAY, "no discard"
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
    assert start.decision.kind is DecisionKind.MARKS
    outcomes = game.chance_outcomes(start)
    assert len(outcomes) == 60 and {p for _, p in outcomes} == {Fraction(1, 60)}
    assert make_game(spec, "reference", 3).initial_state().decision.kind is DecisionKind.DEAL
