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

The file holds a mapping from the SHA-1 of each text (after :data:`FLAGS`) to its code object, in ``marshal``
format (the format of Python's bytecode cache). Key and text are checked together: the
key is of the whole text, so another text (another class, another Python) misses and is
compiled. A file that cannot be read or is not such a mapping is ignored; when the cache
directory cannot be written nothing is kept.

This relies on a private function of CPython 3.11's ``dataclasses`` (``_create_fn``,
replaced by a copy that differs only in taking the compiled code from the file); under
any other Python, or when that function is not there, :func:`install` does nothing and
every dataclass is made as usual.
"""

from __future__ import annotations

import atexit
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

_codes: dict[bytes, CodeType] = {}
_new: list[bytes] = []
_used: set[bytes] = set()


def cache_file() -> Path:
    """The file the compiled methods are kept in (in palast's cache directory)."""
    from palast.spec.stamp import cache_dir

    return cache_dir() / f"class-code-{sys.implementation.cache_tag}.marshal"


def _read(path: Path) -> dict[bytes, CodeType]:
    """The mapping kept in ``path``, or an empty one when it cannot be read as one."""
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict) or not all(type(k) is bytes and type(v) is CodeType for k, v in data.items()):
        return {}
    return data


def _save() -> None:
    """When this run compiled a method, write the entries it used (atomically; silently not
    at all when the cache directory cannot be written). Entries no run uses any more (of
    classes since changed) so leave the file, and it stays the size of what one command
    needs: another command that needs more compiles it once and writes that."""
    if not _new:
        return
    import tempfile

    path = cache_file()
    merged = {k: _codes[k] for k in _used}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".class-code-", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            marshal.dump(merged, fh)
        os.replace(tmp, path)
    except (OSError, ValueError):
        pass


def _code(txt: str) -> CodeType:
    """The code of ``txt`` (a method's source as ``dataclasses`` writes it), from the file
    when it holds it, else compiled (and written to the file when the process ends)."""
    key = hashlib.sha1(FLAGS + txt.encode()).digest()
    _used.add(key)
    code = _codes.get(key)
    if code is None:
        # compiled as dataclasses' own exec compiles it: with no __future__ import of this
        # module's (annotations would be kept as text, "_type_card", instead of the types)
        code = _codes[key] = compile(txt, "<string>", "exec", dont_inherit=True)
        _new.append(key)
    return code


def _create_fn(name: str, args: list[str], body: list[str], *, globals: dict[str, Any] | None = None,
               locals: dict[str, Any] | None = None, return_type: Any = dataclasses.MISSING) -> Any:
    """CPython 3.11's ``dataclasses._create_fn``, with the compiled code from :func:`_code`
    for palast's own modules."""
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
    exec(_code(txt) if own else txt, globals, ns)  # the text is the standard library's, as in dataclasses
    return ns["__create_fn__"](**locals)


def install() -> bool:
    """Make ``dataclasses`` take the compiled methods of palast's classes from the cache
    file, read once now (see the module docstring).

    :returns: whether it did (only under CPython 3.11 with the expected private function).
    """
    original = getattr(dataclasses, "_create_fn", None)
    if sys.version_info[:2] != (3, 11) or sys.implementation.name != "cpython" or original is None:
        return False
    if original is _create_fn:
        return True
    _codes.update(_read(cache_file()))
    dataclasses._create_fn = _create_fn  # type: ignore[attr-defined]
    atexit.register(_save)
    return True
