"""Safe YAML reading that remembers where every value stood.

Only PyYAML's safe loader is used; no tag can construct an arbitrary object. Errors name
the file, the line and column, and the key path of the offending value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from palast.errors import InputError

try:  # libyaml is much faster; fall back to the pure-Python loader where it is missing
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader

#: The largest YAML file palast reads, in bytes; larger files are rejected before parsing.
#: A real position or spec file is a few kilobytes; parsing megabytes of YAML takes seconds.
MAX_BYTES = 1024 * 1024

PathPart = str | int


@dataclass(frozen=True)
class Document:
    """A parsed YAML document: the plain data and the node tree it came from.

    :ivar data: the document as dicts, lists and scalars (``None`` for an empty file).
    :ivar file: the file name used in messages.
    """

    data: Any
    file: str
    root: yaml.Node | None

    def place(self, path: Sequence[PathPart]) -> str:
        """Return ``"line L, column C (a.b[2])"`` for the value at ``path``.

        The deepest node on the path that exists is used, so a missing key is reported
        at the mapping that lacks it.
        """
        node = self.root
        mark = node.start_mark if node is not None else None
        for part in path:
            child = _child(node, part)
            if child is None:
                break
            node = child
            mark = node.start_mark
        where = format_path(path)
        if mark is None:
            return where or "top level"
        loc = f"line {mark.line + 1}, column {mark.column + 1}"
        return f"{loc} ({where})" if where else loc

    def error(self, path: Sequence[PathPart], message: str, cls: type[InputError] = InputError) -> InputError:
        """Build an :class:`InputError` (or ``cls``) for the value at ``path``."""
        return cls(message, self.file, self.place(path))


def json_keys(data: Any) -> Any:
    """A copy of ``data`` whose mapping keys are all strings, as JSON Schema expects
    (YAML reads ``3: 6`` with an integer key)."""
    if isinstance(data, dict):
        return {str(k): json_keys(v) for k, v in data.items()}
    if isinstance(data, list):
        return [json_keys(v) for v in data]
    return data


def format_path(path: Sequence[PathPart]) -> str:
    """Render a key path as ``hands.red[0]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _child(node: yaml.Node | None, part: PathPart) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        pairs: list[tuple[yaml.Node, yaml.Node]] = node.value
        for key, value in pairs:
            if isinstance(key, yaml.ScalarNode) and (key.value == str(part)):
                return value
        return None
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int):
        items: list[yaml.Node] = node.value
        return items[part] if 0 <= part < len(items) else None
    return None


#: Deepest nesting accepted; no palast file needs more than a handful of levels.
MAX_DEPTH = 64


def _check_tree(root: yaml.Node | None) -> tuple[list[PathPart], yaml.Mark, str] | None:
    """Walk the node tree without recursion; return (path, mark, problem) for the first key
    given twice in one mapping or for nesting deeper than :data:`MAX_DEPTH`."""
    if root is None:
        return None
    stack: list[tuple[yaml.Node, list[PathPart]]] = [(root, [])]
    while stack:
        node, path = stack.pop()
        if len(path) > MAX_DEPTH:
            return path, node.start_mark, f"nested more than {MAX_DEPTH} levels deep"
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            pairs: list[tuple[yaml.Node, yaml.Node]] = node.value
            for key, value in pairs:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        return [*path, key.value], key.start_mark, f"the key {key.value!r} is given twice"
                    seen.add(key.value)
                    stack.append((value, [*path, key.value]))
                else:
                    return path, key.start_mark, "a mapping key must be plain text, not a list or mapping"
        elif isinstance(node, yaml.SequenceNode):
            items: list[yaml.Node] = node.value
            stack.extend((item, [*path, i]) for i, item in enumerate(items))
    return None


def parse_yaml(text: str, file: str) -> Document:
    """Parse YAML text safely.

    :param text: the document.
    :param file: the name used in error messages.
    :returns: the :class:`Document`.
    :raises InputError: on a syntax error (with line and column), a tab used for
        indentation, more than one document, a key given twice, a non-text key, or
        nesting deeper than :data:`MAX_DEPTH`.
    """
    try:
        root = yaml.compose(text, Loader=_Loader)
    except RecursionError:
        raise InputError("the document is nested too deeply", file) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        place = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        problem = exc.problem or "not valid YAML"
        hint = ""
        if "\t" in text and ("tab" in problem or "found character" in problem):
            hint = " (YAML does not allow tabs for indentation; indent with spaces)"
        elif "mapping values are not allowed" in problem:
            hint = " (text that contains ': ' must be put in quotes)"
        raise InputError(f"not valid YAML: {problem}{hint}", file, place) from None
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {exc}", file) from None
    found = _check_tree(root)
    if found:
        bad_path, bad_mark, what = found
        raise InputError(what, file, f"line {bad_mark.line + 1}, column {bad_mark.column + 1} "
                                     f"({format_path(bad_path)})")
    if root is None:
        return Document(None, file, None)
    try:
        data = _Loader("").construct_document(root)
    except RecursionError:
        raise InputError("the document is nested too deeply", file) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        place = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        raise InputError(f"not valid YAML: {exc.problem}", file, place) from None
    return Document(data, file, root)


def read_yaml(path: Path | str, max_bytes: int = MAX_BYTES) -> Document:
    """Read and parse a YAML file safely.

    :param path: the file.
    :param max_bytes: files larger than this are rejected before they are parsed.
    :returns: the :class:`Document`.
    :raises InputError: if the file is missing, unreadable, larger than
        :data:`MAX_BYTES`, not UTF-8, or not valid YAML.
    """
    p = Path(path)
    name = str(path)
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", name) from None
    if p.is_dir():
        raise InputError("is a directory, not a file", name)
    if size > max_bytes:
        raise InputError(f"the file is {size} bytes; palast reads YAML files of up to {max_bytes} bytes "
                         "(a position or a spec file needs a few kilobytes)", name)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"the file is not UTF-8 text (byte {exc.start})", name) from None
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", name) from None
    return parse_yaml(text, name)
