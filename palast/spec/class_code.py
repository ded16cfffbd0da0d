"""Compiled code of the methods ``dataclasses`` writes for palast's own dataclasses, kept on
disk between runs.

For every dataclass, Python's ``dataclasses`` writes the source of each method it adds
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, and ``__setattr__`` and
``__delattr__`` for a frozen class) and compiles it when the class is defined. palast
defines some sixty dataclasses, which is about 300 compiles and a fifth of a ``palast
ask`` cold start (``benchmarks/ask_cold_start.py``). The code compiled from a text depends
only on the text and the Python that compiles it, so :func:`install` keeps the code of
these texts in one file, ``class-code-<tag>.marshal`` in palast's cache directory
(:func:`palast.spec.stamp.cache_dir`; ``<tag>`` is the Python's bytecode tag), and later
runs take it from there. Only the text's compile is saved: everything else, the execution
of that code included, is the standard library's own.

The file holds a mapping from the SHA-1 of each text (after :data:`FLAGS`) to its code
object, in ``marshal`` format (the format of Python's bytecode cache), after a header: the
Python's bytecode magic number and the SHA-256 of the mapping's bytes. Code from another
Python, or a file damaged on disk, is not read back (unmarshalling damaged code may crash
the interpreter), and another text (another class) misses and is compiled. A file that
cannot be read or is not such a mapping is ignored; when the cache directory cannot be
written nothing is kept, and no temporary file is left.

This relies on a private function of CPython 3.11's ``dataclasses`` (``_create_fn``,
replaced by a copy that differs only in taking the compiled code from the file); under
any other Python, or when that function is not there, :func:`install` does nothing and
every dataclass is made as usual.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import hashlib
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any

#: Part of every key: how the text is compiled (code compiled otherwise has other keys).
FLAGS = b"exec, no inherited flags\0"

#: Entries the file keeps at most: beyond, it keeps those of the run that writes it.
LIMIT = 3000

_codes: dict[bytes, CodeType] = {}
_new: list[bytes] = []
_used: set[bytes] = set()


def cache_file() -> Path:
    """The file the compiled methods are kept in (in palast's cache directory).

    :raises RuntimeError: when there is no home directory to find it in (and no
        ``PALAST_CACHE_DIR`` or ``XDG_CACHE_HOME``).
    """
    from palast.spec.stamp import cache_dir

    return cache_dir() / f"class-code-{sys.implementation.cache_tag}.marshal"


def _header(payload: bytes) -> bytes:
    """What precedes ``payload`` in the file: this Python's bytecode magic number and the
    payload's SHA-256."""
    from importlib.util import MAGIC_NUMBER

    return MAGIC_NUMBER + hashlib.sha256(payload).digest()


def _read(path: Path) -> dict[bytes, CodeType]:
    """The mapping kept in ``path``, or an empty one when it cannot be read as one: no file,
    another Python's, a payload that is not the one its header vouches for, or not a
    mapping of keys to code."""
    try:
        raw = path.read_bytes()
    except OSError:
        return {}
    size = len(_header(b""))
    payload = raw[size:]
    if len(raw) <= size or raw[:size] != _header(payload):
        return {}
    try:
        data = marshal.loads(payload)
    except (ValueError, EOFError, TypeError, SystemError):
        return {}
    if not isinstance(data, dict) or not all(type(k) is bytes and type(v) is CodeType for k, v in data.items()):
        return {}
    return data


def _save() -> None:
    """When this run compiled a method, write the file anew: the entries it holds and this
    run's, or only this run's once there are more than :data:`LIMIT` (of classes since
    changed, or made by tests). Atomic; silently not at all when the cache directory
    cannot be written, and then no temporary file is left."""
    if not _new:
        return
    import tempfile

    try:
        path = cache_file()
    except RuntimeError:
        return
    used = {k: _codes[k] for k in _used if k in _codes}
    merged = {**_read(path), **used}
    if len(merged) > LIMIT:
        merged = used
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = marshal.dumps(merged)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".class-code-", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(_header(payload) + payload)
        os.replace(tmp, path)
        tmp = None
    except (OSError, ValueError):
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _code(txt: str, *, keep: bool) -> CodeType:
    """The code of ``txt`` (a method's source as ``dataclasses`` writes it), compiled as
    ``dataclasses`` compiles it; with ``keep``, from the file when it holds it, else
    compiled and written to the file when the process ends."""
    if not keep:
        return compile(txt, "<string>", "exec", dont_inherit=True)
    key = hashlib.sha1(FLAGS + txt.encode()).digest()
    code = _codes.get(key)
    if code is None:
        # compiled as dataclasses' own exec compiles it: with no __future__ import of this
        # module's (annotations would be kept as text, "_type_card", instead of the types)
        code = compile(txt, "<string>", "exec", dont_inherit=True)
        _codes[key] = code
        _new.append(key)
    _used.add(key)
    return code


def _create_fn(name: str, args: list[str], body: list[str], *, globals: dict[str, Any] | None = None,
               locals: dict[str, Any] | None = None, return_type: Any = dataclasses.MISSING) -> Any:
    """CPython 3.11's ``dataclasses._create_fn``, with the compiled code from :func:`_code`
    (kept for palast's own modules; compiled as the standard library does for others)."""
    if locals is None:
        locals = {}
    return_annotation = ""
    if return_type is not dataclasses.MISSING:
        locals["_return_type"] = return_type
        return_annotation = "->_return_type"
    joined = ",".join(args)
    lines = "\n".join(f"  {b}" for b in body)
    txt = f" def {name}({joined}){return_annotation}:\n{lines}"
    local_vars = ", ".join(locals.keys())
    txt = f"def __create_fn__({local_vars}):\n{txt}\n return {name}"
    ns: dict[str, Any] = {}
    own = globals is not None and str(globals.get("__name__", "")).partition(".")[0] in ("palast", "proofs")
    exec(_code(txt, keep=own), globals, ns)  # the text is the standard library's, as in dataclasses
    return ns["__create_fn__"](**locals)


def install() -> bool:
    """Make ``dataclasses`` take the compiled methods of palast's classes from the cache
    file, read once now (see the module docstring).

    :returns: whether it did (only under CPython 3.11 with the expected private function,
        and with a cache directory to find).
    """
    original = getattr(dataclasses, "_create_fn", None)
    if sys.version_info[:2] != (3, 11) or sys.implementation.name != "cpython" or original is None:
        return False
    if original is _create_fn:
        return True
    try:
        path = cache_file()
    except RuntimeError:  # no home directory: nothing to keep, every class made as usual
        return False
    _codes.update(_read(path))
    dataclasses._create_fn = _create_fn  # type: ignore[attr-defined]
    atexit.register(_save)
    return True
