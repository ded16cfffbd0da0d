"""The text of generated code (:mod:`palast.engine.codegen`): a function's source with the
objects it refers to, compiled once per text and kept on disk between runs, and what
compiling one chain gives."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from types import CodeType
from typing import Any

from palast.lang.statements import Stmt
from palast.spec.code_cache import compiled


@cache
def code_of(text: str, label: str) -> CodeType:
    """The code object of generated ``text``, compiled once per text (the games of one spec
    generate the same text for a step or a chain compiled in the same order), and kept on
    disk between runs (:mod:`palast.spec.code_cache`)."""
    return compiled(text, f"<palast rules: {label}>")


#: the fields of a decision that hold cards or actions: their values are too many to keep a
#: decision of each, so a decision keeping one is made anew (others are shared)
FRESH_FIELDS = frozenset({"given", "choices"})

#: A statement with the rule whose declaration holds it; ``None`` ends the list.
Item = tuple[Stmt, str] | None


@dataclass
class CompiledChain:
    """What compiling one chain gives: its entry, and per key its resumes and continuations."""

    entry: Callable[..., None]
    resumes: dict[str, tuple[Callable[..., None], Callable[..., Any] | None]] = field(default_factory=dict)
    conts: dict[str, Callable[..., None]] = field(default_factory=dict)


class GeneratedSource:
    """Lines of generated Python and the objects they refer to by name."""

    def __init__(self, refs: dict[str, Any], prefix: str = "K") -> None:
        self.lines: list[str] = []
        self.refs = refs
        self.prefix = prefix
        self._ids: dict[int, str] = {}
        #: finished functions' lines, and the buffers of the functions being written
        self.done: list[list[str]] = []
        self._stack: list[list[str]] = []

    def begin(self, head: str) -> None:
        """Start writing another function (``head`` is its ``def`` line) inside the current one."""
        self._stack.append(self.lines)
        self.lines = [head]

    def finish(self) -> None:
        """The function begun last is written: keep it, and go on with the one before."""
        self.done.append(self.lines)
        self.lines = self._stack.pop()

    def text(self) -> str:
        """Every function written, the current one last."""
        return "\n\n".join("\n".join(f) for f in [*self.done, self.lines]) + "\n"

    def ref(self, obj: Any) -> str:
        """A name for ``obj`` in the generated code."""
        key = id(obj)
        name = self._ids.get(key)
        if name is None:
            name = self._ids[key] = f"{self.prefix}_{len(self.refs)}"
            self.refs[name] = obj
        return name

    def add(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)
