"""The spec as the rulebook sees it: loading, build dependencies, labels and citations.

Every directive of the book derives from :class:`SpecDirective`. It loads the spec through
:func:`palast.spec.load.load_spec` (once per change of the spec files), registers each spec file
it reads as a build dependency of the page, and builds the nodes every page shares: clause
citations that link to the clause index, links to labels, tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import ClassVar, TypeAlias

from docutils import nodes
from sphinx import addnodes
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective

from palast.errors import InputError
from palast.spec.load import OPEN, SPEC_FILES, Spec, load_spec

#: Spec files by short name, as a directive declares what it reads.
FILES: tuple[str, ...] = tuple(name for name, _schema in SPEC_FILES)

_CACHE: dict[Path, tuple[tuple[tuple[str, int], ...], Spec]] = {}


def _stamp(root: Path) -> tuple[tuple[str, int], ...]:
    """Names and modification times of every file under the spec directory."""
    return tuple(sorted((str(p), p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()))


def spec_root(config_value: str | None, confdir: str | Path) -> Path:
    """The spec directory the book reads: ``palast_spec_dir`` from ``conf.py`` (relative to
    the configuration directory), else ``spec/`` beside ``docs/``."""
    if config_value:
        p = Path(config_value)
        return p if p.is_absolute() else (Path(confdir) / p).resolve()
    return (Path(confdir) / ".." / "spec").resolve()


def get_spec(root: Path) -> Spec:
    """Load the spec in ``root`` with :func:`palast.spec.load.load_spec`, again only when a file
    under it changed.

    :raises ExtensionError: with the spec's own list of problems if it does not load.
    """
    stamp = _stamp(root)
    hit = _CACHE.get(root)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    try:
        spec = load_spec(root)
    except InputError as exc:
        raise ExtensionError(f"the rulebook cannot be built from {root}: {exc.render()}") from None
    _CACHE[root] = (stamp, spec)
    return spec


def rulesets_by_reading(spec: Spec, point: str) -> dict[str, list[str]]:
    """The rulesets of ``spec`` grouped by the reading each takes of variation point
    ``point`` (``open`` for those that leave it open), in ruleset order."""
    vp = spec.variation_points[point]
    groups: dict[str, list[str]] = {}
    for rs in spec.rulesets:
        groups.setdefault(vp.choices.get(rs, OPEN), []).append(rs)
    return groups


# ---------------------------------------------------------------------------- labels
def label(kind: str, ident: str) -> str:
    """The cross-reference label of a spec item: ``clause-a.role.wizard``, ``role-maid``,
    ``vp-cupbearer-scope``, ``rule-turn.play``, ``invariant-...``, ``ruling-...``."""
    return f"{kind}-{ident}".lower()


def anchor(kind: str, ident: str) -> str:
    """The HTML id of a spec item's anchor (its label made into a valid id)."""
    return str(nodes.make_id(label(kind, ident)))


class SpecDirective(SphinxDirective):
    """A directive that renders part of the spec.

    Subclasses list the spec files they read in :attr:`reads`; :meth:`spec` registers
    them (and ``clauses.yaml``, which every citation reads) as dependencies of the page.
    """

    reads: ClassVar[tuple[str, ...]] = ()

    # ------------------------------------------------------------------ data
    def spec(self) -> Spec:
        """The loaded spec; notes every file this directive reads as a dependency."""
        root = spec_root(self.config.palast_spec_dir, self.env.srcdir)
        for name in ("clauses.yaml", *self.reads):
            self.note(root / name)
        if {"rules.yaml", "roles.yaml"} & set(self.reads):  # rules are declared in the modules too
            for path in sorted((root / "modules").glob("*.yaml")):
                self.note(path)
        return get_spec(root)

    def note(self, path: Path) -> None:
        """Register ``path`` as a build dependency of the current page."""
        self.env.note_dependency(str(path))

    # ------------------------------------------------------------------ targets
    def target(self, kind: str, ident: str, title: str) -> nodes.target:
        """An anchor for a spec item, registered as a ``std`` label so that every page
        (and ``{ref}`` in prose) can link to it; a broken link fails the build (``-n``)."""
        node_id = anchor(kind, ident)
        std = self.env.domains.standard_domain
        std.note_hyperlink_target(label(kind, ident), self.env.docname, node_id, title)
        return nodes.target("", "", ids=[node_id])

    def ref(self, kind: str, ident: str, text: str | None = None, *, classes: Sequence[str] = ()) -> nodes.Node:
        """A link to the anchor of a spec item, by label."""
        shown = text if text is not None else ident
        xref = addnodes.pending_xref("", nodes.inline(shown, shown), refdomain="std", reftype="ref",
                                     reftarget=label(kind, ident), refexplicit=True, refwarn=True,
                                     refdoc=self.env.docname)
        # the resolved reference replaces the inner node, so classes go on a wrapper
        return nodes.inline("", "", xref, classes=list(classes)) if classes else xref

    def doc_ref(self, docname: str, text: str) -> nodes.Node:
        """A link to a whole page (``docname`` absolute, without suffix)."""
        inner = nodes.inline(text, text)
        return addnodes.pending_xref("", inner, refdomain="std", reftype="doc", reftarget="/" + docname,
                                     refexplicit=True, refwarn=True, refdoc=self.env.docname)

    def item_nav(self, kind: str, index_doc: str, index_title: str, items: Sequence[tuple[str, str]],
                 current: str) -> nodes.paragraph:
        """Links to the previous item, the chapter's index page and the next item, for a
        page that is one of ``items`` (``(id, title)``, in order) of ``kind``."""
        ids = [i for i, _ in items]
        at = ids.index(current)
        nav = nodes.paragraph(classes=["pal-item-nav"])
        if at > 0:
            nav += text("← ", "pal-muted")
            nav += self.doc_ref(f"generated/{kind}/{items[at - 1][0]}", items[at - 1][1])
            nav += text("  ·  ", "pal-muted")
        nav += text("↑ ", "pal-muted")
        nav += self.doc_ref(index_doc, index_title)
        nav += text(f" ({at + 1} of {len(items)})", "pal-muted")
        if at + 1 < len(items):
            nav += text("  ·  ", "pal-muted")
            nav += self.doc_ref(f"generated/{kind}/{items[at + 1][0]}", items[at + 1][1])
            nav += text(" →", "pal-muted")
        return nav

    # ------------------------------------------------------------------ citations
    def cite(self, spec: Spec, clause_ids: Iterable[str]) -> nodes.inline:
        """The clause citations of one rule sentence: each clause id with its source letter
        and line range (:attr:`palast.spec.load.Clause.cite`, ``A 38–39``), linked to the clause
        index."""
        box = nodes.inline("", "", classes=["pal-cites"])
        for i, cid in enumerate(clause_ids):
            if cid not in spec.clauses:
                raise self.error(f"unknown clause id {cid!r}")
            if i:
                box += nodes.Text("; ")
            box += self.ref("clause", cid, spec.clauses[cid].cite, classes=["pal-cite"])
        return box

    def cited(self, spec: Spec, text: str | nodes.Node | list[nodes.Node], clause_ids: Iterable[str],
              *, classes: Sequence[str] = ()) -> nodes.paragraph:
        """A paragraph of ``text`` followed by its citations."""
        para = nodes.paragraph("", "", classes=list(classes))
        if isinstance(text, str):
            para += nodes.Text(text)
        elif isinstance(text, list):
            para.extend(text)
        else:
            para += text
        ids = list(clause_ids)
        if ids:
            para += nodes.Text(" ")
            para += self.cite(spec, ids)
        return para


# ---------------------------------------------------------------------------- node helpers
Cell: TypeAlias = str | nodes.Node | list[nodes.Node]


def _cell_nodes(cell: Cell) -> list[nodes.Node]:
    if isinstance(cell, str):
        return [nodes.paragraph(cell, cell)] if cell else []
    if isinstance(cell, list):
        out: list[nodes.Node] = []
        inline: list[nodes.Node] = []
        for n in cell:
            if isinstance(n, (nodes.Inline, nodes.Text)):
                inline.append(n)
            else:
                if inline:
                    out.append(nodes.paragraph("", "", *inline))
                    inline = []
                out.append(n)
        if inline:
            out.append(nodes.paragraph("", "", *inline))
        return out
    if isinstance(cell, (nodes.Inline, nodes.Text)):
        return [nodes.paragraph("", "", cell)]
    return [cell]


def table(headers: Sequence[str], rows: Sequence[Sequence[Cell]], *, widths: Sequence[int] | None = None,
          classes: Sequence[str] = ()) -> nodes.table:
    """A docutils table with a header row; each cell is text, a node or a list of nodes."""
    ncols = len(headers)
    tbl = nodes.table(classes=["pal-table", *classes])
    group = nodes.tgroup(cols=ncols)
    tbl += group
    for w in widths or [1] * ncols:
        group += nodes.colspec(colwidth=w)
    head = nodes.thead()
    group += head
    hrow = nodes.row()
    for h in headers:
        hrow += nodes.entry("", nodes.paragraph(h, h))
    head += hrow
    body = nodes.tbody()
    group += body
    for r in rows:
        if len(r) != ncols:
            raise ValueError(f"a table row has {len(r)} cells, the header {ncols}")
        row = nodes.row()
        for c in r:
            row += nodes.entry("", *_cell_nodes(c))
        body += row
    return tbl


def text(s: str, *classes: str) -> nodes.inline:
    """An inline text node with CSS classes."""
    return nodes.inline(s, s, classes=list(classes))


def literal(s: str) -> nodes.literal:
    """An inline code literal (an id, a command, a notation string)."""
    return nodes.literal(s, s)


def strong(s: str) -> nodes.strong:
    """Bold inline text."""
    return nodes.strong(s, s)


def joined(items: Sequence[nodes.Node], sep: str = ", ") -> list[nodes.Node]:
    """``items`` separated by ``sep``."""
    out: list[nodes.Node] = []
    for i, n in enumerate(items):
        if i:
            out.append(nodes.Text(sep))
        out.append(n)
    return out


def section(title: str, ident: str, *body: nodes.Node) -> nodes.section:
    """A section with ``title`` and HTML id ``ident``."""
    sec = nodes.section(ids=[nodes.make_id(ident)])
    sec += nodes.title(title, title)
    sec.extend(body)
    return sec


def rubric(title: str) -> nodes.rubric:
    """A small heading that does not enter the table of contents."""
    return nodes.rubric(title, title)
