"""The invariants are live: the state machine, run against deliberately broken engines
(tests/stateful/mutants.py), finds a failure for each, and the failure is an invariant
failing (not a crash) — the invariant the broken rule is meant to trip. The failure is
printed as a scenario file that ``palast ask`` loads.

Shrinking a state-machine failure takes minutes, so outside the ``nightly`` profile these
tests stop at the first failure Hypothesis finds; the printed scenario already starts at
the last play position before the failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from palast.engine import Game
from palast.formats.scenario import load_scenario
from tests.hypothesis_profiles import PROFILE, stateful_examples
from tests.stateful.configs import BASE, MachineConfig, spec
from tests.stateful.failures import InvariantFailure, Printed
from tests.stateful.ledger import LEDGER
from tests.stateful.machine import machine_for
from tests.stateful.mutants import MUTANTS, GuardTakesItselfBack, MaidDoesNotDraw

ROOT = Path(__file__).resolve().parent.parent


def find_failure(engine: type[Game], players: int = 4) -> InvariantFailure:
    """Run the machine against ``engine`` (reference ruleset, real deals) until Hypothesis
    finds a failure; return it. Fails the test if none is found."""
    phases = tuple(p for p in settings().phases if PROFILE == "nightly" or p is not Phase.shrink)
    config = MachineConfig(f"{engine.__name__}, {players} players", BASE, players, engine=engine)
    with LEDGER.timed(config.label), pytest.raises(InvariantFailure) as caught:
        run_state_machine_as_test(machine_for(config), settings=settings(
            max_examples=stateful_examples(1.0), phases=phases, report_multiple_bugs=False))
    return caught.value


@pytest.mark.parametrize("engine", MUTANTS, ids=lambda m: m.__name__)
def test_broken_engine_is_caught_by_its_invariant(engine: type[Game]) -> None:
    failure = find_failure(engine)
    assert engine.catches in failure.invariants, failure.problems  # type: ignore[attr-defined]
    assert engine.catches in spec().invariants  # type: ignore[attr-defined]


def test_there_are_at_least_six_broken_engines() -> None:
    assert len(MUTANTS) >= 6
    assert len({m.__name__ for m in MUTANTS}) == len(MUTANTS)


def _ask(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "palast", "ask", str(path), "--json"], capture_output=True,
                          text=True, cwd=ROOT, env=dict(os.environ), timeout=120)


@pytest.mark.parametrize("engine", [GuardTakesItselfBack, MaidDoesNotDraw], ids=lambda m: m.__name__)
def test_failure_is_printed_as_a_scenario_palast_ask_loads(engine: type[Game], tmp_path: Path) -> None:
    failure = find_failure(engine)
    printed = failure.printed
    assert isinstance(printed, Printed)
    assert printed.text in str(failure), "the failure report prints the scenario"
    assert f"{engine.catches}:" in printed.text  # type: ignore[attr-defined]
    path = tmp_path / "failure.yaml"
    path.write_text(printed.text, encoding="utf-8")
    # the file loads, and its position is the play position the machine reached
    sc = load_scenario(path, spec())
    real = Game(spec(), BASE, sc.players)
    assert sc.start(real) == printed.position
    state, steps = sc.position(real)
    assert [text for text, _ in steps] == list(printed.accepted)
    if engine is GuardTakesItselfBack:
        # palast refuses the broken take-back; it stays in a comment, the Guard's play is kept
        assert printed.refused and printed.refused[0].startswith("take-back guard/")
        assert printed.accepted[-1].startswith("play guard/")
        assert "# The failing engine went on with actions" in printed.text
    # palast ask loads it and answers for the scenario's ruleset
    r = _ask(path)
    assert r.returncode == 0, r.stderr
    answer = json.loads(r.stdout)
    assert list(answer["rulesets"]) == [BASE]
    assert answer["rulesets"][BASE]["decision"]["kind"] == state.decision.kind
