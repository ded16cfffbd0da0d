"""Rules that *do* something: logic blocks with a ``do:`` list of statements
(:mod:`palast.lang.statements`), their exceptions, parts and readings, parsed and checked.

A rule of a **do-step** (``turn``, ``action``, ``role-action``, ``reveal-king``, ``deal``,
``setup``, ``round-start``) declares:

- ``when``: the condition under which it applies (a rule of step ``role-action`` declared
  under a role in ``spec/roles.yaml`` applies, besides, only when the card played this turn
  shows that role);
- ``let``: named values for its statements and its exceptions;
- ``readings``: per variation point (one block, or a list of blocks), what each reading
  gives: ``let`` values, ``parts``, a ``do`` of its own, or ``applies: false`` (under that
  reading the rule, or the exception, does not apply); an open point stops play (a gap);
- ``do``: its statements; ``parts``: named statement lists that ``part: NAME`` runs.

An **exception** (``exception_of: RULE``) bends the rule it names: when its ``when`` holds
it may give other values to the rule's names (``let``), other parts, or a ``do`` of its
own. Every exception whose condition holds applies, in the order declared, a later one
seeing the values an earlier one gave (``after: [RULE, ...]`` puts an exception after
others of the same rule); an exception's own exceptions are tried when it applies. The
statements carried out are the last ``do`` given, with the last parts given.

Checked here: statements are well formed, every name is in scope and of the kind its place
needs, decisions, events, steps, parts and rules named exist, every reading of a point has
its branch, and a name read after a decision can be restored when play resumes there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from palast.lang.kinds import infer
from palast.lang.primitives import COLLECTION
from palast.lang.statements import (
    DO_STEPS,
    StatementError,
    Stmt,
    is_do_block,
    parse_block,
    parse_each,
    walk,
)
from palast.lang.syntax import ExpressionError, Node, parse

#: The step whose rules, declared under a role, apply only to a card of that role.
ROLE_STEP = "role-action"
#: Steps declared with effect keys (palast.lang.logic) that statements may apply.
EFFECT_STEPS = ("round-end",)


@dataclass(frozen=True)
class Branch:
    """What one reading of a readings block gives."""

    lets: tuple[tuple[str, Node], ...] = ()
    parts: Mapping[str, tuple[Stmt, ...]] = field(default_factory=dict)
    do: tuple[Stmt, ...] | None = None
    applies: bool = True
    #: where the rule applies under this reading, after its values are computed (``None``:
    #: wherever its own condition holds)
    when: Node | None = None


@dataclass(frozen=True)
class Readings:
    """A readings block: the variation point and each reading's :class:`Branch`."""

    point: str
    branches: Mapping[str, Branch]
    path: tuple[str | int, ...]


@dataclass
class DoRule:
    """One rule's do-style logic block, parsed.

    :ivar rule: the rule id.
    :ivar step: the step it belongs to.
    :ivar role: for a rule of the role-action step: the role it is declared under.
    :ivar when: its condition (``None``: always).
    :ivar lets: its named values, in order.
    :ivar readings: its readings blocks, in order.
    :ivar do: its statements (``None``: those of the rule it bends).
    :ivar parts: its parts.
    :ivar exception_of: the rule it bends, or ``None``.
    :ivar after: the exceptions of the same rule it comes after.
    :ivar before: the exceptions of the same rule it comes before (a rule module's exception
        says so itself, so that the base rule it precedes need not name it).
    :ivar file: the spec file; :ivar path: the key path of the block in it.
    :ivar exceptions: its exceptions, in the order they apply.
    :ivar refuse: why a value it leaves out of a choice is refused.
    """

    rule: str
    step: str
    role: str | None
    when: Node | None
    lets: tuple[tuple[str, Node], ...]
    readings: tuple[Readings, ...]
    do: tuple[Stmt, ...] | None
    parts: Mapping[str, tuple[Stmt, ...]]
    exception_of: str | None
    after: tuple[str, ...]
    file: str
    path: tuple[str | int, ...]
    exceptions: list[DoRule] = field(default_factory=list)
    #: why a value this rule leaves out of a choice (by changing the value of its options) is refused
    refuse: str = ""
    before: tuple[str, ...] = ()

    def all_blocks(self) -> list[tuple[Stmt, ...]]:
        """Every statement list the rule declares: its ``do`` (empty if it has none), its
        parts, then each reading's ``do`` and parts, under every reading."""
        out: list[tuple[Stmt, ...]] = [self.do or (), *self.parts.values()]
        for rb in self.readings:
            for br in rb.branches.values():
                out.extend([br.do or (), *br.parts.values()])
        return out

    def chain_names(self) -> tuple[str, ...]:
        """The names this rule gives (its readings' lets, then its lets), in order."""
        out: list[str] = []
        for rb in self.readings:
            for br in rb.branches.values():
                for name, _ in br.lets:
                    if name not in out:
                        out.append(name)
        for name, _ in self.lets:
            if name not in out:
                out.append(name)
        return tuple(out)


def _parse_lets(raw: Any, path: tuple[str | int, ...]) -> tuple[tuple[str, Node], ...]:
    out = []
    for name, text in (raw or {}).items():
        if isinstance(text, Mapping):
            out.append((str(name), parse_each(text, (*path, name))))
            continue
        try:
            out.append((str(name), parse(text)))
        except ExpressionError as exc:
            raise StatementError(str(exc), (*path, name), exc.column) from None
    return tuple(out)


def _parse_parts(raw: Any, path: tuple[str | int, ...]) -> dict[str, tuple[Stmt, ...]]:
    return {str(name): parse_block(body, (*path, name)) for name, body in (raw or {}).items()}


def _parse_readings(raw: Any, path: tuple[str | int, ...]) -> tuple[Readings, ...]:
    if raw is None:
        return ()
    blocks = raw if isinstance(raw, list) else [raw]
    out = []
    for i, block in enumerate(blocks):
        at = (*path, i) if isinstance(raw, list) else path
        branches = {}
        for reading, eff in block.items():
            if reading == "point":
                continue
            eff = eff or {}
            for key in eff:
                if key not in BRANCH_KEYS:
                    keys = ", ".join(sorted(BRANCH_KEYS))
                    raise StatementError(f"{key!r} is no key of a reading (its keys: {keys})", (*at, reading, str(key)))
            do = eff.get("do")
            when = None
            if "when" in eff:
                try:
                    when = parse(eff["when"])
                except ExpressionError as exc:
                    raise StatementError(str(exc), (*at, reading, "when"), exc.column) from None
            branches[str(reading)] = Branch(
                _parse_lets(eff.get("let"), (*at, reading, "let")),
                _parse_parts(eff.get("parts"), (*at, reading, "parts")),
                parse_block(do, (*at, reading, "do")) if do is not None else None, bool(eff.get("applies", True)),
                when)
        out.append(Readings(str(block.get("point")), branches, at))
    return tuple(out)


#: the keys of a reading's branch in a rule declared with statements
BRANCH_KEYS = frozenset({"let", "parts", "do", "applies", "when"})
#: the keys of a logic block declared with statements
DO_KEYS = frozenset({"step", "when", "let", "readings", "do", "parts", "exception_of", "after", "before",
                     "refuse"})


def parse_rule(rule: str, raw: Mapping[str, Any], file: str, path: tuple[str | int, ...], role: str | None) -> DoRule:
    """Parse one do-style logic block.

    :raises StatementError: at the first part that is not well formed (key path inside
        the block).
    """
    for key in raw:
        if key not in DO_KEYS:
            keys = ", ".join(sorted(DO_KEYS))
            raise StatementError(f"{key!r} is no key of a rule with statements (its keys: {keys})", (str(key),))
    when = None
    if "when" in raw:
        try:
            when = parse(raw["when"])
        except ExpressionError as exc:
            raise StatementError(str(exc), ("when",), exc.column) from None
    do = raw.get("do")
    step = str(raw["step"])
    return DoRule(rule, step, role if step == ROLE_STEP else None, when, _parse_lets(raw.get("let"), ("let",)),
                  _parse_readings(raw.get("readings"), ("readings",)),
                  parse_block(do, ("do",)) if do is not None else None, _parse_parts(raw.get("parts"), ("parts",)),
                  raw.get("exception_of"), tuple(raw.get("after") or ()), file, path,
                  refuse=str(raw.get("refuse", "")).strip(), before=tuple(raw.get("before") or ()))


def _declared(spec: Any) -> Iterator[tuple[str, Mapping[str, Any], str, tuple[str | int, ...], str | None]]:
    from palast.spec.modules import rule_entries

    for r, file, path, role in rule_entries(spec.documents):
        if "logic" in r and is_do_block(r["logic"]):
            yield r["id"], r["logic"], file, (*path, "logic"), role


@dataclass
class Program:
    """Every do-style rule of a spec: ``rules`` by id, ``steps``: step -> its rules that
    bend no other (in spec order), each with its exceptions ordered."""

    rules: dict[str, DoRule]
    steps: dict[str, list[DoRule]]


def program(spec: Any) -> Program:
    """Parse every do-style logic block of ``spec`` and link exceptions to their rules
    (once per spec: the last few programs are kept).

    :raises StatementError: for a block that is not well formed (use
        :func:`palast.lang.block_checks.problems` to get every problem with its place instead).
    """
    for held, prog in _PROGRAMS:
        if held is spec:
            return prog
    prog = _program(spec)
    _PROGRAMS.insert(0, (spec, prog))
    del _PROGRAMS[KEEP_PROGRAMS:]
    return prog


#: the programs parsed last, with their specs (a spec is immutable; games of one spec share
#: its program, and so the expressions' trees, which the engine compiles once per text)
_PROGRAMS: list[tuple[Any, Program]] = []
KEEP_PROGRAMS = 8


def _program(spec: Any) -> Program:
    rules: dict[str, DoRule] = {}
    for rid, raw, file, path, role in _declared(spec):
        try:
            rules[rid] = parse_rule(rid, raw, file, path, role)
        except StatementError as exc:
            raise StatementError(str(exc), (*path, *exc.path), exc.column) from None
    steps: dict[str, list[DoRule]] = {}
    for r in rules.values():
        if r.exception_of is None:
            steps.setdefault(r.step, []).append(r)
        elif r.exception_of in rules:
            rules[r.exception_of].exceptions.append(r)
    for r in rules.values():
        r.exceptions = _ordered(r.exceptions)
    return Program(rules, steps)


def _ordered(exceptions: list[DoRule]) -> list[DoRule]:
    """``exceptions`` in declaration order, each moved after those its ``after`` names and
    those that name it in their ``before``; those caught in a cycle of such names stay in
    declaration order, at the end (:func:`palast.lang.block_checks.problems` reports them)."""
    done, stuck = _order(exceptions)
    return [*done, *stuck]


def _order(exceptions: list[DoRule]) -> tuple[list[DoRule], list[DoRule]]:
    """:func:`_ordered`'s order of the exceptions it can place, and those it cannot."""
    out: list[DoRule] = []
    pending = list(exceptions)
    first = {x.rule: [*x.after, *(o.rule for o in exceptions if x.rule in o.before)] for x in exceptions}
    while pending:
        for x in pending:
            if all(a in {o.rule for o in out} or a not in {p.rule for p in pending} for a in first[x.rule]):
                out.append(x)
                pending.remove(x)
                break
        else:
            break
    return out, pending


def each_of(node: Node, lets: Mapping[str, Node]) -> Node | None:
    """The ``each`` options ``node`` is (itself, or the let value it names), or ``None``."""
    if node.op == "name" and str(node.value) in lets:
        node = lets[str(node.value)]
    return node if node.op == "each" else None


def declared_readings(spec: Any) -> dict[str, set[str]]:
    """Variation point id -> the readings the do-style rules of ``spec`` give a branch
    (readings blocks and ``readings`` statements alike)."""
    out: dict[str, set[str]] = {}
    for rid, raw, file, path, role in _declared(spec):
        try:
            r = parse_rule(rid, raw, file, path, role)
        except StatementError:
            continue  # reported by problems
        for rb in r.readings:
            out.setdefault(rb.point, set()).update(rb.branches)
        for block in r.all_blocks():
            for s in walk(list(block)):
                if s.head == "readings":
                    out.setdefault(str(s.arg), set()).update(s.blocks)
    return out


def withdrawn(spec: Any, ruleset: str, reading_of: Callable[[str], str] | None = None) -> dict[str, str]:
    """The rules declared with statements that never apply under ``ruleset``: a readings
    block of theirs says, for the reading the ruleset takes, that the rule does not apply.

    :param reading_of: how each variation point (by id) is read, where not as ``ruleset``
        reads it (a proof layout's own table of readings).
    :returns: rule id -> ``"POINT: READING"``.
    """
    out: dict[str, str] = {}
    for rid, raw, file, path, role in _declared(spec):
        try:
            r = parse_rule(rid, raw, file, path, role)
        except StatementError:
            continue
        for rb in r.readings:
            vp = spec.variation_points.get(rb.point)
            if vp is None:
                reading = None
            else:
                reading = reading_of(rb.point) if reading_of is not None else vp.choices.get(ruleset)
            br = rb.branches.get(str(reading))
            if br is not None and not br.applies:
                out[rid] = f"{rb.point}: {reading}"
    return out


def infer_or_any(node: Node, env: Mapping[str, str], roles: Mapping[str, str]) -> str:
    """The kind of ``node``, or ``any`` where it does not check (reported at its own rule)."""
    try:
        return infer(node, env, roles)
    except (ExpressionError, KeyError, ValueError):
        return "any"


__all__ = ["COLLECTION", "DO_STEPS", "Branch", "DoRule", "Program", "Readings", "is_do_block", "program"]
