"""Every check the Hypothesis state machine makes can fail: for each (tests/stateful/checks.py)
a broken engine or a broken state trips it and the machine reports the failure. The table of
checks is complete: a check site of tests/stateful/machine.py that no entry names, or an
entry whose tests pytest does not collect, fails here (issue 14, point 3)."""

from __future__ import annotations

import ast
import copy
import itertools
import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import find

import tests.stateful.machine as machine_module
from palast.engine import Action, Game, State, Step
from palast.engine.state import DecisionKind
from palast.spec.load import load_spec
from proofs.violation import Replay, load_violation, replay, violation_path
from tests.stateful.checks import CHECKS
from tests.stateful.configs import BASE, MachineConfig
from tests.stateful.failures import InvariantFailure
from tests.stateful.machine import PalastMachine, ReplayMismatch, machine_for

ROOT = Path(__file__).resolve().parent.parent
SPEC = load_spec()
#: Every strengthening lemma: it may fall with the invariant it supports.
LEMMAS = frozenset(lem.id for i in SPEC.invariants.values() for lem in i.lemmas)
K = DecisionKind
STATE_INVARIANTS = tuple(i for i, inv in SPEC.invariants.items() if inv.kind == "state")


class FirstChoice:
    """Stands in for Hypothesis's ``data`` when a rule is called by hand: draws the simplest
    value of a strategy."""

    def draw(self, strategy: Any, label: str | None = None) -> Any:
        return find(strategy, lambda _: True)


def machine(engine: type[Game] = Game, players: int = 3) -> PalastMachine:
    """A state machine instance (not run by Hypothesis: a test drives it)."""
    return machine_for(MachineConfig(f"trip {engine.__name__}", BASE, players, engine=engine))()


def dealt(m: PalastMachine, seed: int = 1) -> PalastMachine:
    m._begin(m.game.initial_state())
    m._deal(seed, True)
    return m


def stored(inv: str) -> Replay:
    return replay(load_violation(violation_path(inv), SPEC), SPEC)


def broken_engine(r: Replay) -> Game:
    """The engine of a stored violation (a data-only variant), or for a broken state an
    engine whose ``apply`` returns that broken state for the violation's last action."""
    if r.after == r.game.apply(r.before, r.action).state:
        return r.game
    engine = copy.copy(r.game)

    def apply(state: State, action: Action) -> Step:
        step = Game.apply(r.game, state, action)
        return Step(r.after, step.events) if (state, action) == (r.before, r.action) else step

    engine.apply = apply  # type: ignore[method-assign]
    return engine


# ---------------------------------------------------------------------- the invariant checks

@pytest.mark.parametrize("inv", tuple(SPEC.invariants))
def test_action_check_trips_on_every_stored_violation(inv: str) -> None:
    r = stored(inv)
    also = set(load_violation(violation_path(inv), SPEC).also)  # invariants it follows from
    m = machine()
    m.game = broken_engine(r)
    m._begin(r.before)
    with pytest.raises(InvariantFailure) as caught:
        m._apply(r.action)
    assert inv in caught.value.invariants and caught.value.invariants - {inv} <= LEMMAS | also
    assert also <= caught.value.invariants
    assert m.failed


@pytest.mark.parametrize("inv", STATE_INVARIANTS)
def test_every_step_state_check_trips(inv: str) -> None:
    r = stored(inv)
    m = machine()
    m.game = r.game
    m.state = r.after
    with pytest.raises(InvariantFailure) as caught:
        m.every_invariant_holds()
    assert inv in caught.value.invariants and caught.value.invariants - {inv} <= LEMMAS


@pytest.mark.parametrize("inv", STATE_INVARIANTS)
def test_start_position_check_trips(inv: str) -> None:
    r = stored(inv)
    m = machine()
    m.game = r.game
    m._begin(r.before)  # the position before holds
    with pytest.raises(InvariantFailure) as caught:
        m._begin(r.after)
    assert inv in caught.value.invariants and caught.value.invariants - {inv} <= LEMMAS


# ---------------------------------------------------------------------- the machine's own bounds

def test_round_action_bound_trips() -> None:
    m = dealt(machine())
    m.decide(FirstChoice())  # within the bound
    m.round_actions = m.bound  # a broken state: the round has had all the actions it can have
    with pytest.raises(InvariantFailure) as caught:
        m.decide(FirstChoice())
    assert caught.value.invariants == {"turn-is-bounded"}
    assert f"more than the bound {m.bound}" in str(caught.value)


def test_round_scores_once_trips() -> None:
    r = stored("scores-rise-slowly")
    real = Game(SPEC, r.game.ruleset if r.game.ruleset in SPEC.rulesets else BASE, r.game.seats)
    m = machine()
    m.game = real
    m._begin(r.before)
    good = real.apply(r.before, r.action).state
    assert any(a > b for a, b in zip(good.scores, r.before.scores, strict=True))  # the whisper scores
    # a broken state: the machine remembers the round's scores one lower, as if the scorers
    # had scored already in this round
    m.round_scores = tuple(s - 1 for s in r.before.scores)
    with pytest.raises(InvariantFailure) as caught:
        m._apply(r.action)
    assert caught.value.invariants == {"scores-rise-slowly"}
    assert "more than once in round" in str(caught.value)


# ---------------------------------------------------------------------- repeatability checks

class DealsAtRandom(Game):
    """A broken engine: a deal ignores the seed it is given."""

    _draws = itertools.count(1)

    def sample_chance(self, state: Any, rng: random.Random, *, deck_order: bool = True) -> Action:
        if state.decision.kind == K.DEAL:
            rng = random.Random(next(self._draws))
        return super().sample_chance(state, rng, deck_order=deck_order)


class PlayoutStops(Game):
    """A broken engine: its fast playout does nothing."""

    def playout(self, state: State, rng: random.Random, *, max_actions: int | None = None,
                choose: Callable[..., Action] | None = None) -> State:
        return state


class ChanceLosesMass(Game):
    """A broken engine: a chance decision's outcomes have half their probability."""

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [(a, p / 2) for a, p in super().chance_outcomes(state)]


class Forgetful(Game):
    """A broken engine: ``apply`` is not a function of its arguments (every call after the
    first few counts a card more in the tally)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls = 0

    def apply(self, state: State, action: Action) -> Step:
        step = super().apply(state, action)
        self.calls += 1
        if self.calls > 4:
            return Step(replace(step.state, tally=tuple(t + self.calls for t in step.state.tally)), step.events)
        return step


def test_deal_repeatable_trips() -> None:
    m = machine(DealsAtRandom)
    m._begin(m.game.initial_state())
    with pytest.raises(ReplayMismatch, match="same seed dealt two different deals"):
        m._deal(7, True)
    dealt(machine())  # the engine itself deals the same deal from the same seed


def test_playout_matches_trips() -> None:
    m = dealt(machine(PlayoutStops))
    with pytest.raises(ReplayMismatch, match="playout with seed 3"):
        m.play_on(seed=3, limit=5)
    dealt(machine()).play_on(seed=3, limit=5)  # the engine's playout matches


def _at_chance(m: PalastMachine) -> PalastMachine:
    """``m`` played on from an unknown-order deal until a draw or King card reveal."""
    m._begin(m.game.initial_state())
    m._deal(2, False)
    rng = random.Random(5)
    for _ in range(3000):
        if m.state.decision.kind in ("draw", "reveal"):
            return m
        if m.state.is_terminal:
            break
        s = m.state
        m._apply(m.game.sample_chance(s, rng) if s.decision.is_chance
                 else rng.choice(m.game.legal_actions(s)))
    raise AssertionError("no draw or reveal reached")


def test_chance_adds_up_trips() -> None:
    good = _at_chance(machine())
    good.chance(FirstChoice())  # the engine's outcomes add up
    m = _at_chance(machine(ChanceLosesMass))
    with pytest.raises(AssertionError, match="do not add up to 1"):
        m.chance(FirstChoice())


def test_history_replay_trips_on_a_broken_history() -> None:
    m = dealt(machine())
    for _ in range(3):
        m.decide(FirstChoice())
    m._check_replay()  # the true history replays
    m.states[2] = m.states[0]  # a broken state: the recorded history
    with pytest.raises(ReplayMismatch, match="before action 3"):
        m._check_replay()
    m = dealt(machine())
    m.decide(FirstChoice())
    m.state = m.states[0]
    with pytest.raises(ReplayMismatch, match="another final state"):
        m._check_replay()


def test_history_replay_trips_on_a_forgetful_engine() -> None:
    m = dealt(machine(Forgetful))
    for _ in range(2):
        m.decide(FirstChoice())
    with pytest.raises(ReplayMismatch):
        m._check_replay()


# ---------------------------------------------------------------------- preconditions

def _positions() -> dict[str, State]:
    game = Game(SPEC, BASE, list(SPEC.player_colours[:3]))
    start = game.initial_state()
    play = game.apply(start, game.sample_chance(start, random.Random(1))).state
    chance = _at_chance(machine()).state
    over = game.playout(start, random.Random(4))
    assert over.is_terminal
    return {"deal": start, "play": play, "chance": chance, "over": over}


#: Precondition -> the positions (of :func:`_positions`) where it must hold; it must not
#: hold at the others, so one broken to always or never hold fails.
PRECONDITIONS: dict[str, frozenset[str]] = {
    "_is_player_decision": frozenset({"play"}),
    "_is_enumerable_chance": frozenset({"chance"}),
    "_is_deal": frozenset({"deal"}),
    "_is_running": frozenset({"deal", "play", "chance"}),
    "_is_over": frozenset({"over"}),
}


@pytest.mark.parametrize("name", tuple(PRECONDITIONS))
def test_precondition_separates_decisions(name: str) -> None:
    pre = getattr(machine_module, name)
    m = machine()
    seen = set()
    for label, state in _positions().items():
        m.state = state
        if pre(m):
            seen.add(label)
    assert seen == PRECONDITIONS[name]


# ---------------------------------------------------------------------- the table is complete

def machine_sites() -> set[str]:
    """Every check site of PalastMachine (see tests/stateful/checks.py)."""
    tree = ast.parse((ROOT / "tests/stateful/machine.py").read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "PalastMachine")
    sites: set[str] = set()
    for fn in cls.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        for dec in fn.decorator_list:
            if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Name):
                if dec.func.id == "invariant":
                    sites.add(f"{fn.name}:@invariant")
                elif dec.func.id == "precondition":
                    sites.update(f"precondition:{a.id}" for a in dec.args if isinstance(a, ast.Name))
        counts = {"raise": 0, "assert": 0, "problems.append": 0}
        for node in ast.walk(fn):
            what = ""
            if isinstance(node, ast.Raise):
                what = "raise"
            elif isinstance(node, ast.Assert):
                what = "assert"
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "problems":
                what = "problems.append"
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("state_problems", "step_problems"):
                sites.add(f"{fn.name}:{node.func.id}")
            if what:
                sites.add(f"{fn.name}:{what}:{counts[what]}")
                counts[what] += 1
    return sites


def test_every_check_of_the_machine_is_in_the_table() -> None:
    listed = {s for c in CHECKS.values() for s in c.sites}
    found = machine_sites()
    assert found - listed == set(), "checks of the state machine with no entry in tests/stateful/checks.py"
    assert listed - found == set(), "entries of tests/stateful/checks.py the state machine no longer makes"
    assert len(found) >= 15


def test_every_check_has_a_test_that_trips_it() -> None:
    assert all(c.tests for c in CHECKS.values())
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", __file__],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    nodes = {line.strip() for line in r.stdout.splitlines() if "::" in line}
    for name, check in CHECKS.items():
        for test in check.tests:
            assert test in nodes or any(n.startswith(test + "[") for n in nodes), f"{name}: no test {test}"


def test_broken_engines_are_data_only_where_the_rule_language_says_the_rule() -> None:
    from tests.stateful.mutants import MUTANTS, DataVariant

    in_code = {m.__name__ for m in MUTANTS if not issubclass(m, DataVariant)}
    assert in_code == set()
    for m in MUTANTS:
        if issubclass(m, DataVariant):
            assert m.edits or m.readings, m.__name__
            assert set(vars(m)) <= {"__module__", "__doc__", "__qualname__", "__firstlineno__",
                                    "__static_attributes__", "catches", "edits", "readings",
                                    "__annotations__"}, f"{m.__name__} overrides engine code"
