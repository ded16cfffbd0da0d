"""``palast ask`` answers as text for a terminal.

:func:`render_full` is the layout of every ruleset in full (``palast ask --full``);
:func:`render_grouped` prints what the rulesets agree on once and then only what differs,
by group of rulesets that answer alike, wrapped to a width.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from palast.query.ask_compare import _names, not_legal_words, stop_words
from palast.spec.event_text import counted


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
        return ("the position reached (after a different number of the scenario's "
                f"{counted(n_actions, 'action', 'actions')} per ruleset)")
    k = applied.pop()
    if k == n_actions:
        return f"the position after the scenario's {n_actions} action{plural}"
    if k == 0:
        return f"the position as given (the scenario's {n_actions} action{plural} applied under no ruleset)"
    return f"the position after the first {k} of the scenario's {n_actions} actions"


def render_full(answer: dict[str, Any], *, clauses: bool = True) -> str:
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
    if answer.get("not_legal"):
        lines.append(not_legal_words(answer["rulesets"], clauses=clauses))
    return "\n".join(lines)



# ---------------------------------------------------------------------- grouped, wrapped
#: A piece of an answer's text: its words and the clause ids it cites (joined, or ``""``).
Seg = tuple[str, str]
Segs = tuple[Seg, ...]

#: What marks the part of a piece that differs by ruleset.
_BELOW = "(by ruleset: below)"


def _cite(x: dict[str, Any]) -> str:
    return ", ".join(x.get("clauses") or ())


def _vp(x: dict[str, Any]) -> str:
    return f" (variation point: {', '.join(x['variation_points'])})" if x.get("variation_points") else ""


#: The note :func:`_vp` adds to a piece's words.
_VP_NOTE = re.compile(r" \(variation point: ([^()]*)\)")


def _unnamed(text: str, named: list[str]) -> str:
    """``text`` with the points of ``named`` left out of its variation point notes (see
    :func:`_vp`): a heading that names them already; a note left with none goes."""
    def keep(m: re.Match[str]) -> str:
        rest = [p for p in m.group(1).split(", ") if p not in named]
        return f" (variation point: {', '.join(rest)})" if rest else ""

    return _VP_NOTE.sub(keep, text) if named else text


def _played(action: str) -> str | None:
    return action.removeprefix("play ") if action.startswith("play ") else None


def _step(head: str, events: list[dict[str, Any]], following: str | None, action: str | None = None) -> Segs:
    """An action and its events as pieces: the action (with the clause ids of the card
    played: that event is the action itself), each other event, and ``following`` (``=>
    next: ...``, with the clause ids of the event naming the next player) when given."""
    played = _played(action or head)
    first: Seg = (head, "")
    rest: list[Seg] = []
    tail: Seg | None = (f"=> {following}", "") if following else None
    merged_next = False
    for e in events:
        if played and e["kind"] == "card_played" and e["text"].endswith(f" plays {played}") and not first[1]:
            first = (first[0] + _vp(e), _cite(e))
        elif (tail and not merged_next and e["kind"] == "next_player" and e["text"].endswith(" takes the next turn")
              and tail[0].startswith(f"=> next: {e['text'].split()[0]} (")):
            tail, merged_next = (tail[0] + _vp(e), _cite(e)), True
        else:
            rest.append((f"{e['text']}{_vp(e)}", _cite(e)))
    return (first, *rest, *([tail] if tail else []))


def _outcome(o: dict[str, Any], before: dict[str, int] | None) -> Segs:
    """An outcome as pieces: the action (and its probability), its events, who decides
    next and the scores, when they change."""
    if o["gap"]:
        then = f"gap: {o['gap']}"
    elif o["winners"]:
        then = "winner: " + ", ".join(o["winners"])
    elif o["next_to_move"]:
        then = f"next: {o['next_to_move']} ({o['next_decision']})"
    else:
        then = ""
    if before is None or o["scores"] != before:
        then += ("; " if then else "") + "scores " + " ".join(f"{k}={v}" for k, v in o["scores"].items())
    segs = _step(o["action"], o["events"], then or None)
    return (segs[0], (f"probability {o['probability']}", ""), *segs[1:]) if "probability" in o else segs


def _position_lines(res: dict[str, Any]) -> list[str]:
    """A ruleset's answered position as printed: its lines, then the position in one line."""
    return [*res["position"], f"as one line: {res['notation']}"] if "notation" in res else list(res["position"])


def _items(res: dict[str, Any], n_actions: int, shown: list[str]) -> dict[Any, Segs]:
    """One ruleset's answer as keyed pieces, in the order they are printed: ``head`` (the
    decision, or where the actions stopped), each applied action, the position (its lines
    not in ``shown``, the lines every ruleset shares), ``instead``, ``note``, each legal
    action's outcome, the variation points."""
    out: dict[Any, Segs] = {}
    stop = res.get("stopped_at")
    if stop:
        out["head"] = ((stop_words(stop, n_actions, clauses=False), ", ".join(stop["clauses"])),)
    else:
        out["head"] = ((res["decision"]["text"], ""),)
    for i, h in enumerate(res["history"]):
        out["history", i] = _step(f"(applied) {h['action']}", h["events"], None, h["action"])
    own = tuple((x, "") for x in _position_lines(res) if x not in shown)
    if own:
        out["position"] = own
    if stop and stop["why"] != "gap":
        out["instead"] = ((f"instead, {res['decision']['text']}", ""),)
    if res.get("note"):
        out["note"] = ((res["note"], ""),)
    for o in res["outcomes"]:
        out["outcome", o["action"]] = _outcome(o, res.get("scores"))
    if res["variation_points"]:
        out["points"] = ((", ".join(sorted(res["variation_points"])), ""),)
    return out


def _texts(segs: Segs | None) -> tuple[str, ...] | None:
    return None if segs is None else tuple(t for t, _ in segs)


def _cited(per: dict[str, Segs], clauses: bool) -> list[Seg]:
    """The pieces that every ruleset of ``per`` says alike (the same words), each with its
    clause ids: once when they all cite the same, else by group of rulesets."""
    first = next(iter(per.values()))
    out: list[Seg] = []
    for i, (text, _) in enumerate(first):
        cites = {r: segs[i][1] for r, segs in per.items()}
        if not clauses or not any(cites.values()):
            out.append((text, ""))
        elif len(set(cites.values())) == 1:
            out.append((text, cites[next(iter(cites))]))
        else:
            by: dict[str, list[str]] = {}
            for r, c in cites.items():
                by.setdefault(c, []).append(r)
            out.append((text, "; ".join(f"{_names(rs)}: {c or 'none'}" for c, rs in by.items())))
    return out


def _joined(pieces: list[Seg]) -> list[str]:
    return [f"{t}  [{c}]" if c else t for t, c in pieces]


def _para(pieces: list[Seg], above: list[Seg] | None = None) -> str:
    """Pieces as one paragraph: the first (an action), a colon, the rest joined by ``;``.
    A long citation that the paragraph ``above`` makes at the same place is written
    ``[as above]``."""
    if above:
        pieces = [(t, "as above" if len(c) > 30 and i < len(above) and above[i][1] == c else c)
                  for i, (t, c) in enumerate(pieces)]
    said = _joined(pieces)
    return said[0] + (": " + "; ".join(said[1:]) if said[1:] else "")


#: What a disagreement is about, by its ``what`` (an outcome names its action).
_SUBJECT = {"actions": "how far the scenario's actions apply", "position": "the position the actions lead to",
            "history": "what the actions do", "decision": "what must be decided", "outcome": "the winners"}


def _disagreement_line(x: dict[str, Any]) -> str:
    """A disagreement in one line: what it is about and the groups of rulesets that answer
    alike (their answers are shown above); the legal actions that differ are named."""
    vp = f" [{', '.join(x['variation_points'])}]" if x["variation_points"] else ""
    if x["what"] == "legal_actions":
        return f"   * {x['text']}{vp}"
    where = x["text"].split(": ", 1)[0] + ": " if x["text"].startswith("before action ") else ""
    if x["what"] == "outcome" and "winners" in x:
        subject = f"{x['action']}: the winners" if x.get("action") else "the winners"
    elif x["what"] == "outcome":
        subject = x["action"]
    else:
        subject = _SUBJECT[x["what"]]
    return f"   * {where}{subject}: {' | '.join(_names(g) for g in x['groups'])}{vp}"


def _disagreement_lines(dis: list[dict[str, Any]]) -> list[str]:
    """Each disagreement in one line (see :func:`_disagreement_line`); outcomes of several
    actions that split the rulesets alike for the same points share a line."""
    merged: dict[Any, list[str]] = {}
    order: list[Any] = []
    for x in dis:
        if x["what"] == "outcome" and "winners" not in x and not x["text"].startswith("before action "):
            key = (tuple(map(tuple, x["groups"])), tuple(x["variation_points"]))
            if key not in merged:
                merged[key] = []
                order.append(key)
            merged[key].append(x["action"])
        else:
            order.append(x)
    out = []
    for x in order:
        if isinstance(x, tuple):
            groups, vps = x
            vp = f" [{', '.join(vps)}]" if vps else ""
            out.append(f"   * {', '.join(merged[x])}: {' | '.join(_names(list(g)) for g in groups)}{vp}")
        else:
            out.append(_disagreement_line(x))
    return out


#: Words that open a line and are never left alone on it (a header, a question, a list item).
_MARKERS = frozenset({"==", "--", "Q:", "*", "=>"})
_NBSP = "\u00a0"  # textwrap does not break at it


#: How a position in one line is introduced in the text.
ONE_LINE = "as one line: "


def _not_legal(results: dict[str, dict[str, Any]], rulesets: list[str]) -> str:
    """Why an action other rulesets allow is not one of ``rulesets``' legal actions: play
    stops at a variation point they leave open, or it is not legal."""
    gaps = {results[r]["decision"].get("gap") for r in rulesets}
    if len(gaps) == 1 and None not in gaps:
        return f"play stops before it, at variation point {gaps.pop()}, which this ruleset leaves open"
    return "not a legal action"


def wrap(lines: list[str], width: int) -> list[str]:
    """``lines`` wrapped to ``width`` columns at spaces (a card, id or word is never split);
    a continuation line is indented four spaces deeper than the line it continues. A
    position in one line (``as one line: ...``) is never wrapped, so it can be copied."""
    out: list[str] = []
    for line in lines:
        if len(line) <= width or line.lstrip(" ").startswith(ONE_LINE):  # a position line is copied whole
            out.append(line)
            continue
        lead = " " * (len(line) - len(line.lstrip(" ")))
        text = line.lstrip(" ")
        marker = text.split(" ", 1)[0] in _MARKERS  # kept with the word after it
        if marker:
            text = text.replace(" ", _NBSP, 1)
        wrapped = textwrap.wrap(text, width, initial_indent=lead, subsequent_indent=lead + "    ",
                                break_long_words=False, break_on_hyphens=False) or [line]
        out.extend(x.replace(_NBSP, " ") for x in wrapped)
    return out


def _choices(per: dict[str, dict[str, Any]], limit: int = 4) -> dict[str, Seg]:
    """For outcomes (ruleset -> outcome) that differ only in what may be chosen next: per
    ruleset, a piece naming how many choices follow and those not every ruleset allows
    (at most ``limit`` of them by name)."""
    nxt = {r: o["next_legal_actions"] for r, o in per.items()}
    common = set.intersection(*(set(v) for v in nxt.values()))
    out = {}
    for r, v in nxt.items():
        extra = [a for a in v if a not in common]
        text = f"{len(v)} choices next"
        if extra:
            more = f" and {len(extra) - limit} more" if len(extra) > limit else ""
            text += f", {len(extra)} of them not under every ruleset: {', '.join(extra[:limit])}{more}"
        else:
            text += ", all of them allowed under every ruleset"
        out[r] = (text, "")
    return out


def _about(x: dict[str, Any], key: Any) -> bool:
    """Whether disagreement ``x`` is about the piece ``key`` of the answers (see
    :func:`_items`)."""
    what = x["what"]
    if what == "outcome" and "winners" not in x:
        return bool(key == ("outcome", x["action"]))
    if what == "legal_actions":
        return isinstance(key, tuple) and key[0] == "outcome" and key[1] in x["actions"]
    if what == "decision":
        return bool(key == "head")
    if what in ("outcome", "actions"):  # the winners at a game end; how far the actions apply
        return bool(key == "head") or (isinstance(key, tuple) and key[0] == "history")
    if what == "position":
        return bool(key == "position")
    return isinstance(key, tuple) and key[0] == "history"


_LABEL = {"head": "decision", "position": "position", "instead": "instead", "note": "note",
          "points": "depends on variation points"}


def render_grouped(answer: dict[str, Any], *, clauses: bool = True, width: int | None = None) -> str:
    """The answer as text for a terminal: the position; what every ruleset answers alike,
    said once (the decision, and each action with its events and clause ids, one paragraph
    each); then, by ruleset, only what differs: for each such piece the groups of
    rulesets that answer alike; then where the rulesets disagree, one line each, and
    whether the actions are legal. Lines are wrapped to ``width`` columns (default: the
    terminal's), continuation lines indented.
    """
    if not width:
        import shutil  # only for the terminal's width

        width = shutil.get_terminal_size().columns
    results = answer["rulesets"]
    names = list(results)
    lines: list[str] = [f"== {answer.get('title') or answer['scenario']}"]
    if answer.get("question"):
        lines.append(f"Q: {answer['question']}")
    lines.extend(f"   warning: {w}" for w in answer.get("warnings", []))
    positions = [_position_lines(res) for res in results.values()]
    n_actions = len(answer.get("actions", []))
    shown = [x for x in positions[0] if all(x in p for p in positions)] if positions else []
    if positions:
        if n_actions:
            lines.append(f"   {_position_label(answer, n_actions)}:")
        lines.extend("   " + x for x in shown)
    items = {r: _items(res, n_actions, shown) for r, res in results.items()}
    rank = {"head": 0, "history": 1, "position": 2, "instead": 3, "note": 4, "outcome": 5, "points": 6}
    keys = sorted(dict.fromkeys(k for r in names for k in items[r]),
                  key=lambda k: (rank[k[0] if isinstance(k, tuple) else k], k[1] if k[0] == "history" else 0))
    shared: list[tuple[Any, list[Seg]]] = []   # what every ruleset says alike, in order
    apart: list[tuple[Any, str, dict[str, Segs | None]]] = []  # label, each ruleset's rest
    for k in keys:
        per = {r: items[r][k] for r in names if k in items[r]}
        outcome = isinstance(k, tuple) and k[0] == "outcome"
        step = isinstance(k, tuple)
        if len(per) == len(names) and len({_texts(v) for v in per.values()}) == 1:
            if outcome:
                outs = {r: next(o for o in results[r]["outcomes"] if o["action"] == k[1]) for r in names}
                if len({tuple(o["next_legal_actions"]) for o in outs.values()}) > 1:  # what follows differs
                    shared.append((k, [*_cited(per, clauses), (_BELOW, "")]))
                    choices = _choices(outs)
                    apart.append((k, k[1], {r: (choices[r],) for r in names}))
                    continue
            if k == "points":
                shared.append((k, [(f"depends on variation points: {per[names[0]][0][0]}", "")]))
            elif k != "position":
                shared.append((k, _cited(per, clauses)))
            continue
        texts = [_texts(v) or () for v in per.values()]
        n = min(map(len, texts))
        p = q = 0
        if step and len(per) == len(names):
            while p < n and len({t[p] for t in texts}) == 1:
                p += 1
            while q < n - p and len({t[len(t) - 1 - q] for t in texts}) == 1:
                q += 1
        # a step some rulesets did not take (their play stopped before it) is labelled by the first that did
        label = k[1] if outcome else next(iter(per.values()))[0][0] if step else _LABEL.get(k, str(k))
        if p >= 1 and p + q >= 2:  # the action and some of its events alike under every ruleset: said once
            head = _cited({r: v[:p] for r, v in per.items()}, clauses)
            tail = _cited({r: v[len(v) - q:] for r, v in per.items()}, clauses) if q else []
            shared.append((k, [*head, (_BELOW, ""), *tail]))
            apart.append((k, label, {r: v[p:len(v) - q] for r, v in per.items()}))
        elif step and len({t[0] for t in texts}) == 1:  # the same action, another outcome
            label = _para(_cited({r: v[:1] for r, v in per.items()}, clauses))
            apart.append((k, label, {r: (items[r][k][1:] if k in items[r] else None) for r in names}))
        else:
            apart.append((k, label, {r: items[r].get(k) for r in names}))
    if shared:
        lines.append("")
        everyone = f"ruleset {names[0]}" if len(names) == 1 else f"every ruleset ({', '.join(names)})"
        top = dict(shared).get("head")
        lines.append(f"-- {everyone}" + (f": {_para(top)}" if top else ", alike:"))
        above: list[Seg] | None = None
        for k, pieces in shared:
            if k != "head":
                lines.append("   " + _para(pieces, above))
                above = pieces
    placed: set[int] = set()  # the disagreements said by ruleset
    if apart:
        lines.append("")
        lines.append("-- where they differ, by ruleset [the variation points that explain it]:")
        merged: dict[Any, list[tuple[Any, str]]] = {}   # pieces that split the rulesets alike, said once
        for k, label, rest in apart:
            sig = tuple((r, _texts(v), tuple(c for _, c in v or ())) for r, v in rest.items())
            merged.setdefault((k[0] if isinstance(k, tuple) else k, sig), []).append((k, label))
        for pieces in merged.values():
            first: Any = pieces[0][0]
            rest = next(r for kk, _, r in apart if kk == first)
            vps: list[str] = []
            for i, x in enumerate(answer["disagreements"]):
                if any(_about(x, kk) for kk, _ in pieces):
                    vps.extend(p for p in x["variation_points"] if p not in vps)
                    placed.add(i)
            lines.append(f"   {', '.join(_unnamed(label, vps) for _, label in pieces)}"
                         + (f" [{', '.join(vps)}]" if vps else "") + ":")
            # a piece's note of a variation point the heading names is not said again
            rest = {r: None if v is None else tuple((_unnamed(t, vps), c) for t, c in v) for r, v in rest.items()}
            groups: dict[tuple[str, ...] | None, list[str]] = {}
            for r, v in rest.items():
                groups.setdefault(_texts(v), []).append(r)
            for texts_, rs in groups.items():
                if texts_ is None:
                    if isinstance(first, tuple):
                        lines.append(f"      {_names(rs)}: "
                                     + (_not_legal(results, rs) if first[0] == "outcome" else "not applied"))
                    continue
                said = _joined(_cited({r: rest[r] or () for r in rs}, clauses))
                if first == "position" and len(said) > 1:
                    lines.append(f"      {_names(rs)}:")
                    lines.extend("         " + x for x in said)
                else:
                    lines.append(f"      {_names(rs)}: " + ("; ".join(said) if said else "nothing more"))
    lines.append("")
    dis = answer["disagreements"]
    if len(names) < 2:
        lines.append("one ruleset asked; nothing to compare")
    elif not dis:
        lines.append(f"the rulesets agree ({', '.join(names)})")
    else:
        rest_ = [x for i, x in enumerate(dis) if i not in placed]
        count = f"the rulesets disagree in {len(dis)} place{'s' if len(dis) != 1 else ''}"
        if not rest_:
            lines.append(count + " (shown by ruleset above)")
        else:
            lines.append(count + (f" ({len(placed)} shown by ruleset above)" if placed else "")
                         + " [the variation points that explain each]:")
            lines.extend(_disagreement_lines(rest_))
    if answer.get("not_legal"):
        lines.append(not_legal_words(results, clauses=clauses))
    return "\n".join(wrap(lines, width))
