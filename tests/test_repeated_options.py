"""An option that takes one value, given twice: refused (exit 2) with every value named,
never the last one silently taken (``palast play -r source-a -r source-b`` used to play
under source-b alone)."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

from tests.cli_runs import fresh_process, in_process

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "examples" / "records" / "seed7-reference.jsonl"
EXAMPLE = ROOT / "examples" / "game-end-tie.yaml"


def test_play_refuses_two_rulesets() -> None:
    r = in_process("play", "-r", "source-a", "-r", "source-b")
    assert r.code == 2
    assert r.stdout == ""  # no game is played
    assert r.stderr == ("palast: error: play plays one game under one ruleset; -r/--ruleset was given twice "
                        "(source-a, source-b)\n")


def test_the_long_and_short_spelling_count_alike() -> None:
    r = in_process("play", "--ruleset", "source-a", "-r", "reference", "-r", "source-b")
    assert r.code == 2
    assert "-r/--ruleset was given 3 times (source-a, reference, source-b)" in r.stderr


def test_replay_refuses_two_rulesets() -> None:
    r = in_process("replay", str(RECORD), "-r", "source-a", "-r", "reference")
    assert r.code == 2 and r.stdout == ""
    assert "replay re-plays the record under one ruleset; -r/--ruleset was given twice (source-a, reference)" \
        in r.stderr


def test_the_same_value_twice_is_no_conflict() -> None:
    once = in_process("play", "-n", "3", "-s", "2", "-r", "source-a", "-q")
    twice = in_process("play", "-n", "3", "-s", "2", "-r", "source-a", "-q", "--ruleset", "source-a")
    assert once.code == twice.code == 0, twice.stderr
    assert "ruleset source-a" in twice.stdout.splitlines()[0]
    assert twice.stdout == once.stdout


def test_ask_json_prints_the_error_document_for_a_repeated_option(tmp_path: Path) -> None:
    r = in_process("ask", "--json", str(EXAMPLE), "--ruleset-file", "a.yaml", "--ruleset-file", "b.yaml",
                   cwd=tmp_path)
    assert r.code == 2
    doc = json.loads(r.stdout)
    assert doc["error"]["message"] == ("one file of house rules is read; --ruleset-file was given twice "
                                       "(a.yaml, b.yaml)")


@pytest.mark.parametrize("args", [("play", "-s", "1", "--seed", "2"), ("simulate", "-g", "3", "-g", "4"),
                                  ("prove", "--jobs", "1", "--jobs", "2", "--list")])
def test_other_one_value_options_are_refused_too(args: tuple[str, ...]) -> None:
    r = in_process(*args)
    assert r.code == 2 and r.stdout == ""
    assert "takes one value and was given twice" in r.stderr


def test_in_a_fresh_process_no_traceback() -> None:
    r = fresh_process("play", "-r", "source-a", "-r", "source-b")
    assert r.code == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith("palast: error: play plays one game under one ruleset")


def _commands() -> list[tuple[str, click.Command]]:
    from palast.cli import main

    ctx = click.Context(main)
    out: list[tuple[str, click.Command]] = [("palast", main)]
    for name in main.list_commands(ctx):
        cmd = main.get_command(ctx, name)
        assert cmd is not None
        if isinstance(cmd, click.Group):
            out += [(f"{name} {sub}", cmd.get_command(ctx, sub)) for sub in cmd.list_commands(ctx)]  # type: ignore[misc]
        else:
            out.append((name, cmd))
    return out


def test_every_option_that_takes_one_value_refuses_several() -> None:
    """Every option of every command that takes one value (not a flag, a count or a
    repeatable option) is a OnceOption, so a new one cannot bring the silent last-one-wins
    back."""
    from palast.cli.context import OnceOption

    plain = [f"{name} {p.opts[0]}" for name, cmd in _commands() for p in cmd.params
             if isinstance(p, click.Option) and not (p.is_flag or p.multiple or p.count)
             and not isinstance(p, OnceOption)]
    assert plain == []
    rulesets = {name: p for name, cmd in _commands() for p in cmd.params if "-r" in p.opts}
    assert set(rulesets) == {"ask", "play", "prove", "replay", "rulings", "simulate"}
    assert {name for name, p in rulesets.items() if not p.multiple} == {"play", "replay"}


def test_the_same_reading_twice_is_one_house_rule_and_a_ruling_named_twice_is_checked_once() -> None:
    """As ``--seed 1 --seed 1`` is one seed: ``--reading P=R`` given twice alike is one
    house rule (it was refused as a point given twice), and ``rulings ID ID`` checks the
    ruling once (it checked it twice)."""
    r = in_process("ask", "examples/game-end-tie.yaml", "--reading", "neutral-tie=seat-order",
                   "--reading", "neutral-tie=seat-order")
    assert r.code == 0, r.stderr
    r = in_process("ask", "examples/game-end-tie.yaml", "--reading", "neutral-tie=seat-order",
                   "--reading", "neutral-tie=player-who-played")
    assert r.code == 2 and "neutral-tie is given twice" in r.stderr
    r = in_process("rulings", "guard-alone", "guard-alone")
    assert r.code == 0 and r.stdout.splitlines()[-1] == "1 ruling, 3 checks: 3 agree, 0 disagree"


def test_r_may_name_the_ruleset_of_the_ruleset_file(tmp_path: Path) -> None:
    """``-r NAME`` beside ``--ruleset-file`` whose ruleset is NAME asks that ruleset (it was
    an unknown ruleset), once, in the order given."""
    f = tmp_path / "tally.yaml"
    f.write_text("name: tally\nbase: reference\nreadings: {game-end-tiebreak: most-played-total}\n")
    r = in_process("ask", "examples/game-end-tie.yaml", "-r", "tally", "-r", "source-a", "--ruleset-file", str(f),
                   "--json")
    assert r.code == 0, r.stderr
    assert list(json.loads(r.stdout)["rulesets"]) == ["tally", "source-a"]
