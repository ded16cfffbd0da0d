"""Checking rule-language expressions and compiling them to Python functions.

:func:`check` reports what is wrong with an expression (an unknown name, a wrong number of
arguments, a binder where none is allowed) without a position; :class:`Compiler` turns
checked expressions into Python functions of a position, by writing Python source from the
:class:`~palast.lang.syntax.Node` tree — only the templates of
:mod:`palast.lang.primitives`, operators, whole numbers and renamed variables ever appear in
it, so no text of the spec is executed — and compiling all of a game's expressions at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from types import CodeType
from typing import Any

from palast.lang.each_fast import factored, iterable
from palast.lang.primitives import PRIMITIVES, RUNTIME
from palast.lang.syntax import ExpressionError, Node, each_conditions, each_parts, show

_OPS = {"==", "!=", "<", "<=", ">", ">=", "+", "-", "*"}


def check(node: Node, names: Iterable[str]) -> None:
    """Check ``node`` against the primitives and the ``names`` it may use besides them
    (parameters of the rule, constants such as role ids).

    :raises ExpressionError: for the first problem, with its column.
    """
    _check(node, frozenset(names))


def _check(node: Node, names: frozenset[str]) -> None:
    op = node.op
    if op == "name":
        name = str(node.value)
        if name in names:
            return
        prim = PRIMITIVES.get(name)
        if prim is None:
            raise ExpressionError(f"unknown name {name!r}", node.column)
        if prim.args or prim.binder:
            raise ExpressionError(f"{name} needs arguments: {name}(...)", node.column)
        return
    if op == "each":
        inner = names
        for part, coll in each_parts(node):
            _check(coll, inner)
            if part in PRIMITIVES:
                raise ExpressionError(f"{part!r} is a primitive and cannot name a part", coll.column)
            inner = inner | {part}
        for cond, _ in each_conditions(node):
            _check(cond, inner)
        return
    if op in ("call", "bind"):
        name = str(node.value)
        prim = PRIMITIVES.get(name)
        if prim is None:
            raise ExpressionError(f"unknown primitive {name!r}", node.column)
        if op == "call":
            if prim.binder:
                raise ExpressionError(f"{name} binds a variable: {name}(x in COLLECTION, ...)", node.column)
            if len(node.args) != len(prim.args):
                raise ExpressionError(f"{name} takes {len(prim.args)} argument(s), not {len(node.args)}",
                                      node.column)
            for a in node.args:
                _check(a, names)
            return
        if not prim.binder:
            if name == "old" and len(node.args) == 2:  # old(x in C) reads as a binder
                var, coll = node.args
                raise ExpressionError(f"old does not bind a variable: to ask whether {show(var)} was in "
                                      f"{show(coll)} before the action, write {show(var)} in old({show(coll)})",
                                      node.column)
            raise ExpressionError(f"{name} does not bind a variable", node.column)
        var, coll, *rest = node.args
        if len(rest) != len(prim.args):
            raise ExpressionError(f"{name}(x in COLLECTION, ...) takes {len(prim.args)} expression(s) after "
                                  f"the collection, not {len(rest)}", node.column)
        if str(var.value) in PRIMITIVES:
            raise ExpressionError(f"{var.value!r} is a primitive and cannot name a variable", var.column)
        _check(coll, names)
        inner = names | {str(var.value)}
        for a in rest:
            _check(a, inner)
        return
    for a in node.args:
        _check(a, names)


_POSITION = re.compile(r"\bD\b")


def python_source(node: Node, params: Mapping[str, str], constants: Mapping[str, int],
                  position: str = "D") -> str:
    """The Python expression computing ``node``.

    :param params: rule-language names bound by the caller -> their Python names.
    :param constants: names with a fixed value in every game (role ids -> role numbers).
    :param position: the Python name of the position the primitives read (``B``, the
        position before the action, inside ``old(...)``).
    """
    op = node.op
    if op == "call" and node.value == "old":
        return python_source(node.args[0], params, constants, "B")
    if position != "D":
        return _POSITION.sub(position, python_source(node, params, constants))
    if op in ("int", "bool"):
        return repr(node.value)
    if op == "name":
        name = str(node.value)
        if name in params:
            return params[name]
        if name in constants:
            return repr(constants[name])
        return PRIMITIVES[name].python
    if op == "call":
        first = node.args[0] if node.args else None
        if node.value == "count" and first is not None and first.op == "call" and first.value == "distinct":
            # the same number, without building the collection in order: a fast path
            return f"len(set({python_source(first.args[0], params, constants)}))"
        if node.value == "in_order" and first is not None and first.op == "call" and first.value == "distinct":
            # sorted, repeats dropped: the order of the first ones does not matter (a fast path)
            return f"tuple(sorted(set({python_source(first.args[0], params, constants)})))"
        args = [python_source(a, params, constants) for a in node.args]
        # a template may name the expression's text ({text}) for an error it raises
        return PRIMITIVES[str(node.value)].python.format(*args, text=repr(show(node)))
    if op == "bind":
        var, coll, *rest = node.args
        v = f"v_{var.value}"
        # a part of the body that does not read the bound variable and builds a collection is
        # computed once, before the loop (the same value; a fast path)
        hoisted: list[tuple[str, str]] = []
        rest = [_hoist(a, str(var.value), params, constants, hoisted) for a in rest]
        inner = {**params, str(var.value): v, **{h: h for h, _ in hoisted}}
        body = [python_source(a, inner, constants) for a in rest]
        loop = PRIMITIVES[str(node.value)].python.format(*body, v=v, c=python_source(coll, params, constants))
        if not hoisted:
            return loop
        return (f"(lambda {', '.join(h for h, _ in hoisted)}: {loop})"
                f"({', '.join(src for _, src in hoisted)})")
    if op == "each":
        # each condition is tested as soon as the parts it reads are chosen, and each part of
        # it that reads only earlier parts and builds a collection is computed once, right
        # after the last part it reads (the same options, fewer steps: a fast path)
        parts = each_parts(node)
        order = [p for p, _ in parts]
        conds = [c for c, _ in each_conditions(node) if not (c.op == "bool" and c.value is True)]
        # the role or colour of a part that the conditions read more than once is computed
        # once, right after the part is chosen (the same value; a fast path)
        alias = _per_part(conds, order)
        part_of = {name: part for name, (_, part) in alias.items()}

        def level(n: Node) -> int:
            return max([order.index(part_of.get(x, x)) for x in _names_in(n) if part_of.get(x, x) in order],
                       default=-1)

        binds: dict[int, list[str]] = {}
        for name, (prim, part) in alias.items():
            src = python_source(Node("call", prim, (Node("name", part, (), 0),), 0), {part: f"v_{part}"}, constants)
            binds.setdefault(order.index(part), []).append(f"for {name} in ({src},)")
        conds = [_aliased(c, alias) for c in conds]
        tests: dict[int, list[Node]] = {}
        seen: dict[str, str] = {}
        known = {**params, **{a: a for a in alias}}
        for c in conds:
            lv = level(c)
            if lv >= 0:
                c = _hoist_levels(c, order[lv], order, level, known, constants, binds, seen)
            tests.setdefault(lv, []).append(c)
        tests = {lv: factored(ts) for lv, ts in tests.items()}
        scope = dict(params)
        scope.update({h: h for h in seen.values()})
        scope.update({a: a for a in alias})
        # a part's collection that reads only parts chosen well before it is built once,
        # right after the last part it reads and the tests of that part
        early: dict[int, list[str]] = {}
        colls: list[str] = []
        # a part chosen from a filter whose condition builds nothing loops over the filter's
        # collection and tests its condition on the part (no list of the filter built first)
        kept: dict[int, str] = {}
        for lv, (part, coll) in enumerate(parts):
            at = level(coll)
            before = {**scope, **{p: f"v_{p}" for p in order[:lv]}}
            src = python_source(coll, before, constants)
            if at < lv - 1 and _builds(coll) and not _reads_old(coll):
                _HOIST_COUNTER[0] += 1
                name = f"_h{_HOIST_COUNTER[0]}"
                early.setdefault(at, []).append(f"for {name} in ({iterable(src)},)")
                src = name
            elif _flat_filter(coll):
                var, pool, cond = coll.args
                src = python_source(pool, before, constants)
                kept[lv] = python_source(cond, {**before, str(var.value): f"v_{part}"}, constants)
            colls.append(iterable(src))
        # what reads no part is bound before the first part (a comprehension starts with a for)
        clauses: list[str] = [*binds.get(-1, []), *early.get(-1, [])]
        for lv in range(len(parts) + 1):
            if lv < len(parts):
                part = parts[lv][0]
                clauses.append(f"for v_{part} in {colls[lv]}")
                if lv in kept:
                    clauses.append(f"if {kept[lv]}")
                scope[part] = f"v_{part}"
            clauses.extend(binds.get(lv, []))
            clauses.extend(f"if {python_source(c, scope, constants)}" for c in tests.get(lv, []))
            clauses.extend(early.get(lv, []))
        value = "(" + "".join(f"v_{p}, " for p in order) + ")"
        return f"tuple([{value} {' '.join(clauses)}])"
    args = [python_source(a, params, constants) for a in node.args]
    if op == "list":
        return "(" + "".join(a + ", " for a in args) + ")"
    if op == "not":
        return f"(not {args[0]})"
    if op == "if":
        return f"({args[1]} if {args[0]} else {args[2]})"
    if op in ("and", "or"):
        return "(" + f" {op} ".join(args) + ")"
    if op in ("in", "not in") or op in _OPS:
        return f"({args[0]} {op} {args[1]})"
    raise ExpressionError(f"cannot compile {op!r}", node.column)


#: Primitives whose Python builds a collection each time (worth computing once before a loop).
_BUILDS = frozenset(name for name, p in PRIMITIVES.items()
                    if "tuple(" in p.python or " for " in p.python or p.python.startswith("_distinct("))
#: What may fail or need not be computed when a loop runs no time: never moved before a loop.
_EAGER_UNSAFE = frozenset({"first"})
_HOIST_COUNTER = [0]


def _flat_filter(coll: Node) -> bool:
    """Whether the part of an ``each`` chosen from ``coll`` loops over the collection of the
    filter ``coll`` is, testing its condition on the part: ``coll`` is a ``filter`` whose
    condition builds no collection (one it would compute once per filter, before its loop)."""
    return coll.op == "bind" and coll.value == "filter" and not _builds(coll.args[2])


def _builds(node: Node) -> bool:
    if node.op == "bind" or (node.op == "call" and str(node.value) in _BUILDS):
        return True
    return any(_builds(a) for a in node.args)


def _hoist(node: Node, var: str, params: Mapping[str, str], constants: Mapping[str, int],
           out: list[tuple[str, str]]) -> Node:
    """``node`` with each largest part that does not read ``var`` (nor ``old(...)``) and
    builds a collection replaced by a name, whose Python source is added to ``out``."""
    used = _names_in(node)
    if var not in used and node.op in ("call", "bind") and _builds(node) and not _reads_old(node):
        _HOIST_COUNTER[0] += 1
        name = f"_h{_HOIST_COUNTER[0]}"
        out.append((name, python_source(node, params, constants)))
        return Node("name", name, (), node.column)
    if node.op in ("bind", "each") or not node.args or _is_old(node):
        return node  # a nested loop keeps its own body (it may read var); old(...) reads the position before
    return Node(node.op, node.value, tuple(_hoist(a, var, params, constants, out) for a in node.args), node.column)


def _hoist_levels(node: Node, last: str, order: list[str], level: Callable[[Node], int], params: Mapping[str, str],
                  constants: Mapping[str, int], binds: dict[int, list[str]], seen: dict[str, str]) -> Node:
    """A condition of ``each`` tested after part ``last`` is chosen, with each largest part
    that does not read ``last`` and builds a collection replaced by a name bound right after
    the last part it reads (``binds``: level -> ``for NAME in (SOURCE,)`` clauses; ``seen``
    names one source once)."""
    used = _names_in(node)
    if last not in used and node.op in ("call", "bind") and _builds(node) and not _reads_old(node):
        scope = dict(params)
        scope.update({p: f"v_{p}" for p in order})
        src = python_source(node, scope, constants)
        name = seen.get(src)
        if name is None:
            _HOIST_COUNTER[0] += 1
            name = seen[src] = f"_h{_HOIST_COUNTER[0]}"
            binds.setdefault(level(node), []).append(f"for {name} in ({src},)")
        return Node("name", name, (), node.column)
    if node.op in ("bind", "each") or not node.args or _is_old(node):
        return node
    return Node(node.op, node.value, tuple(_hoist_levels(a, last, order, level, params, constants, binds, seen)
                                           for a in node.args), node.column)


#: Primitives of one card whose value :func:`python_source` computes once per part of an
#: ``each`` (:func:`_per_part`).
_PER_PART = ("role", "colour")


def _per_part(conds: list[Node], order: list[str]) -> dict[str, tuple[str, str]]:
    """The calls ``role(p)`` and ``colour(p)`` of a part ``p`` of an ``each`` that
    ``conds`` hold more than once, each with the Python name it is bound to
    (``_role_p``) -> (primitive, part)."""
    counts: dict[tuple[str, str], int] = {}
    for c in conds:
        for n in _nodes(c):
            key = _part_call(n, order)
            if key is not None:
                counts[key] = counts.get(key, 0) + 1
    return {f"_{prim}_{part}": (prim, part) for (prim, part), k in counts.items() if k > 1}


def _part_call(n: Node, order: list[str]) -> tuple[str, str] | None:
    """``(primitive, part)`` when ``n`` is ``role(p)`` or ``colour(p)`` of a part ``p`` in ``order``."""
    if (n.op == "call" and n.value in _PER_PART and len(n.args) == 1 and n.args[0].op == "name"
            and str(n.args[0].value) in order):
        return str(n.value), str(n.args[0].value)
    return None


def _aliased(node: Node, alias: Mapping[str, tuple[str, str]]) -> Node:
    """``node`` with each call :func:`_per_part` bound replaced by its name."""
    if not alias:
        return node
    names = {v: k for k, v in alias.items()}
    order = [part for _, part in alias.values()]

    def walk(n: Node) -> Node:
        key = _part_call(n, order)
        if key is not None and key in names:
            return Node("name", names[key], (), n.column)
        if n.op in ("bind", "each") or not n.args:
            return n  # a nested loop may bind a name of its own
        return Node(n.op, n.value, tuple(walk(a) for a in n.args), n.column)
    return walk(node)


def _names_in(node: Node) -> set[str]:
    out = {str(node.value)} if node.op == "name" else set()
    for a in node.args:
        out |= _names_in(a)
    return out


def _reads_old(node: Node) -> bool:
    """Whether ``node`` reads ``old(...)``, or holds a part that must not be computed early
    (a conditional, or a primitive that fails on an empty collection)."""
    if node.op == "if" or (node.op == "call" and str(node.value) in ("old", *_EAGER_UNSAFE)):
        return True
    return any(_reads_old(a) for a in node.args)


def shared_source(node: Node, params: Mapping[str, str], constants: Mapping[str, int]) -> str:
    """:func:`_shared_source`, written once per node, parameters and constants (see :func:`_remembered`)."""
    return _remembered("shared", node, params, constants, _shared_source)


#: (kind of source, id of a node, its parameters, the constants) -> (the node, its Python
#: source); the node is kept so that its id is not reused while the entry stands
_SOURCES: dict[tuple[object, ...], tuple[Node, str]] = {}
#: entries kept at most (then all are dropped: the next game writes them again)
_SOURCES_LIMIT = 20000


def _remembered(kind: str, node: Node, params: Mapping[str, str], constants: Mapping[str, int],
                make: Callable[[Node, Mapping[str, str], Mapping[str, int]], str]) -> str:
    """``make(node, params, constants)``, computed once for the same node object,
    parameters and constants: the games of one spec (one per ruleset asked) compile the
    same declarations. The source is the same as written anew but for the numbers of the
    names it binds itself (``_h1``: lambda parameters; ``_s1``: names assigned; distinct from every name in
    ``params``), so the code computes the same."""
    key = (kind, id(node), tuple(params.items()), tuple(constants.items()))
    try:
        got = _SOURCES.get(key)
    except TypeError:  # a constant that cannot be a key
        return make(node, params, constants)
    if got is not None and got[0] is node:
        return got[1]
    src = make(node, params, constants)
    if len(_SOURCES) >= _SOURCES_LIMIT:
        _SOURCES.clear()
    _SOURCES[key] = (node, src)
    return src


def shared_parts(nodes: Sequence[Node], params: Mapping[str, str], constants: Mapping[str, int], *,
                 builders: bool = False, local: bool = False) -> tuple[list[tuple[str, str]], list[Node]]:
    """The parts of ``nodes`` that build a collection, read no bound variable and occur
    more than once among them, each named once (``_s1``, ...): to be computed once,
    before the expressions (the same values, fewer steps: a fast path). Parts that must
    not be computed early (:func:`_reads_old`) are left. With ``builders``, only parts
    whose own primitive builds a collection (so computing them early cannot fail where
    the expressions would not have computed them). With ``local``, the names are
    numbered from 1 (``_p1``, ...: for a function of its own, whose text then does not
    depend on what was compiled before it).

    :returns: ``(names, rewritten)``: each name with the Python source computing it, and
        ``nodes`` with those parts replaced by their names (params must then map each name
        to itself).
    """
    bound = {str(n.args[0].value) for node in nodes for n in _nodes(node) if n.op == "bind"}
    counts: dict[str, int] = {}

    def candidate(n: Node) -> str | None:
        if (n.op in ("call", "bind") and _builds(n) and not _reads_old(n) and not (_names_in(n) & bound)
                and (not builders or n.op == "bind" or str(n.value) in _BUILDS)):
            return python_source(n, params, constants)
        return None

    for node in nodes:
        for n in _nodes(node, into_old=False):
            src = candidate(n)
            if src is not None:
                counts[src] = counts.get(src, 0) + 1
    shared: dict[str, str] = {}

    def rewrite(n: Node) -> Node:
        if _is_old(n):  # its parts read the position before: not the same values as outside it
            return n
        src = candidate(n)
        if src is not None and counts[src] > 1:
            if src not in shared:
                if local:
                    shared[src] = f"_p{len(shared) + 1}"
                else:
                    _HOIST_COUNTER[0] += 1
                    shared[src] = f"_s{_HOIST_COUNTER[0]}"
            return Node("name", shared[src], (), n.column)
        return Node(n.op, n.value, tuple(rewrite(a) for a in n.args), n.column) if n.args else n

    rewritten = [rewrite(node) for node in nodes]
    return [(name, src) for src, name in shared.items()], rewritten


def _shared_source(node: Node, params: Mapping[str, str], constants: Mapping[str, int]) -> str:
    """As :func:`python_source`, with each part :func:`shared_parts` finds computed once,
    before the whole expression (expressions holding an ``each`` are left: it has its own).

    :returns: the Python source of an expression.
    """
    if any(n.op == "each" for n in _nodes(node)):
        return python_source(node, params, constants)
    shared, (rewritten,) = shared_parts([node], params, constants)
    if not shared:
        return python_source(node, params, constants)
    inner = {**params, **{name: name for name, _ in shared}}
    # bound by assignment expressions, not as a lambda's parameters: a lambda is made and
    # called each time the expression is computed (the same value, fewer steps)
    binds = "".join(f"({name} := {src}), " for name, src in shared)
    return f"({binds}{python_source(rewritten, inner, constants)})[-1]"


def _is_old(node: Node) -> bool:
    """Whether ``node`` is ``old(...)``: its parts are computed on the position before the
    action, so no part of it may be computed early, or shared with a part outside it, on
    the position after."""
    return node.op == "call" and node.value == "old"


def _nodes(node: Node, into_old: bool = True) -> list[Node]:
    """``node`` and every node below it, outermost first (without ``into_old``, none inside
    an ``old(...)``)."""
    out = [node]
    if not into_old and _is_old(node):
        return out
    for a in node.args:
        out.extend(_nodes(a, into_old))
    return out


class Compiler:
    """Collects a game's expressions and compiles them together.

    :param constants: the game's constants (``P``, ``NR``, ``OWNER``, ... as in
        :mod:`palast.lang.primitives`).
    :param names: role ids (and other spec names) -> their numbers, usable in expressions.
    """

    def __init__(self, constants: Mapping[str, Any], names: Mapping[str, int]) -> None:
        self._constants = dict(constants)
        self._names = dict(names)
        self._lines: list[str] = []
        self._slots: list[list[Callable[..., Any]]] = []
        self._named: list[tuple[str, list[Callable[..., Any]]]] = []

    def add(self, node: Node, params: tuple[str, ...] = (), *, step: bool = False) -> list[Callable[..., Any]]:
        """Queue ``node`` as a function of the position ``D`` and ``params`` (in order);
        with ``step``, of ``D`` (the position after an action), ``B`` (the one before, which
        ``old(...)`` reads) and ``params``.

        :returns: a one-element list that holds the compiled function after
            :meth:`build` (so callers can keep the slot before the code exists).
        """
        py = {p: f"v_{p}" for p in params}
        body = _remembered("plain", node, py, self._names, python_source)
        i = len(self._slots)
        head = ", ".join(["D", *(["B"] if step else []), *py.values()])
        self._lines.append(f"def _f{i}({head}):\n    return {body}\n")
        slot: list[Callable[..., Any]] = []
        self._slots.append(slot)
        return slot

    def expression(self, node: Node, params: Mapping[str, str]) -> str:
        """The Python source of ``node`` with ``params`` (rule-language name -> Python name)."""
        return _remembered("plain", node, params, self._names, python_source)

    def shared(self, nodes: Sequence[Node]) -> tuple[list[tuple[str, str]], list[Node]]:
        """:func:`shared_parts` of ``nodes`` (expressions of the position alone), only parts
        whose own primitive builds a collection, named ``_p1``, ... (for a function of its
        own): the names to compute first, with their sources, and the rewritten nodes
        (compile them with ``params`` mapping each name to itself)."""
        return shared_parts(nodes, {}, self._names, builders=True, local=True)

    def add_function(self, name: str, source: str, refs: Mapping[str, Any]) -> list[Callable[..., Any]]:
        """Queue the generated function ``name`` (its whole ``source``, built from
        :meth:`expression` parts) that refers to the objects ``refs`` by name.

        :returns: a slot as :meth:`add` does.
        """
        self._constants.update(refs)
        self._lines.append(source)
        slot: list[Callable[..., Any]] = []
        self._named.append((name, slot))
        return slot

    def build(self) -> None:
        """Compile every queued expression (one ``compile`` for all)."""
        if not self._lines:
            return
        namespace: dict[str, Any] = {"__builtins__": {"len": len, "tuple": tuple, "dict": dict, "sum": sum,
                                                       "any": any, "all": all, "max": max, "min": min,
                                                       "range": range, "sorted": sorted,
                                                       "set": set}}
        namespace.update(RUNTIME)
        namespace.update(self._constants)
        code = _compiled("".join(self._lines))
        exec(code, namespace)  # the source is generated from checked templates only (see module doc)
        for i, slot in enumerate(self._slots):
            slot.append(namespace[f"_f{i}"])
        for name, slot in self._named:
            slot.append(namespace[name])
        self._lines = []


@lru_cache(maxsize=256)
def _compiled(source: str) -> CodeType:
    """The code object of generated ``source``, compiled once per text: every game of a spec
    writes the same source for its declarations (the game's constants are in the namespace
    it runs in, not in the text), and kept on disk between runs (:mod:`palast.spec.code_cache`)."""
    from palast.spec.code_cache import compiled

    return compiled(source, "<palast rule declarations>")
