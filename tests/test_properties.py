"""Property tests: card and action notation read back what they write, for every action
kind (deals and other chance actions included), and a scenario loaded, dumped and loaded
again is the same position — for the example and constructed scenarios, for generated
positions and for positions reached in play."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from palast.engine import Action, Deal, Game, NextPlayer, Pick, PickCards, PickPair, Play, State
from palast.engine.state import DecisionKind
from palast.formats.notation import format_action, parse_action
from palast.formats.scenario import parse_scenario
from palast.formats.scenario_dump import dump_scenario
from palast.spec.cards import Cards
from tests.conftest import PLAYER_COUNTS, RULESETS
from tests.stateful.configs import scenario, scenario_files, spec
from tests.stateful.positions import positions

#: every action type, and for the declared ones every verb (spec/flow.yaml, the roles' choices)
ACTION_KINDS = ("play", "partner", "count", "give", "discard", "swap", "take-back", "next", "deal", "draw", "reveal")


def game_of(ruleset: str, players: int) -> Game:
    return Game(spec(), ruleset, list(spec().player_colours[:players]))


def all_games() -> st.SearchStrategy[Game]:
    return st.builds(game_of, st.sampled_from(RULESETS), st.sampled_from(PLAYER_COUNTS))


# ---------------------------------------------------------------------- cards
def test_every_card_reads_back_what_it_writes() -> None:
    cards = Cards.from_spec(spec())
    every = sorted(set(cards.composition(range(len(spec().player_colours))).elements()))
    assert len(every) == len(spec().roles) * (len(spec().player_colours) + 1)
    for c in every:
        assert cards.parse_card(cards.format_card(c)) == c


@st.composite
def written_cards(draw: st.DrawFn) -> tuple[int, str]:
    """A card and one way a user may write it: any role or colour alias, any case, spaces."""
    sp = spec()
    cards = Cards.from_spec(sp)
    role = draw(st.integers(0, len(sp.roles) - 1))
    colour = draw(st.integers(0, len(cards.colours) - 1))
    rid, cid = sp.roles[role], cards.colours[colour]
    role_names = [rid, sp.role_names[rid]["german"], *[a for a, r in sp.role_aliases.items() if r == rid]]
    colour_names = [cid, *[a for a, c in sp.colour_aliases.items() if c == cid]]
    rname = draw(st.sampled_from(role_names))
    cname = draw(st.sampled_from(colour_names))
    rname = "".join(ch.upper() if draw(st.booleans()) else ch for ch in rname)
    cname = "".join(ch.upper() if draw(st.booleans()) else ch for ch in cname)
    pad = st.sampled_from(["", " ", "  "])
    return cards.card(role, colour), f"{draw(pad)}{rname}{draw(pad)}/{draw(pad)}{cname}{draw(pad)}"


@given(written_cards())
def test_card_aliases_and_case_read_as_the_card(item: tuple[int, str]) -> None:
    card, text = item
    cards = Cards.from_spec(spec())
    assert cards.parse_card(text) == card
    assert cards.parse_card(cards.format_card(card)) == card


# ---------------------------------------------------------------------- actions
@st.composite
def any_action(draw: st.DrawFn, game: Game) -> Action:
    """Any action of any kind on this game's cards and seats, legal or not."""
    cards = sorted(set(game.all_cards))
    card = st.sampled_from(cards)
    seat = st.integers(0, game.n - 1)
    kind = draw(st.sampled_from(ACTION_KINDS))
    if kind == "play":
        return Play(draw(card))
    if kind in ("discard", "take-back", "draw"):
        return Pick(kind, draw(card))
    if kind == "next":
        return NextPlayer(draw(seat))
    if kind == "partner":
        return Pick(kind, draw(seat))
    if kind == "count":
        return Pick(kind, draw(st.integers(0, game.hand_size)))
    if kind == "give":
        return PickCards(kind, tuple(sorted(draw(st.lists(card, min_size=1, max_size=game.hand_size)))))
    if kind == "reveal":
        return Pick(kind, draw(st.integers(0, len(game.cards.roles) - 1)))
    if kind == "swap":
        a, b = sorted(draw(st.lists(seat, min_size=2, max_size=2, unique=True)))
        return PickPair(kind, a, draw(card), b, draw(card))
    hands = tuple(tuple(sorted(draw(st.lists(card, min_size=game.hand_size, max_size=game.hand_size))))
                  for _ in range(game.n))
    deck = draw(st.none() | st.lists(card, max_size=12).map(tuple))
    return Deal(hands, deck)


@given(st.data())
def test_every_action_kind_reads_back_what_it_writes(data: st.DataObject) -> None:
    game = data.draw(all_games())
    action = data.draw(any_action(game))
    text = format_action(game, action)
    assert parse_action(game, text) == action
    assert parse_action(game, text.upper()) == action, "notation is case-insensitive"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_legal_actions_in_play_read_back(ruleset: str) -> None:
    """Every legal action and chance outcome met in seeded games reads back; all kinds occur."""
    seen: set[type] = set()
    for n in PLAYER_COUNTS:
        game = game_of(ruleset, n)
        rng = random.Random(n)
        for g in range(4):
            s = game.initial_state()
            while not s.is_terminal:
                if s.decision.kind == DecisionKind.DEAL:
                    acts: list[Action] = [game.sample_chance(s, rng, deck_order=g % 2 == 0)]
                elif s.decision.is_chance:
                    acts = [a for a, _ in game.chance_outcomes(s)]
                else:
                    acts = game.legal_actions(s)
                for a in acts:
                    assert parse_action(game, format_action(game, a)) == a
                    seen.add(game.answers.verb_of(a))
                s = game.apply(s, acts[int(rng.random() * len(acts))]).state
    assert seen == set(ACTION_KINDS), sorted(set(ACTION_KINDS) - seen)


# ---------------------------------------------------------------------- scenarios
def round_trip(game: Game, state: State) -> State:
    """Dump ``state``, load the text again and build its position."""
    text = dump_scenario(game, state)
    again = parse_scenario(text, spec())
    assert dump_scenario(game, again.start(game)) == text, "dumping the reloaded position writes the same file"
    return again.start(game)


@pytest.mark.parametrize("path", scenario_files(), ids=lambda p: p.name)
def test_scenario_files_round_trip(path: object) -> None:
    sc = scenario(str(path))
    for ruleset in sc.rulesets:
        game = sc.game(spec(), ruleset)
        start = sc.start(game)
        if start.decision.kind == DecisionKind.PLAY:
            assert round_trip(game, start) == start
        final, _ = sc.position(game)
        if final.decision.kind == DecisionKind.PLAY:
            assert round_trip(game, final) == final


@given(st.data())
def test_generated_positions_round_trip(data: st.DataObject) -> None:
    ruleset = data.draw(st.sampled_from(RULESETS))
    sc = data.draw(positions(ruleset))
    game = sc.game(spec(), ruleset)
    start = sc.start(game)
    assume(start.decision.kind == DecisionKind.PLAY)  # else the player to move holds nothing: a gap
    assert round_trip(game, start) == start


@given(st.sampled_from(RULESETS), st.sampled_from(PLAYER_COUNTS), st.integers(0, 2**32 - 1), st.booleans(),
       st.integers(0, 90))
def test_positions_reached_in_play_round_trip(ruleset: str, n: int, seed: int, known: bool, stop: int) -> None:
    """Play a seeded game for ``stop`` actions; the next play position round-trips."""
    game = game_of(ruleset, n)
    rng = random.Random(seed)
    s = game.initial_state()
    done = 0
    while not s.is_terminal and (done < stop or s.decision.kind != DecisionKind.PLAY):
        if s.decision.kind == DecisionKind.DEAL:
            a = game.sample_chance(s, rng, deck_order=known)
        elif s.decision.is_chance:
            a = game.sample_chance(s, rng)
        else:
            acts = game.legal_actions(s)
            a = acts[int(rng.random() * len(acts))]
        s = game.apply(s, a).state
        done += 1
    assume(s.decision.kind == DecisionKind.PLAY)  # else the game ended first
    assert round_trip(game, s) == s
