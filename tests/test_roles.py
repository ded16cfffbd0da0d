"""Every role's action under every ruleset, one decision at a time.

Each test runs under ``source-a``, ``source-b`` and ``reference``. Where a variation point
lets the rulesets differ, the expected behaviour is derived from the reading the ruleset
takes in ``spec/variation_points.yaml`` (``spec.reading(ruleset, point)``), so the test
states what each reading means and checks the engine does that.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from palast.engine import DecisionKind, Game
from palast.errors import IllegalActionError, ScenarioError
from palast.formats.notation import format_action, parse_action
from palast.spec.load import Spec, load_spec
from tests.conftest import RULESETS
from tests.positions import GUARD, GUARD_ALONE, ONLY_BANNED_JESTERS, card, cards, legal, play, position, role, seat
from tests.spec_copy import edited_spec

K = DecisionKind

pytestmark = pytest.mark.parametrize("ruleset", RULESETS)

#: Red plays a Treasurer (or a Jester) mid-round.
TREASURER = """
players: [red, blue, green]
to_move: red
hands:
  red: [treasurer/grey, jester/red, maid/grey, wizard/red]
  blue: [treasurer/blue, guard/blue, jester/blue, marshal/blue, wizard/blue]
  green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
displays: {red: [guard/red, cupbearer/grey], blue: [maid/blue]}
"""

#: Red plays a Wizard and keeps two hand cards; blue holds four, green six.
WIZARD = """
players: [red, blue, green]
to_move: red
hands:
  red: [wizard/red, jester/red, maid/grey]
  blue: [treasurer/blue, guard/blue, jester/blue, marshal/blue]
  green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
displays: {red: [treasurer/red, guard/red, cupbearer/grey], blue: [maid/blue, cupbearer/blue]}
"""

#: Red plays a Maid. The 17 cards not in hands or displays are the draw deck: every grey
#: card and three coloured ones. MAID_KNOWN fixes the deck's order, MAID leaves it unknown.
MAID = """
players: [red, blue, green]
to_move: red
hands:
  red: [maid/red, wizard/red, jester/red, guard/red]
  blue: [treasurer/blue, wizard/blue, maid/blue, jester/blue, marshal/blue]
  green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
displays: {red: [treasurer/red, cupbearer/red], blue: [guard/blue]}
"""
MAID_KNOWN = MAID + """deck: [marshal/red, jester/grey, jester/grey, treasurer/grey, treasurer/grey, wizard/grey,
       wizard/grey, maid/grey, maid/grey, cupbearer/grey, cupbearer/grey, guard/grey, guard/grey,
       marshal/grey, marshal/grey, cupbearer/blue, cupbearer/green]
"""

#: Red plays a Cupbearer with a card of its own displayed; blue and green have cards too.
CUPBEARER = """
players: [red, blue, green]
to_move: red
hands:
  red: [cupbearer/red, wizard/red, jester/red, guard/grey]
  blue: [treasurer/blue, wizard/blue, jester/blue, marshal/blue]
  green: [treasurer/green, wizard/green, jester/green, marshal/green]
displays: {red: [maid/red, treasurer/grey], blue: [guard/blue, cupbearer/blue], green: [maid/green, guard/green]}
"""

#: The round's third turn: red has nothing displayed, blue and green one card each.
CUPBEARER_THIRD_TURN = """
players: [red, blue, green]
to_move: red
hands:
  red: [cupbearer/red, treasurer/grey, maid/red, wizard/red, guard/red, jester/red]
  blue: [treasurer/blue, wizard/blue, guard/blue, jester/blue, marshal/blue]
  green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green]
displays: {blue: [maid/blue], green: [guard/green]}
"""

#: The round's second turn: only red has a card out; blue plays a Cupbearer.
CUPBEARER_SECOND_TURN = """
players: [red, blue, green]
to_move: blue
hands:
  red: [treasurer/red, wizard/red, guard/red, jester/red, marshal/red]
  blue: [cupbearer/blue, treasurer/blue, wizard/blue, jester/blue, marshal/blue, maid/blue]
  green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
displays: {red: [maid/red]}
"""

#: Red's only possible swap would give red a second Cupbearer.
CUPBEARER_OWN_DUPLICATE = """
players: [red, blue, green]
to_move: red
scores: {red: 1, blue: 1, green: 0}
hands:
  red: [cupbearer/red, wizard/red, jester/red, guard/grey]
  blue: [treasurer/blue, wizard/blue, jester/blue, marshal/blue, maid/blue]
  green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
displays: {red: [maid/red, treasurer/grey], blue: [cupbearer/blue]}
"""

#: Red plays a Marshal; the Wizard is banned, the Maid's King card is spent. Append a
#: ``king_deck`` line: known order, unknown order, or empty.
MARSHAL = """
players: [red, blue, green]
to_move: red
banned: wizard
hands:
  red: [marshal/red, wizard/red, jester/red]
  blue: [treasurer/blue, guard/blue, jester/blue, wizard/blue, maid/blue]
  green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
displays: {red: [treasurer/red, maid/red, guard/red], blue: [cupbearer/blue]}
"""

#: Red holds one red card of every role, nothing displayed. Append a ``banned`` line.
EVERY_ROLE = """
players: [red, blue, green]
to_move: red
hands:
  red: [treasurer/red, wizard/red, maid/red, cupbearer/red, guard/red, jester/red]
  blue: [treasurer/blue, wizard/blue, maid/blue, cupbearer/blue, guard/blue, jester/blue]
  green: [treasurer/green, wizard/green, maid/green, cupbearer/green, guard/green, jester/green]
"""


def choices(spec: Spec, role_name: str) -> list[tuple[str, str]]:
    """The decisions a role's action asks for, in order, as ``spec/roles.yaml`` lists them."""
    return [(c["decision"], c["by"]) for c in spec.role_actions[role_name].choices]


def test_treasurer_shows_the_hand(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, TREASURER)
    assert choices(spec, "treasurer") == []
    line = play(game, state, "play treasurer/grey")
    shown = line.one("hand_shown")
    assert shown.player == 0 and sorted(shown.cards) == sorted(cards(game, ["jester/red", "maid/grey", "wizard/red"]))
    assert set(shown.clauses) >= {"A.role.treasurer", "B.role.schatzmeister"}
    assert line.state.hands[0] == tuple(sorted(shown.cards)) and line.state.hands[1:] == state.hands[1:]
    assert line.state.decision.kind == K.PLAY  # a grey card: the fewest displayed (green) is next
    assert line.state.decision.player == seat(game, "green")


def test_wizard_partner_count_give_answer(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, WIZARD)
    least = 0 if spec.reading(ruleset, "wizard-minimum") == "zero-allowed" else 1
    steps = [("play wizard/red", "exchange-partner", "red"), ("partner blue", "exchange-count", "red"),
             ("count 2", "exchange-give", "red"), ("give jester/red,maid/grey", "exchange-answer", "blue")]
    assert [(k, who) for _, k, who in steps] == [(d, "red" if by == "actor" else "blue")
                                                       for d, by in choices(spec, "wizard")]
    s = state
    for action, kind, who in steps:
        s = play(game, s, action).state
        assert s.decision.kind == kind and s.decision.player == seat(game, who), action
        if kind == "exchange-partner":
            assert legal(game, s) == ["partner blue", "partner green"], "any opponent, never oneself"
        if kind == "exchange-count":  # red keeps 2 hand cards, blue holds 4: at most 2
            assert legal(game, s) == [f"count {n}" for n in range(least, 3)]
        if kind == "exchange-answer":
            assert len(legal(game, s)) == 6, "any two of blue's four cards"
    line = play(game, s, "give guard/blue,marshal/blue")
    assert line.one("cards_exchanged").count == 2
    assert sorted(line.state.hands[0]) == sorted(cards(game, ["guard/blue", "marshal/blue"]))
    assert sorted(line.state.hands[1]) == sorted(cards(game, ["treasurer/blue", "jester/blue", "jester/red",
                                                              "maid/grey"]))
    assert line.state.decision.kind == K.PLAY and line.state.decision.player == 0, "the Wizard was red"


def test_wizard_count_zero(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, WIZARD)
    s = play(game, state, "play wizard/red", "partner green").state
    if spec.reading(ruleset, "wizard-minimum") == "zero-allowed":
        line = play(game, s, "count 0")
        assert line.one("cards_exchanged").count == 0 and line.state.hands == s.hands
        assert line.state.decision.kind == K.PLAY
    else:
        with pytest.raises(IllegalActionError) as exc:
            play(game, s, "count 0")
        assert "A.role.wizard" in exc.value.clauses


def test_maid_discards_then_draws_the_top_card(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, MAID_KNOWN)
    assert choices(spec, "maid") == [("discard", "actor"), ("draw", "chance")]
    s = play(game, state, "play maid/red").state
    assert s.decision.kind == "discard" and s.decision.player == 0
    assert legal(game, s) == ["discard wizard/red", "discard guard/red", "discard jester/red"]
    line = play(game, s, "discard jester/red")
    assert line.kinds()[:2] == ["card_discarded", "card_drawn"]
    assert line.one("card_drawn").card == card(game, "marshal/red"), "the deck's top card"
    after = line.state
    assert card(game, "marshal/red") in after.hands[0] and card(game, "jester/red") not in after.hands[0]
    assert after.deck == state.deck[1:]
    if spec.reading(ruleset, "maid-discard-destination") == "discard-pile":
        assert after.discard == (card(game, "jester/red"),)
    else:
        assert after.discard == () and card(game, "jester/red") in after.deck_bottom
    assert after.decision.kind == K.PLAY and after.decision.player == 0


def test_maid_draws_by_chance_from_an_unknown_deck(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, MAID)
    s = play(game, state, "play maid/red", "discard jester/red").state
    assert s.decision.kind == "draw" and s.decision.player == 0
    assert s.hands[0] == tuple(sorted(cards(game, ["wizard/red", "guard/red"]))), "discarded, not yet drawn"
    expected = {f"draw {r}/grey": Fraction(2, 17) for r in spec.roles}
    expected.update({f"draw {c}": Fraction(1, 17) for c in ("marshal/red", "cupbearer/blue", "cupbearer/green")})
    got = {format_action(game, a): p for a, p in game.chance_outcomes(s)}
    assert got == expected and sum(got.values()) == 1
    assert sorted(legal(game, s)) == sorted(expected)
    line = play(game, s, "draw cupbearer/blue")
    assert line.one("card_drawn").card == card(game, "cupbearer/blue")
    assert card(game, "cupbearer/blue") in line.state.hands[0] and line.state.deck_size == state.deck_size - 1


def test_cupbearer_swaps_two_display_cards(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, CUPBEARER)
    assert choices(spec, "cupbearer") == [("swap", "actor")]
    s = play(game, state, "play cupbearer/red").state
    assert s.decision.kind == "swap" and s.decision.player == 0
    swaps = legal(game, s)
    assert not any("cupbearer/red" in w for w in swaps), "never the Cupbearer just played"
    assert "swap red:maid/red blue:guard/blue" in swaps
    own_repeat = spec.reading(ruleset, "cupbearer-actor-duplicate") == "whisper"
    assert ("swap red:treasurer/grey blue:cupbearer/blue" in swaps) is own_repeat, "a second Cupbearer for red"
    assert ("swap red:treasurer/grey green:maid/green" in swaps) is own_repeat, "a second Maid for red"
    assert "swap red:maid/red green:guard/green" not in swaps, "green's display would hold two Maids"
    assert "swap blue:guard/blue green:maid/green" not in swaps, "green's display would hold two Guards"
    between_others = "swap blue:cupbearer/blue green:maid/green"
    assert (between_others in swaps) is (spec.reading(ruleset, "cupbearer-scope") == "any-two")
    line = play(game, s, "swap red:maid/red blue:guard/blue")
    assert line.one("cards_swapped").seats == (0, 1)
    assert line.state.displays[0] == tuple(cards(game, ["treasurer/grey", "cupbearer/red", "guard/blue"]))
    assert line.state.displays[1] == tuple(cards(game, ["cupbearer/blue", "maid/red"]))
    assert line.state.decision.kind == K.PLAY and line.state.decision.player == 0


def test_cupbearer_scope_on_the_third_turn(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, CUPBEARER_THIRD_TURN)
    line = play(game, state, "play cupbearer/red")
    if spec.reading(ruleset, "cupbearer-scope") == "any-two":
        assert legal(game, line.state) == ["swap blue:maid/blue green:guard/green"]
        done = play(game, line.state, "swap blue:maid/blue green:guard/green")
        assert done.state.displays[1:] == ((card(game, "guard/green"),), (card(game, "maid/blue"),))
    else:  # actor-and-one: red has no card of its own to swap
        void = line.one("action_void")
        assert "B.role.mundschenk" in void.clauses and "cupbearer-scope" in void.points
        assert line.state.decision.kind == K.PLAY and line.state.decision.player == 0


def test_cupbearer_on_the_second_turn_does_nothing(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, CUPBEARER_SECOND_TURN)
    line = play(game, state, "play cupbearer/blue")
    # a ruleset cites the source whose reading of the Cupbearer's scope it takes
    own = "A.role.courtesan" if spec.reading(ruleset, "cupbearer-scope") == "any-two" else "B.role.mundschenk"
    assert own in line.one("action_void").clauses
    assert line.state.displays == state.displays[:1] + ((card(game, "cupbearer/blue"),), ())


def test_cupbearer_swap_repeating_the_actors_role(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, CUPBEARER_OWN_DUPLICATE)
    line = play(game, state, "play cupbearer/red")
    if spec.reading(ruleset, "cupbearer-actor-duplicate") == "whisper":
        assert line.state.decision.kind == "swap"
        assert "swap red:maid/red blue:cupbearer/blue" in legal(game, line.state)
        done = play(game, line.state, "swap red:maid/red blue:cupbearer/blue")
        ended = done.one("round_ended")
        assert ended.detail == "whisper" and ended.player == 0, "the actor's own whisper"
        assert done.state.scores == (1, 2, 1)
    else:  # forbidden: no swap is left, so the Cupbearer does nothing
        assert line.one("action_void").player == 0
        assert line.state.decision.kind == K.PLAY


def test_guard_takes_back_another_card(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, GUARD)
    assert choices(spec, "guard") == [("take-back", "actor")]
    s = play(game, state, "play guard/red").state
    assert s.decision.kind == "take-back" and s.decision.player == 0
    assert sorted(legal(game, s)) == ["take-back jester/red", "take-back marshal/red"], "not the Guard itself"
    with pytest.raises(IllegalActionError):
        play(game, s, "take-back guard/red")
    line = play(game, s, "take-back marshal/red")
    assert line.one("card_taken_back").card == card(game, "marshal/red")
    assert line.state.displays[0] == tuple(cards(game, ["jester/red", "guard/red"]))
    assert card(game, "marshal/red") in line.state.hands[0]


def test_guard_alone_does_nothing(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, GUARD_ALONE)
    line = play(game, state, "play guard/red")
    assert set(line.one("action_void").clauses) >= {"A.role.captain", "B.role.waechter"}
    assert line.state.decision.kind == K.PLAY
    assert line.state.displays[0] == (card(game, "guard/red"),) and len(line.state.hands[0]) == 5


def test_marshal_reveals_the_top_of_a_known_king_deck(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, MARSHAL + "king_spent: [maid]\nking_deck: [guard, jester, treasurer, "
                                                    "cupbearer]\n")
    line = play(game, state, "play marshal/red")
    assert line.one("king_revealed").role == role(game, "guard")
    s = line.state
    assert s.king_in_force == role(game, "guard") and s.king_spent == (role(game, "maid"), role(game, "wizard"))
    assert s.king_deck_size == 3 and s.decision.kind == K.PLAY
    assert play(game, s, "play wizard/red").state.decision.kind == "exchange-partner", "the Wizard acts again"


def test_marshal_reveals_by_chance_from_an_unknown_king_deck(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, MARSHAL + "king_spent: [maid]\n")  # four King cards face down
    s = play(game, state, "play marshal/red").state
    assert s.decision.kind == "reveal" and s.decision.player == 0
    outcomes = {parse_action(game, f"reveal {r}"): Fraction(1, 4) for r in ("treasurer", "cupbearer", "guard",
                                                                               "jester")}
    assert dict(game.chance_outcomes(s)) == outcomes
    line = play(game, s, "reveal jester")
    assert line.state.king_in_force == role(game, "jester") and line.state.king_deck_size == 3


def test_marshal_on_an_empty_king_deck(spec: Spec, ruleset: str) -> None:
    text = MARSHAL + "king_spent: [treasurer, maid, cupbearer, guard, jester]\nking_deck: 0\n"
    game, state = position(spec, ruleset, text)
    line = play(game, state, "play marshal/red")
    reading = spec.reading(ruleset, "king-reshuffle-scope")
    pool = ["treasurer", "maid", "cupbearer", "guard", "jester"] + (["wizard"] if reading == "all" else [])
    assert line.one("king_deck_reshuffled").count == len(pool)
    assert dict(game.chance_outcomes(line.state)) == {
        parse_action(game, f"reveal {r}"): Fraction(1, len(pool)) for r in pool}
    if reading == "all":  # the Wizard's King card may come up again: still banned
        assert play(game, line.state, "reveal wizard").state.king_in_force == role(game, "wizard")


def test_jester_has_no_action(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, TREASURER)
    line = play(game, state, "play jester/red")
    assert line.kinds() == ["card_played", "action_none", "next_player"]
    assert line.state.decision.kind == K.PLAY and line.state.decision.player == 0


def test_banned_jester_cannot_be_played(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, TREASURER + "banned: jester\n")
    assert "play jester/red" not in legal(game, state) and "play treasurer/grey" in legal(game, state)
    with pytest.raises(IllegalActionError):
        play(game, state, "play jester/red")


def test_hand_of_banned_jesters(spec: Spec, ruleset: str) -> None:
    game, state = position(spec, ruleset, ONLY_BANNED_JESTERS)
    if spec.reading(ruleset, "banned-jester-forced") == "whisper":
        assert state.decision.forced and legal(game, state) == ["play jester/grey"]
        line = play(game, state, "play jester/grey")
        assert line.one("round_ended").detail == "whisper" and line.state.scores == (0, 3, 2)
    else:
        assert state.decision.kind == K.GAP and state.decision.point == "banned-jester-forced"
        assert legal(game, state) == []


def test_banned_roles_are_muted(spec: Spec, ruleset: str) -> None:
    game = Game(spec, ruleset, list(spec.player_colours[:spec.min_players]))
    muted = [r for r in spec.king_roles if game.playable_when_banned[spec.roles.index(r)]]
    assert muted and "jester" not in muted
    for name in muted:
        game, state = position(spec, ruleset, EVERY_ROLE + f"banned: {name}\n")
        line = play(game, state, f"play {name}/red")
        assert line.kinds() == ["card_played", "action_muted", "next_player"], name
        assert line.one("action_muted").role == role(game, name)
        assert line.state.decision.kind == K.PLAY and line.state.decision.player == 0, "no decision of the role"
        assert line.state.hands[1:] == state.hands[1:] and line.state.displays[1:] == state.displays[1:]


def test_the_marshal_cannot_be_banned(spec: Spec, ruleset: str) -> None:
    assert "marshal" not in spec.king_roles
    with pytest.raises(ScenarioError):
        position(spec, ruleset, EVERY_ROLE + "banned: marshal\n")


def test_which_role_is_unplayable_while_banned_is_read_off_the_rules(spec: Spec, ruleset: str, tmp_path: Path) -> None:
    """No flag of a role says whether it may be played while banned: king.jester does, and
    the engine asks it. Its condition and filter edited to name the Guard instead make the
    Guard the unplayable role and the Jester a playable one, with nothing else changed."""
    game = Game(spec, ruleset, list(spec.player_colours[:3]))
    unplayable = [spec.roles[i] for i, ok in enumerate(game.playable_when_banned) if not ok]
    assert unplayable == ["jester"]
    copy = edited_spec(tmp_path, "rules.yaml", 'when: banned == jester\n      let: {playable: "filter(c in playable, '
                       'role(c) != jester)"}', 'when: banned == guard\n      let: {playable: "filter(c in playable, '
                       'role(c) != guard)"}')
    edited = load_spec(copy)
    game = Game(edited, ruleset, list(edited.player_colours[:3]))
    assert [edited.roles[i] for i, ok in enumerate(game.playable_when_banned) if not ok] == ["guard"]
