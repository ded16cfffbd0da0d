"""What a state machine run plays: ruleset, player count, readings overridden, where it
starts (a real deal, a generated position or a scenario file) and which engine.

Synthetic rulesets are the reference ruleset with one engine parameter set to another
reading of its variation point (a parameter table with ``Setting(reading, point)`` for it), so
readings that no ruleset picks are exercised too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from palast.engine import Game
from palast.engine.params import Setting
from palast.formats.scenario import Scenario, load_scenario
from palast.spec.load import Spec, load_spec
from tests.stateful.ledger import RecordingParams

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CONSTRUCTED = Path(__file__).resolve().parent / "scenarios"
BASE = "reference"


@cache
def spec() -> Spec:
    """The spec, loaded once."""
    return load_spec()


@cache
def scenario(path: str) -> Scenario:
    """A scenario file, loaded once."""
    return load_scenario(path, spec())


def scenario_path(name: str) -> Path:
    """The constructed position or example scenario called ``name``."""
    own = CONSTRUCTED / name
    return own if own.exists() else EXAMPLES / name


def scenario_files() -> list[Path]:
    """Every example scenario and every constructed position of the stateful suite."""
    return sorted(EXAMPLES.glob("*.yaml")) + sorted(CONSTRUCTED.glob("*.yaml"))


@dataclass(frozen=True)
class MachineConfig:
    """One configuration of the state machine.

    :ivar label: a short name for reports.
    :ivar ruleset: the ruleset the game starts from.
    :ivar players: player count for real deals (generated and scenario starts choose their own).
    :ivar overrides: (engine parameter, reading) pairs set on top of the ruleset.
    :ivar start: ``"deal"``, ``"generated"`` or the path of a scenario file.
    :ivar engine: the :class:`Game` class (a broken variant in the live-invariant tests).
    """

    label: str
    ruleset: str
    players: int = 3
    overrides: tuple[tuple[str, str], ...] = ()
    start: str = "deal"
    engine: type[Game] = Game

    def game(self, colours: tuple[int, ...] | None = None) -> Game:
        """A fresh game of this configuration (``colours``: seated colour indices, default
        the first :attr:`players` colours); its parameters record every lookup."""
        sp = spec()
        seats: list[str | int] = list(colours) if colours is not None else list(sp.player_colours[:self.players])
        game = self.engine(sp, self.ruleset, seats, check=False)
        table = dict(game.params)
        for parameter, reading in self.overrides:
            table[parameter] = Setting(reading, table[parameter].point)
        game.params = RecordingParams(table)
        return game

    def describe(self) -> str:
        """The engine and readings in words, for a failure report."""
        parts = [f"ruleset {self.ruleset}"]
        if self.overrides:
            parts.append("readings overridden: " + ", ".join(f"{p} = {r}" for p, r in self.overrides))
        if self.engine is not Game:
            parts.append(f"engine {self.engine.__name__} (a deliberately broken variant)")
        return "; ".join(parts)


def module_points() -> set[str]:
    """The variation points only rule modules' rules read (spec/modules/): the machines play
    the base game, and tests/test_modules.py plays the modules under their readings."""
    s = spec()
    module_rules = {r for m in s.modules.values() for r in m.rules}
    users: dict[str, set[str]] = {}
    for rule in s.rules.values():
        for point in rule.variation_points:
            users.setdefault(point, set()).add(rule.id)
    return {point for point, rules in users.items() if rules <= module_rules}


def spec_readings() -> set[tuple[str, str]]:
    """Every (variation point, reading) pair the spec declares for a point with a parameter
    (but the points of rule modules, :func:`module_points`)."""
    skip = module_points()
    return {(vp.id, r.id) for vp in spec().variation_points.values() if vp.parameter is not None
            and vp.id not in skip for r in vp.readings}


def synthetic_overrides() -> list[tuple[str, str]]:
    """(parameter, reading) for every reading the reference ruleset does not pick."""
    out: list[tuple[str, str]] = []
    skip = module_points()
    for vp in spec().variation_points.values():
        if vp.parameter is None or vp.id in skip:
            continue
        chosen = vp.choices[BASE]
        out.extend((vp.parameter, r.id) for r in vp.readings if r.id != chosen)
    return out


#: Constructed positions that reach a parameter's variation point within their actions,
#: for the synthetic rulesets that override that parameter.
STARTS_BY_PARAMETER: dict[str, tuple[str, ...]] = {
    "cupbearer.scope": ("cupbearer-swap.yaml",),
    "cupbearer.actor_duplicate": ("cupbearer-swap.yaml",),
    "action.sixth_played": ("sixth-card-acts.yaml",),
    "king.reshuffle": ("marshal-empty-king-deck.yaml",),
    "winner.tiebreak": ("final-tie-broken.yaml", "final-tie-unbroken.yaml"),
    "winner.final_tie": ("final-tie-unbroken.yaml",),
    "neutral.tie": ("grey-tie-played.yaml",),
    "wizard.min_count": ("wizard-hands-2-and-4.yaml", "wizard-no-partner.yaml"),
    "maid.empty_deck": ("maid-empty-deck.yaml",),
    "maid.discard_to": ("maid-discard.yaml",),
}
