"""No vacuous invariant: every invariant has a stored violation (proofs/violations/) that the
engine's check mode and Z3 both reject, and a check made vacuous in memory fails
``palast prove`` (issue 14, point 3)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import z3
from click.testing import CliRunner

import palast.invariants.check
import proofs.nonvacuous
from palast.cli import main
from palast.engine import Action, State
from palast.engine.events import Event
from palast.engine.game import Game
from palast.spec.load import load_spec
from proofs.nonvacuous import PREFIX, check_invariant, obligations, z3_form
from proofs.violation import VIOLATIONS_DIR, load_violation, replay, violation_path

SPEC = load_spec()
INVARIANTS = tuple(SPEC.invariants)
#: Every strengthening lemma declared beside an invariant.
LEMMAS = frozenset(lem.id for i in SPEC.invariants.values() for lem in i.lemmas)
#: Invariants whose proof has no Z3 formula: none since every invariant is a declaration
#: (issue 14, point 2); the tests below still say what would follow for one.
WITHOUT_Z3: frozenset[str] = frozenset()


def test_every_invariant_has_exactly_one_stored_violation() -> None:
    stored = {p.stem for p in VIOLATIONS_DIR.glob("*.yaml")}
    assert stored == set(INVARIANTS)
    for inv in INVARIANTS:
        assert load_violation(violation_path(inv), SPEC).invariant == inv


def test_every_invariant_has_a_non_vacuity_obligation() -> None:
    names = {ob.name for ob in obligations(SPEC)}
    assert names == {f"{PREFIX}{inv}" for inv in INVARIANTS}
    assert all(ob.expect == "counterexample" for ob in obligations(SPEC))


def test_invariants_without_a_z3_form_are_the_known_ones() -> None:
    assert {inv for inv in INVARIANTS if z3_form(inv) is None} == WITHOUT_Z3


@pytest.mark.parametrize("inv", INVARIANTS)
def test_stored_violation_is_rejected_by_engine_and_z3(inv: str) -> None:
    out = check_invariant(SPEC, inv)
    assert out.result == "counterexample", out.detail
    also = load_violation(violation_path(inv), SPEC).also
    engine_said = out.detail.split("; Z3: ", 1)[0]
    assert engine_said.startswith("engine: ") and f"{inv}: " in engine_said
    assert all(f"{other}: " in engine_said for other in also)
    if inv in WITHOUT_Z3:
        assert "engine alone" in out.detail
    else:
        assert "false" in out.detail.split("; Z3: ", 1)[1]


@pytest.mark.parametrize("inv", INVARIANTS)
def test_case_breaks_only_its_last_action(inv: str) -> None:
    v = load_violation(violation_path(inv), SPEC)
    r = replay(v, SPEC)
    # the invariant itself and those it follows from (also); besides them only lemmas
    # (strengthenings) may fall with it
    wanted = {inv, *v.also}
    assert {i for i, _ in r.problems} - LEMMAS == wanted and r.problems[0][0] in wanted, r.problems
    if v.tamper:  # the engine's own successor is sound: the broken state is what fails
        good = r.game.apply(r.before, r.action)
        assert palast.invariants.check.step_problems(r.game, r.before, r.action, good.state, good.events) == []
    else:
        assert r.check_mode is not None and r.check_mode[0] in wanted


def _silence(monkeypatch: pytest.MonkeyPatch, inv: str) -> None:
    """Make the engine's check of ``inv`` vacuous: it never reports."""
    real = palast.invariants.check.step_problems
    own = {inv, *(lem.id for lem in SPEC.invariants[inv].lemmas)}

    def vacuous(game: Game, before: State, action: Action, after: State,
                events: Sequence[Event]) -> list[tuple[str, str]]:
        return [(i, m) for i, m in real(game, before, action, after, events) if i not in own]

    monkeypatch.setattr(palast.invariants.check, "step_problems", vacuous)


@pytest.mark.parametrize("inv", INVARIANTS)
def test_vacuous_engine_check_fails_the_obligation(inv: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _silence(monkeypatch, inv)
    out = check_invariant(SPEC, inv)
    assert out.result == "no-such-state"
    assert "the engine accepts the stored violation" in out.detail


@pytest.mark.parametrize("inv", sorted(set(INVARIANTS) - WITHOUT_Z3))
def test_vacuous_z3_predicate_fails_the_obligation(inv: str, monkeypatch: pytest.MonkeyPatch) -> None:
    form = z3_form(inv)
    assert form is not None

    def always(*args: Any) -> Any:
        return z3.BoolVal(True)

    monkeypatch.setitem(proofs.nonvacuous.Z3_FORMS, inv, (form[0], always))
    out = check_invariant(SPEC, inv)
    assert out.result == "no-such-state"
    assert "Z3 accepts the stored violation" in out.detail


def test_palast_prove_runs_the_family_and_fails_on_a_vacuous_check(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"{PREFIX}display-below-six"
    res = CliRunner().invoke(main, ["prove", "--only", name, "--jobs", "1"])
    assert res.exit_code == 0, res.output
    assert "counterexample" in res.output and "1 passed, 0 failed" in res.output
    _silence(monkeypatch, "display-below-six")
    res = CliRunner().invoke(main, ["prove", "--only", name, "--jobs", "1"])
    assert res.exit_code == 1, res.output
    assert "FAILED (expected counterexample)" in res.output


def test_missing_and_malformed_violations_fail(tmp_path: Path) -> None:
    assert check_invariant(SPEC, "banned-role", tmp_path).result == "error"
    text = violation_path("banned-role").read_text(encoding="utf-8")
    (tmp_path / "banned-role.yaml").write_text(text + "colour: blue\n", encoding="utf-8")
    out = check_invariant(SPEC, "banned-role", tmp_path)
    assert out.result == "error"
    assert "banned-role.yaml" in out.detail and "unknown key 'colour'" in out.detail
    (tmp_path / "banned-role.yaml").write_text(text.replace("invariant: banned-role", "invariant: no-repeated-role"),
                                               encoding="utf-8")
    assert "names the invariant no-repeated-role" in check_invariant(SPEC, "banned-role", tmp_path).detail


def test_a_case_broken_before_its_last_action_is_refused(tmp_path: Path) -> None:
    # one more action after the one that breaks next-player: the case must break at its last
    text = violation_path("next-player").read_text(encoding="utf-8")
    broken = text.replace("actions: [play jester/red]", "actions: [play jester/red, play treasurer/blue]")
    (tmp_path / "next-player.yaml").write_text(broken, encoding="utf-8")
    out = check_invariant(SPEC, "next-player", tmp_path)
    assert out.result == "error"
    assert "already breaks next-player" in out.detail


def test_a_tamper_the_case_does_not_need_is_refused(tmp_path: Path) -> None:
    text = violation_path("next-player").read_text(encoding="utf-8")
    (tmp_path / "next-player.yaml").write_text(text + "tamper: {played: {green: 1}}\n", encoding="utf-8")
    out = check_invariant(SPEC, "next-player", tmp_path)
    assert out.result == "error"
    assert "the tamper is not what breaks it" in out.detail


def test_also_names_exactly_the_invariants_the_case_breaks_besides_its_own(tmp_path: Path) -> None:
    """cupbearer-protects-others follows from no-repeated-role, so its case breaks both and
    says so (``also``); without ``also``, or with an invariant the case does not break, the
    engine's verdict refuses it; an ``also`` naming no invariant is an error at its place."""
    inv = "cupbearer-protects-others"
    text = violation_path(inv).read_text(encoding="utf-8")
    assert "also: [no-repeated-role]" in text
    cases = {
        "": "expected exactly cupbearer-protects-others)",
        "also: [no-repeated-role, round-end-cause]": "expected exactly cupbearer-protects-others and no-repeated-role "
                                                     "and round-end-cause",
    }
    for also, said in cases.items():
        (tmp_path / f"{inv}.yaml").write_text(text.replace("also: [no-repeated-role]", also), encoding="utf-8")
        out = check_invariant(SPEC, inv, tmp_path)
        # the engine rejects the case for the invariant: the file's list is what is wrong
        assert out.result == "error" and "for other invariants than the file names" in out.detail, out.detail
        assert said in out.detail, out.detail
    bad = {"also: [no-such]": "line 6, column 8 (also[0]): 'no-such' is no other invariant",
           "also: [cupbearer-protects-others]": "(also[0]): 'cupbearer-protects-others' is no other invariant",
           "also: [no-repeated-role, no-repeated-role]": "(also[1]): 'no-repeated-role' is listed twice",
           "also: []": "(also): also is a list of one or more invariant ids",
           "also: 0": "(also): also is a list of one or more invariant ids",
           'also: ""': "(also): also is a list of one or more invariant ids"}
    for also, said in bad.items():
        (tmp_path / f"{inv}.yaml").write_text(text.replace("also: [no-repeated-role]", also), encoding="utf-8")
        out = check_invariant(SPEC, inv, tmp_path)
        assert out.result == "error" and said in out.detail, (also, out.detail)
