"""The clauses of a rule module's events: a module rule keeps the module's own clauses under
a ruleset that switches the module on, and an event fired while a module's exception bends
a base rule carries that exception's clauses too; nothing changes where the module is off."""

from __future__ import annotations

from pathlib import Path

import pytest

from palast.engine import Game
from palast.formats.house import resolve_all
from palast.query.ruling_files import load_ruling, rulings_dir
from palast.spec.load import Spec, cached_spec

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def mspec() -> Spec:
    base = cached_spec(str(ROOT / "spec"), rulings=False)
    houses = [h for h, e in base.house_rulesets.items()
              if any(e["readings"].get(m.point) == m.reading for m in base.modules.values())]
    return resolve_all(base, houses)


def _switched_on(spec: Spec) -> list[tuple[str, str]]:
    """(module id, ruleset) for every ruleset that switches a module on."""
    return [(m.id, rs) for m in spec.modules.values() for rs in spec.rulesets
            if spec.variation_points[m.point].choices.get(rs) == m.reading]


def test_a_module_rule_keeps_the_modules_clauses_where_it_is_on(mspec: Spec) -> None:
    pairs = _switched_on(mspec)
    assert {rs for _, rs in pairs} >= {"fan", "fan-b"}
    for module, rs in pairs:
        m = mspec.modules[module]
        for rule in m.rules:
            declared = set(mspec.rules[rule].clauses)
            assert set(m.clauses) & declared <= set(mspec.rule_clauses(rule, rs)), (rule, rs)


def _asked(spec: Spec, ruling_id: str, ruleset: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """The events (kind, rule, clauses) of a ruling's asked action under ``ruleset``."""
    from palast.formats.notation import parse_action

    ruling = load_ruling(rulings_dir(spec) / f"{ruling_id}.yaml", spec)
    game = Game(spec, ruleset, ruling.scenario.players)
    state, _ = ruling.scenario.position(game)
    assert ruling.action is not None
    step = game.apply(state, parse_action(game, ruling.action))
    return [(e.kind, e.rule, e.clauses) for e in step.events]


@pytest.mark.parametrize("ruling", ["fan-healer-draws", "fan-ranger-stacks", "fan-ranger-six-cards",
                                    "fan-orc-banned-jester", "fan-dwarf-destroys", "fan-goblin-searches"])
def test_the_module_rulings_cite_the_module(mspec: Spec, ruling: str) -> None:
    """Under fan, the asked action of each module ruling has events that cite the module's
    clauses: those a module rule fires, and the play a module's exception lets stand."""
    clauses = set(mspec.modules["fan"].clauses)
    module_rules = set(mspec.modules["fan"].rules)
    events = _asked(mspec, ruling, "fan")
    citing = [e for e in events if clauses <= set(e[2])]
    assert citing, events
    for kind, rule, cited in events:
        if rule in module_rules:
            assert clauses <= set(cited), (kind, rule, cited)
    # the base rulesets, where the module is off: the base rules' clauses, as before
    from palast.errors import IllegalActionError

    try:
        base = _asked(mspec, ruling, "reference")
    except IllegalActionError:  # nothing to choose without the module
        base = []
    for kind, rule, cited in base:
        assert cited == mspec.rule_clauses(rule, "reference"), (kind, rule, cited)


def test_the_play_the_ranger_lets_stand_cites_the_module(mspec: Spec) -> None:
    """fan-ranger-stacks: the Jester laid onto a Jester is a play of turn.play bent by the
    Ranger's exception: the card_played event cites turn.play's clauses and the module's."""
    events = _asked(mspec, "fan-ranger-stacks", "fan")
    played = next(e for e in events if e[0] == "card_played")
    assert set(mspec.rule_clauses(played[1], "fan")) <= set(played[2])
    assert set(mspec.modules["fan"].clauses) <= set(played[2])


HEALER_OTHER_JESTER = """players: [red, blue, green]
to_move: red
marks: {red: blue, blue: red, green: green}
deck: [maid/grey, treasurer/grey, guard/blue]
hands:
  red: [jester/red, maid/red, wizard/red]
  blue: [treasurer/blue, wizard/blue, maid/blue, marshal/blue]
  green: [treasurer/green, maid/green, jester/green]
displays:
  red: [treasurer/red, guard/red]
  blue: [cupbearer/blue]
  green: [wizard/green, guard/green]
"""


def test_the_healers_rule_leaves_a_jester_it_does_not_name_to_the_jesters_rule(mspec: Spec) -> None:
    """Red holds the blue card (the Healer) and plays the red Jester. Under fan
    (fan-jester-colour: named) the Healer's exception applies only to the blue Jester (its
    reading's condition), so the red Jester acts as the Jester's own rule says, citing its
    clauses as under the reference, not B.fan; the blue Jester draws, citing B.fan."""
    from palast.engine import Play
    from palast.formats.scenario import parse_scenario

    sc = parse_scenario(HEALER_OTHER_JESTER, mspec, "healer.yaml")
    events = {}
    for ruleset in ("fan", "reference"):
        game = sc.game(mspec, ruleset)
        step = game.apply(sc.start(game), Play(game.cards.parse_card("jester/red")))
        events[ruleset] = [(e.kind, e.rule, e.clauses) for e in step.events if e.kind == "action_none"]
    assert events["fan"] == events["reference"] == [("action_none", "role.jester", ("A.role.jester", "B.role.hofnarr"))]
    game = sc.game(mspec, "fan")
    blue = HEALER_OTHER_JESTER.replace("jester/red, maid/red", "jester/blue, maid/red")
    sc2 = parse_scenario(blue, mspec, "healer2.yaml")
    step = game.apply(sc2.start(game), Play(game.cards.parse_card("jester/blue")))
    drawn = [e for e in step.events if e.kind == "card_drawn"]
    assert drawn and "B.fan" in drawn[0].clauses
