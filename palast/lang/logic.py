"""The ``logic:`` blocks of the spec's rules declared with effect keys: checked, then
compiled for one game. (Rules declared with statements, ``do:``, are
:mod:`palast.lang.blocks`; this module keeps the steps whose rules say *what* results
rather than what is done: ``round-end``, ``game-end``, ``winner``.)

Within a step the engine takes the first rule, in spec order, whose ``when`` holds; an
**exception** (``exception_of: RULE``) is tried before the rule it bends and wins when its
own ``when`` holds (Catala's default logic: "this, unless that"). ``let`` names values for
the rule's other expressions and for its exceptions. The **effect** keys say what happens
(``round_end``, ``scorers``, ``points``, ``end_game``, ``options``, ``winners``, ...).
``readings`` holds, for one variation point, the effect keys as each reading supplies
them: the ruleset's reading is looked up when the rule fires (so the engine knows which
readings it consulted), and an open point stops play with a gap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from palast.lang.compiler import Compiler, check
from palast.lang.kinds import infer
from palast.lang.syntax import ExpressionError, Node, at_text, parse

#: The word a ruleset uses for a variation point it leaves open (``palast.spec.load.OPEN``).
OPEN = "open"

#: Effect keys whose values are expressions, and the extra names each may use.
EXPRESSION_KEYS: Mapping[str, tuple[str, ...]] = {
    "next": (), "scorers": (), "options": (), "winners": (), "by": ("p",), "partners": (), "counts": ("partner",),
}
#: Keys of a ``decide`` effect that are expressions.
DECIDE_KEYS = ("by", "options")
#: Keys of a logic block that hold a readings block of their own (besides ``readings``).
READING_BLOCKS = ("readings", "tiebreak", "final_tie")
#: Keys of a logic block that are not effects.
FRAME_KEYS = ("step", "exception_of", "let", "when", *READING_BLOCKS)


@dataclass(frozen=True)
class Place:
    """Where a declaration is: the spec file name and the key path in it."""

    file: str
    path: tuple[str | int, ...]


@dataclass
class Declared:
    """One rule's logic block, parsed and checked (not yet compiled).

    :ivar rule: the rule id.
    :ivar raw: the block as written.
    :ivar place: where the block is.
    :ivar lets: the ``let`` names in order, with their parsed expressions.
    """

    rule: str
    raw: Mapping[str, Any]
    place: Place
    lets: tuple[tuple[str, Node], ...] = ()

    @property
    def step(self) -> str:
        """The step of play the rule belongs to."""
        return str(self.raw["step"])

    @property
    def exception_of(self) -> str | None:
        """The rule this one is an exception of, or ``None``."""
        value = self.raw.get("exception_of")
        return str(value) if value is not None else None


def declarations(spec: Any) -> list[Declared]:
    """Every rule's logic block declared with effect keys, in spec order (rules.yaml, then
    roles.yaml); blocks with statements (``do``, :mod:`palast.lang.blocks`) are not among them.

    :param spec: a :class:`palast.spec.load.Spec`.
    """
    from palast.lang.statements import is_do_block
    from palast.spec.modules import rule_entries

    out: list[Declared] = []
    for r, file, path, _ in rule_entries(spec.documents):
        if "logic" in r and not is_do_block(r["logic"]):
            out.append(Declared(r["id"], r["logic"], Place(file, (*path, "logic"))))
    return out


def reading_lets(raw: Mapping[str, Any]) -> tuple[str, ...]:
    """The names the branches of ``raw``'s ``readings`` block give values to (``let`` in a
    reading's effect), in the order of the first branch."""
    block = raw.get("readings") or {}
    for reading, eff in block.items():
        if reading != "point" and isinstance(eff, Mapping):
            return tuple(eff.get("let") or {})
    return ()


def expressions(decl: Declared) -> Iterator[tuple[tuple[str | int, ...], str, tuple[str, ...]]]:
    """Every expression of ``decl``: (key path inside the block, text, extra names)."""
    raw = decl.raw
    for name, text in (raw.get("let") or {}).items():
        yield ("let", name), text, ()
    for reading, eff in (raw.get("readings") or {}).items():
        if reading != "point" and isinstance(eff, Mapping):
            for name, text in (eff.get("let") or {}).items():
                yield ("readings", reading, "let", name), text, ()
    if "when" in raw:
        yield ("when",), raw["when"], ()
    blocks: list[tuple[tuple[str | int, ...], Mapping[str, Any]]] = [((), raw)]
    for key in READING_BLOCKS:
        for reading, eff in (raw.get(key) or {}).items():
            if reading != "point" and isinstance(eff, Mapping):
                blocks.append(((key, reading), eff))
    for prefix, eff in blocks:
        for key, extra in EXPRESSION_KEYS.items():
            if key in eff:
                yield (*prefix, key), eff[key], extra
        for key in DECIDE_KEYS:
            if isinstance(eff.get("decide"), Mapping) and key in eff["decide"]:
                yield (*prefix, "decide", key), eff["decide"][key], ()


def problems(spec: Any) -> list[tuple[Place, tuple[str | int, ...], str, int | None]]:
    """Check every logic block of ``spec``: each expression parses and uses only
    primitives, role ids and the names in scope; an exception names a rule of the same
    step; a readings block names a variation point and gives a reading the point has; the
    readings of a ``tiebreak`` block's point have ``words`` (the end of a game names the
    tie-break it used in them; the problem is placed at the reading, in
    ``variation_points.yaml``).

    :returns: (place of the block, key path inside it, message, column of the place in an
        expression's text or None) per problem.
    """
    out: list[tuple[Place, tuple[str | int, ...], str, int | None]] = []
    decls = declarations(spec)
    by_rule = {d.rule: d for d in decls}
    roles = set(spec.roles)
    kinds_of: dict[str, dict[str, str]] = {}
    for d in decls:  # the kinds of each rule's let names (and its readings' values), in order
        base = by_rule.get(d.exception_of) if d.exception_of else None
        kinds = dict(kinds_of.get(base.rule, {})) if base is not None else {}
        for name, text in (d.raw.get("let") or {}).items():
            kinds[name] = _kind_or_any(text, kinds, roles)
        for name in reading_lets(d.raw):
            branch = next(e for r, e in d.raw["readings"].items() if r != "point")
            kinds[name] = _kind_or_any(branch["let"][name], kinds, roles)
        kinds_of[d.rule] = kinds
    for d in decls:
        base = by_rule.get(d.exception_of) if d.exception_of else None
        if d.exception_of and (base is None or base.step != d.step):
            out.append((d.place, ("exception_of",), f"{d.exception_of!r} is no rule with logic of step {d.step}", None))
        scope = set(roles)
        if base is not None:
            scope |= set(base.raw.get("let") or {})
        lets = list(d.raw.get("let") or {}) + list(reading_lets(d.raw))
        for reading, eff in (d.raw.get("readings") or {}).items():
            if reading != "point" and isinstance(eff, Mapping) and tuple(eff.get("let") or {}) != reading_lets(d.raw):
                out.append((d.place, ("readings", reading, "let"),
                            f"every reading must name the same values ({', '.join(reading_lets(d.raw)) or 'none'})",
                            None))
        for path, text, extra in expressions(d):
            names = scope | set(extra)
            if path[0] == "let":
                names |= set(lets[:lets.index(str(path[1]))])
            elif (path[0] == "readings" and len(path) > 2 and path[2] == "let") or path == ("when",):
                names |= set(d.raw.get("let") or {})  # a reading's values come after the rule applies
            else:
                names |= set(lets)
            try:
                node = parse(text)
                check(node, names)
                env = {**kinds_of[d.rule], **{x: "seat" for x in extra}}
                got = infer(node, {k: v for k, v in env.items() if k in names}, roles)
                if "decide" in path:
                    want: str | None = DECIDE_EXPECTED[str(path[-1])]
                elif path[0] == "let" or path[-2:-1] == ("let",):
                    want = None
                else:
                    want = EXPECTED.get(str(path[-1]))
                if want is not None and got not in (want, "any"):
                    raise ExpressionError(f"{path[-1]} must be {want}, not {got}", 1)
            except ExpressionError as exc:
                out.append((d.place, path, f"{exc} ({at_text(text, exc.column)})", exc.column))
        for key in READING_BLOCKS:
            block = d.raw.get(key)
            if not block:
                continue
            vp = spec.variation_points.get(block.get("point"))
            if vp is None:
                out.append((d.place, (key, "point"), f"unknown variation point {block.get('point')!r}", None))
                continue
            known = {r.id for r in vp.readings}
            for reading in block:
                if reading != "point" and reading not in known:
                    out.append((d.place, (key, reading), f"{vp.id} has no reading {reading!r} "
                                                        f"(its readings: {', '.join(sorted(known))})", None))
            missing = sorted(known - set(block))
            if missing:
                out.append((d.place, (key,), f"gives no effect for reading(s) {', '.join(missing)} of {vp.id}: "
                                             "every reading of the point needs one", None))
            if vp.id not in spec.rules[d.rule].variation_points:
                out.append((d.place, (key, "point"), f"{vp.id} is not among the variation points the rule "
                                                    f"{d.rule} names (variation_points)", None))
            if key == "tiebreak":
                out.extend(_unworded(spec, vp, d.rule))
    return out


def _unworded(spec: Any, vp: Any, rule: str) -> list[tuple[Place, tuple[str | int, ...], str, int | None]]:
    """A problem for each reading of ``vp`` without ``words``, and for words another reading
    of ``vp`` has already, placed at the reading in ``variation_points.yaml``: ``rule``
    breaks ties by the point, and the end of a game names the tie-break it used to readers
    in its reading's words, which must tell the readings apart."""
    points = spec.documents["variation_points.yaml"].data["variation_points"]
    i = next(k for k, raw in enumerate(points) if raw["id"] == vp.id)
    out: list[tuple[Place, tuple[str | int, ...], str, int | None]] = []
    said: dict[str, str] = {}
    for j, r in enumerate(vp.readings):
        place = Place("variation_points.yaml", ("variation_points", i, "readings", j))
        if not r.words:
            out.append((place, ("id",), f"reading {r.id} of {vp.id} has no words: rule {rule} breaks ties by {vp.id}, "
                                        "and the end of a game names the tie-break used in its reading's words (give "
                                        "it words, e.g. 'most cards displayed')", None))
        elif r.words in {x.id for x in vp.readings} or "_" in r.words:
            out.append((place, ("words",), f"reading {r.id} of {vp.id} has the words '{r.words}', which read as an "
                                           "id, not as words for readers (e.g. 'most cards displayed')", None))
        elif r.words in said:
            out.append((place, ("words",), f"reading {r.id} of {vp.id} has the words of reading {said[r.words]} "
                                           f"('{r.words}'): a reader could not tell the two tie-breaks apart", None))
        else:
            said[r.words] = r.id
    return out


#: The kind of value each effect key (and ``when``) must have.
EXPECTED: Mapping[str, str] = {
    "when": "bool", "next": "seat", "scorers": "seats", "options": "cards", "winners": "seats", "by": "int",
    "partners": "seats", "counts": "ints",
}
#: The kind of value each key of a ``decide`` effect must have.
DECIDE_EXPECTED: Mapping[str, str] = {"by": "seat", "options": "seats"}


def _kind_or_any(text: str, kinds: Mapping[str, str], roles: set[str]) -> str:
    """The kind of a let expression, or ``any`` where it does not check (reported elsewhere)."""
    try:
        return infer(parse(text), kinds, roles)
    except (ExpressionError, KeyError, ValueError):
        return "any"


class Fired:
    """A rule of a step that applies to a position (made at every step of play, so a plain
    class with slots rather than a dataclass).

    :ivar rule: the rule id (events cite it).
    :ivar effect: the effect keys, compiled expressions for expression keys; the
        reading's keys merged in.
    :ivar values: the ``let`` values, in order.
    :ivar points: the variation points whose readings decided the effect.
    :ivar gap: the open variation point that stops play here, or ``""``.
    """

    __slots__ = ("effect", "gap", "points", "rule", "values")

    def __init__(self, rule: str, effect: Mapping[str, Any], values: tuple[Any, ...],
                 points: tuple[str, ...] = (), gap: str = "") -> None:
        self.rule = rule
        self.effect = effect
        self.values = values
        self.points = points
        self.gap = gap


@dataclass
class ReadingBlock:
    """A compiled readings block: the point, the engine parameter that holds the ruleset's
    reading, and each reading's effect."""

    point: str
    parameter: str
    effects: dict[str, dict[str, Any]]
    #: reading -> the rule's effect with the reading's merged in (filled when first used)
    merged: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def points(self) -> tuple[str, ...]:
        """The point, as the one-element tuple events and decisions carry."""
        return (self.point,)


@dataclass
class Compiled:
    """One rule's logic, compiled for a game."""

    rule: str
    step: str
    when: Callable[..., Any] | None
    lets: tuple[Callable[..., Any], ...]
    effect: dict[str, Any]
    blocks: dict[str, ReadingBlock]
    exceptions: list[Compiled] = field(default_factory=list)
    raw: Mapping[str, Any] = field(default_factory=dict)
    #: the rule's :class:`Fired` when it has no readings and no values (made once, reused)
    static: Fired | None = None


class GameLogic:
    """The logic blocks of a spec compiled for one game.

    :param spec: a :class:`palast.spec.load.Spec`.
    :param constants: the game's constants (see :mod:`palast.lang.primitives`).
    :param owner: the object whose ``params`` is the engine's parameter table
        (parameter -> setting); the table is looked up on it each time a readings block is
        evaluated (never while compiling), so a table replaced later, one that records its
        lookups, is the one read.
    :param parameter_of: variation point id -> the name of its entry in ``params``.
    """

    def __init__(self, spec: Any, constants: Mapping[str, Any], owner: Any,
                 parameter_of: Mapping[str, str]) -> None:
        self._owner = owner
        comp = Compiler(constants, {r: i for i, r in enumerate(spec.roles)})
        #: assignments to make once the expressions are compiled
        self._fixups: list[Callable[[], None]] = []
        by_rule: dict[str, Compiled] = {}
        lets_of: dict[str, tuple[str, ...]] = {}
        self.steps: dict[str, list[Compiled]] = {}
        for d in declarations(spec):
            base_lets = lets_of.get(d.exception_of or "", ())
            own = tuple(d.raw.get("let") or {})
            scope = base_lets + own
            lets_of[d.rule] = scope
            c = Compiled(d.rule, d.step, None, (), {}, {}, raw=d.raw)
            let_slots = [comp.add(parse(d.raw["let"][name]), base_lets + own[:k]) for k, name in enumerate(own)]
            when_slot = comp.add(parse(d.raw["when"]), scope) if "when" in d.raw else None
            self._fixups.append(self._set_frame(c, let_slots, when_slot))
            given = reading_lets(d.raw)
            c.effect = self._effect(comp, d.raw, scope + given)
            for key in READING_BLOCKS:
                block = d.raw.get(key)
                if block:
                    point = block["point"]
                    c.blocks[key] = ReadingBlock(point, parameter_of.get(point, point), {
                        r: self._effect(comp, eff, scope + given, branch=True)
                        for r, eff in block.items() if r != "point"})
            by_rule[d.rule] = c
            if d.exception_of:
                by_rule[d.exception_of].exceptions.append(c)
            else:
                self.steps.setdefault(d.step, []).append(c)
        self._select: dict[str, list[Callable[..., Any]]] = {
            step: self._step_function(comp, step, rules) for step, rules in self.steps.items()}
        comp.build()
        for fix in self._fixups:
            fix()
        self._fixups = []
        self.rules = by_rule

    @staticmethod
    def _step_function(comp: Compiler, step: str, rules: list[Compiled]) -> list[Callable[..., Any]]:
        """Generate one Python function for ``step`` that does what :meth:`fire` does up to
        the readings: it returns ``(rule, let values)`` of the rule (or exception) that
        applies, or ``None`` — the fast path of the same declarations."""
        refs: dict[str, Any] = {}
        name = "_step_" + step.replace("-", "_")
        lines = [f"def {name}(D):"]
        # a part that the conditions of the rules (those that name nothing first) compute
        # more than once is computed once, before them (a fast path)
        plain = [c for c in rules if "when" in c.raw and not c.raw.get("let")]
        shared, rewritten = comp.shared([parse(c.raw["when"]) for c in plain])
        for var, source in shared:
            lines.append(f"    {var} = {source}")
        when_of = {id(c): node for c, node in zip(plain, rewritten, strict=True)}
        given = {var: var for var, _ in shared}

        def frame(c: Compiled, before: tuple[str, ...], indent: str) -> tuple[str, str, tuple[str, ...], str]:
            raw = c.raw
            names = dict.fromkeys(before)
            for let, text in (raw.get("let") or {}).items():
                params = {n: f"v_{n}" for n in names}
                lines.append(f"{indent}v_{let} = {comp.expression(parse(text), params)}")
                names[let] = None
            params = {n: f"v_{n}" for n in names}
            if id(c) in when_of:
                cond = comp.expression(when_of[id(c)], {**params, **given})
            else:
                cond = comp.expression(parse(raw["when"]), params) if "when" in raw else "True"
            ref = f"R_{name}_{len(refs)}"
            refs[ref] = c
            return ref, cond, tuple(names), "(" + "".join(f"v_{n}, " for n in names) + ")"

        for c in rules:
            ref, cond, scope, values = frame(c, (), "    ")
            lines.append(f"    if {cond}:")
            for x in c.exceptions:
                xref, xcond, _, xvalues = frame(x, scope, "        ")
                lines.append(f"        if {xcond}:")
                lines.append(f"            return {xref}, {xvalues}")
            lines.append(f"        return {ref}, {values}")
        lines.append("    return None")
        return comp.add_function(name, "\n".join(lines) + "\n", refs)

    @staticmethod
    def _set_frame(c: Compiled, lets: list[list[Callable[..., Any]]],
                   when: list[Callable[..., Any]] | None) -> Callable[[], None]:
        def fix() -> None:
            c.lets = tuple(s[0] for s in lets)
            c.when = when[0] if when is not None else None
        return fix

    def _later(self, target: dict[str, Any], key: str, slot: list[Callable[..., Any]]) -> None:
        def fix() -> None:
            target[key] = slot[0]
        self._fixups.append(fix)

    def _effect(self, comp: Compiler, raw: Mapping[str, Any], scope: tuple[str, ...], *,
                branch: bool = False) -> dict[str, Any]:
        """The effect keys of ``raw`` (a rule's block, or with ``branch`` one reading's
        effect), expressions queued on ``comp`` (filled in after build)."""
        eff: dict[str, Any] = {}
        for key, value in raw.items():
            if key == "let" and branch:  # a reading's values: functions of the rule's own let values
                given: dict[str, Any] = {}
                base = tuple(n for n in scope if n not in value)  # the values before the reading's
                for i, (name, text) in enumerate(value.items()):
                    self._later(given, name, comp.add(parse(text), base + tuple(value)[:i]))
                eff[key] = given
            elif key in FRAME_KEYS:
                continue
            elif key in EXPRESSION_KEYS:
                self._later(eff, key, comp.add(parse(value), scope + EXPRESSION_KEYS[key]))
            elif key == "decide":
                dec = dict(value)
                for k in DECIDE_KEYS:
                    self._later(dec, k, comp.add(parse(value[k]), scope))
                eff[key] = dec
            else:
                eff[key] = value
        return eff

    def select(self, step: str) -> Callable[[Any], tuple[Compiled, tuple[Any, ...]] | None]:
        """The generated function of ``step``: position -> ``(rule, let values)`` of the rule
        that applies (an exception where one applies), or ``None``; the effect is then
        :meth:`resolve` of the rule (the fast path of :meth:`fire`)."""
        return self._select[step][0]

    def fire(self, step: str, d: Any) -> Fired | None:
        """The rule of ``step`` that applies to position ``d``, with its effect.

        :returns: ``None`` when no rule of the step applies.
        """
        got = self._select[step][0](d) if step in self._select else None
        if got is None:
            return None
        return self.resolve(got[0], d, got[1])

    def values(self, c: Compiled, d: Any) -> tuple[Any, ...]:
        """The ``let`` values of rule ``c`` (not an exception) on position ``d``."""
        return self._values(c, d, ())

    @staticmethod
    def _values(c: Compiled, d: Any, before: tuple[Any, ...]) -> tuple[Any, ...]:
        vals = list(before)
        for fn in c.lets:
            vals.append(fn(d, *vals))
        return tuple(vals)

    def reading(self, block: ReadingBlock) -> tuple[str, bool]:
        """The ruleset's reading for ``block``'s point and whether the point is open."""
        value: str = self._owner.params[block.parameter].value
        return value, value == OPEN

    def resolve(self, c: Compiled, d: Any, values: tuple[Any, ...] = ()) -> Fired:
        """The effect of rule ``c`` on position ``d`` with its ``let`` values, its readings
        block resolved (the reading's own values appended to ``values``)."""
        block = c.blocks.get("readings")
        if block is None:
            if not values:
                static = c.static
                if static is None:
                    static = c.static = Fired(c.rule, c.effect, ())
                return static
            return Fired(c.rule, c.effect, values)
        value = self._owner.params[block.parameter].value
        if value == OPEN:
            return Fired(c.rule, c.effect, values, (block.point,), block.point)
        merged = block.merged.get(value)
        if merged is None:
            merged = block.merged[value] = {**c.effect, **block.effects[value]}
        given = merged.get("let")
        if given:
            vals = list(values)
            for fn in given.values():
                vals.append(fn(d, *vals))
            values = tuple(vals)
        return Fired(c.rule, merged, values, block.points)


def declared_readings(spec: Any) -> dict[str, frozenset[str]]:
    """Variation point id -> the readings the logic blocks of ``spec`` (those with effect
    keys and those with statements) give effects or statements for."""
    from palast.lang.blocks import declared_readings as statement_readings

    out: dict[str, set[str]] = {}
    for d in declarations(spec):
        for key in READING_BLOCKS:
            block = d.raw.get(key)
            if block:
                out.setdefault(str(block["point"]), set()).update(r for r in block if r != "point")
    for point, readings in statement_readings(spec).items():
        out.setdefault(point, set()).update(readings)
    return {p: frozenset(r) for p, r in out.items()}


def parameter_table(spec: Any) -> dict[str, tuple[str, frozenset[str]]]:
    """Every parameter a game of ``spec`` reads its readings through: name -> (the
    variation point that sets it, the readings the rules' declarations implement for it).

    A point with a ``parameter:`` in ``spec/variation_points.yaml`` sets that parameter; a
    point without one that a logic block's ``readings`` names is a parameter of its own
    name. Either way its readings are those the declarations give (so a new reading needs
    no engine code, and a reading no declaration gives is reported by ``palast spec check``).
    """
    if _LAST_TABLE and _LAST_TABLE[0][0] is spec:  # every game of a spec builds the same table
        return dict(_LAST_TABLE[0][1])
    declared = declared_readings(spec)
    table: dict[str, tuple[str, frozenset[str]]] = {}
    for vp in spec.variation_points.values():
        if vp.parameter is not None:
            table[vp.parameter] = (vp.id, declared.get(vp.id, frozenset()))
        elif vp.id in declared:
            table[vp.id] = (vp.id, declared[vp.id])
    _LAST_TABLE[:] = [(spec, table)]
    return dict(table)


#: the spec whose parameter table was built last, with the table
_LAST_TABLE: list[tuple[Any, dict[str, tuple[str, frozenset[str]]]]] = []
