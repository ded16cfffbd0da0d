"""``palast ask`` with a scenario's actions: answered per ruleset as far as they apply (an
action illegal, or play at a gap, under one ruleset only; "not legal" when illegal under every
ruleset asked; a refused Cupbearer swap with its reason; a gap citing the rule being applied),
winners that differ at a game end reported as a disagreement, and a ruling file asked with its
action under the rulesets it states a result for. The scenarios are built by
tests/ask_scenarios.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from palast.cli import main
from palast.formats.scenario import load_scenario, parse_scenario
from palast.query.ask import ask, render_text
from palast.spec.load import Spec
from palast.spec.yamlio import read_yaml
from tests.ask_scenarios import EXAMPLES, ROOT, readme_scenario, with_actions


def by_what(answer: dict[str, Any], what: str) -> list[dict[str, Any]]:
    return [d for d in answer["disagreements"] if d["what"] == what]


# ---------------------------------------------------------------- finding 1: actions per ruleset
def test_readme_scenario_answers_with_source_b_stopped_at_its_gap(spec: Spec) -> None:
    sc = parse_scenario(readme_scenario(), spec, "README.md")
    assert sc.actions, "the README's scenario example should apply an action"
    a = ask(spec, sc)
    for r in ("source-a", "reference"):
        res = a["rulesets"][r]
        assert res["stopped_at"] is None
        assert [h["action"] for h in res["history"]] == ["play jester/grey"]
        assert "round_ended" in [e["kind"] for e in res["history"][0]["events"]]
    stop = a["rulesets"]["source-b"]["stopped_at"]
    assert stop["index"] == 1 and stop["action"] == "play jester/grey"
    assert stop["why"] == "gap" and stop["gap"] == "banned-jester-forced"
    assert "A.king.jester" in stop["clauses"] and stop["place"].startswith("line ")
    assert a["rulesets"]["source-b"]["history"] == []
    (d,) = by_what(a, "actions")
    assert d["groups"] == [["source-a", "reference"], ["source-b"]]
    assert d["variation_points"] == ["banned-jester-forced"]
    assert d["stopped_at"] == {"source-a": None, "source-b": 1, "reference": None}


def test_readme_scenario_exits_0_on_the_command_line(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(readme_scenario(), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "palast", "ask", str(f), "--json"], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["actions"] == ["play jester/grey"]
    assert doc["rulesets"]["source-b"]["stopped_at"]["gap"] == "banned-jester-forced"


def test_action_illegal_under_one_ruleset_only(spec: Spec) -> None:
    """The Marshal acts as red's sixth card played under source-a and the reference (a King
    card is revealed); under source-b it does not, so `reveal maid` is illegal there."""
    sc = with_actions(spec, EXAMPLES / "sixth-card-played.yaml", ["play marshal/grey", "reveal maid"])
    a = ask(spec, sc)
    for r in ("source-a", "reference"):
        res = a["rulesets"][r]
        assert res["stopped_at"] is None and len(res["history"]) == 2
    res = a["rulesets"]["source-b"]
    stop = res["stopped_at"]
    assert (stop["index"], stop["action"], stop["why"], stop["gap"]) == (2, "reveal maid", "illegal", None)
    assert stop["reason"]
    assert [h["action"] for h in res["history"]] == ["play marshal/grey"]
    assert "action_skipped" in [e["kind"] for e in res["history"][0]["events"]]
    assert res["legal_actions"], "the answer shows what may be done instead"
    (d,) = by_what(a, "actions")
    assert d["groups"] == [["source-a", "reference"], ["source-b"]]
    assert "sixth-card-action" in d["variation_points"]
    assert "action 2 (reveal maid) is illegal here" in d["text"]
    text = render_text(a, full=True)
    assert "-- ruleset source-b: action 2 (reveal maid) is illegal here" in text
    assert "the rulesets agree" not in text
    grouped = " ".join(render_text(a, width=100).split())
    assert "source-b: action 2 (reveal maid) is illegal here" in grouped
    assert "(applied) reveal maid [sixth-card-action]: source-a and reference: red reveals the King card" in grouped
    assert "source-b: not applied" in grouped and "the rulesets agree" not in grouped


def test_actions_illegal_under_every_ruleset_are_answered_not_legal(spec: Spec) -> None:
    """"Is this action legal?" is a question: illegal under every ruleset, the answer says
    why under each (reason and clause ids), the text says "not legal", and the command
    exits 1 with the usual answer, in text or JSON."""
    path = ROOT / "tests" / "bad_inputs" / "scenarios" / "illegal-action.yaml"
    a = ask(spec, load_scenario(path, spec))
    assert a["not_legal"] is True
    for res in a["rulesets"].values():
        stop = res["stopped_at"]
        assert (stop["index"], stop["why"], stop["reason"]) == (1, "illegal", "a banned Jester may not be played")
        assert "A.king.jester" in stop["clauses"] and stop["place"].startswith("line 7")
        assert res["legal_actions"] == ["play maid/red"], "what may be done instead"
    text = " ".join(render_text(a, width=100).split())
    assert ("not legal under every ruleset asked: under source-a, source-b and reference, action 1 "
            "(play jester/grey) is illegal: a banned Jester may not be played [A.role.jester, A.king.jester") in text
    r = CliRunner().invoke(main, ["ask", str(path)])
    assert r.exit_code == 1 and "not legal under every ruleset asked" in r.output
    r = CliRunner().invoke(main, ["ask", "--json", str(path)])
    assert r.exit_code == 1 and json.loads(r.output)["not_legal"] is True
    legal = CliRunner().invoke(main, ["ask", "--json", str(EXAMPLES / "guard-alone.yaml")])
    assert legal.exit_code == 0 and json.loads(legal.output)["not_legal"] is False


def test_legal_under_one_ruleset_is_not_not_legal(spec: Spec) -> None:
    sc = with_actions(spec, EXAMPLES / "sixth-card-played.yaml", ["play marshal/grey", "reveal maid"])
    assert ask(spec, sc)["not_legal"] is False
    assert ask(spec, sc, ["source-b"])["not_legal"] is True


def test_a_single_ruleset_at_a_gap_is_answered(spec: Spec) -> None:
    sc = parse_scenario(readme_scenario(), spec, "README.md")
    a = ask(spec, sc, ["source-b"])
    assert a["rulesets"]["source-b"]["stopped_at"]["why"] == "gap"
    assert a["disagreements"] == []


# ---------------------------------------------------------------- finding 2: winners at a game end
def test_different_winners_at_a_game_end_are_a_disagreement(spec: Spec) -> None:
    sc = with_actions(spec, EXAMPLES / "game-end-tie.yaml", ["play wizard/green"])
    a = ask(spec, sc)
    winners = {r: res["decision"]["winners"] for r, res in a["rulesets"].items()}
    assert winners == {"source-a": ["blue"], "source-b": ["red"], "reference": ["red"]}
    assert all(res["decision"]["kind"] == "game-over" for res in a["rulesets"].values())
    (d,) = by_what(a, "outcome")
    assert d["action"] == "play wizard/green"
    assert d["groups"] == [["source-a"], ["source-b", "reference"]]
    assert d["variation_points"] == ["game-end-tiebreak"]
    assert d["winners"] == winners
    assert "game-end-tiebreak" in a["variation_points"]
    text = render_text(a, full=True)
    assert "the rulesets agree" not in text and "choose different winners" in text
    grouped = render_text(a, width=100)
    assert "   decision [game-end-tiebreak]:" in grouped and "the rulesets agree" not in grouped
    assert re.search(r"source-a: the game is over: blue wins", grouped), grouped


def test_a_final_tie_names_final_tie(spec: Spec) -> None:
    ruling = ROOT / "spec" / "rulings" / "game-end-final-tie.yaml"
    action = read_yaml(ruling).data["action"]
    a = ask(spec, with_actions(spec, ruling, [action], key="scenario"))
    res = a["rulesets"]
    assert res["source-a"]["decision"]["gap"] == "final-tie"
    assert res["reference"]["decision"]["winners"] == ["red", "blue"]
    (d,) = by_what(a, "decision")
    assert d["groups"] == [["source-a", "source-b"], ["reference"]]
    assert "final-tie" in d["variation_points"] and "final-tie" in a["variation_points"]


# ---------------------------------------------------------------- refused actions and gaps
def test_a_refused_cupbearer_swap_names_its_reason(spec: Spec) -> None:
    """A refused swap says why, in the ruleset's own terms: under source-a (and the
    reference) the Cupbearer's player may not take a second role of a kind
    (cupbearer-actor-duplicate: forbidden), which source-b allows; a card not displayed
    and the Cupbearer just played are named as such (role.cupbearer)."""
    sc = with_actions(spec, EXAMPLES / "game-end-tie.yaml",
                      ["play cupbearer/red", "swap green:maid/blue blue:wizard/blue"])
    a = ask(spec, sc)
    for ruleset in ("source-a", "reference"):
        stop = a["rulesets"][ruleset]["stopped_at"]
        assert stop["index"] == 2 and "green, who plays the Cupbearer, would display a second wizard" in stop["reason"]
        assert "cupbearer-actor-duplicate: forbidden" in stop["reason"]
    assert a["rulesets"]["source-b"]["stopped_at"] is None
    for swap, why in (("swap red:wizard/blue blue:treasurer/grey", "red displays no wizard/blue"),
                      ("swap green:cupbearer/red blue:wizard/blue", "the Cupbearer just played (cupbearer/red)")):
        refused = ask(spec, with_actions(spec, EXAMPLES / "game-end-tie.yaml", ["play cupbearer/red", swap]))
        assert refused["not_legal"] is True
        for res in refused["rulesets"].values():
            assert res["stopped_at"]["index"] == 2 and why in res["stopped_at"]["reason"]


def test_a_gap_cites_the_rule_being_applied(spec: Spec) -> None:
    """action-impossible is named by the Wizard's and the Maid's void rules: a Maid played
    from an otherwise empty hand stops at the gap citing the Maid's clauses, not the Wizard's."""
    text = "players: [red, blue, green]\nto_move: red\nhands:\n  red: [maid/red]\ndeck: 17\n"
    a = ask(spec, parse_scenario(text, spec, "maid.yaml"))
    for ruleset in ("source-a", "source-b"):
        [o] = a["rulesets"][ruleset]["outcomes"]
        [gap] = [e for e in o["events"] if e["kind"] == "rule_gap"]
        assert o["gap"] == "action-impossible"
        assert gap["rule"] == "role.maid.void"
        assert set(gap["clauses"]) <= set(spec.rules["role.maid.void"].clauses)
        assert not any("wizard" in c or "zauberer" in c for c in gap["clauses"])


# ---------------------------------------------------------------- a ruling file
def test_ask_answers_a_ruling_file_under_its_rulesets() -> None:
    """``palast ask`` on a ruling (spec/rulings/ID.yaml) asks its position with its action
    applied, under the rulesets it states a result for (house rulesets included), and the
    text groups rulesets whose play stopped before the action apart from those that went on."""
    ruling = Path(__file__).resolve().parent.parent / "spec" / "rulings" / "fan-orc-banned-jester.yaml"
    res = CliRunner().invoke(main, ["ask", "--json", str(ruling)])
    assert res.exit_code == 0, res.output
    answer = json.loads(res.output)
    assert list(answer["rulesets"]) == ["source-a", "source-b", "reference", "fan", "fan-b"]
    assert answer["actions"] == ["play jester/yellow"]
    assert answer["rulesets"]["fan"]["stopped_at"] is None
    assert answer["rulesets"]["reference"]["stopped_at"]["why"] == "illegal"
    assert answer["rulesets"]["fan-b"]["stopped_at"]["why"] == "gap"
    text = CliRunner().invoke(main, ["ask", str(ruling)])
    assert text.exit_code == 0 and "Traceback" not in text.output, text.output
    assert "The Rebel Orc plays a banned Jester" in text.output
