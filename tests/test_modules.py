"""Rule modules (``spec/modules/``, :mod:`palast.spec.modules`) and the fan expansion module
that source B describes (B.fan): loading, the errors a broken module file gives, the chance
deal of character cards with exact probabilities, the notation of the two module decisions,
and that the module's rules apply only under a ruleset that switches it on."""

from __future__ import annotations

import random
from fractions import Fraction
from math import perm
from pathlib import Path

import pytest

from palast.engine import Choice, Game, Marks
from palast.engine.state import DecisionKind
from palast.errors import SpecError
from palast.formats.house import resolve_all
from palast.formats.notation import format_action, parse_action
from palast.formats.scenario import parse_scenario
from palast.spec.load import Spec, cached_spec, load_spec
from tests.spec_copy import edited_spec

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def spec() -> Spec:
    return resolve_all(cached_spec(str(ROOT / "spec"), rulings=False), ["fan", "fan-b"])


def test_the_fan_module_is_loaded_with_its_rules_and_switch(spec: Spec) -> None:
    """The module file declares the five character cards' rules and the dealing rule; the
    Healer's rule is one of the Jester's role rules."""
    m = spec.modules["fan"]
    assert (m.point, m.reading) == ("fan-expansion", "on")
    assert set(m.rules) == {"fan.characters", "fan.ranger", "fan.orc", "fan.dwarf", "fan.goblin", "fan.healer"}
    assert spec.rules["fan.healer"].role == "jester"
    assert "fan.healer" in spec.role_actions["jester"].rules
    assert {b.invariant for b in m.breaks} >= {"hand-plus-display", "no-repeated-role"}


@pytest.mark.parametrize(("old", "new", "message"), [
    ("switch: {point: fan-expansion, reading: \"on\"}", "switch: {point: fan-expansoin, reading: \"on\"}",
     "(module.switch.point): unknown variation point 'fan-expansoin'"),
    ("switch: {point: fan-expansion, reading: \"on\"}", "switch: {point: fan-expansion, reading: \"yes\"}",
     "(module.switch.reading): fan-expansion has no reading 'yes'"),
    ("    - invariant: hand-plus-display\n", "    - invariant: hand-plus-displays\n",
     "(module.breaks[0].invariant): unknown invariant 'hand-plus-displays'"),
    ("      witness: fan-healer-draws\n", "      witness: fan-healer-draw\n",
     "(module.breaks[0].witness): witness ruling 'fan-healer-draw' does not exist"),
    ("  - role: jester\n", "  - role: jokester\n", "(roles[0].role): unknown role 'jokester'"),
    ("  - id: fan.orc\n", "  - id: turn.play\n", "rule turn.play is listed twice"),
    ("    title: Fan expansion — the Rebel Orc (yellow)\n", "    titel: Fan expansion — the Rebel Orc (yellow)\n",
     "modules/fan.yaml: line"),
])
def test_a_broken_module_file_is_reported_at_its_place(tmp_path: Path, old: str, new: str, message: str) -> None:
    copy = edited_spec(tmp_path, "modules/fan.yaml", old, new)
    with pytest.raises(SpecError) as exc:
        load_spec(copy)
    assert message in str(exc.value)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_character_cards_are_dealt_at_random_with_exact_probabilities(spec: Spec, n: int) -> None:
    """Before the first deal, under fan, chance gives every player one of the five character
    cards, none twice: every arrangement equally likely, 5!/(5-n)! of them."""
    game = Game(spec, "fan", list(spec.player_colours[:n]))
    s = game.initial_state()
    assert s.decision.kind == DecisionKind.MARKS
    outcomes = game.chance_outcomes(s)
    assert len(outcomes) == perm(len(spec.player_colours), n)
    assert sum(p for _, p in outcomes) == 1
    assert {p for _, p in outcomes} == {Fraction(1, perm(len(spec.player_colours), n))}
    marks = outcomes[7][0]
    assert isinstance(marks, Marks) and len(set(marks.colours)) == n
    after = game.apply(s, marks).state
    assert after.marks == marks.colours
    assert after.decision.kind == DecisionKind.DEAL
    assert game.chance_probability(s, marks) == outcomes[7][1]


def test_without_the_module_no_character_card_is_dealt(spec: Spec) -> None:
    assert Game(spec, "reference", ["red", "blue", "green"]).initial_state().decision.kind == DecisionKind.DEAL


def test_the_module_decisions_have_a_notation_that_reads_back(spec: Spec) -> None:
    game = Game(spec, "fan", ["red", "blue", "green"])
    marks = Marks((game.cards.parse_colour("purple"), game.cards.parse_colour("red"), game.cards.parse_colour("blue")))
    assert format_action(game, marks) == "marks red:purple blue:red green:blue"
    assert parse_action(game, "marks green:blue red:purple blue:red") == marks
    for text in ("choose jester/red", "choose none"):
        assert format_action(game, parse_action(game, text)) == text
    assert parse_action(game, "choose none") == Choice(-1)


def test_a_scenario_gives_each_player_a_character_card_once(spec: Spec) -> None:
    base = ("players: [red, blue, green]\nto_move: red\nhands: {red: [maid/red], blue: [maid/blue], "
            "green: [maid/green]}\n")
    with pytest.raises(Exception, match="given twice"):
        parse_scenario(base + "marks: {red: blue, blue: blue, green: red}\n", spec=spec)
    with pytest.raises(Exception, match="not to green"):
        parse_scenario(base + "marks: {red: blue, blue: red}\n", spec=spec)


@pytest.mark.parametrize("ruleset", ["fan", "fan+fan-jester-colour=own", "fan+fan-destroyed-jester=under-deck",
                                     "fan+fan-dwarf-timing=jester-turn", "fan+fan-goblin-timing=turn-end"])
def test_games_with_the_module_play_to_the_end_with_every_other_invariant_checked(ruleset: str) -> None:
    """Random games under the module, in check mode: every invariant the module does not
    declare broken holds after every action, and every game ends."""
    spec = resolve_all(cached_spec(str(ROOT / "spec"), rulings=False), [ruleset])
    ends = 0
    for seed in range(2):
        rng = random.Random(seed)
        n = 3 + seed
        game = Game(spec, ruleset, list(spec.player_colours[:n]), check=True)
        s = game.initial_state()
        for _ in range(4000):
            if s.is_terminal:
                break
            if s.decision.is_chance:
                a = game.sample_chance(s, rng, deck_order=bool(seed % 2))
            else:
                legal = game.legal_actions(s)
                a = legal[int(rng.random() * len(legal))]
            s = game.apply(s, a).state
        assert s.marks, "the character cards were dealt"
        ends += s.decision.kind == DecisionKind.GAME_OVER
    assert ends == 2


def test_a_variation_point_listed_twice_is_reported(tmp_path: Path) -> None:
    """Two entries with one id: the later would silently win; spec check says so instead."""
    copy = edited_spec(tmp_path, "variation_points.yaml", "  - id: voluntary-whisper\n",
                       "  - id: fan-goblin-timing\n")
    with pytest.raises(SpecError, match="variation point fan-goblin-timing is listed twice"):
        load_spec(copy)


def test_the_colour_reading_is_consulted_only_where_it_matters(spec: Spec) -> None:
    """Under fan-b (fan-jester-colour open) a holder of a character card plays on while no
    Jester that either reading names is involved: no gap before a plain play."""
    text = ("players: [red, blue, green]\nto_move: green\nmarks: {blue: blue, green: green, red: yellow}\n"
            "hands: {red: [maid/red], blue: [maid/blue], green: [treasurer/green, maid/green]}\n")
    scenario = parse_scenario(text, spec)
    game = Game(spec, "fan-b", scenario.players)
    state, _ = scenario.position(game)
    assert state.decision.kind == DecisionKind.PLAY
    after = game.apply(state, parse_action(game, "play treasurer/green")).state
    assert after.decision.kind == DecisionKind.PLAY


def test_the_base_game_names_no_rule_of_a_module(spec: Spec) -> None:
    """The base game's files (rules, roles, flow) do not name a module's rules: where a
    module's rule must come first, it says so (``before``), and what it adds to the turn
    flow is declared in the module file (its ``flow``)."""
    base = [(ROOT / "spec" / f).read_text(encoding="utf-8") for f in ("rules.yaml", "roles.yaml", "flow.yaml")]
    named = [r for m in spec.modules.values() for r in m.rules if any(r in text for text in base)]
    assert not named


def test_a_module_exception_placed_before_a_base_exception_comes_first(spec: Spec) -> None:
    """The Rebel Orc's rule says it comes before king.jester-forced, so a hand of banned
    Jesters that holds the Orc's Jester is not forced to whisper."""
    from palast.lang.blocks import program

    order = [x.rule for x in program(spec).rules["king.jester"].exceptions]
    assert order.index("fan.orc") < order.index("king.jester-forced")


def test_a_module_adds_to_the_declared_flow(spec: Spec, tmp_path: Path) -> None:
    """The Healer's draw may follow a play only because the fan module's flow says so; the
    decision rests on the module's rule too."""
    play = spec.flow.decisions["play"]
    assert "draw" in play.then and "fan.healer" in play.rules
    assert spec.flow.follows("play", "draw")
    copy = edited_spec(tmp_path, "modules/fan.yaml", "    then: [draw]\n", "    then: [turn-over]\n")
    assert not load_spec(copy, rulings=False).flow.follows("play", "draw")


def test_a_stop_at_a_module_gap_suggests_a_ruleset_that_keeps_the_module(spec: Spec) -> None:
    """``palast play -r fan-b`` stops at a point the fan module leaves open under source B;
    the hint names a ruleset that reads the point with the module still on (fan), not one
    where the module is off."""
    from click.testing import CliRunner

    from palast.cli import main
    from palast.formats.house import settling

    assert settling(spec, "fan-b", "fan-jester-colour")[0] == "fan"
    assert settling(spec, "source-b", "final-tie")[0] in spec.rulesets
    res = CliRunner().invoke(main, ["play", "-r", "fan-b", "--seed", "1", "-q"])
    assert "leaves open (try --ruleset fan)" in res.stdout, res.stdout


def test_a_swap_beside_stacked_jesters_keeps_the_swap_invariants() -> None:
    """In this four-player game under fan (seed 402) a display shows two Jesters the Elf
    Ranger stacked, and later a Cupbearer swaps between two other displays: the swap adds
    no repeat, so check mode passes (cupbearer-protects-others once read any repeat in
    another display as the swap's)."""
    from click.testing import CliRunner

    from palast.cli import main

    res = CliRunner().invoke(main, ["play", "-r", "fan", "-s", "402", "-n", "4", "-q"])
    assert res.exit_code == 0, res.output
    assert "red wins after 6 rounds" in res.output, res.output


ORC_ONLY_JESTER = """
players: [red, yellow, blue]
to_move: blue
banned: jester
marks: {red: yellow, yellow: red, blue: blue}
hands:
  red: [jester/yellow]
  yellow: [treasurer/yellow, wizard/yellow, maid/yellow, marshal/yellow]
  blue: [treasurer/blue, maid/blue, wizard/grey, treasurer/red]
displays:
  red: [treasurer/grey, guard/red, maid/red, wizard/red, cupbearer/red]
  yellow: [cupbearer/yellow, guard/grey]
  blue: [wizard/blue, guard/blue]
actions: [play treasurer/red]
"""


def test_the_orc_plays_from_a_hand_of_banned_jesters_unforced(spec: Spec) -> None:
    """Under fan the Orc's holder whose hand is only its Jester, banned, plays it freely: the
    play is not forced (a whisper), so decisions-well-formed says a forced play comes from
    such a hand, not that such a hand forces one (it said so, and was false under fan)."""
    from palast.formats.house import resolve
    from palast.invariants.declared import failure

    fan = resolve(spec, "fan")
    scenario = parse_scenario(ORC_ONLY_JESTER, fan)
    game = scenario.game(fan, "fan")
    state, _ = scenario.position(game)
    assert state.decision.kind == DecisionKind.PLAY and state.decision.player == 0
    assert not state.decision.forced and state.king_in_force == list(fan.roles).index("jester")
    assert failure(game, "decisions-well-formed", state) is None
    plain = scenario.game(resolve(spec, "reference"), "reference")
    assert scenario.position(plain)[0].decision.forced  # without the module the hand forces a whisper


def test_an_invariant_proved_by_another_obligation_is_not_reported_unproved(
        spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    # fan's prove list names round-actions-bounded, which establishes turn-is-bounded
    from proofs import obligation
    from proofs.modules import not_proved

    lists = obligation.house_prove_lists(spec)
    fan = spec.modules["fan"]
    assert lists["fan"]["round-actions-bounded"] == "proved" and "turn-is-bounded" not in lists["fan"]
    assert not_proved(spec, fan) == []  # every invariant the module leaves standing is proved with it
    less = {k: v for k, v in lists["fan"].items() if k != "round-actions-bounded"}
    monkeypatch.setattr(obligation, "house_prove_lists", lambda spec: {**lists, "fan": less})
    assert not_proved(spec, fan) == ["turn-is-bounded"]
