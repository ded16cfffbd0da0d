"""Random complete games for every player count and ruleset, every invariant checked after
every action (check mode), and determinism of seeded play."""

from __future__ import annotations

import random

import pytest

from palast.engine import Game
from palast.engine.state import DecisionKind
from palast.sim.play import play_game, play_moves
from palast.spec.load import Spec
from tests.conftest import PLAYER_COUNTS, RULESETS, make_game

GAMES_PER_CELL = 40  # 9 cells -> 360 checked games in the default run


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_random_games_keep_every_invariant(spec: Spec, ruleset: str, n: int) -> None:
    game = make_game(spec, ruleset, n, check=True)
    ends: dict[str, int] = {}
    for seed in range(GAMES_PER_CELL):
        final = play_game(game, seed)  # check mode raises InvariantViolation on any failure
        assert final.is_terminal
        key = final.decision.kind if final.decision.kind == DecisionKind.GAME_OVER else final.decision.point
        ends[key] = ends.get(key, 0) + 1
        if final.decision.kind == DecisionKind.GAME_OVER:
            assert max(final.scores) >= game.target
            assert final.result is not None and final.result.winners
            top = max(final.scores)
            assert all(final.scores[w] == top for w in final.result.winners)
    # the reference ruleset decides every point a real game reaches
    if ruleset == "reference":
        assert ends == {"game-over": GAMES_PER_CELL}
    else:
        assert ends.get("game-over", 0) > 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_seed_same_game(spec: Spec, ruleset: str) -> None:
    game = make_game(spec, ruleset, 4, check=False)
    for seed in (1, 2, 3):
        a = [(m.action, m.step.state) for m in play_moves(game, seed)]
        b = [(m.action, m.step.state) for m in play_moves(game, seed)]
        assert a == b
    assert play_game(game, 1) != play_game(game, 2)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_playout_is_apply_without_events(spec: Spec, ruleset: str, n: int) -> None:
    """The fast path (playout) runs the same rule code as apply: same seed, same final state."""
    game = make_game(spec, ruleset, n, check=False)
    for seed in range(15):
        rng = random.Random(seed)
        s = game.initial_state()
        seen = [s]
        while not s.is_terminal:
            if s.decision.is_chance:
                a = game.sample_chance(s, rng)
            else:
                acts = game.legal_actions(s)
                a = acts[int(rng.random() * len(acts))]
            s = game.apply(s, a).state
            seen.append(s)
        assert game.playout(game.initial_state(), random.Random(seed)) == s
        for k in (1, 7, 23, len(seen) // 2):  # mid-game states too, decisions included
            assert game.playout(game.initial_state(), random.Random(seed), max_actions=k) == seen[k]


def test_invariant_checking_is_live(spec: Spec) -> None:
    """Check mode really evaluates the invariants: a corrupted position is caught."""
    from dataclasses import replace

    from palast.engine import InvariantViolation
    from palast.invariants.check import state_problems

    game: Game = make_game(spec, "reference", 3, check=True)
    rng = random.Random(0)
    s = game.initial_state()
    s = game.apply(s, game.sample_chance(s, rng)).state
    broken = replace(s, hands=((s.hands[0][0],) + s.hands[0],) + s.hands[1:])
    assert [i for i, _ in state_problems(game, broken)] == ["card-conservation"]
    act = game.legal_actions(broken)[0]
    with pytest.raises(InvariantViolation):
        game.apply(broken, act)
