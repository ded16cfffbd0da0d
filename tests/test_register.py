"""The discrepancy register (spec/variation_points.yaml): its entries are complete, every
point the engine executes with differing readings has a witness ruling whose outcomes
really differ between rulesets, the spec check enforces the register's rules, and
``palast explain`` and ``palast ask`` report it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from palast.cli import main
from palast.errors import SpecError
from palast.formats.house import resolve_all
from palast.formats.scenario import scenario_from_document
from palast.query.ask import ask
from palast.query.ruling_files import load_ruling, rulings_dir
from palast.query.rulings import compute_outcome
from palast.spec.load import Spec, load_spec
from palast.spec.register import needs_witness
from palast.spec.yamlio import read_yaml

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> Result:
    """Run the ``palast`` command line in this process (exit code, stdout, stderr)."""
    return CliRunner().invoke(main, list(args))


def executed_and_differing(spec: Spec) -> list[str]:
    return [v.id for v in spec.variation_points.values() if needs_witness(v)]


def test_register_size_and_kinds(spec: Spec) -> None:
    points = spec.variation_points.values()
    assert len(spec.variation_points) > 15
    kinds = {v.kind for v in points}
    assert kinds == {"difference", "gap", "agreement", "wording"}
    for v in points:
        if v.kind == "wording":
            assert v.parameter is None and not v.rulesets_differ, v.id


def test_no_register_entry_without_clauses_or_readings(spec: Spec) -> None:
    for v in spec.variation_points.values():
        for side in ("A", "B"):
            assert v.sides[side]["clauses"], f"{v.id}: side {side} cites no clause"
            for c in v.sides[side]["clauses"]:
                assert c.startswith(side + ".") and c in spec.clauses, (v.id, c)
            assert v.sides[side]["says"].strip()
        assert v.reason.strip()
        assert set(v.choices) == set(spec.rulesets)
        for t, _ in v.third_party:
            assert t in spec.third_party, (v.id, t)


def test_every_executed_difference_names_a_witness(spec: Spec) -> None:
    points = executed_and_differing(spec)
    assert len(points) >= 9
    for vid in points:
        assert spec.variation_points[vid].witness, vid


@pytest.mark.parametrize("point", [v for v in ("cupbearer-scope", "cupbearer-actor-duplicate", "banned-jester-forced",
                                               "sixth-card-action", "king-reshuffle-scope", "game-end-tiebreak",
                                               "final-tie", "action-impossible", "maid-empty-deck",
                                               "fan-jester-colour", "fan-dwarf-timing", "fan-destroyed-jester",
                                               "fan-goblin-timing")])
def test_witness_yields_different_results_under_two_rulesets(spec: Spec, point: str) -> None:
    """Computed by the engine, not stated: two rulesets that read the point differently
    reach different outcomes, and the engine attributes the outcome to the point."""
    vp = spec.variation_points[point]
    assert vp.witness is not None
    ruling = load_ruling(rulings_dir(spec) / f"{vp.witness}.yaml", spec)
    assert point in ruling.variation_points
    # the spec's rulesets, and the house rulesets the ruling states (a rule module's points
    # are read only where a house ruleset switches the module on)
    rulesets = list(dict.fromkeys([*spec.rulesets, *ruling.rulesets]))
    rspec = resolve_all(spec, rulesets)
    outcomes = {rs: compute_outcome(rspec, ruling, rs) for rs in rulesets}
    for o in outcomes.values():
        assert o.error is None, o.error
    pairs = [(a, b) for a in outcomes for b in outcomes
             if a < b and rspec.reading(a, point) != rspec.reading(b, point)
             and outcomes[a].values != outcomes[b].values]
    assert pairs, f"the witness {vp.witness} gives the same result under every ruleset"
    assert any(point in o.variation_points for o in outcomes.values())


def test_the_list_of_witnessed_points_is_complete(spec: Spec) -> None:
    names = test_witness_yields_different_results_under_two_rulesets.pytestmark[0].args[1]  # type: ignore[attr-defined]
    assert sorted(names) == sorted(executed_and_differing(spec))


def test_source_rulesets_follow_their_sides(spec: Spec) -> None:
    for v in spec.variation_points.values():
        if v.component:
            continue
        for side, rs in (("A", "source-a"), ("B", "source-b")):
            assert v.choices[rs] == (v.sides[side]["reading"] or "open"), (v.id, rs)


def _broken_spec(tmp_path: Path, old: str, new: str, file: str = "variation_points.yaml") -> Path:
    copy = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", copy)
    f = copy / file
    text = f.read_text(encoding="utf-8")
    assert old in text
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    return copy


@pytest.mark.parametrize(("old", "new", "fragment"), [
    ("        clauses: [A.role.courtesan]\n        says: \"Any two", "        clauses: []\n        says: \"Any two",
     "needs at least 1 item"),
    ("    witness: sixth-card-after-take-back\n", "", "name a witness ruling"),
    ("    witness: sixth-card-after-take-back\n", "    witness: no-such-ruling\n", "does not exist"),
    ("    witness: sixth-card-after-take-back\n", "    witness: guard-alone\n", "does not name this point"),
    ("    rulesets: {source-a: same-roles, source-b: same-roles, reference: same-roles}",
     "    parameter: play.duplicate\n    rulesets: {source-a: same-roles, source-b: same-roles, reference: same-roles}",
     "sets no engine parameter"),
    ("    rulesets: {source-a: stays, source-b: stays, reference: stays}",
     "    rulesets: {source-a: stays, source-b: stays, reference: reset}", "needs an engine parameter"),
])
def test_spec_check_enforces_the_register(tmp_path: Path, old: str, new: str, fragment: str) -> None:
    with pytest.raises(SpecError) as exc:
        load_spec(_broken_spec(tmp_path, old, new))
    assert fragment in str(exc.value)


def test_spec_check_rejects_a_ruling_citing_an_unknown_clause(tmp_path: Path) -> None:
    spec_dir = _broken_spec(tmp_path, "clauses: [A.role.captain,", "clauses: [A.role.chef,", "rulings/guard-alone.yaml")
    with pytest.raises(SpecError, match=r"guard-alone.yaml: line \d+.*A.role.chef"):
        load_spec(spec_dir)
    r = run("--spec", str(spec_dir), "spec", "check")
    assert r.exit_code == 1 and "A.role.chef" in r.stderr


def test_explain_prints_clauses_readings_choices_and_witness_outcomes(spec: Spec) -> None:
    r = run("explain", "cupbearer-scope")
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert spec.clauses["A.role.courtesan"].cite in out and spec.clauses["B.role.mundschenk"].cite in out
    for text in ("any-two", "actor-and-one", "kleinerladen", "source-a -> any-two", "source-b -> actor-and-one",
                 "reason (reference)", "witness ruling cupbearer-third-turn"):
        assert text in out, text
    assert "source-b: play by red" in out and "source-a: swap by red" in out
    assert "DISAGREES" not in out


def test_explain_json_computes_the_witness(spec: Spec) -> None:
    r = run("explain", "banned-jester-forced", "--json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    w = doc["witness"]["rulesets"]
    assert w["source-b"]["gap"] == "banned-jester-forced"
    assert w["source-a"]["gap"] is None and w["source-a"]["agrees"] is True
    assert doc["sides"]["A"]["clauses"][0]["cite"].startswith("A.king.jester (")


def test_explain_unknown_point_exits_2_with_known_ids() -> None:
    r = run("explain", "no-such-point")
    assert r.exit_code == 2
    assert "unknown variation point 'no-such-point'" in r.stderr and "cupbearer-scope" in r.stderr
    assert "Traceback" not in r.stderr


def test_explain_takes_several_points() -> None:
    """Review finding 11: several ids in one call, text and JSON; every unknown id named,
    under the argument's own name (POINT)."""
    r = run("explain", "cupbearer-scope", "banned-jester-forced")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("cupbearer-scope: ") and "\nbanned-jester-forced: " in r.stdout
    r = run("explain", "cupbearer-scope", "banned-jester-forced", "--json")
    assert r.exit_code == 0, r.stderr
    assert [d["id"] for d in json.loads(r.stdout)] == ["cupbearer-scope", "banned-jester-forced"]
    r = run("explain", "cupbearer-scope", "nope", "cupbearer-scop")
    assert r.exit_code == 2 and r.stdout == ""
    assert "POINT: unknown variation points 'nope', 'cupbearer-scop' (did you mean 'cupbearer-scope'?)" in r.stderr
    assert "VP-ID" not in r.stderr and "VP-ID" not in run("explain", "--help").stdout


def test_points_explaining_keeps_only_points_read_differently_across_groups(spec: Spec) -> None:
    """Review finding 9: a point explains why groups of rulesets differ only if rulesets of
    different groups read it differently."""
    from palast.query.rulings import points_explaining

    rulesets = list(spec.rulesets)
    alike = [v.id for v in spec.variation_points.values() if len({spec.reading(r, v.id) for r in rulesets}) == 1]
    differ = [v.id for v in spec.variation_points.values() if v.id not in alike]
    assert "next-round-starter" in alike and alike and differ
    for first in rulesets:
        groups = [[first], [r for r in rulesets if r != first]]
        got = points_explaining(spec, groups, [*alike, *differ, "no-such-point"])
        assert not set(got) & set(alike), groups
        for p in differ:
            across = {(a, b) for a in groups[0] for b in groups[1] if spec.reading(a, p) != spec.reading(b, p)}
            assert (p in got) == bool(across), (p, groups)
    # rulesets that read a point differently but answer alike (one group): nothing to explain
    assert points_explaining(spec, [rulesets], differ) == []
    # the order of the candidates is kept and repeats dropped
    assert points_explaining(spec, [rulesets[:1], rulesets[1:]], differ[::-1] + differ[::-1]) == \
        points_explaining(spec, [rulesets[:1], rulesets[1:]], differ)[::-1]


def _ruling_scenario(spec: Spec, name: str) -> Any:
    doc = read_yaml(rulings_dir(spec) / f"{name}.yaml")
    return scenario_from_document(doc, spec, base=("scenario",))


def test_ask_names_the_points_that_explain_a_disagreement(spec: Spec) -> None:
    a = ask(spec, _ruling_scenario(spec, "marshal-reshuffle-same-ban"))
    assert "king-reshuffle-scope" in a["variation_points"]
    d = next(x for x in a["disagreements"] if x["what"] == "legal_actions")
    assert d["variation_points"] == ["king-reshuffle-scope"]
    assert d["groups"] == [["source-a", "reference"], ["source-b"]]
    assert d["actions"] == {"reveal jester": ["source-a", "reference"]}


def test_ask_groups_rulesets_by_outcome(spec: Spec) -> None:
    a = ask(spec, _ruling_scenario(spec, "sixth-card-after-take-back"))
    d = next(x for x in a["disagreements"] if x.get("action") == "play treasurer/red")
    assert d["groups"] == [["source-a", "reference"], ["source-b"]]
    assert d["variation_points"] == ["sixth-card-action"]
    assert "source-a and reference:" in d["text"]
