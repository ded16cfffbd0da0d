"""Hypothesis stateful verification: the state machine of tests/stateful/machine.py plays
palast games and checks every invariant of spec/invariants.yaml after every action.

It runs for every ruleset and 3, 4 and 5 players from real deals; from generated positions;
from every example scenario and every constructed position under tests/stateful/scenarios;
and under synthetic rulesets that set one variation point to a reading the reference
ruleset does not take. The last test checks that across all these runs the engine consulted
every reading of every variation point (it looks the reading up in ``game.params``, which
the machine records), and prints how many state-machine steps were checked.

How much is generated depends on the Hypothesis profile (tests/hypothesis_profiles.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

from palast.invariants.check import round_action_bound, round_play_bound
from tests.conftest import PLAYER_COUNTS, RULESETS
from tests.hypothesis_profiles import PROFILE, stateful_examples
from tests.stateful.configs import (
    BASE,
    STARTS_BY_PARAMETER,
    MachineConfig,
    scenario,
    scenario_files,
    scenario_path,
    spec,
    spec_readings,
    synthetic_overrides,
)
from tests.stateful.ledger import LEDGER, SummaryPlugin
from tests.stateful.machine import machine_for

REAL = [MachineConfig(f"{rs}, {n} players, real deal", rs, n) for rs in RULESETS for n in PLAYER_COUNTS]
GENERATED = [MachineConfig(f"{rs}, generated position", rs, start="generated") for rs in RULESETS]
SCENARIOS = [MachineConfig(f"{rs}, {path.name}", rs, start=str(path))
             for path in scenario_files() for rs in scenario(str(path)).rulesets]
SYNTHETIC = [MachineConfig(f"{BASE} with {p} = {r}, {start}", BASE, 3 + i % 3, ((p, r),),
                           start if start == "deal" else str(scenario_path(start)))
             for i, (p, r) in enumerate(synthetic_overrides())
             for start in ("deal", *STARTS_BY_PARAMETER.get(p, ()))]
ALL = REAL + GENERATED + SCENARIOS + SYNTHETIC

#: Share of the profile's max_examples per configuration.
SHARE = {"real": 0.1, "generated": 0.1, "scenario": 0.01, "synthetic": 0.02}


@pytest.fixture(scope="module", autouse=True)
def report_at_the_end(request: pytest.FixtureRequest) -> Iterator[None]:
    """Register the plugin that prints the ledger in pytest's terminal summary."""
    pm = request.config.pluginmanager
    if not pm.has_plugin(SummaryPlugin.name):
        pm.register(SummaryPlugin(), SummaryPlugin.name)
    yield


def run(config: MachineConfig, share: float) -> tuple[int, int, int]:
    """Run the machine of ``config`` under the loaded profile; return the actions, rounds
    and games it played."""
    before = (LEDGER.actions, LEDGER.rounds, LEDGER.games)
    with LEDGER.timed(config.label):
        run_state_machine_as_test(machine_for(config), settings=settings(max_examples=stateful_examples(share)))
    return LEDGER.actions - before[0], LEDGER.rounds - before[1], LEDGER.games - before[2]


@pytest.mark.parametrize("config", REAL, ids=lambda c: c.label)
def test_real_deals(config: MachineConfig) -> None:
    """Whole games from real deals keep every invariant, and the runs finish games."""
    actions, rounds, games = run(config, SHARE["real"])
    assert actions > 0 and rounds > 0 and games > 0, (actions, rounds, games)


@pytest.mark.parametrize("config", GENERATED, ids=lambda c: c.label)
def test_generated_positions(config: MachineConfig) -> None:
    """Play from generated positions (empty decks, short hands, banned roles...) keeps every invariant."""
    actions, _, _ = run(config, SHARE["generated"])
    assert actions > 0


@pytest.mark.parametrize("config", SCENARIOS, ids=lambda c: c.label)
def test_scenario_starts(config: MachineConfig) -> None:
    """Play from every example and constructed scenario keeps every invariant."""
    run(config, SHARE["scenario"])


@pytest.mark.parametrize("config", SYNTHETIC, ids=lambda c: c.label)
def test_synthetic_readings(config: MachineConfig) -> None:
    """Readings no ruleset takes (the reference ruleset with one point read otherwise)
    keep every invariant."""
    run(config, SHARE["synthetic"])


def test_every_reading_is_consulted(capsys: pytest.CaptureFixture[str]) -> None:
    """Across the runs above (re-run here if they were deselected), the engine looked up
    every reading of every variation point that has an engine parameter."""
    shares = {**{c.label: SHARE["real"] for c in REAL}, **{c.label: SHARE["generated"] for c in GENERATED},
              **{c.label: SHARE["scenario"] for c in SCENARIOS}, **{c.label: SHARE["synthetic"] for c in SYNTHETIC}}
    for c in ALL:
        if c.label not in LEDGER.runs:
            run(c, shares[c.label])
    wanted = spec_readings()
    missing = wanted - LEDGER.read
    assert not missing, f"readings never consulted: {sorted(missing)}"
    unnamed = sorted(wanted - LEDGER.named)
    gaps = sorted(p for p, r in LEDGER.read if r == "open")
    print(f"stateful verification (profile {PROFILE}): {LEDGER.summary()}")
    print(f"all {len(wanted)} readings consulted; gaps reached: {', '.join(gaps)}")
    print("readings consulted but never named in an event's or decision's points: "
          + (", ".join(f"{p}={r}" for p, r in unnamed) or "none"))


def test_round_bounds_hold() -> None:
    """The derived bounds hold for the longest rounds the machines played (which check
    every round against them as it is played), and they grow with the players."""
    game3 = MachineConfig("3", BASE, 3).game()
    game5 = MachineConfig("5", BASE, 5).game()
    assert round_play_bound(game3) < round_play_bound(game5)
    assert round_action_bound(game3) < round_action_bound(game5)
    for n, (plays, actions) in LEDGER.longest_round.items():
        game = MachineConfig(str(n), BASE, n).game()
        assert plays <= round_play_bound(game) and actions <= round_action_bound(game)


def test_constructed_positions_are_loadable() -> None:
    """Every constructed position under tests/stateful/scenarios is a valid scenario."""
    files = [p for p in scenario_files() if p.parent.name == "scenarios"]
    assert len(files) >= 8
    for path in files:
        sc = scenario(str(path))
        assert sc.actions, f"{Path(path).name} lists no actions"
        assert spec().rulesets.keys() >= set(sc.rulesets)
