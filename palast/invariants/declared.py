"""The invariants declared as rule-language expressions (``holds`` in
``spec/invariants.yaml``, with their lemmas): reading them, the names they may use, and
compiling them to Python checks of a position for the engine's check mode.

The proofs compile the very same expressions to Z3 (``proofs.lang_z3``), so an
invariant is written once. Clauses: those of each invariant (``spec/invariants.yaml``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from palast.engine.state import DecisionKind, State
from palast.lang.compiler import Compiler, check
from palast.lang.kinds import infer
from palast.lang.primitives import ELEMENT, PRIMITIVES
from palast.lang.syntax import ExpressionError, Node, parse, show
from palast.spec.modules import modules_in_play

if TYPE_CHECKING:
    from palast.engine.game import Game


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
    """

    id: str
    invariant: str
    lemma: bool
    text: str
    node: Node
    path: tuple[str | int, ...]
    step: bool = False
    names: tuple[tuple[str, Node], ...] = ()


def decision_names() -> dict[str, int]:
    """Decision names usable in expressions (``take_back`` for the decision ``take-back``)
    -> their numbers (the order of :class:`~palast.engine.state.DecisionKind`, which the
    Z3 encoding numbers alike). Names that are primitives (``game_over``) are left out:
    the primitive of that name says the same."""
    return {k.value.replace("-", "_"): i for i, k in enumerate(DecisionKind)
            if k.value.replace("-", "_") not in PRIMITIVES}


def constant_kinds(spec: Any) -> dict[str, str]:
    """Every constant name of invariant expressions -> its kind: role ids -> ``role``,
    decision names -> ``decision``."""
    return {**dict.fromkeys(decision_names(), "decision"), **dict.fromkeys(spec.roles, "role")}


def constant_values(spec: Any) -> dict[str, int]:
    """Every constant name of invariant expressions -> its number."""
    return {**decision_names(), **{r: i for i, r in enumerate(spec.roles)}}


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


def game_reading(game: Any, point: str) -> str:
    """How ``game`` reads variation point ``point``: the value of the engine parameter the
    point sets (which a test may override), else the reading its ruleset takes."""
    vp = game.spec.variation_points[point]
    if vp.parameter and vp.parameter in game.params:
        # read past a consult log (palast.engine.params.ConsultLog): an invariant's check is
        # no part of what an answer depends on
        return str(dict.__getitem__(game.params, vp.parameter).value)
    return str(game.spec.reading(game.ruleset, point))


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
            out.append(Declared(lem.id, inv.id, True, lem.holds, parse(lem.holds),
                                ("invariants", i, "lemmas", j, "holds")))
    if len(_DECLARED) >= 64:
        _DECLARED.clear()
    _DECLARED[id(invariants), branches] = (invariants, tuple(out))
    return out


#: :func:`declared` per spec's invariants (kept, so its id is not reused) and the readings
#: branch taken of each: every game compiles its checks from them (the parts are immutable)
_DECLARED: dict[tuple[int, tuple[str | None, ...]], tuple[Mapping[str, Any], tuple[Declared, ...]]] = {}


def problems(spec: Any) -> list[tuple[tuple[str | int, ...], str]]:
    """What is wrong with the declared invariants: an expression that does not parse, uses
    an unknown name, or is not a condition; a lemma id that repeats an id.

    :returns: (key path in ``spec/invariants.yaml``, message) per problem.
    """
    out: list[tuple[tuple[str | int, ...], str]] = []
    kinds = constant_kinds(spec)
    seen = set(spec.invariants)
    for i, inv in enumerate(spec.invariants.values()):
        texts: list[tuple[tuple[str | int, ...], str]] = (
            [(("invariants", i, "holds"), inv.holds)] if inv.holds is not None else [])
        for j, lem in enumerate(inv.lemmas):
            if lem.id in seen:
                out.append((("invariants", i, "lemmas", j, "id"), f"{lem.id!r} is already the id of an invariant "
                                                                  "or lemma"))
            seen.add(lem.id)
            texts.append((("invariants", i, "lemmas", j, "holds"), lem.holds))
        block = inv.readings
        branches: list[str | None] = [None]
        if block:
            vp = spec.variation_points.get(block["point"])
            if vp is None:
                out.append((("invariants", i, "readings", "point"), f"unknown variation point {block['point']!r}"))
                continue
            known = [r.id for r in vp.readings] + ["open"]
            given = [str(r) for r in block if r != "point"]
            for r in given:
                if r not in known:
                    out.append((("invariants", i, "readings", r), f"{vp.id} has no reading {r!r} "
                                                                 f"(its readings: {', '.join(known)})"))
            missing = [r for r in known if r not in block]
            if missing:
                out.append((("invariants", i, "readings"), f"gives no let for {', '.join(missing)} of {vp.id}: "
                                                           "every reading of the point, and open, needs one"))
            names = [tuple(block[r]["let"]) for r in given if r in known]
            if names and any(n != names[0] for n in names):
                out.append((("invariants", i, "readings"), "every branch must give the same names, in the same "
                                                           "order"))
            branches = [r for r in given if r in known]
        for branch in branches:
            out.extend(_branch_problems(spec, inv, i, texts, branch, kinds))
    return list(dict.fromkeys(out))  # a problem common to every branch once


def _branch_problems(spec: Any, inv: Any, i: int, texts: list[tuple[tuple[str | int, ...], str]],
                     branch: str | None, kinds: Any) -> list[tuple[tuple[str | int, ...], str]]:
    """The problems of invariant ``inv`` (number ``i``) with its ``let`` and, when given, the
    ``let`` of its readings branch ``branch``."""
    out: list[tuple[tuple[str | int, ...], str]] = []
    named: dict[str, Node] = {}
    own: list[tuple[tuple[str | int, ...], str, str]] = [(("invariants", i, "let", name), name, text)
                                                          for name, text in inv.let.items()]
    if branch is not None:
        own += [(("invariants", i, "readings", branch, "let", name), name, text)
                for name, text in inv.readings[branch]["let"].items()]
    for where, name, text in own:
        if name in named:
            out.append((where, f"the name {name!r} is given twice (a let and a readings branch may not name the "
                               "same part)"))
            continue
        if name in PRIMITIVES or name in kinds:
            out.append((where, f"the name {name!r} is a primitive or a constant of the language: give the part "
                               "a name of its own"))
            continue
        try:
            named[name] = expand(parse(text), named)  # checked where holds uses it
        except ExpressionError as exc:
            out.append((where, f"{exc} (column {exc.column} of {text!r})"))
            named[name] = Node("int", 0)
    for path, text in texts:
        try:
            node = expand(parse(text), named) if path[-1] == "holds" and len(path) == 3 else parse(text)
            check(node, kinds)
            if inv.kind != "step" or len(path) != 3:  # a lemma is about one position
                at = uses_old(node)
                if at is not None:
                    raise ExpressionError("old(...) reads the position before an action: only a step invariant "
                                          "has one", at)
            got = infer(node, {}, kinds)
            if got not in ("bool", "any"):
                raise ExpressionError(f"an invariant must be a condition, not {got}", 1)
        except ExpressionError as exc:
            out.append((path, f"{exc} (column {exc.column} of {text!r})"))
    return out


def uses_old(node: Node) -> int | None:
    """The column of the first ``old(...)`` in ``node``, or ``None``."""
    if node.op == "call" and node.value == "old":
        return node.column
    for a in node.args:
        got = uses_old(a)
        if got is not None:
            return got
    return None


StateCheck = Callable[["Game", State], "str | None"]


class _Checks:
    """The compiled checks of one game: per declared property, a function of a position.

    An invariant with a ``readings`` block is compiled once per branch, and its function
    takes the branch of the game's reading each time it is called (:func:`game_reading`),
    so a parameter a test overrides after the checks were compiled is still the one read.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        spec = game.spec
        self.props = declared(spec)
        self.kinds = constant_kinds(spec)
        self._compiler_names = constant_values(spec)
        comp = Compiler(game.lang_constants, self._compiler_names)
        slots = [comp.add(p.node, step=p.step) for p in self.props]
        #: invariant id -> (its point, branch -> (the property as that branch reads it, its slot))
        branched: dict[str, tuple[str, dict[str, tuple[Declared, list[Callable[..., Any]]]]]] = {}
        for inv in spec.invariants.values():
            if inv.readings and inv.holds is not None:
                table: dict[str, tuple[Declared, list[Callable[..., Any]]]] = {}
                mine = str(inv.readings["point"])
                for branch in (str(r) for r in inv.readings if r != "point"):
                    def read(point: str, b: str = branch, mine: str = mine) -> str:
                        return b if point == mine else game_reading(game, point)

                    d = next(p for p in declared(spec, read) if p.id == inv.id)
                    table[branch] = (d, comp.add(d.node, step=d.step))
                branched[inv.id] = (mine, table)
        comp.build()
        self.fns: dict[str, Callable[..., Any]] = {p.id: s[0] for p, s in zip(self.props, slots, strict=True)}
        self._branched = {pid: (point, {b: (d, slot[0]) for b, (d, slot) in table.items()})
                          for pid, (point, table) in branched.items()}
        for pid in self._branched:
            self.fns[pid] = self._dispatch(pid)
        self.by_id = {p.id: p for p in self.props}
        #: the invariants a rule module in play breaks (spec/modules/, ``breaks``): not
        #: checked in this game, their lemmas neither
        self.suspended: frozenset[str] = frozenset(
            b.invariant for m in modules_in_play(spec, lambda point: game_reading(game, point)) for b in m.breaks)

    def _dispatch(self, pid: str) -> Callable[..., Any]:
        point, table = self._branched[pid]
        game = self.game

        def check(*states: State) -> Any:
            return table[game_reading(game, point)][1](*states)
        return check

    def as_read(self, prop: Declared) -> Declared:
        """``prop`` as the game now reads it (its readings branch, where it has one)."""
        got = self._branched.get(prop.id)
        return prop if got is None else got[1][game_reading(self.game, got[0])][0]

    def why(self, prop: Declared, s: State, before: State | None = None) -> str:
        """Say why ``prop`` is false in ``s`` (after the action from ``before``, for a step
        invariant): the part of the expression that fails, with the element of a collection
        it fails for and the values compared, with the values of the ``let`` names and the
        ``old(...)`` parts it reads)."""
        prop = self.as_read(prop)
        states: tuple[State, ...] = (s, before) if prop.step and before is not None else (s,)
        return _Why(self, states, prop.names).why(prop.node, {}, {})


_CACHE: weakref.WeakKeyDictionary[Game, _Checks] = weakref.WeakKeyDictionary()


def checks(game: Game) -> _Checks:
    """The compiled declared checks of ``game`` (compiled once per game)."""
    got = _CACHE.get(game)
    if got is None:
        got = _CACHE[game] = _Checks(game)
    return got


def failure(game: Game, prop_id: str, s: State, before: State | None = None) -> str | None:
    """``None`` when the declared property ``prop_id`` holds in ``s`` (for a step
    invariant: of the action from ``before`` to ``s``), else why not.

    :raises KeyError: when ``game.spec`` declares no such property.
    :raises ValueError: for a step invariant without ``before``.
    """
    c = checks(game)
    prop = c.by_id[prop_id]
    if prop.step and before is None:
        raise ValueError(f"{prop_id} is about an action: give the position before it")
    if c.fns[prop_id](*((s, before) if prop.step else (s,))):
        return None
    return c.why(prop, s, before)


def _name(game: Game, kind: str, value: Any) -> str:
    if kind == "seat":
        return game.colour_name(value) if value >= 0 else "nobody"
    if kind == "card":
        return game.cards.format_card(value) if value >= 0 else "no card"
    if kind == "role":
        return game.spec.roles[value] if value >= 0 else "no role"
    if kind == "cards":
        return game.cards.format_cards(value) or "no cards"
    if kind == "roles":
        return "[" + ", ".join(game.spec.roles[r] for r in value) + "]"
    if kind == "seats":
        return "[" + ", ".join(game.colour_name(p) for p in value) + "]"
    if kind == "decision":
        return str(list(DecisionKind)[value].value)
    return str(value).lower() if isinstance(value, bool) else str(value)


def _value(c: _Checks, node: Node, s: tuple[State, ...], bound: Mapping[str, Any]) -> Any:
    comp = Compiler(c.game.lang_constants, c._compiler_names)
    slot = comp.add(node, tuple(bound), step=len(s) > 1)
    comp.build()
    return slot[0](*s, *bound.values())


class _Why:
    """The explanation of one failure: the checks, the position(s) and the ``let`` names."""

    def __init__(self, c: _Checks, s: tuple[State, ...], names: tuple[tuple[str, Node], ...]) -> None:
        self.c, self.s, self.names = c, s, names

    def show(self, node: Node) -> str:
        """``node`` as written, each part a ``let`` name stands for shown by its name."""
        return show(self._fold(node))

    def _fold(self, node: Node) -> Node:
        for name, part in self.names:
            if node is part:
                return Node("name", name, (), node.column)
        if not node.args:
            return node
        return Node(node.op, node.value, tuple(self._fold(a) for a in node.args), node.column)

    def _parts(self, node: Node) -> list[Node]:
        """The named parts and ``old(...)`` parts of ``node`` outside any binder (a binder's
        body may read the variable it binds), once each, in reading order."""
        if any(node is part for _, part in self.names) or (node.op == "call" and node.value == "old"):
            return [node]
        if node.op == "bind":
            return []
        out: list[Node] = []
        for a in node.args:
            out += [x for x in self._parts(a) if all(x is not y for y in out)]
        return out

    def why(self, node: Node, bound: dict[str, Any], kinds: dict[str, str]) -> str:
        """Why ``node`` is false with the variables ``bound`` (of ``kinds``)."""
        c, s, game = self.c, self.s, self.c.game
        where = "".join(f"for {k} = {_name(game, kinds[k], v)}: " for k, v in bound.items())
        if node.op == "and":
            for part in node.args:
                if not _value(c, part, s, bound):
                    return self.why(part, bound, kinds)
        if node.op == "bind" and node.value == "all":
            var, coll, body = node.args
            ck = infer(coll, kinds, c.kinds)
            for x in _value(c, coll, s, bound):
                inner = {**bound, str(var.value): x}
                if not _value(c, body, s, inner):
                    return self.why(body, inner, {**kinds, str(var.value): ELEMENT.get(ck, "any")})
        if node.op == "or" and node.args:  # every case is false: why the last, the claim, is
            return self.why(node.args[-1], bound, kinds)
        if node.op == "if":  # a choice: why the branch it takes is false
            cond, yes, no = node.args
            return self.why(yes if _value(c, cond, s, bound) else no, bound, kinds)
        if node.op in ("==", "!=", "<", "<=", ">", ">=") and node.args:
            left, right = node.args
            lv, rv = _value(c, left, s, bound), _value(c, right, s, bound)
            lk, rk = infer(left, kinds, c.kinds), infer(right, kinds, c.kinds)
            if node.op == "==" and lk in ELEMENT:
                from collections import Counter

                extra, missing = Counter(lv) - Counter(rv), Counter(rv) - Counter(lv)
                return (f"{where}{self.show(node)} is false: the left side has "
                        f"{_name(game, lk, tuple(sorted(extra.elements())))} more and "
                        f"{_name(game, lk, tuple(sorted(missing.elements())))} fewer")
            said = [f"{self.show(left)} is {_name(game, lk, lv)}", f"{self.show(right)} is {_name(game, rk, rv)}"]
            for part in self._parts(node):  # the named parts, and the values before the action
                if part is not left and part is not right:
                    value = _value(c, part, s, bound)
                    said.append(f"{self.show(part)} is {_name(game, infer(part, kinds, c.kinds), value)}")
            return f"{where}{self.show(node)} is false ({', '.join(said)})"
        call = node.args[0] if node.op == "not" and node.args else node
        if call.op == "call" and call.args and call.value != "old":  # a primitive: the values it was given
            vals = ", ".join(f"{self.show(a)} is {_name(game, infer(a, kinds, c.kinds), _value(c, a, s, bound))}"
                             for a in call.args)
            return f"{where}{self.show(node)} is false ({vals})"
        return f"{where}{self.show(node)} is false"
