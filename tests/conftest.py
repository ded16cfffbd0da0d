"""Shared fixtures: the spec (loaded once) and games for every ruleset and player count."""

from __future__ import annotations

import pytest

import tests.hypothesis_profiles  # noqa: F401  (registers and loads the Hypothesis profile)
from palast.engine import Game
from palast.spec import Spec, load_spec

RULESETS = ("source-a", "source-b", "reference")
PLAYER_COUNTS = (3, 4, 5)


@pytest.fixture(scope="session")
def spec() -> Spec:
    return load_spec()


def make_game(spec: Spec, ruleset: str, n: int, *, check: bool = True) -> Game:
    """A game of the first ``n`` player colours under ``ruleset``."""
    return Game(spec, ruleset, list(spec.player_colours[:n]), check=check)
