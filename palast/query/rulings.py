"""Rulings: questions about a position with the result each ruleset must give, checked
against the engine.

A ruling is a file ``spec/rulings/<id>.yaml`` (schema ``spec/schema/ruling.schema.json``):

* ``id`` (the file's stem), ``title``, ``question`` (one sentence), ``answer`` (why, in
  prose, citing clause ids), ``clauses`` (the clause ids it rests on) and, optionally,
  ``variation_points`` (the points it shows; a register entry's ``witness`` must be named
  here);
* ``scenario``: a position in the scenario format (README, "Scenario files"), with optional
  ``actions`` applied first;
* ``action`` (optional): the action whose outcome is asked. Without it the question is
  about the position itself (its decision and legal actions; the events are those of the
  scenario's actions);
* ``expect``: per ruleset, the expected result. A ruleset may say ``same_as: <ruleset>``.
  A key may name a house ruleset by its derived name, ``BASE+POINT=READING`` (see
  :mod:`palast.formats.house`), e.g. ``reference+game-end-tiebreak=most-played-total``;
  :func:`spec_with_house_rulesets` adds those rulesets to a spec.
  Fields (each optional; only those given are checked): ``illegal: true`` (the action is
  not legal), ``decision`` (the kind of decision that follows), ``player`` (who makes
  it), ``forced``, ``legal_actions`` (the exact set, in notation), ``probabilities``
  (chance outcome -> fraction), ``events`` (event kinds, in order), ``round_end``
  (``null``, ``whisper``, ``six``), ``scores`` (colour -> score), ``next_to_move``,
  ``winners``, ``gap`` (the open variation point play stops at, or ``null``),
  ``banned`` (the role banned afterwards), ``hands`` and ``displays`` (colour -> cards, as
  multisets), ``views`` (colour -> what that player learns and what stays hidden from
  them, :mod:`palast.query.ruling_views`), ``note``.

The rulesets a ruling is checked under are the keys of ``expect``. The public API, also
used by the Sphinx rulebook: :func:`palast.query.ruling_files.load_rulings`, :func:`check_ruling` /
:func:`check_rulings` (each returning :class:`Check` values) and :func:`compute_outcome`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from palast.engine.events import Event
from palast.engine.game import Game
from palast.engine.state import DecisionKind, InvariantViolation, State
from palast.errors import IllegalActionError, InputError
from palast.formats.scenario import Scenario
from palast.query.describe import event_words
from palast.query.ruling_views import view_values, views_agree
from palast.spec.load import Spec

K = DecisionKind

#: The fields an expectation may check, in the order they are reported.
FIELDS: tuple[str, ...] = ("illegal", "violates", "decision", "player", "forced", "legal_actions", "probabilities",
                           "events", "round_end", "scores", "next_to_move", "winners", "gap", "banned", "hands",
                           "displays", "views")


@dataclass(frozen=True)
class Ruling:
    """One ruling file, validated.

    :ivar id: the ruling id (the file's stem).
    :ivar file: the file it was read from.
    :ivar title: a short title.
    :ivar question: the question, in one sentence.
    :ivar answer: the answer in prose, with the clauses it rests on.
    :ivar clauses: the clause ids the ruling rests on.
    :ivar variation_points: the variation points the ruling shows.
    :ivar scenario: the position (and actions applied first).
    :ivar action: the action whose outcome is asked, in notation, or ``None``.
    :ivar expect: ruleset -> expected fields, with ``same_as`` already followed.
    :ivar same_as: ruleset -> the ruleset its expectation was copied from (if any).
    """

    id: str
    file: str
    title: str
    question: str
    answer: str
    clauses: tuple[str, ...]
    variation_points: tuple[str, ...]
    scenario: Scenario
    action: str | None
    expect: Mapping[str, Mapping[str, Any]]
    same_as: Mapping[str, str] = field(default_factory=dict)

    @property
    def rulesets(self) -> tuple[str, ...]:
        """The rulesets the ruling states a result for, in file order."""
        return tuple(self.expect)


@dataclass(frozen=True)
class Outcome:
    """What the engine computes for a ruling under one ruleset.

    :ivar ruleset: the ruleset.
    :ivar values: the checkable fields (see :data:`FIELDS`), each as plain data.
    :ivar summary: a one-line description for people.
    :ivar variation_points: the variation points whose readings decided it.
    :ivar error: set when the position could not be reached under this ruleset (an
        illegal scenario action or a broken invariant); ``values`` is then empty.
    """

    ruleset: str
    values: Mapping[str, Any]
    summary: str
    variation_points: tuple[str, ...] = ()
    error: str | None = None


@dataclass(frozen=True)
class Difference:
    """One field where the engine's outcome differs from the ruling's expectation."""

    field: str
    expected: Any
    actual: Any

    def text(self) -> str:
        """``"events: expected [...], engine [...]"``."""
        return f"{self.field}: expected {_show(self.expected)}, engine {_show(self.actual)}"


@dataclass(frozen=True)
class Check:
    """A ruling checked under one ruleset.

    :ivar ruling: the ruling.
    :ivar ruleset: the ruleset.
    :ivar outcome: what the engine computed.
    :ivar differences: every field that differs from the expectation (empty: agrees).
    """

    ruling: Ruling
    ruleset: str
    outcome: Outcome
    differences: tuple[Difference, ...]

    @property
    def agrees(self) -> bool:
        """True if the engine gives exactly what the ruling expects under this ruleset."""
        return not self.differences

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ruleset, agrees, expected, outcome, differences, variation points."""
        return {
            "ruleset": self.ruleset,
            "agrees": self.agrees,
            "same_as": self.ruling.same_as.get(self.ruleset),
            "expected": dict(self.ruling.expect[self.ruleset]),
            "outcome": dict(self.outcome.values),
            "summary": self.outcome.summary,
            "error": self.outcome.error,
            "variation_points": list(self.outcome.variation_points),
            "differences": [{"field": d.field, "expected": d.expected, "actual": d.actual, "text": d.text()}
                            for d in self.differences],
        }


# ---------------------------------------------------------------------------------- loading
# ---------------------------------------------------------------------------------- outcomes
def compute_outcome(spec: Spec, ruling: Ruling, ruleset: str) -> Outcome:
    """Run ``ruling`` under ``ruleset`` in the engine (invariants checked after every action).

    The position is built from the scenario and its actions applied; then, if the ruling
    has an ``action``, that action is applied and the outcome is the state and events it
    leads to; otherwise the outcome is the position reached and the events of the
    scenario's actions. If play stops at an open variation point before the action, the
    action is not taken and the outcome is that gap.

    :returns: the :class:`Outcome`; ``values`` holds every field of :data:`FIELDS`
        (``illegal`` True alone when the asked action is illegal; ``violates`` alone,
        naming the invariant, when the engine's check mode finds one false after the asked
        action). An illegal scenario action or a broken invariant before the asked action
        is returned as ``error``, not raised.
    """
    from palast.formats.house import resolve
    from palast.formats.notation import format_action, parse_action

    spec = resolve(spec, ruleset, None)  # a house ruleset (BASE+POINT=READING) a ruling names
    game = Game(spec, ruleset, ruling.scenario.players, check=True)
    try:
        state, steps = ruling.scenario.position(game)
    except (InputError, InvariantViolation) as exc:
        return Outcome(ruleset, {}, f"error: {exc}", error=str(exc))
    events: list[Event] = [e for _, st in steps for e in st.events]
    history = list(events)
    if ruling.action is not None and state.decision.kind != K.GAP:
        try:
            step = game.apply(state, parse_action(game, ruling.action))
        except IllegalActionError as exc:
            return Outcome(ruleset, {"illegal": True}, f"{ruling.action} is illegal: {exc}")
        except InvariantViolation as exc:  # the position cannot arise under the ruleset
            return Outcome(ruleset, {"violates": exc.invariant},
                           f"{ruling.action} violates invariant {exc.invariant}: {exc.detail}")
        state = step.state
        events = list(step.events)
        history.extend(events)
    d = state.decision
    name = game.colour_name
    fc = game.cards.format_card
    legal: list[str] = []
    probabilities: dict[str, str] = {}
    if game.drawn_from(state) is not None:
        for a, p in game.chance_outcomes(state):
            legal.append(format_action(game, a))
            probabilities[format_action(game, a)] = str(p)
    elif d.kind != K.DEAL:
        legal = [format_action(game, a) for a in game.legal_actions(state)]
    ended = [e for e in events if e.kind == "round_ended"]
    values: dict[str, Any] = {
        "illegal": False,
        "decision": d.kind,
        "player": name(d.player) if d.player >= 0 else None,
        "forced": d.forced,
        "legal_actions": legal,
        "probabilities": probabilities,
        "events": [e.kind for e in events],
        "round_end": ended[0].detail if ended else None,
        "scores": {name(s): v for s, v in enumerate(state.scores)},
        "next_to_move": _next_to_move(game, state),
        "winners": [name(w) for w in state.result.winners] if state.result else None,
        "gap": d.point if d.kind == K.GAP else None,
        "banned": game.cards.roles[state.king_in_force] if state.king_in_force >= 0 else None,
        "hands": {name(s): [fc(c) for c in h] for s, h in enumerate(state.hands)},
        "displays": {name(s): [fc(c) for c in x] for s, x in enumerate(state.displays)},
    }
    if any("views" in exp for exp in ruling.expect.values()):  # only where a ruling asks: views add noise
        values["views"] = view_values(game, state, history, len(history) - len(events))
    points: list[str] = []
    for e in events:
        points.extend(p for p in e.points if p not in points)
    points.extend(p for p in d.points if p not in points)
    return Outcome(ruleset, values, summarize(game.spec, values), tuple(points))


def _next_to_move(game: Game, state: State) -> str | None:
    d = state.decision
    if d.kind == K.DEAL:
        return game.colour_name(state.actor)
    if d.kind == K.GAP or d.player < 0:
        return None
    return game.colour_name(d.player)


def summarize(spec: Spec, values: Mapping[str, Any]) -> str:
    """One line for an outcome's values: illegal, gap, round end, winners or the next
    decision, and its events in words (``spec``'s)."""
    if values.get("illegal"):
        return "illegal"
    if values.get("violates"):
        return f"violates invariant {values['violates']}"
    if values.get("gap"):
        return f"gap: {values['gap']}"
    parts: list[str] = []
    if values.get("round_end"):
        parts.append(f"round ends ({values['round_end']})")
    if values.get("winners"):
        parts.append("winner " + ", ".join(values["winners"]))
    elif values.get("decision") == "deal":
        parts.append(f"next round starts with {values['next_to_move']}")
    else:
        who = f" by {values['player']}" if values.get("player") else ""
        forced = " (forced)" if values.get("forced") else ""
        parts.append(f"{values.get('decision')}{who}{forced}")
        legal = values.get("legal_actions") or []
        if legal and len(legal) <= 4:
            parts.append("legal: " + ", ".join(legal))
        elif legal:
            parts.append(f"{len(legal)} legal actions")
    kinds = [k for k in values.get("events", []) if k not in ("card_played", "next_player")]
    if kinds:
        parts.append("events: " + ", ".join(event_words(spec, k) for k in kinds))
    return "; ".join(parts)


# ---------------------------------------------------------------------------------- checking
def compare(expected: Mapping[str, Any], outcome: Outcome) -> tuple[Difference, ...]:
    """Every field of ``expected`` that ``outcome`` does not match.

    ``legal_actions`` compare as sets; ``hands`` and ``displays`` per listed player as
    multisets; ``scores`` for the listed players; ``probabilities`` as exact fractions;
    ``events`` as sequences; an asked action found illegal differs from every expectation
    but ``illegal``; an outcome that stops at an open variation point differs from an
    expectation that does not state that ``gap``.
    """
    if outcome.error is not None:
        return (Difference("position", "reachable", outcome.error),)
    got = outcome.values
    if got.get("illegal") and not expected.get("illegal"):
        return (Difference("illegal", False, outcome.summary),)
    if got.get("violates") and not expected.get("violates"):
        return (Difference("position", "reachable", f"error: {outcome.summary}"),)
    out: list[Difference] = []
    if got.get("gap") and "gap" not in expected:
        out.append(Difference("gap", "(not stated)", got["gap"]))
    for key in FIELDS:
        if key not in expected:
            continue
        want = expected[key]
        have: Any = got.get(key)
        if key == "legal_actions":
            same = sorted(want) == sorted(have or [])
        elif key in ("hands", "displays"):
            have = {who: have[who] for who in want}
            same = all(Counter(want[who]) == Counter(have[who]) for who in want)
        elif key == "scores":
            have = {who: have[who] for who in want}
            same = want == have
        elif key == "probabilities":
            same = ({a: Fraction(p) for a, p in want.items()} == {a: Fraction(p) for a, p in (have or {}).items()})
        elif key == "views":
            have = {who: {k: (have or {}).get(who, {}).get(k) for k in want[who]} for who in want}
            same = views_agree(want, have)
        elif key == "winners":
            same = (sorted(want) if want else want) == (sorted(have) if have else have)
        elif key == "violates":
            same = want == have
            have = have or f"no invariant violated ({outcome.summary})"
        else:
            same = want == have
        if not same:
            out.append(Difference(key, want, have))
    return tuple(out)


def spec_with_house_rulesets(spec: Spec, rulings: Sequence[Ruling]) -> Spec:
    """``spec`` with every house ruleset that ``rulings`` state a result for (the same
    object for the same spec and rulings, :func:`palast.formats.house.resolve_all`)."""
    from palast.formats.house import resolve_all

    return resolve_all(spec, [rs for r in rulings for rs in r.rulesets if rs not in spec.rulesets])


def check_ruling(spec: Spec, ruling: Ruling, rulesets: Sequence[str] | None = None) -> list[Check]:
    """Check ``ruling`` under each ruleset it states a result for (or only ``rulesets``).

    :returns: one :class:`Check` per ruleset, in the ruling's order.
    """
    out = []
    for rs in ruling.rulesets:
        if rulesets is not None and rs not in rulesets:
            continue
        outcome = compute_outcome(spec, ruling, rs)
        out.append(Check(ruling, rs, outcome, compare(ruling.expect[rs], outcome)))
    return out


def check_rulings(spec: Spec, rulings: Sequence[Ruling], rulesets: Sequence[str] | None = None) -> list[Check]:
    """:func:`check_ruling` for every ruling, in order; the result is flat."""
    return [c for r in rulings for c in check_ruling(spec, r, rulesets)]


def outcome_groups(checks: Sequence[Check]) -> list[list[str]]:
    """The rulesets of ``checks`` grouped by equal outcome (every checked field the same),
    groups in the order their first ruleset appears.

    :returns: lists of ruleset ids; one list when every ruleset gives the same outcome.
    """
    import json

    groups: dict[str, list[str]] = {}
    for c in checks:
        groups.setdefault(json.dumps(c.outcome.values, sort_keys=True, default=str), []).append(c.ruleset)
    return list(groups.values())


def points_explaining(spec: Spec, groups: Sequence[Sequence[str]], points: Sequence[str]) -> list[str]:
    """The variation points of ``points`` that can explain why the rulesets of ``groups``
    (rulesets that give the same outcome) differ: those that two rulesets in different
    groups read differently (``open`` counts as a reading of its own). A point every
    ruleset compared reads alike, or that only rulesets of one group read differently,
    explains no difference between the groups.

    :param groups: lists of ruleset ids, as :func:`outcome_groups` returns them.
    :param points: candidate point ids, in the order to keep; unknown ids are dropped.
    :returns: the explaining points, without repeats, in the order of ``points``.
    """
    out: list[str] = []
    for p in dict.fromkeys(points):
        if p not in spec.variation_points:
            continue
        readings = [{spec.reading(rs, p) for rs in g} for g in groups]
        # two groups hold rulesets reading p differently unless both read it one same way
        if any(a != b or len(a) > 1 for i, a in enumerate(readings) for b in readings[i + 1:]):
            out.append(p)
    return out


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    if value is None:
        return "null"
    if isinstance(value, bool):  # as the ruling file writes it
        return "true" if value else "false"
    return str(value)
