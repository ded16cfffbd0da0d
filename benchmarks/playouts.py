"""Benchmark: uniformly random complete games, check mode off.

Prints games per second and actions per second for 3, 4 and 5 players under a ruleset
(default: reference). Each game is played by ``Game.playout`` — the engine's own rule code
on one working copy, without recording events — from the first deal to the end.

    python benchmarks/playouts.py [--games N] [--ruleset R] [--repeat K] [--also-apply]

``--also-apply`` also times the same games through ``Game.apply`` (a new immutable state
and the events for every action), the path ``palast play`` and the tests use.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from palast.engine import Game
from palast.play import play_moves
from palast.spec import load_spec


def count_actions(game: Game, seed: int) -> tuple[int, int]:
    """Actions and rounds of the game ``seed`` (played through ``apply`` by
    :func:`palast.play.play_moves`, the same seeded uniform play as :meth:`Game.playout`)."""
    moves = list(play_moves(game, seed))
    return len(moves), moves[-1].step.state.round


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games per player count and repeat")
    ap.add_argument("--ruleset", default="reference")
    ap.add_argument("--repeat", type=int, default=3, help="repeats; the best is reported")
    ap.add_argument("--also-apply", action="store_true", help="also time the apply() path")
    args = ap.parse_args()
    spec = load_spec()
    print(f"palast playouts: ruleset {args.ruleset}, {args.games} games x {args.repeat} repeats, "
          f"Python {platform.python_version()} on {platform.machine()}")
    print(f"{'players':>7} {'games/s':>9} {'actions/s':>10} {'actions/game':>13} {'rounds/game':>12}")
    for n in (3, 4, 5):
        game = Game(spec, args.ruleset, list(spec.player_colours[:n]))
        # actions per game, measured once on a sample through apply (playout records none)
        sample = [count_actions(game, seed) for seed in range(200)]
        per_game = sum(a for a, _ in sample) / len(sample)
        rounds = sum(r for _, r in sample) / len(sample)
        best = 0.0
        for _ in range(args.repeat):
            t = time.perf_counter()
            for seed in range(args.games):
                game.playout(game.initial_state(), random.Random(seed))
            best = max(best, args.games / (time.perf_counter() - t))
        print(f"{n:>7} {best:>9.0f} {best * per_game:>10.0f} {per_game:>13.1f} {rounds:>12.2f}")
        if args.also_apply:
            t = time.perf_counter()
            k = max(args.games // 5, 50)
            for seed in range(k):
                count_actions(game, seed)
            rate = k / (time.perf_counter() - t)
            print(f"{'':>7} {rate:>9.0f} {rate * per_game:>10.0f}   (through apply: new state and events per action)")


if __name__ == "__main__":
    main()
