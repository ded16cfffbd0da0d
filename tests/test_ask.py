"""``palast ask`` with a scenario's actions: answered per ruleset as far as they apply
(an action illegal, or play at a gap, under one ruleset only), winners that differ at a game
end reported as a disagreement, the events of applied actions in the text, and the README's
own scenario and shown output."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from palast.cli import main
from palast.errors import ScenarioError
from palast.formats.scenario import load_scenario, parse_scenario
from palast.query.ask import ask, disagreements, render_text
from palast.spec.load import Spec
from palast.spec.yamlio import read_yaml

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
README = ROOT / "README.md"


def with_actions(spec: Spec, source: Path, actions: list[str], key: str | None = None) -> Any:
    """The scenario of ``source`` (an example, or the ``scenario`` of a ruling when ``key``
    is given) with ``actions`` to apply."""
    doc = yaml.safe_load(source.read_text(encoding="utf-8"))
    data = doc[key] if key else doc
    data = {**data, "actions": actions}
    return parse_scenario(yaml.safe_dump(data, sort_keys=False), spec, f"{source.name}+actions")


def palast_run(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m palast ARGS`` in a fresh process (stdout and stderr apart)."""
    return subprocess.run([sys.executable, "-m", "palast", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def readme_scenarios() -> dict[str, str]:
    """The README's scenario files: every ```yaml block whose first line is a comment naming
    the file it is saved as (``# first-question.yaml``), by that name."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"^```yaml\n# ([\w.-]+\.yaml)\n(.*?)^```", text, re.S | re.M)
    return {name: f"# {name}\n{body}" for name, body in blocks}


def readme_scenario() -> str:
    """The README's ``scenario.yaml``: the example of every key in its section "Scenario files"."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n### Scenario files\n", 1)[1].split("\n### ", 1)[0]
    scenarios = readme_scenarios()
    assert "scenario.yaml" in scenarios, "the README has no yaml block saved as scenario.yaml"
    assert scenarios["scenario.yaml"] in section, "scenario.yaml is not in the README's section Scenario files"
    return scenarios["scenario.yaml"]


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


# ---------------------------------------------------------------- bad input with --json
def test_json_bad_input_is_one_error_document(tmp_path: Path) -> None:
    """With --json, bad input prints one JSON document: an error with file, line, column
    and message (exit 2); the message also goes to standard error as without --json."""
    path = ROOT / "tests" / "bad_inputs" / "scenarios" / "unknown-key.yaml"
    r = palast_run("ask", "--json", str(path))
    assert r.returncode == 2
    err = json.loads(r.stdout)["error"]
    assert err["file"] == str(path) and (err["line"], err["column"]) == (3, 1)
    assert "unknown key 'hand'; did you mean 'hands'?" in err["message"]
    assert r.stderr.startswith("palast: error: ") and "unknown key 'hand'" in r.stderr
    plain = palast_run("ask", str(path))
    assert plain.returncode == 2 and plain.stdout == "" and plain.stderr.startswith("palast: error: ")
    for args, message in ((["--bogus"], "no such option '--bogus'"),
                          ([], "missing argument 'SCENARIO'"),
                          (["-r", "source-c", str(EXAMPLES / "guard-alone.yaml")], "unknown ruleset 'source-c'"),
                          ([str(tmp_path / "none.yaml")], "none.yaml")):
        r = palast_run("ask", "--json", *args)
        assert r.returncode == 2, args
        doc = json.loads(r.stdout)
        said = str(doc["error"]["file"]) + doc["error"]["message"]
        assert list(doc) == ["error"] and message.lower() in said.lower()
        assert set(doc["error"]) >= {"file", "line", "column", "message"}


def test_error_document_places() -> None:
    from palast.errors import InputError
    from palast.query.ask import error_document

    assert error_document(InputError("bad", "f.yaml", "line 4, column 3 (hands.red[0])"))["error"] == {
        "file": "f.yaml", "line": 4, "column": 3, "place": "line 4, column 3 (hands.red[0])", "message": "bad"}
    many = InputError("2 problems:\n  - line 1, column 1: missing key 'players'\n  - line 5, column 2: x", "f.yaml")
    assert (error_document(many)["error"]["line"], error_document(many)["error"]["column"]) == (1, 1)
    unknown = error_document(InputError("a colour is seated twice", "f.yaml", "players"))["error"]
    assert (unknown["line"], unknown["column"], unknown["place"]) == (None, None, "players")


def test_a_malformed_action_after_a_stop_is_still_bad_input(spec: Spec) -> None:
    text = readme_scenario().replace("actions: [play jester/grey]", "actions: [play jester/grey, frobnicate]")
    with pytest.raises(ScenarioError, match=r"\(actions\[1\]\): unknown action 'frobnicate'"):
        ask(spec, parse_scenario(text, spec, "README.md"), ["source-b"])


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
    assert re.search(r"source-a: the game is over: blue won", grouped), grouped


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


# ---------------------------------------------------------------- finding 5: events of applied actions
def test_text_shows_the_events_of_applied_actions(spec: Spec) -> None:
    sc = with_actions(spec, EXAMPLES / "sixth-card-played.yaml", ["play marshal/grey", "reveal maid"])
    lines = render_text(ask(spec, sc, ["source-a"]), full=True).splitlines()
    i = lines.index("   (applied) reveal maid")
    assert "reveals the King card of the maid" in lines[i + 1]
    assert re.search(r"\[A\.[a-z.-]+", lines[i + 1]), lines[i + 1]
    j = lines.index("   (applied) play marshal/grey")
    assert lines[j + 1].startswith("      - red plays marshal/grey  [")


# ---------------------------------------------------------------- finding 10 and the README
def test_help_points_to_the_readme_not_design_md() -> None:
    r = CliRunner().invoke(main, ["ask", "--help"])
    assert r.exit_code == 0
    assert "DESIGN.md" not in r.output and "README" in r.output


def test_readme_documents_the_json_fields(spec: Spec) -> None:
    """Every key of the ``--json`` document (top level, answer, decision, outcome, event,
    applied action, stopped_at, disagreement, error) is named in the README's section on
    ``palast ask``."""
    from palast.errors import InputError
    from palast.query.ask import error_document

    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Reading `palast ask`"):text.index("### Rulesets")]
    answers = [ask(spec, parse_scenario(readme_scenario(), spec, "README.md")),
               ask(spec, with_actions(spec, EXAMPLES / "sixth-card-played.yaml", ["play marshal/grey", "reveal maid"])),
               ask(spec, with_actions(spec, EXAMPLES / "game-end-tie.yaml", ["play wizard/green"])),
               ask(spec, load_scenario(EXAMPLES / "marshal-empty-king-deck.yaml", spec))]
    keys: set[str] = set()
    for a in answers:
        keys |= set(a)
        for d in a["disagreements"]:
            keys |= set(d)
        for res in a["rulesets"].values():
            keys |= set(res) | set(res["decision"]) | set(res["stopped_at"] or {})
            for o in res["outcomes"]:
                keys |= set(o)
                for e in o["events"]:
                    keys |= set(e)
            for h in res["history"]:
                keys |= set(h)
    keys |= set(error_document(InputError("x", "f.yaml", "line 1, column 1"))["error"])
    assert {"stopped_at", "winners", "tiebreak", "history", "probability", "note", "not_legal",
            "readings_consulted", "line", "column"} <= keys
    missing = sorted(k for k in keys if f"`{k}`" not in section)
    assert not missing, f"JSON fields the README does not name: {missing}"


def _shown_outputs() -> list[tuple[str, list[str]]]:
    """The README's shown ``palast ask`` output blocks: (the command's argument, lines)."""
    text = README.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"^```\n(\$ palast ask .*?)^```", text, re.S | re.M):
        first, *rest = block.splitlines()
        out.append((first.removeprefix("$ palast ask ").strip(), rest))
    return out


def test_readme_shows_what_palast_ask_prints(tmp_path: Path) -> None:
    """Every line of a shown output (but the `...` elisions; a line ending in `...` is a
    prefix) appears, in order, in what `palast ask` prints."""
    shown = _shown_outputs()
    saved = readme_scenarios()
    assert "first-question.yaml" in saved, "the README's walk-through scenario is missing"
    assert "first-question.yaml" in [arg.split()[-1] for arg, _ in shown], "the walk-through's answer is not shown"
    assert len(shown) >= 3
    for name, body in saved.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    for arg, lines in shown:
        if arg.startswith("'"):  # a position in one line, quoted
            options, name = [], arg
        else:
            *options, name = arg.split()
        path = tmp_path / name if name in saved else name.strip("'") if name.startswith("'") else ROOT / name
        r = CliRunner().invoke(main, ["ask", *options, str(path)], env={"COLUMNS": "100"})  # shown in 100 columns
        assert r.exit_code == 0, r.output
        printed = r.output.splitlines()
        at = 0
        for want in lines:
            if want.strip() == "...":
                continue
            prefix = want.endswith("...")
            stem = want[:-3] if prefix else want
            while at < len(printed) and not (printed[at].startswith(stem) if prefix else printed[at] == want):
                at += 1
            assert at < len(printed), f"README line not printed by `palast ask {arg}` (in order): {want!r}"
            at += 1


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


def test_a_short_handed_position_is_answered_with_a_warning(spec: Spec) -> None:
    """A scenario may leave cards out; ask answers it but warns, per player, that hand and
    display do not hold the hand size (invariant hand-plus-display). The examples, complete
    positions, draw no warning."""
    sc = parse_scenario("players: [red, blue, green]\nto_move: red\nhands:\n  red: [maid/red]\n"
                        "displays:\n  red: [guard/red, wizard/red, treasurer/red, jester/red, marshal/red]\n",
                        spec, "short.yaml")
    warnings = ask(spec, sc)["warnings"]
    assert [w.split()[0] for w in warnings] == ["blue", "green"]
    assert all("hand-plus-display" in w for w in warnings)
    for path in sorted(EXAMPLES.glob("*.yaml")):
        assert ask(spec, load_scenario(path, spec))["warnings"] == [], path.name


def test_no_short_handed_warning_where_a_rule_module_breaks_hand_plus_display(spec: Spec) -> None:
    """Under a ruleset whose rule module breaks hand-plus-display (the fan module: the
    Healer draws, the Dwarf destroys a displayed Jester) a short hand is reachable, so ask
    warns only when some ruleset asked keeps the invariant."""
    from palast.formats.house import resolve_all

    fan = resolve_all(spec, ["fan"])
    sc = parse_scenario("players: [red, blue, green]\nto_move: red\nmarks: {red: blue, blue: red, green: green}\n"
                        "hands:\n  red: [maid/red]\n"
                        "displays:\n  red: [guard/red, wizard/red, treasurer/red, jester/red, marshal/red]\n",
                        fan, "short.yaml")
    assert ask(fan, sc, ["fan"])["warnings"] == []
    assert [w.split()[0] for w in ask(fan, sc, ["fan", "reference"])["warnings"]] == ["blue", "green"]


# ---------------------------------------------------------------- standard input
def test_ask_dash_reads_the_scenario_from_standard_input() -> None:
    """``palast ask -`` answers the scenario piped in exactly as it answers the file."""
    path = EXAMPLES / "guard-alone.yaml"
    from_file = CliRunner().invoke(main, ["ask", "--json", str(path)])
    from_stdin = CliRunner().invoke(main, ["ask", "--json", "-"], input=path.read_text(encoding="utf-8"))
    assert from_file.exit_code == 0 and from_stdin.exit_code == 0, from_stdin.output
    assert json.loads(from_stdin.output)["rulesets"] == json.loads(from_file.output)["rulesets"]


def test_ask_dash_names_standard_input_in_a_message() -> None:
    r = CliRunner().invoke(main, ["ask", "-"], input="players: [red\n")
    assert r.exit_code == 2
    assert "<stdin>: line 2, column 1: not valid YAML" in r.output
    assert "Traceback" not in r.output


# ---------------------------------------------------------------- outcomes compared by what they come to
RESHUFFLE = """\
players: [red, blue, green]
banned: jester
king_deck: 0
to_move: red
hands:
  red: [marshal/red, jester/red]
deck: 17
"""


def test_an_outcome_differing_only_in_an_event_detail_is_a_disagreement(spec: Spec) -> None:
    """Under every ruleset the Marshal reshuffles the empty King deck (same event kinds, same
    next decision), but source-b's deck holds one King card fewer and keeps the Jester
    banned (king-reshuffle-scope): ask must not say the rulesets agree."""
    a = ask(spec, parse_scenario(RESHUFFLE, spec, "reshuffle.yaml"))
    [d] = [d for d in a["disagreements"] if d["what"] == "outcome"]
    assert d["action"] == "play marshal/red"
    assert sorted(map(sorted, d["groups"])) == [["reference", "source-a"], ["source-b"]]
    assert "king-reshuffle-scope" in d["variation_points"]
    assert "King deck 5" in d["rulesets"]["source-b"] and "King deck 6" in d["rulesets"]["source-a"]


def test_actions_leading_to_different_positions_are_a_disagreement(spec: Spec) -> None:
    """The same scenario with the Marshal applied: the positions answered differ, which is
    said once (``position``), not again for every King card that may come up next."""
    a = ask(spec, parse_scenario(RESHUFFLE + "actions: [play marshal/red]\n", spec, "reshuffle.yaml"))
    whats = [d["what"] for d in a["disagreements"]]
    assert whats.count("position") == 1 and "outcome" not in whats
    [d] = [d for d in a["disagreements"] if d["what"] == "position"]
    assert "banned role: jester" in d["rulesets"]["source-b"] and "banned role: none" in d["rulesets"]["reference"]


def test_clause_ids_alone_do_not_make_a_disagreement(spec: Spec) -> None:
    """Each ruleset cites its own sources: answers that differ only in the clause ids of
    their events agree (the clauses of source-b's events are replaced here)."""
    a = ask(spec, load_scenario(EXAMPLES / "guard-alone.yaml", spec))
    assert a["disagreements"] == []
    results = copy.deepcopy(a["rulesets"])
    for o in results["source-b"]["outcomes"]:
        for e in o["events"]:
            e["clauses"] = ["B.only"]
    assert disagreements(results) == []
    results["source-b"]["outcomes"][0]["events"][0]["kind"] = "card_drawn"  # another effect
    assert [d["what"] for d in disagreements(results)] == ["outcome"]


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


def test_the_position_label_says_how_many_actions_applied(spec: Spec) -> None:
    """A scenario whose only action stops under every ruleset (red has no card to play)
    shows the position as given, not "after the scenario's 1 action"."""
    text = ("players: [red, blue, green]\nto_move: red\nhands:\n  blue: [maid/blue]\ndeck: 17\n"
            "actions: [play maid/red]\n")
    out = render_text(ask(spec, parse_scenario(text, spec, "stop.yaml")), width=200)
    assert "the position as given (the scenario's 1 action applied under no ruleset):" in out
    assert "after the scenario's 1 action" not in out
    two = text.replace("actions: [play maid/red]", "to_move: blue\nactions: [play maid/blue, play maid/red]")
    two = two.replace("to_move: red\n", "", 1)
    out = render_text(ask(spec, parse_scenario(two, spec, "stop.yaml")), width=200)
    assert "the position after the first 1 of the scenario's 2 actions:" in out


# ---------------------------------------------------------------- what is not a disagreement
SAME_WINNER = """\
players: [red, blue, green]
round: 9
to_move: green
scores: {red: 5, blue: 5, green: 3}
played: {red: 5, blue: 3, green: 2}
hands: {red: [treasurer/red, marshal/red], blue: [treasurer/green, guard/blue, marshal/blue],
        green: [maid/green, wizard/green, cupbearer/red, jester/grey]}
displays: {red: [jester/blue, guard/grey, treasurer/grey, wizard/red], blue: [wizard/blue, cupbearer/green, guard/red],
           green: [maid/blue, wizard/grey]}
discard: [marshal/green]
deck: 15
"""

SIXTH_BANNED = """\
players: [red, blue, green]
to_move: red
banned: treasurer
king_deck: 5
played: {red: 5, blue: 0, green: 0}
hands: {red: [treasurer/red, marshal/grey],
        blue: [treasurer/blue, wizard/blue, maid/blue, guard/blue, jester/blue, cupbearer/grey],
        green: [treasurer/green, wizard/green, maid/green, cupbearer/green, guard/green, jester/grey]}
displays: {red: [guard/red, jester/red, wizard/red, maid/red]}
discard: [cupbearer/blue]
deck: 16
"""


def test_the_same_winner_by_different_tie_breaks_is_no_disagreement(spec: Spec) -> None:
    """Red leads blue both on cards displayed (A's tie-break) and on cards played (B's):
    the rulesets name different tie-breaks but the same winner, before and after the
    whisper is applied."""
    for text in (SAME_WINNER, SAME_WINNER + "actions: [play wizard/green]\n"):
        a = ask(spec, parse_scenario(text, spec, "tie.yaml"))
        # (green's Cupbearer is another matter: the rulesets allow different swaps)
        about_the_win = [d for d in a["disagreements"]
                         if d.get("action") == "play wizard/green" or (d["what"] in ("position", "history", "outcome")
                         and "play cupbearer/red" not in d["text"])]
        assert about_the_win == [], about_the_win
    a = ask(spec, parse_scenario(SAME_WINNER + "actions: [play wizard/green]\n", spec, "tie.yaml"))
    tiebreaks = {res["decision"]["tiebreak"] for res in a["rulesets"].values()}
    assert len(tiebreaks) > 1 and {tuple(res["decision"]["winners"]) for res in a["rulesets"].values()} == {("red",)}


def test_different_reasons_for_no_effect_are_no_disagreement(spec: Spec) -> None:
    """A banned Treasurer as the sixth card played: muted under source-a and the reference,
    skipped as the sixth card under source-b; nothing happens either way."""
    a = ask(spec, parse_scenario(SIXTH_BANNED, spec, "sixth.yaml"))
    kinds = {r: {e["kind"] for o in res["outcomes"] if o["action"] == "play treasurer/red" for e in o["events"]}
             for r, res in a["rulesets"].items()}
    assert "action_muted" in kinds["source-a"] and "action_skipped" in kinds["source-b"]
    assert not [d for d in a["disagreements"] if d.get("action") == "play treasurer/red"]
    # the Marshal as the sixth card is another matter: it reveals a King card or not
    assert [d["what"] for d in a["disagreements"] if d.get("action") == "play marshal/grey"] == ["outcome"]


def test_a_difference_in_effects_alone_is_a_history_disagreement(spec: Spec) -> None:
    """An unbanned Treasurer as the sixth card: source-a and the reference show red's hand,
    source-b skips the action; the position and the next decision are the same."""
    text = SIXTH_BANNED.replace("banned: treasurer", "banned: guard") + "actions: [play treasurer/red]\n"
    a = ask(spec, parse_scenario(text, spec, "sixth.yaml"))
    [d] = [d for d in a["disagreements"] if d["what"] == "history"]
    assert sorted(map(sorted, d["groups"])) == [["reference", "source-a"], ["source-b"]]
    assert "sixth-card-action" in d["variation_points"]
    assert not [d for d in a["disagreements"] if d["what"] in ("position", "decision")]


CUPBEARER_SCOPE = """\
players: [red, blue, green]
to_move: red
hands: {red: [cupbearer/red, treasurer/grey, maid/red, wizard/red, guard/blue],
        blue: [treasurer/blue, wizard/blue, jester/blue, marshal/blue, guard/grey],
        green: [treasurer/green, wizard/green, cupbearer/green, jester/green, marshal/green]}
displays: {red: [jester/red], blue: [maid/green], green: [guard/red]}
deck: 16
"""


def test_different_choices_next_are_a_disagreement(spec: Spec) -> None:
    """Red's Cupbearer leads to a swap decision under every ruleset, but only source-a and
    the reference allow swapping two opponents' cards (cupbearer-scope)."""
    a = ask(spec, parse_scenario(CUPBEARER_SCOPE, spec, "cup.yaml"))
    [d] = [d for d in a["disagreements"] if d.get("action") == "play cupbearer/red"]
    assert sorted(map(sorted, d["groups"])) == [["reference", "source-a"], ["source-b"]]
    assert "may then choose swap blue:maid/green green:guard/red" in d["rulesets"]["source-a"]
    assert "cupbearer-scope" in d["variation_points"]


def test_a_group_reached_for_different_reasons_names_each_reason() -> None:
    from palast.query.ask_compare import _said

    words = {"source-a": "shown", "source-b": "skipped (sixth card)", "reference": "void (no partner)"}
    text = _said([["source-a"], ["source-b", "reference"]], words)
    assert text == "source-a: shown | source-b: skipped (sixth card); reference: void (no partner)"
    assert _said([["source-a", "reference"]], {"source-a": "x", "reference": "x"}) == "source-a and reference: x"


# ---------------------------------------------------------------- the grouped text (issue 16, point 1)
def _flat(text: str) -> str:
    return " ".join(text.split())


def test_what_the_rulesets_agree_on_is_said_once(spec: Spec) -> None:
    """cupbearer-third-turn: the five plays the rulesets agree on are printed once (the old
    layout printed each under every ruleset); the Cupbearer, which differs, is shown by
    group of rulesets that answer alike, with the points that explain it."""
    a = ask(spec, load_scenario(EXAMPLES / "cupbearer-third-turn.yaml", spec))
    full, grouped = render_text(a, full=True), render_text(a, width=100)
    for play in ("play guard/blue", "play wizard/red", "play maid/red", "play jester/red", "play treasurer/grey"):
        assert full.count(f"   {play}\n") == 3
        assert len(re.findall(rf"^   {re.escape(play)}  \[", grouped, re.M)) == 1, play
    assert "-- every ruleset (source-a, source-b, reference): red must play a card" in grouped
    i = grouped.index("-- where they differ, by ruleset")
    rest = _flat(grouped[i:])
    assert "play cupbearer/red [A.play.turn, B.turn.play] [cupbearer-scope, cupbearer-actor-duplicate]:" in rest
    assert "source-a and reference: => next: red (swap)" in rest
    assert "source-b: the cupbearer does nothing: no swap is allowed" in rest


def test_clauses_that_differ_are_named_by_ruleset(spec: Spec) -> None:
    """source-b and the reference name the same winner by the same tie-break, each citing
    its own clauses: one group, the clauses by ruleset."""
    text = _flat(render_text(ask(spec, load_scenario(EXAMPLES / "game-end-tie.yaml", spec)), width=100))
    assert ("source-b and reference: the game ends: red wins (tie-break: most-played-last-round) (variation point: "
            "game-end-tiebreak) [source-b: B.gameend.winner, B.gameend.tally; reference: A.gameend.winner") in text


def test_lines_are_wrapped_with_indented_continuations(spec: Spec) -> None:
    """No line is wider than asked unless it is one word (a long card list) or the position
    in one line (never wrapped, so it can be copied); a continuation line is indented deeper
    than the line it continues."""
    from palast.query.ask_render import ONE_LINE, wrap

    a = ask(spec, load_scenario(EXAMPLES / "cupbearer-third-turn.yaml", spec))
    for width in (60, 100):
        lines = render_text(a, width=width).splitlines()
        assert all(len(x) <= width or " " not in x.strip() or x.strip().startswith(ONE_LINE) for x in lines), width
        assert sum(x.strip().startswith(ONE_LINE) for x in lines) == 1
    assert wrap(["   - " + "word " * 30], 40)[1].startswith("       ")
    assert max(map(len, render_text(a, full=True).splitlines())) > 200, "--full is not wrapped"


def test_full_is_the_old_layout(spec: Spec) -> None:
    """--full prints every ruleset in full, as before: a section per ruleset, each legal
    action with its events, and the one-line disagreements."""
    r = CliRunner().invoke(main, ["ask", "--full", str(EXAMPLES / "cupbearer-third-turn.yaml")])
    assert r.exit_code == 0
    for ruleset in ("source-a", "source-b", "reference"):
        assert f"-- ruleset {ruleset}: red must play a card" in r.output
    assert r.output.count("      - red plays guard/blue  [") == 3
    assert "   * play cupbearer/red: source-a and reference: next: red (swap); may then choose" in r.output


#: How many columns and lines an example's answer must fit: "about 40 lines" on a 120-column
#: terminal. The longest, marshal-empty-king-deck, takes 41 (its position in one line, never
#: wrapped, is one of them); at 100 columns it takes 46.
SCREEN = (120, 41)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_example_fits_a_screen(spec: Spec, path: Path) -> None:
    width, height = SCREEN
    a = ask(spec, load_scenario(path, spec))
    lines = render_text(a, width=width).splitlines()
    assert len(lines) <= height, f"{path.name}: {len(lines)} lines"
    assert len(render_text(a, full=True).splitlines()) > len(lines) or len(a["rulesets"]) == 1


def test_json_error_document_for_a_bad_spec_directory(tmp_path: Path) -> None:
    """`palast --spec DIR ask --json` with a spec directory that does not exist still prints
    one JSON document with an error object (exit 2)."""
    missing = tmp_path / "nonexist"
    r = CliRunner().invoke(main, ["--spec", str(missing), "ask", "--json", str(EXAMPLES / "guard-alone.yaml")])
    assert r.exit_code == 2
    doc = json.loads(r.stdout)
    assert "does not exist" in doc["error"]["message"]


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
