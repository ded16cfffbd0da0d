"""The rule sources: citations read ``A 38–39``, the sources are named once (title and where
each comes from), the file names stay in the clause registry, and ``palast spec check``
says whether it verified the source texts."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from palast.spec.load import Spec, default_sources_dir
from palast.spec.sources import check_sources, source_notes, sources

ROOT = Path(__file__).resolve().parent.parent
FILE_NAME = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")


def run(*args: str, sources_dir: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if sources_dir is not None:
        env["PALAST_SOURCES"] = sources_dir
    return subprocess.run([sys.executable, "-m", "palast", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)


def test_citation_is_letter_and_lines(spec: Spec) -> None:
    c = spec.clauses["A.play.turn"]
    assert (c.first_line, c.last_line) == (38, 39)
    assert c.where == "A 38–39" and c.cite == "A.play.turn (A 38–39)"
    one = next(c for c in spec.clauses.values() if c.first_line == c.last_line)
    assert one.where == f"{one.source} {one.first_line}"
    # the registry keeps the file names
    assert all(FILE_NAME.fullmatch(c.file) for c in spec.clauses.values())


def test_sources_are_named_with_title_and_origin(spec: Spec) -> None:
    notes = source_notes(spec)
    assert [n.split(":")[0] for n in notes] == ["A", "B"]
    for src, note in zip(sources(spec), notes, strict=True):
        assert src.title and src.origin and src.title in note and src.origin in note
        assert not FILE_NAME.search(note)


def test_explain_cites_by_letter_and_names_the_sources_once(spec: Spec) -> None:
    r = run("explain", "cupbearer-scope", "guard-other-card")
    assert r.returncode == 0, r.stderr
    assert not FILE_NAME.search(r.stdout)
    assert spec.clauses["A.role.courtesan"].cite in r.stdout
    for note in source_notes(spec):
        assert r.stdout.count(note) == 1, note


def test_readme_names_the_sources(spec: Spec) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    head = readme.split("## Quick start", 1)[0]
    assert "The sources" in head
    for src in sources(spec):
        assert f"**{src.id}**" in head and src.origin in head
    assert not FILE_NAME.search(readme)


def test_spec_check_says_the_sources_were_verified() -> None:
    if default_sources_dir() is None:
        # a checkout without ../shared/sources: the check says so (tested below)
        r = run("spec", "check")
        assert r.returncode == 0 and "sources: NOT verified" in r.stdout
        return
    r = run("spec", "check", "--require-sources")
    assert r.returncode == 0, r.stderr
    assert "sources: verified (2 files in " in r.stdout and "checksums and line counts match" in r.stdout


def test_spec_check_without_the_sources_says_not_verified(tmp_path: Path) -> None:
    missing = tmp_path / "no-sources"
    r = run("spec", "check", sources_dir=str(missing))
    assert r.returncode == 0, r.stderr
    assert f"sources: NOT verified (no folder of rule source texts at {missing}" in r.stdout
    assert "spec ok" in r.stdout and "warning:" in r.stderr
    r = run("spec", "check", "--require-sources", sources_dir=str(missing))
    assert r.returncode == 1 and "sources: NOT verified" in r.stdout and "--require-sources" in r.stderr


def test_spec_check_with_a_missing_or_changed_source(tmp_path: Path, spec: Spec) -> None:
    real = default_sources_dir()
    files = sources(spec)
    part = tmp_path / "part"
    part.mkdir()
    if real is not None:
        shutil.copy(real / files[0].file, part / files[0].file)
        r = run("spec", "check", sources_dir=str(part))
        assert r.returncode == 0, r.stderr
        assert f"sources: NOT verified ({files[1].file} not in {part}; 1 other file matched)" in r.stdout
    changed = tmp_path / "changed"
    changed.mkdir()
    for f in files:
        (changed / f.file).write_text("a line\n" * f.line_count, encoding="utf-8")
    r = run("spec", "check", sources_dir=str(changed))
    assert r.returncode == 1
    assert "source A" in r.stderr and "SHA-256 differs" in r.stderr
    found = check_sources(spec, changed)
    assert not found.verified and len(found.problems) == 2
