"""palast's rulebook extension: the book's rule pages are rendered from ``spec/`` at build
time, the way pylint's ``doc/exts/`` renders its checkers from the live registry.

When the build starts (``builder-inited``) the spec is loaded with
:func:`palast.spec.load.load_spec` and a stub page per role, variation point, ruling and API
module is written into ``docs/generated/``. The directives registered here render the
content; each notes the spec files it reads as dependencies of its page, so editing a
spec file rebuilds exactly the pages that show it.

Directives: ``palast-components``, ``palast-rules TOPIC``, ``palast-role ROLE``,
``palast-rulesets``, ``palast-turn-diagram``, ``palast-variation-table``,
``palast-variation-point ID``, ``palast-rulings``, ``palast-ruling ID``,
``palast-invariants``, ``palast-reachability``, ``palast-clause-index``, ``palast-toctree KIND``,
``palast-knowledge``, ``palast-state``, ``palast-primitives``, ``palast-statements``,
``palast-steps``, ``palast-declared-rules``,
``palast-declaration RULE``.
Role: ``{clauses}`` — clause citations in prose, e.g. ``{clauses}`A.meta B.meta```.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.directives.other import TocTree
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole

from . import flow, knowledge, logic, modules, register, rules, rulings, scenario_keys, state, stubs
from .apiref import setup_api_refs
from .rulings import setup_rulings
from .specdata import get_spec, label, spec_root

logger = logging.getLogger(__name__)


def _generate(app: Sphinx) -> None:
    """``builder-inited``: load the spec and write the per-item stub pages."""
    root = spec_root(app.config.palast_spec_dir, app.confdir)
    spec = get_spec(root)
    kinds = set(app.config.palast_stub_kinds)
    pages = {k: v for k, v in stubs.stub_pages(spec, rulings.ruling_titles(spec)).items()
             if k.split("/")[0] in kinds}
    n = stubs.write_stubs(Path(app.srcdir) / "generated", pages)
    logger.info("palast: %d generated pages (%d rewritten) from %s", len(pages), n, root)


class GeneratedTocTree(TocTree):
    """``{palast-toctree} KIND``: a toctree of the generated pages of ``KIND`` (roles,
    variation-points, rulings, api) in spec order. Takes the options of ``toctree``."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        root = spec_root(self.config.palast_spec_dir, self.env.srcdir)
        spec = get_spec(root)
        kind = self.arguments[0]
        reads = {"roles": [root / "game.yaml"], "variation-points": [root / "variation_points.yaml"],
                 "rulings": rulings.ruling_files(spec)}
        for p in reads.get(kind, []):
            self.env.note_dependency(str(p))
        try:
            docs = stubs.entries(spec, kind, rulings.ruling_titles(spec))
        except ValueError as exc:
            raise self.error(str(exc)) from None
        self.arguments: list[str] = []
        self.content = StringList(docs, source="palast-toctree")
        return super().run()


class ClausesRole(SphinxRole):
    """``{clauses}`A.meta B.meta```: clause citations (source letter and line range, as
    ``A.meta (A 3–5)``) linked to the clause index, for a rule sentence written in prose."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        root = spec_root(self.config.palast_spec_dir, self.env.srcdir)
        self.env.note_dependency(str(root / "clauses.yaml"))
        spec = get_spec(root)
        from sphinx import addnodes

        box = nodes.inline("", "", classes=["pal-cites"])
        ids = self.text.replace(",", " ").split()
        for i, cid in enumerate(ids):
            if cid not in spec.clauses:
                msg = self.inliner.reporter.error(f"unknown clause id {cid!r}", line=self.lineno)
                return [], [msg]
            if i:
                box += nodes.Text("; ")
            inner = nodes.inline(spec.clauses[cid].cite, spec.clauses[cid].cite)
            xref = addnodes.pending_xref("", inner, refdomain="std", reftype="ref", reftarget=label("clause", cid),
                                         refexplicit=True, refwarn=True, refdoc=self.env.docname)
            box += nodes.inline("", "", xref, classes=["pal-cite"])
        return [box], []


DIRECTIVES: dict[str, Any] = {
    "palast-components": rules.ComponentsDirective,
    "palast-rules": rules.RulesDirective,
    "palast-role": rules.RoleDirective,
    "palast-rulesets": rules.RulesetsDirective,
    "palast-turn-diagram": flow.TurnDiagramDirective,
    "palast-variation-table": register.VariationTableDirective,
    "palast-variation-point": register.VariationPointDirective,
    "palast-invariants": register.InvariantsDirective,
    "palast-reachability": register.ReachabilityDirective,
    "palast-clause-index": register.ClauseIndexDirective,
    "palast-sources": register.SourcesDirective,
    "palast-scenario-keys": scenario_keys.ScenarioKeysDirective,
    "palast-rulings": rulings.RulingsDirective,
    "palast-ruling": rulings.RulingDirective,
    "palast-toctree": GeneratedTocTree,
    "palast-primitives": logic.PrimitivesDirective,
    "palast-declared-rules": logic.DeclaredRulesDirective,
    "palast-statements": logic.StatementsDirective,
    "palast-steps": logic.StepsDirective,
    "palast-declaration": rules.DeclarationDirective,
    "palast-knowledge": knowledge.KnowledgeDirective,
    "palast-state": state.StateDirective,
    "palast-module": modules.ModuleDirective,
}


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the configuration values, directives, role, stylesheet and the stub
    generator. :returns: the extension's metadata."""
    app.setup_extension("sphinx.ext.graphviz")
    app.add_config_value("palast_spec_dir", None, "env", types=frozenset({str, type(None)}))
    app.add_config_value("palast_flow_games", 20, "env", types=frozenset({int}))
    app.add_config_value("palast_stub_kinds", list(stubs.KINDS), "env", types=frozenset({list, tuple}))
    for name, directive in DIRECTIVES.items():
        app.add_directive(name, directive)
    app.add_role("clauses", ClausesRole())
    app.connect("builder-inited", _generate)
    setup_api_refs(app)
    setup_rulings(app)
    app.add_css_file("palast.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
