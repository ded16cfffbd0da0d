"""Which declarations use each primitive of the rule language: every expression of the
rules' logic blocks (``spec/rules.yaml``, ``spec/roles.yaml``; effect keys and statements
alike) and of the invariants
(``spec/invariants.yaml``: ``holds``, ``let``, ``readings``, lemmas).

A primitive only one declaration uses is a sign that logic is hidden in a primitive rather
than composed from general ones; each such primitive says why it is one of its own
(:data:`palast.lang.primitives.ALONE`), and the book lists them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from palast.lang.logic import declarations, expressions
from palast.lang.primitives import PRIMITIVES
from palast.lang.syntax import ExpressionError, Node, parse


def _called(node: Node) -> Iterator[str]:
    """The primitives ``node`` uses: calls, binders and names that are primitives."""
    if node.op in ("call", "bind", "name") and str(node.value) in PRIMITIVES:
        yield str(node.value)
    for a in node.args:
        yield from _called(a)


def _invariant_texts(inv: Any) -> Iterator[str]:
    if inv.holds is not None:
        yield inv.holds
    yield from inv.let.values()
    for reading, branch in (inv.readings or {}).items():
        if reading != "point":
            yield from branch["let"].values()
    for lem in inv.lemmas:
        yield lem.holds
        if lem.colours is not None:
            yield lem.colours


def primitive_uses(spec: Any) -> dict[str, tuple[str, ...]]:
    """Every primitive -> the ids of the declarations that use it (rule ids and invariant
    ids, sorted; an invariant's lemmas count as the invariant). An expression that does not
    parse is skipped (``palast spec check`` reports it)."""
    uses: dict[str, set[str]] = {name: set() for name in PRIMITIVES}
    found: list[tuple[str, str]] = [(d.rule, text) for d in declarations(spec) for _, text, _ in expressions(d)]
    found += [(inv.id, text) for inv in spec.invariants.values() for text in _invariant_texts(inv)]
    nodes: list[tuple[str, Node]] = []
    for owner, text in found:
        try:
            nodes.append((owner, parse(str(text))))
        except ExpressionError:
            continue
    nodes += list(_statement_nodes(spec))
    for owner, node in nodes:
        for name in _called(node):
            uses[name].add(owner)
    return {name: tuple(sorted(owners)) for name, owners in uses.items()}


def _statement_nodes(spec: Any) -> Iterator[tuple[str, Node]]:
    """Every expression of the rules declared with statements: conditions, let values,
    readings' values and the statements' own expressions, with the rule id."""
    from palast.lang.blocks import program
    from palast.lang.statements import StatementError, walk
    from palast.lang.statements import expressions as statement_expressions

    try:
        prog = program(spec)
    except StatementError:
        return  # palast spec check reports it
    for r in prog.rules.values():
        if r.when is not None:
            yield r.rule, r.when
        yield from ((r.rule, n) for _, n in r.lets)
        for rb in r.readings:
            for br in rb.branches.values():
                yield from ((r.rule, n) for _, n in br.lets)
        for block in r.all_blocks():
            for st in walk(list(block)):
                yield from ((r.rule, n) for _, n in statement_expressions(st))
