"""The discrepancy register's own rules, checked as part of :func:`palast.spec.cross_check.cross_check`.

``spec/variation_points.yaml`` is the register: one entry per variation point. Beyond its
JSON Schema, an entry must hang together with the engine and the rulings:

* a wording point or a component fact sets no engine parameter and every ruleset reads it
  alike;
* a point the rulesets read differently, whose readings change more than what players
  know, sets an engine parameter, so the engine executes every reading a ruleset takes;
* such a point names a witness ruling (``spec/rulings/<id>.yaml``) that exists and names
  the point among its ``variation_points``;
* every ruling's id is its file name, and it cites only clauses and variation points that
  exist.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palast.errors import InputError
from palast.spec.yamlio import Document, read_yaml

if TYPE_CHECKING:  # palast.spec.load imports this module to check the spec it loads
    from palast.spec.load import Spec, VariationPoint


def clause_refs(data: Any, path: list[str | int]) -> list[tuple[list[str | int], str]]:
    """Every clause id cited anywhere under ``data`` (values of keys named ``clauses``)."""
    out: list[tuple[list[str | int], str]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k == "clauses" and isinstance(v, list):
                out.extend((path + [k, i], c) for i, c in enumerate(v) if isinstance(c, str))
            else:
                out.extend(clause_refs(v, path + [k]))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.extend(clause_refs(v, path + [i]))
    return out


def needs_witness(point: VariationPoint) -> bool:
    """True if the engine executes ``point`` and the rulesets read it differently, so a
    ruling must show the difference (its ``witness``)."""
    return point.parameter is not None and point.rulesets_differ


def register_problems(spec: Spec) -> list[str]:
    """Check every variation point against the register's rules (module docstring).

    :returns: one message per problem, naming ``variation_points.yaml``, the place in it and
        the point.
    """
    rulings: dict[str, Document | None] = {}
    problems: list[str] = []
    for i, point in enumerate(spec.variation_points.values()):
        problems.extend(_point_problems(spec, point, i, rulings))
    return problems


def _point_problems(spec: Spec, point: VariationPoint, index: int, rulings: dict[str, Document | None]) -> list[str]:
    """The problems of the ``index``-th point; ``rulings`` caches witness files read."""
    doc = spec.documents["variation_points.yaml"]
    problems: list[str] = []

    def at(path: list[str | int], msg: str) -> None:
        problems.append(f"{doc.file}: {doc.place(['variation_points', index, *path])}: {point.id}: {msg}")

    if point.kind == "wording" or point.component:
        what = "a wording point" if point.kind == "wording" else "a component fact"
        if point.parameter is not None:
            at(["parameter"], f"{what} sets no engine parameter")
        if point.rulesets_differ:
            at(["rulesets"], f"every ruleset must read {what} alike")
    if point.rulesets_differ and point.changes_outcome != "knowledge" and point.parameter is None:
        at(["rulesets"], "the rulesets read it differently and it changes outcomes, so it needs an engine parameter")
    if needs_witness(point) and point.witness is None:
        at([], "the rulesets read it differently; name a witness ruling (witness: <ruling id>)")
    if point.witness is None:
        return problems
    if point.witness not in rulings:
        path = spec.root / "rulings" / f"{point.witness}.yaml"
        try:
            rulings[point.witness] = read_yaml(path) if path.exists() else None
        except InputError:
            rulings[point.witness] = Document(None, str(path), None)
    ruling = rulings[point.witness]
    if ruling is None:
        at(["witness"], f"witness ruling {point.witness!r} does not exist")
    else:
        named = ruling.data.get("variation_points", []) if isinstance(ruling.data, dict) else []
        if not isinstance(named, list) or point.id not in named:
            at(["witness"], f"witness ruling {point.witness!r} does not name this point in its variation_points")
    return problems


def ruling_reference_problems(spec: Spec) -> list[str]:
    """Check what the rulings in ``spec/rulings/`` refer to: each file's ``id`` is its
    stem, every clause id it cites is in the clause registry, every variation point it
    names exists. Full validation (schema, scenario, expectations) is
    :func:`palast.query.ruling_files.load_rulings`.

    :returns: one message per problem (file, place, problem).
    """
    problems: list[str] = []
    folder = spec.root / "rulings"
    if not folder.is_dir():
        return problems
    for path in sorted(folder.glob("*.yaml")):
        try:
            doc = read_yaml(path)
        except InputError as exc:
            problems.append(exc.render())
            continue
        if not isinstance(doc.data, dict):
            problems.append(f"{doc.file}: top level: a ruling is a mapping")
            continue
        if doc.data.get("id") != path.stem:
            problems.append(f"{doc.file}: {doc.place(['id'])}: the id must be the file name, {path.stem!r}")
        for where, cid in clause_refs(doc.data, []):
            if cid not in spec.clauses:
                problems.append(f"{doc.file}: {doc.place(where)}: cites clause {cid!r}, which is not in the "
                                "clause registry")
        named = doc.data.get("variation_points") or []
        for i, vp in enumerate(named if isinstance(named, list) else []):
            if not isinstance(vp, str):
                problems.append(f"{doc.file}: {doc.place(['variation_points', i])}: a variation point is named "
                                f"by its id, a string; found {vp!r}")
            elif vp not in spec.variation_points:
                problems.append(f"{doc.file}: {doc.place(['variation_points', i])}: names unknown variation "
                                f"point {vp!r}")
    return problems
