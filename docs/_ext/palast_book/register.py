"""Directives for the reference chapters: the clause index, the variation points (table and
one page each) and the invariants with how each is established."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from sphinx.util import logging

from palast.formats.house import resolve
from palast.invariants.declared import readings_that_break, refuted_by_house
from palast.lang.syntax import parse, show_lines
from palast.spec.load import OPEN, Spec, VariationPoint
from palast.spec.sources import source_notes, sources

from .rulings import ruling_files, rulings_naming
from .specdata import SpecDirective, joined, literal, rubric, strong, table, text

logger = logging.getLogger(__name__)


def _third_party_entries(vp: VariationPoint) -> list[Mapping[str, Any]]:
    """The point's structured third-party list (``third_party:`` of the schema), if any."""
    entries = vp.raw.get("third_party") or []
    return [e for e in entries if isinstance(e, Mapping)]



def _taking(spec: Any, point: str, reading: str) -> list[str]:
    """The rulesets of the spec that take ``reading`` of variation point ``point``."""
    return [r for r in spec.rulesets if spec.variation_points[point].choices.get(r) == reading]


def _reading_lets(spec: Any, point: str, readings: Mapping[str, Any]) -> list[str]:
    """The lines that give an invariant's ``let`` parts per reading of ``point``: each
    reading with the spec's rulesets taking it, then its parts."""
    lines: list[str] = []
    for reading, branch in readings.items():
        if reading == "point":
            continue
        taking = _taking(spec, point, reading)
        lines.append(f"reading {reading}" + (f" ({', '.join(taking)})" if taking else ""))
        lines += [f"    where {name} = {show_lines(parse(str(text)), indent=' ' * (len(name) + 13))}"
                  for name, text in (branch or {}).get("let", {}).items()]
    return lines


def _left_out(spec: Any, inv: Any) -> str:
    """Where check mode leaves ``inv`` out: under the rulesets taking a reading that declares
    it breaks its obligation (:func:`palast.invariants.declared.readings_that_break`), with
    a rule module in play that declares it breaks it, and under a named house ruleset whose
    prove list expects it refuted (:func:`palast.invariants.declared.refuted_by_house`, and
    house rules on top of it that keep its readings); ``""`` where nowhere."""
    where = [f"under {', '.join(_taking(spec, point, reading)) or 'no ruleset of the spec'} ({point}: {reading})"
             for point, reading in readings_that_break(spec, inv.id)]
    where += [f"with the module {m.id} in play" for m in spec.modules.values()
              if any(b.invariant == inv.id for b in m.breaks)]
    said = f", except {' and '.join(where)}, which declares that it breaks it" if where else ""
    houses = [h for h in spec.house_rulesets if inv.id in refuted_by_house(resolve(spec, h, None), h)]
    if houses:
        said += (f"{', and' if said else ', except'} under the house ruleset{'s' if len(houses) > 1 else ''} "
                 f"{', '.join(houses)} (and house rules on top that keep its readings), whose prove list expects it "
                  "refuted")
    return said


class ClauseIndexDirective(SpecDirective):
    """``{palast-clause-index}``: for each source, what it is and where it comes from (and
    the registry's file, line count and checksum), then every clause of ``spec/clauses.yaml``
    with an anchor, its source letter and line range, its paraphrase, and what in the spec
    cites it."""

    reads: ClassVar[tuple[str, ...]] = ("rules.yaml", "roles.yaml", "variation_points.yaml", "invariants.yaml")

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        cited_by: dict[str, list[nodes.Node]] = {c: [] for c in spec.clauses}
        for rule in spec.rules.values():
            for c in rule.clauses:
                cited_by[c].append(self.ref("rule", rule.id, rule.id))
        for vp in spec.variation_points.values():
            for c in vp.clauses():
                cited_by[c].append(self.ref("vp", vp.id, "point " + vp.id))
        for inv in spec.invariants.values():
            for c in inv.clauses:
                cited_by[c].append(self.ref("invariant", inv.id, "invariant " + inv.id))
        out: list[nodes.Node] = []
        for src in sources(spec):
            sid = src.id
            sec = nodes.section(ids=[nodes.make_id(f"source-{sid}")])
            title = f"Source {sid}"
            sec += nodes.title(title, title)
            sec += nodes.paragraph("", f"{src.title[:1].upper()}{src.title[1:]}: {src.origin}.")
            sec += nodes.paragraph("", "", text(f"The registry's copy: file {src.file}, {src.line_count} lines, "
                                                "SHA-256 ", "pal-muted"), literal(src.sha256))
            rows: list[list[Any]] = []
            for cid, clause in spec.clauses.items():
                if clause.source != sid:
                    continue
                ident = nodes.inline("", "", self.target("clause", cid, clause.cite), strong(cid))
                rows.append([ident, clause.where, clause.paraphrase,
                             joined(cited_by[cid]) or text("not cited", "pal-muted")])
            sec += table(["clause", "lines", "paraphrase (our words)", "cited by"], rows, widths=[3, 1, 8, 4],
                         classes=["pal-clauses"])
            out.append(sec)
        return out


class SourcesDirective(SpecDirective):
    """``{palast-sources}``: the rule sources named once, each with its letter, what it is
    and where it comes from (:func:`palast.spec.sources.source_notes`), linked to its part of the
    clause index."""

    reads: ClassVar[tuple[str, ...]] = ()

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        items = nodes.bullet_list()
        for src, note in zip(sources(spec), source_notes(spec), strict=True):
            body = note.split(": ", 1)[1]
            items += nodes.list_item("", nodes.paragraph("", "", strong(f"Source {src.id}"),
                                                         nodes.Text(f": {body}.")))
        return [items]


class VariationTableDirective(SpecDirective):
    """``{palast-variation-table}``: one row per variation point: topic, source A, source
    B, third-party readings, the reference reading, whether it changes an outcome, witness."""

    reads: ClassVar[tuple[str, ...]] = ("variation_points.yaml", "rulesets.yaml")

    def side(self, spec: Spec, vp: VariationPoint, side: str) -> list[nodes.Node]:
        s = vp.sides[side]
        out: list[nodes.Node] = [literal(s["reading"]) if s["reading"] else text("silent", "pal-open")]
        for cid in s["clauses"]:
            out.append(nodes.Text(" "))
            out.append(self.ref("clause", cid, spec.clauses[cid].cite, classes=["pal-cite"]))
        return out

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        rows: list[list[Any]] = []
        for vp in spec.variation_points.values():
            topic: list[nodes.Node] = [self.ref("vp", vp.id, vp.topic), nodes.Text(" "),
                                       text(f"{vp.id} · {vp.kind}", "pal-muted", "pal-block")]
            third: list[nodes.Node] = []
            for r in vp.readings:
                if r.third_party:
                    third.append(nodes.paragraph("", "", literal(r.id), nodes.Text(": " + ", ".join(r.third_party))))
            said = [str(e["source"]) for e in _third_party_entries(vp)]
            if said:
                third.append(nodes.paragraph("", "", text("write-ups: ", "pal-muted"), nodes.Text(", ".join(said))))
            ref_reading = vp.choices.get("reference", OPEN)
            reference: nodes.Node = text("open", "pal-open") if ref_reading == OPEN else literal(ref_reading)
            witness: nodes.Node | str = self.ref("ruling", vp.witness, vp.witness) if vp.witness else "—"
            rows.append([topic, self.side(spec, vp, "A"), self.side(spec, vp, "B"), third or "—", reference,
                         vp.changes_outcome, witness])
        note = nodes.paragraph("", "A citation gives the source's letter and its lines (A 38–39); each clause id "
                                   "links to the clause index, which names the sources.", classes=["pal-muted"])
        return [note, table(["topic", "source A", "source B", "third-party readings", "reference", "changes outcome",
                             "witness"], rows, widths=[5, 4, 4, 4, 2, 2, 2], classes=["pal-wide", "pal-vp-table"])]


class VariationPointDirective(SpecDirective):
    """``{palast-variation-point} ID``: one variation point's page body."""

    required_arguments = 1
    reads: ClassVar[tuple[str, ...]] = ("variation_points.yaml", "rulesets.yaml", "rules.yaml", "roles.yaml")

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        vid = self.arguments[0]
        if vid not in spec.variation_points:
            raise self.error(f"spec/variation_points.yaml has no variation point {vid!r}")
        vp = spec.variation_points[vid]
        pages = [(v.id, v.topic) for v in spec.variation_points.values()]
        nav = self.item_nav("variation-points", "variation-points", "all variation points", pages, vid)
        out: list[nodes.Node] = [self.target("vp", vid, vp.topic), nav]
        facts = nodes.field_list(classes=["pal-facts"])
        kinds = {"difference": "the sources differ", "gap": "both sources are silent",
                 "agreement": "the sources agree; a third party differs", "wording": "names only"}
        for name, value in (("id", literal(vid)), ("kind", nodes.Text(f"{vp.kind} ({kinds.get(vp.kind, '')})")),
                            ("engine parameter", literal(vp.parameter) if vp.parameter else nodes.Text("none")),
                            ("changes an outcome", nodes.Text(vp.changes_outcome))):
            facts += nodes.field("", nodes.field_name(name, name), nodes.field_body("", nodes.paragraph("", "", value)))
        out.append(facts)

        out.append(rubric("What the sources say"))
        for side in ("A", "B"):
            s = vp.sides[side]
            reading: list[nodes.Node] = [strong(f"Source {side}"), nodes.Text(" (")]
            reading.append(literal(s["reading"]) if s["reading"] else text("silent", "pal-open"))
            reading.append(nodes.Text("): " + s["says"]))
            out.append(self.cited(spec, reading, s["clauses"]))

        out.append(rubric("Readings"))
        if not vp.readings:
            out.append(nodes.paragraph("", "No reading is declared: every ruleset leaves this point open."))
        items = nodes.bullet_list()
        for r in vp.readings:
            p = nodes.paragraph("", "", literal(r.id), nodes.Text(": " + r.statement))
            takers = [rs for rs in spec.rulesets if vp.choices.get(rs) == r.id]
            if takers:
                p += nodes.Text(" Taken by ")
                p.extend(joined([strong(t) for t in takers]))
                p += nodes.Text(".")
            if r.third_party:
                p += nodes.Text(" Third parties reading it so: ")
                p.extend(joined([self.third_party(spec, t) for t in r.third_party]))
                p += nodes.Text(".")
            for obligation, because in r.breaks:  # what palast prove expects under it
                p += nodes.Text(" Under it the proof obligation ")
                p += literal(obligation)
                p += nodes.Text(" ends in a counterexample. " + because.rstrip(".") + ".")
            items += nodes.list_item("", p)
        if vp.readings:
            out.append(items)
        entries = _third_party_entries(vp)
        if entries:
            out.append(rubric("Third-party readings"))
            tl = nodes.bullet_list()
            for e in entries:
                tl += nodes.list_item("", nodes.paragraph("", "", self.third_party(spec, str(e["source"])),
                                                          nodes.Text(": " + str(e["says"]))))
            out.append(tl)

        out.append(rubric("Rulesets"))
        rows: list[list[Any]] = []
        for rs in spec.rulesets:
            choice = vp.choices.get(rs, OPEN)
            rows.append([strong(rs), text("open", "pal-open") if choice == OPEN else literal(choice),
                         "the engine stops with a gap" if choice == OPEN else vp.reading(choice).statement])
        out.append(table(["ruleset", "reading", "what happens"], rows, widths=[2, 3, 8]))
        out.append(nodes.paragraph("", "", strong("Why the reference ruleset reads it so: "), nodes.Text(vp.reason)))
        if vp.raw.get("note"):
            out.append(nodes.paragraph("", "", strong("Note: "), nodes.Text(str(vp.raw["note"]))))

        out.append(rubric("Witness"))
        if vp.witness:
            out.append(nodes.paragraph("", "", nodes.Text("The ruling "), self.ref("ruling", vp.witness, vp.witness),
                                       nodes.Text(" shows a position where the readings lead to different outcomes; "
                                                  "its outcome under each ruleset is computed by the engine.")))
        else:
            out.append(nodes.paragraph("", "No witness ruling is named for this point."))
        shown = [ruling for ruling in rulings_naming(spec, vid) if ruling.id != vp.witness]
        if shown:
            others = nodes.bullet_list()
            for ruling in shown:
                others += nodes.list_item("", nodes.paragraph("", "", self.ref("ruling", ruling.id, ruling.title)))
            out.append(nodes.paragraph("", "Other rulings that show this point:"))
            out.append(others)
        for f in ruling_files(spec):
            self.note(f)

        rules = [r for r in spec.rules.values() if vid in r.variation_points]
        if rules:
            out.append(rubric("Rules that depend on it"))
            out.append(nodes.paragraph("", "", *joined([self.ref("rule", r.id, r.title) for r in rules])))
        out.append(nav.deepcopy())
        return out

    def third_party(self, spec: Spec, name: str) -> nodes.Node:
        """A third-party source's short name with its kind (from ``clauses.yaml``)."""
        info = spec.third_party.get(name, {})
        kind = info.get("kind")
        node = nodes.inline("", "", literal(name))
        if kind:
            node += text(f" ({kind})", "pal-muted")
        return node


#: The test suite's registry of the tests that establish each invariant (read, not imported).
INVARIANT_REGISTRY = Path("tests") / "invariant_registry.py"


def invariant_registry(repo: Path) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """``EVERY_INVARIANT`` and ``CAUGHT_BY`` of ``tests/invariant_registry.py`` under
    ``repo``, read as literals (the module is never imported).

    :raises ValueError: if the file lacks either table or holds something else there.
    """
    tree = ast.parse((repo / INVARIANT_REGISTRY).read_text(encoding="utf-8"))
    found: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            found[node.target.id] = ast.literal_eval(node.value)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found[node.targets[0].id] = ast.literal_eval(node.value)
    if not {"EVERY_INVARIANT", "CAUGHT_BY"} <= set(found):
        raise ValueError(f"{INVARIANT_REGISTRY} must define EVERY_INVARIANT and CAUGHT_BY")
    return tuple(found["EVERY_INVARIANT"]), {k: tuple(v) for k, v in found["CAUGHT_BY"].items()}


class InvariantsDirective(SpecDirective):
    """``{palast-invariants}``: each invariant of ``spec/invariants.yaml`` with its statement,
    clauses, and how it is established: the proof obligations that prove it (the spec's
    ``established_by.proved_by``, which ``tests/test_proofs.py`` checks against the
    obligations), and the tests that check it in play and show its check can fail, from the
    test suite's own registry, ``tests/invariant_registry.py`` (which
    ``tests/test_invariant_registry.py`` verifies)."""

    reads: ClassVar[tuple[str, ...]] = ("invariants.yaml",)

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        repo = spec.root.parent
        self.note(repo / INVARIANT_REGISTRY)
        try:
            every, caught = invariant_registry(repo)
        except (OSError, SyntaxError, ValueError) as exc:
            raise self.error(f"cannot read {INVARIANT_REGISTRY}: {exc}") from None
        out: list[nodes.Node] = [nodes.paragraph("", "", nodes.Text(
            "Every invariant is checked after every action of every game these tests play: "),
            *joined([literal(t) for t in every]), nodes.Text("."))]
        for inv in spec.invariants.values():
            target = self.target("invariant", inv.id, inv.id)
            sec = nodes.section(ids=target["ids"])
            sec += nodes.title(inv.id, inv.id)
            sec += nodes.paragraph("", "", text(f"{inv.kind} invariant: ", "pal-muted"),
                                   nodes.Text("about one position" if inv.kind == "state"
                                              else "about one action, its position before and after"))
            sec += self.cited(spec, inv.statement, inv.clauses)
            if inv.holds is not None:
                sec += nodes.paragraph("", "", text("As declared (the engine's check mode runs it, the proofs "
                                                    "compile it to Z3): ", "pal-muted"))
                lines = [*(f"where {name} = {show_lines(parse(text), indent=' ' * (len(name) + 9))}"
                           for name, text in inv.let.items()),
                         show_lines(parse(inv.holds))]
                sec += nodes.literal_block("\n".join(lines), "\n".join(lines), classes=["pal-holds"])
                if inv.readings:
                    point = str(inv.readings["point"])
                    sec += nodes.paragraph("", "", text("Its parts that depend on how the ruleset reads ",
                                                        "pal-muted"), literal(point), text(":", "pal-muted"))
                    block = "\n".join(_reading_lets(spec, point, inv.readings))
                    sec += nodes.literal_block(block, block, classes=["pal-holds"])
            else:
                sec += nodes.paragraph("", "", text("Not yet declared as an expression: checked by code in "
                                                    "palast.invariants.check.", "pal-muted"))
            for lem in inv.lemmas:
                sec += nodes.paragraph("", "", text("Lemma ", "pal-muted"), literal(lem.id),
                                       text(" (a strengthening its proof needs, itself checked and proved): ",
                                            "pal-muted"), nodes.Text(lem.statement))
                sec += nodes.literal_block(show_lines(parse(lem.holds)), show_lines(parse(lem.holds)),
                                           classes=["pal-holds"])
                if lem.colours is not None:
                    sec += nodes.paragraph("", "", text("Its part about colours (the role-level model forgets "
                                                        f"colours, so the obligation {lem.id}.colours proves it "
                                                        "at the card level):", "pal-muted"))
                    sec += nodes.literal_block(show_lines(parse(lem.colours)), show_lines(parse(lem.colours)),
                                               classes=["pal-holds"])
            proved = list((inv.established_by or {}).get("proved_by", []))
            live = caught.get(inv.id, ())
            if not live:
                logger.warning("invariant %s: %s names no test for it", inv.id, INVARIANT_REGISTRY,
                               location=self.get_location())
            rows: list[list[Any]] = [
                ["proved by (Z3 obligations)", joined([literal(p) for p in proved])
                 or text("no obligation: established by the tests", "pal-muted")],
                ["its check is shown to fail by", joined([literal(t) for t in live])],
                ["checked in play by", f"every game of the {len(every)} tests above, after every action"],
                ["checked by the engine", ("after every action in check mode (palast.invariants.check)"
                                           if inv.holds is None else
                                           "after every action in check mode, from the declaration above")
                 + _left_out(spec, inv)],
            ]
            sec += table(["how", "by what"], rows, widths=[3, 8], classes=["pal-narrow"])
            out.append(sec)
        return out


class ReachabilityDirective(SpecDirective):
    """``{palast-reachability}``: each reachability question of ``spec/invariants.yaml``
    (``reachability``): the question, the answer with its clauses, the rules and the
    position it asks about (the declared condition, in the book's notation), the answer
    ``palast prove`` must give under each ruleset it is asked under (a named house ruleset's
    ``prove`` list may say otherwise) and the stored games."""

    reads: ClassVar[tuple[str, ...]] = ("invariants.yaml", "rulesets.yaml")

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        out: list[nodes.Node] = []
        for r in spec.reachability.values():
            target = self.target("reachability", r.id, r.id)
            sec = nodes.section(ids=target["ids"])
            sec += nodes.title(r.id, r.id)
            sec += nodes.paragraph("", "", text("Question: ", "pal-muted"), nodes.Text(r.question))
            sec += self.cited(spec, r.statement, r.clauses)
            answers = {rs: r.expect for rs in spec.rulesets}
            for hid, entry in spec.house_rulesets.items():
                said = dict(entry.get("prove") or {}).get(r.id)
                if said is not None:
                    answers[hid] = str(said)
            asked = r.asked_under(spec.rulesets)
            answers = {rs: a for rs, a in answers.items() if rs in asked or rs not in spec.rulesets}
            rows: list[list[Any]] = []
            if r.fires:
                rows.append(["the rules asked about", joined([self.ref("rule", x, x) for x in r.fires])])
            rows.append(["palast prove must answer", joined([nodes.Text(f"{rs}: {a}") for rs, a in answers.items()])])
            for w in r.witnesses:
                rows.append(["stored game", nodes.inline("", "", literal(f"proofs/witnesses/{w.file}"),
                                                         nodes.Text(f" (replayed under {', '.join(w.rulesets)})"))])
            if r.reaches is not None:
                sec += nodes.paragraph("", "", text("The position asked about, as declared (the engine evaluates it "
                                                    "on a stored game's last action, the proofs compile it to Z3): ",
                                                    "pal-muted"))
                sec += nodes.literal_block(show_lines(parse(r.reaches)), show_lines(parse(r.reaches)),
                                           classes=["pal-holds"])
            sec += table(["what", ""], rows, widths=[3, 8], classes=["pal-narrow"])
            out.append(sec)
        return out
