"""The invariants of ``spec/invariants.yaml`` as rule-language expressions: reading their
``holds`` and lemmas, the names they may use (the declared decisions and the roles as
constants), and what ``palast spec check`` finds wrong with them.

The engine's check mode compiles them to Python checks of a position
(:mod:`palast.invariants.declared`) and the proofs to Z3 (``proofs.lang_z3``), so an
invariant is written once. Clauses: those of each invariant (``spec/invariants.yaml``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from palast.lang.compiler import check
from palast.lang.kinds import infer
from palast.lang.primitives import ELEMENT, PRIMITIVES
from palast.lang.syntax import ExpressionError, Node, at_text, names, one_line, parse


class Problem(NamedTuple):
    """What ``palast spec check`` reports of a declaration: the key path, the message and,
    for an expression, the column (from 1) of the place in its text (so the report can
    name that place's line in the file)."""

    path: tuple[str | int, ...]
    message: str
    column: int | None = None


def expression_problem(path: tuple[str | int, ...], exc: ExpressionError, text: str) -> Problem:
    """The problem of an expression ``text`` that ``exc`` refuses, at ``path``: the message
    quotes the text from the place on (a long text only in part) and carries the column."""
    return Problem(path, f"{exc} ({at_text(text, exc.column)})", exc.column)


@dataclass(frozen=True)
class Declared:
    """One declared state property: an invariant's ``holds`` or one of its lemmas.

    :ivar id: the invariant's id, or the lemma's.
    :ivar invariant: the invariant it belongs to (its own id for an invariant).
    :ivar lemma: True for a strengthening lemma.
    :ivar text: the expression as written.
    :ivar node: the parsed expression.
    :ivar path: where it is in ``spec/invariants.yaml`` (key path).
    :ivar step: True for a step invariant (about an action: ``old(...)`` reads the position
        before it).
    :ivar names: the invariant's ``let`` names and the expressions they stand for in
        :attr:`node` (the very nodes, so a failure can be explained by name).
    :ivar colourless: for a lemma with a ``colours`` part, :attr:`node` without it (its
        ``holds`` alone: what a model that forgets colours compiles); ``None`` otherwise,
        where :attr:`node` is the whole property.
    """

    id: str
    invariant: str
    lemma: bool
    text: str
    node: Node
    path: tuple[str | int, ...]
    step: bool = False
    names: tuple[tuple[str, Node], ...] = ()
    colourless: Node | None = None


def decision_numbers(spec: Any) -> dict[str, int]:
    """Every decision ``spec`` declares (spec/flow.yaml and the roles' choices, in that
    order) -> its number in expressions: the number ``decision`` has when the position
    waits for it."""
    return {name: i for i, name in enumerate(spec.flow.decisions)}


def decision_names(spec: Any) -> dict[str, int]:
    """Decision names usable in expressions (``take_back`` for the decision ``take-back``)
    -> their numbers (:func:`decision_numbers`). Names that are primitives (``game_over``)
    are left out: the primitive of that name says the same."""
    return {name.replace("-", "_"): i for name, i in decision_numbers(spec).items()
            if name.replace("-", "_") not in PRIMITIVES}


def constant_kinds(spec: Any) -> dict[str, str]:
    """Every constant name of invariant expressions -> its kind: role ids -> ``role``,
    decision names -> ``decision``."""
    return {**dict.fromkeys(decision_names(spec), "decision"), **dict.fromkeys(spec.roles, "role")}


def constant_values(spec: Any) -> dict[str, int]:
    """Every constant name of invariant expressions -> its number."""
    return {**decision_names(spec), **{r: i for i, r in enumerate(spec.roles)}}


def expand(node: Node, names: Mapping[str, Node]) -> Node:
    """``node`` with every name of ``names`` (an invariant's ``let``) replaced by the
    expression it names; a variable a binder binds is not replaced inside the binder."""
    if node.op == "name" and str(node.value) in names:
        return names[str(node.value)]
    if node.op == "bind":
        var, coll, *rest = node.args
        inner = {k: v for k, v in names.items() if k != var.value}
        return Node(node.op, node.value, (var, expand(coll, names), *(expand(a, inner) for a in rest)), node.column)
    if not node.args:
        return node
    return Node(node.op, node.value, tuple(expand(a, names) for a in node.args), node.column)


def reading_branch(inv: Any, reading_of: Callable[[str], str] | None) -> str | None:
    """The branch of invariant ``inv``'s ``readings`` block that a game takes:
    ``reading_of(point)`` (the game's reading of the block's point, ``open`` where it is
    left open; see :func:`game_reading`); with no ``reading_of`` the first branch. ``None``
    when ``inv`` has no readings."""
    block = inv.readings
    if not block:
        return None
    if reading_of is None:
        return str(next(r for r in block if r != "point"))
    return str(reading_of(str(block["point"])))


def lets(inv: Any, branch: str | None = None) -> dict[str, Node]:
    """The parsed ``let`` names of invariant ``inv``, each expanded with the ones before it,
    then those of its ``readings`` branch ``branch`` (when given).

    :raises ExpressionError: for a name's expression that does not parse.
    """
    out: dict[str, Node] = {}
    texts = dict(inv.let)
    if branch is not None:
        texts.update(inv.readings[branch]["let"])
    for name, text in texts.items():
        out[name] = expand(parse(text), out)
    return out


def declared(spec: Any, reading_of: Callable[[str], str] | None = None) -> list[Declared]:
    """Every declared state property of ``spec``, in file order (each invariant before its
    lemmas). An invariant with a ``readings`` block is taken as ``reading_of(point)`` says
    the game reads its point (:func:`game_reading`; without it, as its first branch, which
    serves to read and name the expression).

    :raises ExpressionError: for an expression that does not parse (``palast spec check``
        reports it with its place first: :func:`problems`).
    """
    invariants = spec.invariants
    branches = tuple(reading_branch(inv, reading_of) for inv in invariants.values())
    got = _DECLARED.get((id(invariants), branches))
    if got is not None and got[0] is invariants:
        return list(got[1])
    out: list[Declared] = []
    for i, inv in enumerate(invariants.values()):
        if inv.holds is not None:
            named = lets(inv, branches[i])
            out.append(Declared(inv.id, inv.id, False, inv.holds, expand(parse(inv.holds), named),
                                ("invariants", i, "holds"), inv.kind == "step", tuple(named.items())))
        for j, lem in enumerate(inv.lemmas):
            node = parse(lem.holds)
            if lem.colours is None:
                out.append(Declared(lem.id, inv.id, True, lem.holds, node, ("invariants", i, "lemmas", j, "holds")))
            else:
                out.append(Declared(lem.id, inv.id, True, lem.holds, Node("and", "", (node, parse(lem.colours))),
                                    ("invariants", i, "lemmas", j, "holds"), colourless=node))
    if len(_DECLARED) >= 64:
        _DECLARED.clear()
    _DECLARED[id(invariants), branches] = (invariants, tuple(out))
    return out


#: :func:`declared` per spec's invariants (kept, so its id is not reused) and the readings
#: branch taken of each: every game compiles its checks from them (the parts are immutable)
_DECLARED: dict[tuple[int, tuple[str | None, ...]], tuple[Mapping[str, Any], tuple[Declared, ...]]] = {}


def problems(spec: Any) -> list[Problem]:
    """What is wrong with the declared invariants: an expression that does not parse, uses
    an unknown name, is not a condition, or reads the order cards lie in
    (:func:`order_problem`: the proofs' model does not keep it, so Z3 would prove less than
    the engine checks); a lemma id that repeats an id.

    :returns: (key path in ``spec/invariants.yaml``, message) per problem.
    """
    out: list[Problem] = []
    kinds = constant_kinds(spec)
    seen = set(spec.invariants)
    for i, inv in enumerate(spec.invariants.values()):
        texts: list[tuple[tuple[str | int, ...], str]] = (
            [(("invariants", i, "holds"), inv.holds)] if inv.holds is not None else [])
        for j, lem in enumerate(inv.lemmas):
            if lem.id in seen:
                out.append(Problem(("invariants", i, "lemmas", j, "id"),
                                   f"{lem.id!r} is already the id of an invariant or lemma"))
            seen.add(lem.id)
            texts.append((("invariants", i, "lemmas", j, "holds"), lem.holds))
            if lem.colours is not None:
                texts.append((("invariants", i, "lemmas", j, "colours"), lem.colours))
        block = inv.readings
        branches: list[str | None] = [None]
        if block:
            vp = spec.variation_points.get(block["point"])
            if vp is None:
                out.append(Problem(("invariants", i, "readings", "point"),
                                   f"unknown variation point {block['point']!r}"))
                continue
            known = [r.id for r in vp.readings] + ["open"]
            given = [str(r) for r in block if r != "point"]
            for r in given:
                if r not in known:
                    out.append(Problem(("invariants", i, "readings", r), f"{vp.id} has no reading {r!r} "
                                                                 f"(its readings: {', '.join(known)})"))
            missing = [r for r in known if r not in block]
            if missing:
                out.append(Problem(("invariants", i, "readings"), f"gives no let for {', '.join(missing)} of {vp.id}: "
                                                           "every reading of the point, and open, needs one"))
            names = [tuple(block[r]["let"]) for r in given if r in known]
            if names and any(n != names[0] for n in names):
                out.append(Problem(("invariants", i, "readings"), "every branch must give the same names, in the same "
                                                           "order"))
            branches = [r for r in given if r in known]
        for branch in branches:
            out.extend(_branch_problems(spec, inv, i, texts, branch, kinds))
    return list(dict.fromkeys(out))  # a problem common to every branch once


def _branch_problems(spec: Any, inv: Any, i: int, texts: list[tuple[tuple[str | int, ...], str]],
                     branch: str | None, kinds: Any) -> list[Problem]:
    """The problems of invariant ``inv`` (number ``i``) with its ``let`` and, when given, the
    ``let`` of its readings branch ``branch``."""
    out: list[Problem] = []
    named: dict[str, Node] = {}
    own: list[tuple[tuple[str | int, ...], str, str]] = [(("invariants", i, "let", name), name, text)
                                                          for name, text in inv.let.items()]
    if branch is not None:
        own += [(("invariants", i, "readings", branch, "let", name), name, text)
                for name, text in inv.readings[branch]["let"].items()]
    for where, name, text in own:
        if name in named:
            out.append(Problem(where, f"the name {name!r} is given twice (a let and a readings branch may not name the "
                               "same part)"))
            continue
        if name in PRIMITIVES or name in kinds:
            out.append(Problem(where, f"the name {name!r} is a primitive or a constant of the language: give the part "
                               "a name of its own"))
            continue
        try:
            named[name] = expand(parse(text), named)  # checked where holds uses it
        except ExpressionError as exc:
            out.append(expression_problem(where, exc, text))
            named[name] = Node("int", 0)
            continue
    out.extend(_unused(inv, own, named))
    for path, text in texts:
        try:
            node = expand(parse(text), named) if path[-1] == "holds" and len(path) == 3 else parse(text)
            check(node, kinds)
            by_id = {id(n): name for name, n in named.items()}
            found = _old_inside_old(node, by_id) or _order(node, kinds, {}, by_id, None)
            if found is not None:  # placed where it is written: in the text, or in a let it uses
                refused, let_name = found
                if let_name is None:
                    raise refused
                where, _, let_text = next(x for x in own if x[1] == let_name)
                out.append(expression_problem(where, refused, let_text))
                continue
            if inv.kind != "step" or len(path) != 3:  # a lemma is about one position
                at = uses_old(node)
                if at is not None:
                    raise ExpressionError("old(...) reads the position before an action: only a step invariant "
                                          "has one", at)
            got = infer(node, {}, kinds)
            if got not in ("bool", "any"):
                raise ExpressionError(f"an invariant must be a condition, not {got}", 1)
        except ExpressionError as exc:
            out.append(_placed(path, exc, text, own))
    return out


def _unused(inv: Any, own: list[tuple[tuple[str | int, ...], str, str]], named: Mapping[str, Node]) -> list[Problem]:
    """A ``let`` name (of the invariant or of a readings branch, ``own``) that its ``holds``
    uses neither directly nor through another name: a part written but never checked."""
    if inv.holds is None:
        return []
    try:
        todo = set(names(parse(inv.holds)))
    except ExpressionError:
        return []  # reported where holds is checked
    raw: dict[str, set[str]] = {}
    for _, name, text in own:
        try:
            raw[name] = set(names(parse(text)))
        except ExpressionError:
            raw[name] = set()
    used: set[str] = set()
    while todo:
        name = todo.pop()
        if name in raw and name not in used:
            used.add(name)
            todo |= raw[name]
    return [Problem(where, f"the name {name!r} is given, but holds uses it neither directly nor through another "
                           "name: drop it, or say it in holds")
            for where, name, _ in own if name in named and name not in used]


def _placed(path: tuple[str | int, ...], exc: ExpressionError, text: str,
            lets: list[tuple[tuple[str | int, ...], str, str]]) -> Problem:
    """The problem of ``holds`` (``text`` at ``path``) that ``exc`` refuses, placed in the
    ``let`` it comes from where that is where the name it quotes stands at its column (a
    let's expression keeps its own columns when ``holds`` uses it)."""
    quoted = re.search(r"'([^']+)'", str(exc))
    if quoted is not None and not one_line(text)[exc.column - 1:].startswith(quoted.group(1)):
        for where, _name, let_text in lets:
            if one_line(let_text)[exc.column - 1:].startswith(quoted.group(1)):
                return expression_problem(where, exc, let_text)
    return expression_problem(path, exc, text)


def _old_inside_old(node: Node, lets: Mapping[int, str]) -> tuple[ExpressionError, str | None] | None:
    """The problem of an ``old(...)`` holding another in ``node`` (whose ``let`` parts are
    the nodes of ``lets``), with the let the outer one is written in (``None``: the text)."""
    got = _old_in_old(node, lets, None, None)
    if got is None:
        return None
    column, where_old, inner_let = got
    via = f" (the let {inner_let} it uses reads old(...))" if inner_let else ""
    return ExpressionError(f"old(...) inside old(...): the position before an action has no before{via}",
                           column), where_old


def old_in_old(node: Node) -> int | None:
    """The column of an ``old(...)`` that holds another ``old(...)`` in ``node`` (the
    position before an action has no before), or ``None``."""
    got = _old_in_old(node, {}, None, None)
    return None if got is None else got[0]


def _old_in_old(node: Node, lets: Mapping[int, str], owner: str | None,
                outer: tuple[int, str | None] | None) -> tuple[int, str | None, str | None] | None:
    """:func:`old_in_old`: the column of the outer ``old``, the ``let`` name (of ``lets``:
    node id -> name) it is written in or ``None`` for the text itself, and the ``let`` the
    inner one is written in (``None``: the same text as the outer)."""
    owner = lets.get(id(node), owner)
    if node.op == "call" and node.value == "old":
        if outer is not None:
            return outer[0], outer[1], owner if owner != outer[1] else None
        outer = (node.column, owner)
    for a in node.args:
        got = _old_in_old(a, lets, owner, outer)
        if got is not None:
            return got
    return None


def uses_old(node: Node) -> int | None:
    """The column of the first ``old(...)`` in ``node``, or ``None``."""
    if node.op == "call" and node.value == "old":
        return node.column
    for a in node.args:
        got = uses_old(a)
        if got is not None:
            return got
    return None


#: Collections whose order the proofs' model keeps: sorted ones (the model counts the cards
#: of a zone by kind, so it knows a zone's cards but not the order they lie in); the King card
#: in force is at most one.
_SORTED = frozenset({"in_order", "all_cards", "all_roles", "king_cards", "in_force"})
#: Kinds of collection whose order is the order their cards lie in (a display's, as laid).
_LAID = frozenset({"cards", "roles"})


def _short(node: Node) -> bool:
    """Whether ``node`` is a list written out with no element or one: it lies in the one
    order there is, and a collection equal to it has that order too."""
    return node.op == "list" and len(node.args) <= 1


def _sorted(node: Node) -> bool:
    """Whether ``node`` is a sorted collection: a sorted one, or part of one taken in order
    (or a sorted one before the action, ``old(...)``)."""
    if node.op in ("call", "name") and node.value in _SORTED:
        return True
    if _short(node):
        return True
    if node.op == "call" and node.value in ("distinct", "without", "minus", "old") and node.args:
        return _sorted(node.args[0])
    return node.op == "bind" and node.value in ("filter", "fewest", "most") and _sorted(node.args[1])


def order_problem(node: Node, kinds: Any, env: dict[str, str] | None = None) -> ExpressionError | None:
    """Where ``node`` (kind-checked) reads the order in which cards lie in a zone, which the
    engine keeps and the proofs' Z3 model does not (it counts a zone's cards by kind): a
    comparison of two collections of cards or roles that are not both sorted (``==``
    compares them in order), or ``first`` of one that is not sorted. An expression both back
    ends evaluate must mean the same in each; ``in_order(...)`` makes it so.

    :returns: the problem (with its column), or ``None``.
    """
    got = _order(node, kinds, env or {}, {}, None)
    return None if got is None else got[0]


def _order(node: Node, kinds: Any, env: dict[str, str], lets: Mapping[int, str],
           owner: str | None) -> tuple[ExpressionError, str | None] | None:
    """:func:`order_problem` of ``node``, with the ``let`` name (of ``lets``: node id ->
    name) whose expression the problem lies in, or ``owner`` (``None``: the text itself)."""
    owner = lets.get(id(node), owner)
    if node.op in ("==", "!=") and any(infer(a, env, kinds) in _LAID for a in node.args[:2]) \
            and not (_sorted(node.args[0]) and _sorted(node.args[1])) and not any(_short(a) for a in node.args[:2]):
        return ExpressionError("this compares two collections of cards or roles in the order they lie, which the "
                               "proofs' model does not keep: compare in_order(...) of each", node.column), owner
    if node.op == "call" and node.value == "first" and node.args and infer(node.args[0], env, kinds) in _LAID \
            and not _sorted(node.args[0]):
        return ExpressionError("first(...) of cards or roles reads the order they lie in, which the proofs' model "
                               "does not keep: take first(in_order(...))", node.column), owner
    if node.op == "bind":
        var, coll, *rest = node.args
        inner = {**env, str(var.value): ELEMENT.get(infer(coll, env, kinds), "any")}
        for a in (coll, *rest):
            got = _order(a, kinds, inner if a is not coll else env, lets, owner)
            if got is not None:
                return got
        return None
    for a in node.args:
        got = _order(a, kinds, env, lets, owner)
        if got is not None:
            return got
    return None
