"""The differential check under house-guard (issue 14, point 5): its positions fire every
rule except those it cannot, and role.guard.void, which no position fires there (a Guard
may take itself back, so it always has a card to take back), is excused only by
guard-void ending in no-such-state under house-guard, as spec/rulesets.yaml declares. The
coverage fails when that obligation is missing from the list or fails."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from palast.cli.prove_cmd import coverage_table
from palast.formats.house import resolve
from palast.lang.blocks import withdrawn
from palast.spec.load import Spec, load_spec
from proofs.coverage import coverage, fired, rule_of_clauses
from proofs.differential import STATES_PER_RULESET, positions
from proofs.invariant import STRENGTHENING
from proofs.obligation import Options, Outcome
from proofs.reachability import never_reached
from proofs.runner import all_obligations, run

ROOT = Path(__file__).resolve().parent.parent
HOUSE = "house-guard"
VOID = "role.guard.void"


@pytest.fixture(scope="module")
def fired_sets(spec: Spec) -> list[frozenset[str]]:
    """The rules each position the differential check compares under house-guard fires."""
    rspec = resolve(spec, HOUSE)
    rule_of = rule_of_clauses(rspec)
    return [fired(game, state, deal, rule_of) for _, game, state, deal in positions(rspec, HOUSE)]


@pytest.fixture(scope="module")
def unlisted_spec(tmp_path_factory: pytest.TempPathFactory) -> Spec:
    """The spec with guard-void left out of house-guard's prove list."""
    d = tmp_path_factory.mktemp("spec") / "spec"
    shutil.copytree(ROOT / "spec", d)
    f = d / "rulesets.yaml"
    text = f.read_text(encoding="utf-8")
    assert "      guard-void: no-such-state\n" in text
    f.write_text(text.replace("      guard-void: no-such-state\n", ""), encoding="utf-8")
    return load_spec(d)


def test_the_positions_fire_every_rule_but_those_excused(spec: Spec, fired_sets: list[frozenset[str]]) -> None:
    """At least 500 positions of random play; every rule fires in one of them but those an
    obligation listed for house-guard shows never reached and those its readings withdraw;
    role.guard.void fires in none."""
    assert len(fired_sets) > STATES_PER_RULESET >= 500
    rspec = resolve(spec, HOUSE)
    excuses = never_reached(rspec, HOUSE)
    assert excuses == {"maid-empty-deck": ("role.maid.empty-deck",),
                       "empty-hand": ("turn.empty-hand", "role.wizard.void", "role.maid.void"),
                       "guard-void": (VOID,)}
    cov = coverage(rspec, fired_sets, excuses, withdrawn(rspec, HOUSE))
    assert cov.missing == ()
    assert dict(cov.counts)[VOID] == 0 and (VOID, "guard-void") in cov.excused
    assert dict(cov.counts)["role.guard"] >= 100


def test_without_guard_void_in_the_list_the_void_guard_fails_the_coverage(
        unlisted_spec: Spec, fired_sets: list[frozenset[str]]) -> None:
    """The same positions, with guard-void not listed for house-guard: nothing proves the
    void Guard unreachable there, so role.guard.void fails the check, and the check no
    longer rests on guard-void."""
    rspec = resolve(unlisted_spec, HOUSE)
    excuses = never_reached(rspec, HOUSE)
    assert "guard-void" not in excuses
    cov = coverage(rspec, fired_sets, excuses, withdrawn(rspec, HOUSE))
    assert cov.missing == (VOID,)
    assert f"fire in none: {VOID}" in cov.line()
    diff = next(ob for ob in all_obligations(unlisted_spec) if ob.key == f"differential@{HOUSE}")
    assert "guard-void" not in diff.needs and "empty-hand" in diff.needs


def test_a_failed_guard_void_fails_the_differential_check(spec: Spec) -> None:
    """The differential check under house-guard needs guard-void: when guard-void does not
    end in no-such-state there (here a stand-in that finds a void Guard), the check fails
    although it found every other rule, and the table no longer excuses role.guard.void."""
    obs = {ob.name: ob for ob in all_obligations(spec) if ob.ruleset == HOUSE}
    diff, void = obs["differential"], obs["guard-void"]
    assert "guard-void" in diff.needs and void.expect == "no-such-state"
    assert set(void.needs) == set(STRENGTHENING) - {"round-is-bounded"}
    rules = list(spec.rules)
    found = Outcome("proved", "every other rule fires", coverage=tuple((r, 0 if r == VOID else 3) for r in rules),
                    excused=((VOID, "guard-void"),))

    def fake_diff(spec: Spec, opts: Options) -> Outcome:
        return found

    def fake_void(spec: Spec, opts: Options) -> Outcome:
        return Outcome("witness", "a void Guard")

    def fake_ok(spec: Spec, opts: Options) -> Outcome:
        return Outcome("no-such-state", "none")

    for stand_in, passed, why in ((fake_void, False, "FIRES IN NO POSITION (guard-void failed)"),
                                  (fake_ok, True, "never reached (guard-void)")):
        lines = run(spec, [replace(void, run=stand_in), replace(diff, run=fake_diff)], Options())
        assert lines[1].passed is passed, lines[1].detail
        assert ("rests on guard-void, which failed" in lines[1].detail) is not passed
        row = next(r for r in coverage_table(lines, spec) if r.split()[0] == VOID)
        assert row.endswith(f"  - {why}"), row


def test_guard_void_is_no_such_state_under_house_guard(spec: Spec) -> None:
    """Z3 shows that under house-guard no play leaves a Guard nothing to take back."""
    void = next(ob for ob in all_obligations(spec) if ob.key == f"guard-void@{HOUSE}")
    out = void.run(spec, Options())
    assert out.result == "no-such-state", out.detail
