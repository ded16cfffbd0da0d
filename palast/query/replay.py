"""``palast replay``: re-play a game record action by action and confirm it, or name the
first action that breaks a rule.

:func:`replay` returns a :class:`ReplayReport` (data); :func:`report_dict` turns it into
the ``--json`` document and :func:`render_text` into lines for a terminal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from palast.engine.actions import Action, Play
from palast.engine.game import Game, Step
from palast.engine.state import DecisionKind, InvariantViolation, State
from palast.errors import IllegalActionError, InputError, NotationError
from palast.formats.notation import parse_action
from palast.formats.record import Record, RecordError, RecordResult, result_of, spec_digest
from palast.query.describe import describe_decision, describe_event, describe_position, tiebreak_words
from palast.spec.event_text import counted
from palast.spec.load import Spec

K = DecisionKind

class Status(StrEnum):
    """How a replay ended."""

    #: every action legal; the game ended as the result line says (or it has none), or
    #: play stopped at a gap and the result line names that gap
    CONFIRMED = "confirmed"
    #: every action legal; the record stops before the game ends, at no gap, and has no result
    UNFINISHED = "unfinished"
    #: an action breaks a rule
    ILLEGAL = "illegal"
    #: play reached an open variation point that the result line does not state: before the
    #: last action, at the end of a record without a result line, or where the result line
    #: says the game ended
    GAP = "gap"
    #: every action legal, but the result line says something else
    MISMATCH = "mismatch"
    #: an action was applied, but an invariant of spec/invariants.yaml is false afterwards
    #: (check mode; e.g. a house reading that breaks it)
    CHECK_FAILED = "check-failed"

    @property
    def exit_code(self) -> int:
        """0 for a confirmed or unfinished record, 1 otherwise (an illegal action, a gap
        the result line does not state, a result line that differs, a failed invariant)."""
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
class CheckFailure:
    """The action after which an invariant failed (check mode).

    :ivar index: its number among the record's actions (1-based).
    :ivar line: its line in the record file.
    :ivar action: the action as written.
    :ivar by: who the record says decided it, or ``None``.
    :ivar decision: what had to be decided before it, in words.
    :ivar invariant: the id of the invariant (or lemma) that is false after it.
    :ivar message: what is false, in words.
    :ivar clauses: the invariant's clause ids (empty for a lemma).
    """

    index: int
    line: int
    action: str
    by: str | None
    decision: str
    invariant: str
    message: str
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
    :ivar check_failure: the action after which an invariant failed (status ``check-failed``).
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
    check_failure: CheckFailure | None = None


def record_ruleset(spec: Spec, record: Record) -> tuple[Spec, str]:
    """The ruleset a record was played under and a spec that has it: the header's
    ``ruleset`` (a ruleset id or a derived name such as ``reference+final-tie=shared``,
    :mod:`palast.formats.house`), or, for house rules, ``base`` read with ``readings`` under the
    header's ``ruleset`` name (or the derived name when the header names none); the
    spec's default ruleset when the header names nothing.

    :raises RecordError: (at line 1) for an unknown ruleset, base, variation point or
        reading, a house ruleset whose name is a ruleset of the spec, or a derived name
        that says other readings than ``readings``.
    """
    from palast.formats import house

    def bad(message: str) -> RecordError:
        return RecordError(f"header: {message}", record.file, "line 1")

    try:
        if record.base is None:
            name = record.ruleset or spec.default_ruleset
            return house.resolve(spec, name, None), name
        if record.base not in spec.rulesets:
            house.parse_name(spec, record.base, None)  # names the closest ruleset
            spec = house.resolve(spec, record.base, None)  # a named house ruleset, or a derived name
        readings = dict(record.readings)
        for point, reading in readings.items():
            house.check_reading(spec, point, reading)
        name = record.ruleset or house.derived_name(spec, record.base, readings)
        declared = spec.house_rulesets.get(name)
        if declared is not None:  # read alike, base and readings may say it otherwise (as a derived name, below)
            if _reads(spec, str(declared["base"]), dict(declared["readings"])) != _reads(spec, record.base, readings):
                raise bad(f"\"ruleset\": {name!r} is a house ruleset of spec/rulesets.yaml, {declared['base']} with "
                          + ", ".join(f"{p}={r}" for p, r in declared["readings"].items())
                          + ", but the header gives other readings")
            return house.resolve(spec, name, None), name
        if name in spec.rulesets and house.house_readings(spec, name)[0] is None:
            raise bad(f"\"ruleset\": {name!r} is a ruleset of the spec, but the header gives readings of house "
                      f"rules; name the house ruleset (e.g. {house.derived_name(spec, record.base, readings)!r})")
        first = name.partition(house.JOIN)[0]
        if house.JOIN in name and (first in spec.rulesets or first in spec.house_rulesets):
            # the name built on a ruleset the spec knows says what it reads (house rules on a
            # ruleset file's name cannot be checked so); read alike, base and readings may
            # say it otherwise (reference with guard-other-card=itself-too is house-guard)
            said = house.parse_name(spec, name, None)
            if _reads(spec, *said) != _reads(spec, record.base, readings):
                raise bad(f"\"ruleset\": {name!r} says other readings than \"base\" and \"readings\" "
                          f"({house.derived_name(spec, record.base, readings)})")
        if name in spec.rulesets:  # house rules the spec given has already (a ruleset file's, say)
            if _reads(spec, name, {}) != _reads(spec, record.base, readings):
                raise bad(f"\"ruleset\": {name!r} reads otherwise than \"base\" and \"readings\" say")
            return spec, name
        return house.derive(spec, name, record.base, readings), name
    except RecordError:
        raise
    except InputError as exc:
        raise bad(exc.message) from None


def _reads(spec: Spec, base: str, readings: Mapping[str, str]) -> dict[str, str]:
    """:func:`palast.formats.house.reads`, a named house ruleset or a derived name as
    ``base`` resolved first."""
    from palast.formats import house

    return house.reads(spec if base in spec.rulesets else house.resolve(spec, base, None), base, readings)


def record_game_for(spec: Spec, record: Record, ruleset: str | None = None) -> Game:
    """The :class:`Game` a record is played in: its seats and ``ruleset`` (default: the
    record's ruleset with the readings its header stores, see :func:`record_ruleset`, else
    the spec's default ruleset), with every invariant checked. The game's spec is ``spec``
    with the record's house ruleset added, if it has one.

    :raises RecordError: if the header names an unknown ruleset or colour, or a player
        count outside the game's range.
    """
    if ruleset is None:
        spec, rs = record_ruleset(spec, record)
    else:
        rs = ruleset
    try:
        return Game(spec, rs, list(record.players), check=True)
    except InputError as exc:
        if ruleset is not None and ruleset not in spec.rulesets:
            raise InputError(exc.message, None, "--ruleset") from None
        raise RecordError(f"header: {exc.message}", record.file, "line 1") from None


#: Events that settle who begins a turn, latest first wins.
_WHO_EVENTS = ("next_player", "round_starter")


def _who_decides(game: Game, state: State, previous: Step | None) -> tuple[str, tuple[str, ...]]:
    """Which event or rule settled who decides now, and its clauses. For a decision that
    begins a turn or a round (``begins`` in ``spec/flow.yaml``): the last event of the
    previous step that named the next player or the round's starter (setup.first-player,
    round.next.starter). Otherwise, or when there is none: the rule that waits for the
    decision (whose statements opened it; kind ``""``), not whatever the previous step did
    last (a Cupbearer's swap before a rule module's end-of-turn choice)."""
    declared = game.spec.flow.decisions.get(state.decision.kind)
    if previous is not None and declared is not None and declared.begins:
        for e in reversed(previous.events):
            if e.kind in _WHO_EVENTS:
                return e.kind, e.clauses
    r = game.runner.resume_of(state.decision, state)
    return "", game.rule_clauses(r.rule) if r is not None else ()


def _wrong_kind(game: Game, state: State, action: Action, file: str | None, line: int) -> str | None:
    """Why a record's ``action`` at ``line`` of ``file`` is refused when it is of another
    kind than the decision ``state`` waits for, in words: what the record gives and which
    decision is due (each decision's ``what`` in ``spec/flow.yaml``, and the action that
    answers it), with a hint when the action given may follow the one due (a line missing
    before it). ``None`` when the action is of the kind due (or nothing is due)."""
    answers = game.answers
    dec = state.decision
    due = answers.types.get(dec.kind)
    if due is None or answers.accepts(dec.kind, action):
        return None
    flow = game.spec.flow

    def words(kind: str) -> str:
        declared = flow.decisions.get(kind)
        return (declared.what or declared.statement) if declared is not None else kind

    got_verb, due_verb = answers.verb_of(action), due[1]
    given = answers.verbs[got_verb][0] if got_verb in answers.verbs else None
    got = f"{words(given)} (a {got_verb!r} action)" if given is not None else f"a {got_verb!r} action"
    if dec.is_chance:
        by = f"by chance, for {game.colour_name(dec.player)}" if dec.player >= 0 else "by chance"
    else:
        by = f"by {game.colour_name(dec.player)}"
    place = [p for p in (file, f"line {line}" if line > 0 else None) if p]  # line 0: built in memory
    where = "".join(f"{p}: " for p in place)
    hint = ""
    if given is not None and flow.follows(dec.kind, given):
        hint = f"; is a {due_verb!r} line missing before " + (f"line {line}?" if line > 0 else "it?")
    return (f"{where}the record gives {got}, but the decision due is {words(dec.kind)} "
            f"(a {due_verb!r} action, {by}){hint}")


def _compare_result(game: Game, expected: RecordResult, state: State) -> list[str]:
    actual = result_of(game, state)
    if actual is None:
        said = f'"end": "{expected.end}"' if expected.end else "a result line, which says the record is complete"
        return [f"the record's result says play is over ({said}), but after the last action it goes on: "
                f"{describe_decision(game, state)}"]
    out: list[str] = []
    colour = game.cards.colour_id  # the record may write colours in any case
    if expected.winners is not None:
        expected = replace(expected, winners=tuple(colour(w, w) for w in expected.winners))
    if expected.scores is not None:
        expected = replace(expected, scores={colour(k, k): v for k, v in expected.scores.items()})
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
        def named(tiebreak: str | None) -> str:  # the id the record writes, and what it means
            if not tiebreak:
                return "none"
            words = tiebreak_words(game, tiebreak)
            return tiebreak if words == tiebreak else f"{tiebreak} ({words})"

        out.append(f"tie-break: the record says {named(expected.tiebreak)}, the replay gives "
                   f"{named(actual.tiebreak)}")
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

    Check mode: when an invariant of ``spec/invariants.yaml`` is false after an action,
    the replay stops there with :attr:`Status.CHECK_FAILED` (exit code 1) and the
    :class:`CheckFailure` (the action, the invariant, what is false).

    Gaps: a record whose last action reaches a gap and whose result line says so
    (``"end": "gap"``, and the same ``gap`` if given) is :attr:`Status.CONFIRMED`; a gap
    reached before the last action, or at the end of a record whose result line is
    missing or says something else, is :attr:`Status.GAP` (exit code 1).

    :returns: the :class:`ReplayReport`.
    :raises RecordError: (bad input, exit 2) for a header naming unknown things, an
        action whose notation cannot be read or whose ``by`` names no seated player, or a
        result naming an unknown variation point, with the file and line.
    """
    game = record_game_for(spec, record, ruleset)
    spec = game.spec  # with the record's house ruleset, if any
    res = record.result
    if res is not None and res.gap is not None and res.gap not in spec.variation_points:
        import difflib

        close = difflib.get_close_matches(res.gap, list(spec.variation_points), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise RecordError(f"result: \"gap\": {res.gap!r} is not a variation point of the spec{hint}",
                          record.file, f"line {res.line}")
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
        if dec.kind == K.GAP:
            return done(Status.GAP, gap=dec.point)
        decision_text = describe_decision(game, state)

        def reject(reason: str, clauses: tuple[str, ...], *, _i: int = index, _ra: Any = ra,
                   _d: str = decision_text) -> ReplayReport:
            return done(Status.ILLEGAL, rejection=Rejection(_i, _ra.line, _ra.text, _ra.by, _d, reason, clauses))

        seated = {game.colour_name(s) for s in range(game.n)}
        by = None if ra.by is None else game.cards.colour_id(ra.by, ra.by.strip().lower())  # any case
        if by is not None and by not in seated | {"chance"}:
            raise RecordError(f"action {index}: \"by\": {ra.by!r} is not a seated player (players: "
                              f"{', '.join(game.colour_name(s) for s in range(game.n))}; \"chance\" for deals, "
                              "draws and King cards)", record.file, f"line {ra.line}")
        if by is not None and dec.kind != K.GAME_OVER:
            who = "chance" if dec.is_chance else game.colour_name(dec.player)
            # a draw or King card reveal is chance, but a player carries it out: accept either name
            accepted = {who, game.colour_name(dec.player)} if dec.player >= 0 else {who}
            if by not in accepted:
                kind, clauses = _who_decides(game, state, previous)
                why = ""
                if kind == "round_starter" and state.round == 1:
                    order = ", ".join(game.colour_name(s) for s in range(game.n))
                    why = f"; the header seats {order}, and the first seat starts"
                return reject(f"the record says {ra.by} decides this, but {who} does: {decision_text}{why}",
                              clauses)
        try:
            step = game.apply(state, action)
        except IllegalActionError as exc:
            wrong = _wrong_kind(game, state, action, record.file, ra.line)
            if wrong is not None:  # an action of another kind than the decision due
                return reject(wrong, exc.clauses)
            kind, clauses = _who_decides(game, state, previous)
            if (kind == "round_starter" and isinstance(action, Play) and dec.kind == K.PLAY
                    and action.card not in state.hands[dec.player]
                    and any(action.card in h for h in state.hands)):
                # the round's first play, of a card another player holds: say who starts
                order = ", ".join(game.colour_name(s) for s in range(game.n))
                return reject(f"{exc.message}; {game.colour_name(dec.player)} starts this round (the header "
                              f"seats {order})", clauses + exc.clauses)
            return reject(exc.message, exc.clauses)
        except InvariantViolation as exc:
            inv = spec.invariants.get(exc.invariant)
            return done(Status.CHECK_FAILED, check_failure=CheckFailure(
                index, ra.line, ra.text, ra.by, decision_text, exc.invariant, exc.detail,
                inv.clauses if inv is not None else ()))
        steps.append((ra.text, step))
        previous = step
        state = step.state
    res = record.result
    if state.decision.kind == K.GAP:
        point = state.decision.point
        if res is not None and (res.end == "gap" or res.gap is not None):
            mism = _compare_result(game, res, state)
            return done(Status.MISMATCH, gap=point, mismatches=tuple(mism)) if mism else \
                done(Status.CONFIRMED, gap=point)
        # a gap the record does not state: reported, exit 1
        return done(Status.GAP, gap=point, mismatches=tuple(_compare_result(game, res, state)) if res else ())
    if res is None:
        return done(Status.CONFIRMED if state.decision.kind == K.GAME_OVER else Status.UNFINISHED)
    mism = _compare_result(game, res, state)
    return done(Status.MISMATCH, mismatches=tuple(mism)) if mism else done(Status.CONFIRMED)


# ---------------------------------------------------------------------- output
def _scores(game: Game, state: State) -> dict[str, int]:
    return {game.colour_name(s): v for s, v in enumerate(state.scores)}


def _gap_readings(spec: Spec, point: str) -> dict[str, str]:
    vp = spec.variation_points.get(point)
    return dict(vp.choices) if vp is not None else {}


def _house_rules(game: Game) -> dict[str, Any] | None:
    from palast.formats.house import house_readings

    base, readings = house_readings(game.spec, game.ruleset)
    return None if base is None else {"base": base, "readings": readings}


def report_dict(spec: Spec, report: ReplayReport) -> dict[str, Any]:
    """The report as one JSON-ready document: ``record``, ``ruleset``, ``house_rules``
    (``base`` and ``readings`` of a house ruleset, else ``null``), ``players``,
    ``status``, ``exit_code``, ``actions`` (in the record), ``applied``, ``rounds``,
    ``scores``, ``winners``, ``next_decision``, ``rejection`` (``index``, ``line``,
    ``action``, ``by``, ``decision``, ``reason``, ``clauses``), ``check_failure`` (the
    action after which an invariant failed: ``index``, ``line``, ``action``, ``by``,
    ``decision``, ``invariant``, ``message``, ``clauses``; else ``null``), ``gap``
    (``point``, ``topic``, ``readings`` per ruleset), ``mismatches`` and ``notes``."""
    g, s = report.game, report.state
    spec = g.spec  # with the house ruleset replayed, if any
    rej, chk = report.rejection, report.check_failure
    gap = None
    if report.gap is not None:
        vp = spec.variation_points.get(report.gap)
        gap = {"point": report.gap, "topic": vp.topic if vp else None, "readings": _gap_readings(spec, report.gap)}
    return {
        "record": report.record.file,
        "ruleset": g.ruleset,
        "house_rules": _house_rules(g),
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
        "check_failure": None if chk is None else {
            "index": chk.index, "line": chk.line, "action": chk.action, "by": chk.by, "decision": chk.decision,
            "invariant": chk.invariant, "message": chk.message, "clauses": list(chk.clauses)},
        "gap": gap,
        "mismatches": list(report.mismatches),
        "notes": list(report.notes),
    }


def render_text(spec: Spec, report: ReplayReport, *, verbose: bool = False, clauses: bool = True) -> list[str]:
    """The report as lines for a terminal; with ``verbose`` every action and its events."""
    g, s, rec = report.game, report.state, report.record
    names = ", ".join(g.colour_name(i) for i in range(g.n))
    from palast.formats.house import house_readings, label

    base, readings = house_readings(g.spec, g.ruleset)
    from_record = rec.ruleset == g.ruleset or (rec.ruleset is None and rec.base is not None
                                               and (base, readings) == (rec.base, dict(rec.readings)))
    src = "from the record" if from_record else ("given" if rec.ruleset or rec.base else "the default")
    lines = [f"palast replay {rec.file}: {g.n} players ({names}), ruleset {label(g.spec, g.ruleset)} ({src}), "
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
        lines.append(f"   {counted(r.index - 1, 'action', 'actions')} before it "
                     f"{'is' if r.index == 2 else 'are'} legal; "
                     "the position before it:")
        lines.extend("      " + x for x in describe_position(g, s))
    elif st is Status.CHECK_FAILED:
        c = report.check_failure
        assert c is not None
        by = f" by {c.by}" if c.by else ""
        lines.append(f"check failed: after action {c.index} (line {c.line}): {c.action}{by}")
        lines.append(f"   invariant {c.invariant} violated: {c.message}")
        if c.clauses:
            lines.append(f"   clauses: {', '.join(c.clauses)}")
        lines.append(f"   {counted(c.index - 1, 'action', 'actions')} before it "
                     f"{'is' if c.index == 2 else 'are'} legal and "
                     "keep every invariant; under "
                     f"{label(g.spec, g.ruleset)} this one breaks an invariant of spec/invariants.yaml (a house "
                     "reading may break one); the position before it:")
        lines.extend("      " + x for x in describe_position(g, s))
    elif report.gap is not None and st is not Status.CONFIRMED:
        lines.extend(_gap_lines(spec, report, scores))
    elif st is Status.UNFINISHED and s.round == 0:
        lines.append(f"unfinished: the record holds no action, not even the first deal (next: "
                     f"{describe_decision(g, s)})")
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
            how = f" (tie-break: {tiebreak_words(g, s.result.tiebreak)})" if s.result.tiebreak else ""
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
    spec = g.spec
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
        lines.append(f"   {counted(rest, 'more action', 'more actions')} in the record "
                     f"{'was' if rest == 1 else 'were'} not replayed")
    elif report.record.result is None:
        lines.append(f'   the record has no result line saying it ends at this gap ({{"result": {{"end": "gap", '
                     f'"gap": "{point}"}}}}), so it is reported, not confirmed')
    if report.mismatches:
        lines.append("mismatch: the record's result line does not match the replay:")
        lines.extend(f"   {m}" for m in report.mismatches)
    return lines
