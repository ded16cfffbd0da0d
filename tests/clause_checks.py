"""Helpers, positions and shared checks for the clause tests (tests/test_rules_by_clause_a.py
and tests/test_rules_by_clause_b.py): not a test module.

:func:`applies_to` says under which rulesets a clause is checked (those that read it as its
source does) and :func:`positions` yields a position under each of them; :func:`cites` and
:func:`spec_cites` check that an event, or the spec place :data:`NOT_IN_EVENTS` names, cites
the clause. The positions the clause tests play from follow, then the shared checks: one
per rule that clauses of both sources state, run by the test of each such clause (they keep
the leading underscore they had when all the clause tests were one module). :data:`EXCLUDED`,
:func:`rule_bearing` and :func:`clause_test_name` are what tests/test_rules_by_clause.py
uses to keep the clause tests complete.
"""

from __future__ import annotations

import random
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

#: Clauses the engine implements but no event cites: the number of players, which acts on
#: the seating, where the engine emits no event of its own. Their tests check the
#: behaviour and that the spec place named here cites the clause;
#: :func:`tests.test_rules_by_clause.test_uncited_clauses_are_in_no_event` keeps this list true.
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


#: Red is to play a Cupbearer (source A's Courtesan, source B's Mundschenk).
CUPBEARER_THIRD_TURN = """
players: [red, blue, green]
to_move: red
hands:
  red: [cupbearer/red, treasurer/grey, wizard/red, guard/red, jester/red]
  blue: [treasurer/blue, wizard/blue, jester/blue, marshal/blue]
  green: [treasurer/green, wizard/green, jester/green, marshal/green]
displays: {red: [maid/red], blue: [guard/blue, cupbearer/blue], green: [maid/green, guard/green]}
"""


# ---------------------------------------------------------------------------- shared checks


def _whisper(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, WHISPER):
        assert "play maid/grey" in legal(game, state), "a duplicate may be played (here: nothing else)"
        line = play(game, state, "play maid/grey")
        ended = cites(line, "round_ended", clause)
        assert ended.detail == "whisper" and ended.player == seat(game, "red")
        assert cites(line, "points_scored", clause).seats == (seat(game, "blue"), seat(game, "green"))
        assert line.state.scores == (1, 3, 1), "the whisperer scores nothing, every other player 1"
        assert line.state.decision.kind == K.DEAL, "the round is over: no Maid discard"
        assert card(game, "maid/grey") in line.state.displays[seat(game, "red")]


def _six(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, SIX):
        line = play(game, state, "play marshal/red")
        ended = cites(line, "round_ended", clause)
        assert ended.detail == "six" and ended.player == seat(game, "red")
        assert line.state.scores == (2, 2, 0), "only the player with six roles scores"
        assert "king_revealed" not in line.kinds() and line.state.king_in_force == -1
        assert line.state.decision.kind == K.DEAL


def _colour_next(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, MIDROUND):
        line = play(game, state, "play jester/green")
        assert cites(line, "next_player", clause).player == seat(game, "green")
        assert line.state.decision.kind == K.PLAY and line.state.decision.player == seat(game, "green")
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
        assert dec.kind == K.NEXT_PLAYER and dec.player == seat(game, "red")
        assert sorted(dec.options) == [0, 1, 2], "all three tie, the player of the grey card included"
        line = play(game, line.state, "next red")
        assert cites(line, "next_player", clause).player == seat(game, "red")
        assert line.state.decision.kind == K.PLAY and line.state.decision.player == seat(game, "red")
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
        assert state.decision.kind == K.DEAL
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
        assert line.state.decision.kind == "reveal"
        assert game.chance_outcomes(line.state) == [
            (parse_action(game, f"reveal {game.cards.roles[r]}"), Fraction(1, 6)) for r in game.king_roles
        ], "shuffled: each King card equally likely"
    spec_cites(spec, clause)


def _first_player(spec: Spec, clause: str) -> None:
    for ruleset in applies_to(spec, clause):
        game = Game(spec, ruleset, ["green", "red", "blue"], check=True)
        s = game.initial_state()
        step = game.apply(s, game.sample_chance(s, random.Random(1)))
        assert step.state.decision.kind == K.PLAY and step.state.decision.player == 0, "the first seat starts"
        assert game.colour_name(0) == "green"
    spec_cites(spec, clause)


def _next_starter(spec: Spec, clause: str) -> None:
    for game, state in positions(spec, clause, BLUE_WHISPERS):
        line = play(game, state, "play wizard/grey")
        assert line.state.decision.kind == K.DEAL and line.state.round_end is not None
        assert line.state.round_end.player == seat(game, "blue")
        nxt = game.apply(line.state, full_deal(game, {}))
        assert nxt.state.decision.kind == K.PLAY and nxt.state.decision.player == seat(game, "blue")
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
        assert line.state.decision.kind == "discard" and line.state.decision.player == 0
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
        assert line.state.decision.kind == K.PLAY and line.state.displays[0] == (card(game, "guard/red"),)


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
        assert line.state.decision.kind == "exchange-partner", "the Wizard's ban has ended"


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
            assert line.state.decision.kind == K.GAME_OVER and line.state.scores[0] == target
            assert cites(line, kind, clause)
            assert line.one("target_reached").count == target
            yield game, line
