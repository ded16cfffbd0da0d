"""The syntax of rule-language expressions.

An expression is a string such as ``fewest(p in players, count(display(p)))``. It is read
with Python's own parser (:func:`ast.parse` in ``eval`` mode: a library, not a parser of
ours) and then *only* the forms listed below are accepted and turned into a :class:`Node`
tree; anything else is refused with the column of the offending part. Nothing is ever
evaluated as Python.

Forms (the grammar of the book's chapter "The rule language"):

- a whole number (``0``, ``1``), ``true``/``false`` (written ``True``/``False`` as well);
- a name: a primitive without arguments (``players``, ``actor``) or a bound variable;
- a call ``name(arg, ...)`` of a primitive;
- a binder ``name(x in COLLECTION, body, ...)`` for the primitives that bind a variable
  (``filter``, ``count``, ``any``, ``all``, ``fewest``, ``most``, ``max``, ``min``, ``sum``);
- comparisons ``a == b``, ``!=``, ``<``, ``<=``, ``>``, ``>=``, membership ``a in b``,
  ``a not in b``;
- ``a and b``, ``a or b``, ``not a``, ``a + b``, ``a - b``, ``a * b``, ``a if c else b``
  (``+`` also joins two collections of the same kind);
- a list ``[a, b]``.
"""

from __future__ import annotations

import ast
import keyword
from dataclasses import dataclass
from functools import lru_cache

from palast.errors import InputError

#: Operators and what they are called in a :class:`Node`.
COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
           ast.In: "in", ast.NotIn: "not in"}
ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}


@dataclass(frozen=True, slots=True)
class Node:
    """One node of an expression.

    :ivar op: ``"int"``, ``"bool"``, ``"name"``, ``"call"``, ``"bind"``, ``"list"``, an
        operator (``"=="``, ``"in"``, ``"+"``, ``"and"``, ``"not"``, ``"if"``, ...).
    :ivar value: the number, truth value, name or primitive called (``""`` otherwise).
    :ivar args: the operands, in order. A ``"bind"`` node holds ``(variable, collection,
        body, more...)`` and its ``value`` names the primitive.
    :ivar column: the column (from 1) of the node in the expression text.
    """

    op: str
    value: object = ""
    args: tuple[Node, ...] = ()
    column: int = 1


class ExpressionError(InputError):
    """An expression that is not in the rule language: the reason and the column."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.column = column


def one_line(text: str) -> str:
    """``text`` as the parser reads it: its lines stripped and joined by single spaces
    (an :class:`ExpressionError`'s column counts in this line)."""
    return " ".join(line.strip() for line in text.strip().splitlines())


def position_in(written: str, text: str, offset: int, start: int = 0, end: int | None = None) -> int | None:
    """Where character ``offset`` of ``text`` stands in ``written[start:end]``, the same
    characters as written (over several lines, indented): the characters are matched in
    order, a run of white space matching any run of white space. ``None`` where ``offset``
    is outside ``text`` or on white space, or the two do not match."""
    end = len(written) if end is None else end
    if not 0 <= offset < len(text) or text[offset].isspace():
        return None
    i, j = 0, start
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        while j < end and written[j].isspace():
            j += 1
        if i > offset or i >= len(text) or j >= end or text[i] != written[j]:
            return None
        if i == offset:
            return j
        i += 1
        j += 1


def written_column(text: str, column: int) -> int:
    """The column (from 1) in ``text`` as written of character ``column`` of
    :func:`one_line` (``text``); ``column`` itself where it cannot be followed."""
    pos = position_in(text, one_line(text), column - 1)
    return column if pos is None else pos + 1


def at_text(text: str, column: int) -> str:
    """``"at 'gameover or ended) and …'"``: ``text`` from character ``column`` (from 1) on,
    on one line and cut after 40 characters; the whole text when ``column`` is 1 and it is
    short."""
    flat = one_line(text)
    if column <= 1 and len(flat) <= 60:
        return f"in {flat!r}"
    rest = flat[max(column - 1, 0):]
    return f"at {(rest[:40] + ' …') if len(rest) > 40 else rest!r}"


def parse(text: str) -> Node:
    """Parse the expression ``text``.

    :returns: its :class:`Node` tree (immutable: the same text gives the same tree, parsed
        once).
    :raises ExpressionError: for text that is not an expression of the language (with the
        column, from 1, of the first part that is not).
    """
    if not isinstance(text, str):
        raise ExpressionError("an expression must be non-empty text", 1)
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Node:
    if not isinstance(text, str) or not text.strip():
        raise ExpressionError("an expression must be non-empty text", 1)
    # an expression may run over several lines (YAML keeps the breaks of indented lines):
    # read it as one line, so columns count in that line
    text = one_line(text)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"not an expression: {exc.msg}", exc.offset or 1) from None
    return _node(tree.body)


def _col(n: ast.AST) -> int:
    return getattr(n, "col_offset", 0) + 1


def _variable(n: ast.expr) -> str:
    if not isinstance(n, ast.Name) or keyword.iskeyword(n.id) or not n.id.isidentifier():
        raise ExpressionError("a bound variable must be a plain name", _col(n))
    return n.id


def _node(n: ast.expr) -> Node:
    c = _col(n)
    if isinstance(n, ast.Constant):
        if isinstance(n.value, bool):
            return Node("bool", n.value, column=c)
        if isinstance(n.value, int):
            return Node("int", n.value, column=c)
        raise ExpressionError(f"only whole numbers and true/false are values, not {n.value!r}", c)
    if isinstance(n, ast.Name):
        if n.id in ("true", "false"):
            return Node("bool", n.id == "true", column=c)
        return Node("name", n.id, column=c)
    if isinstance(n, ast.Call):
        if not isinstance(n.func, ast.Name):
            raise ExpressionError("only a primitive's name can be called", c)
        if n.keywords:
            raise ExpressionError("arguments are given in order, without names", _col(n.keywords[0].value))
        first = n.args[0] if n.args else None
        if (isinstance(first, ast.Compare) and len(first.ops) == 1 and isinstance(first.ops[0], ast.In)
                and isinstance(first.left, ast.Name)):
            var = Node("name", _variable(first.left), column=_col(first.left))
            rest = tuple(_node(a) for a in n.args[1:])
            return Node("bind", n.func.id, (var, _node(first.comparators[0]), *rest), column=c)
        return Node("call", n.func.id, tuple(_node(a) for a in n.args), column=c)
    if isinstance(n, ast.Compare):
        if len(n.ops) != 1:
            raise ExpressionError("compare two values at a time (write 'a < b and b < c')", c)
        op = COMPARE.get(type(n.ops[0]))
        if op is None:
            raise ExpressionError("unknown comparison", c)
        return Node(op, "", (_node(n.left), _node(n.comparators[0])), column=c)
    if isinstance(n, ast.BoolOp):
        op = "and" if isinstance(n.op, ast.And) else "or"
        return Node(op, "", tuple(_node(v) for v in n.values), column=c)
    if isinstance(n, ast.UnaryOp):
        if isinstance(n.op, ast.Not):
            return Node("not", "", (_node(n.operand),), column=c)
        if isinstance(n.op, ast.USub) and isinstance(n.operand, ast.Constant) and type(n.operand.value) is int:
            return Node("int", -n.operand.value, column=c)
        raise ExpressionError("only 'not' and a minus sign before a number are allowed", c)
    if isinstance(n, ast.BinOp):
        op = ARITH.get(type(n.op))
        if op is None:
            raise ExpressionError("only +, - and * are arithmetic operators here", c)
        return Node(op, "", (_node(n.left), _node(n.right)), column=c)
    if isinstance(n, ast.IfExp):
        return Node("if", "", (_node(n.test), _node(n.body), _node(n.orelse)), column=c)
    if isinstance(n, ast.List):
        return Node("list", "", tuple(_node(e) for e in n.elts), column=c)
    raise ExpressionError(f"{type(n).__name__.lower()} is not part of the rule language", c)


@dataclass(frozen=True, slots=True)
class Each:
    """The value of an ``each`` node: the names of its parts, and why an option is refused
    when a part is not among its collection (``part_else``) or a condition does not hold
    (``where_else``); ``None`` where nothing is said."""

    names: tuple[str, ...]
    part_else: tuple[str | None, ...]
    where_else: tuple[str | None, ...]


def each_node(parts: list[tuple[str, Node]], where: list[tuple[Node, str | None]] | Node | None = None,
              part_else: list[str | None] | None = None) -> Node:
    """The options built from parts: ``parts`` (each a name and the collection it ranges
    over, which may use the names before it) and the conditions ``where`` they must all
    meet (each with what a refusal says when it does not hold). Its value is a collection of
    tuples, one element per part (op ``each``: ``value`` is an :class:`Each`, ``args`` the
    collections and then the conditions)."""
    if where is None:
        conds: list[tuple[Node, str | None]] = [(Node("bool", True), None)]
    elif isinstance(where, Node):
        conds = [(where, None)]
    else:
        conds = list(where)
    value = Each(tuple(n for n, _ in parts), tuple(part_else or [None] * len(parts)), tuple(t for _, t in conds))
    return Node("each", value, (*(e for _, e in parts), *(c for c, _ in conds)),
                column=parts[0][1].column if parts else 1)


def each_parts(node: Node) -> tuple[tuple[str, Node], ...]:
    """The parts of an ``each`` node: (name, collection), in order."""
    value: Each = node.value  # type: ignore[assignment]
    return tuple(zip(value.names, node.args[:len(value.names)], strict=True))


def each_conditions(node: Node) -> tuple[tuple[Node, str | None], ...]:
    """The conditions of an ``each`` node, with what a refusal says for each."""
    value: Each = node.value  # type: ignore[assignment]
    return tuple(zip(node.args[len(value.names):], value.where_else, strict=True))


def names(node: Node) -> set[str]:
    """Every name used in ``node`` (primitives without arguments and variables)."""
    out = {str(node.value)} if node.op == "name" else set()
    for a in node.args:
        out |= names(a)
    return out


def show(node: Node) -> str:
    """``node`` written back as an expression (normalised spacing)."""
    op = node.op
    if op == "int":
        return str(node.value)
    if op == "bool":
        return "true" if node.value else "false"
    if op == "name":
        return str(node.value)
    if op == "call":
        return f"{node.value}({', '.join(show(a) for a in node.args)})"
    if op == "bind":
        var, coll, *rest = node.args
        return f"{node.value}({show(var)} in {show(coll)}{''.join(', ' + show(a) for a in rest)})"
    if op == "list":
        return "[" + ", ".join(show(a) for a in node.args) + "]"
    if op == "each":
        parts = ", ".join(f"{n} in {show(e)}" for n, e in each_parts(node))
        conds = [c for c, _ in each_conditions(node) if not (c.op == "bool" and c.value is True)]
        return f"each({parts}" + "".join(f", where {show(c)}" for c in conds) + ")"
    if op == "not":
        return f"not {_side(node.args[0], _RANK['not'])}"
    if op == "if":
        rank = _RANK["if"]
        return (f"{_side(node.args[1], rank + 1)} if {_side(node.args[0], rank + 1)} "
                f"else {_side(node.args[2], rank)}")
    rank = _RANK[op]
    first, *rest = node.args
    # left to right: a chain of one operator needs no brackets on its left (a - b - c);
    # a right operand of the same rank does (a - (b - c)); comparisons do not chain
    left = _side(first, rank if op in ("and", "or", "+", "-", "*") else rank + 1)
    return f" {op} ".join([left, *(_side(a, rank + 1) for a in rest)])


#: How tightly each operator binds (Python's order): a lower rank needs brackets inside a higher.
_RANK = {"if": 0, "or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4,
         "not in": 4, "+": 5, "-": 5, "*": 6}


def _side(node: Node, least: int) -> str:
    """``node`` as an operand where an operator of rank below ``least`` needs brackets."""
    text = show(node)
    return f"({text})" if _RANK.get(node.op, 9) < least else text


def show_lines(node: Node, width: int = 88, indent: str = "") -> str:
    """``node`` written back as :func:`show` writes it, broken over lines so that none is
    longer than ``width`` characters where a break can help (for the rulebook, which shows
    a declaration as a code block): a chain of ``and`` or ``or`` puts each operand on a line
    of its own, the operator first; ``x if c else y`` puts ``if`` and ``else`` on lines of
    their own; a call or a bound collection (``all(p in players, ...)``) too long for one
    line puts its last argument on the lines below, indented. Every line after the first
    starts with ``indent``.

    :returns: the text; reading it again (:func:`parse`) gives back ``node``.
    """
    text = show(node)
    if len(indent) + len(text) <= width:
        return text
    op = node.op
    inner = indent + "    "
    if op in _RANK and op not in ("if", "not"):
        rank = _RANK[op]
        first, *rest = node.args
        lines = [_side_lines(first, rank if op in ("and", "or", "+", "-", "*") else rank + 1, width, indent)]
        lines += [f"{op} {_side_lines(a, rank + 1, width, indent + ' ' * (len(op) + 1))}" for a in rest]
        return f"\n{indent}".join(lines)
    if op == "if":
        rank = _RANK["if"]
        # the value's own lines indented, so that if and else stand out from them
        return (f"{_side_lines(node.args[1], rank + 1, width, indent + '    ')}\n{indent}"
                f"if {_side_lines(node.args[0], rank + 1, width, indent + '   ')}\n{indent}"
                f"else {_side_lines(node.args[2], rank, width, indent + '     ')}")
    if (op == "call" and node.args) or (op == "bind" and len(node.args) >= 3):
        *head, last = node.args
        if op == "bind":
            var, coll, *more = head
            opening = f"{node.value}({show(var)} in {show(coll)}{''.join(', ' + show(a) for a in more)},"
        else:
            opening = f"{node.value}({', '.join(show(a) for a in head)}{',' if head else ''}"
        return f"{opening}\n{inner}{show_lines(last, width, inner)})"
    if op == "not":
        return f"not {_side_lines(node.args[0], _RANK['not'], width, indent + '    ')}"
    return text


def _side_lines(node: Node, least: int, width: int, indent: str) -> str:
    """:func:`_side` of ``node``, broken over lines as :func:`show_lines` breaks it."""
    if _RANK.get(node.op, 9) < least:
        return "(" + show_lines(node, width, indent + " ") + ")"
    return show_lines(node, width, indent)
