"""What a player remembers (issue 15, point 3): cards known to lie outside the draw deck.

A card shown once, or moved where the viewer saw it go, stays placed in the viewer's view
(:attr:`palast.engine.views.Observation.placed`) until the next deal, and ``ask --as``
gives it no chance of being the draw deck's top. Checked on scenarios and, as a property,
on random real play under every ruleset (soundness against the true position).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palast.engine import Game, State
from palast.engine.actions import Pick
from palast.engine.views import Observation
from palast.formats.house import resolve
from palast.formats.scenario import load_scenario
from palast.query.ask_view import ask_as, located, unplaced, worlds
from palast.query.view_render import describe_placed
from palast.spec.load import Spec, cached_spec
from tests.conftest import PLAYER_COUNTS, RULESETS
from tests.positions import cards, play, position, random_walk, seat
from tests.test_views import EVERY_RULESET, game_for

#: The rulesets of the property: every ruleset and knowledge reading, and the reading under
#: which a discard goes back into the draw deck (so it is no longer placed).
KNOWLEDGE_RULESETS = (*EVERY_RULESET, "reference+maid-discard-destination=under-deck")
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "treasurer-shown-then-maid-draw.yaml"


def where(state: State, place: tuple[str, int]) -> tuple[int, ...]:
    """The true cards of a hand or of the discard pile."""
    return state.hands[place[1]] if place[0] == "hand" else state.discard


def matched(state: State, obs: Observation) -> bool:
    """True if each remembered copy can be given its own true copy lying in one of its
    places (tried by search over every assignment, independently of the engine's check)."""
    entries = [(c, p.places) for p in obs.placed for c in p.cards]

    def fit(i: int, used: Counter[tuple[int, str, int]]) -> bool:
        if i == len(entries):
            return True
        c, places = entries[i]
        for pl in places:
            key = (c, *pl)
            if where(state, pl).count(c) > used[key]:
                used[key] += 1
                if fit(i + 1, used):
                    return True
                used[key] -= 1
        return False

    return fit(0, Counter())


def top_probabilities(game: Game, state: State, obs: Observation) -> dict[int, Fraction]:
    """The viewer's probability of each card being the next drawn from the draw deck."""
    out: dict[int, Fraction] = {}
    for w, act, p in worlds(game, state, obs):
        top = act.value if isinstance(act, Pick) else w.deck[0]
        out[top] = out.get(top, Fraction(0)) + p
    return out


# --------------------------------------------------------------- (a) the Treasurer's showing
@pytest.mark.parametrize("ruleset", RULESETS)
def test_shown_hand_is_never_drawn_in_the_same_round(spec: Spec, ruleset: str) -> None:
    """After blue's Treasurer showed guard/blue and jester/blue (show-all, once), red's
    Maid draws each of them with probability 0 and every card red cannot place with
    (its copies) / (the cards red cannot place); without the memory both had a chance."""
    answer = ask_as(spec, load_scenario(EXAMPLE, spec), "red", [ruleset])["rulesets"][ruleset]
    assert [(p["cards"], p["places"]) for p in answer["view"]["placed"]] == [
        (["guard/blue", "jester/blue"], [{"zone": "hand", "player": "blue"}])]
    assert "red knows blue holds guard/blue,jester/blue" in answer["view"]["placed"][0]["text"]
    game = load_scenario(EXAMPLE, spec).game(spec, ruleset)
    shown = set(cards(game, ["guard/blue", "jester/blue"]))
    for o in answer["outcomes"]:
        drawn = {e["card"]: Fraction(r["probability"]) for r in o["results"] for e in r["events"]
                 if e["kind"] == "card_drawn"}
        assert sum(drawn.values()) == 1
        assert not {game.cards.format_card(c) for c in shown} & set(drawn)
        assert set(drawn.values()) == {Fraction(1, 20), Fraction(2, 20)}


def test_shown_hand_is_forgotten_at_the_next_deal(spec: Spec) -> None:
    """In random real play under the reference: a hand shown once stays placed (and out of
    the deck's top) for the rest of the round, as far as its cards stay in that hand; after
    the next deal nothing from the earlier round is remembered."""
    game = game_for(spec, "reference", 3)
    for seed in range(300):
        line = random_walk(game, seed, 400)
        final_events = line[-1][1]
        kinds = [e.kind for e in final_events]
        if "hand_shown" not in kinds:
            continue
        i = kinds.index("hand_shown")
        shower = final_events[i].player
        viewer = (shower + 1) % game.n
        deals = [j for j in range(i, len(kinds)) if kinds[j] == "round_dealt"]
        if not deals:
            continue
        later = [(s, ev) for s, ev in line if i < len(ev) <= deals[0] and s.decision.kind == "play"
                 and s.deck_size > 0 and set(final_events[i].cards) & set(s.hands[shower])]
        after = [(s, ev) for s, ev in line if len(ev) > deals[0] and s.decision.kind == "play"]
        if not later or not after:
            continue
        state, events = later[-1]
        obs = game.observation(state, viewer, events)
        still = Counter(final_events[i].cards) & Counter(state.hands[shower])
        mine = Counter(c for p in obs.placed if p.places == (("hand", shower),) for c in p.cards)
        assert still <= mine
        probs = top_probabilities(game, state, obs)
        for c in still:
            if located(game, obs)[c] == game.all_cards.count(c):
                assert probs.get(c, 0) == 0
        state2, events2 = after[0]
        obs2 = game.observation(state2, viewer, events2)
        assert all(p.index > deals[0] for p in obs2.placed)
        return
    pytest.fail("no game of 300 showed a hand and dealt again")


# --------------------------------------------------------------- (b) soundness on real play
@settings(deadline=None)
@given(ruleset=st.sampled_from(KNOWLEDGE_RULESETS), n=st.sampled_from(PLAYER_COUNTS),
       seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 400), who=st.integers(0, 4))
def test_remembered_cards_are_where_the_view_says(ruleset: str, n: int, seed: int, steps: int, who: int) -> None:
    """Every card the view lists as placed really lies in one of its places (each copy its
    own), never in a place the viewer sees now; no copy the viewer places is in the draw
    deck; the top card's probabilities add to 1, give 0 to a card whose copies are all
    placed, and every world of ``worlds`` agrees with what the viewer remembers."""
    game = game_for(cached_spec(), ruleset, n)
    state, events = random_walk(game, seed, steps)[-1]
    viewer = who % n
    obs = game.observation(state, viewer, events)
    open_seats = {s for s, _ in obs.open_hands}
    for p in obs.placed:
        for zone, s in p.places:
            assert (zone == "hand" and s != viewer and s not in open_seats) or (zone, s) == ("discard-pile", -1)
    assert matched(state, obs)
    in_deck = Counter(state.deck) + Counter(state.deck_bottom) + Counter(state.unseen)
    assert in_deck <= unplaced(game, obs)  # never placed: a copy that is in the draw deck or undealt
    if obs.zone("draw-deck").cards is not None or state.deck_size == 0 or state.decision.kind == "reveal":
        return
    probs = top_probabilities(game, state, obs)
    assert sum(probs.values()) == 1
    loc = located(game, obs)
    for c in set(game.all_cards):
        if loc[c] >= game.all_cards.count(c):
            assert probs.get(c, 0) == 0
    for w, _, _ in worlds(game, state, obs):
        assert matched(w, obs)


# --------------------------------------------------------------- (c) a hidden exchange
EXCHANGE = """
    players: [red, blue, green]
    to_move: blue
    played: {red: 2, blue: 3, green: 3}
    hands:
      red: [maid/red, jester/red, cupbearer/green, guard/red]
      blue: [treasurer/green, maid/blue, jester/blue]
      green: [wizard/red, maid/green, guard/green]
    displays:
      red: [treasurer/red, marshal/red]
      blue: [wizard/blue, cupbearer/blue, guard/blue]
      green: [treasurer/grey, jester/green, marshal/green]
    deck: 10
"""


def test_hidden_exchange_spreads_what_red_knows_over_both_hands(spec: Spec) -> None:
    """Red saw blue's hand (maid/blue, jester/blue); green's Wizard then exchanges one card
    with blue face down: red knows both cards lie in blue's or green's hand. Blue and green
    each know where the cards they gave went."""
    game, start = position(spec, "reference", EXCHANGE)
    before = play(game, start, "play treasurer/green", "play wizard/red", "partner blue", "count 1")
    red, blue, green = seat(game, "red"), seat(game, "blue"), seat(game, "green")
    shown = tuple(cards(game, ["maid/blue", "jester/blue"]))
    obs = game.observation(before.state, red, before.events)
    assert [(p.cards, p.places) for p in obs.placed] == [(tuple(sorted(shown)), (("hand", blue),))]
    line = play(game, before.state, "give maid/green", "give maid/blue")
    events = [*before.events, *line.events]
    obs = game.observation(line.state, red, events)
    assert [(p.cards, p.places) for p in obs.placed] == [(tuple(sorted(shown)), (("hand", blue), ("hand", green)))]
    assert matched(line.state, obs)
    assert describe_placed(game, obs, obs.placed[0]).startswith(
        "red knows maid/blue,jester/blue lie in blue or green's hand")
    blue_knows = game.observation(line.state, blue, events)
    assert [(p.cards, p.places) for p in blue_knows.placed] == [(tuple(cards(game, ["maid/blue"])), (("hand", green),))]
    green_knows = game.observation(line.state, green, events)
    held = Counter(c for p in green_knows.placed if p.places == (("hand", blue),) for c in p.cards)
    assert held == Counter(cards(game, ["jester/blue", "maid/green"]))



DISCARD = """
    players: [red, blue, green]
    to_move: blue
    played: {red: 2, blue: 3, green: 3}
    hands:
      red: [maid/red, jester/red, cupbearer/green, guard/red]
      blue: [treasurer/blue, maid/blue, jester/blue]
      green: [wizard/red, maid/green, guard/green]
    displays:
      red: [treasurer/red, marshal/red]
      blue: [wizard/blue, cupbearer/blue, guard/blue]
      green: [treasurer/grey, jester/green, marshal/green]
    deck: 10
"""


@pytest.mark.parametrize("ruleset", RULESETS)
def test_face_down_discard_leaves_hand_or_discard_pile(spec: Spec, ruleset: str) -> None:
    """Red saw blue's hand (maid/blue, jester/blue); blue plays the Maid (now in the display,
    no longer remembered) and discards one card face down: red knows jester/blue lies in
    blue's hand or on the discard pile; blue knows it is on the discard pile."""
    game, start = position(spec, ruleset, DISCARD)
    line = play(game, start, "play treasurer/blue", "play maid/blue", "discard jester/blue")
    red, blue = seat(game, "red"), seat(game, "blue")
    obs = game.observation(line.state, red, line.events)
    assert [(p.cards, p.places) for p in obs.placed] == [
        (tuple(cards(game, ["jester/blue"])), (("discard-pile", -1), ("hand", blue)))]
    assert matched(line.state, obs)
    mine = game.observation(line.state, blue, line.events)
    jester = tuple(cards(game, ["jester/blue"]))
    assert [(p.cards, p.places) for p in mine.placed] == [(jester, (("discard-pile", -1),))]
    assert describe_placed(game, obs, obs.placed[0]).startswith(
        "red knows jester/blue lies in blue's hand or the discard pile")


def test_discard_under_the_deck_is_not_placed(spec: Spec) -> None:
    """Under the reading under-deck the Maid's discard goes back into the draw deck: the
    discarding player does not place it (it may be drawn again), nor does anyone else."""
    ruleset = "reference+maid-discard-destination=under-deck"
    game, start = position(resolve(spec, ruleset), ruleset, DISCARD)
    line = play(game, start, "play treasurer/blue", "play maid/blue", "discard jester/blue")
    for viewer in range(game.n):
        obs = game.observation(line.state, viewer, line.events)
        assert obs.placed == ()
        assert unplaced(game, obs)[cards(game, ["jester/blue"])[0]] == 1


TWINS = """
    players: [red, blue, green]
    to_move: blue
    played: {red: 2, blue: 3, green: 3}
    hands:
      red: [maid/red, wizard/red, cupbearer/green, jester/red]
      blue: [treasurer/red, jester/grey, guard/blue]
      green: [wizard/green, maid/green, jester/grey]
    displays:
      red: [guard/red, marshal/red]
      blue: [maid/blue, cupbearer/blue, wizard/blue]
      green: [treasurer/green, jester/green, marshal/green]
    deck: 17
"""


def test_worlds_keep_a_remembered_copy_where_it_is(spec: Spec) -> None:
    """Blue showed one jester/grey; the other copy is in green's hand, unknown to red. In
    the world where red's Maid draws jester/grey, the copy comes from green's hand, never
    from blue's; its chance is that of one unplaced copy."""
    game, start = position(spec, "reference", TWINS)
    line = play(game, start, "play treasurer/red", "play maid/red")
    red, blue = seat(game, "red"), seat(game, "blue")
    obs = game.observation(line.state, red, line.events)
    grey = cards(game, ["jester/grey"])[0]
    assert unplaced(game, obs)[grey] == 1
    for w, _, _ in worlds(game, line.state, obs):
        assert matched(w, obs)
        assert w.hands[blue] == line.state.hands[blue]
    assert top_probabilities(game, line.state, obs)[grey] == Fraction(1, sum(unplaced(game, obs).values()))
