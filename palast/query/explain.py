"""One variation point of the discrepancy register, for a person or as data.

:func:`explain_point` gathers everything about a point from ``spec/variation_points.yaml``
and runs its witness ruling in the engine under every ruleset; :func:`render_explanation`
prints it. ``palast explain POINT...`` and the rulebook use both. :func:`point_list` and
:func:`render_point_list` are ``palast explain --list``; :func:`render_sources` names the
sources that the citations (``A 38–39``) refer to.
"""

from __future__ import annotations

from typing import Any

from palast.lang.logic import parameter_table
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


def house_rulesets_reading(spec: Spec, point_id: str) -> dict[str, dict[str, Any]]:
    """The named house rulesets of ``spec/rulesets.yaml`` that bear on variation point
    ``point_id``: those that read it themselves, and those that switch on a rule module
    (``spec/modules/``) whose switch it is or one of whose rules reads it (where the
    spec's own rulesets, with the module off, never reach it).

    :returns: house ruleset id -> ``base``, ``title``, ``reading`` (its own, else its
        base's, or ``open``), ``own`` (whether it reads the point itself) and ``module``
        (the id of the module it switches on that reads the point, or ``None``); in file
        order.
    :raises KeyError: for an unknown point.
    """
    vp = spec.variation_points[point_id]
    out: dict[str, dict[str, Any]] = {}
    for hid, entry in spec.house_rulesets.items():
        readings = {str(p): str(r) for p, r in entry["readings"].items()}
        base = str(entry["base"])
        module = next((m.id for m in spec.modules.values()
                       if readings.get(m.point) == m.reading and _module_reads(spec, m.id, point_id)), None)
        if point_id not in readings and module is None:
            continue
        out[hid] = {"base": base, "title": str(entry["title"]),
                    "reading": readings.get(point_id, vp.choices.get(base, "open")),
                    "own": point_id in readings, "module": module}
    return out


def _module_reads(spec: Spec, module: str, point_id: str) -> bool:
    """Whether rule module ``module`` reads ``point_id``: its switch, or a point one of its
    rules declares it reads."""
    m = spec.modules[module]
    return point_id == m.point or any(point_id in spec.rules[r].variation_points for r in m.rules if r in spec.rules)


def _modules_off(spec: Spec, point_id: str) -> list[str]:
    """The rule modules that read ``point_id`` and that no ruleset of the spec itself
    switches on (the point is then reached only under a house ruleset)."""
    return [m.id for m in spec.modules.values() if _module_reads(spec, m.id, point_id)
            and all(spec.variation_points[m.point].choices.get(rs) != m.reading for rs in spec.rulesets)]


def explain_point(spec: Spec, point_id: str) -> dict[str, Any]:
    """Everything about variation point ``point_id``, as JSON-ready data.

    :returns: a dict with ``id``, ``topic``, ``kind``, ``changes_outcome``, ``parameter``,
        ``component``, ``sides`` (per source: ``clauses`` with ``id``, ``source``, ``lines``
        and ``cite``, as ``A.role.wizard (A 75–78)``; ``says``, ``reading``), ``readings`` (``id``, ``statement``,
        ``third_party``, ``breaks``: the proof obligations it makes end in a counterexample,
        each ``obligation`` and ``because``), ``third_party`` (``source``, ``says``), ``rulesets`` (ruleset ->
        reading or ``open``), ``reason``, ``note``, ``rulings`` (the rulings naming the
        point), ``house_rulesets`` (:func:`house_rulesets_reading`: the named house
        rulesets that bear on the point, with their readings), ``modules_off`` (the rule
        modules that read the point and that the spec's own rulesets leave off),
        ``sources`` (:func:`source_list`) and ``witness``: ``None``, or the witness
        ruling's ``id``, ``question`` and per ruleset (the spec's, then those of
        ``house_rulesets``, each with ``house`` true) the engine's ``summary``, ``gap``,
        ``events``, whether the ruleset is one the ruling states a result for, and whether
        the engine ``agrees`` with it.
    :raises KeyError: for an unknown point.
    :raises SpecError: if the witness ruling is malformed.
    """
    from palast.query.ruling_files import load_ruling, rulings_dir, rulings_naming
    from palast.query.rulings import compare, compute_outcome

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
    house = house_rulesets_reading(spec, point_id)
    witness: dict[str, Any] | None = None
    if vp.witness is not None:
        ruling = load_ruling(rulings_dir(spec) / f"{vp.witness}.yaml", spec)
        per: dict[str, Any] = {}
        for rs in [*spec.rulesets, *(h for h in house if h not in spec.rulesets)]:
            outcome = compute_outcome(spec, ruling, rs)
            stated = rs in ruling.expect
            per[rs] = {
                "summary": outcome.summary,
                "gap": outcome.values.get("gap"),
                "events": outcome.values.get("events", []),
                "stated": stated,
                "agrees": (not compare(ruling.expect[rs], outcome)) if stated else None,
                "error": outcome.error,
                "house": rs in house,
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
        "readings": [{"id": r.id, "statement": r.statement, "third_party": list(r.third_party),
                      "breaks": [{"obligation": o, "because": b} for o, b in r.breaks]} for r in vp.readings],
        "third_party": [{"source": s, "says": t} for s, t in vp.third_party],
        "rulesets": dict(vp.choices),
        "house_rulesets": house,
        "modules_off": _modules_off(spec, point_id),
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
        for b in r["breaks"]:
            lines.append(f"      breaks the proof obligation {b['obligation']}: {b['because']}")
    if doc["third_party"]:
        lines.append("third-party readings:")
        for t in doc["third_party"]:
            lines.append(f"   {t['source']}: {t['says']}")
    lines.append("")
    off = doc.get("modules_off") or []
    lines.append("rulesets: " + ", ".join(f"{rs} -> {choice}" for rs, choice in doc["rulesets"].items())
                 + (f" (rule module {', '.join(off)} off under these)" if off else ""))
    for h, x in (doc.get("house_rulesets") or {}).items():
        how = [f"rule module {x['module']} on"] if x["module"] else []
        how.append(f"its own reading of {doc['id']}" if x["own"] else f"{doc['id']} as {x['base']} reads it")
        lines.append(f"house ruleset {h} -> {x['reading']}: {x['base']} with {', '.join(how)}")
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
    elif w is None and doc.get("house_rulesets"):
        lines.append("witness: none declared (the spec's rulesets do not differ here in what the engine "
                     "computes; the house rulesets above may: see the rulings naming it)")
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
            kind = " (house ruleset)" if o.get("house") else ""
            lines.append(f"   {rs}{kind}: {o['summary']}  [{mark}]")
    return "\n".join(lines)
