"""Shared fixtures: the spec (loaded once) and games for every ruleset and player count;
how pytest-xdist shares the tests out among its worker processes."""

from __future__ import annotations

from typing import Any

import pytest

import tests.hypothesis_profiles  # noqa: F401  (registers and loads the Hypothesis profile)
from palast.engine import Game
from palast.spec.load import Spec, load_spec
from tests.stateful.ledger import WorkerLedgers

RULESETS = ("source-a", "source-b", "reference")
PLAYER_COUNTS = (3, 4, 5)


#: Test files whose tests run in one pytest-xdist worker, in order: test_docs.py builds the
#: book once per process (a session fixture), and the last tests of test_stateful.py read
#: what the state machines before them recorded in that process (and run again any that ran
#: elsewhere). Every other test is a unit of its own.
TOGETHER = ("tests/test_docs.py", "tests/test_stateful.py")


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(WorkerLedgers(), WorkerLedgers.name)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``--dist load`` (what ``-n`` gives): each file of :data:`TOGETHER` is one unit
    of work, the others one unit per test; the largest units go out first (xdist's
    ``--loadscope-reorder``), so the long ones do not end the run alone."""
    if config.getoption("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Together(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file = nodeid.split("::", 1)[0]
            return file if file in TOGETHER else nodeid

    return Together(config, log)


@pytest.fixture(scope="session")
def spec() -> Spec:
    return load_spec()


def make_game(spec: Spec, ruleset: str, n: int, *, check: bool = True) -> Game:
    """A game of the first ``n`` player colours under ``ruleset``."""
    return Game(spec, ruleset, list(spec.player_colours[:n]), check=check)
