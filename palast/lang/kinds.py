"""The kind of value a rule-language expression computes (``int``, ``seat``, ``cards``,
...): :func:`infer`, which ``palast spec check`` and the compilers use to refuse an
argument or operand of the wrong kind, with its column."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from palast.lang.primitives import COLLECTION, ELEMENT, PRIMITIVES
from palast.lang.syntax import ExpressionError, Node, each_conditions, each_parts

#: The kinds of value (see :mod:`palast.lang.primitives`); ``any`` matches every kind.
ANY = "any"


def _same(a: str, b: str) -> bool:
    return a == b or ANY in (a, b)


def infer(node: Node, env: Mapping[str, str], constants: Iterable[str] = ()) -> str:
    """The kind of value ``node`` computes (``int``, ``seat``, ``cards``, ...).

    :param env: names in scope (rule parameters, ``let`` names, bound variables) -> kinds.
    :param constants: names that stand for a role (role ids), or a mapping of constant
        names to their kinds (role ids -> ``role``, decision names -> ``decision``).
    :raises ExpressionError: where an argument or operand has the wrong kind, with its column.
    """
    const_kinds: Mapping[str, str] = (constants if isinstance(constants, Mapping)
                                      else dict.fromkeys(constants, "role"))

    def need(got: str, want: str, at: Node, what: str) -> None:
        if not _same(got, want):
            raise ExpressionError(f"{what} must be {want}, not {got}", at.column)

    def walk(n: Node, scope: Mapping[str, str]) -> str:
        op = n.op
        if op == "int":
            return "int"
        if op == "bool":
            return "bool"
        if op == "each":
            inner = dict(scope)
            for part, coll in each_parts(n):
                ck = walk(coll, inner)
                if ck not in ELEMENT and ck != ANY:
                    raise ExpressionError(f"the part {part} ranges over a collection, not {ck}", coll.column)
                inner[part] = ELEMENT.get(ck, ANY)
            for cond, _ in each_conditions(n):
                need(walk(cond, inner), "bool", cond, "a condition of each")
            return "tuples"
        if op == "name":
            name = str(n.value)
            if name in scope:
                return scope[name]
            if name in const_kinds:
                return const_kinds[name]
            return PRIMITIVES[name].result
        if op in ("call", "bind"):
            prim = PRIMITIVES[str(n.value)]
            if op == "bind":
                var, coll, *rest = n.args
                ck = walk(coll, scope)
                if ck not in ELEMENT and ck != ANY:
                    raise ExpressionError(f"{prim.name}(x in ...) needs a collection, not {ck}", coll.column)
                inner = {**scope, str(var.value): ELEMENT.get(ck, ANY)}
                for want, a in zip(prim.args, rest, strict=True):
                    if want != "*":
                        need(walk(a, inner), want, a, f"the expression after the collection of {prim.name}")
                if prim.result == "+":
                    body = walk(rest[0], inner)
                    if body not in ELEMENT and body != ANY:
                        raise ExpressionError(f"{prim.name} joins collections, not {body}", rest[0].column)
                    return body
                return ck if prim.result == "=" else prim.result
            kinds = [walk(a, scope) for a in n.args]
            for want, got, a in zip(prim.args, kinds, n.args, strict=True):
                if want != "*":
                    need(got, want, a, f"the argument of {prim.name}")
            first = kinds[0] if kinds else ANY
            if prim.name in ("count", "distinct", "first", "empty", "in_order", "without", "occurrences") and \
                    first not in ELEMENT and first != ANY:
                raise ExpressionError(f"{prim.name} needs a collection, not {first}", n.args[0].column)
            if prim.name in ("without", "occurrences"):
                need(kinds[1], ELEMENT.get(first, ANY), n.args[1], f"the element given to {prim.name}")
            if prim.result == "=":
                return first
            if prim.result == "-":
                return ELEMENT.get(first, ANY)
            return prim.result
        kinds = [walk(a, scope) for a in n.args]
        if op == "list":
            if not kinds:
                return ANY
            for k, a in zip(kinds, n.args, strict=True):
                need(k, kinds[0], a, "every element of a list")
            if kinds[0] not in COLLECTION:
                raise ExpressionError(f"a list of {kinds[0]} is not a value", n.column)
            return COLLECTION[kinds[0]]
        if op in ("and", "or", "not"):
            for k, a in zip(kinds, n.args, strict=True):
                need(k, "bool", a, f"an operand of {op}")
            return "bool"
        if op == "+" and (kinds[0] in ELEMENT or kinds[1] in ELEMENT):
            need(kinds[1], kinds[0], n.args[1], "the right side of + (the left side is " + kinds[0] + ")")
            return kinds[0] if kinds[0] != ANY else kinds[1]
        if op in ("+", "-", "*", "<", "<=", ">", ">="):
            for k, a in zip(kinds, n.args, strict=True):
                need(k, "int", a, f"an operand of {op}")
            return "int" if op in ("+", "-", "*") else "bool"
        if op in ("==", "!="):
            need(kinds[1], kinds[0], n.args[1], f"the right side of {op} (the left side is {kinds[0]})")
            return "bool"
        if op in ("in", "not in"):
            if kinds[1] not in ELEMENT and kinds[1] != ANY:
                raise ExpressionError(f"the right side of {op} must be a collection, not {kinds[1]}", n.args[1].column)
            need(kinds[0], ELEMENT.get(kinds[1], ANY), n.args[0], f"the left side of {op}")
            return "bool"
        if op == "if":
            need(kinds[0], "bool", n.args[0], "the condition of an if")
            need(kinds[2], kinds[1], n.args[2], "the else branch (the other is " + kinds[1] + ")")
            return kinds[1] if kinds[1] != ANY else kinds[2]
        raise ExpressionError(f"cannot type {op!r}", n.column)

    return walk(node, env)
