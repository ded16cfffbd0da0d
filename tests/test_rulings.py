"""The rulings in spec/rulings/: every one agrees with the engine under every ruleset it
names, cites only clauses that exist, covers what issue 3 asks for; ``palast rulings``
exits 1 on a disagreement and 2 on a malformed file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from palast.cli import main
from palast.errors import SpecError
from palast.formats.house import resolve_all
from palast.query.ruling_files import load_ruling, load_rulings, rulings_dir
from palast.query.rulings import Difference, Outcome, Ruling, check_ruling, compare, compute_outcome
from palast.spec.load import Spec, load_spec
from palast.spec.register import ruling_reference_problems

ROOT = Path(__file__).resolve().parent.parent
RULING_IDS = sorted(p.stem for p in (ROOT / "spec" / "rulings").glob("*.yaml"))


@pytest.fixture(scope="module")
def rulings(spec: Spec) -> dict[str, Ruling]:
    return {r.id: r for r in load_rulings(spec)}


def run(*args: str) -> Result:
    """Run the ``palast`` command line in this process (exit code, stdout, stderr)."""
    return CliRunner().invoke(main, list(args))


def test_there_are_at_least_forty_rulings(rulings: dict[str, Ruling]) -> None:
    assert len(rulings) >= 40
    assert sorted(rulings) == RULING_IDS


@pytest.mark.parametrize("ruling_id", RULING_IDS)
def test_ruling_agrees_with_the_engine(spec: Spec, rulings: dict[str, Ruling], ruling_id: str) -> None:
    checks = check_ruling(spec, rulings[ruling_id])
    assert checks, "a ruling states a result for at least one ruleset"
    for c in checks:
        assert c.agrees, f"{ruling_id} under {c.ruleset}: " + "; ".join(d.text() for d in c.differences)


def test_every_ruling_cites_only_existing_clauses(spec: Spec, rulings: dict[str, Ruling]) -> None:
    for r in rulings.values():
        assert r.clauses
        for c in r.clauses:
            assert c in spec.clauses, f"{r.id} cites {c}"
        for vp in r.variation_points:
            assert vp in spec.variation_points, f"{r.id} names {vp}"
    assert ruling_reference_problems(spec) == []


def test_every_ruling_states_all_rulesets(spec: Spec, rulings: dict[str, Ruling]) -> None:
    """Every ruleset of the spec, and beyond them only house rulesets (BASE+POINT=READING,
    or named in spec/rulesets.yaml)."""
    from palast.formats.house import parse_name

    for r in rulings.values():
        assert set(spec.rulesets) <= set(r.rulesets), r.id
        for rs in set(r.rulesets) - set(spec.rulesets) - set(spec.house_rulesets):
            assert parse_name(spec, rs)[1], (r.id, rs)


def test_every_named_house_ruleset_has_a_ruling(spec: Spec, rulings: dict[str, Ruling]) -> None:
    stated = {rs for r in rulings.values() for rs in r.rulesets}
    assert spec.house_rulesets and set(spec.house_rulesets) <= stated


def _played_roles(spec: Spec, r: Ruling) -> set[str]:
    texts = [t for t, _ in r.scenario.actions] + ([r.action] if r.action else [])
    return {spec.role_aliases[t.split()[1].split("/")[0]] for t in texts if t.startswith("play ")}


def test_rulings_cover_every_role_and_round_end(spec: Spec, rulings: dict[str, Ruling]) -> None:
    played: set[str] = set()
    round_ends: set[tuple[str, str]] = set()
    muted: set[str] = set()
    for r in rulings.values():
        played |= _played_roles(spec, r)
        for rs in r.rulesets:
            o = compute_outcome(spec, r, rs)
            events = o.values.get("events", [])
            if o.values.get("round_end"):
                how = "forced" if "round_ended" in events and "action_not_carried_out" not in events else "played"
                if "cards_swapped" in events:
                    how = "swap"
                round_ends.add((o.values["round_end"], how))
            if "action_muted" in events:
                muted |= _played_roles(spec, r)
    assert played == set(spec.roles)
    assert {("whisper", "played"), ("whisper", "forced"), ("whisper", "swap"), ("six", "played")} <= round_ends
    assert len(muted) >= 4


def test_every_open_point_reached_is_expected_as_a_gap(spec: Spec, rulings: dict[str, Ruling]) -> None:
    """A ruleset that reaches an open variation point expects `gap: <id>` (and nothing else
    could agree), and the point is really open in that ruleset."""
    gaps = 0
    for r in rulings.values():
        for rs in r.rulesets:
            exp = r.expect[rs]
            if exp.get("gap"):
                gaps += 1
                assert resolve_all(spec, [rs]).reading(rs, exp["gap"]) == "open", (r.id, rs)
    assert gaps >= 8


def test_compare_reports_each_differing_field() -> None:
    values = {"illegal": False, "decision": "play", "legal_actions": ["play a", "play b"], "events": ["x", "y"],
              "hands": {"red": ["maid/red", "guard/red"]}, "scores": {"red": 1, "blue": 2},
              "probabilities": {"reveal maid": "1/5"}}
    o = Outcome("reference", values, "")
    assert compare({"legal_actions": ["play b", "play a"], "hands": {"red": ["guard/red", "maid/red"]},
                    "scores": {"blue": 2}, "probabilities": {"reveal maid": "2/10"}}, o) == ()
    diff = compare({"events": ["y", "x"], "decision": "swap", "scores": {"red": 2}}, o)
    assert [d.field for d in diff] == ["decision", "events", "scores"]
    assert compare({"illegal": True}, o)[0].field == "illegal"
    assert compare({"decision": "play"}, Outcome("reference", {"illegal": True}, "illegal"))[0].field == "illegal"
    assert compare({"decision": "play"}, Outcome("reference", {}, "", error="boom"))[0].field == "position"
    # an action the engine's check mode finds breaking an invariant: only `violates` matches it
    broke = Outcome("reference", {"violates": "round-is-bounded"}, "violates invariant round-is-bounded")
    assert compare({"violates": "round-is-bounded"}, broke) == ()
    assert [d.field for d in compare({"events": ["x"]}, broke)] == ["position"]
    assert [d.field for d in compare({"violates": "card-conservation"}, broke)] == ["violates"]
    missed = compare({"violates": "round-is-bounded"}, Outcome("reference", values, "play by red"))
    assert [d.field for d in missed] == ["violates"] and missed[0].actual == "no invariant violated (play by red)"
    gap = Outcome("source-b", {**values, "decision": "gap", "gap": "final-tie"}, "")
    assert [d.field for d in compare({"decision": "gap"}, gap)] == ["gap"]
    assert compare({"decision": "gap", "gap": "final-tie"}, gap) == ()


def _copy_spec(tmp_path: Path) -> Path:
    copy = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", copy)
    return copy


def test_palast_rulings_agrees_and_prints_one_line_per_check() -> None:
    r = run("rulings", "cupbearer-third-turn", "voluntary-whisper")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 7
    assert all(" agrees " in x for x in lines[:-1])
    assert lines[-1].startswith("2 rulings, 6 checks: 6 agree, 0 disagree")


def test_palast_rulings_exits_1_on_a_broken_ruling(tmp_path: Path) -> None:
    spec_dir = _copy_spec(tmp_path)
    f = spec_dir / "rulings" / "cupbearer-third-turn.yaml"
    text = f.read_text(encoding="utf-8")
    f.write_text(text.replace("events: [card_played, action_void, next_player]",
                              "events: [card_played, next_player]"), encoding="utf-8")
    r = run("--spec", str(spec_dir), "rulings")
    assert r.exit_code == 1, r.stdout + r.stderr
    bad = [x for x in r.stdout.splitlines() if "DISAGREES" in x]
    assert len(bad) == 1
    assert "cupbearer-third-turn" in bad[0] and "source-b" in bad[0]
    assert "events: expected [card_played, next_player], engine [card_played, action_void, next_player]" in bad[0]
    j = run("--spec", str(spec_dir), "rulings", "--json", "cupbearer-third-turn")
    assert j.exit_code == 1
    doc = json.loads(j.stdout)
    assert doc["summary"] == {"rulings": 1, "checks": 3, "agree": 2, "disagree": 1}
    res = {x["ruleset"]: x for x in doc["rulings"][0]["results"]}
    assert res["source-b"]["agrees"] is False and res["source-b"]["differences"][0]["field"] == "events"
    assert res["source-a"]["agrees"] is True


BROKEN = {  # ruling file -> (text, replacement, what the message must say)
    "cupbearer-third-turn": ("events: [card_played, action_void, next_player]", "events: [card_played, action_gone]",
                             "unknown event kind 'action_gone'"),
    "guard-alone": ("reference: {same_as: source-a}", "reference: {same_as: source-c}", "same_as must name"),
    "jester-no-action": ("red: [jester/green, maid/red", "red: [jester/pink, maid/red", "unknown colour 'pink'"),
    "maid-muted": ("  reference: {same_as: source-a}", "  reference: {same_as: source-a}\nverdict: yes",
                   "unknown key 'verdict'"),
    "treasurer-muted": ("decision: play", "decision: dance", "(expect.source-a.decision): unknown decision 'dance'"),
    "wizard-exchange": ('action: "give guard/blue,marshal/blue"', 'action: "hand over guard/blue"',
                        "unknown action 'hand over guard/blue'"),
    "fan-dwarf-extra-play": ("violates: round-is-bounded", "violates: round-is-endless",
                             "(expect.reference.violates): unknown invariant 'round-is-endless'"),
    "fan-ranger-six-cards": ("    round_end: whisper\n", "    round_end: whisper\n    violates: round-is-bounded\n",
                             "holds nothing else but a note (found events, round_end)"),
    # an expected legal action or chance outcome is read as notation (it was only compared)
    "banned-jester-and-duplicate": ("legal_actions: [play maid/grey]", "legal_actions: [play maid/gray]",
                                    "(expect.source-a.legal_actions[0]): in action 'play maid/gray': unknown "
                                    "colour 'gray'"),
    "marshal-empty-king-deck": ("reveal wizard: 1/6", "reveal wizzard: 1/6",
                                "(expect.source-a.probabilities.reveal wizzard): in action 'reveal wizzard'"),
}


def _edit_rulings(spec_dir: Path, edits: list[tuple[str, str, str]]) -> None:
    """Replace, in each ruling file ``name`` of ``spec_dir``, the first ``old`` by ``new``."""
    for name, old, new in edits:
        f = spec_dir / "rulings" / f"{name}.yaml"
        text = f.read_text(encoding="utf-8")
        assert old in text, name
        f.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_palast_rulings_exits_2_naming_every_malformed_ruling(tmp_path: Path) -> None:
    spec_dir = _copy_spec(tmp_path)
    _edit_rulings(spec_dir, [(name, old, new) for name, (old, new, _) in BROKEN.items()])
    r = run("--spec", str(spec_dir), "rulings")
    assert r.exit_code == 2, r.output
    assert f"{len(BROKEN)} malformed ruling files" in r.stderr
    lines = r.stderr.splitlines()
    for name, (_, _, fragment) in BROKEN.items():
        assert any(f"{name}.yaml: line" in x and fragment in x for x in lines), (name, r.stderr)
    assert "Traceback" not in r.output
    with pytest.raises(SpecError, match="no ruling 'nope'"):
        load_rulings(load_spec(spec_dir), ["nope"])


def test_palast_rulings_exits_2_on_a_ruling_citing_an_unknown_clause(tmp_path: Path) -> None:
    spec_dir = _copy_spec(tmp_path)
    f = spec_dir / "rulings" / "guard-alone.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace("clauses: [A.role.captain,", "clauses: [A.role.chef,"),
                 encoding="utf-8")
    r = run("--spec", str(spec_dir), "rulings")
    assert r.exit_code == 2
    assert "guard-alone.yaml: line" in r.stderr and "A.role.chef" in r.stderr and "clause registry" in r.stderr


def test_a_gap_before_the_asked_action_is_the_outcome(spec: Spec) -> None:
    r = load_ruling(rulings_dir(spec) / "banned-jester-two-in-hand.yaml", spec)
    o = compute_outcome(spec, r, "source-b")
    assert o.values["gap"] == "banned-jester-forced" and o.values["events"] == []
    assert compute_outcome(spec, r, "source-a").values["round_end"] == "whisper"


def test_a_ruling_giving_character_cards_no_ruleset_of_it_deals_is_malformed(spec: Spec, tmp_path: Path) -> None:
    """palast ask refuses marks that no ruleset asked deals; a ruling stating results only
    under rulesets without the fan module is refused alike, at its marks (the fresh review
    found it accepted, its three checks agreeing about cards that were not in play)."""
    path = tmp_path / "guard-alone.yaml"
    text = (rulings_dir(spec) / "guard-alone.yaml").read_text(encoding="utf-8")
    path.write_text(text.replace("  to_move: red\n", "  to_move: red\n  marks: {red: blue, blue: red, green: green}\n"),
                    encoding="utf-8")
    with pytest.raises(SpecError, match=r"line 13, column 10 \(scenario\.marks\): the scenario gives character "
                                        r"cards, but no ruleset the ruling states a result for"):
        load_ruling(path, spec)


def test_an_action_breaking_an_invariant_is_the_outcome_where_the_ruling_expects_it(spec: Spec) -> None:
    # the twentieth play of a round after the fan Dwarf destroyed a Jester: a position the
    # base game cannot reach, which its check mode reports after the play
    r = load_ruling(rulings_dir(spec) / "fan-dwarf-extra-play.yaml", spec)
    o = compute_outcome(spec, r, "reference")
    assert o.values == {"violates": "round-is-bounded"} and o.error is None
    assert compare(r.expect["reference"], o) == ()
    assert compute_outcome(spec, r, "fan").values["round_end"] == "whisper"


def test_a_difference_says_true_and_false_as_the_ruling_file_writes_them() -> None:
    assert Difference("illegal", False, "play guard/blue is illegal").text() == (
        "illegal: expected false, engine play guard/blue is illegal")
    assert Difference("forced", True, None).text() == "forced: expected true, engine null"


@pytest.mark.parametrize(("old", "new", "place"), [
    ("  fan-b: {same_as: fan}\n", "  fan-b: {same_as: reference}\n", "(expect.fan-b.same_as): under fan-b"),
    ("  fan:\n    events: [card_played, action_not_carried_out, round_ended, points_scored]\n    round_end: whisper\n",
     "  fan:\n    violates: round-is-bounded\n", "(expect.fan.violates): under fan"),
])
def test_a_violation_check_mode_does_not_check_is_refused(tmp_path: Path, old: str, new: str, place: str) -> None:
    # the fan module breaks round-is-bounded, so check mode never reports it under fan
    spec_dir = _copy_spec(tmp_path)
    f = spec_dir / "rulings" / "fan-dwarf-extra-play.yaml"
    text = f.read_text(encoding="utf-8")
    assert old in text
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    r = run("--spec", str(spec_dir), "rulings")
    assert r.exit_code == 2, r.output
    assert place in r.stderr and "check mode does not check round-is-bounded" in r.stderr, r.stderr
    assert "Traceback" not in r.output


def test_an_expected_action_written_twice_two_ways_is_malformed(tmp_path: Path) -> None:
    """Two spellings of one action among a ruling's expected legal actions or chance
    outcomes are read alike, so the second is reported where it is written (the
    probabilities kept only the last, so a wrong one went unnoticed)."""
    spec_dir = _copy_spec(tmp_path)
    _edit_rulings(spec_dir, [("banned-jester-and-duplicate", "legal_actions: [play maid/grey]",
                              "legal_actions: [play maid/grey, Play Maid/Grey]"),
                             ("marshal-empty-king-deck", "      reveal wizard: 1/6\n",
                              "      reveal wizard: 1/6\n      Reveal WIZARD: 1/2\n")])
    r = run("--spec", str(spec_dir), "rulings")
    assert r.exit_code == 2, r.output
    assert "(expect.source-a.legal_actions[1]): 'Play Maid/Grey' is the action 'play maid/grey' given before" \
        in r.stderr, r.stderr
    assert "(expect.source-a.probabilities.Reveal WIZARD): 'Reveal WIZARD' is the action 'reveal wizard' given " \
        "before" in r.stderr, r.stderr
