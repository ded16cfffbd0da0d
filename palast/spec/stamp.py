"""A record that a spec, byte for byte, has passed validation, so that commands which
only read it (``palast ask``) need not validate it again on every start — nor parse its
YAML again: beside the stamp lies the parsed data of the spec files.

A *stamp* is an empty file in palast's cache directory whose name is the SHA-256 of
everything validation depends on: the spec files and their JSON Schemas, the rule
sources the clause registry is checked against, and the source code of the validating
modules. Any change to any of them gives another name, so a stamp can only vouch for the
very bytes that were validated. The cache directory is ``$PALAST_CACHE_DIR``, else
``$XDG_CACHE_HOME/palast``, else ``~/.cache/palast``; when it cannot be written the spec
is simply validated each time.

The parsed data is kept in ``marshal`` format, the format of Python's own bytecode
cache, which holds exactly the dicts, lists, strings, numbers, booleans and ``None`` a YAML
file gives (integer keys included) and, unlike pickle, never builds other objects. A file
that cannot be read back as such data is ignored and the YAML parsed again.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parents[1]

#: The modules whose code decides whether a spec is valid (patterns under ``palast/``): every
#: module :func:`palast.spec.load.load_spec` runs, which ``tests/test_spec_stamp.py`` checks.
VALIDATORS = ("errors.py", "spec/*.py", "lang/*.py")


#: The parsed data of this many specs is kept (the newest ones, see :func:`save_documents`).
KEEP_DATA = 4


def validator_files() -> list[Path]:
    """The files of :data:`VALIDATORS`, sorted (found once per process)."""
    if not _VALIDATORS:
        _VALIDATORS.extend(sorted({p for pattern in VALIDATORS for p in _PACKAGE.glob(pattern)}))
    return list(_VALIDATORS)


_VALIDATORS: list[Path] = []
#: the digest of palast's validating code, by each file's path, size, modification and
#: change times and inode: a process that validates many documents (the tests, ask on many
#: scenarios) reads its own code once
_CODE_DIGESTS: dict[tuple[tuple[str, int, int, int, int], ...], bytes] = {}


def files_digest(paths: Iterable[Path]) -> bytes:
    """The SHA-256 of ``paths``' names and bytes, in order (read every time).

    :raises OSError: if a file cannot be read.
    """
    h = hashlib.sha256()
    for path in paths:
        h.update(str(path.name).encode() + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.digest()


def code_digest() -> bytes:
    """:func:`files_digest` of :func:`validator_files`, palast's own code, read again only
    when a file's path, size, times or inode differ from the last time in this process (a
    spec, a schema or a document is always read: those are edited while a process runs).

    :raises OSError: if a file cannot be read.
    """
    paths = validator_files()
    sig = tuple((str(p), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino) for p in paths for st in (p.stat(),))
    got = _CODE_DIGESTS.get(sig)
    if got is None:
        got = _CODE_DIGESTS[sig] = files_digest(paths)
    return got


def cache_dir() -> Path:
    """The directory stamps are kept in (see the module docstring)."""
    env = os.environ.get("PALAST_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "palast"


def spec_key(files: Iterable[Path], sources_dir: Path | None, variant: str) -> str:
    """The SHA-256 (hex) naming the stamp of a validation of ``files`` (the spec files and
    schemas read), the rule sources in ``sources_dir`` and the validating code;
    ``variant`` names what was checked (for example without the rulings).

    :raises OSError: if a file cannot be read (the caller then validates as usual).
    """
    h = hashlib.sha256(variant.encode())
    extra = sorted(sources_dir.iterdir()) if sources_dir is not None else []
    h.update(files_digest([*files, *(p for p in extra if p.is_file())]))
    h.update(code_digest())
    return h.hexdigest()


def is_stamped(key: str) -> bool:
    """True if a spec with this key has passed validation before."""
    return (cache_dir() / f"spec-valid-{key}").is_file()


def stamp(key: str) -> None:
    """Note that the spec with this key passed validation (atomically; silently not at
    all when the cache directory cannot be written)."""
    import tempfile  # only when writing (palast ask reads)

    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".spec-valid-", suffix=".tmp")
        os.close(fd)
        os.replace(tmp, folder / f"spec-valid-{key}")
    except OSError:
        pass


#: The most stamps of valid input files (scenarios) kept; beyond it the older half goes.
KEEP_INPUT_STAMPS = 1000


def input_key(kind: str, data: Any, schema_dir: Path) -> str | None:
    """The SHA-256 (hex) naming the stamp of a schema validation of one input document of
    ``kind`` (``scenario``): its parsed ``data`` (as Python writes it out), every schema in
    ``schema_dir`` and the validating code. ``None`` when a file cannot be read."""
    h = hashlib.sha256(f"input\0{kind}\0".encode())
    h.update(repr(data).encode())
    try:
        h.update(files_digest(sorted(schema_dir.glob("*.json"))))
        h.update(code_digest())
    except OSError:
        return None
    return h.hexdigest()


def input_is_valid(key: str) -> bool:
    """True if an input document with this key (:func:`input_key`) passed its schema before."""
    return (cache_dir() / f"input-valid-{key}").is_file()


def mark_input_valid(key: str) -> None:
    """Note that the input document with this key passed its schema (silently not at all when
    the cache directory cannot be written), keeping at most :data:`KEEP_INPUT_STAMPS`."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"input-valid-{key}").touch()
        # the names counted, and paths made only to evict: this runs at every scenario
        # validated, and making a Path for each of a thousand stamps (as glob does) took a
        # few milliseconds, more than validating the scenario
        names = [name for name in os.listdir(folder) if name.startswith("input-valid-")]
        if len(names) > KEEP_INPUT_STAMPS:
            stamps = [folder / name for name in names]
            stamps.sort(key=lambda p: p.stat().st_mtime)
            for old in stamps[:len(stamps) // 2]:
                old.unlink(missing_ok=True)
    except OSError:
        pass


def save_documents(key: str, data: dict[str, Any]) -> None:
    """Keep ``data`` (spec file name -> its parsed YAML) beside the stamp ``key``
    (atomically; silently not at all when the cache directory cannot be written), and
    the data of at most :data:`KEEP_DATA` specs in all."""
    import tempfile  # only when writing (palast ask reads)

    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".spec-data-", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            marshal.dump(data, fh)
        target = folder / f"spec-data-{key}.marshal"
        os.replace(tmp, target)
        # the data of specs since changed, but for the newest few (checkouts of other
        # branches share this directory, and would otherwise evict each other's data)
        others = sorted((p for p in folder.glob("spec-data-*.marshal") if p != target),
                        key=lambda p: p.stat().st_mtime, reverse=True)
        for old in others[KEEP_DATA - 1:]:
            old.unlink(missing_ok=True)
    except (OSError, ValueError):
        pass


def load_documents(key: str) -> dict[str, Any] | None:
    """The parsed spec files kept for stamp ``key``, or ``None`` when there are none or
    the file does not hold a mapping of file names to plain data."""
    try:
        data = marshal.loads((cache_dir() / f"spec-data-{key}.marshal").read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(data, dict) or not all(isinstance(k, str) for k in data) or not _plain(data):
        return None
    return data


def _plain(value: Any) -> bool:
    """True if ``value`` holds only what YAML gives: dicts, lists, text, numbers, booleans,
    ``None`` (no code objects, sets or bytes)."""
    # exact types: marshal gives no subclasses (bool, a subclass of int, is listed itself)
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        v = pop()
        t = type(v)
        if t is dict:
            extend(v.keys())
            extend(v.values())
        elif t is list:
            extend(v)
        elif t not in _SCALARS:
            return False
    return True


_SCALARS = frozenset({str, int, float, bool, type(None)})
