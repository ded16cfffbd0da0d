"""The invariants declared as rule-language expressions (``holds`` in
``spec/invariants.yaml``, with their lemmas, read by :mod:`palast.lang.invariant_exprs`)
compiled to Python checks of a position for the engine's check mode, and the words that say
why one fails.

The proofs compile the very same expressions to Z3 (``proofs.lang_z3``), so an
invariant is written once. Clauses: those of each invariant (``spec/invariants.yaml``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from palast.engine.params import Readings
from palast.engine.state import State
from palast.lang.compiler import Compiler
from palast.lang.invariant_exprs import Declared, constant_kinds, constant_values, declared
from palast.lang.kinds import infer
from palast.lang.primitives import ELEMENT
from palast.lang.syntax import Node, show
from palast.spec.modules import modules_in_play

if TYPE_CHECKING:
    from palast.engine.game import Game


def game_reading(game: Any, point: str) -> str:
    """How ``game`` reads variation point ``point``: the value of the engine parameter the
    point sets (its ``parameter``, or for a point without one that rules read, such as a
    rule module's switch, the parameter of the point's own name:
    :func:`palast.lang.logic.parameter_table`; a test may assign another table), else the
    reading its ruleset takes."""
    name = game.spec.variation_points[point].parameter or point
    # read past a consult log (palast.engine.params.ConsultLog): an invariant's check is no
    # part of what an answer depends on
    setting = dict.get(game.params, name)
    if setting is not None and setting.point == point:
        return str(setting.value)
    return str(game.spec.reading(game.ruleset, point))


StateCheck = Callable[["Game", State], "str | None"]


def established(spec: Any, obligations: set[str]) -> frozenset[str]:
    """The declared invariants and lemmas that the proof ``obligations`` establish (those
    named by a ``breaks`` entry of spec/variation_points.yaml, those a prove list expects
    proved): an obligation named as an invariant or a lemma is that one's
    (cupbearer-actor-repeat; the lemma deck-reserve); another one names the invariants it
    proves (``established_by.proved_by``: round-actions-bounded proves turn-is-bounded).
    An invariant's id stands for it and its lemmas."""
    props = {i for inv in spec.invariants.values() for i in (inv.id, *(lem.id for lem in inv.lemmas))}
    return frozenset(obligations & props) | frozenset(
        inv.id for inv in spec.invariants.values()
        if any(o in obligations and o not in props for o in inv.established_by.get("proved_by", ())))


def suspended_by_readings(spec: Any, read: Callable[[str], str]) -> frozenset[str]:
    """The invariants and lemmas that check mode leaves out because a reading taken
    declares it breaks their obligation (:func:`established`; cupbearer-actor-repeat under
    source B's whisper reading of cupbearer-actor-duplicate).

    :param spec: the spec.
    :param read: the reading taken of each variation point id.
    :returns: invariant and lemma ids.
    """
    return established(spec, {obligation for vp in spec.variation_points.values() for r in vp.readings
                          if r.id == read(vp.id) for obligation, _ in r.breaks})


def refuted_by_house(spec: Any, ruleset: str) -> frozenset[str]:
    """The invariants and lemmas that check mode leaves out under ``ruleset`` because the
    named house ruleset it is or derives from expects their obligation to end in a
    counterexample (``prove`` in spec/rulesets.yaml, :func:`palast.spec.house_rulesets.prove_lists`;
    :func:`established`): under ``house-guard`` a Guard may take itself back forever, so
    round-is-bounded and round-progress do not hold there, and playing it would otherwise
    stop at the first such Guard. Only while ``ruleset`` takes every reading that house
    ruleset declares (``house-guard+guard-other-card=another-own`` takes the base game's
    Guard back, so it is checked in full); house rules given without such a list are
    checked in full too.

    :param spec: the spec, with ``ruleset`` among its rulesets or named house rulesets.
    :param ruleset: the ruleset played.
    :returns: invariant and lemma ids (empty where no prove list applies).
    """
    from palast.spec.house_rulesets import listing_house, prove_lists

    named = listing_house(spec, ruleset)
    if named is None:
        return frozenset()
    own = dict(spec.house_rulesets[named].get("readings") or {})
    if any(str(spec.variation_points[p].choices.get(ruleset)) != str(r) for p, r in own.items()):
        return frozenset()
    listed = prove_lists(spec).get(ruleset, {})
    return established(spec, {ob for ob, result in listed.items() if result == "counterexample"})


def readings_that_break(spec: Any, prop_id: str) -> list[tuple[str, str]]:
    """``(point, reading)`` of every reading under which check mode leaves out the invariant
    or lemma ``prop_id`` (:func:`suspended_by_readings`), for the rulebook."""
    return [(vp.id, r.id) for vp in spec.variation_points.values() for r in vp.readings
            if prop_id in established(spec, {obligation for obligation, _ in r.breaks})]


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
        self._broken: tuple[Any, tuple[Any, ...], frozenset[str]] = (None, (), frozenset())
        #: what the prove list of the game's house ruleset expects refuted
        #: (:func:`refuted_by_house`; the ruleset of a game does not change)
        self.refuted_by_house = refuted_by_house(spec, game.ruleset)

    @property
    def suspended(self) -> frozenset[str]:
        """What check mode leaves out in this game: :attr:`broken`, and what the prove list
        of the game's house ruleset expects refuted (:attr:`refuted_by_house`)."""
        return self.broken | self.refuted_by_house

    @property
    def broken(self) -> frozenset[str]:
        """The invariants a rule module in play breaks (spec/modules/, ``breaks``) or a
        reading the game takes breaks (spec/variation_points.yaml, ``breaks``), their
        lemmas with them; and the lemmas such a reading breaks. As the game reads its points
        now (:func:`game_reading`): found again once another table is assigned to
        ``game.params`` or the table changes."""
        game = self.game
        params = game.params
        table, key, got = self._broken
        if params is table and type(params) is Readings:  # a table as built cannot change
            return got
        now = tuple(dict.items(params))
        if table is None or now != key:
            def read(point: str) -> str:
                return game_reading(game, point)

            got = frozenset({b.invariant for m in modules_in_play(game.spec, read) for b in m.breaks}
                            | suspended_by_readings(game.spec, read))
        self._broken = (params, now, got)
        return got

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
        return str(list(game.spec.flow.decisions)[value])
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
