"""House rules: derived rulesets (palast.formats.house), --reading and --ruleset-file on every
command that runs rulesets, records that store their readings, and the ruling of B's
optional tally."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from palast.cli import main
from palast.engine import Game
from palast.errors import InputError
from palast.formats.house import derive, derived_name, house_readings, label, load_ruleset_file, parse_name, select
from palast.formats.record import format_record, parse_record, read_record, record_game, write_record
from palast.query.replay import Status, replay
from palast.query.ruling_files import load_rulings
from palast.query.rulings import check_ruling
from palast.sim.play import play_moves
from palast.spec.load import OPEN, Spec

ROOT = Path(__file__).resolve().parent.parent
TALLY = "reference+game-end-tiebreak=most-played-total"
TIE = str(ROOT / "examples" / "game-end-tie.yaml")
TALLY_RULING = str(ROOT / "spec" / "rulings" / "game-end-tally-tiebreak.yaml")


def invoke(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), prog_name="palast")
    return r.exit_code, r.stdout, r.stderr


def house_file(tmp_path: Path, text: str, name: str = "house.yaml") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


TALLY_FILE = "name: tally\nbase: reference\nreadings:\n  game-end-tiebreak: most-played-total\n"


# ---------------------------------------------------------------------------- the spec side
def test_with_ruleset_changes_only_the_points_given(spec: Spec) -> None:
    derived = derive(spec, "house", "source-b", {"final-tie": "shared", "cupbearer-scope": "any-two"})
    assert "house" not in spec.rulesets and "house" in derived.rulesets
    for point in spec.variation_points:
        want = {"final-tie": "shared", "cupbearer-scope": "any-two"}.get(point, spec.reading("source-b", point))
        assert derived.reading("house", point) == want, point
        for rs in spec.rulesets:  # the spec's own rulesets read as before
            assert derived.reading(rs, point) == spec.reading(rs, point)
    assert house_readings(derived, "house") == ("source-b", {"cupbearer-scope": "any-two", "final-tie": "shared"})
    assert house_readings(derived, "source-b") == (None, {})
    game = Game(derived, "house", ["red", "blue", "green"])
    assert game.param("winner.final_tie").value == "shared"
    assert game.param("cupbearer.scope").value == "any-two"


def test_with_ruleset_refuses_what_it_cannot_build(spec: Spec) -> None:
    with pytest.raises(InputError, match="already a ruleset 'reference'"):
        derive(spec, "reference", "source-a", {"final-tie": "shared"})
    with pytest.raises(InputError, match="unknown ruleset 'nope'"):
        derive(spec, "x", "nope", {})
    with pytest.raises(InputError, match="has no reading 'never'"):
        derive(spec, "x", "reference", {"final-tie": "never"})


def test_a_house_ruleset_on_a_house_ruleset_rests_on_the_spec_ruleset(spec: Spec) -> None:
    one = derive(spec, "one", "reference", {"final-tie": "shared"})
    two = derive(one, "two", "one", {"final-tie": "cascade", "maid-empty-deck": "discard-only"})
    assert house_readings(two, "two") == ("reference", {"maid-empty-deck": "discard-only", "final-tie": "cascade"})
    assert two.reading("two", "final-tie") == "cascade"


def test_every_reading_of_every_point_can_be_selected(spec: Spec) -> None:
    """The claim of the README: --reading reaches every reading of every variation point."""
    count = 0
    for vp in spec.variation_points.values():
        for reading in [r.id for r in vp.readings] + [OPEN]:
            sel = select(spec, [], [f"{vp.id}={reading}"])
            (name,) = sel.rulesets
            assert name == f"{spec.default_ruleset}+{vp.id}={reading}"
            assert sel.spec.reading(name, vp.id) == reading
            if vp.parameter is not None:
                game = Game(sel.spec, name, ["red", "blue", "green"])
                assert game.param(vp.parameter).value == reading
            count += 1
    assert count > len(spec.variation_points)


def test_derived_names_follow_the_spec_order(spec: Spec) -> None:
    order = list(spec.variation_points)
    assert order.index("maid-empty-deck") < order.index("final-tie")
    name = derived_name(spec, "reference", {"final-tie": "shared", "maid-empty-deck": "discard-only"})
    assert name == "reference+maid-empty-deck=discard-only+final-tie=shared"
    assert parse_name(spec, name) == ("reference", {"maid-empty-deck": "discard-only", "final-tie": "shared"})
    sel = select(spec, [], ["final-tie=shared", "maid-empty-deck=discard-only"])
    assert sel.rulesets == (name,)


# ---------------------------------------------------------------------------- how options combine
def test_readings_apply_on_top_of_each_ruleset_asked(spec: Spec) -> None:
    sel = select(spec, ["source-a", "source-b"], ["final-tie=shared"])
    assert sel.rulesets == ("source-a+final-tie=shared", "source-b+final-tie=shared")
    assert sel.house == sel.rulesets
    assert sel.spec.reading("source-b+final-tie=shared", "game-end-tiebreak") == "most-played-last-round"
    # none asked: on top of the default ruleset; nothing given: nothing selected
    assert select(spec, [], ["final-tie=shared"]).rulesets == ("reference+final-tie=shared",)
    assert select(spec, [], []).rulesets == () and select(spec, [], []).spec is spec


def test_a_derived_name_is_a_ruleset_and_reading_replaces_its_point(spec: Spec) -> None:
    sel = select(spec, ["reference+final-tie=shared"], [])
    assert sel.rulesets == ("reference+final-tie=shared",)
    sel = select(spec, ["reference+final-tie=shared"], ["final-tie=cascade"])
    assert sel.rulesets == ("reference+final-tie=cascade",)
    assert any("replaces" in n and "final-tie=shared" in n for n in sel.notes)


def test_ruleset_file_and_readings_on_top(spec: Spec, tmp_path: Path) -> None:
    f = house_file(tmp_path, TALLY_FILE)
    sel = select(spec, [], [], f)
    assert sel.rulesets == ("tally",)
    assert label(sel.spec, "tally") == "tally (reference with game-end-tiebreak=most-played-total)"
    sel = select(spec, ["source-a"], ["final-tie=shared"], f)
    assert sel.rulesets == ("source-a+final-tie=shared", "tally+final-tie=shared")
    assert house_readings(sel.spec, "tally+final-tie=shared") == (
        "reference", {"game-end-tiebreak": "most-played-total", "final-tie": "shared"})


def test_notes_for_readings_that_change_nothing(spec: Spec) -> None:
    sel = select(spec, [], ["role-names=same-roles", "final-tie=cascade"])
    assert any(n.startswith("role-names sets no engine parameter") for n in sel.notes)
    assert "reference already reads final-tie as cascade" in sel.notes


@pytest.mark.parametrize(("readings", "message"), [
    (["final-ti=shared"], "--reading: unknown variation point 'final-ti'; did you mean 'final-tie'?"),
    (["final-tie=share"], "--reading: final-tie has no reading 'share'; did you mean 'shared'? "
                          "(its readings: shared, cascade; or open)"),
    (["final-tie"], "--reading: 'final-tie' is not POINT=READING"),
    (["=shared"], "--reading: '=shared' is not POINT=READING"),
    (["final-tie=shared", "final-tie=cascade"],
     "--reading: final-tie is given twice (final-tie=shared, final-tie=cascade)"),
])
def test_bad_readings(spec: Spec, readings: list[str], message: str) -> None:
    with pytest.raises(InputError) as exc:
        select(spec, [], readings)
    assert exc.value.render().startswith(message)


@pytest.mark.parametrize(("name", "message"), [
    ("referenc", "--ruleset: unknown ruleset 'referenc'; did you mean 'reference'?"),
    ("referenc+final-tie=shared", "--ruleset: unknown ruleset 'referenc'; did you mean 'reference'?"),
    ("reference+final-tie", "--ruleset: in ruleset 'reference+final-tie': 'final-tie' is not POINT=READING"),
    ("reference+final-tie=x", "--ruleset: in ruleset 'reference+final-tie=x': final-tie has no reading 'x'"),
    ("reference+final-tie=shared+final-tie=cascade", "final-tie is given twice"),
])
def test_bad_derived_names(spec: Spec, name: str, message: str) -> None:
    with pytest.raises(InputError) as exc:
        select(spec, [name], [])
    assert message in exc.value.render()


@pytest.mark.parametrize(("text", "message"), [
    ("name: tally\nbase: reference\nreadings:\n  final-ti: shared\n",
     "line 4, column 3 (readings.final-ti): unknown variation point 'final-ti'; did you mean 'final-tie'?"),
    ("name: tally\nbase: reference\nreadings:\n  final-tie: share\n",
     "line 4, column 14 (readings.final-tie): final-tie has no reading 'share'; did you mean 'shared'?"),
    ("name: tally\nbase: referenc\nreadings: {final-tie: shared}\n",
     "line 2, column 7 (base): unknown ruleset 'referenc'; did you mean 'reference'?"),
    ("name: reference\nbase: source-a\nreadings: {final-tie: shared}\n",
     "line 1, column 7 (name): 'reference' is already a ruleset of the spec"),
    ("name: tally\nbase: reference\nreading: {final-tie: shared}\n", "unknown key 'reading'; did you mean 'readings'?"),
    ("name: tally\nbase: reference\nreadings: {}\n", "line 3, column 11 (readings)"),
    ("name: a+b\nbase: reference\nreadings: {final-tie: shared}\n", "line 1, column 7 (name)"),
    ("name: tally\nbase: reference\nreadings:\n  final-tie: shared\n  final-tie: cascade\n", "line 5"),
    ("- tally\n", "a ruleset file is a mapping"),
])
def test_bad_ruleset_files(spec: Spec, tmp_path: Path, text: str, message: str) -> None:
    f = house_file(tmp_path, text)
    with pytest.raises(InputError) as exc:
        load_ruleset_file(f, spec)
    assert exc.value.render().startswith(f + ": "), exc.value.render()
    assert message in exc.value.render(), exc.value.render()


# ---------------------------------------------------------------------------- every command
def test_ask_names_the_derived_ruleset() -> None:
    code, out, err = invoke("ask", TIE, "--json", "--reading", "game-end-tiebreak=most-played-total")
    assert code == 0, err
    doc = json.loads(out)
    assert list(doc["rulesets"]) == [TALLY]
    code, out, err = invoke("ask", TIE, "--full", "-r", "reference", "-r", TALLY)
    assert code == 0, err
    assert f"-- ruleset {TALLY}" in out and "-- ruleset reference" in out
    code, out, err = invoke("ask", TIE, "-r", "reference", "-r", TALLY)  # grouped: named where they agree
    assert code == 0, err
    assert f"(reference, {TALLY})" in out


def test_ask_with_a_ruleset_file(tmp_path: Path) -> None:
    f = house_file(tmp_path, TALLY_FILE)
    code, out, err = invoke("ask", TIE, "--json", "--ruleset-file", f)
    assert code == 0, err
    assert list(json.loads(out)["rulesets"]) == ["tally"]
    assert "house rules: tally (reference with game-end-tiebreak=most-played-total)" in err


def test_a_ruleset_file_on_a_named_house_ruleset(tmp_path: Path) -> None:
    """A ruleset file whose base is a named house ruleset of spec/rulesets.yaml (house-guard)
    reads that ruleset's readings: no traceback."""
    f = house_file(tmp_path, "name: hg2\nbase: house-guard\nreadings: {final-tie: shared}\n")
    code, out, err = invoke("ask", TIE, "--json", "--ruleset-file", f)
    assert code == 0, err
    assert list(json.loads(out)["rulesets"]) == ["hg2"] and "Traceback" not in err


@pytest.mark.parametrize("command", [
    ("ask", TIE), ("play", "-q"), ("replay", str(ROOT / "examples" / "records" / "seed7-reference.jsonl")),
    ("simulate", "-g", "1", "-n", "3"), ("rulings",), ("prove", "--list"),
])
def test_every_command_refuses_bad_house_rules(command: tuple[str, ...], tmp_path: Path) -> None:
    code, out, err = invoke(*command, "--reading", "final-ti=shared")
    assert code == 2 and out == "", (command, out)
    assert err == "palast: error: --reading: unknown variation point 'final-ti'; did you mean 'final-tie'? " \
                  "(palast explain POINT shows a point and its readings)\n", err
    code, out, err = invoke(*command, "--reading", "final-tie=shared", "--reading", "final-tie=cascade")
    assert code == 2 and "final-tie is given twice" in err and "Traceback" not in err
    bad = house_file(tmp_path, "name: tally\nbase: reference\nreadings: {final-tie: share}\n")
    code, out, err = invoke(*command, "--ruleset-file", bad)
    assert code == 2 and f"{bad}: line 3" in err and "did you mean 'shared'?" in err, err
    code, out, err = invoke(*command, "--ruleset-file", str(tmp_path / "missing.yaml"))
    assert code == 2 and "missing.yaml" in err and "Traceback" not in err


def test_play_and_replay_commands_carry_the_readings(tmp_path: Path) -> None:
    rec = str(tmp_path / "game.jsonl")
    code, out, err = invoke("play", "-n", "3", "-s", "0", "-q", "--reading", "wizard-minimum=zero-allowed",
                            "--record", rec)
    assert code == 0, err
    assert out.startswith("palast play: 3 players (blue, green, red), ruleset reference+wizard-minimum=zero-allowed,")
    header = json.loads(Path(rec).read_text(encoding="utf-8").splitlines()[0])
    assert header["ruleset"] == "reference+wizard-minimum=zero-allowed"
    assert header["base"] == "reference" and header["readings"] == {"wizard-minimum": "zero-allowed"}
    code, out, err = invoke("replay", rec)
    assert code == 0, out
    assert "ruleset reference+wizard-minimum=zero-allowed (from the record)" in out and "confirmed" in out
    # the record's Wizard exchanges no card; under the reference that is illegal
    code, out, err = invoke("replay", rec, "-r", "reference")
    assert code == 1 and "illegal: action" in out
    assert "the record was played with house rules" in err
    # --reading applies on top of the record's ruleset, and wins for its point
    code, out, err = invoke("replay", rec, "--reading", "wizard-minimum=at-least-one", "--json")
    assert code == 1
    doc = json.loads(out)
    assert doc["ruleset"] == "reference+wizard-minimum=at-least-one" and doc["status"] == "illegal"
    assert doc["house_rules"] == {"base": "reference", "readings": {"wizard-minimum": "at-least-one"}}
    assert "replaces" in err
    code, _, err = invoke("replay", rec, "-r", "reference", "--ruleset-file", rec)
    assert code == 2 and "give --ruleset or --ruleset-file, not both" in err


def test_play_with_a_ruleset_file_names_it(tmp_path: Path) -> None:
    f = house_file(tmp_path, TALLY_FILE)
    rec = str(tmp_path / "game.jsonl")
    code, out, _ = invoke("play", "-n", "3", "-s", "5", "-q", "--ruleset-file", f, "--record", rec)
    assert code == 0
    assert "ruleset tally (reference with game-end-tiebreak=most-played-total)" in out.splitlines()[0]
    r = read_record(rec)
    assert (r.ruleset, r.base, r.readings) == ("tally", "reference", (("game-end-tiebreak", "most-played-total"),))
    code, out, _ = invoke("replay", rec)
    assert code == 0 and "ruleset tally (reference with game-end-tiebreak=most-played-total) (from the record)" in out
    code, _, err = invoke("play", "-q", "-r", "reference", "--ruleset-file", f)
    assert code == 2 and "--ruleset-file: this command runs one ruleset" in err


def test_simulate_runs_the_derived_ruleset() -> None:
    code, out, err = invoke("simulate", "-g", "3", "-n", "3", "--json", "-r", "source-a", "--reading",
                            "final-tie=shared")
    assert code == 0, err
    doc = json.loads(out)
    assert list(doc["results"]) == ["source-a+final-tie=shared"]
    assert doc["results"]["source-a+final-tie=shared"]["games"] == 3


def test_simulate_workers_know_the_derived_ruleset(tmp_path: Path) -> None:
    f = house_file(tmp_path, TALLY_FILE)
    args = ("simulate", "-g", "6", "-n", "3", "--json", "--ruleset-file", f)
    one = json.loads(invoke(*args)[1])
    code, out, err = invoke(*args, "--workers", "2")
    assert code == 0, err
    assert json.loads(out)["results"] == one["results"]


def test_rulings_checks_the_house_ruleset_a_ruling_names(tmp_path: Path) -> None:
    code, out, err = invoke("rulings", "--reading", "game-end-tiebreak=most-played-total")
    assert code == 0, out
    assert out.splitlines()[-1] == "1 ruling, 1 check: 1 agree, 0 disagree"
    assert f"game-end-tally-tiebreak  {TALLY}  agrees" in out and "winner blue" in out
    # a ruleset file with the same base and readings is checked under the ruling's name
    code, out, err = invoke("rulings", "--ruleset-file", house_file(tmp_path, TALLY_FILE), "--json")
    assert code == 0
    doc = json.loads(out)
    assert [(r["id"], [x["ruleset"] for x in r["results"]]) for r in doc["rulings"]] == [
        ("game-end-tally-tiebreak", [TALLY])]
    code, out, err = invoke("rulings", "--reading", "final-tie=shared")
    assert code == 0 and "0 rulings, 0 checks" in out and "no ruling states a result for" in err
    code, out, err = invoke("rulings", "-r", TALLY, "game-end-tally-tiebreak")
    assert code == 0 and "1 ruling, 1 check: 1 agree" in out


def test_prove_runs_obligations_under_the_derived_ruleset() -> None:
    code, out, err = invoke("prove", "--list", "--reading", "final-tie=shared")
    assert code == 0, err
    lines = out.splitlines()
    assert lines and all(line.split()[1] == "reference+final-tie=shared" for line in lines)
    code, out, err = invoke("prove", "--only", "scores-rise-slowly", "-r", "source-a", "-r", "source-b",
                            "--reading", "final-tie=shared", "-j", "2")
    assert code == 0, out + err
    assert "source-a+final-tie=shared" in out and "source-b+final-tie=shared" in out
    assert "2 obligations, 2 passed, 0 failed" in out
    code, _, err = invoke("prove", "--only", "tiebreak-a-b-differ", "--reading", "final-tie=shared")
    assert code == 2 and "no obligation named 'tiebreak-a-b-differ' is stated for reference+final-tie=shared" in err


# ---------------------------------------------------------------------------- records and replay
def _house_game(spec: Spec) -> tuple[Spec, Game]:
    sel = select(spec, [], ["wizard-minimum=zero-allowed"])
    return sel.spec, Game(sel.spec, sel.rulesets[0], ["red", "blue", "green"], check=True)


def test_a_record_keeps_its_readings_and_replays_under_them(spec: Spec) -> None:
    _, game = _house_game(spec)
    record = record_game(game, list(play_moves(game, 0)), seed=0)
    assert record.base == "reference" and record.readings == (("wizard-minimum", "zero-allowed"),)
    back = parse_record(format_record(record))
    assert (back.ruleset, back.base, back.readings) == (record.ruleset, record.base, record.readings)
    # the plain spec does not know the house ruleset: replay builds it from the header
    report = replay(spec, back)
    assert report.status is Status.CONFIRMED and report.game.ruleset == "reference+wizard-minimum=zero-allowed"
    assert replay(spec, back, "reference").status is Status.ILLEGAL


def test_old_records_stay_valid(spec: Spec) -> None:
    for path in sorted((ROOT / "examples" / "records").glob("*.jsonl")):
        r = read_record(path)
        assert r.base is None and r.readings == ()
        assert "base" not in format_record(r).splitlines()[0]


@pytest.mark.parametrize(("header", "message"), [
    ({"base": "reference"}, "'base' needs 'readings' beside it: add readings"),
    ({"readings": {"final-tie": "shared"}}, "'readings' needs 'base' beside it: add base"),
    ({"base": "referenc", "readings": {"final-tie": "shared"}}, "did you mean 'reference'?"),
    ({"base": "reference", "readings": {"final-ti": "shared"}}, "did you mean 'final-tie'?"),
    ({"ruleset": "reference", "base": "reference", "readings": {"final-tie": "shared"}},
     "'reference' is a ruleset of the spec, but the header gives readings"),
    ({"ruleset": "reference+final-tie=cascade", "base": "reference", "readings": {"final-tie": "shared"}},
     "says other readings than"),
])
def test_bad_house_headers(spec: Spec, tmp_path: Path, header: dict[str, object], message: str) -> None:
    text = json.dumps({"format": "palast-record", "version": 1, "players": ["red", "blue", "green"], **header})
    path = tmp_path / "r.jsonl"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        replay(spec, read_record(path))
    assert message in exc.value.render() and "line 1" in exc.value.render(), exc.value.render()
    code, _, err = invoke("replay", str(path))
    assert code == 2 and message in err


def test_header_without_ruleset_name_gets_the_derived_name(spec: Spec, tmp_path: Path) -> None:
    _, game = _house_game(spec)
    record = record_game(game, list(play_moves(game, 1)), seed=1)
    from dataclasses import replace

    path = tmp_path / "r.jsonl"
    write_record(path, replace(record, ruleset=None))
    report = replay(spec, read_record(path))
    assert report.game.ruleset == "reference+wizard-minimum=zero-allowed"
    assert report.status is Status.CONFIRMED


# ---------------------------------------------------------------------------- B's tally
def test_the_tally_tiebreak_ruling(spec: Spec) -> None:
    (ruling,) = load_rulings(spec, ["game-end-tally-tiebreak"])
    assert TALLY in ruling.rulesets and "B.gameend.tally" in ruling.clauses
    checks = {c.ruleset: c for c in check_ruling(spec, ruling)}
    assert all(c.agrees for c in checks.values()), [c.differences for c in checks.values()]
    assert checks[TALLY].outcome.values["winners"] == ["blue"]
    assert {checks[rs].outcome.values["winners"][0] for rs in spec.rulesets} == {"red"}
    # no ruleset of the spec takes the tally reading: only the house ruleset reaches it
    assert "most-played-total" not in {spec.reading(rs, "game-end-tiebreak") for rs in spec.rulesets}


def test_a_ruling_naming_a_bad_house_ruleset_is_malformed(spec: Spec, tmp_path: Path) -> None:
    text = Path(TALLY_RULING).read_text(encoding="utf-8").replace(TALLY + ":", "reference+game-end-tiebreak=most:")
    folder = tmp_path / "rulings"
    folder.mkdir()
    (folder / "game-end-tally-tiebreak.yaml").write_text(text, encoding="utf-8")
    from palast.query.ruling_files import load_ruling

    with pytest.raises(InputError) as exc:
        load_ruling(folder / "game-end-tally-tiebreak.yaml", spec)
    assert "in ruleset 'reference+game-end-tiebreak=most': game-end-tiebreak has no reading 'most'" \
        in exc.value.render()
    assert "(expect.reference+game-end-tiebreak=most)" in exc.value.render()


def test_the_readme_ruleset_file_is_valid(spec: Spec, tmp_path: Path) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## House rules", 1)[1].split("\n## ", 1)[0]
    block = section.split("```yaml", 1)[1].split("```", 1)[0]
    rf = load_ruleset_file(house_file(tmp_path, "\n".join(line.strip() for line in block.splitlines())), spec)
    assert (rf.name, rf.base, dict(rf.readings)) == ("tally", "reference", {"game-end-tiebreak": "most-played-total"})


GUARD_SEAT = "name: guard-seat\nbase: house-guard\nreadings: {neutral-tie: seat-order}\n"


@pytest.mark.parametrize(("args", "files", "base", "guards"), [
    (["-r", "house-guard", "--reading", "neutral-tie=seat-order"], {}, "house-guard", True),
    (["--ruleset-file", "F"], {"F": GUARD_SEAT}, "house-guard", True),
    (["--ruleset-file", "F", "--reading", "final-tie=shared"], {"F": GUARD_SEAT}, "house-guard", True),
    (["-r", "house-guard", "--reading", "guard-other-card=itself-too"], {}, "house-guard", True),
    (["-r", "house-guard+neutral-tie=seat-order", "--reading", "final-tie=shared"], {}, "house-guard", True),
    (["-r", "reference", "--reading", "neutral-tie=player-who-played"], {}, "reference", False),
    (["-r", "reference+neutral-tie=seat-order", "--reading", "final-tie=shared"], {}, "reference", False),
    (["--ruleset-file", "F", "--reading", "neutral-tie=seat-order"], {"F": TALLY_FILE}, "reference", False),
    (["-r", "fan", "--reading", "fan-expansion=on"], {}, "fan", False),
])
def test_a_game_of_house_rules_replays_from_its_record(tmp_path: Path, args: list[str], files: dict[str, str],
                                                      base: str, guards: bool) -> None:
    """A record of house rules names as its base the nearest named house ruleset they are
    on top of (else the spec's ruleset), so the replay derives the same ruleset, which
    follows that one's prove list in check mode. Before, the header gave the reference
    with every reading merged: the replay of ``-r house-guard --reading ...`` was refused
    (exit 2), and that of a ruleset file based on house-guard stopped with check failed at
    the first Guard taken back (exit 1). A reading the base already takes, readings on top
    of a derived name and readings on top of a ruleset file replay too."""
    rec = tmp_path / "game.jsonl"
    chosen = [house_file(tmp_path, files[a]) if a in files else a for a in args]
    took_back = 0
    for seed in (1, 2, 3):
        code, out, err = invoke("play", "-q", *chosen, "-n", "5", "-s", str(seed), "--record", str(rec))
        assert code == 0, out + err
        header = json.loads(rec.read_text(encoding="utf-8").splitlines()[0])
        assert header["base"] == base and header["readings"], header
        took_back += sum('"take-back' in line for line in rec.read_text(encoding="utf-8").splitlines())
        code, out, err = invoke("replay", str(rec))
        assert code == 0, out + err
    assert took_back > 0 or not guards


@pytest.mark.parametrize(("ruleset", "base", "readings", "code"), [
    ("house-guard", "house-guard", {"guard-other-card": "another-own"}, 2),
    ("house-guard", "house-guard", {"final-tie": "shared"}, 2),
    ("house-guard", "reference", {"guard-other-card": "another-own"}, 2),
    ("house-guard", "house-guard", {"guard-other-card": "itself-too"}, 0),
    ("house-guard", "reference", {"guard-other-card": "itself-too", "final-tie": "cascade"}, 0),
    ("house-guard+final-tie=shared", "reference", {"guard-other-card": "itself-too", "final-tie": "shared"}, 0),
    ("house-guard+final-tie=shared", "house-guard", {"final-tie": "cascade"}, 2),
])
def test_a_record_header_is_read_by_what_it_reads(tmp_path: Path, ruleset: str, base: str, readings: dict[str, str],
                                                  code: int) -> None:
    """A header naming a named house ruleset or a derived name replays where its base and
    readings read as that name does, however written, and is refused at line 1 where they
    read otherwise. Before, a header whose base was the named house ruleset itself had its
    readings ignored (and a real game failed its replay), and one that gave the reference's
    own reading again was refused."""
    rec = tmp_path / "game.jsonl"
    extra = ["--reading", "final-tie=shared"] if "+" in ruleset else []
    code0, out, err = invoke("play", "-q", "-r", "house-guard", *extra, "-n", "3", "-s", "4", "--record", str(rec))
    assert code0 == 0, out + err
    lines = rec.read_text(encoding="utf-8").splitlines()
    header = {**json.loads(lines[0]), "ruleset": ruleset, "base": base, "readings": readings}
    rec.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    got, out, err = invoke("replay", str(rec))
    assert got == code, out + err
    if code == 2:
        assert "line 1: header:" in err and "Traceback" not in out + err, err
    else:
        assert "the record's result line matches" in out, out
