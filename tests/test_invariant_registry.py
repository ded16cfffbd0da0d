"""The registry of tests that establish the invariants (``tests/invariant_registry.py``) is
complete and true: every invariant of the spec has an entry, every test it names exists,
every broken engine is listed under the invariant it trips; and the invariants no broken
engine trips are shown live here, on a corrupted position or action."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from palast.engine import Game
from palast.engine.state import DecisionKind, State
from palast.invariants.check import round_play_bound
from palast.invariants.declared import failure
from palast.spec.load import Spec
from tests.conftest import make_game
from tests.invariant_registry import CAUGHT_BY, EVERY_INVARIANT

ROOT = Path(__file__).resolve().parent.parent
K = DecisionKind


def collected(files: set[str]) -> set[str]:
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                        *sorted(files)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return {line.strip() for line in r.stdout.splitlines() if "::" in line}


def test_every_invariant_has_tests_that_exist(spec: Spec) -> None:
    assert set(CAUGHT_BY) == set(spec.invariants)
    assert all(CAUGHT_BY.values())
    named = [*EVERY_INVARIANT, *(t for tests in CAUGHT_BY.values() for t in tests)]
    nodes = collected({t.split("::")[0] for t in named})
    for test in named:
        if "[" in test:
            assert test in nodes, f"{test} is not a test pytest collects"
        else:
            assert test in nodes or any(n.startswith(test + "[") for n in nodes), \
                f"{test} is not a test pytest collects"
    # one place says which tests establish an invariant: not the spec too
    assert all("tested_by" not in (inv.established_by or {}) for inv in spec.invariants.values())


def test_every_broken_engine_is_listed_under_its_invariant() -> None:
    from tests.stateful.mutants import MUTANTS

    prefix = "tests/test_live_invariants.py::test_broken_engine_is_caught_by_its_invariant"
    listed = {(inv, t.removeprefix(prefix)[1:-1]) for inv, tests in CAUGHT_BY.items() for t in tests
              if t.startswith(prefix + "[")}
    assert listed == {(m.catches, m.__name__) for m in MUTANTS}  # type: ignore[attr-defined]


def walk(game: Game, seed: int, stop: Callable[[State], bool]) -> State:
    """Play ``game`` at random from its start until ``stop`` holds."""
    rng = random.Random(seed)
    s = game.initial_state()
    for _ in range(5000):
        if stop(s):
            return s
        legal = game.legal_actions(s)
        s = game.apply(s, rng.choice(legal) if legal else game.sample_chance(s, rng)).state
    raise AssertionError("the position was not reached")


def _display_below_six(game: Game) -> State:
    s = walk(game, 1, lambda s: s.decision.kind == K.PLAY and len(s.hands[s.decision.player]) == game.hand_size)
    p = s.decision.player
    return replace(s, displays=tuple(s.hands[p] if i == p else d for i, d in enumerate(s.displays)))


def _game_ends_at_target(game: Game) -> State:
    s = walk(game, 2, lambda s: s.decision.kind == K.PLAY)
    return replace(s, scores=(game.target, *s.scores[1:]))


def _player_can_act(game: Game) -> State:
    s = walk(game, 3, lambda s: s.decision.kind == K.PLAY)
    p = s.decision.player
    return replace(s, hands=tuple(() if i == p else h for i, h in enumerate(s.hands)))


def _round_is_bounded(game: Game) -> State:
    s = walk(game, 4, lambda s: s.decision.kind == K.PLAY)
    return replace(s, played=(round_play_bound(game) + 1, *s.played[1:]))


def _round_end_cause(game: Game) -> State:
    s = walk(game, 5, lambda s: s.round_end is not None and s.round_end.kind == "whisper" and not s.round_end.forced)
    p = s.round_end.player  # type: ignore[union-attr]
    nr = game.cards.role_count
    seen: set[int] = set()
    kept = tuple(c for c in s.displays[p] if not (c % nr in seen or seen.add(c % nr)))  # type: ignore[func-returns-value]
    return replace(s, displays=tuple(kept if i == p else d for i, d in enumerate(s.displays)))


STATE_CASES: dict[str, Callable[[Game], State]] = {
    "display-below-six": _display_below_six,
    "game-ends-at-target": _game_ends_at_target,
    "player-can-act": _player_can_act,
    "round-is-bounded": _round_is_bounded,
    "round-end-cause": _round_end_cause,
}


@pytest.mark.parametrize("invariant", [*STATE_CASES, "turn-is-bounded"])
def test_check_reports_a_corrupted_position(spec: Spec, invariant: str) -> None:
    """The invariant's check holds on positions of real play and reports the corrupted one."""
    game = make_game(spec, "reference", 3, check=False)
    if invariant in STATE_CASES:
        broken = STATE_CASES[invariant](game)
        assert failure(game, invariant, broken), invariant
        return
    # turn-is-bounded: a step from a Cupbearer's swap decision to another swap decision
    before = walk(game, 6, lambda s: s.decision.kind == "swap")
    action = game.legal_actions(before)[0]
    res = game.apply(before, action)
    assert failure(game, invariant, res.state, before) is None
    again = replace(res.state, decision=before.decision)
    assert "swap" in (failure(game, invariant, again, before) or "")


@pytest.mark.parametrize("invariant", ["cupbearer-actor-repeat", "cupbearer-protects-others"])
def test_check_reports_a_corrupted_swap(spec: Spec, invariant: str) -> None:
    """A swap of real play keeps both swap invariants; the same swap whose result shows a role
    twice in the actor's display (or another player's) is reported by that invariant alone."""
    game = make_game(spec, "reference", 3, check=False)
    before = walk(game, 6, lambda s: s.decision.kind == "swap")
    actor = before.decision.player
    res = game.apply(before, game.legal_actions(before)[0])
    for inv in ("cupbearer-actor-repeat", "cupbearer-protects-others"):
        assert failure(game, inv, res.state, before) is None, inv
    seat = actor if invariant == "cupbearer-actor-repeat" else next(
        p for p in range(game.n) if p != actor and res.state.displays[p])
    shown = res.state.displays[seat]
    twice = tuple(shown + shown[:1] if i == seat else d for i, d in enumerate(res.state.displays))
    broken = replace(res.state, displays=twice)
    assert failure(game, invariant, broken, before)
    other = ({"cupbearer-actor-repeat", "cupbearer-protects-others"} - {invariant}).pop()
    assert failure(game, other, broken, before) is None
    # the same display on an action that is no swap is no swap's doing
    plain = walk(game, 7, lambda s: s.decision.kind == K.PLAY)
    after = game.apply(plain, game.legal_actions(plain)[0]).state
    assert failure(game, invariant, replace(after, displays=tuple(d + d[:1] for d in after.displays)), plain) is None


def test_the_corrupted_positions_start_from_positions_that_hold(spec: Spec) -> None:
    game = make_game(spec, "reference", 3, check=False)
    for seed in range(3):
        s = walk(game, seed, lambda s: s.decision.kind == K.PLAY)
        for inv in spec.invariants.values():
            if inv.holds is not None and inv.kind == "state":
                assert failure(game, inv.id, s) is None


def test_check_mode_leaves_out_an_invariant_a_reading_of_the_game_breaks(spec: Spec) -> None:
    """Source B's whisper reading of cupbearer-actor-duplicate breaks cupbearer-actor-repeat
    (its ``breaks``): a check-mode game under source B plays the stored counterexample's
    swap, which the invariant's own check refuses; under the reference the invariant is
    checked."""
    from palast.formats.scenario import load_scenario
    from palast.invariants.declared import checks

    path = ROOT / "proofs" / "witnesses" / "cupbearer-actor-repeat.source-b.yaml"
    sc = load_scenario(path, spec)
    game = Game(spec, "source-b", sc.players, check=True)
    assert "cupbearer-actor-repeat" in checks(game).suspended
    assert "cupbearer-actor-repeat" not in checks(Game(spec, "reference", sc.players, check=True)).suspended
    state = sc.start(game)
    *head, last = [s for _, s in sc.position(game)[1]]
    before = head[-1].state if head else state
    assert failure(game, "cupbearer-actor-repeat", last.state, before)  # the swap repeats a role for the actor
    assert last.state.round_end is not None and last.state.round_end.kind == "whisper"


def test_a_broken_lemma_leaves_its_invariant_checked(spec: Spec, tmp_path: Path) -> None:
    """A reading that declares it breaks a lemma's obligation (deck-reserve, a lemma of
    hand-plus-display) leaves out that lemma alone; one naming an obligation that proves an
    invariant under another name (round-actions-bounded proves turn-is-bounded) leaves out
    that invariant."""
    from palast.invariants.declared import readings_that_break, suspended_by_readings
    from palast.spec.load import load_spec
    from tests.spec_copy import edited_spec

    old = "          - obligation: cupbearer-actor-repeat\n"
    root = edited_spec(tmp_path, "variation_points.yaml", old, old + (
        "            because: it does.\n          - obligation: deck-reserve\n"
        "            because: it does.\n          - obligation: decisions-well-formed\n"
        "            because: it does.\n          - obligation: round-actions-bounded\n"))
    s = load_spec(root)
    got = suspended_by_readings(s, lambda point: str(s.reading("source-b", point)))
    assert got == {"cupbearer-actor-repeat", "deck-reserve", "decisions-well-formed", "turn-is-bounded"}
    assert suspended_by_readings(s, lambda point: str(s.reading("reference", point))) == frozenset()
    assert readings_that_break(s, "turn-is-bounded") == [("cupbearer-actor-duplicate", "whisper")]
    assert readings_that_break(s, "hand-plus-display") == []  # its lemma deck-reserve alone


def test_check_mode_reads_the_points_as_the_game_reads_them_now(spec: Spec) -> None:
    """A rule module's switch sets no ``parameter`` of its own (the engine parameter has the
    point's name): a reference game whose table switches the fan module on leaves out the
    invariants the module breaks, as the engine then plays its rules; assigning the
    reference's table again checks them again, as does changing a table in place."""
    from palast.engine.params import Setting
    from palast.invariants.declared import checks, game_reading

    broken = {b.invariant for m in spec.modules.values() for b in m.breaks}
    game = Game(spec, "reference", list(spec.player_colours[:3]), check=True)
    as_built = game.params
    assert spec.variation_points["fan-expansion"].parameter is None
    assert game_reading(game, "fan-expansion") == "off"
    assert not broken & checks(game).suspended
    point = game.params["fan-expansion"].point
    table = {**as_built, "fan-expansion": Setting("on", point)}
    game.params = table
    assert game_reading(game, "fan-expansion") == "on"
    assert broken <= checks(game).suspended
    game.params = as_built
    assert not broken & checks(game).suspended
    game.params = table
    assert broken <= checks(game).suspended
    table["fan-expansion"] = Setting("off", point)  # the same table, changed in place
    assert not broken & checks(game).suspended
