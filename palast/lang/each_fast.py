"""Fast paths of the Python an ``each`` compiles to (:func:`palast.lang.compiler.python_source`):
the same options in the same order, in fewer steps. Nothing here changes what a condition
means: a collection a comprehension only loops over is left a list, and tests that begin
alike test their common part once."""

from __future__ import annotations

import ast

from palast.lang.syntax import Node


def iterable(src: str) -> str:
    """The Python of a collection a comprehension only loops over: ``src`` without the
    ``tuple(...)`` around a list it builds (a comprehension or ``sorted(...)``), which the
    loop visits in the same order; ``src`` itself otherwise."""
    try:
        tree = ast.parse(src, mode="eval").body
    except SyntaxError:  # pragma: no cover - the compiler writes valid Python
        return src
    if (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id == "tuple"
            and len(tree.args) == 1 and not tree.keywords):
        arg = tree.args[0]
        if isinstance(arg, ast.ListComp) or (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name)
                                             and arg.func.id == "sorted"):
            inner = ast.get_source_segment(src, arg)
            if inner is not None:
                return inner
    return src


def _shape(node: Node) -> tuple[object, ...]:
    """``node`` as a value that ignores where it is written (its columns)."""
    return (node.op, node.value, tuple(_shape(a) for a in node.args))


def _or(args: tuple[Node, ...], column: int) -> Node:
    return args[0] if len(args) == 1 else Node("or", "", args, column)


def factored(tests: list[Node]) -> list[Node]:
    """``tests`` (all must hold) with each run of ``A or B1``, ``A or B2``, ... that begin
    with the same ``A`` written ``A or (B1 and B2 ...)`` (and the same done again inside):
    ``A`` is computed once, and each ``B`` in the same cases as before."""
    out: list[Node] = []
    i = 0
    while i < len(tests):
        t = tests[i]
        j = i + 1
        if t.op == "or" and len(t.args) > 1:
            head = _shape(t.args[0])
            while j < len(tests) and tests[j].op == "or" and len(tests[j].args) > 1 \
                    and _shape(tests[j].args[0]) == head:
                j += 1
        if j - i > 1:
            rests = factored([_or(x.args[1:], x.column) for x in tests[i:j]])
            both = rests[0] if len(rests) == 1 else Node("and", "", tuple(rests), t.column)
            out.append(Node("or", "", (t.args[0], both), t.column))
        else:
            out.append(t)
        i = j
    return out
