"""Safe YAML reading that remembers where every value stood.

Only PyYAML's safe loader is used; no tag can construct an arbitrary object. Errors name
the file, the line and column, and the key path of the offending value.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from palast.errors import InputError


class _Resolver(yaml.resolver.Resolver):
    """PyYAML's resolver with YAML 1.2's plain scalars for booleans and numbers: only
    ``true``/``false`` are booleans and only decimal numbers are numbers, so YAML 1.1's
    surprises stay text (``no`` as a colour, ``017`` read as octal 15, ``1:30`` as 90,
    ``0x10``, ``1_0``) and a schema names them instead of palast silently misreading them."""


_Resolver.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in pairs if tag.rsplit(":", 1)[-1] not in ("bool", "int", "float")]
    for first, pairs in yaml.resolver.Resolver.yaml_implicit_resolvers.items()
}
_Resolver.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                list("tTfF"))
_Resolver.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$"),
                                list("-+0123456789"))
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:(?:0|[1-9][0-9]*)\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
               r"|[-+]?(?:0|[1-9][0-9]*)[eE][-+]?[0-9]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."))

_CParser: Any
try:  # libyaml's parser, where PyYAML was built with it (much faster than the pure-Python one)
    from yaml._yaml import CParser as _CParser
except ImportError:  # pragma: no cover - depends on the PyYAML build
    _CParser = None

if _CParser is not None:
    class _Loader(_CParser, yaml.constructor.SafeConstructor, _Resolver):  # type: ignore[misc]
        """libyaml's parser (much faster), the safe constructor and :class:`_Resolver`."""

        def __init__(self, stream: Any) -> None:
            _CParser.__init__(self, stream)
            yaml.constructor.SafeConstructor.__init__(self)
            _Resolver.__init__(self)
else:  # pragma: no cover - depends on the PyYAML build
    class _Loader(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser,  # type: ignore[no-redef]
                  yaml.composer.Composer, yaml.constructor.SafeConstructor, _Resolver):
        """The pure-Python parser, the safe constructor and :class:`_Resolver`."""

        def __init__(self, stream: Any) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            _Resolver.__init__(self)


class _Constructor(_Loader):
    """The safe loader, with a value its tag cannot build (``!!int x``, ``2024-02-30``,
    ``!!bool maybe``) reported as a YAML error at that value instead of a Python error."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except yaml.MarkedYAMLError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError, OverflowError):
            tag = str(node.tag).rsplit(":", 1)[-1]
            shown = node.value if isinstance(node, yaml.ScalarNode) else type(node).__name__
            raise yaml.constructor.ConstructorError(
                None, None, f"{shown!r} is not a valid {tag} value (put it in quotes to mean text)",
                node.start_mark) from None

#: The largest YAML file palast reads, in bytes; larger files are rejected before parsing.
#: A real position or spec file is a few kilobytes; parsing megabytes of YAML takes seconds.
MAX_BYTES = 1024 * 1024

PathPart = str | int


@dataclass(frozen=True)
class Document:
    """A parsed YAML document: the plain data and the node tree it came from.

    :ivar data: the document as dicts, lists and scalars (``None`` for an empty file).
    :ivar file: the file name used in messages.
    :ivar text: the document's text, where it was parsed from one (to place a character
        of a text value: :meth:`place`).
    """

    data: Any
    file: str
    root: yaml.Node | None
    text: str = field(default="", kw_only=True, repr=False)

    def place(self, path: Sequence[PathPart], column: int | None = None) -> str:
        """Return ``"line L, column C (a.b[2])"`` for the value at ``path``.

        The deepest node on the path that exists is used, so a missing key is reported
        at the mapping that lacks it. With ``column`` (from 1) the place is that of the
        ``column``-th character of the text value at ``path`` as the file writes it, across
        the lines of a plain or block scalar (``>-``, ``|``) that YAML joins; where it
        cannot be followed (a quoted value, a path that is not a text), the value's start.
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
        if column is not None and isinstance(node, yaml.ScalarNode) and node.end_mark is not None:
            pos = _scalar_pos(self.text, node, column - 1)
            if pos is not None:
                loc = _text_place(self.text, pos)
        return f"{loc} ({where})" if where else loc

    def place_key(self, path: Sequence[PathPart], key: PathPart) -> str:
        """Return ``"line L, column C (a.b.key)"`` for the key ``key`` itself in the mapping
        at ``path`` (where an unknown or misspelt key is to be reported), or
        :meth:`place` of ``path`` if the mapping holds no such key."""
        node = self.root
        for part in path:
            node = _child(node, part)
            if node is None:
                return self.place(path)
        key_node = _key_node(node, key)
        if key_node is None:
            return self.place(path)
        mark = key_node.start_mark
        return f"line {mark.line + 1}, column {mark.column + 1} ({format_path([*path, key])})"

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


def data_at(data: Any, path: Sequence[PathPart]) -> Any:
    """The value at key path ``path`` in ``data`` (plain YAML data: dicts, lists, scalars),
    or ``None`` where the path leads nowhere (a missing key, an index out of range, a
    scalar on the way)."""
    for part in path:
        if isinstance(data, dict):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
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


def _key_node(node: yaml.Node | None, key: PathPart) -> yaml.Node | None:
    """The key node ``key`` of the mapping ``node``, or ``None``."""
    if isinstance(node, yaml.MappingNode):
        pairs: list[tuple[yaml.Node, yaml.Node]] = node.value
        for k, _value in pairs:
            if isinstance(k, yaml.ScalarNode) and k.value == str(key):
                return k
    return None


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

#: How many values YAML aliases (``*name``) may repeat in one document. palast files use no
#: aliases; the limit stops a small file from expanding into millions of values
#: ("billion laughs") before the data is even looked at.
MAX_ALIAS_REPEATS = 10_000

#: The most values (scalars, lists and mappings, keys not counted) one document may hold.
#: The largest spec file holds about 2,400 and a scenario a few hundred; checking a
#: document of millions of values would take many seconds for no purpose.
MAX_VALUES = 50_000


def _check_tree(root: yaml.Node | None) -> tuple[list[PathPart], yaml.Mark, str] | None:
    """Walk the node tree without recursion; return (path, mark, problem) for the first key
    given twice in one mapping, for nesting deeper than :data:`MAX_DEPTH`, for more than
    :data:`MAX_VALUES` values, or for aliases that repeat more than
    :data:`MAX_ALIAS_REPEATS` values (a node reached again through an alias counts once
    more each time, so the walk itself stays bounded)."""
    if root is None:
        return None
    stack: list[tuple[yaml.Node, list[PathPart]]] = [(root, [])]
    seen_nodes: set[int] = set()
    visits = 0
    while stack:
        node, path = stack.pop()
        visits += 1
        seen_nodes.add(id(node))
        if len(seen_nodes) > MAX_VALUES:
            return path, node.start_mark, (f"the document holds more than {MAX_VALUES} values; a scenario needs a "
                                           "few hundred and the largest spec file a few thousand")
        if visits - len(seen_nodes) > MAX_ALIAS_REPEATS:
            return path, node.start_mark, (f"YAML aliases (*name) repeat more than {MAX_ALIAS_REPEATS} values; "
                                           "write the values out instead of repeating them with aliases")
        if len(path) > MAX_DEPTH:
            return path, node.start_mark, f"nested more than {MAX_DEPTH} levels deep"
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            pairs: list[tuple[yaml.Node, yaml.Node]] = node.value
            for key, value in pairs:
                if isinstance(key, yaml.ScalarNode):
                    if key.tag == "tag:yaml.org,2002:null":
                        return path, key.start_mark, ("a key is empty (null, ~ or nothing before the colon); "
                                                      "write the key's name")
                    if key.tag == "tag:yaml.org,2002:bool":
                        return path, key.start_mark, (f"the key {key.value} is a boolean in YAML, not text; put it "
                                                      f"in quotes ('{key.value}') or use the key's right name")
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


#: Characters YAML takes for line breaks though editors do not: line numbers would differ.
_ODD_BREAKS = {"\x85": "next-line character (U+0085)", "\u2028": "line-separator character (U+2028)",
               "\u2029": "paragraph-separator character (U+2029)"}


def _scalar_pos(text: str, node: yaml.ScalarNode, offset: int) -> int | None:
    """The position in ``text`` of character ``offset`` of the value of the plain or block
    scalar ``node`` (:func:`palast.lang.syntax.position_in`: YAML folds a line break and the
    next line's indent into white space). ``None`` for a quoted scalar or where the source
    does not match."""
    from palast.lang.syntax import position_in

    if node.style not in (None, "", ">", "|"):
        return None
    start, end = node.start_mark.index, node.end_mark.index
    if end > len(text):
        return None
    if node.style in (">", "|"):  # the value begins on the line after the indicator
        start = text.find("\n", start, end) + 1
        if start == 0:
            return None
    return position_in(text, str(node.value), offset, start, end)


def _text_place(text: str, pos: int) -> str:
    """``"line L, column C"`` of character ``pos`` of ``text``, counting lines as editors do."""
    return f"line {text.count(chr(10), 0, pos) + 1}, column {pos - text.rfind(chr(10), 0, pos)}"


_NODE_EVENTS = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent, yaml.AliasEvent)


def _too_many_values(text: str) -> str | None:
    """Scan the parser's events (no nodes are built) and return the place (``"line L,
    column C"``) where the document passes :data:`MAX_VALUES` values plus as many keys,
    or ``None``. Building the
    node tree of a megabyte of tiny values alone takes about a second.

    :raises yaml.MarkedYAMLError: for a syntax error met on the way.
    """
    n = 0
    limit = 2 * MAX_VALUES
    if len(text) <= limit:
        # every value or key takes at least one character and a separator, so a text this
        # short holds fewer events than the limit; the composer will meet any syntax error
        return None
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, _NODE_EVENTS):
            n += 1
            if n > limit:
                mark = event.start_mark
                return f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else "top level"
    return None


def _char_at(text: str, mark: yaml.Mark) -> str:
    """The character at ``mark`` in ``text`` (``""`` past the end)."""
    lines = text.split("\n")
    if 0 <= mark.line < len(lines) and 0 <= mark.column < len(lines[mark.line]):
        return lines[mark.line][mark.column]
    return ""


def parse_yaml(text: str, file: str) -> Document:
    """Parse YAML text safely.

    :param text: the document.
    :param file: the name used in error messages.
    :returns: the :class:`Document`.
    :raises InputError: on a syntax error (with line and column), a tab used for
        indentation, more than one document, a key given twice, a non-text key, a tag
        other than YAML's own, a value its tag cannot build, nesting deeper than
        :data:`MAX_DEPTH`, more than :data:`MAX_VALUES` values, or aliases repeating
        more than :data:`MAX_ALIAS_REPEATS` values.
    """
    for ch, name in _ODD_BREAKS.items():
        pos = text.find(ch)
        if pos >= 0:
            raise InputError(f"a {name}, which YAML reads as a line break although editors do not; remove it",
                             file, _text_place(text, pos))
    try:
        too_many = _too_many_values(text)
        if too_many is not None:
            raise InputError(f"the document holds more than {MAX_VALUES} values; a scenario needs a few hundred and "
                             "the largest spec file a few thousand", file, too_many)
        root = yaml.compose(text, Loader=_Loader)
    except RecursionError:
        raise InputError("the document is nested too deeply", file) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        place = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        problem = exc.problem or "not valid YAML"
        hint = ""
        if mark is not None and _char_at(text, mark) == "\t":
            raise InputError("a tab character; YAML indents with spaces only, so replace the tab with spaces",
                             file, place) from None
        if "\t" in text and ("tab" in problem or "found character" in problem):
            hint = " (YAML does not allow tabs for indentation; indent with spaces)"
        elif "mapping values are not allowed" in problem:
            hint = " (text that contains ': ' must be put in quotes)"
        elif "found another document" in problem:
            raise InputError("a second YAML document starts here ('---'); a file holds one document", file,
                             place) from None
        raise InputError(f"not valid YAML: {problem}{hint}", file, place) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow; it has no mark
        raise InputError(f"a control character (U+{exc.character:04X}) that YAML does not allow; remove it, or "
                         "save the file as plain text", file, _text_place(text, exc.position)) from None
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {exc}", file) from None
    found = _check_tree(root)
    if found:
        bad_path, bad_mark, what = found
        shown = format_path(bad_path) if len(bad_path) <= 8 else f"{format_path(bad_path[:4])}..."
        at = f"line {bad_mark.line + 1}, column {bad_mark.column + 1}"
        raise InputError(what, file, f"{at} ({shown})" if shown else at)
    if root is None:
        return Document(None, file, None)
    try:
        data = _Constructor("").construct_document(root)
    except RecursionError:
        raise InputError("the document is nested too deeply", file) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        place = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        problem = str(exc.problem)
        if "could not determine a constructor for the tag" in problem:
            tag = problem.split("tag", 1)[1].strip(" '").replace("tag:yaml.org,2002:", "!!")
            raise InputError(f"the tag {tag} is not allowed: palast reads plain YAML (text, numbers, lists and "
                             "mappings) and never builds objects from tags", file, place) from None
        raise InputError(f"not valid YAML: {problem}", file, place) from None
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError) as exc:
        raise InputError(f"not valid YAML: a value cannot be read ({exc})", file) from None
    return Document(data, file, root, text=text)


def read_text(path: Path | str, max_bytes: int = MAX_BYTES, *, kind: str = "YAML files") -> str:
    """Read a text file palast is given, refusing anything that is not a small UTF-8 file.

    At most ``max_bytes + 1`` bytes are ever read, so a device, a pipe or a file that
    grows while it is read cannot exhaust memory. A UTF-8 byte order mark is dropped.

    :param path: the file; ``"-"`` reads standard input (named ``<stdin>`` in messages).
    :param max_bytes: the largest size accepted.
    :param kind: what the file is, for the message (``"YAML files"``, ``"records"``).
    :returns: the text.
    :raises InputError: if the file is missing, a directory, unreadable, larger than
        ``max_bytes`` or not UTF-8.
    """
    name = str(path)
    too_big = (f"the file is {{size}} bytes; palast reads {kind} of up to {max_bytes} bytes "
               "(a position, a record or a spec file needs far less)")
    if name == "-":  # standard input, read as far as the limit allows
        raw = sys.stdin.buffer.read(max_bytes + 1)
        return _decode(raw, "<stdin>", max_bytes, too_big)
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", name) from None
    if p.is_dir():
        raise InputError("is a directory, not a file", name)
    if size > max_bytes:
        raise InputError(too_big.format(size=size), name)
    try:
        with p.open("rb") as fh:
            raw = fh.read(max_bytes + 1)
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", name) from None
    return _decode(raw, name, max_bytes, too_big)


def _decode(raw: bytes, name: str, max_bytes: int, too_big: str) -> str:
    if len(raw) > max_bytes:
        raise InputError(too_big.format(size=f"more than {max_bytes}"), name)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - raw.rfind(b"\n", 0, exc.start)
        raise InputError(f"the file is not UTF-8 text (byte {exc.start}, 0x{raw[exc.start]:02x}); save it as UTF-8",
                         name, f"line {line}, column {column}") from None


def read_yaml(path: Path | str, max_bytes: int = MAX_BYTES) -> Document:
    """Read and parse a YAML file safely.

    :param path: the file.
    :param max_bytes: files larger than this are rejected before they are parsed.
    :returns: the :class:`Document`.
    :raises InputError: if the file is missing, unreadable, larger than
        :data:`MAX_BYTES`, not UTF-8, or not valid YAML (see :func:`read_text` and
        :func:`parse_yaml`).
    """
    name = "<stdin>" if str(path) == "-" else str(path)
    return parse_yaml(read_text(path, max_bytes), name)
