"""A game's readings as built are fixed, and its compiled rules take them as constants
(:class:`palast.engine.params.Readings`, :meth:`palast.engine.codegen.BlockCompiler.known`).
Folding must change nothing but speed: the same games, event for event, as the rules compiled
to look each reading up as they run (the form a watched game, ``palast ask``, runs)."""

from __future__ import annotations

import pytest

from palast.engine import Game
from palast.engine.params import ConsultLog, Readings
from palast.sim.play import play_moves
from palast.spec.load import Spec

GAMES = 12


def _sources(game: Game) -> str:
    return "\n".join(game.runner.codegen.sources.values())


def test_readings_as_built_cannot_change_in_place(spec: Spec) -> None:
    game = Game(spec, "reference", list(spec.player_colours[:3]))
    assert type(game.params) is Readings
    name, setting = next(iter(game.params.items()))
    with pytest.raises(TypeError, match="assign a new table"):
        game.params[name] = setting
    with pytest.raises(TypeError):
        game.params.update({name: setting})
    with pytest.raises(TypeError):
        del game.params[name]
    # a game and its table are still copied and pickled whole
    import copy
    import pickle

    for twin in (copy.copy(game.params), copy.deepcopy(game.params), pickle.loads(pickle.dumps(game.params))):
        assert type(twin) is Readings and twin == game.params
    assert copy.deepcopy(game).params == game.params


@pytest.mark.parametrize("n", [3, 4, 5])
def test_folded_readings_play_the_same_games(spec: Spec, n: int) -> None:
    """Under every ruleset (house rules and the fan module included), seeded games played
    through ``apply`` give the same actions, states and events with the readings folded and
    looked up."""
    for ruleset in spec.rulesets:
        folded = Game(spec, ruleset, list(spec.player_colours[:n]))
        looked_up = Game(spec, ruleset, list(spec.player_colours[:n]))
        looked_up.params = dict(looked_up.params)
        for seed in range(GAMES):
            a = [(m.action, m.step.state, m.step.events) for m in play_moves(folded, seed)]
            b = [(m.action, m.step.state, m.step.events) for m in play_moves(looked_up, seed)]
            assert a == b, (ruleset, n, seed)
        # the two forms differ where they should: only the looked-up one reads parameters
        assert "G.params[" not in _sources(folded), ruleset
        assert "G.params[" in _sources(looked_up), ruleset


def test_a_watched_game_notes_the_readings_it_consults(spec: Spec) -> None:
    """Assigning a table that notes its lookups compiles the rules again, reading each
    parameter from it: a game played under it notes readings (folded code would note none)."""
    game = Game(spec, "reference", list(spec.player_colours[:4]))
    log = ConsultLog(dict(game.params))
    game.params = log
    for _ in play_moves(game, 0):
        pass
    assert "neutral.tie" in log.total or "play.duplicate" in log.total
    assert len(log.total) >= 3


def test_a_proof_layout_keeps_the_readings_it_was_built_with(spec: Spec) -> None:
    """The Z3 encoding takes its readings from the table it was built with
    (:attr:`proofs.encoding.Layout.readings`): a table assigned to ``game.params`` later
    (switching the fan module on, whose rules wait for a choice and set the marks) changes
    a layout built after it, its sites and fields included, and none of an older one's
    answers, memoised or not; nor the declared invariants compiled on an older one's
    positions."""
    from palast.engine.params import Setting
    from proofs.encoding import Layout
    from proofs.transition import Transition

    game = Game(spec, "reference", list(spec.player_colours[:3]))
    old = Transition(Layout(game, "role"))
    assert old.sites("choice", any_step=True) == []  # memoised from here on
    point = game.params["fan-expansion"].point
    game.params = {**game.params, "fan-expansion": Setting("on", point)}
    new = Transition(Layout(game, "role"))
    assert new.lay.reading("fan-expansion") == "on"
    assert new.sites("choice", any_step=True) != []
    assert "choice" in new.lay.sites and "marks" in new.lay.counters  # the module's rules in the layout too
    assert old.lay.reading("fan-expansion") == "off"
    assert old.sites("choice", any_step=True) == []
    assert "choice" not in old.lay.sites and "marks" not in old.lay.counters
    assert Transition(old.lay).sites("choice", any_step=True) == []  # not memoised: the same answer


def test_declared_invariants_follow_the_layouts_readings(spec: Spec) -> None:
    """An invariant that reads a variation point (next-player, a neutral tie) compiles on a
    layout's positions with that layout's readings, not with a table assigned to
    ``game.params`` after the layout was built (:func:`proofs.declared_z3.declared`)."""
    from palast.engine.params import Setting
    from proofs.declared_z3 import declared
    from proofs.encoding import Layout, ZState

    game = Game(spec, "reference", list(spec.player_colours[:3]))
    lay = Layout(game, "card")
    before = declared(ZState.fresh(lay, "a"), "next-player", ZState.fresh(lay, "b"))
    name = next(n for n, st in game.params.items() if st.point == "neutral-tie")
    other = next(v for v in ("player-who-played", "seat-order") if v != game.params[name].value)
    game.params = {**game.params, name: Setting(other, game.params[name].point)}
    again = declared(ZState.fresh(lay, "a"), "next-player", ZState.fresh(lay, "b"))
    assert again.eq(before)  # the same constants (same names), the same term
    new = Layout(game, "card")
    changed = declared(ZState.fresh(new, "a"), "next-player", ZState.fresh(new, "b"))
    assert not changed.eq(before)


def test_the_strengthening_follows_the_layouts_readings(spec: Spec) -> None:
    """The lemmas a proof context assumes (:func:`proofs.invariant.strengthening`) leave out
    those the layout's readings break, not those of the ruleset's name: a reference game
    with the fan module switched on in its table assumes none the module declares broken
    (spec/modules, ``breaks``); the reference's own table assumes them. (The named ruleset
    ``fan`` leaves out more: its prove list does not expect some of the others proved.)"""
    from palast.engine.params import Setting
    from proofs.encoding import Layout
    from proofs.invariant import STRENGTHENING, strengthening

    broken = {b.invariant for m in spec.modules.values() for b in m.breaks}
    assert broken & set(STRENGTHENING)  # else this test shows nothing
    game = Game(spec, "reference", list(spec.player_colours[:3]))
    plain = {name for name, _ in strengthening(Layout(game, "role"))}
    assert plain == set(STRENGTHENING)
    point = game.params["fan-expansion"].point
    game.params = {**game.params, "fan-expansion": Setting("on", point)}
    switched = {name for name, _ in strengthening(Layout(game, "role"))}
    assert switched == set(STRENGTHENING) - broken, switched


def test_the_site_of_a_decision_follows_the_layouts_readings(spec: Spec) -> None:
    """Where a pending decision names no statement (a position built outside the engine),
    the statement it waits at is found by the engine's rules under the layout's readings
    (:meth:`proofs.encoding.Layout.engine_runner`), not under a table assigned to
    ``game.params`` later: a fan Dwarf's or Goblin's choice keeps its site after the module
    is switched off on the game (the engine then found no statement waiting for it)."""
    import dataclasses
    import random

    from palast.engine.params import Setting
    from palast.engine.state import State
    from palast.formats.house import resolve
    from proofs.concrete import site_of
    from proofs.encoding import Layout

    fan = resolve(spec, "fan", None)
    game = Game(fan, "fan", list(fan.player_colours[:4]), check=False)
    lay = Layout(game, "card")
    assert len(lay.sites["choice"]) > 1
    rng = random.Random(7)
    found: list[tuple[State, int]] = []
    for _ in range(40):
        s = game.initial_state()
        while not s.is_terminal and len(found) < 3:
            if s.decision.kind == "choice":
                unnamed = dataclasses.replace(s, decision=dataclasses.replace(s.decision, rule=""))
                found.append((unnamed, site_of(lay, s)))
                assert site_of(lay, unnamed) == found[-1][1]
            legal = game.legal_actions(s)
            s = game.apply(s, rng.choice(legal) if legal else game.sample_chance(s, rng)).state
    assert found, "no choice decision met"
    point = game.params["fan-expansion"].point
    game.params = {**game.params, "fan-expansion": Setting("off", point)}
    for unnamed, site in found:
        assert site_of(lay, unnamed) == site
