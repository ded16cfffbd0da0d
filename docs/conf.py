"""Sphinx configuration of the palast rulebook.

The rule pages are rendered from ``spec/`` by the local extension in ``_ext/palast_book``;
per-item pages are generated into ``generated/`` at build time (not committed). Build:

    sphinx-build -W --keep-going -n -b html docs docs/_build/html
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

from palast.spec.load import load_spec  # noqa: E402

palast_spec_dir = str(HERE.parent / "spec")
_game = load_spec(palast_spec_dir).game

project = "palast"
author = "the palast authors"
copyright = "palast authors; rule sources A and B belong to their translators"
html_title = f"{_game['name']} — the palast rulebook"
html_short_title = "palast rulebook"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.graphviz",
    "sphinx_click",
    "palast_book",
]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

nitpicky = True
# No network at build time, so no intersphinx inventories: references to the standard
# library and to third-party classes in signatures cannot resolve and are not warned about.
nitpick_ignore_regex = [
    (r"py:.*", r"(typing|collections|collections\.abc|pathlib|fractions|random|enum|dataclasses|types|io|"
               r"yaml|jsonschema|click|rich|re|os|abc)\..*"),
    (r"py:.*", r"(Any|Path|Fraction|Mapping|Sequence|Iterable|Iterator|Callable|Counter|NewType|Random|"
               r"StrEnum|Node|Context|Group|TextIO|IO|int|str|bool|float|object|tuple|list|dict|set|frozenset)"),
]
# API pages list their modules in the page contents, not every class and function (which
# also keeps the navigation cheap to render on every page).
toc_object_entries = False
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": True}

graphviz_output_format = "svg"
# Without Graphviz's dot on the PATH (a fresh machine), draw with the WebAssembly build of
# Graphviz that palast installs from PyPI (_ext/dot_wasm.py).
if shutil.which("dot") is None:
    graphviz_dot = sys.executable
    graphviz_dot_args = [str(HERE / "_ext" / "dot_wasm.py")]

html_theme = "furo"
# furo sets a dark Pygments style when none is given, which Sphinx sees as a changed
# configuration and so re-reads every page; naming it keeps incremental builds incremental.
pygments_dark_style = "native"
html_static_path = ["_static"]
html_theme_options = {
    "sidebar_hide_name": False,
    "navigation_with_keys": True,
}
html_last_updated_fmt = None
html_copy_source = False
html_show_sourcelink = False
