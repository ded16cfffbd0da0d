"""``palast ask``: what happens in a position, per ruleset, with the clauses behind it.

:func:`ask` computes the answer as plain data (the ``--json`` document described in the
README, section "Reading ``palast ask``"); :func:`render_text` prints it for a person.
:func:`play_actions` applies a scenario's actions under one ruleset as far as they go.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from palast.describe import describe_decision, describe_position, event_dict
from palast.engine.actions import Action
from palast.engine.game import Game, Step
from palast.engine.state import DecisionKind, State
from palast.errors import IllegalActionError, NotationError, ScenarioError
from palast.event_words import event_words
from palast.notation import format_action
from palast.position_notation import answer_position
from palast.scenario import Scenario
from palast.spec import Spec

K = DecisionKind

@dataclass(frozen=True)
class Played:
    """A scenario's position under one ruleset after its actions, as far as they apply.

    :ivar state: the position reached (before the stopping action, if one stopped play).
    :ivar history: each action applied, in notation, with its step.
    :ivar stopped_at: ``None`` when every action applied; otherwise the stopping action as
        JSON-ready data: ``index`` (1-based), ``action``, ``place`` (in the file),
        ``why`` (``"illegal"`` or ``"gap"``), ``reason``, ``clauses``, ``gap`` (the open
        variation point, for ``"gap"``), ``variation_points``.
    """

    state: State
    history: list[tuple[str, Step]]
    stopped_at: dict[str, Any] | None


def play_actions(game: Game, scenario: Scenario) -> Played:
    """Build the scenario's position for ``game`` and apply its actions until one is
    illegal or play stands at a gap (a variation point the ruleset leaves open).

    :returns: the :class:`Played` position, history and stopping action.
    :raises ScenarioError: if the position is impossible or an action cannot be read (the
        notation does not depend on the ruleset), naming the file and place.
    """
    from palast.notation import parse_action

    state = scenario.start(game)
    actions: list[Action] = []
    for text, place in scenario.actions:  # every action is read, also those after a stop
        try:
            actions.append(parse_action(game, text))
        except NotationError as exc:
            raise ScenarioError(exc.message, scenario.file, place) from None
    history: list[tuple[str, Step]] = []
    for i, ((text, place), action) in enumerate(zip(scenario.actions, actions, strict=True)):
        d = state.decision
        stop: dict[str, Any] = {"index": i + 1, "action": text, "place": place or None, "gap": None}
        if d.kind is K.GAP:
            vp = game.spec.variation_points.get(d.point)
            stop.update(why="gap", gap=d.point, clauses=list(vp.clauses()) if vp else [],
                        reason=f"play stops at variation point {d.point}, which this ruleset leaves open",
                        variation_points=[d.point])
            return Played(state, history, stop)
        if d.kind is K.GAME_OVER:
            stop.update(why="illegal", reason=describe_decision(game, state), clauses=[],
                        variation_points=[])
            return Played(state, history, stop)
        try:
            step = game.apply(state, action)
        except IllegalActionError as exc:
            # the engine's reason says which action is due when this one is of another kind
            stop.update(why="illegal", reason=exc.message, clauses=list(exc.clauses),
                        variation_points=list(d.points))
            return Played(state, history, stop)
        history.append((text, step))
        state = step.state
    return Played(state, history, None)


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
    if d.kind is K.GAP:
        nxt = None
    elif d.kind is K.DEAL:
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
        "next_decision": d.kind.value,
        "next_legal_actions": [format_action(game, a) for a in game.legal_actions(s)],
        "gap": d.point if d.kind is K.GAP else None,
        "winners": [game.colour_name(w) for w in s.result.winners] if s.result else None,
        "variation_points": points,
        "position": describe_position(game, s),
    }


def answer_for(game: Game, state: State, history: list[tuple[str, Step]],
               stopped_at: dict[str, Any] | None = None) -> dict[str, Any]:
    """The answer for one ruleset: the decision, legal actions and each one's outcome.

    :param state: the position to answer (after the scenario's actions, or where they
        stopped).
    :param history: the actions applied to reach it, with their steps.
    :param stopped_at: the stopping action (see :class:`Played`), or ``None``.
    :returns: a dict with ``decision`` (``kind``, ``player``, ``text``, ``forced``,
        ``gap``, ``winners`` and ``tiebreak`` at a game end), ``legal_actions``,
        ``outcomes`` (see :func:`outcome`), ``variation_points`` (every point the answer
        depends on, the applied actions' included), ``position`` (lines of text),
        ``history`` (applied actions with their events) and ``stopped_at``.
    """
    d = state.decision
    result = state.result if d.kind is K.GAME_OVER else None
    decision: dict[str, Any] = {
        "kind": d.kind.value,
        "player": game.colour_name(d.player) if d.player >= 0 else None,
        "text": describe_decision(game, state),
        "forced": d.forced,
        "gap": d.point if d.kind is K.GAP else None,
        "winners": [game.colour_name(w) for w in result.winners] if result else None,
        "tiebreak": (result.tiebreak or None) if result else None,
        "variation_points": list(d.points),
    }
    legal: list[str] = []
    outcomes: list[dict[str, Any]] = []
    note = None
    if d.kind in (K.DRAW, K.REVEAL):
        for action, prob in game.chance_outcomes(state):
            o = outcome(game, action, game.apply(state, action))
            o["probability"] = str(prob)
            legal.append(o["action"])
            outcomes.append(o)
    elif d.kind is K.DEAL:
        note = "a chance deal of a new round; its outcomes are not enumerated"
    else:
        for action in game.legal_actions(state):
            o = outcome(game, action, game.apply(state, action))
            legal.append(o["action"])
            outcomes.append(o)
    points: list[str] = []
    for _, step in history:
        for e in step.events:
            _add(points, e.points)
    _add(points, d.points)
    if stopped_at:
        _add(points, stopped_at["variation_points"])
    for o in outcomes:
        _add(points, o["variation_points"])
    out: dict[str, Any] = {
        "decision": decision,
        "legal_actions": legal,
        "outcomes": outcomes,
        "variation_points": points,
        "position": describe_position(game, state),
        "history": [{"action": text, "events": [event_dict(game, e) for e in step.events]} for text, step in history],
        "stopped_at": stopped_at,
    }
    if note:
        out["note"] = note
    return out


#: Event kinds that all say "the role's action has no effect" (for different reasons: a
#: muted role, a sixth card played, nothing to do, no action at all): outcomes that differ
#: only in which of these they name come to the same thing.
_NO_EFFECT = frozenset({"action_none", "action_void", "action_muted", "action_skipped", "action_not_carried_out"})


def _effects(events: Any) -> tuple[str, ...]:
    """The kinds of ``events`` (event dicts), each no-effect kind as ``"no_action"``."""
    return tuple("no_action" if e["kind"] in _NO_EFFECT else e["kind"] for e in events)


def _signature(o: dict[str, Any], position: bool = True) -> tuple[Any, ...]:
    """What an outcome comes to: its effects (event kinds, the reasons for no effect and
    the clauses cited aside), the round end, scores, who decides what next, the winners
    and, if ``position``, the position reached (hands, displays, decks, King cards)."""
    return (o["round_end"], tuple(sorted(o["scores"].items())), o["next_to_move"], o["next_decision"], o["gap"],
            _effects(o["events"]), tuple(o["winners"] or ()), tuple(o["position"]) if position else (),
            tuple(sorted(o["next_legal_actions"])))


def _details(per: dict[str, dict[str, Any]], position: bool = True) -> dict[str, list[str]]:
    """For each ruleset, the lines of its events (in words) and, if ``position``, of the
    position that not every ruleset in ``per`` shares (``per``: ruleset -> outcome or
    answer, with ``events`` or ``history``, and ``position``)."""
    lines: dict[str, list[object]] = {}
    for r, o in per.items():
        events = o["events"] if "events" in o else [e for h in o["history"] for e in h["events"]]
        # a player's line whole; the line of decks, King cards and round part by part
        parts = [p for x in o["position"] for p in (" ".join(x.split()).split("; ") if x.startswith("draw deck")
                                                    else [" ".join(x.split())])] if position else []
        nxt = [("next", a) for a in o.get("next_legal_actions", [])]
        lines[r] = [*(e["text"] for e in events), *parts, *nxt]
    common = set.intersection(*(set(v) for v in lines.values()))
    out: dict[str, list[str]] = {}
    for r, v in lines.items():
        own = [x for x in v if x not in common]
        then = [x[1] for x in own if isinstance(x, tuple)]
        out[r] = [x for x in own if isinstance(x, str)] + ([f"may then choose {', '.join(then)}"] if then else [])
    return out


def _summary(o: dict[str, Any]) -> str:
    if o["gap"]:
        return f"gap: {o['gap']}"
    parts = []
    if o["round_end"]:
        parts.append(f"round ends ({o['round_end']})")
    if o["winners"]:
        parts.append("winner " + ", ".join(o["winners"]))
    elif o["next_to_move"]:
        parts.append(f"next: {o['next_to_move']} ({o['next_decision']})")
    kinds = [e["kind"] for e in o["events"] if e["kind"] not in ("card_played", "next_player")]
    if kinds:
        parts.append("events: " + ", ".join(event_words(k) for k in kinds))
    return "; ".join(parts) or "nothing else happens"


def _points(*items: dict[str, Any]) -> list[str]:
    """The ``variation_points`` of answers or outcomes, merged in first-seen order."""
    seen: list[str] = []
    for it in items:
        _add(seen, it.get("variation_points", []))
    return seen


def _groups(keyed: dict[str, Any]) -> list[list[str]]:
    """Rulesets with equal keys, grouped, in first-seen order."""
    out: dict[Any, list[str]] = {}
    for r, k in keyed.items():
        out.setdefault(k, []).append(r)
    return list(out.values())


def _said(groups: list[list[str]], words: dict[str, str], sep: str = " | ") -> str:
    """Each group of rulesets with its answer in words; where the rulesets of a group came
    to the same answer for different reasons, each is named with its own words."""
    parts = []
    for g in groups:
        if len({words[r] for r in g}) == 1:
            parts.append(f"{_names(g)}: {words[g[0]]}")
        else:
            parts.append("; ".join(f"{r}: {words[r]}" for r in g))
    return sep.join(parts)


def _names(rulesets: list[str]) -> str:
    return " and ".join([", ".join(rulesets[:-1]), rulesets[-1]]) if len(rulesets) > 1 else rulesets[0]


def stop_words(stop: dict[str, Any] | None, n_actions: int, *, clauses: bool = True) -> str:
    """The stopping action (see :class:`Played`) in words, with its clause ids unless
    ``clauses`` is false; for ``None``, that all ``n_actions`` actions apply."""
    if stop is None:
        return "the action applies" if n_actions == 1 else f"all {n_actions} actions apply"
    head = f"action {stop['index']} ({stop['action']})"
    cite = f"  [{', '.join(stop['clauses'])}]" if stop["clauses"] and clauses else ""
    if stop["why"] == "gap":
        return f"{head} is not applied: {stop['reason']}{cite}"
    return f"{head} is illegal here: {stop['reason']}{cite}"


def disagreements(results: dict[str, dict[str, Any]], spec: Spec | None = None) -> list[dict[str, Any]]:
    """Where the rulesets' answers differ: how far the scenario's actions apply, the
    position they lead to, the decision, the legal actions, the outcome of an action legal
    in all of them (its events in words, the position it reaches, who decides next), or
    the winners at a game end.

    Decisions, legal actions and outcomes are compared between the rulesets that applied
    the same number of the scenario's actions (they answer the same question).

    :param results: ruleset -> answer (see :func:`answer_for`).
    :param spec: when given, each entry's ``variation_points`` keeps only the points whose
        readings differ between the rulesets compared (the points that explain the
        difference); all points involved are kept under ``involved``.
    :returns: one dict per difference: ``what`` (``actions``, ``position``, ``history``,
        ``decision``, ``legal_actions`` or ``outcome``), ``groups`` (lists of rulesets that give the same
        answer), ``rulesets`` (ruleset -> its answer in words), ``variation_points``,
        ``involved``, ``text``; ``action`` for an outcome (at a game end: the last action
        applied, with ``winners``: ruleset -> winners); ``only_in`` and ``actions``
        (action -> rulesets where it is legal) for legal actions; ``stopped_at`` (ruleset
        -> index of the stopping action, or ``None``) for actions.
    """
    out: list[dict[str, Any]] = []
    names = list(results)
    if len(names) < 2:
        return out

    def explain(points: list[str], among: list[str]) -> list[str]:
        if spec is None:
            return points
        differing = [p for p in points if p in spec.variation_points
                     and len({spec.variation_points[p].choices.get(r) for r in among}) > 1]
        return differing  # a point every ruleset compared reads alike explains nothing

    def entry(what: str, groups: list[list[str]], words: dict[str, str], points: list[str],
              text: str, **extra: Any) -> dict[str, Any]:
        among = [r for g in groups for r in g]
        return {"what": what, "groups": groups, "rulesets": words, "variation_points": explain(points, among),
                "involved": points, "text": text, **extra}

    stops = {r: results[r].get("stopped_at") for r in names}
    sgroups = _groups({r: (s["index"], s["why"], s["gap"]) if s else None for r, s in stops.items()})
    if len(sgroups) > 1:
        n_actions = max(len(results[r]["history"]) for r in names)  # a ruleset where every action applied
        words = {r: stop_words(stops[r], n_actions, clauses=False) for r in names}
        path: list[str] = []  # the points the applied actions and the stopping actions depend on
        for r in names:
            for h in results[r]["history"]:
                for e in h["events"]:
                    _add(path, e.get("variation_points", []))
            _add(path, (stops[r] or {}).get("variation_points", []))
        out.append(entry("actions", sgroups, words, path,
                         "the scenario's actions apply differently: "
                         + _said(sgroups, words, "; "),
                         stopped_at={r: s["index"] if s else None for r, s in stops.items()}))
    for among in _groups({r: len(results[r]["history"]) for r in names}):
        if len(among) > 1:
            stop = stops[among[0]]
            where = (f"before action {stop['index']} ({stop['action']}), where {_names(among)} stop: "
                     if stop else "")
            out.extend(_compare({r: results[r] for r in among}, entry, where))
    return out


def _compare(results: dict[str, dict[str, Any]], entry: Any, where: str) -> list[dict[str, Any]]:
    """The differences between rulesets that applied the same actions (see
    :func:`disagreements`); ``where`` prefixes each text."""
    out: list[dict[str, Any]] = []
    names = list(results)
    decs = {r: results[r]["decision"] for r in names}
    dgroups = _groups({r: (d["kind"], d["player"], d["gap"], d["forced"], tuple(d["winners"] or ()))
                       for r, d in decs.items()})
    pgroups = _groups({r: tuple(results[r]["position"]) for r in names})
    same_start = len(pgroups) == 1
    if not same_start:
        only = _details(results)
        words = {r: "; ".join(only[r]) for r in names}
        out.append(entry("position", pgroups, words, _history_points(*results.values()),
                         where + "the scenario's actions lead to different positions: "
                         + _said(pgroups, words)))
    elif len(dgroups) == 1:
        # the same position and decision, reached through different effects (a hand shown
        # under one ruleset only, say); a different decision is reported below instead
        hgroups = _groups({r: _effects(e for h in results[r]["history"] for e in h["events"]) for r in names})
        if len(hgroups) > 1:
            only = _details(results, position=False)
            words = {r: "; ".join(only[r]) for r in names}
            out.append(entry("history", hgroups, words, _history_points(*results.values()),
                             where + "the scenario's actions play out differently: "
                             + _said(hgroups, words)))
    if all(d["kind"] == K.GAME_OVER.value for d in decs.values()):
        # the game is over everywhere: the question is who won (game-end-tiebreak,
        # final-tie); the same winners by different tie-breaks are no disagreement
        wgroups = _groups({r: tuple(d["winners"] or ()) for r, d in decs.items()})
        if len(wgroups) > 1:
            history = results[names[0]]["history"]
            last = history[-1]["action"] if history else None
            words = {r: decs[r]["text"] for r in names}
            out.append(entry("outcome", wgroups, words, _points(*results.values()),
                             where + (f"{last}: " if last else "") + "the rulesets choose different winners: "
                             + _said(wgroups, words),
                             action=last, winners={r: decs[r]["winners"] for r in names}))
        return out
    if len(dgroups) > 1:
        words = {r: decs[r]["text"] for r in names}
        out.append(entry("decision", dgroups, words, _history_points(*results.values()),
                         where + "the rulesets disagree on what must be decided: "
                         + _said(dgroups, words, "; ")))
    legal = {r: set(results[r]["legal_actions"]) for r in names}
    common = set.intersection(*legal.values())
    if any(legal[r] != common for r in names):
        only = {r: sorted(legal[r] - common) for r in names}
        every = sorted(set.union(*legal.values()) - common)
        in_rulesets = {a: [r for r in names if a in legal[r]] for a in every}
        lgroups = _groups({r: frozenset(legal[r]) for r in names})
        words = {r: f"{len(legal[r])} legal actions" + (f", among them {', '.join(only[r])}" if only[r] else "")
                 for r in names}
        text = where + "legal actions differ: " + "; ".join(
            f"{a} is legal under {_names(rs)} only" for a, rs in in_rulesets.items())
        out.append(entry("legal_actions", lgroups, words, _history_points(*results.values()), text, only_in=only,
                         actions=in_rulesets))
    for action in results[names[0]]["legal_actions"]:
        if action not in common:
            continue
        per = {r: next(o for o in results[r]["outcomes"] if o["action"] == action) for r in names}
        # where the positions answered differ already, so do the positions reached: compare
        # the rest of the outcome then
        ogroups = _groups({r: _signature(o, same_start) for r, o in per.items()})
        if len(ogroups) > 1:
            only = _details(per, same_start)
            words = {r: "; ".join([_summary(o), *only[r]]) for r, o in per.items()}
            out.append(entry("outcome", ogroups, words, _points(*per.values()),
                             where + f"{action}: " + _said(ogroups, words),
                             action=action))
    return out


def _history_points(*answers: dict[str, Any]) -> list[str]:
    """The variation points the answers' positions and decisions depend on: those of the
    applied actions' events, of the stopping action and of the decision (not those of the
    outcomes of the legal actions)."""
    seen: list[str] = []
    for a in answers:
        for h in a["history"]:
            for e in h["events"]:
                _add(seen, e.get("variation_points", []))
        _add(seen, (a.get("stopped_at") or {}).get("variation_points", []))
        _add(seen, a["decision"].get("variation_points", []))
    return seen


def _all_illegal(scenario: Scenario, stops: dict[str, dict[str, Any]]) -> ScenarioError:
    """The error for actions illegal under every ruleset asked: each ruleset's reason,
    placed at the earliest stopping action."""
    first = min(stops.values(), key=lambda s: s["index"])
    parts: list[str] = []
    for index in sorted({s["index"] for s in stops.values()}):
        here = {r: s for r, s in stops.items() if s["index"] == index}
        why = {r: s["reason"] + (f" [{', '.join(s['clauses'])}]" if s["clauses"] else "") for r, s in here.items()}
        reasons = "; ".join(f"under {g[0]}: {why[g[0]]}" + (f" (the same under {_names(g[1:])})" if g[1:] else "")
                            for g in _groups(why))
        parts.append(f"action {index} ({next(iter(here.values()))['action']!r}) is illegal {reasons}")
    return ScenarioError("; ".join(parts), scenario.file, first["place"])


def ask(spec: Spec, scenario: Scenario, rulesets: list[str] | None = None) -> dict[str, Any]:
    """Answer a scenario under each of its rulesets (or ``rulesets``).

    Under a ruleset where one of the scenario's actions is illegal, or play stands at a
    gap before it, the answer is for the position before that action, with the action
    named under ``stopped_at`` (see :func:`play_actions`).

    :returns: the ``--json`` document: ``scenario``, ``title``, ``question``, ``players``,
        ``actions`` (the scenario's actions, in notation), ``warnings`` (see
        :func:`short_handed`), ``rulesets`` (ruleset -> answer,
        see :func:`answer_for`), ``variation_points`` (every point an answer depends on,
        under any ruleset) and ``disagreements`` (see :func:`disagreements`).
    :raises ScenarioError: if the scenario's position is impossible, an action cannot be
        read, or the actions are illegal under every ruleset asked (with each one's reason
        and clause ids).
    """
    results: dict[str, dict[str, Any]] = {}
    chosen = rulesets or list(scenario.rulesets)
    game = None
    for r in chosen:
        game = scenario.game(spec, r)
        played = play_actions(game, scenario)
        results[r] = answer_for(game, played.state, played.history, played.stopped_at)
        results[r]["notation"] = answer_position(game, scenario, played.history)
    stops = {r: res["stopped_at"] for r, res in results.items() if res["stopped_at"]}
    if results and len(stops) == len(results) and all(s["why"] == "illegal" for s in stops.values()):
        raise _all_illegal(scenario, stops)
    players = [game.colour_name(s) for s in range(game.n)] if game else []
    return {
        "scenario": scenario.file,
        "title": scenario.title,
        "question": scenario.question,
        "players": players,
        "actions": [text for text, _ in scenario.actions],
        "warnings": short_handed(game, scenario.start(game)) if game else [],
        "rulesets": results,
        "variation_points": list(dict.fromkeys(p for r in results.values() for p in r["variation_points"])),
        "disagreements": disagreements(results, spec),
    }


def short_handed(game: Game, state: State) -> list[str]:
    """Warnings for a scenario position no real deal leads to: during a round, a player
    whose hand and display together do not hold the hand size (invariant
    hand-plus-display; scenarios may leave cards out, so this is a warning, not an error).

    :returns: one sentence per such player (empty when every player holds the hand size
        or the position is between rounds).
    """
    k = state.decision.kind
    if k is K.DEAL or k is K.GAME_OVER:
        return []
    out = []
    for s in range(game.n):
        held = len(state.hands[s]) + len(state.displays[s])
        if held != game.hand_size:
            out.append(f"{game.colour_name(s)} holds {len(state.hands[s])} card(s) in hand and displays "
                       f"{len(state.displays[s])}: in a round that began with a real deal, hand and display "
                       f"always hold {game.hand_size} together (invariant hand-plus-display), so the answer is "
                       "about a position play cannot reach")
    return out


def _event_lines(events: list[dict[str, Any]], clauses: bool) -> list[str]:
    lines = []
    for e in events:
        cite = f"  [{', '.join(e['clauses'])}]" if clauses else ""
        vp = f" (variation point: {', '.join(e['variation_points'])})" if e.get("variation_points") else ""
        lines.append(f"      - {e['text']}{vp}{cite}")
    return lines


def _position_label(answer: dict[str, Any], n_actions: int) -> str:
    """What the position shown once for every ruleset is: after how many of the
    scenario's ``n_actions`` actions (the same under every ruleset, or not)."""
    applied = {len(res["history"]) for res in answer["rulesets"].values()}
    plural = "s" if n_actions > 1 else ""
    if len(applied) > 1:
        return f"the position reached (after a different number of the scenario's {n_actions} actions per ruleset)"
    k = applied.pop()
    if k == n_actions:
        return f"the position after the scenario's {n_actions} action{plural}"
    if k == 0:
        return f"the position as given (the scenario's {n_actions} action{plural} applied under no ruleset)"
    return f"the position after the first {k} of the scenario's {n_actions} actions"


def render_text(answer: dict[str, Any], *, clauses: bool = True) -> str:
    """The answer as text for a terminal: per ruleset the actions applied with their
    events, where they stopped, the decision, each legal action's outcome with events and
    clause ids, then where the rulesets disagree."""
    lines: list[str] = []
    head = answer.get("title") or answer["scenario"]
    lines.append(f"== {head}")
    if answer.get("question"):
        lines.append(f"Q: {answer['question']}")
    lines.extend(f"   warning: {w}" for w in answer.get("warnings", []))
    positions = [res["position"] for res in answer["rulesets"].values()]
    same = all(p == positions[0] for p in positions)
    n_actions = len(answer.get("actions", []))
    if positions and same:
        if n_actions:
            lines.append(f"   {_position_label(answer, n_actions)}:")
        lines.extend("   " + x for x in positions[0])
        lines.extend(f"   as one line: {x}" for x in dict.fromkeys(r["notation"] for r in answer["rulesets"].values()))
    for r, res in answer["rulesets"].items():
        stop = res.get("stopped_at")
        lines.append("")
        if stop:
            lines.append(f"-- ruleset {r}: {stop_words(stop, n_actions, clauses=clauses)}")
        else:
            lines.append(f"-- ruleset {r}: {res['decision']['text']}")
        for h in res["history"]:
            lines.append(f"   (applied) {h['action']}")
            lines.extend(_event_lines(h["events"], clauses))
        if not same:  # the scenario's actions led to different positions under the rulesets
            lines.extend(["   " + x for x in res["position"]] + [f"   as one line: {res['notation']}"])
        if stop and stop["why"] != "gap":
            lines.append(f"   instead, {res['decision']['text']}")
        if res.get("note"):
            lines.append(f"   {res['note']}")
        for o in res["outcomes"]:
            prob = f"  [p = {o['probability']}]" if "probability" in o else ""
            lines.append(f"   {o['action']}{prob}")
            lines.extend(_event_lines(o["events"], clauses))
            tail = []
            if o["gap"]:
                tail.append(f"gap: {o['gap']}")
            elif o["winners"]:
                tail.append("winner: " + ", ".join(o["winners"]))
            elif o["next_to_move"]:
                tail.append(f"next: {o['next_to_move']} ({o['next_decision']})")
            tail.append("scores " + " ".join(f"{k}={v}" for k, v in o["scores"].items()))
            lines.append("      => " + "; ".join(tail))
        if res["variation_points"]:
            lines.append(f"   depends on variation points: {', '.join(res['variation_points'])}")
    lines.append("")
    dis = answer["disagreements"]
    if len(answer["rulesets"]) < 2:
        lines.append("one ruleset asked; nothing to compare")
    elif not dis:
        lines.append(f"the rulesets agree ({', '.join(answer['rulesets'])})")
    else:
        lines.append(f"the rulesets disagree in {len(dis)} place{'s' if len(dis) != 1 else ''}:")
        for x in dis:
            vp = f" [variation points: {', '.join(x['variation_points'])}]" if x["variation_points"] else ""
            lines.append(f"   * {x['text']}{vp}")
    return "\n".join(lines)
