"""``palast ask`` lists every variation point an answer depends on (issue 16, point 3).

The answer's ``variation_points`` must hold the points named by its events and decisions
and every point whose reading the engine consulted while computing it. Here the consulted
readings are found independently of :mod:`palast.query.ask`: the scenario is replayed on a game
whose parameter table is a :class:`palast.engine.params.ConsultLog` (the hook ``palast
simulate`` uses), listing and applying every legal action as ``ask`` answers them. A
second check changes, one at a time, the reading of each point an answer does *not* list:
the answer must stay the same.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from palast.engine.params import ConsultLog
from palast.engine.state import DecisionKind
from palast.errors import IllegalActionError
from palast.formats.notation import parse_action
from palast.formats.scenario import Scenario, load_scenario
from palast.lang.logic import parameter_table
from palast.query.ask import ask
from palast.query.ruling_files import ruling_scenario
from palast.sim.simulate import WatchedGame, variant_spec
from palast.spec.load import Spec

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
RULINGS = sorted((ROOT / "spec" / "rulings").glob("*.yaml"))
WITNESSES = sorted((ROOT / "proofs" / "witnesses").glob("*.yaml"))
K = DecisionKind


def scenario_of(spec: Spec, path: Path) -> Scenario:
    """An example or witness as it is; a ruling as ``palast ask`` asks it: its scenario with
    the ruling's action applied, under the rulesets it states results for (a module's
    ruling gives character cards, which only its module's rulesets deal)."""
    if path.parent.name == "rulings":
        return ruling_scenario(path, spec)
    return load_scenario(path, spec)


def consulted(spec: Spec, sc: Scenario, ruleset: str) -> set[str]:
    """The variation points whose readings the engine reads when the scenario's actions are
    applied under ``ruleset`` (as far as they are legal) and every legal action (or chance
    outcome) of the position reached is carried out and what may follow is listed."""
    game = sc.game(spec, ruleset)  # a named house ruleset is added to the spec
    log = ConsultLog(game.params)
    game.params = log
    state = sc.start(game)
    for text, _ in sc.actions:
        if state.decision.kind in (K.GAP, K.GAME_OVER):
            break
        try:
            state = game.apply(state, parse_action(game, text)).state
        except IllegalActionError:
            break
    chance = state.decision.kind in ("draw", "reveal")
    actions = [a for a, _ in game.chance_outcomes(state)] if chance else game.legal_actions(state)
    for a in actions:
        game.legal_actions(game.apply(state, a).state)
    return {dict.__getitem__(log, p).point for p in log.consulted()}


def named(res: dict[str, Any]) -> set[str]:
    """The points an answer's events, decisions and stopping action name."""
    out = set(res["decision"]["variation_points"]) - set(res["decision"]["readings_consulted"])
    for h in res["history"]:
        for e in h["events"]:
            out |= set(e.get("variation_points", []))
    for o in res["outcomes"]:
        for e in o["events"]:
            out |= set(e.get("variation_points", []))
        out |= set(o["variation_points"]) - set(o["readings_consulted"])
    return out


@pytest.mark.parametrize("path", EXAMPLES + RULINGS + WITNESSES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_variation_points_are_the_named_and_the_consulted(spec: Spec, path: Path) -> None:
    sc = scenario_of(spec, path)
    answer = ask(spec, sc)
    every: list[str] = []
    for ruleset, res in answer["rulesets"].items():
        read = consulted(spec, sc, ruleset)
        listed = set(res["variation_points"])
        assert read <= listed, f"{ruleset}: readings consulted but not listed: {sorted(read - listed)}"
        assert listed <= read | named(res), f"{ruleset}: listed, neither consulted nor named: {listed - read}"
        assert set(res["readings_consulted"]) <= read
        every += res["variation_points"]
    assert set(answer["variation_points"]) == set(every)


def test_the_sixth_card_read_as_round_end_only_is_listed(spec: Spec) -> None:
    """Under source-a and the reference no event names sixth-card-action (the Treasurer
    simply acts), but the engine read the point's reading to decide so."""
    answer = ask(spec, load_scenario(ROOT / "examples" / "sixth-card-played.yaml", spec))
    for ruleset in ("source-a", "reference"):
        res = answer["rulesets"][ruleset]
        assert "sixth-card-action" in res["variation_points"]
        assert "sixth-card-action" in res["readings_consulted"]
        treasurer = next(o for o in res["outcomes"] if o["action"] == "play treasurer/red")
        assert "sixth-card-action" in treasurer["variation_points"]
        assert not any("sixth-card-action" in e.get("variation_points", []) for e in treasurer["events"])


def test_building_a_game_reads_no_reading(spec: Spec) -> None:
    """ask watches a game after it is built (palast.query.ask.watch): that misses nothing only
    because the engine reads no reading while building one."""
    for ruleset in spec.rulesets:
        assert WatchedGame(spec, ruleset, ["red", "blue", "green"]).params.always == frozenset()


def _without_points(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _without_points(v) for k, v in x.items()
                if k not in ("variation_points", "readings_consulted", "involved", "clauses")}
    if isinstance(x, list):
        return [_without_points(v) for v in x]
    return x


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_reading_not_listed_changes_nothing(spec: Spec, path: Path) -> None:
    """For each ruleset and each point its answer does not list, every other reading of
    that point (and leaving it open) gives the same answer. Only the clause ids cited may
    change: a rule cites the clauses of the readings its ruleset picks (a source's clause
    for a reading of that source), which is citation, not play."""
    sc = load_scenario(path, spec)
    table = parameter_table(spec)
    for ruleset, res in ask(spec, sc)["rulesets"].items():
        plain = _without_points(res)
        for vp in spec.variation_points.values():
            if vp.parameter is None or vp.id in res["variation_points"]:
                continue
            for value in sorted((set(table[vp.parameter][1]) | {"open"}) - {vp.choices[ruleset]}):
                other, name = variant_spec(spec, ruleset, vp.id, value)
                changed = ask(other, dataclasses.replace(sc, rulesets=(name,)), [name])["rulesets"][name]
                assert _without_points(changed) == plain, f"{ruleset} with {vp.id}={value}"
