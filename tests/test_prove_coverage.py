"""The differential check's positions cover every rule, its coverage is counted per rule
id, and a rule that fires in no compared position fails the check (issue 14, point 5)."""

from __future__ import annotations

from collections import Counter

from palast.lang.blocks import withdrawn
from palast.spec.load import Spec
from proofs.coverage import coverage, fired, rule_of_clauses
from proofs.differential import STATES_PER_RULESET, compare_all, positions
from proofs.obligation import Outcome
from proofs.reachability import never_reached

#: Rules random play alone used to reach seldom or never (issue 14): every ruleset and
#: player count must now have positions of random play firing them.
SOUGHT = ("round.end.six", "round.end.no-action-six", "role.guard", "role.cupbearer", "king.reveal",
          "turn.next.neutral-tie", "game.end.winner")


def _counts(spec: Spec, ruleset: str) -> tuple[int, Counter[tuple[int, str]], Counter[str]]:
    rule_of = rule_of_clauses(spec)
    played = 0
    by_count: Counter[tuple[int, str]] = Counter()
    every: Counter[str] = Counter()
    for where, game, state, deal in positions(spec, ruleset):
        rules = fired(game, state, deal, rule_of)
        every.update(rules)
        if where == "random play":
            played += 1
            by_count.update((game.n, r) for r in rules)
    return played, by_count, every


def test_positions_of_random_play_fire_the_rare_rules(spec: Spec) -> None:
    for ruleset in spec.rulesets:
        played, by_count, every = _counts(spec, ruleset)
        assert played == STATES_PER_RULESET >= 500
        for n in range(spec.min_players, spec.max_players + 1):
            for rule in SOUGHT:
                assert by_count[n, rule] >= 1, f"{ruleset}, {n} players: no position fires {rule}"
        # forced Jester whispers and refused banned Jesters, over the player counts
        assert every["king.jester-forced"] >= 1 and every["king.jester"] >= 1, ruleset
        excused = {r for rules in never_reached(spec, ruleset).values() for r in rules} | set(withdrawn(spec, ruleset))
        assert [r for r in spec.rules if not every[r] and r not in excused] == [], ruleset
        # the void Guard is reachable here (guard-void: a witness), so it must fire, unexcused
        assert "role.guard.void" not in excused and every["role.guard.void"] >= 1, ruleset


def test_coverage_names_what_fires_nowhere_and_why(spec: Spec) -> None:
    rules = list(spec.rules)
    fired_sets = [frozenset(rules[:3]), frozenset(rules[1:4])]
    cov = coverage(spec, fired_sets, {"empty-hand": (rules[5],)})
    counts = dict(cov.counts)
    assert counts[rules[0]] == 1 and counts[rules[1]] == 2 and counts[rules[3]] == 1
    assert rules[5] not in cov.missing and (rules[5], "empty-hand") in cov.excused
    assert rules[4] in cov.missing
    assert f"fire in none: {', '.join(cov.missing)}" in cov.line()
    full = coverage(spec, [frozenset(rules)], {})
    assert full.missing == () and full.line().startswith(f"{len(rules)} of {len(rules)} rules")


def test_a_rule_that_fires_in_no_compared_position_fails(spec: Spec) -> None:
    """Positions of 3 players under source-b; without those where a sixth different role
    can be completed the check ends unknown naming round.end.six; with them it does not."""
    rule_of = rule_of_clauses(spec)
    items = [it for it in positions(spec, "source-b") if it[1].n == 3 and it[0] == "random play"]
    six = [it for it in items if "round.end.six" in fired(it[1], it[2], it[3], rule_of)]
    assert six, "the positions of 3 players hold a six"
    rest = [it for it in items if it not in six][:30]
    out = compare_all(spec, rest)
    assert out.result == "unknown", out.detail
    assert "round.end.six" in _missing(out)
    assert dict(out.coverage)["round.end.six"] == 0
    with_six = compare_all(spec, six + rest)
    assert dict(with_six.coverage)["round.end.six"] == len(six)
    assert "round.end.six" not in _missing(with_six)


def _missing(out: Outcome) -> list[str]:
    """The rules an ``unknown`` differential outcome names as firing nowhere."""
    if out.result != "unknown":
        return []
    return out.detail.split(", but ")[1].split(" fire(s) in none")[0].split(", ")


def test_rules_the_engine_applies_without_citing_them_fire_too(spec: Spec) -> None:
    """A rule fires where the engine applies it, cited by an event or not: the Marshal's
    action (its reveal is reported by king.reveal), the end of a turn, carrying out an
    action, and a repeated role allowed under voluntary-whisper: allowed each fire in the
    positions of random play under every ruleset, without an excuse."""
    quiet = ("role.marshal", "turn.end", "turn.action", "turn.play.duplicate")
    for ruleset in spec.rulesets:
        _, _, every = _counts(spec, ruleset)
        assert all(every[r] >= 1 for r in quiet), (ruleset, {r: every[r] for r in quiet})
