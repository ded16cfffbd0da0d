"""The command line: the ask --json contract, play, spec check, and bad input (exit 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "banned-jester-only-card.yaml"


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "palast", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=120)


def test_ask_json_contract() -> None:
    r = run("ask", str(EXAMPLE), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert set(doc["rulesets"]) == {"source-a", "source-b", "reference"}
    assert isinstance(doc["disagreements"], list) and doc["disagreements"]
    for res in doc["rulesets"].values():
        assert {"decision", "legal_actions", "outcomes"} <= set(res)
        for o in res["outcomes"]:
            assert {"action", "events", "round_end", "scores", "next_to_move", "gap"} <= set(o)
            assert o["round_end"] in (None, "whisper", "six")
            for e in o["events"]:
                assert e["clauses"], e


def test_ask_text_names_clauses_and_disagreement() -> None:
    r = run("ask", str(EXAMPLE))
    assert r.returncode == 0, r.stderr
    assert "A.king.jester" in r.stdout
    assert "banned-jester-forced" in r.stdout
    assert "disagree" in r.stdout


def test_ask_one_ruleset() -> None:
    r = run("ask", str(EXAMPLE), "--json", "-r", "source-b")
    doc = json.loads(r.stdout)
    assert list(doc["rulesets"]) == ["source-b"]
    assert doc["rulesets"]["source-b"]["decision"]["gap"] == "banned-jester-forced"


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("ruleset", ["source-a", "source-b", "reference"])
def test_play_prints_a_game(n: int, ruleset: str) -> None:
    r = run("play", "--players", str(n), "--seed", "7", "--ruleset", ruleset)
    assert r.returncode == 0, r.stderr
    assert "plays" in r.stdout and "[A." in r.stdout
    assert r.stdout.strip().splitlines()[-1].startswith("result:")
    again = run("play", "--players", str(n), "--seed", "7", "--ruleset", ruleset)
    assert again.stdout == r.stdout


def test_play_labels_each_deal_with_the_round_it_starts() -> None:
    """Every ``[round k] chance: deal`` line is followed by the event that round k is dealt,
    and the round labels never go back."""
    r = run("play", "--players", "3", "--seed", "4", "--ruleset", "source-b")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    deals = [i for i, x in enumerate(lines) if "] chance: deal" in x]
    assert len(deals) >= 2
    for i in deals:
        k = int(lines[i].split("]")[0].removeprefix("[round "))
        dealt = next(x for x in lines[i + 1:] if " is dealt" in x)
        assert dealt.strip().startswith(f"round {k} is dealt"), (lines[i], dealt)
    labels = [int(x.split("]")[0].removeprefix("[round ")) for x in lines if x.startswith("[round ")]
    assert labels == sorted(labels)


def test_spec_check_ok() -> None:
    r = run("spec", "check")
    assert r.returncode == 0, r.stderr
    assert "spec ok" in r.stdout


def test_spec_check_fails_with_reason(tmp_path: Path) -> None:
    import shutil

    broken = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", broken)
    vp = broken / "variation_points.yaml"
    vp.write_text(vp.read_text(encoding="utf-8").replace("A.role.courtesan", "A.role.nonexistent", 1),
                  encoding="utf-8")
    r = run("--spec", str(broken), "spec", "check")
    assert r.returncode == 1
    assert "A.role.nonexistent" in r.stderr and "clause registry" in r.stderr
    assert "Traceback" not in r.stderr


def test_spec_check_fails_on_a_yaml_error_with_exit_1(tmp_path: Path) -> None:
    """A spec file that is not valid YAML is a failed check like any other (exit 1), with
    the file and line."""
    import shutil

    broken = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", broken)
    with (broken / "rules.yaml").open("a", encoding="utf-8") as fh:
        fh.write("x: [\n")
    r = run("--spec", str(broken), "spec", "check")
    assert r.returncode == 1, r.stderr
    assert "rules.yaml" in r.stderr and "not valid YAML" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("old, new, why", [
    ('action: "swap red:guard/red blue:cupbearer/red"', 'action: "swap red:guard/rad blue:cupbearer/red"', "rad"),
    ("    round_end: whisper\n", "    round_end: whisper\n    bogus: 1\n", "bogus"),
])
def test_spec_check_reads_every_ruling_as_palast_rulings_does(tmp_path: Path, old: str, new: str, why: str) -> None:
    """A ruling whose action or expectation ``palast rulings`` refuses fails ``palast spec
    check`` too (exit 1), naming the ruling's file: it used to pass."""
    from tests.spec_copy import edited_spec

    broken = edited_spec(tmp_path, "rulings/cupbearer-whisper-by-swap.yaml", old, new)
    r = run("--spec", str(broken), "spec", "check")
    assert r.returncode == 1, r.stdout
    assert "cupbearer-whisper-by-swap.yaml" in r.stderr and why in r.stderr and "Traceback" not in r.stderr


BAD = {
    "yaml-error": ("players: [red, blue\nto_move: red\n", "not valid YAML"),
    "unknown-role": ("players: [red, blue, green]\nto_move: red\nhands:\n  red: [maide/red]\n", "unknown role 'maide'"),
    "unknown-colour": ("players: [red, blue, pink]\nto_move: red\n", "unknown colour 'pink'"),
    "too-many-copies": ("players: [red, blue, green]\nto_move: red\nhands:\n  red: [maid/grey, maid/grey, maid/grey]\n",
                        "appears 3 times"),
    "not-seated": ("players: [red, blue, green]\nto_move: yellow\n", "yellow is not seated"),
    "not-seated-hand": ("players: [red, blue, green]\nto_move: red\nhands:\n  purple: [maid/grey]\n",
                        "purple is not seated"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_scenario_exits_2_with_place(tmp_path: Path, name: str) -> None:
    text, fragment = BAD[name]
    f = tmp_path / f"{name}.yaml"
    f.write_text(text, encoding="utf-8")
    r = run("ask", str(f))
    assert r.returncode == 2
    assert fragment in r.stderr
    assert str(f) in r.stderr and "line" in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_missing_file_exits_2(tmp_path: Path) -> None:
    r = run("ask", str(tmp_path / "nope.yaml"))
    assert r.returncode == 2 and "cannot read" in r.stderr and "Traceback" not in r.stderr


# ---------------------------------------------------------------------- option checks (in process)
def invoke(*args: str) -> tuple[int, str, str]:
    from click.testing import CliRunner

    from palast.cli import main

    r = CliRunner().invoke(main, list(args), prog_name="palast")
    return r.exit_code, r.stdout, r.stderr


def test_players_and_colours_must_agree() -> None:
    code, out, err = invoke("play", "--players", "3", "--colours", "red,blue,green,yellow", "-q")
    assert code == 2 and out == ""
    assert err.startswith("palast: error: --colours: --players says 3 players, --colours seats 4")
    code, out, _ = invoke("play", "-n", "4", "--colours", "red,blue,green,yellow", "-q")
    assert code == 0 and "4 players (red, blue, green, yellow)" in out
    code, out, _ = invoke("play", "--colours", "red,blue,green", "-q")  # --colours alone: its count
    assert code == 0 and "3 players (red, blue, green)" in out


def test_players_help_names_the_spec_range() -> None:
    from palast.spec.load import load_spec

    spec = load_spec()
    for command in ("play", "simulate"):
        code, out, _ = invoke(command, "--help")
        flat = " ".join(out.split())
        assert code == 0 and f"{spec.min_players} to {spec.max_players} players (the spec's range)" in flat, flat
        assert "1<=x<=99" not in flat


@pytest.mark.parametrize(("args", "start", "end"), [
    (("play", "--players", "abc"), "palast: error: --players: 'abc' is not a valid integer", ""),
    (("play", "--nope"), "palast: error: no such option", "(see 'palast play --help')"),
    (("replay",), "palast: error: missing argument 'RECORD' (see 'palast replay --help')", ""),
    (("replay", str(ROOT / "examples")), f"palast: error: {ROOT / 'examples'}: is a directory, not a file", ""),
    (("nosuchcommand",), "palast: error: no such command 'nosuchcommand'", "(see 'palast --help')"),
])
def test_click_errors_read_like_palast_errors(args: tuple[str, ...], start: str, end: str) -> None:
    """click's own usage errors take palast's form: one line, `palast: error:`, exit 2
    (click's wording of some messages differs between versions: only its start is fixed)."""
    code, out, err = invoke(*args)
    assert (code, out) == (2, "") and err.count("\n") == 1, err
    assert err.startswith(start) and err.rstrip("\n").endswith(end), err


def test_play_record_place_is_checked_before_playing(tmp_path: Path) -> None:
    """A record that cannot be written: exit 2 before any of the game is printed, no file made."""
    (tmp_path / "file").write_text("x")
    missing = "the directory to write the record in does not exist"
    for target, problem in ((tmp_path / "no" / "dir" / "g.jsonl", missing),
                            (tmp_path, "is a directory"),
                            (tmp_path / "file" / "g.jsonl", f"{tmp_path / 'file'} is not a directory")):
        code, out, err = invoke("play", "-n", "3", "--record", str(target))
        assert code == 2 and out == "", (target, out)
        assert err.startswith(f"palast: error: {target}: {problem}"), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_simulate_plots_place_is_checked_before_playing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--plots into a place that cannot be written: exit 2 without playing a game, nothing left behind."""
    import palast.sim.simulate

    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("simulate ran games before checking --plots")

    monkeypatch.setattr(palast.sim.simulate, "simulate", no_games)
    (tmp_path / "file").write_text("x")
    cases = [(tmp_path / "file", "is not a directory"), (tmp_path / "file" / "sub", "is not a directory")]
    if Path("/proc/self").is_dir():
        cases.append((Path("/proc/nope"), "cannot create the directory"))
    for target, problem in cases:
        code, out, err = invoke("simulate", "-g", "300", "-n", "3", "--plots", str(target))
        assert code == 2 and out == "", (target, out)
        assert err.startswith(f"palast: error: {target}: --plots: ") and problem in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]
    # a directory that can be made passes the check (and is not made before the games)
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(palast.sim.simulate, "simulate", interrupted)
    code, _, _ = invoke("simulate", "-g", "3", "-n", "3", "--plots", str(tmp_path / "new" / "plots"))
    assert code == 130 and not (tmp_path / "new").exists()


def test_empty_colours_are_bad_input_not_ignored() -> None:
    for given in ("", " , "):
        code, out, err = invoke("play", "--colours", given)
        assert code == 2 and out == ""
        assert "--colours: names no colour" in err
