"""``palast replay``: re-play a game record action by action and confirm it, or name the
first action that breaks a rule.

:func:`replay` returns a :class:`ReplayReport` (data); :func:`report_dict` turns it into
the ``--json`` document and :func:`render_text` into lines for a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from palast.describe import describe_decision, describe_event, describe_position
from palast.engine.actions import (
    Action,
    Count,
    Deal,
    Discard,
    Draw,
    Give,
    NextPlayer,
    Partner,
    Play,
    Reveal,
    Swap,
    TakeBack,
)
from palast.engine.game import Game, Step
from palast.engine.state import DecisionKind, State
from palast.errors import IllegalActionError, InputError, NotationError
from palast.notation import parse_action
from palast.record import Record, RecordError, RecordResult, result_of, spec_digest
from palast.spec import Spec

K = DecisionKind

#: The notation verb of each action type.
VERB: dict[type, str] = {
    Play: "play", Partner: "partner", Count: "count", Give: "give", Discard: "discard", Swap: "swap",
    TakeBack: "take-back", NextPlayer: "next", Deal: "deal", Draw: "draw", Reveal: "reveal",
}
#: The verb of the action each decision kind expects.
EXPECTED: dict[DecisionKind, str] = {
    K.DEAL: "deal", K.PLAY: "play", K.EXCHANGE_PARTNER: "partner", K.EXCHANGE_COUNT: "count",
    K.EXCHANGE_GIVE: "give", K.EXCHANGE_ANSWER: "give", K.DISCARD: "discard", K.DRAW: "draw", K.SWAP: "swap",
    K.TAKE_BACK: "take-back", K.REVEAL: "reveal", K.NEXT_PLAYER: "next",
}


class Status(StrEnum):
    """How a replay ended."""

    CONFIRMED = "confirmed"    #: every action legal; the game ended as the result line says (or it has none)
    UNFINISHED = "unfinished"  #: every action legal; the record stops before the game ends and has no result
    ILLEGAL = "illegal"        #: an action breaks a rule
    GAP = "gap"                #: play reached an open variation point that the record does not end at
    MISMATCH = "mismatch"      #: every action legal, but the result line says something else

    @property
    def exit_code(self) -> int:
        """0 for a confirmed or unfinished record, 1 otherwise."""
        return 0 if self in (Status.CONFIRMED, Status.UNFINISHED) else 1


@dataclass(frozen=True)
class Rejection:
    """The first action that could not be applied.

    :ivar index: its number among the record's actions (1-based).
    :ivar line: its line in the record file.
    :ivar action: the action as written.
    :ivar by: who the record says decided it, or ``None``.
    :ivar decision: what had to be decided at that point, in words.
    :ivar reason: why the action is illegal there.
    :ivar clauses: the clause ids of the rule it breaks.
    """

    index: int
    line: int
    action: str
    by: str | None
    decision: str
    reason: str
    clauses: tuple[str, ...]


@dataclass(frozen=True)
class ReplayReport:
    """What a replay found.

    :ivar record: the record replayed.
    :ivar game: the game it was replayed in (ruleset, seats).
    :ivar status: how it ended.
    :ivar applied: the number of actions applied.
    :ivar state: the last position reached.
    :ivar steps: each applied action (as written) with its step.
    :ivar rejection: the first illegal action (status ``illegal``).
    :ivar gap: the open variation point play stopped at, or ``None``.
    :ivar mismatches: how the result line differs from the replay (status ``mismatch``).
    :ivar notes: remarks that do not change the status (a spec changed since the record was written).
    """

    record: Record
    game: Game
    status: Status
    applied: int
    state: State
    steps: tuple[tuple[str, Step], ...]
    rejection: Rejection | None = None
    gap: str | None = None
    mismatches: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def record_game_for(spec: Spec, record: Record, ruleset: str | None = None) -> Game:
    """The :class:`Game` a record is played in: its seats and ``ruleset`` (default: the
    record's ruleset, else the spec's default ruleset), with every invariant checked.

    :raises RecordError: if the header names an unknown ruleset or colour, or a player
        count outside the game's range.
    """
    rs = ruleset or record.ruleset or spec.default_ruleset
    try:
        return Game(spec, rs, list(record.players), check=True)
    except InputError as exc:
        if ruleset is not None and ruleset not in spec.rulesets:
            raise InputError(exc.message, None, "--ruleset") from None
        raise RecordError(f"header: {exc.message}", record.file, "line 1") from None


def _who_decides_clauses(previous: Step | None) -> tuple[str, ...]:
    """The clauses behind who decides now: those of the last event that named the next
    player or dealt the round."""
    if previous is None:
        return ()
    for e in reversed(previous.events):
        if e.kind in ("next_player", "round_dealt", "exchange_partner", "cards_given"):
            return e.clauses
    return previous.events[-1].clauses if previous.events else ()


def _compare_result(game: Game, expected: RecordResult, state: State) -> list[str]:
    actual = result_of(game, state)
    if actual is None:
        return [f"the record's result says the game ended ({expected.end or 'result given'}), but after the last "
                f"action it goes on: {describe_decision(game, state)}"]
    out: list[str] = []
    if expected.end is not None and expected.end != actual.end:
        out.append(f"end: the record says {expected.end}, the replay gives {actual.end}")
    if expected.gap is not None and expected.gap != actual.gap:
        out.append(f"gap: the record says {expected.gap}, the replay gives {actual.gap or 'no gap'}")
    if expected.winners is not None and sorted(expected.winners) != sorted(actual.winners or ()):
        out.append(f"winners: the record says {', '.join(expected.winners) or 'none'}, the replay gives "
                   f"{', '.join(actual.winners or ()) or 'none'}")
    if expected.shared is not None and expected.shared != bool(actual.shared):
        out.append(f"shared win: the record says {expected.shared}, the replay gives {bool(actual.shared)}")
    if expected.tiebreak is not None and expected.tiebreak != actual.tiebreak:
        out.append(f"tie-break: the record says {expected.tiebreak}, the replay gives {actual.tiebreak or 'none'}")
    if expected.scores is not None and dict(expected.scores) != dict(actual.scores or {}):
        out.append("scores: the record says " + ", ".join(f"{k} {v}" for k, v in expected.scores.items())
                   + "; the replay gives " + ", ".join(f"{k} {v}" for k, v in (actual.scores or {}).items()))
    if expected.rounds is not None and expected.rounds != actual.rounds:
        out.append(f"rounds: the record says {expected.rounds}, the replay gives {actual.rounds}")
    return out


def replay(spec: Spec, record: Record, ruleset: str | None = None) -> ReplayReport:
    """Re-play ``record`` under ``ruleset`` (default: the record's, else the spec's default).

    Each action is parsed against the seated players and applied with every invariant
    checked. The replay stops at the first illegal action, or when play reaches a
    variation point the ruleset leaves open.

    :returns: the :class:`ReplayReport`.
    :raises RecordError: (bad input, exit 2) for a header naming unknown things or an
        action whose notation cannot be read, with the file and line.
    """
    game = record_game_for(spec, record, ruleset)
    notes: list[str] = []
    digest = spec_digest(spec)
    if record.spec_digest is not None and record.spec_digest != digest:
        notes.append(f"the record was written with spec {record.spec_digest}; replayed with {digest}")
    state = game.initial_state()
    steps: list[tuple[str, Step]] = []
    previous: Step | None = None

    def done(status: Status, **kw: Any) -> ReplayReport:
        return ReplayReport(record, game, status, len(steps), state, tuple(steps), notes=tuple(notes), **kw)

    for index, ra in enumerate(record.actions, start=1):
        try:
            action: Action = parse_action(game, ra.text)
        except NotationError as exc:
            raise RecordError(f"action {index}: {exc.message}", record.file, f"line {ra.line}") from None
        dec = state.decision
        if dec.kind is K.GAP:
            return done(Status.GAP, gap=dec.point)
        decision_text = describe_decision(game, state)

        def reject(reason: str, clauses: tuple[str, ...], *, _i: int = index, _ra: Any = ra,
                   _d: str = decision_text) -> ReplayReport:
            return done(Status.ILLEGAL, rejection=Rejection(_i, _ra.line, _ra.text, _ra.by, _d, reason, clauses))

        if ra.by is not None and dec.kind is not K.GAME_OVER:
            who = "chance" if dec.is_chance else game.colour_name(dec.player)
            # a draw or King card reveal is chance, but a player carries it out: accept either name
            accepted = {who, game.colour_name(dec.player)} if dec.player >= 0 else {who}
            if ra.by.lower() not in accepted:
                return reject(f"the record says {ra.by} decides this, but {who} does: {decision_text}",
                              _who_decides_clauses(previous))
        try:
            step = game.apply(state, action)
        except IllegalActionError as exc:
            expected = EXPECTED.get(dec.kind)
            reason = exc.message
            if expected is not None and VERB[type(action)] != expected:
                reason = f"{decision_text}, so the next action must be a `{expected}`; {exc.message}"
            return reject(reason, exc.clauses)
        steps.append((ra.text, step))
        previous = step
        state = step.state
    res = record.result
    if state.decision.kind is K.GAP:
        point = state.decision.point
        if res is not None and (res.end == "gap" or res.gap is not None):
            mism = _compare_result(game, res, state)
            return done(Status.MISMATCH, gap=point, mismatches=tuple(mism)) if mism else \
                done(Status.CONFIRMED, gap=point)
        return done(Status.GAP, gap=point)
    if res is None:
        return done(Status.CONFIRMED if state.decision.kind is K.GAME_OVER else Status.UNFINISHED)
    mism = _compare_result(game, res, state)
    return done(Status.MISMATCH, mismatches=tuple(mism)) if mism else done(Status.CONFIRMED)


# ---------------------------------------------------------------------- output
def _scores(game: Game, state: State) -> dict[str, int]:
    return {game.colour_name(s): v for s, v in enumerate(state.scores)}


def _gap_readings(spec: Spec, point: str) -> dict[str, str]:
    vp = spec.variation_points.get(point)
    return dict(vp.choices) if vp is not None else {}


def report_dict(spec: Spec, report: ReplayReport) -> dict[str, Any]:
    """The report as one JSON-ready document: ``record``, ``ruleset``, ``players``,
    ``status``, ``exit_code``, ``actions`` (in the record), ``applied``, ``rounds``,
    ``scores``, ``winners``, ``next_decision``, ``rejection`` (``index``, ``line``,
    ``action``, ``by``, ``decision``, ``reason``, ``clauses``), ``gap`` (``point``,
    ``topic``, ``readings`` per ruleset), ``mismatches`` and ``notes``."""
    g, s = report.game, report.state
    rej = report.rejection
    gap = None
    if report.gap is not None:
        vp = spec.variation_points.get(report.gap)
        gap = {"point": report.gap, "topic": vp.topic if vp else None, "readings": _gap_readings(spec, report.gap)}
    return {
        "record": report.record.file,
        "ruleset": g.ruleset,
        "players": [g.colour_name(i) for i in range(g.n)],
        "status": report.status.value,
        "exit_code": report.status.exit_code,
        "actions": len(report.record.actions),
        "applied": report.applied,
        "rounds": s.round,
        "scores": _scores(g, s),
        "winners": [g.colour_name(w) for w in s.result.winners] if s.result else None,
        "next_decision": None if s.is_terminal else describe_decision(g, s),
        "rejection": None if rej is None else {
            "index": rej.index, "line": rej.line, "action": rej.action, "by": rej.by, "decision": rej.decision,
            "reason": rej.reason, "clauses": list(rej.clauses)},
        "gap": gap,
        "mismatches": list(report.mismatches),
        "notes": list(report.notes),
    }


def render_text(spec: Spec, report: ReplayReport, *, verbose: bool = False, clauses: bool = True) -> list[str]:
    """The report as lines for a terminal; with ``verbose`` every action and its events."""
    g, s, rec = report.game, report.state, report.record
    names = ", ".join(g.colour_name(i) for i in range(g.n))
    src = "from the record" if rec.ruleset == g.ruleset else ("given" if rec.ruleset else "the default")
    lines = [f"palast replay {rec.file}: {g.n} players ({names}), ruleset {g.ruleset} ({src}), "
             f"{len(rec.actions)} actions"]
    lines.extend(f"note: {n}" for n in report.notes)
    if verbose:
        for i, (text, step) in enumerate(report.steps, start=1):
            lines.append(f"{i:>4}. {text}")
            for e in step.events:
                cite = f"  [{', '.join(e.clauses)}]" if clauses else ""
                lines.append(f"        {describe_event(g, e)}{cite}")
    scores = ", ".join(f"{k} {v}" for k, v in _scores(g, s).items())
    st = report.status
    if st is Status.ILLEGAL:
        r = report.rejection
        assert r is not None
        by = f" by {r.by}" if r.by else ""
        lines.append(f"illegal: action {r.index} (line {r.line}): {r.action}{by}")
        lines.append(f"   decision: {r.decision}")
        lines.append(f"   why: {r.reason}")
        if r.clauses:
            lines.append(f"   clauses: {', '.join(r.clauses)}")
        lines.append(f"   {r.index - 1} action(s) before it are legal; the position before it:")
        lines.extend("      " + x for x in describe_position(g, s))
    elif report.gap is not None and st is not Status.CONFIRMED:
        lines.extend(_gap_lines(spec, report, scores))
    elif st is Status.UNFINISHED:
        lines.append(f"unfinished: all {report.applied} actions are legal; the record stops in round {s.round} "
                     f"before the game ends ({describe_decision(g, s)}); scores {scores}")
    else:
        if report.gap is not None:
            lines.append(f"confirmed: all {report.applied} actions are legal; play stops in round {s.round} at "
                         f"variation point {report.gap}, which {g.ruleset} leaves open, as the record says; "
                         f"scores {scores}")
        elif s.result is not None:
            w = ", ".join(g.colour_name(x) for x in s.result.winners)
            how = f" (tie-break: {s.result.tiebreak})" if s.result.tiebreak else ""
            lines.append(f"{'confirmed' if st is Status.CONFIRMED else 'legal'}: all {report.applied} actions are "
                         f"legal; the game ends after {s.round} rounds: {w} "
                         f"{'win' if len(s.result.winners) > 1 else 'wins'}{how}; scores {scores}")
        if st is Status.MISMATCH:
            if s.result is None and report.gap is None:
                lines.append(f"legal: all {report.applied} actions are legal")
            lines.append("mismatch: the record's result line does not match the replay:")
            lines.extend(f"   {m}" for m in report.mismatches)
        elif rec.result is not None:
            lines.append("   the record's result line matches")
    return lines


def _gap_lines(spec: Spec, report: ReplayReport, scores: str) -> list[str]:
    g = report.game
    point = report.gap or ""
    vp = spec.variation_points.get(point)
    topic = f" ({vp.topic})" if vp else ""
    after = report.applied
    rest = len(report.record.actions) - after
    lines = [f"gap: after action {after} play stops at variation point {point}{topic}, which ruleset "
             f"{g.ruleset} leaves open; scores {scores}"]
    others = {r: v for r, v in _gap_readings(spec, point).items() if r != g.ruleset}
    if others:
        lines.append("   the other rulesets read it: " + "; ".join(f"{r}: {v}" for r, v in others.items()))
    if rest:
        lines.append(f"   {rest} more action(s) in the record were not replayed")
    if report.mismatches:
        lines.append("mismatch: the record's result line does not match the replay:")
        lines.extend(f"   {m}" for m in report.mismatches)
    return lines
