"""``palast replay RECORD --as COLOUR``: a replayed game as one player saw it.

The record is replayed as usual (:func:`palast.query.replay.replay`); then only what the player
saw is reported: each action the player took (the actions of the others and of chance are
not shown, since their notation names cards the player may not see), every event as the
player saw it (:func:`palast.engine.views.observation`, hidden fields left out), and the
player's view of the last position. Of a rejected action only its number is given, and its
reason only when it is the player's own.
"""

from __future__ import annotations

from typing import Any

from palast.engine.events import Event
from palast.engine.game import Game
from palast.engine.state import State
from palast.query.replay import ReplayReport
from palast.query.view_render import seen_dict, view_dict, view_lines
from palast.spec.event_text import counted


def replay_as(report: ReplayReport, colour: str) -> dict[str, Any]:
    """What the player ``colour`` saw of the replayed ``report``.

    :returns: ``record``, ``ruleset``, ``as``, ``status``, ``exit_code``, ``applied``,
        ``steps`` (``index``, ``by`` (a colour or ``"chance"``), ``action`` (the player's own
        actions only, else ``None``), ``events`` as seen, and ``hand``, the player's hand after
        the step, when the step changed it), ``rejection`` (``index``, and
        ``reason`` for the player's own action), ``check_failure`` (``index`` of the action
        after which an invariant failed and the ``invariant``'s id; its message, which may
        name cards the player does not see, is left out) and ``view`` (see
        :func:`palast.query.view_render.view_dict`).
    :raises InputError: for a colour that is not seated.
    """
    g: Game = report.game
    viewer = g.seat_of(colour)
    state: State = g.initial_state()
    history: list[Event] = []
    steps: list[dict[str, Any]] = []
    for i, (text, step) in enumerate(report.steps, start=1):
        d = state.decision
        by = "chance" if d.is_chance or d.player < 0 else g.colour_name(d.player)
        first = len(history)
        history.extend(step.events)
        obs = g.observation(step.state, viewer, history)
        entry: dict[str, Any] = {"index": i, "by": by,
                                 "action": text if d.player == viewer and not d.is_chance else None,
                                 "events": [seen_dict(g, s, viewer) for s in obs.history[first:]]}
        if obs.hand != state.hands[viewer]:  # the player sees their own hand change (a deal, a draw, ...)
            entry["hand"] = [g.cards.format_card(c) for c in obs.hand]
        steps.append(entry)
        state = step.state
    final = g.observation(report.state, viewer, history)
    rej, chk = report.rejection, report.check_failure
    return {
        "record": report.record.file,
        "ruleset": g.ruleset,
        "as": g.colour_name(viewer),
        "status": report.status.value,
        "exit_code": report.status.exit_code,
        "applied": report.applied,
        "steps": steps,
        "rejection": None if rej is None else {
            "index": rej.index,
            "reason": rej.reason if report.state.decision.player == viewer else None},
        "check_failure": None if chk is None else {"index": chk.index, "invariant": chk.invariant},
        "view": view_dict(g, final),
        "view_text": view_lines(g, final),
    }


def render_as(doc: dict[str, Any]) -> list[str]:
    """:func:`replay_as` as lines for a terminal."""
    who = doc["as"]
    lines = [f"{doc['record']}: {doc['status']} under {doc['ruleset']}, "
             f"{counted(doc['applied'], 'action', 'actions')} applied; "
             f"as {who} saw it:"]
    for s in doc["steps"]:
        head = f"{s['index']:4}. {who}: {s['action']}" if s["action"] else f"{s['index']:4}. ({s['by']})"
        lines.append(head)
        lines.extend(f"        {e['text']}" for e in s["events"])
        if "hand" in s:
            lines.append(f"        {who}'s hand now: [{', '.join(s['hand'])}]")
    if doc["rejection"] is not None:
        why = f": {doc['rejection']['reason']}" if doc["rejection"]["reason"] else ""
        lines.append(f"action {doc['rejection']['index']} is illegal{why}")
    if doc["check_failure"] is not None:
        lines.append(f"check failed: after action {doc['check_failure']['index']} the invariant "
                     f"{doc['check_failure']['invariant']} is violated")
    lines.extend(doc["view_text"])
    return lines
