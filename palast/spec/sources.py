"""The two rule sources: how they are named to a reader, and whether their texts were checked.

A citation names a source by its letter and a line range (``A 38–39``); the sources
themselves are named once, by :func:`source_notes`, wherever citations are shown (``palast
explain``, the book, the README). Their file names and checksums stay in the clause
registry, ``spec/clauses.yaml``; :func:`check_sources` compares the texts with it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from palast.spec.load import Spec


@dataclass(frozen=True)
class Source:
    """One rule source of ``spec/clauses.yaml``: its letter, what it is, where it comes
    from, and its file in the sources folder with its line count and SHA-256."""

    id: str
    title: str
    origin: str
    file: str
    line_count: int
    sha256: str

    @property
    def note(self) -> str:
        """``"A: a full translation ... — a rules post ..."``: the source named for a reader."""
        return f"{self.id}: {self.title} — {self.origin}"


def sources(spec: Spec) -> list[Source]:
    """The rule sources of ``spec``, in the registry's order."""
    return [Source(str(s["id"]), str(s["title"]), str(s.get("origin", "")), str(s["file"]), int(s["line_count"]),
                   str(s["sha256"])) for s in spec.sources.values()]


def source_notes(spec: Spec) -> list[str]:
    """One line per source naming it (:attr:`Source.note`), for the end of a text that
    cites clauses as ``A 38–39``."""
    return [s.note for s in sources(spec)]


@dataclass(frozen=True)
class SourceCheck:
    """What :func:`check_sources` found.

    :ivar directory: the sources folder looked in, or ``None`` when none was found.
    :ivar checked: the files whose SHA-256 and line count were compared with the registry.
    :ivar missing: the registry's files that are not in ``directory``.
    :ivar problems: a sentence for each file whose checksum or line count differs.
    :ivar looked_in: where the folder was looked for, when none was found.
    """

    directory: Path | None
    checked: tuple[str, ...]
    missing: tuple[str, ...]
    problems: tuple[str, ...]
    looked_in: tuple[Path, ...] = ()

    @property
    def verified(self) -> bool:
        """Every source file was there and matched the registry."""
        return self.directory is not None and not self.missing and not self.problems and bool(self.checked)

    def render(self) -> str:
        """``"sources: verified (...)"`` or ``"sources: NOT verified (...)"``, one line."""
        n = len(self.checked)
        if self.verified:
            return (f"sources: verified ({n} file{'s' if n != 1 else ''} in {self.directory}, "
                    "checksums and line counts match)")
        if self.directory is None:
            where = " or ".join(str(p) for p in self.looked_in) or "none given"
            why = (f"no folder of rule source texts at {where}; set PALAST_SOURCES to the folder holding "
                   "them; checksums not compared")
        elif self.problems:
            why = "; ".join(self.problems)
        else:
            why = f"{', '.join(self.missing)} not in {self.directory}"
            if n:
                why += f"; {n} other file{'s' if n != 1 else ''} matched"
        return f"sources: NOT verified ({why})"


def check_sources(spec: Spec, directory: Path | None, looked_in: tuple[Path, ...] = ()) -> SourceCheck:
    """Compare each source file in ``directory`` with the SHA-256 and the line count that
    ``spec/clauses.yaml`` records for it.

    :param directory: the sources folder (:func:`palast.spec.load.default_sources_dir`), or
        ``None`` when there is none.
    :param looked_in: where it was looked for (for the message when it is ``None``).
    :returns: the :class:`SourceCheck`; never raises for a missing file or folder.
    """
    if directory is None or not directory.is_dir():
        return SourceCheck(None, (), (), (), looked_in if directory is None else (directory,))
    checked: list[str] = []
    missing: list[str] = []
    problems: list[str] = []
    for src in sources(spec):
        p = directory / src.file
        if not p.is_file():
            missing.append(src.file)
            continue
        raw = p.read_bytes()
        checked.append(src.file)
        if hashlib.sha256(raw).hexdigest() != src.sha256:
            problems.append(f"source {src.id} ({p}) has changed: its SHA-256 differs")
        n = len(raw.decode("utf-8", errors="replace").splitlines())
        if n != src.line_count:
            problems.append(f"source {src.id} has {n} lines, the registry says {src.line_count}")
    return SourceCheck(directory, tuple(checked), tuple(missing), tuple(problems))
