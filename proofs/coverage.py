"""Which rules a position exercises, and the rule coverage of the differential check.

A rule (an id of ``spec/rules.yaml``, ``spec/roles.yaml`` or a module) *fires* in a
position when the engine applies it while carrying out one of the position's legal actions
(at a deal decision: the deal played) — the engine's trace of the rules it applies,
:attr:`palast.engine.blocks.Runner.trace` — when an event of such an action cites it, or
when the engine refuses a hand card of a play decision citing that rule's clauses (a banned
Jester, a role repeated under voluntary-whisper's only-when-forced): the differential check
then compared the two back-ends on a position the rule decides.

:func:`coverage` counts, per rule, the compared positions it fires in. A rule that fires
in none fails the differential check, unless

* an obligation that must end in no-such-state under the ruleset compared shows its
  situation never arises in a real game (:func:`proofs.reachability.never_reached`, from
  :func:`proofs.reachability.rules_never_reached` and the results the obligations must end
  in there; the check then rests on that obligation, and fails when it does), or
* the ruleset's reading says it does not apply (:func:`palast.lang.blocks.withdrawn`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from palast.engine import Game
from palast.engine.actions import Action, Play
from palast.engine.state import DecisionKind, State
from palast.errors import IllegalActionError
from palast.spec.load import Spec

K = DecisionKind

def rule_of_clauses(spec: Spec) -> dict[tuple[str, ...], str]:
    """Clause tuple → the one rule citing exactly those clauses (a refusal names clauses)."""
    by: dict[tuple[str, ...], list[str]] = {}
    for rule in spec.rules.values():
        by.setdefault(tuple(rule.clauses), []).append(rule.id)
    return {clauses: ids[0] for clauses, ids in by.items() if len(ids) == 1}


def refused(game: Game, state: State, rule_of: Mapping[tuple[str, ...], str]) -> frozenset[str]:
    """The rules the engine cites when it refuses a hand card at ``state``'s play
    decision (empty for other decisions)."""
    d = state.decision
    if d.kind != K.PLAY:
        return frozenset()
    legal = set(game.legal_actions(state))
    out: set[str] = set()
    for c in set(state.hands[d.player]):
        if Play(c) in legal:
            continue
        try:
            game.apply(state, Play(c))
        except IllegalActionError as exc:
            if exc.clauses in rule_of:
                out.add(rule_of[exc.clauses])
    return frozenset(out)


def events_of(game: Game, state: State, deal: Action | None = None) -> list[tuple[str, str]]:
    """``(rule, event kind)`` of every event of every legal action of ``state`` (of ``deal``
    alone at a deal decision)."""
    actions = [deal] if deal is not None else game.legal_actions(state)
    return [(e.rule, e.kind) for a in actions for e in game.apply(state, a).events]


def fired(game: Game, state: State, deal: Action | None,
          rule_of: Mapping[tuple[str, ...], str]) -> frozenset[str]:
    """The rules ``state`` exercises: those the engine applies while it carries out a legal
    action (of ``deal`` at a deal decision; the engine's trace of the rules applied,
    :attr:`palast.engine.blocks.Runner.trace`), those an event of one cites, and those the
    engine's refusal of a hand card cites (``rule_of``: from :func:`rule_of_clauses`)."""
    runner = game.runner
    runner.trace = set()
    try:
        cited = frozenset(r for r, _ in events_of(game, state, deal))
        applied = frozenset(runner.trace)
    finally:
        runner.trace = None
    return cited | applied | refused(game, state, rule_of)


@dataclass(frozen=True)
class Coverage:
    """Per rule id, the compared positions it fires in.

    :ivar counts: ``(rule id, positions)`` in the spec's order of rules.
    :ivar excused: rules firing nowhere that an obligation shows unreachable, with it.
    """

    counts: tuple[tuple[str, int], ...]
    excused: tuple[tuple[str, str], ...] = ()
    #: rules firing nowhere because the ruleset's reading says they do not apply (rule, "point: reading")
    withdrawn: tuple[tuple[str, str], ...] = ()

    @property
    def missing(self) -> tuple[str, ...]:
        """Rules that fire in no compared position with no excuse: each fails the check."""
        ok = {r for r, _ in self.excused} | {r for r, _ in self.withdrawn}
        return tuple(r for r, c in self.counts if c == 0 and r not in ok)

    def line(self) -> str:
        """The coverage in one line: rules fired, and every rule that fired nowhere and why."""
        fired_n = sum(1 for _, c in self.counts if c)
        parts = [f"{fired_n} of {len(self.counts)} rules fire in the compared positions"]
        if self.missing:
            parts.append(f"fire in none: {', '.join(self.missing)}")
        if self.excused:
            parts.append("never reached (" + "; ".join(f"{r}: {ob}" for r, ob in self.excused) + ")")
        if self.withdrawn:
            parts.append("not applying under the ruleset (" + "; ".join(f"{r}: {why}" for r, why in self.withdrawn)
                         + ")")
        return "; ".join(parts)


def coverage(spec: Spec, fired_sets: Iterable[frozenset[str]],
             never_reached: Mapping[str, tuple[str, ...]], withdrawn: Mapping[str, str] | None = None) -> Coverage:
    """Count the rules of ``spec`` over the positions' :func:`fired` sets.

    :param never_reached: obligation name → the rules it shows never fire in a real game.
    :param withdrawn: rule → why it does not apply under the ruleset compared
        (:func:`palast.lang.blocks.withdrawn`).
    """
    counts: Counter[str] = Counter()
    for fs in fired_sets:
        counts.update(fs)
    excuse = {r: ob for ob, rules in never_reached.items() for r in rules}
    gone = dict(withdrawn or {})
    rows = tuple((r, counts[r]) for r in spec.rules)
    zero = [r for r, c in rows if c == 0]
    return Coverage(rows, tuple((r, excuse[r]) for r in zero if r in excuse),
                    tuple((r, gone[r]) for r in zero if r in gone and r not in excuse))

