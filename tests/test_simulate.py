"""palast simulate: the same seed gives the same numbers (with any number of workers), the
figures agree with games played independently through ``Game.apply``, the divergence
analysis finds exactly what comparing every state under every ruleset finds, and the
careful policy never whispers when it has a choice."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner

from palast.cli import main
from palast.engine import Game, Play, State
from palast.engine.state import DecisionKind
from palast.errors import IllegalActionError
from palast.sim.play import play_game, play_moves
from palast.sim.policies import careful_policy
from palast.sim.report import summary
from palast.sim.simulate import SimConfig, Simulator, Tally, simulate
from palast.spec.load import Spec
from tests.conftest import RULESETS, make_game


def _config(spec: Spec, games: int = 40, n: int = 3, seed: int = 100, policy: str = "uniform") -> SimConfig:
    return SimConfig(games, tuple(spec.player_colours[:n]), tuple(spec.rulesets), seed, policy)


def test_same_seed_same_numbers_across_workers(spec: Spec) -> None:
    config = _config(spec, games=40, policy="careful")
    one = summary(spec, config, simulate(spec, config, workers=1))
    two = summary(spec, config, simulate(spec, config, workers=2, chunk=7))
    assert one == two
    shifted = replace(config, seed=config.seed + 1000)
    other = summary(spec, shifted, simulate(spec, shifted))
    assert other["results"] != one["results"]


def test_figures_match_games_played_through_apply(spec: Spec) -> None:
    """Rounds, round ends, winners and gaps counted by the simulator equal those of the
    same seeds played by palast.sim.play (which is what `palast play --seed` runs)."""
    config = _config(spec, games=30, n=4, seed=7)
    tallies = simulate(spec, config)
    for rs in config.rulesets:
        game = make_game(spec, rs, 4, check=False)
        rounds: Counter[int] = Counter()
        ends: Counter[str] = Counter()
        gaps: Counter[str] = Counter()
        wins: dict[int, Fraction] = {}
        for i in range(config.games):
            final = None
            for m in play_moves(game, config.seed + i):
                final = m.step.state
                for e in m.step.events:
                    if e.kind == "round_ended":
                        ends["forced-whisper" if e.rule == "king.jester-forced" else e.detail] += 1
            assert final is not None
            if final.result is not None:
                rounds[final.round] += 1
                for w in final.result.winners:
                    wins[w] = wins.get(w, Fraction(0)) + Fraction(1, len(final.result.winners))
            else:
                gaps[final.decision.point] += 1
        t = tallies[rs]
        assert t.games == config.games
        assert t.rounds == rounds
        assert +t.round_ends == ends
        assert t.gaps == gaps
        assert t.win_share == wins


def _same(a: State, b: State) -> bool:
    """Same position: the tie-break reading named with the same winners, and the points a
    decision names, do not count (docs/simulation.md)."""
    def key(s: State) -> State:
        r = s.result
        return replace(s, result=replace(r, tiebreak="", tied=()) if r is not None else None,
                       decision=replace(s.decision, points=()))
    return key(a) == key(b)


def test_divergence_equals_brute_force(spec: Spec) -> None:
    """The simulator evaluates other rulesets only where the engine consulted a reading
    that differs; comparing every state under every ruleset finds the same games."""
    n, games = 3, 12
    players = tuple(spec.player_colours[:n])
    sim = Simulator(spec, players)
    plain = {r: Game(spec, r, list(players)) for r in RULESETS}
    for rs in RULESETS:
        for seed in range(games):
            expected: dict[str, int] = {}
            for m in play_moves(plain[rs], seed):
                s, a, after = m.before, m.action, m.step.state
                for other in RULESETS:
                    if other == rs:
                        continue
                    level = 0
                    try:
                        if not _same(plain[other].apply(s, a).state, after):
                            level = 2
                    except IllegalActionError:
                        level = 2
                    if not level and not s.decision.is_chance and \
                            plain[other].legal_actions(s) != plain[rs].legal_actions(s):
                        level = 1
                    if level:
                        expected[other] = max(level, expected.get(other, 0))
            t = Tally()
            sim.play(rs, seed, t)
            assert dict(+t.diverged) == dict.fromkeys(expected, 1), (rs, seed)
            assert dict(+t.outcome_diverged) == {o: 1 for o, lv in expected.items() if lv == 2}, (rs, seed)


def test_simulated_game_is_the_seeded_game(spec: Spec) -> None:
    sim = Simulator(spec, tuple(spec.player_colours[:5]))
    for rs in RULESETS:
        game = make_game(spec, rs, 5, check=False)
        for seed in (0, 9):
            assert sim.play(rs, seed, Tally()) == play_game(game, seed)


def test_careful_policy_avoids_whispers(spec: Spec) -> None:
    nr = len(spec.roles)
    chose_safe = 0
    for rs in RULESETS:
        game = make_game(spec, rs, 4, check=False)
        for seed in range(6):
            for m in play_moves(game, seed, careful_policy):
                d = m.before.decision
                if d.kind == DecisionKind.PLAY and isinstance(m.action, Play):
                    shown = {c % nr for c in m.before.displays[d.player]}
                    legal = game.legal_actions(m.before)
                    safe = [a for a in legal if isinstance(a, Play) and a.card % nr not in shown]
                    if safe and not d.forced:
                        assert m.action.card % nr not in shown
                        chose_safe += 1
    assert chose_safe > 0


def test_cli_simulate_json_and_bad_input(spec: Spec) -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["simulate", "--games", "20", "--players", "3", "--seed", "4", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["command"].startswith("palast simulate --games 20 --players 3 --seed 4")
    for res in doc["results"].values():
        assert res["games"] == 20
        assert abs(sum(res["win_rate"].values()) - 1) < 1e-3 or res["ended"] == 0
        assert sum(v["rounds"] for v in res["round_ends"].values()) == res["actions_per_round"]["count"]
        assert list(res["variation_points"]) == list(spec.variation_points)
    r = runner.invoke(main, ["simulate", "--players", "9"])
    assert r.exit_code == 2 and "--players" in r.stderr
    r = runner.invoke(main, ["simulate", "--ruleset", "nope"])
    assert r.exit_code == 2 and "unknown ruleset" in r.stderr


def test_tally_merge_is_order_free() -> None:
    rng = random.Random(1)
    parts = []
    for _ in range(4):
        t = Tally()
        t.games = rng.randrange(10)
        t.rounds.update({rng.randrange(3, 8): 1})
        t.win_share[rng.randrange(3)] = Fraction(1, rng.randrange(1, 4))
        t.example["p"] = rng.randrange(100)
        parts.append(t)
    a, b = Tally(), Tally()
    for t in parts:
        a.merge(t)
    for t in reversed(parts):
        b.merge(t)
    assert a == b


def test_reached_equals_brute_force(spec: Spec) -> None:
    """A point whose readings can change an outcome is reached exactly at the actions where
    some other reading of it, evaluated on the same state, gives other legal actions or
    another position: checking every action against every alternative finds the same."""
    players = tuple(spec.player_colours[:4])
    sim = Simulator(spec, players)
    for rs in RULESETS:
        played = Game(spec, rs, list(players))
        for seed in (1, 2):
            expected: Counter[str] = Counter()
            for m in play_moves(played, seed):
                legal = None if m.before.decision.is_chance else played.legal_actions(m.before)
                for param, point in sim.point_of.items():
                    if sim.changes_outcome[point] != "yes":
                        continue
                    if any(Simulator.differs(sim.variant(rs, param, v), m.before, m.action, legal, m.step.state)
                           for v in sim.alternatives[rs, param]):
                        expected[point] += 1
            t = Tally()
            sim.play(rs, seed, t)
            assert +Counter({p: n for p, n in t.reached.items() if sim.changes_outcome[p] == "yes"}) == expected, \
                (rs, seed)


def test_cli_simulate_writes_plots(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["simulate", "--games", "8", "--players", "3", "--plots", str(tmp_path / "plots")])
    assert r.exit_code == 0, r.output
    names = sorted(p.name for p in (tmp_path / "plots").iterdir())
    assert names == ["actions_per_round.png", "round_ends.png", "rounds_per_game.png", "variation_points.png",
                     "win_rate.png"]
    for name in names:
        assert (tmp_path / "plots" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert r.stdout.count("plot written:") == 5


def test_building_a_game_consults_no_reading(spec: Spec) -> None:
    """The engine's constructor reads no variation point's reading through ``params``: a
    reading read there would count as consulted at every action, inflating the figures
    and making simulate examine every action under every other ruleset."""
    from palast.sim.simulate import WatchedGame

    for ruleset in spec.rulesets:
        game = WatchedGame(spec, ruleset, list(spec.player_colours[:4]))
        assert game.params.always == frozenset(), (ruleset, sorted(game.params.always))
