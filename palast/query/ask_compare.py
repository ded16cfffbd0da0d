"""Where the rulesets' answers to a scenario differ (the ``disagreements`` of ``palast ask``).

:func:`disagreements` compares the answers :func:`palast.query.ask.answer_for` computes, one per
ruleset; the helpers here also name groups of rulesets and stopping actions in words for
:mod:`palast.query.ask_render`.
"""

from __future__ import annotations

from typing import Any

from palast.engine.state import DecisionKind
from palast.query.describe import event_words
from palast.spec.event_text import listed
from palast.spec.load import Spec

K = DecisionKind


def _add(points: list[str], more: Any) -> None:
    for p in more:
        if p not in points:
            points.append(p)


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


def _summary(o: dict[str, Any], spec: Spec | None) -> str:
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
        parts.append("events: " + ", ".join(event_words(spec, k) if spec is not None else k for k in kinds))
    return "; ".join(parts) or "nothing else happens"


def _merged(items: list[dict[str, Any]]) -> list[str]:
    """The ``variation_points`` of ``items`` (answers, outcomes, decisions, events, ...)
    merged in first-seen order: first the points their events and decisions name, then the
    other readings the engine consulted (each item's ``readings_consulted``)."""
    seen: list[str] = []
    for it in items:
        extra = it.get("readings_consulted", ())
        _add(seen, [p for p in it.get("variation_points", []) if p not in extra])
    for it in items:
        _add(seen, it.get("variation_points", []))
    return seen


def _points(*items: dict[str, Any]) -> list[str]:
    """The ``variation_points`` of answers or outcomes, merged (see :func:`_merged`)."""
    return _merged(list(items))


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
    return listed(rulesets)


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


def not_legal_words(results: dict[str, dict[str, Any]], *, clauses: bool = True) -> str:
    """Why the scenario's actions are illegal under every ruleset of ``results`` (each
    answer stopped at an illegal action, see :class:`palast.query.ask.Played`): per group of
    rulesets with the same reason, the action, the reason and, unless ``clauses`` is
    false, its clause ids."""
    stops = {r: res["stopped_at"] for r, res in results.items()}
    why = {r: (s["index"], s["action"], s["reason"], tuple(s["clauses"])) for r, s in stops.items()}
    parts = []
    for g in _groups(why):
        index, action, reason, cited = why[g[0]]
        cite = f"  [{', '.join(cited)}]" if cited and clauses else ""
        parts.append(f"under {_names(g)}, action {index} ({action}) is illegal: {reason}{cite}")
    every = "the ruleset asked" if len(results) == 1 else "every ruleset asked"
    return f"not legal under {every}: " + "; ".join(parts)


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
        # the points the applied actions and the stopping actions depend on
        path = _merged([x for r in names for x in (*(y for h in results[r]["history"] for y in (*h["events"], h)),
                                                   stops[r] or {})])
        out.append(entry("actions", sgroups, words, path,
                         "the scenario's actions apply differently: "
                         + _said(sgroups, words, "; "),
                         stopped_at={r: s["index"] if s else None for r, s in stops.items()}))
    for among in _groups({r: len(results[r]["history"]) for r in names}):
        if len(among) > 1:
            stop = stops[among[0]]
            where = (f"before action {stop['index']} ({stop['action']}), where {_names(among)} stop: "
                     if stop else "")
            out.extend(_compare({r: results[r] for r in among}, entry, where, spec))
    return out


def _compare(results: dict[str, dict[str, Any]], entry: Any, where: str, spec: Spec | None) -> list[dict[str, Any]]:
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
            words = {r: "; ".join([_summary(o, spec), *only[r]]) for r, o in per.items()}
            out.append(entry("outcome", ogroups, words, _points(*per.values()),
                             where + f"{action}: " + _said(ogroups, words),
                             action=action))
    return out


def _history_points(*answers: dict[str, Any]) -> list[str]:
    """The variation points the answers' positions and decisions depend on: those of the
    applied actions (their events and the readings consulted), of the stopping action and
    of the decision (not those of the outcomes of the legal actions)."""
    items: list[dict[str, Any]] = []
    for a in answers:
        for h in a["history"]:
            items.extend(h["events"])
            items.append(h)
        items.append(a.get("stopped_at") or {})
        items.append(a["decision"])
    return _merged(items)
