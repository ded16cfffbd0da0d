"""Per-item pages, written into ``docs/generated/`` when the build starts.

Each stub is a title and one directive that renders the item from the spec at build time;
the stubs themselves hold no fact. They are rewritten only when their text changes (so an
unchanged stub does not force a rebuild), stale ones are removed, and the folder is
ignored by git.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Mapping
from pathlib import Path

import palast
from palast.spec.load import Spec

#: Sub-folders of ``generated/``: roles, variation points, rulings, API modules.
KINDS = ("roles", "variation-points", "rulings", "api")

#: Front matter of the variation point and ruling pages. They are reached from their
#: chapter's table and carry their own previous / index / next links; keeping them out of
#: the toctree keeps the sidebar short and the build fast (the theme renders the whole
#: navigation tree on every page).
ORPHAN = "---\norphan: true\n---\n\n"

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def md_escape(s: str) -> str:
    """``s`` with Markdown's special characters escaped, for a page title."""
    return _MD_SPECIAL.sub(r"\\\1", s)


def api_modules() -> list[str]:
    """Every module of the ``palast`` package (``python -m palast``'s ``__main__`` aside),
    sorted."""
    names = ["palast"] + [m.name for m in pkgutil.walk_packages(palast.__path__, "palast.")]
    return sorted(n for n in names if not n.endswith("__main__"))


def api_packages() -> dict[str, list[str]]:
    """Package -> the package and the plain modules directly inside it: one API page each."""
    mods = api_modules()
    packages = [m for m in mods if hasattr(importlib.import_module(m), "__path__")]
    out: dict[str, list[str]] = {p: [p] for p in packages}
    for m in mods:
        if m not in out:
            out[m.rpartition(".")[0]].append(m)
    return out


def api_page(package: str, modules: list[str]) -> str:
    """The Markdown of one API page: a section per module, documented by autodoc (which
    writes reStructuredText, so the directive runs inside ``eval-rst``)."""
    parts = [f"# `{package}`\n"]
    for mod in modules:
        title = f"`{mod}`"
        parts.append(f"{'## ' + title if mod != package else ''}\n\n```{{eval-rst}}\n.. automodule:: {mod}\n"
                     f"   :members:\n   :show-inheritance:\n   :ignore-module-all:\n```\n")
    return "\n".join(parts)


def stub_pages(spec: Spec, rulings: Mapping[str, str]) -> dict[str, str]:
    """Page path (relative to ``generated/``) -> Markdown text, for every role, variation
    point, ruling (``rulings``: id -> title) and API module."""
    pages: dict[str, str] = {}
    for role in spec.roles:
        title = f"{role.capitalize()} ({spec.role_names[role]['german']})"
        pages[f"roles/{role}.md"] = f"# {md_escape(title)}\n\n```{{palast-role}} {role}\n```\n"
    for vid, vp in spec.variation_points.items():
        pages[f"variation-points/{vid}.md"] = (f"{ORPHAN}# {md_escape(vp.topic)}\n\n"
                                               f"```{{palast-variation-point}} {vid}\n```\n")
    for rid, title in rulings.items():
        pages[f"rulings/{rid}.md"] = f"{ORPHAN}# {md_escape(title)}\n\n```{{palast-ruling}} {rid}\n```\n"
    for package, modules in api_packages().items():
        pages[f"api/{package}.md"] = api_page(package, modules)
    return pages


def entries(spec: Spec, kind: str, rulings: Mapping[str, str]) -> list[str]:
    """The generated pages of ``kind``, in spec order, as absolute docnames."""
    if kind == "roles":
        ids: list[str] = list(spec.roles)
    elif kind == "variation-points":
        ids = list(spec.variation_points)
    elif kind == "rulings":
        ids = list(rulings)
    elif kind == "api":
        ids = list(api_packages())
    else:
        raise ValueError(f"no generated pages of kind {kind!r} (known: {', '.join(KINDS)})")
    return [f"/generated/{kind}/{i}" for i in ids]


def write_stubs(outdir: Path, pages: Mapping[str, str]) -> int:
    """Write ``pages`` under ``outdir``, touching only files whose text changed, and
    remove stale Markdown files. :returns: the number of files written."""
    written = 0
    for rel, body in pages.items():
        path = outdir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != body:
            path.write_text(body, encoding="utf-8")
            written += 1
    keep = {outdir / rel for rel in pages}
    for old in outdir.rglob("*.md"):
        if old not in keep:
            old.unlink()
    return written
