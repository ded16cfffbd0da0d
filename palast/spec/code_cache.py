"""Compiled code of the Python source palast generates from the spec, kept on disk.

Every game compiles the rules' declarations and the declared invariants to Python source
(:mod:`palast.lang.compiler`, :mod:`palast.engine.codegen`), and compiling that source is a
good part of a ``palast ask`` cold start. The code object compiled from a text depends on
nothing but the text, its file label, the Python version and
the optimisation level, so :func:`compiled` keeps it in palast's cache directory
(:func:`palast.spec.stamp.cache_dir`) under the SHA-256 of exactly those: another spec, or
another generator, writes another text and so another key.

A file holds the key, the SHA-256 of the rest (so a damaged file, whose code could crash the
interpreter, is never unmarshalled) and the code object in ``marshal`` format, the format of
Python's own bytecode cache (unlike pickle it builds no objects of other kinds). A file
that cannot be read, is not of that form or holds another key is ignored and the text
compiled again; when the cache directory cannot be written nothing is kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sys
from pathlib import Path
from types import CodeType

from palast.spec.stamp import cache_dir

#: Entries kept at most; writing one more removes the oldest half (by modification time).
LIMIT = 2000


def code_dir() -> Path:
    """The folder the compiled code is kept in (``code/`` in the cache directory)."""
    return cache_dir() / "code"


def code_key(source: str, filename: str) -> str:
    """The SHA-256 (hex) naming the code compiled from ``source`` with label ``filename``
    by this Python (its version and bytecode tag, the optimisation level)."""
    h = hashlib.sha256(f"{sys.version}\0{sys.implementation.cache_tag}\0{sys.flags.optimize}\0".encode())
    h.update(filename.encode() + b"\0")
    h.update(source.encode())
    return h.hexdigest()


def load_code(key: str) -> CodeType | None:
    """The code kept under ``key``, or ``None`` when there is none or the file does not
    hold exactly that key and a code object."""
    try:
        raw = (code_dir() / f"{key}.marshal").read_bytes()
    except OSError:
        return None
    head = key.encode() + b"\n"
    if not raw.startswith(head):
        return None
    digest, _, payload = raw[len(head):].partition(b"\n")
    if digest != hashlib.sha256(payload).hexdigest().encode():  # damaged: never unmarshalled
        return None
    try:
        code = marshal.loads(payload)
    except (ValueError, EOFError, TypeError, SystemError):
        return None
    return code if isinstance(code, CodeType) else None


def save_code(key: str, code: CodeType) -> None:
    """Keep ``code`` under ``key`` (atomically; silently not at all when the cache
    directory cannot be written)."""
    import tempfile  # only when writing

    folder = code_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        payload = marshal.dumps(code)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".code-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(key.encode() + b"\n" + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
            os.replace(tmp, folder / f"{key}.marshal")
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _prune(folder)
    except (OSError, ValueError):
        pass


def _prune(folder: Path) -> None:
    """Remove the older half of the entries when there are more than :data:`LIMIT`.

    Called after every write, so the entries are counted by name alone (``os.scandir``):
    ``Path.glob`` over a nearly full folder took about 4 ms a call (a test asking a scenario
    under many variant specs writes 423 entries: 3.7 s to 3.2 s). An entry another process
    removes meanwhile sorts as the oldest; before, it ended the pruning."""
    with os.scandir(folder) as it:
        names = [e.name for e in it if e.name.endswith(".marshal")]
    if len(names) <= LIMIT:
        return
    entries = [folder / name for name in names]
    for old in sorted(entries, key=_mtime)[: len(entries) // 2]:
        old.unlink(missing_ok=True)


def _mtime(path: Path) -> float:
    """The modification time of ``path`` (0 for one removed meanwhile, by another process)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def compiled(source: str, filename: str) -> CodeType:
    """The code object of ``compile(source, filename, "exec")``, from the cache when it
    holds it, else compiled and kept there.

    :raises SyntaxError: if ``source`` is not valid Python (nothing is kept then).
    """
    key = code_key(source, filename)
    code = load_code(key)
    if code is None:
        code = compile(source, filename, "exec")
        save_code(key, code)
    return code
