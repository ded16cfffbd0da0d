"""``palast ask``: what happens in a position, per ruleset, with the clauses behind it.

:func:`ask` computes the answer as plain data (the ``--json`` contract of DESIGN.md);
:func:`render_text` prints it for a person.
"""

from __future__ import annotations

from typing import Any

from palast.describe import describe_decision, describe_position, event_dict
from palast.engine.actions import Action
from palast.engine.game import Game, Step
from palast.engine.state import DecisionKind, State
from palast.notation import format_action
from palast.scenario import Scenario
from palast.spec import Spec

K = DecisionKind


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
        for p in e.points:
            if p not in points:
                points.append(p)
    for p in d.points:
        if p not in points:
            points.append(p)
    return {
        "action": format_action(game, action),
        "events": [event_dict(game, e) for e in step.events],
        "round_end": ended[0].detail if ended else None,
        "scores": {game.colour_name(i): v for i, v in enumerate(s.scores)},
        "next_to_move": nxt,
        "next_decision": d.kind.value,
        "gap": d.point if d.kind is K.GAP else None,
        "winners": [game.colour_name(w) for w in s.result.winners] if s.result else None,
        "variation_points": points,
    }


def answer_for(game: Game, state: State, history: list[tuple[str, Step]]) -> dict[str, Any]:
    """The answer for one ruleset: the decision, legal actions and each one's outcome."""
    d = state.decision
    decision: dict[str, Any] = {
        "kind": d.kind.value,
        "player": game.colour_name(d.player) if d.player >= 0 else None,
        "text": describe_decision(game, state),
        "forced": d.forced,
        "gap": d.point if d.kind is K.GAP else None,
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
    points: list[str] = list(d.points)
    for o in outcomes:
        for p in o["variation_points"]:
            if p not in points:
                points.append(p)
    out: dict[str, Any] = {
        "decision": decision,
        "legal_actions": legal,
        "outcomes": outcomes,
        "variation_points": points,
        "position": describe_position(game, state),
        "history": [{"action": text, "events": [event_dict(game, e) for e in step.events]} for text, step in history],
    }
    if note:
        out["note"] = note
    return out


def _signature(o: dict[str, Any]) -> tuple[Any, ...]:
    return (o["round_end"], tuple(sorted(o["scores"].items())), o["next_to_move"], o["next_decision"], o["gap"],
            tuple(e["kind"] for e in o["events"]), tuple(o["winners"] or ()))


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
        parts.append("events: " + ", ".join(kinds))
    return "; ".join(parts) or "nothing else happens"


def _groups(keyed: dict[str, Any]) -> list[list[str]]:
    """Rulesets with equal keys, grouped, in first-seen order."""
    out: dict[Any, list[str]] = {}
    for r, k in keyed.items():
        out.setdefault(k, []).append(r)
    return list(out.values())


def _names(rulesets: list[str]) -> str:
    return " and ".join([", ".join(rulesets[:-1]), rulesets[-1]]) if len(rulesets) > 1 else rulesets[0]


def disagreements(results: dict[str, dict[str, Any]], spec: Spec | None = None) -> list[dict[str, Any]]:
    """Where the rulesets' answers differ: the decision, the legal actions, or the outcome
    of an action legal in all of them.

    :param results: ruleset -> answer (see :func:`answer_for`).
    :param spec: when given, each entry's ``variation_points`` keeps only the points whose
        readings differ between the rulesets compared (the points that explain the
        difference); all points involved are kept under ``involved``.
    :returns: one dict per difference: ``what`` (``decision``, ``legal_actions`` or
        ``outcome``), ``groups`` (lists of rulesets that give the same answer),
        ``rulesets`` (ruleset -> its answer in words), ``variation_points``, ``involved``,
        ``text``; ``action`` for an outcome; ``only_in`` and ``actions`` (action ->
        rulesets where it is legal) for legal actions.
    """
    out: list[dict[str, Any]] = []
    names = list(results)
    if len(names) < 2:
        return out

    def pts(*items: dict[str, Any]) -> list[str]:
        seen: list[str] = []
        for it in items:
            for p in it.get("variation_points", []):
                if p not in seen:
                    seen.append(p)
        return seen

    def explain(points: list[str]) -> list[str]:
        if spec is None:
            return points
        differing = [p for p in points if p in spec.variation_points
                     and len({spec.variation_points[p].choices.get(r) for r in names}) > 1]
        return differing or points

    def entry(what: str, groups: list[list[str]], words: dict[str, str], points: list[str],
              text: str, **extra: Any) -> dict[str, Any]:
        return {"what": what, "groups": groups, "rulesets": words, "variation_points": explain(points),
                "involved": points, "text": text, **extra}

    decs = {r: results[r]["decision"] for r in names}
    dgroups = _groups({r: (d["kind"], d["player"], d["gap"], d["forced"]) for r, d in decs.items()})
    if len(dgroups) > 1:
        words = {r: decs[r]["text"] for r in names}
        out.append(entry("decision", dgroups, words, pts(*results.values()),
                         "the rulesets disagree on what must be decided: "
                         + "; ".join(f"{_names(g)}: {words[g[0]]}" for g in dgroups)))
    legal = {r: set(results[r]["legal_actions"]) for r in names}
    common = set.intersection(*legal.values())
    if any(legal[r] != common for r in names):
        only = {r: sorted(legal[r] - common) for r in names}
        every = sorted(set.union(*legal.values()) - common)
        where = {a: [r for r in names if a in legal[r]] for a in every}
        lgroups = _groups({r: frozenset(legal[r]) for r in names})
        words = {r: f"{len(legal[r])} legal actions" + (f", among them {', '.join(only[r])}" if only[r] else "")
                 for r in names}
        text = "legal actions differ: " + "; ".join(
            f"{a} is legal under {_names(rs)} only" for a, rs in where.items())
        out.append(entry("legal_actions", lgroups, words, pts(*results.values()), text, only_in=only,
                         actions=where))
    for action in results[names[0]]["legal_actions"]:
        if action not in common:
            continue
        per = {r: next(o for o in results[r]["outcomes"] if o["action"] == action) for r in names}
        ogroups = _groups({r: _signature(o) for r, o in per.items()})
        if len(ogroups) > 1:
            words = {r: _summary(o) for r, o in per.items()}
            out.append(entry("outcome", ogroups, words, pts(*per.values()),
                             f"{action}: " + " | ".join(f"{_names(g)}: {words[g[0]]}" for g in ogroups),
                             action=action))
    return out


def ask(spec: Spec, scenario: Scenario, rulesets: list[str] | None = None) -> dict[str, Any]:
    """Answer a scenario under each of its rulesets (or ``rulesets``).

    :returns: the ``--json`` document: ``scenario``, ``players``, ``rulesets`` (ruleset ->
        answer, see :func:`answer_for`), ``variation_points`` (every point an answer
        depends on, under any ruleset) and ``disagreements`` (see :func:`disagreements`).
    :raises ScenarioError: if the scenario's position or actions are impossible under a
        ruleset.
    """
    results: dict[str, dict[str, Any]] = {}
    chosen = rulesets or list(scenario.rulesets)
    game = None
    for r in chosen:
        game = scenario.game(spec, r)
        state, history = scenario.position(game)
        results[r] = answer_for(game, state, history)
    players = [game.colour_name(s) for s in range(game.n)] if game else []
    return {
        "scenario": scenario.file,
        "title": scenario.title,
        "question": scenario.question,
        "players": players,
        "rulesets": results,
        "variation_points": list(dict.fromkeys(p for r in results.values() for p in r["variation_points"])),
        "disagreements": disagreements(results, spec),
    }


def render_text(answer: dict[str, Any], *, clauses: bool = True) -> str:
    """The answer as text for a terminal: per ruleset the decision, each legal action's
    outcome with events and clause ids, then where the rulesets disagree."""
    lines: list[str] = []
    head = answer.get("title") or answer["scenario"]
    lines.append(f"== {head}")
    if answer.get("question"):
        lines.append(f"Q: {answer['question']}")
    positions = [res["position"] for res in answer["rulesets"].values()]
    same = all(p == positions[0] for p in positions)
    if positions and same:
        lines.extend("   " + x for x in positions[0])
    for r, res in answer["rulesets"].items():
        lines.append("")
        lines.append(f"-- ruleset {r}: {res['decision']['text']}")
        if not same:  # the scenario's actions led to different positions under the rulesets
            lines.extend("   " + x for x in res["position"])
        for h in res["history"]:
            lines.append(f"   (applied) {h['action']}")
        if res.get("note"):
            lines.append(f"   {res['note']}")
        for o in res["outcomes"]:
            prob = f"  [p = {o['probability']}]" if "probability" in o else ""
            lines.append(f"   {o['action']}{prob}")
            for e in o["events"]:
                cite = f"  [{', '.join(e['clauses'])}]" if clauses else ""
                vp = f" (variation point: {', '.join(e['variation_points'])})" if e.get("variation_points") else ""
                lines.append(f"      - {e['text']}{vp}{cite}")
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
