"""``palast ask``: what happens in a position, per ruleset, with the clauses behind it.

:func:`ask` computes the answer as plain data (the ``--json`` document described in the
README, section "Reading ``palast ask``"); :func:`render_text` prints it for a person
(:mod:`palast.query.ask_render`); :func:`disagreements` compares the rulesets' answers
(:mod:`palast.query.ask_compare`). :func:`play_actions` applies a scenario's actions under one
ruleset as far as they go.

An answer's ``variation_points`` are the points named by its events and decisions and the
points whose readings the engine consulted while computing it: the game's parameter table
is watched (:class:`ConsultLog`), as ``palast simulate`` watches it with
:class:`palast.engine.params.ConsultLog` (the engine branches on these readings and on nothing
else that differs between rulesets).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from palast.engine.actions import Action
from palast.engine.game import Game, Step
from palast.engine.params import ConsultLog
from palast.engine.state import DecisionKind, State
from palast.errors import IllegalActionError, InputError, NotationError, ScenarioError
from palast.formats.notation import format_action
from palast.formats.position import answer_position
from palast.formats.scenario import Scenario
from palast.query.ask_compare import disagreements
from palast.query.describe import describe_decision, describe_position, event_dict
from palast.spec.event_text import counted, listed
from palast.spec.load import Spec

__all__ = [
    "Played",
    "all_consulted_points",
    "answer_for",
    "ask",
    "consulted_points",
    "disagreements",
    "outcome",
    "play_actions",
    "render_text",
    "short_handed",
    "watch",
]

K = DecisionKind


def watch(game: Game) -> ConsultLog:
    """Note from now on which engine parameters (variation-point readings) ``game`` reads:
    its parameter table is replaced by an :class:`ConsultLog` over the same settings
    (building a game reads none, so nothing is missed; tests/test_ask_points.py checks it).

    :returns: the log (``game.params``), with nothing noted yet.
    """
    log = ConsultLog(dict(game.params))
    game.params = log
    return log


def _points_of(game: Game, names: set[str] | frozenset[str]) -> list[str]:
    points = {dict.__getitem__(game.params, p).point for p in names}
    return [p for p in game.spec.variation_points if p in points]


def _extend(item: dict[str, Any], consulted: list[str]) -> None:
    """Add to ``item``'s ``variation_points`` the ``consulted`` points it does not name,
    and list those under ``readings_consulted``."""
    extra = [p for p in consulted if p not in item["variation_points"]]
    item["variation_points"] = [*item["variation_points"], *extra]
    item["readings_consulted"] = extra


def consulted_points(game: Game) -> list[str]:
    """The variation points whose readings ``game`` consulted since this was last called
    (or since :func:`watch`), in the spec's order; ``[]`` for a game that is not watched.
    """
    log = game.params
    if not isinstance(log, ConsultLog):
        return []
    names = set(log.seen)
    log.seen.clear()
    return _points_of(game, names)


def all_consulted_points(game: Game) -> list[str]:
    """Every variation point whose reading ``game`` consulted since :func:`watch`, in the
    spec's order; ``[]`` for a game that is not watched."""
    log = game.params
    return _points_of(game, log.total) if isinstance(log, ConsultLog) else []


@dataclass(frozen=True)
class Played:
    """A scenario's position under one ruleset after its actions, as far as they apply.

    :ivar state: the position reached (before the stopping action, if one stopped play).
    :ivar history: each action applied, in notation, with its step.
    :ivar stopped_at: ``None`` when every action applied; otherwise the stopping action as
        JSON-ready data: ``index`` (1-based), ``action``, ``place`` (in the file),
        ``why`` (``"illegal"`` or ``"gap"``), ``reason``, ``clauses``, ``gap`` (the open
        variation point, for ``"gap"``), ``variation_points`` (with the readings consulted
        in trying it, when the game is watched).
    :ivar consulted: per applied action, the variation points whose readings the engine
        consulted to carry it out (empty lists when the game is not watched, see
        :func:`watch`).
    """

    state: State
    history: list[tuple[str, Step]]
    stopped_at: dict[str, Any] | None
    consulted: tuple[list[str], ...] = ()


def play_actions(game: Game, scenario: Scenario) -> Played:
    """Build the scenario's position for ``game`` and apply its actions until one is
    illegal or play stands at a gap (a variation point the ruleset leaves open).

    :returns: the :class:`Played` position, history and stopping action.
    :raises ScenarioError: if the position is impossible or an action cannot be read (the
        notation does not depend on the ruleset), naming the file and place.
    """
    from palast.formats.notation import parse_action

    state = scenario.start(game)
    actions: list[Action] = []
    for text, place in scenario.actions:  # every action is read, also those after a stop
        try:
            actions.append(parse_action(game, text))
        except NotationError as exc:
            raise ScenarioError(exc.message, scenario.file, place) from None
    history: list[tuple[str, Step]] = []
    applied: list[list[str]] = []
    consulted_points(game)  # what building the position read counts for the answer only
    for i, ((text, place), action) in enumerate(zip(scenario.actions, actions, strict=True)):
        d = state.decision
        stop: dict[str, Any] = {"index": i + 1, "action": text, "place": place or None, "gap": None}
        if d.kind == K.GAP:
            vp = game.spec.variation_points.get(d.point)
            stop.update(why="gap", gap=d.point, clauses=list(vp.clauses()) if vp else [],
                        reason=f"play stops at variation point {d.point}, which this ruleset leaves open",
                        variation_points=[d.point])
            return Played(state, history, stop, tuple(applied))
        if d.kind == K.GAME_OVER:
            stop.update(why="illegal", reason=describe_decision(game, state), clauses=[],
                        variation_points=[])
            return Played(state, history, stop, tuple(applied))
        try:
            step = game.apply(state, action)
        except IllegalActionError as exc:
            # the engine's reason says which action is due when this one is of another kind
            stop.update(why="illegal", reason=exc.message, clauses=list(exc.clauses),
                        variation_points=list(d.points))
            _extend(stop, consulted_points(game))  # a reading that forbids it (cupbearer-actor-duplicate)
            return Played(state, history, stop, tuple(applied))
        applied.append(consulted_points(game))
        history.append((text, step))
        state = step.state
    return Played(state, history, None, tuple(applied))



def _add(points: list[str], more: Any) -> None:
    for p in more:
        if p not in points:
            points.append(p)


def outcome(game: Game, action: Action, step: Step) -> dict[str, Any]:
    """What ``action`` leads to: events, round end, scores, who decides next, gap.

    :returns: a dict with ``action``, ``events``, ``round_end`` (``None``, ``"whisper"``,
        ``"six"``), ``scores`` (colour -> score), ``next_to_move`` (colour or ``None``),
        ``next_decision``, ``gap`` (variation point id or ``None``), ``winners`` and
        ``variation_points`` (points the outcome depends on).
    """
    s = step.state
    ended = [e for e in step.events if e.kind == "round_ended"]
    d = s.decision
    if d.kind == K.GAP:
        nxt = None
    elif d.kind == K.DEAL:
        nxt = game.colour_name(s.actor)
    elif d.player >= 0:
        nxt = game.colour_name(d.player)
    else:
        nxt = None
    points: list[str] = []
    for e in step.events:
        _add(points, e.points)
    _add(points, d.points)
    return {
        "action": format_action(game, action),
        "events": [event_dict(game, e) for e in step.events],
        "round_end": ended[0].detail if ended else None,
        "scores": {game.colour_name(i): v for i, v in enumerate(s.scores)},
        "next_to_move": nxt,
        "next_decision": d.kind,
        "next_legal_actions": [format_action(game, a) for a in game.legal_actions(s)],
        "gap": d.point if d.kind == K.GAP else None,
        "winners": [game.colour_name(w) for w in s.result.winners] if s.result else None,
        "variation_points": points,
        "position": describe_position(game, s),
    }


def answer_for(game: Game, state: State, history: list[tuple[str, Step]],
               stopped_at: dict[str, Any] | None = None,
               consulted: tuple[list[str], ...] = ()) -> dict[str, Any]:
    """The answer for one ruleset (see :func:`_answer`)."""
    return _answer(game, state, history, stopped_at, consulted)[0]


def _answer(game: Game, state: State, history: list[tuple[str, Step]],
            stopped_at: dict[str, Any] | None = None,
            consulted: tuple[list[str], ...] = ()) -> tuple[dict[str, Any], list[str]]:
    """The answer for one ruleset: the decision, legal actions and each one's outcome.

    :param state: the position to answer (after the scenario's actions, or where they
        stopped).
    :param history: the actions applied to reach it, with their steps.
    :param stopped_at: the stopping action (see :class:`Played`), or ``None``.
    :param consulted: per applied action, the points whose readings it consulted (see
        :class:`Played`).
    :returns: a dict with ``decision`` (``kind``, ``player``, ``text``, ``forced``,
        ``gap``, ``winners`` and ``tiebreak`` at a game end, ``variation_points``),
        ``legal_actions``, ``outcomes`` (see :func:`outcome`), ``variation_points`` (every
        point the answer depends on: named by its events and decisions, or read by the
        engine while computing it when ``game`` is watched, see :func:`watch`),
        ``position`` (lines of text), ``scores`` (colour -> score there), ``history``
        (applied actions with their events and ``variation_points``), ``stopped_at`` and
        ``readings_consulted`` (the points whose readings the engine consulted that no event
        or decision names); and the points named by events and decisions alone.
    """
    d = state.decision
    result = state.result if d.kind == K.GAME_OVER else None
    decision: dict[str, Any] = {
        "kind": d.kind,
        "player": game.colour_name(d.player) if d.player >= 0 else None,
        "text": describe_decision(game, state),
        "forced": d.forced,
        "gap": d.point if d.kind == K.GAP else None,
        "winners": [game.colour_name(w) for w in result.winners] if result else None,
        "tiebreak": (result.tiebreak or None) if result else None,
        "variation_points": list(d.points),
        "readings_consulted": [],
    }
    legal: list[str] = []
    outcomes: list[dict[str, Any]] = []
    named: list[str] = []  # the points named by events and decisions, in the order of old
    for _, step in history:
        for e in step.events:
            _add(named, e.points)
    _add(named, d.points)
    note = None
    consulted_points(game)
    if game.drawn_from(state) is not None:
        chances = game.chance_outcomes(state)
        _extend(decision, consulted_points(game))  # what listing them read
        for action, prob in chances:
            o = outcome(game, action, game.apply(state, action))
            _add(named, o["variation_points"])
            _extend(o, consulted_points(game))
            o["probability"] = str(prob)
            legal.append(o["action"])
            outcomes.append(o)
    elif d.kind == K.DEAL:
        note = "a chance deal of a new round; its outcomes are not enumerated"
    else:
        actions = game.legal_actions(state)
        _extend(decision, consulted_points(game))
        for action in actions:
            o = outcome(game, action, game.apply(state, action))
            _add(named, o["variation_points"])
            _extend(o, consulted_points(game))  # in carrying it out, and listing what follows
            legal.append(o["action"])
            outcomes.append(o)
    steps: list[dict[str, Any]] = []
    for i, (text, step) in enumerate(history):
        hp: list[str] = []
        for e in step.events:
            _add(hp, e.points)
        h = {"action": text, "events": [event_dict(game, e) for e in step.events], "variation_points": hp}
        _extend(h, consulted[i] if i < len(consulted) else [])
        steps.append(h)
    readings = all_consulted_points(game)
    points = [*named, *(p for p in readings if p not in named)]
    out: dict[str, Any] = {
        "decision": decision,
        "legal_actions": legal,
        "outcomes": outcomes,
        "variation_points": points,
        "position": describe_position(game, state),
        "scores": {game.colour_name(i): v for i, v in enumerate(state.scores)},
        "history": steps,
        "stopped_at": stopped_at,
        "readings_consulted": [p for p in readings if p not in named],
    }
    if note:
        out["note"] = note
    return out, named


def ask(spec: Spec, scenario: Scenario, rulesets: list[str] | None = None) -> dict[str, Any]:
    """Answer a scenario under each of its rulesets (or ``rulesets``).

    Under a ruleset where one of the scenario's actions is illegal, or play stands at a
    gap before it, the answer is for the position before that action, with the action
    named under ``stopped_at`` (see :func:`play_actions`). When the actions are illegal
    under every ruleset asked, that is the answer: ``not_legal`` is true and each
    ruleset's ``stopped_at`` says why, with its clause ids (``palast ask`` exits 1).

    :returns: the ``--json`` document: ``scenario``, ``title``, ``question``, ``players``,
        ``actions`` (the scenario's actions, in notation), ``warnings`` (character cards
        that some rulesets asked ignore, see
        :func:`palast.query.scenario_marks.marks_warnings`, and :func:`short_handed`),
        ``rulesets`` (ruleset -> answer,
        see :func:`answer_for`), ``variation_points`` (every point an answer depends on,
        under any ruleset), ``disagreements`` (see :func:`disagreements`) and
        ``not_legal``.
    :raises ScenarioError: if the scenario's position is impossible, an action cannot be
        read, or it gives character cards (``marks``) that no ruleset asked deals.
    """
    from palast.query.scenario_marks import marks_warnings

    results: dict[str, dict[str, Any]] = {}
    named: dict[str, list[str]] = {}
    chosen = rulesets or list(scenario.rulesets)
    marks = marks_warnings(spec, scenario, chosen)  # marks no ruleset asked deals: bad input
    game = None
    games: list[Game] = []
    for r in chosen:
        game = scenario.game(spec, r)
        games.append(game)
        watch(game)
        played = play_actions(game, scenario)
        results[r], named[r] = _answer(game, played.state, played.history, played.stopped_at, played.consulted)
        results[r]["notation"] = answer_position(game, scenario, played.history)
    stops = [res["stopped_at"] for res in results.values()]
    not_legal = bool(results) and all(s is not None and s["why"] == "illegal" for s in stops)
    players = [game.colour_name(s) for s in range(game.n)] if game else []
    return {
        "scenario": scenario.file,
        "title": scenario.title,
        "question": scenario.question,
        "players": players,
        "actions": [text for text, _ in scenario.actions],
        "warnings": [*marks, *(short_handed(game, scenario.start(game), games) if game else [])],
        "rulesets": results,
        # the points named by events and decisions first, then the other readings consulted
        "variation_points": list(dict.fromkeys([*(p for r in named.values() for p in r),
                                                *(p for r in results.values() for p in r["variation_points"])])),
        "disagreements": disagreements(results, spec),
        "not_legal": not_legal,
    }


#: the invariant :func:`short_handed` warns about
HAND_PLUS_DISPLAY = "hand-plus-display"


def short_handed(game: Game, state: State, games: Sequence[Game] = ()) -> list[str]:
    """Warnings for a scenario position no real deal leads to: during a round, a player
    whose hand and display together do not hold the hand size (invariant
    hand-plus-display; scenarios may leave cards out, so this is a warning, not an error).
    Under a ruleset whose rule modules break that invariant (a module's ``breaks``) such a
    position can be reached, so there is no warning when every game asked (``games``, else
    ``game`` alone) is of such a ruleset, and where only some are, the warning names the
    rulesets it is about.

    :returns: one sentence per such player (empty when every player holds the hand size,
        the position is between rounds, or no game asked keeps the invariant).
    """
    from palast.invariants.declared import checks

    k = state.decision.kind
    if k == K.DEAL or k == K.GAME_OVER:
        return []
    asked = games or [game]
    keeping = [g.ruleset for g in asked if HAND_PLUS_DISPLAY not in checks(g).suspended]
    if not keeping:
        return []
    under = f" under {listed(keeping)} (the others asked break the invariant)" if len(keeping) < len(asked) else ""
    out = []
    for s in range(game.n):
        held = len(state.hands[s]) + len(state.displays[s])
        if held != game.hand_size:
            out.append(f"{game.colour_name(s)} holds {counted(len(state.hands[s]))} in hand and displays "
                       f"{len(state.displays[s])}: in a round that began with a real deal, hand and display "
                       f"always hold {game.hand_size} together (invariant hand-plus-display), so the answer is "
                       f"about a position play cannot reach{under}")
    return out


def render_text(answer: dict[str, Any], *, clauses: bool = True, full: bool = False, width: int | None = None) -> str:
    """The answer as text for a terminal (see :mod:`palast.query.ask_render`): grouped by what
    the rulesets agree on and what differs, wrapped to ``width`` columns (the terminal's
    when ``None``); or, with ``full``, every ruleset in full, unwrapped."""
    from palast.query.ask_render import render_full, render_grouped

    return render_full(answer, clauses=clauses) if full else render_grouped(answer, clauses=clauses, width=width)


_LINE = re.compile(r"\bline (\d+)(?:, column (\d+))?")
#: A message that starts with its place, or lists several problems, each with its place.
_LEADING_LINE = re.compile(r"(?:\d+ problems:\n  - )?line (\d+)(?:, column (\d+))?")
#: The first of the problems a spec error lists, each with its file and place.
#: a place a message starts with: ``line 3, column 15 (scores.red): `` or ``column 8 (hands.red[0]): ``
_LEADING_PLACE = re.compile(r"((?:line \d+, )?column \d+(?: \([^()]*\))?|line \d+(?: \([^()]*\))?): ")
_FIRST_PROBLEM = re.compile(r"\d+ problems? in the spec:\n  - (.+?): line (\d+)(?:, column (\d+))?")


def error_document(error: InputError | str) -> dict[str, Any]:
    """Bad input as the ``--json`` document of ``palast ask``: ``{"error": {"file",
    "line", "column", "place", "message"}}``.

    :param error: the error, or the text of a command-line usage error (no file, no place).
    :returns: ``file`` (``None`` for a command-line argument; for a spec with problems, the
        file of the first), ``line`` and ``column``
        (1-based, from the error's place, or else from the start of its message or the
        first of several problems it lists; ``None`` when unknown), ``place`` (the place as written in the
        message: ``"line 4, column 3 (hands.red[0])"``, a key path or an option, or
        ``None``) and ``message`` (what is wrong).
    """
    if isinstance(error, str):
        return {"error": {"file": None, "line": None, "column": None, "place": None, "message": error}}
    first = _FIRST_PROBLEM.search(error.message) if not error.place else None
    if first:  # a spec with problems in its files: where the first of them is
        return {"error": {"file": first.group(1), "line": int(first.group(2)),
                          "column": int(first.group(3)) if first.group(3) else None,
                          "place": None, "message": error.message}}
    from palast.formats.position import FILE as POSITION

    place, message = error.place, error.message
    said = None if place else _LEADING_PLACE.match(message)
    if said:  # the message starts with the place (a schema's or a position line's problem): give it apart
        place, message = said.group(1), message[said.end():]
    column_only = re.match(r"column (\d+)", place or "")
    if column_only and (error.file == POSITION or re.fullmatch(r"column \d+", place or "")):
        # a position line: one line, the place is its column; the line is a command-line argument
        return {"error": {"file": None if error.file == POSITION else error.file, "line": 1,
                          "column": int(column_only.group(1)), "place": place, "message": message}}
    m = _LINE.search(place or "") or _LEADING_LINE.match(message)
    return {"error": {"file": None if error.file == POSITION else error.file, "line": int(m.group(1)) if m else None,
                      "column": int(m.group(2)) if m and m.group(2) else None, "place": place,
                      "message": message}}
