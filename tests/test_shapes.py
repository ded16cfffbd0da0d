"""The shape of each decision's label, read from its declared options (proofs.shapes), and
the seat cases of the inductive prover, which must cover every position (issue 14,
point 1: the proofs name no role's decision)."""

from __future__ import annotations

import random
from typing import Any

import pytest
import z3

from palast.engine import Game
from palast.engine.state import DecisionKind
from palast.spec.load import Spec
from proofs.concrete import action_of, label_of
from proofs.encoding import Layout
from proofs.invariant import make_game, prove_invariant
from proofs.legality import action_kinds, shapes

K = DecisionKind


@pytest.mark.parametrize("ruleset", ["source-a", "source-b", "reference"])
def test_every_action_of_real_games_goes_to_a_label_and_back(spec: Spec, ruleset: str) -> None:
    """For every legal action of random games (3 to 5 players) the label its decision's shape
    gives it reads back as the same action; and every decision met is one an action of the
    model answers."""
    rng = random.Random(7)
    seen: set[DecisionKind] = set()
    for n in (3, 4, 5):
        game = make_game(spec, ruleset, n)
        lay = Layout(game, "card")
        kinds = set(action_kinds(lay))
        for _ in range(3):
            state = game.initial_state()
            while not state.is_terminal:
                d = state.decision
                if d.is_chance:
                    action = game.sample_chance(state, rng, deck_order=False)
                    options: list[Any] = [action]
                else:
                    options = list(game.legal_actions(state))
                    action = rng.choice(options)
                assert d.kind in kinds, d.kind
                for a in options:
                    assert action_of(lay, d.kind, label_of(lay, d.kind, a)) == a, (d.kind, a)
                seen.add(d.kind)
                state = game.apply(state, action).state
    assert {K.PLAY, "swap", "exchange-answer", "draw", K.DEAL} <= seen


def test_shapes_follow_the_declared_options(spec: Spec) -> None:
    """A swap's label holds its parts in the declared order (two seats, then two cards); a
    King card is known by the role it bans; the terminal decisions and those only a rule
    module opens have no action in the model."""
    lay = Layout(make_game(spec, "reference", 4), "card")
    sh = shapes(lay)
    assert (sh["swap"].form, sh["swap"].parts) == ("tuple", ("seat", "seat", "card", "card"))
    assert (sh["reveal"].form, sh["reveal"].parts) == ("element", ("role",))
    assert sh["exchange-give"].form == "cards" and sh[K.DEAL].form == "deal"
    assert sh["exchange-count"].parts == ("int",)
    assert K.GAME_OVER not in sh and K.GAP not in sh
    assert sh[K.MARKS].form == "never" and K.MARKS not in action_kinds(lay)
    with pytest.raises(ValueError, match="no action answers"):
        action_of(lay, K.MARKS, {"a": [0, 0, 0, 0], "vec": [], "deal": []})


def test_an_action_of_another_decision_has_no_label(spec: Spec) -> None:
    game: Game = make_game(spec, "reference", 3)
    lay = Layout(game, "card")
    state = game.initial_state()
    deal = game.sample_chance(state, random.Random(1), deck_order=False)
    state = game.apply(state, deal).state
    play = game.legal_actions(state)[0]
    with pytest.raises(ValueError, match="does not answer"):
        label_of(lay, "exchange-give", play)


def test_the_prover_asks_about_the_positions_no_seat_case_covers(spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    """With seat cases that cover no position at all, a property an action breaks is still
    found broken: the prover asks about the rest too (:func:`proofs.invariant.rest_case`).
    Without that, the cases had left out a pending answer whose decider is no seat."""
    import proofs.invariant as inv

    monkeypatch.setattr(inv, "seat_cases", lambda ctx, kind: [[z3.BoolVal(False)]])

    def no_score(s: Any) -> Any:
        return z3.And([s[f"score{p}"] == 0 for p in range(s.lay.n)])

    out = prove_invariant(spec, "reference", no_score, counts=(3,), assume=no_score)
    assert out.result == "counterexample", out.detail
    monkeypatch.setattr(inv, "rest_case", lambda cases: [z3.BoolVal(False)])
    assert prove_invariant(spec, "reference", no_score, counts=(3,), assume=no_score).result == "proved"


@pytest.mark.parametrize("ruleset", ["source-a", "source-b", "reference"])
def test_player_can_act_exempts_only_a_deal_and_what_no_action_answers(spec: Spec, ruleset: str) -> None:
    """player-can-act asks about every decision a player or chance answers in the base game:
    it leaves out only a deal, the terminal decisions and those only a rule module opens;
    and every decision a random game meets, a deal apart, is asked about."""
    from proofs.can_act_meaning import exempt

    rng = random.Random(3)
    for n in (3, 5):
        game = make_game(spec, ruleset, n)
        lay = Layout(game, "role")
        left_out = set(exempt(lay))
        assert left_out == {K.GAME_OVER, K.GAP, K.DEAL, K.MARKS, K.CHOICE}
        state = game.initial_state()
        while not state.is_terminal:
            assert state.decision.kind == K.DEAL or state.decision.kind not in left_out
            legal = game.legal_actions(state)
            action = rng.choice(legal) if legal else game.sample_chance(state, rng, deck_order=False)
            state = game.apply(state, action).state


def test_an_action_of_another_decision_is_refused_whatever_its_value(spec: Spec) -> None:
    """label_of refuses an action that does not answer the decision, even where its value
    has the decision's shape (a pick of four cards for a swap, a card for a partner)."""
    from palast.engine.actions import Pick, PickCards, Play

    lay = Layout(make_game(spec, "reference", 4), "card")
    for kind, action in (("swap", PickCards("give", (0, 1, 2, 3))), ("exchange-partner", Play(17)),
                         ("play", Pick("reveal", 1)), ("take-back", Pick("discard", 3))):
        with pytest.raises(ValueError, match="does not answer"):
            label_of(lay, kind, action)
