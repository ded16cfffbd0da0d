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
