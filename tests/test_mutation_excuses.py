"""The mutation diagnosis (``python -m proofs.mutation``) excuses a mutant only where its
variation point cannot matter: the points that only never-firing rules read come from the
reachability questions of spec/invariants.yaml, not from a list in code."""

from __future__ import annotations

from pathlib import Path

from palast.spec.load import Spec, load_spec
from proofs.mutation import Mutant, unreached_parameters
from tests.spec_copy import edited_spec


def test_points_read_only_by_rules_that_never_fire_are_excused(spec: Spec) -> None:
    got = unreached_parameters(spec, "reference")
    fan = {"fan.jester_colour", "fan.dwarf_timing", "fan.destroyed_jester", "fan.goblin_timing"}
    assert set(got) == {"play.empty_hand", "action.impossible", "maid.empty_deck", *fan}
    assert got["action.impossible"] == "never reached from a real deal (obligation empty-hand)"
    # a mutant of another point is not excused, one of an unreached point is
    assert Mutant("reference", "cupbearer.scope", "forbidden").excuse(spec) is None
    assert Mutant("reference", "maid.empty_deck", "open").excuse(spec) is not None
    # nor is one the differential exposes (an open Maid discard stops at a gap in both back-ends)
    assert Mutant("reference", "maid.discard_to", "open").excuse(spec) is None


def test_a_point_also_read_by_a_rule_that_may_fire_is_not_excused(tmp_path: Path) -> None:
    """action-impossible is read by role.wizard.void and role.maid.void: a question that
    no longer asks about the Maid's rule leaves the point excused by nothing."""
    root = edited_spec(tmp_path, "invariants.yaml", "fires: [turn.empty-hand, role.wizard.void, role.maid.void]",
                       "fires: [turn.empty-hand, role.wizard.void]")
    got = unreached_parameters(load_spec(root), "reference")
    assert "action.impossible" not in got and "play.empty_hand" in got


def test_points_read_only_by_rules_of_a_module_left_off_are_excused(spec: Spec) -> None:
    """The fan module's points are read only by its rules, which do not apply while the
    ruleset leaves the module off; a point whose own reading withdraws a rule
    (sixth-card-action) is not excused by it: its mutant reads the point otherwise, and the
    rule applies again."""
    from proofs.house_rulesets import spec_of

    got = unreached_parameters(spec, "reference")
    assert got["fan.goblin_timing"] == "read only by rules that do not apply under reference (fan-expansion: off)"
    assert "action.sixth_played" not in got
    assert Mutant("reference", "action.sixth_played", "open").excuse(spec) is None
    assert not {p for p in unreached_parameters(spec_of(spec, "fan"), "fan") if p.startswith("fan.")}
