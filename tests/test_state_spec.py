"""spec/state.yaml: the position declared once. ``palast spec check`` holds the rule
language, spec/visibility.yaml and the engine to it, and the engine keeps each zone as its
declaration says."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from palast.engine import Game, State, conformance
from palast.errors import SpecError
from palast.spec.load import Spec, load_spec
from tests.spec_copy import edited_spec


@pytest.mark.parametrize(("old", "new", "message"), [
    ("    title: draw deck\n", '    title: "   "\n', "(zones[2].title): a title is one line of words with no space"),
    ("    title: draw deck\n", '    title: "draw\\ndeck"\n', "(zones[2].title): a title is one line of words"),
    ("    title: discard pile\n", "    title: Draw Deck\n", "(zones[3].title): the title 'Draw Deck' is given to two"),
    ("    title: hand\n    per: player", "    title: hand\n    per: table",
     "(zones[0].name): the rule language reads zone hand as hand(seat) of kind cards, not as hand() of kind cards"),
    ("    holds: King cards\n    order: one", "    holds: cards\n    order: one",
     "(zones[5].name): the rule language reads zone king-in-force as in_force() of kind roles"),
    ("  - zone: king-spent\n", "  - zone: king-pile\n",
     "(zones[6].zone): 'king-spent' is no zone of spec/state.yaml"),
    ("    kind: seat\n", "    kind: int\n",
     "(counters[4].name): the rule language reads counter actor as actor() of kind seat, not as actor() of kind int"),
    ("    set: true\n    fields: [played]", "    fields: [played]",
     "statements set played, which no counter declares with set: true"),
    ("under: under_draw_deck", "under: beneath",
     "statements move cards to or from under_draw_deck, which no zone declares (name or under)"),
    ("    name: display\n", "    name: hand\n", "(zones[1].name): the name 'hand' is declared twice"),
    ("    order: deck\n    fields: [king_deck", "    order: laid\n    fields: [king_deck",
     "statements draw from king_deck, which no zone declares as a deck"),
    ("    fields: [displays]\n    start: empty\n    deal: empty\n", "    fields: [displays]\n    start: empty\n"
                                                                    "    deal: dealt\n",
     "one zone must take a hand dealt (deal: dealt), not 2 (hand, display)"),
    ("    fields: [discard]\n    start: empty\n", "    fields: [discard]\n    start: full\n",
     "(zones[3].start): only a deck starts with cards (discard-pile is laid)"),
    ("    fields: [last_card]\n    start: none\n", "    fields: [last_card]\n    start: zero\n",
     "(counters[5].start): a counter of kind card cannot be zero"),
    ("    fields: [round]\n    start: zero\n    deal: one more\n", "    fields: [round]\n    start: zero\n"
                                                                   "    deal: none\n",
     "(counters[3].deal): a counter of kind int cannot be none"),
    ("fields: [deck, deck_hidden, unseen, deck_bottom]", "fields: [deck, deck_hidden, unseen]",
     "(zones[2].fields): a deck's fields are its known top, its hidden count, its unseen cards and the known cards "
     "under them: 4 fields, not 3"),
])
def test_spec_check_refuses_a_broken_state(tmp_path: Path, old: str, new: str, message: str) -> None:
    with pytest.raises(SpecError) as exc:
        load_spec(edited_spec(tmp_path, "state.yaml", old, new))
    assert message in str(exc.value)
    assert "state.yaml: line" in str(exc.value) or "visibility.yaml: line" in str(exc.value)


@pytest.mark.parametrize(("old", "new", "message"), [
    ("    fields: [tally]\n", "    fields: [tallies]\n", "(counters[2].fields[0]): the engine's position has no field "
                                                          "'tallies'"),
    ("  - part: result\n    fields: [result]\n    deal: kept\n    says: The winners, once the game is over.\n", "",
     "the engine's position keeps 'result', which no zone, counter or part of the machine declares"),
    ("order: laid\n    fields: [king_spent]", "order: one\n    fields: [king_spent]",
     "(zones[6].fields[0]): the engine keeps 'king_spent' as tuple[int, ...], which cannot hold a number or one card"),
    ("fields: [king_deck, king_hidden, king_unseen]", "fields: [king_hidden, king_deck, king_unseen]",
     "(zones[4].fields[1]): the engine keeps 'king_deck' as tuple[int, ...], which cannot hold a number"),
])
def test_the_engine_refuses_a_state_it_does_not_keep(tmp_path: Path, old: str, new: str, message: str) -> None:
    spec = load_spec(edited_spec(tmp_path, "state.yaml", old, new))
    with pytest.raises(SpecError) as exc:
        conformance.require(spec)
    assert message in str(exc.value) and "state.yaml: line" in str(exc.value)


def _displays_after_play(spec: Spec, seeds: int = 30) -> list[tuple[int, ...]]:
    """Every display at the end of seeded random games (four players, reference ruleset)."""
    game = Game(spec, "reference", ["red", "blue", "green", "yellow"])
    out: list[tuple[int, ...]] = []
    for seed in range(seeds):
        s = game.playout(game.initial_state(), random.Random(seed), max_actions=60)
        out.extend(d for d in s.displays if len(d) > 1)
    return out


def test_a_zone_lies_as_its_declaration_says(tmp_path: Path, spec: Spec) -> None:
    """Displays grow in the order laid; declared ``sorted`` instead (a data-only edit), the
    engine keeps every display in card order."""
    laid = _displays_after_play(spec)
    assert any(list(d) != sorted(d) for d in laid), "no display was laid out of card order: the test shows nothing"
    edited = load_spec(edited_spec(tmp_path, "state.yaml", "    holds: cards\n    order: laid\n    fields: [displays]",
                                   "    holds: cards\n    order: sorted\n    fields: [displays]"))
    kept = _displays_after_play(edited)
    assert kept and all(list(d) == sorted(d) for d in kept)


@pytest.mark.parametrize(("old", "new", "message"), [
    ('text: "{player} plays {card}"', 'text: "{player} plays {the_card}"',
     "(effects[0].text): {the_card} is no field of an event's sentence"),
    ('text: "{player} plays {card}"', 'text: "{player} plays {card:card|cards}"',
     "(effects[0].text): {card:card|cards}: a format spec is one|many (two words) after count, hand_size, seats"),
    ('text: "{player} plays {card}"', 'text: "{player} plays {card"', "(effects[0].text): the sentence does not parse"),
    ('text: "{player} plays {card}"', 'text: "{player!r} plays {card}"', "{player!r}: a field is said as it is"),
    ('text: "{player} plays {card}"', 'text: "{player} plays {count:a|b|c}"', "{count:a|b|c}: a format spec is"),
    ("{if: {detail: six}", "{if: {detail: 6}", "(effects[24].cases[0].if): detail must be a word, not 6"),
    ("{if: {rule: role.guard.void}", "{if: {rule: role.guard.vod}", "'role.guard.vod' is no rule id"),
    ("{if: {card: none}", "{if: {card: guard/red}", "card can only be none"),
    ('words: "card played"', 'words: "{player} played"', "(effects[0].words): words are said as they are"),
])
def test_spec_check_refuses_a_broken_event_sentence(tmp_path: Path, old: str, new: str, message: str) -> None:
    with pytest.raises(SpecError) as exc:
        load_spec(edited_spec(tmp_path, "visibility.yaml", old, new))
    assert message in str(exc.value) and "visibility.yaml: line" in str(exc.value)


def test_an_event_is_told_as_declared(tmp_path: Path) -> None:
    """An event's sentence and its cases come from spec/visibility.yaml: edited there alone,
    palast ask tells the event anew."""
    from palast.engine import Event
    from palast.query.describe import describe_event

    spec = load_spec(edited_spec(tmp_path, "visibility.yaml", 'text: "{player} plays {card}"',
                                 'text: "{player} lays down {card}"'))
    game = Game(spec, "reference", ["red", "blue", "green"])
    card = game.cards.parse_card("guard/red")
    assert describe_event(game, Event("card_played", "turn.play", (), player=0, card=card)) == \
        "red lays down guard/red"
    # a case: the first whose condition holds, else the sentence
    three = Event("points_scored", "round.end.whisper", (), seats=(0, 1), count=3)
    one = Event("points_scored", "round.end.whisper", (), seats=(2,), count=1)
    assert describe_event(game, three) == "red and blue score 3 points"
    assert describe_event(game, one) == "green scores 1 point"
    void = Event("action_void", "role.guard.void", (), role=spec.roles.index("guard"))
    assert describe_event(game, void).endswith("there is no other card in the player's display to take back")


def _at_second_deal(spec: Spec) -> State:
    """The position right after the deal of round 2 in a seeded random four-player game."""
    game = Game(spec, "reference", ["red", "blue", "green", "yellow"])
    rng = random.Random(5)
    s = game.initial_state()
    while s.round < 2:
        a = game.sample_chance(s, rng) if s.decision.is_chance else rng.choice(game.legal_actions(s))
        s = game.apply(s, a).state
    return s


def test_a_deal_sets_what_the_declarations_say(tmp_path: Path, spec: Spec) -> None:
    """What a deal leaves of each counter is data: declared ``deal: zero``, the scores start
    every round at zero (a data-only edit); as declared, they carry over."""
    kept = _at_second_deal(spec)
    assert sum(kept.scores) >= 1 and kept.played == (0, 0, 0, 0) and not any(kept.displays)
    edited = load_spec(edited_spec(tmp_path, "state.yaml", "    fields: [scores]\n    start: zero\n    deal: kept\n",
                                   "    fields: [scores]\n    start: zero\n    deal: zero\n"))
    assert _at_second_deal(edited).scores == (0, 0, 0, 0)


def test_a_new_game_starts_as_the_declarations_say(tmp_path: Path, spec: Spec) -> None:
    """What a zone holds before the first deal is data: the King deck starts with every King
    card face down; declared ``start: empty``, it starts with none."""
    players = ["red", "blue", "green"]
    assert Game(spec, "reference", players).initial_state().king_deck_size == len(spec.king_roles)
    edited = load_spec(edited_spec(tmp_path, "state.yaml", "    fields: [king_deck, king_hidden, king_unseen]\n"
                                   "    start: full\n", "    fields: [king_deck, king_hidden, king_unseen]\n"
                                   "    start: empty\n"))
    assert Game(edited, "reference", players).initial_state().king_deck_size == 0


def test_a_declared_flow_that_breaks_down_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    """A data-only edit spec check cannot judge (the round number never raised by a deal)
    leaves a step with no rule that applies: palast play stops with exit 2 and says which
    step, no traceback (it ended in a RuntimeError)."""
    dst = edited_spec(tmp_path, "state.yaml", "    fields: [round]\n    start: zero\n    deal: one more\n",
                      "    fields: [round]\n    start: zero\n    deal: kept\n")
    run = subprocess.run([sys.executable, "-m", "palast", "--spec", str(dst), "play", "--players", "3", "--seed", "2",
                          "-q"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "no rule of step starter applies" in run.stderr
    assert "Traceback" not in run.stderr
