"""Named house rulesets of ``spec/rulesets.yaml`` (key ``house``, :mod:`palast.spec.house_rulesets`):
accepted wherever a ruleset name is (``-r``, a scenario's ``rulesets``, a ruling's
``expect``, a record's header), resolved through :func:`palast.formats.house.resolve`, never one of
the default rulesets. The tests declare one of their own, ``house-test``, in a copy of the
spec, so they do not depend on which house rulesets the spec declares."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from palast.cli import main
from palast.engine import Game
from palast.errors import InputError
from palast.formats.house import house_readings, known, own_rulesets, resolve
from palast.formats.notation import format_action
from palast.formats.record import record_game, write_record
from palast.formats.scenario import load_scenario, parse_scenario
from palast.query.replay import Status, replay
from palast.sim.play import play_moves
from palast.spec.load import Spec, load_spec

ROOT = Path(__file__).resolve().parent.parent
NAME = "house-test"
ENTRY = (f"  - id: {NAME}\n    title: Guards that may take themselves back\n"
         "    description: The reference, except that a Guard may take itself back.\n"
         "    base: reference\n    readings: {guard-other-card: itself-too}\n")
#: A red Guard opens the round: under the house reading red may take it back.
OPENING = """\
players: [red, blue, green]
to_move: red
hands:
  red: [guard/red, maid/red, wizard/grey, jester/red, treasurer/red, marshal/red]
  blue: [treasurer/blue, wizard/blue, maid/blue, guard/blue, jester/blue, marshal/blue]
  green: [treasurer/green, wizard/green, maid/green, guard/green, jester/green, marshal/green]
actions: [play guard/red]
"""


def with_house_entry(text: str) -> str:
    """``spec/rulesets.yaml`` text with :data:`ENTRY` declared under ``house``."""
    if "\nhouse:\n" in text:
        return text.replace("\nhouse:\n", "\nhouse:\n" + ENTRY, 1)
    return text.replace("\ndefault:", "\nhouse:\n" + ENTRY + "default:", 1)


@pytest.fixture(scope="module")
def spec_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("spec") / "spec"
    shutil.copytree(ROOT / "spec", d)
    f = d / "rulesets.yaml"
    f.write_text(with_house_entry(f.read_text(encoding="utf-8")), encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def hspec(spec_dir: Path) -> Spec:
    return load_spec(spec_dir)


def invoke(spec_dir: Path, *args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["--spec", str(spec_dir), *args], prog_name="palast")
    return r.exit_code, r.stdout, r.stderr


def test_declared_but_not_a_default_ruleset(hspec: Spec) -> None:
    assert NAME in hspec.house_rulesets and NAME not in hspec.rulesets
    assert NAME in known(hspec)
    sc = parse_scenario(OPENING, hspec)
    assert sc.rulesets == ("source-a", "source-b", "reference")


def test_resolve_adds_it_with_its_declaration(hspec: Spec) -> None:
    out = resolve(hspec, NAME)
    assert out.rulesets[NAME]["title"] == "Guards that may take themselves back"
    assert house_readings(out, NAME) == ("reference", {"guard-other-card": "itself-too"})
    assert out.reading(NAME, "guard-other-card") == "itself-too"
    assert out.reading(NAME, "final-tie") == out.reading("reference", "final-tie")
    # added, it is still not among the rulesets a scenario without rulesets asks about
    assert own_rulesets(out) == ("source-a", "source-b", "reference")
    assert parse_scenario(OPENING, out).rulesets == ("source-a", "source-b", "reference")


def test_a_derived_name_may_rest_on_it(hspec: Spec) -> None:
    name = f"{NAME}+final-tie=shared"
    out = resolve(hspec, name)
    assert out.reading(name, "guard-other-card") == "itself-too"
    assert out.reading(name, "final-tie") == "shared"
    assert house_readings(out, name)[0] == "reference"


def test_unknown_names_still_fail_with_the_house_rulesets_listed(hspec: Spec) -> None:
    with pytest.raises(InputError, match=f"did you mean '{NAME}'.*known: .*{NAME}"):
        resolve(hspec, "house-tset")


def test_ask_takes_it_by_option_and_by_scenario(spec_dir: Path, tmp_path: Path) -> None:
    code, out, err = invoke(spec_dir, "ask", "--json", "-r", NAME, "-r", "reference", _write(tmp_path, OPENING))
    assert code == 0, err
    answer = json.loads(out)
    assert answer["rulesets"][NAME]["legal_actions"] == ["take-back guard/red"]
    assert "take-back guard/red" not in answer["rulesets"]["reference"]["legal_actions"]
    named = _write(tmp_path, OPENING + f"rulesets: [reference, {NAME}]\n", "named.yaml")
    code, out2, err = invoke(spec_dir, "ask", "--json", named)
    assert code == 0, err
    assert set(json.loads(out2)["rulesets"]) == {"reference", NAME}
    assert json.loads(out2)["rulesets"][NAME]["legal_actions"] == ["take-back guard/red"]


def test_a_scenario_with_an_unknown_house_name_is_bad_input(spec_dir: Path, tmp_path: Path) -> None:
    bad = _write(tmp_path, OPENING + "rulesets: [house-tset]\n", "bad.yaml")
    code, _, err = invoke(spec_dir, "ask", bad)
    assert code == 2 and "(rulesets[0]): unknown ruleset 'house-tset'" in err and NAME in err, err
    bad2 = _write(tmp_path, OPENING + f"rulesets: [{NAME}+final-tie=shard]\n", "bad2.yaml")
    code, _, err = invoke(spec_dir, "ask", bad2)
    assert code == 2 and "(rulesets[0])" in err and "final-tie has no reading 'shard'" in err, err


def test_a_record_under_it_replays(hspec: Spec, tmp_path: Path) -> None:
    spec = resolve(hspec, NAME)
    game = Game(spec, NAME, ["red", "blue", "green"])
    # the opening of a game (check mode rejects a Guard taking itself back: round-progress)
    record = record_game(game, list(play_moves(game, 3))[:4], seed=3)
    assert record.ruleset == NAME and record.base == "reference"
    report = replay(hspec, record)  # the plain spec: the header's name resolves to the declaration
    assert report.status is Status.UNFINISHED and report.game.ruleset == NAME
    assert report.game.spec.rulesets[NAME]["title"] == "Guards that may take themselves back"
    from dataclasses import replace

    path = tmp_path / "r.jsonl"
    write_record(path, replace(record, readings=(("guard-other-card", "another-own"),)))
    code, _, err = invoke(Path(hspec.root), "replay", str(path))
    assert code == 2 and "is a house ruleset of spec/rulesets.yaml" in err, err


def test_a_ruleset_file_may_not_take_its_name(spec_dir: Path, tmp_path: Path) -> None:
    f = _write(tmp_path, f"name: {NAME}\nbase: reference\nreadings: {{final-tie: shared}}\n", "h.yaml")
    code, _, err = invoke(spec_dir, "ask", "--ruleset-file", f, _write(tmp_path, OPENING))
    assert code == 2 and "already a ruleset of the spec" in err, err


def test_the_scenario_game_resolves_it(hspec: Spec, tmp_path: Path) -> None:
    sc = load_scenario(_write(tmp_path, OPENING + f"rulesets: [{NAME}]\n", "g.yaml"), hspec)
    game = sc.game(hspec, NAME)
    state, _ = sc.position(game)
    assert [format_action(game, a) for a in game.legal_actions(state)] == ["take-back guard/red"]


def _write(tmp_path: Path, text: str, name: str = "s.yaml") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)
