"""Resolving the short names that palast's docstrings use in the API reference.

palast's docstrings write ``:class:`Game``` or ``:meth:`Game.playout``` where the module
imports the name, and packages re-export classes (``palast.engine.Game`` is
``palast.engine.game.Game``). Python's domain cannot resolve such names on its own. The
``missing-reference`` handler here resolves a Python reference that Sphinx could not:

1. a dotted name that imports to an object documented under its defining module;
2. otherwise a name that is the unique suffix of one documented object;
3. a name defined at the top level of exactly one documented module but not documented
   itself (a type alias such as ``Action``, a click command): a link to that module;
4. an attribute that exists on the class the reference is written in (a dataclass field
   documented with ``:ivar:``), shown as code without a link.

Anything else stays unresolved, and ``-n`` reports it.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from functools import cache
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.nodes import make_refnode


def _import(dotted: str) -> Any:
    """The object named by ``dotted`` (module, then attributes), or ``None``."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for p in parts[i:]:
                obj = getattr(obj, p)
        except AttributeError:
            return None
        return obj
    return None


def _canonical(obj: Any) -> str | None:
    mod = getattr(obj, "__module__", None)
    qual = getattr(obj, "__qualname__", None)
    return f"{mod}.{qual}" if isinstance(mod, str) and isinstance(qual, str) else None


@cache
def _top_level_names(modname: str) -> frozenset[str]:
    """Names a module defines at its top level (assignments, functions, classes)."""
    try:
        source = inspect.getsource(importlib.import_module(modname))
    except (ImportError, OSError, TypeError):
        return frozenset()
    names: set[str] = set()
    for stmt in ast.parse(source).body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            names.add(stmt.target.id)
    return frozenset(names)


def resolve(app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref,
            contnode: nodes.TextElement) -> nodes.Node | None:
    """``missing-reference`` handler for the ``py`` domain (see the module docstring)."""
    if node.get("refdomain") != "py":
        return None
    target: str = node["reftarget"].removeprefix("~").removesuffix("()")
    objects = env.domains.python_domain.objects
    builder = app.builder
    fromdoc = node.get("refdoc", env.docname)

    def link(name: str) -> nodes.Node:
        entry = objects[name]
        return make_refnode(builder, fromdoc, entry.docname, entry.node_id, contnode, name)

    modname = node.get("py:module") or ""
    classname = node.get("py:class") or ""
    candidates = [target]
    if modname:
        candidates += [f"{modname}.{classname}.{target}" if classname else "", f"{modname}.{target}"]
    for cand in filter(None, candidates):
        obj = _import(cand)
        canon = _canonical(obj) if obj is not None else None
        if canon and canon in objects:
            return link(canon)
        # a member reached through a re-exported class: palast.engine.Game.apply
        head, _, tail = cand.rpartition(".")
        owner = _import(head) if head else None
        owner_canon = _canonical(owner) if owner is not None else None
        if owner_canon and f"{owner_canon}.{tail}" in objects:
            return link(f"{owner_canon}.{tail}")
    matches = [name for name in objects if name == target or name.endswith("." + target)]
    if len(matches) == 1:
        return link(matches[0])
    short = target.rpartition(".")[2]
    modules = env.domains.python_domain.modules
    homes = [m for m in modules if short in _top_level_names(m)]
    if len(homes) == 1:
        entry = modules[homes[0]]
        return make_refnode(builder, fromdoc, entry.docname, entry.node_id, contnode, homes[0])
    if node.get("reftype") == "attr" and modname and classname:
        owner = _import(f"{modname}.{classname}")
        fields = getattr(owner, "__dataclass_fields__", {})
        if target in fields or hasattr(owner, target):
            return nodes.literal(target, target)
    return None


def setup_api_refs(app: Sphinx) -> None:
    """Connect :func:`resolve` to ``missing-reference``."""
    app.connect("missing-reference", resolve)
