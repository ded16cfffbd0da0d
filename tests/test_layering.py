"""The import graph of ``palast/`` and ``proofs/`` against the intended layering.

The graph is read from the source with :mod:`ast`: every ``import`` and ``from ... import``
anywhere in a module (inside functions too), ``from package import name`` counted as an
import of the submodule ``package.name`` when there is one, and ``importlib.import_module``
with a constant name. An import whose module name is computed at run time must be declared
in :data:`DYNAMIC` with the modules it may load. Imports under ``if TYPE_CHECKING:`` never
run: they count for the layering (a type from a higher layer is still a dependency on it)
but not as part of an import cycle.

Three checks:

1. no import cycle between modules;
2. every module belongs to one layer of :data:`LAYERS` and imports only from its own layer
   or the layers before it, except for the edges named in :data:`EXCEPTIONS`;
3. nothing outside ``palast/engine/`` uses the engine's working copy of a state (``Draft``,
   module ``palast.engine.draft``), except the files in :data:`DRAFT_EXCEPTIONS`.

The README's Layout table points here.
"""

from __future__ import annotations

import ast
import graphlib
import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Layer:
    """A layer: a name, the modules in it (``a.b`` is that module, ``a.b.*`` the package
    ``a.b`` and everything in it; a module belongs to the layer of its most specific
    pattern) and what it holds."""

    name: str
    modules: tuple[str, ...]
    holds: str


#: The layers, lowest first. A module may import from its own layer and the layers above
#: it in this table, never from a layer below it. Each package of palast is one layer (the
#: engine's has two packages); a module of palast outside them belongs to no layer, and so
#: fails :func:`test_layering`: a new module goes into the package of what it does.
LAYERS: tuple[Layer, ...] = (
    Layer("spec", ("palast", "palast.errors", "palast.spec.*", "palast.lang.*"),
          "loading and validating spec/: YAML reading, JSON Schema, the Spec value and its cross-checks, "
          "the rule language that reads and compiles the rules' logic, the rule sources' check, "
          "the discrepancy register's rules, card numbering; the errors every layer raises"),
    Layer("engine", ("palast.engine.*", "palast.invariants.*"),
          "the state machine that runs the spec, and the invariants of spec/invariants.yaml that its "
          "check mode evaluates after every action"),
    Layer("sim", ("palast.sim.*",),
          "seeded games played by policies: play, policies, simulate and its report and plots"),
    Layer("formats", ("palast.formats.*",),
          "the text forms of actions, positions, scenarios, game records (of played games, so above sim) "
          "and house rules"),
    Layer("query", ("palast.query.*",),
          "questions put to the engine about positions, records and rulings: ask, replay, rulings, explain, "
          "and the words for events and views"),
    Layer("proofs", ("proofs.*",), "the Z3 encoding and the proof obligations"),
    Layer("cli", ("palast.cli.*", "palast.__main__"),
          "the command line; palast prove's command is the one part of palast that imports proofs"),
)

#: Imports that break the layering, each with the reason it is allowed for now.
EXCEPTIONS: Mapping[tuple[str, str], str] = {}

_STRENGTHENING = ("the inductive prover's strengthening (proofs.invariant, strengthening) gathers one conjunct "
                  "from each family of obligations, which imports the prover; the import is inside the function "
                  "so it runs after both modules are loaded; for the proofs rewrite to remove")

#: Imports left out of the search for cycles, each with the reason the cycle it closes is
#: allowed for now. Each still closes a cycle (a test checks it).
CYCLE_EXCEPTIONS: Mapping[tuple[str, str], str] = {
    **{("proofs.invariant", f"proofs.{family}"): _STRENGTHENING
       for family in ("conservation", "displays", "hand_display", "king", "reachability", "termination")},
    ("proofs.invariant", "proofs.search"):
        "prove_invariant turns a failed induction step into a counterexample scenario with "
        "proofs.search.counterexample, and proofs.search builds on the prover's contexts; the import is "
        "inside the function; for the proofs rewrite to remove",
}

#: Imports whose module name is computed when they run: the importing module, the modules
#: it may load (a pattern as in :class:`Layer`) and why the name is computed.
DYNAMIC: Mapping[str, tuple[str, str]] = {
    "palast.cli": ("palast.cli.*", "each command's module is imported when the command runs or help lists it "
                                   "(COMMAND_MODULES), so palast ask does not load z3 or the other commands"),
    "proofs.runner": ("proofs.*", "each family of obligations (FAMILIES) is imported when it is collected"),
}

#: Files outside palast/engine/ that may use the engine's working copy, and why.
DRAFT_EXCEPTIONS: Mapping[str, str] = {}

#: Where the checks of the working copy look: every Python file under these directories.
DRAFT_SCAN: tuple[str, ...] = ("palast", "proofs", "tests", "benchmarks", "docs")


# ---------------------------------------------------------------------- the graph
@dataclass(frozen=True)
class Import:
    """One import of one module of the packages by another: where it is written and whether
    it runs only for the type checker."""

    source: str
    target: str
    file: str
    line: int
    type_only: bool

    @property
    def place(self) -> str:
        """``file:line``."""
        return f"{self.file}:{self.line}"


def find_modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of ``packages`` (directories under ``root``), by dotted name."""
    out: dict[str, Path] = {}
    for pkg in packages:
        for f in sorted((root / pkg).rglob("*.py")):
            parts = list(f.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = f
    return out


def matches(pattern: str, module: str) -> bool:
    """Whether ``module`` is named by ``pattern`` (``a.b`` or ``a.b.*``)."""
    if pattern.endswith(".*"):
        base = pattern[:-2]
        return module == base or module.startswith(base + ".")
    return module == pattern


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _type_only_nodes(tree: ast.AST) -> set[int]:
    """The ids of the nodes inside an ``if TYPE_CHECKING:`` body."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for stmt in node.body:
                out.update(id(n) for n in ast.walk(stmt))
    return out


def read_imports(root: Path, packages: Iterable[str],
                 dynamic: Mapping[str, tuple[str, str]]) -> tuple[list[Import], list[str]]:
    """The imports between the modules of ``packages`` and the problems found reading them
    (an ``import_module`` with a computed name that ``dynamic`` does not declare, or a
    declaration no longer needed)."""
    mods = find_modules(root, packages)
    imports: list[Import] = []
    problems: list[str] = []
    dynamic_seen: set[str] = set()

    def known(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    for module, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        type_only = _type_only_nodes(tree)
        rel = path.relative_to(root).as_posix()
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]

        found: list[tuple[str | None, ast.AST]] = []
        add = found.append
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    add((known(alias.name), node))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base_parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(base_parts + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    add((sub if sub in mods else known(base), node))
            elif (isinstance(node, ast.Call) and node.args
                  and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                       or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__")))):
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    add((known(arg.value), node))
                elif module in dynamic:
                    dynamic_seen.add(module)
                    pattern = dynamic[module][0]
                    for target in mods:
                        if matches(pattern, target):
                            add((target, node))
                else:
                    problems.append(f"{rel}:{node.lineno}: {module} imports a module whose name is computed; "
                                    "declare the modules it may load in DYNAMIC")
        imports.extend(Import(module, target, rel, getattr(node, "lineno", 0), id(node) in type_only)
                       for target, node in found if target is not None and target != module)
    problems.extend(f"DYNAMIC declares computed imports in {m}, which has none" for m in dynamic
                    if m in mods and m not in dynamic_seen)
    return imports, problems


def find_cycles(imports: Iterable[Import], left_out: Iterable[tuple[str, str]] = ()) -> list[list[str]]:
    """Import cycles, each as the modules in import order, the first repeated at the end,
    not counting imports that run only for the type checker and the edges ``left_out``.
    Every module that lies on a cycle lies on at least one of those returned (each cycle
    found has one of its edges taken out before looking for the next)."""
    skip = set(left_out)
    graph: dict[str, set[str]] = {}
    for i in imports:
        if not i.type_only and (i.source, i.target) not in skip:
            graph.setdefault(i.source, set()).add(i.target)
    cycles: list[list[str]] = []
    while True:
        try:
            graphlib.TopologicalSorter(graph).prepare()
        except graphlib.CycleError as exc:
            # exc.args[1] lists the cycle with each module depending on the next
            found: list[str] = list(reversed(exc.args[1]))
            cycles.append(found)
            graph[found[0]].discard(found[1])
            continue
        return cycles


def layer_of(module: str, layers: Iterable[Layer]) -> int | None:
    """The index of the layer of ``module`` (its most specific pattern), or ``None``."""
    best: tuple[int, int] | None = None
    for index, layer in enumerate(layers):
        for pattern in layer.modules:
            if matches(pattern, module):
                rank = len(pattern) * 2 + (not pattern.endswith(".*"))
                if best is None or rank > best[0]:
                    best = (rank, index)
    return best[1] if best is not None else None


def layering_problems(modules: Iterable[str], imports: Iterable[Import], layers: tuple[Layer, ...],
                      exceptions: Mapping[tuple[str, str], str]) -> list[str]:
    """Modules in no layer, imports from a higher layer that :data:`EXCEPTIONS` does not
    allow, and exceptions for imports that no longer exist."""
    problems = [f"{m} belongs to no layer" for m in sorted(modules) if layer_of(m, layers) is None]
    used: set[tuple[str, str]] = set()
    for i in imports:
        src, dst = layer_of(i.source, layers), layer_of(i.target, layers)
        if src is None or dst is None or dst <= src:
            continue
        if (i.source, i.target) in exceptions:
            used.add((i.source, i.target))
            continue
        problems.append(f"{i.place}: {i.source} (layer {layers[src].name}) imports {i.target} "
                        f"(layer {layers[dst].name}, above it)")
    problems.extend(f"the exception {a} -> {b} is no longer needed" for a, b in exceptions if (a, b) not in used)
    return problems


def draft_uses(root: Path, dirs: Iterable[str], allowed: Iterable[str]) -> list[str]:
    """Every place in the Python files of ``dirs`` (directories or files under ``root``),
    outside ``palast/engine/`` and the ``allowed`` files, that imports the module
    ``palast.engine.draft`` or names ``Draft``."""
    allowed = set(allowed)
    out: list[str] = []
    for d in dirs:
        where = root / d
        for f in [where] if where.is_file() else sorted(where.rglob("*.py")):
            rel = f.relative_to(root).as_posix()
            if rel.startswith("palast/engine/") or rel in allowed:
                continue
            for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"), rel)):
                what = None
                if isinstance(node, ast.Import) and any(a.name == "palast.engine.draft" for a in node.names):
                    what = "imports palast.engine.draft"
                elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("palast.engine"):
                    names = {a.name for a in node.names}
                    if node.module == "palast.engine.draft" or "Draft" in names or (
                            node.module == "palast.engine" and "draft" in names):
                        what = f"imports from {node.module}: {', '.join(sorted(names))}"
                elif (isinstance(node, ast.Name) and node.id == "Draft") or (
                        isinstance(node, ast.Attribute) and node.attr == "Draft"):
                    what = "names Draft"
                if what is not None:
                    out.append(f"{rel}:{getattr(node, 'lineno', 0)}: {what}")
    return out


# ---------------------------------------------------------------------- the checks
PACKAGES = ("palast", "proofs")


def _graph() -> tuple[dict[str, Path], list[Import]]:
    imports, problems = read_imports(ROOT, PACKAGES, DYNAMIC)
    assert not problems, "\n".join(problems)
    return find_modules(ROOT, PACKAGES), imports


def test_no_import_cycle() -> None:
    """No module imports itself through others, counting imports inside functions, except
    through an edge of CYCLE_EXCEPTIONS; each of those still closes a cycle."""
    _, imports = _graph()
    cycles = find_cycles(imports, CYCLE_EXCEPTIONS)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)
    for edge in CYCLE_EXCEPTIONS:
        others = [e for e in CYCLE_EXCEPTIONS if e != edge]
        assert find_cycles(imports, others), f"{edge[0]} -> {edge[1]} closes no cycle: take it out of CYCLE_EXCEPTIONS"


def test_layering() -> None:
    """Every module is in a layer and imports only from its own layer and lower ones,
    except the edges in EXCEPTIONS, each of which is still needed."""
    mods, imports = _graph()
    problems = layering_problems(mods, imports, LAYERS, EXCEPTIONS)
    assert not problems, "\n".join(problems)


def test_palast_imports_proofs_only_in_command_modules() -> None:
    """Within palast, only the modules of commands, which the command line imports when the
    command runs, import proofs (and so z3): no other command pays for loading it."""
    from palast.cli import COMMAND_MODULES

    commands = {f"palast.cli.{m}" for m in COMMAND_MODULES.values()}
    _, imports = _graph()
    wrong = [f"{i.place}: {i.source} imports {i.target}" for i in imports
             if matches("palast.*", i.source) and matches("proofs.*", i.target) and i.source not in commands]
    assert not wrong, "\n".join(wrong)
    assert any(i.source in commands and matches("proofs.*", i.target) for i in imports)  # palast prove does


def test_nothing_outside_the_engine_uses_its_working_copy() -> None:
    """Draft (palast.engine.draft) is used only inside palast/engine/ and DRAFT_EXCEPTIONS."""
    uses = draft_uses(ROOT, DRAFT_SCAN, DRAFT_EXCEPTIONS)
    assert not uses, "\n".join(uses)
    for rel in DRAFT_EXCEPTIONS:  # an exception that is no longer needed is taken out
        assert draft_uses(ROOT, [rel], set()), f"{rel} no longer uses Draft: take it out of DRAFT_EXCEPTIONS"


def test_the_layers_cover_the_readme() -> None:
    """The README's Layout table names the layers of this file, lowest first."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next((line for line in readme.splitlines() if "tests/test_layering.py" in line), "")
    assert row, "the README's Layout table has no row that points at tests/test_layering.py"
    positions = [row.find(f"**{layer.name}**") for layer in LAYERS]
    assert -1 not in positions and positions == sorted(positions), row


# ---------------------------------------------------------------------- the checker can fail
def _write(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_checker_reports_cycles_and_layer_violations(tmp_path: Path) -> None:
    """On a small package with a cycle through a function-level ``from pkg import b``, an
    import from a lower layer up, a type-only cycle and a computed import name."""
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/low.py": "def f():\n    import pkg.high\n",
        "pkg/high.py": "from pkg import low\n",
        "pkg/a.py": "def f():\n    from pkg import b\n",
        "pkg/b.py": "from . import c\n",
        "pkg/c.py": "from .a import f\n",
        "pkg/t1.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.t2 import X\n",
        "pkg/t2.py": "import pkg.t1\n",
        "pkg/dyn.py": "import importlib\ndef g(n):\n    return importlib.import_module(f'pkg.{n}')\n",
        "pkg/sub/__init__.py": "from ..low import f\n",
    })
    imports, problems = read_imports(tmp_path, ["pkg"], {})
    assert problems == ["pkg/dyn.py:3: pkg.dyn imports a module whose name is computed; "
                        "declare the modules it may load in DYNAMIC"]
    cycles = find_cycles(imports)
    assert len(cycles) == 2
    normalised = {tuple(c[c.index(min(c[:-1])):-1] + c[:c.index(min(c[:-1]))]) for c in cycles}
    assert normalised == {("pkg.a", "pkg.b", "pkg.c"), ("pkg.high", "pkg.low")}
    for c in cycles:  # each module imports the next
        assert c[0] == c[-1]
        assert all(any(i.source == x and i.target == y for i in imports) for x, y in itertools.pairwise(c))
    layers = (Layer("low", ("pkg", "pkg.low", "pkg.sub.*"), ""), Layer("high", ("pkg.*",), ""))
    found = layering_problems(find_modules(tmp_path, ["pkg"]), imports, layers, {})
    assert found == ["pkg/low.py:2: pkg.low (layer low) imports pkg.high (layer high, above it)"]
    partial = layering_problems(find_modules(tmp_path, ["pkg"]), imports, (Layer("some", ("pkg.a", "pkg.b"), ""),), {})
    assert "pkg.c belongs to no layer" in partial and "pkg.a belongs to no layer" not in partial
    allowed = layering_problems(find_modules(tmp_path, ["pkg"]), imports, layers,
                                {("pkg.low", "pkg.high"): "reason", ("pkg.a", "pkg.low"): "stale"})
    assert allowed == ["the exception pkg.a -> pkg.low is no longer needed"]
    # a type-only import counts for the layering
    type_layers = (Layer("low", ("pkg.t1",), ""), Layer("high", ("pkg.*",), ""))
    assert any("pkg.t1 (layer low) imports pkg.t2" in p for p in
               layering_problems(find_modules(tmp_path, ["pkg"]), imports, type_layers, {}))
    # a declared computed import loads every module its pattern names
    declared, problems = read_imports(tmp_path, ["pkg"], {"pkg.dyn": ("pkg.sub.*", "")})
    assert not problems
    assert {i.target for i in declared if i.source == "pkg.dyn"} == {"pkg.sub"}


def test_the_real_layers_refuse_an_import_up_and_a_cycle() -> None:
    """With palast's own table and graph: one import added from each layer into the layer
    just above it is reported, and so is a cycle it closes."""
    mods, imports = _graph()
    up = [("palast.spec.load", "palast.engine.game"), ("palast.engine.game", "palast.sim.play"),
          ("palast.invariants.check", "palast.sim.play"), ("palast.sim.play", "palast.formats.record"),
          ("palast.formats.scenario", "palast.query.ask"), ("palast.query.ask", "proofs.runner"),
          ("proofs.runner", "palast.cli.prove_cmd")]
    added = [Import(src, dst, "added.py", n, False) for n, (src, dst) in enumerate(up, 1)]
    problems = layering_problems(mods, [*imports, *added], LAYERS, EXCEPTIONS)
    assert [p.split(":")[1] for p in problems] == [str(n) for n in range(1, len(up) + 1)], problems
    assert find_cycles([*imports, *added[3:4]], CYCLE_EXCEPTIONS)  # formats.record imports sim.play


def test_checker_reports_the_working_copy(tmp_path: Path) -> None:
    """Each way of reaching Draft outside palast/engine/ is reported; the engine's own files
    and the allowed ones are not."""
    _write(tmp_path, {
        "palast/engine/game.py": "from palast.engine.draft import Draft\n",
        "palast/x.py": "from palast.engine.draft import remove_one\n",
        "palast/y.py": "import palast.engine.draft\n",
        "palast/z.py": "from palast.engine.game import Draft\n",
        "palast/w.py": "import palast.engine.game as g\ndef f(s):\n    return g.Draft(s)\n",
        "palast/v.py": "import jsonschema\nV = jsonschema.Draft202012Validator\n",
        "tests/ok.py": "from palast.engine.draft import Draft\n",
    })
    assert draft_uses(tmp_path, ["palast", "tests"], {"tests/ok.py"}) == [
        "palast/w.py:3: names Draft",
        "palast/x.py:1: imports from palast.engine.draft: remove_one",
        "palast/y.py:1: imports palast.engine.draft",
        "palast/z.py:1: imports from palast.engine.game: Draft",
    ]
