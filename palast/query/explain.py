"""One variation point of the discrepancy register, for a person or as data.

:func:`explain_point` gathers everything about a point from ``spec/variation_points.yaml``
and runs its witness ruling in the engine under every ruleset; :func:`render_explanation`
prints it. ``palast explain POINT...`` and the rulebook use both. :func:`point_list` and
:func:`render_point_list` are ``palast explain --list``; :func:`render_sources` names the
sources that the citations (``A 38–39``) refer to.
"""

from __future__ import annotations

from typing import Any

from palast.engine.params import parameter_table
from palast.spec.load import Spec
from palast.spec.sources import sources


def point_list(spec: Spec) -> list[dict[str, Any]]:
    """Every variation point, in the register's order: ``id``, ``kind``, ``topic`` and
    ``rulesets`` (ruleset -> its reading, or ``open``)."""
    return [{"id": vp.id, "kind": vp.kind, "topic": vp.topic, "rulesets": {rs: vp.choices[rs] for rs in spec.rulesets}}
            for vp in spec.variation_points.values()]


def render_point_list(spec: Spec) -> str:
    """The text of ``palast explain --list``: two lines per point, its id, kind and topic,
    then each ruleset's reading."""
    points = point_list(spec)
    lines = [f"{len(points)} variation points: id (kind) topic, then each ruleset's reading "
             f"('open': play stops there with a gap); palast explain ID tells more", ""]
    for p in points:
        lines.append(f"{p['id']} ({p['kind']}) {p['topic']}")
        lines.append("   " + "  ".join(f"{rs}={reading}" for rs, reading in p["rulesets"].items()))
    return "\n".join(lines)


def source_list(spec: Spec) -> list[dict[str, str]]:
    """The rule sources a citation's letter names: ``id``, ``title``, ``origin``."""
    return [{"id": s.id, "title": s.title, "origin": s.origin} for s in sources(spec)]


def render_sources(spec: Spec) -> str:
    """The lines that name the sources once, below text citing ``A 38–39``."""
    return "\n".join(["sources (a citation gives the source's letter and its lines):",
                      *(f"   {s.note}" for s in sources(spec))])


def explain_point(spec: Spec, point_id: str) -> dict[str, Any]:
    """Everything about variation point ``point_id``, as JSON-ready data.

    :returns: a dict with ``id``, ``topic``, ``kind``, ``changes_outcome``, ``parameter``,
        ``component``, ``sides`` (per source: ``clauses`` with ``id``, ``source``, ``lines``
        and ``cite``, as ``A.role.wizard (A 75–78)``; ``says``, ``reading``), ``readings`` (``id``, ``statement``,
        ``third_party``), ``third_party`` (``source``, ``says``), ``rulesets`` (ruleset ->
        reading or ``open``), ``reason``, ``note``, ``rulings`` (the rulings naming the
        point), ``sources`` (:func:`source_list`) and ``witness``: ``None``, or the
        witness ruling's ``id``, ``question`` and per ruleset the engine's ``summary``,
        ``gap``, ``events``, whether the ruleset is one the ruling states a result for,
        and whether the engine ``agrees`` with it.
    :raises KeyError: for an unknown point.
    :raises SpecError: if the witness ruling is malformed.
    """
    from palast.query.rulings import compare, compute_outcome, load_ruling, rulings_dir, rulings_naming

    vp = spec.variation_points[point_id]
    sides: dict[str, Any] = {}
    for side in ("A", "B"):
        s = vp.sides[side]
        sides[side] = {
            "clauses": [{"id": c, "source": spec.clauses[c].source, "lines": spec.clauses[c].lines,
                         "cite": spec.clauses[c].cite} for c in s["clauses"]],
            "says": s["says"],
            "reading": s["reading"],
        }
    witness: dict[str, Any] | None = None
    if vp.witness is not None:
        ruling = load_ruling(rulings_dir(spec) / f"{vp.witness}.yaml", spec)
        per: dict[str, Any] = {}
        for rs in spec.rulesets:
            outcome = compute_outcome(spec, ruling, rs)
            stated = rs in ruling.expect
            per[rs] = {
                "summary": outcome.summary,
                "gap": outcome.values.get("gap"),
                "events": outcome.values.get("events", []),
                "stated": stated,
                "agrees": (not compare(ruling.expect[rs], outcome)) if stated else None,
                "error": outcome.error,
            }
        witness = {"id": ruling.id, "title": ruling.title, "question": ruling.question, "action": ruling.action,
                   "rulesets": per}
    return {
        "id": vp.id,
        "topic": vp.topic,
        "kind": vp.kind,
        "changes_outcome": vp.changes_outcome,
        "parameter": vp.parameter,
        "executed": vp.id in {point for point, _ in parameter_table(spec).values()},
        "viewed": vp.id in spec.visibility.points(),
        "component": vp.component,
        "sides": sides,
        "readings": [{"id": r.id, "statement": r.statement, "third_party": list(r.third_party)} for r in vp.readings],
        "third_party": [{"source": s, "says": t} for s, t in vp.third_party],
        "rulesets": dict(vp.choices),
        "reason": vp.reason,
        "note": vp.note or None,
        "rulings": rulings_naming(spec, vp.id),
        "witness": witness,
        "sources": source_list(spec),
    }


def render_explanation(doc: dict[str, Any]) -> str:
    """The text ``palast explain`` prints for :func:`explain_point`'s data."""
    lines = [f"{doc['id']}: {doc['topic']}"]
    what = {"yes": "yes", "no": "no", "knowledge": "only what players know"}[doc["changes_outcome"]]
    extra = ("; the engine plays the reading a ruleset takes" if doc["executed"] else
             "; the players' views apply the reading a ruleset takes (spec/visibility.yaml; palast ask --as)"
             if doc["viewed"] else "; not executed by the engine")
    if doc["component"]:
        extra += "; a fact about the components"
    lines.append(f"   kind: {doc['kind']}; can change an outcome: {what}{extra}")
    for side in ("A", "B"):
        s = doc["sides"][side]
        lines.append("")
        lines.append(f"source {side}: {s['says']}")
        lines.append(f"   reading: {s['reading'] or 'none (the source is silent)'}")
        for c in s["clauses"]:
            lines.append(f"   {c['cite']}")
    lines.append("")
    lines.append("readings:")
    if not doc["readings"]:
        lines.append("   (none proposed)")
    for r in doc["readings"]:
        tp = f"  [third parties: {', '.join(r['third_party'])}]" if r["third_party"] else ""
        lines.append(f"   {r['id']}: {r['statement']}{tp}")
    if doc["third_party"]:
        lines.append("third-party readings:")
        for t in doc["third_party"]:
            lines.append(f"   {t['source']}: {t['says']}")
    lines.append("")
    lines.append("rulesets: " + ", ".join(f"{rs} -> {choice}" for rs, choice in doc["rulesets"].items()))
    lines.append(f"reason (reference): {doc['reason']}")
    if doc["note"]:
        lines.append(f"note: {doc['note']}")
    if doc["rulings"]:
        lines.append(f"rulings naming it: {', '.join(doc['rulings'])}")
    w = doc["witness"]
    lines.append("")
    if w is None and doc["viewed"]:
        lines.append("witness: none in play (only what players know differs: see the rulings naming it, "
                     "from a player's side)")
    elif w is None:
        lines.append("witness: none (the rulesets do not differ here in what the engine computes)")
    else:
        act = f" — asked action: {w['action']}" if w["action"] else ""
        lines.append(f"witness ruling {w['id']}: {w['question']}{act}")
        for rs, o in w["rulesets"].items():
            if not o["stated"]:
                mark = "(no result stated)"
            else:
                mark = "agrees with the ruling" if o["agrees"] else "DISAGREES with the ruling"
            lines.append(f"   {rs}: {o['summary']}  [{mark}]")
    return "\n".join(lines)
