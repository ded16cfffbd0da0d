"""Statements of the rule language: what a rule *does* (its ``do:`` list and ``parts:``).

An expression (:mod:`palast.lang.syntax`) computes a value from a position; a statement
changes the position, records an event, or waits for a decision. A rule's ``do`` is a list
of statements carried out in order; each statement is a mapping whose first key says what
it is:

``emit: EVENT`` (fields ``player``, ``other``, ``card``, ``role``, ``count``, ``cards``, ``seats``: expressions)
    record an event; it cites the rule whose declaration holds the statement.
``move: CARDS``, ``from: PLACE``, ``to: PLACE``
    move a card (or cards) between places; a place is ``hand(P)``, ``display(P)``,
    ``discard_pile``, ``under_draw_deck``, ``in_force`` or ``spent_kings``; without
    ``from``, a card just drawn (in no place yet).
``draw: DECK``, ``to: PLACE``, ``as: NAME``, ``decision: D``, ``by: P``
    take the top card of ``draw_deck`` or ``king_deck`` (a chance decision ``D`` where its
    order is unknown), name it, and put it in the place (without ``to``: in no place yet).
``shuffle: [PLACE, ...]``, ``into: king_deck``
    gather the cards of the places face down into a deck of unknown order.
``deal: N``, ``decision: D``
    a new round: every card of the game is gathered and shuffled, each player is dealt
    ``N`` (the chance decision ``D``), the rest is the draw deck.
``choose: D``, ``by: P``, ``options: EXPR`` (or ``each`` and ``where``), ``as: NAME``
    wait for the decision ``D`` of player ``P``, one of the options (``each: [{NAME:
    EXPR}, ...]`` builds options from parts, each part ranging over a collection that may
    use the parts before it, ``where`` says which are options); ``keep`` gives the
    decision's fields (``partner``, ``count``, ``given``, ``forced``, ``options``) and ``refuse`` says
    why an action outside the options is refused.
``if: COND``, ``then: [...]``, ``else: [...]``
    the statements of ``then`` where the condition holds, else those of ``else``.
``readings: POINT`` with one list per reading id
    the statements of the reading the ruleset takes (an open point stops play: a gap).
``set: {TARGET: EXPR}``
    give a counter a value: ``card`` (the card played this turn), ``played(P)``, ``marks``
    (every player's mark, in seat order).
``step: STEP``, ``every: STEP``
    apply the first rule of a step whose condition holds (``every``: each such rule, in
    order), with its exceptions.
``part: NAME``
    the statements of the rule's part ``NAME`` (an exception may give other ones).
``end_round: RULE`` (``forced: true`` for a whisper forced by banned Jesters)
    the round ends as the round-end rule ``RULE`` says (its kind, scorers, points).
``goto: JUNCTION``
    ``turn-over`` (the next player) or ``round-over``: nothing after it is carried out.
``turn: P``
    player ``P`` takes the next turn: nothing after it is carried out.

This module parses and checks statements; the engine (:mod:`palast.engine.blocks`) runs
them on a position, the proofs compile them to Z3, the book writes them in words.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from palast.lang.syntax import ExpressionError, Node, each_node, parse

#: Event fields a statement may give, and the kind each must have.
EMIT_FIELDS: Mapping[str, str] = {"player": "seat", "other": "seat", "card": "card", "role": "role",
                                  "count": "int", "cards": "cards", "seats": "seats"}
#: Places a card may be moved to or from: name -> whether it takes a player.
PLACES: Mapping[str, bool] = {"hand": True, "display": True, "discard_pile": False, "under_draw_deck": False,
                              "in_force": False, "spent_kings": False, "king_deck": False, "draw_deck": False}
#: Decks a card is drawn from: deck -> the kind of what is drawn.
DECKS: Mapping[str, str] = {"draw_deck": "card", "king_deck": "role"}
#: Fields of a decision a ``choose`` may keep, and their kinds.
KEEP: Mapping[str, str] = {"partner": "seat", "count": "int", "given": "cards", "forced": "bool", "options": "seats"}
#: Counters ``set`` may change: name -> whether it takes a player, its kind.
TARGETS: Mapping[str, tuple[bool, str]] = {"card": (False, "card"), "played": (True, "int"),
                                          "marks": (False, "colours")}
#: The field of the position each counter of :data:`TARGETS` is kept in.
TARGET_FIELDS: Mapping[str, str] = {"card": "last_card", "played": "played", "marks": "marks"}
#: The junctions ``goto`` may name.
JUNCTIONS = ("turn-over", "round-over")
#: Keys of each statement, by its first key (the head).
KEYS: Mapping[str, frozenset[str]] = {
    "emit": frozenset(EMIT_FIELDS),
    "move": frozenset({"from", "to"}),
    "draw": frozenset({"to", "as", "decision", "by"}),
    "shuffle": frozenset({"into"}),
    "deal": frozenset({"decision", "cards_of"}),
    "choose": frozenset({"by", "options", "each", "where", "as", "keep", "refuse"}),
    "if": frozenset({"then", "else"}),
    "readings": frozenset(),  # plus the point's reading ids
    "set": frozenset(),
    "step": frozenset(),
    "every": frozenset(),
    "part": frozenset(),
    "end_round": frozenset({"forced"}),
    "goto": frozenset(),
    "turn": frozenset(),
}
#: Statements after which nothing in the same list is carried out.
FINAL = frozenset({"goto", "turn"})
#: Statements that change the position.
CHANGES = frozenset({"move", "draw", "shuffle", "deal", "set", "end_round"})
#: Statements that wait for a decision they name in their key ``decision`` (a ``choose``
#: names it as its head's value): see :func:`waits_for`.
WAITING_HEADS = frozenset({"draw", "deal"})


#: The steps whose rules are declared with statements, and whether a rule of one may wait
#: for a decision (the others run to their end at once).
DO_STEPS: Mapping[str, bool] = {"turn": True, "action": True, "role-action": True, "reveal-king": True,
                                "next-player": True, "deal": True, "turn-end": True, "setup": False,
                                "round-start": False, "starter": False}


def is_do_block(raw: Mapping[str, Any]) -> bool:
    """Whether a logic block is declared with statements (its step is one of :data:`DO_STEPS`)."""
    return str(raw.get("step")) in DO_STEPS


class StatementError(ExpressionError):
    """A statement that is not well formed: the message, the key path inside the ``do``
    list (or part) where it is, and the column in an expression (1 otherwise)."""

    def __init__(self, message: str, path: tuple[str | int, ...], column: int = 1) -> None:
        super().__init__(message, column)
        self.path = path


@dataclass(frozen=True)
class Zone:
    """A place for cards: ``zone`` (a key of :data:`PLACES`) and, for a hand or display,
    the expression naming the player."""

    zone: str
    seat: Node | None = None


class SetTarget(NamedTuple):
    """One counter a ``set`` statement gives a value: the counter's name, the player's
    expression for a counter per player (else ``None``), the value's expression, and the
    key as the file writes it (where a problem with it is reported)."""

    name: str
    seat: Node | None
    value: Node
    written: str


@dataclass(frozen=True)
class Stmt:
    """One statement: ``head`` (its first key), ``arg`` (the head's value, parsed: a
    :class:`Node`, a name, a list of places, ...), the other keys parsed (``keys``),
    nested statement lists (``blocks``: ``then``/``else`` of an if, one per reading) and
    ``path``, its key path inside the block it belongs to."""

    head: str
    arg: Any
    keys: Mapping[str, Any]
    blocks: Mapping[str, tuple[Stmt, ...]]
    path: tuple[str | int, ...]

    def node(self, key: str) -> Node | None:
        """The expression of ``key``, or ``None``."""
        value = self.keys.get(key)
        return value if isinstance(value, Node) else None


def _expr(text: Any, path: tuple[str | int, ...]) -> Node:
    if isinstance(text, bool):
        text = "true" if text else "false"
    if isinstance(text, int):
        text = str(text)
    try:
        return parse(text)
    except ExpressionError as exc:
        raise StatementError(str(exc), path, exc.column) from None


def _place(text: Any, path: tuple[str | int, ...]) -> Zone:
    node = _expr(text, path)
    if node.op == "name" and str(node.value) in PLACES and not PLACES[str(node.value)]:
        return Zone(str(node.value))
    if node.op == "call" and str(node.value) in PLACES and PLACES[str(node.value)] and len(node.args) == 1:
        return Zone(str(node.value), node.args[0])
    raise StatementError(f"{text!r} is not a place; places: hand(P), display(P), "
                         + ", ".join(z for z, s in PLACES.items() if not s), path)


def _name(value: Any, path: tuple[str | int, ...]) -> str:
    if not isinstance(value, str) or not value.isidentifier() or not value.islower():
        raise StatementError(f"{value!r} is not a name (lower case letters, digits and _)", path)
    return value


def parse_block(raw: Any, path: tuple[str | int, ...] = ()) -> tuple[Stmt, ...]:
    """Parse a list of statements.

    :param raw: the YAML list.
    :param path: its key path (for messages).
    :returns: the statements, in order.
    :raises StatementError: for the first statement that is not well formed.
    """
    if not isinstance(raw, list):
        raise StatementError("a do list must be a list of statements", path)
    return tuple(parse_statement(s, (*path, i)) for i, s in enumerate(raw))


def parse_statement(raw: Any, path: tuple[str | int, ...]) -> Stmt:
    """Parse one statement (see the module description).

    :raises StatementError: when it is not well formed.
    """
    if not isinstance(raw, Mapping) or not raw:
        raise StatementError("a statement is a mapping whose first key says what it does", path)
    head = next(iter(raw))
    if head not in KEYS:
        raise StatementError(f"unknown statement {head!r} (statements: {', '.join(KEYS)})", (*path, head))
    arg = raw[head]
    at = (*path, head)
    keys: dict[str, Any] = {}
    blocks: dict[str, tuple[Stmt, ...]] = {}
    extra = [k for k in raw if k != head and k not in KEYS[head]]
    if head == "readings":
        point = _name(str(arg).replace("-", "_"), at) and str(arg)
        for reading, body in raw.items():
            if reading != head:
                blocks[str(reading)] = parse_block(body, (*path, reading))
        return Stmt(head, point, {}, blocks, path)
    if head == "set":
        if not isinstance(arg, Mapping) or not arg:
            raise StatementError("set gives counters their values: {played(actor): played(actor) + 1}", at)
        targets = []
        for target, value in arg.items():
            try:
                tnode = _expr(target, (*at, target))
            except ExpressionError as exc:  # the column is the key's, not the value's: left out
                raise StatementError(f"{exc} (column {exc.column} of the key {target!r})", (*at, target)) from None
            tname = str(tnode.value)
            if tname not in TARGETS or (tnode.op == "call") != TARGETS[tname][0]:
                known = ", ".join(f"{name}(P)" if per_player else name for name, (per_player, _) in TARGETS.items())
                raise StatementError(f"set cannot change {target!r} (it changes: {known})", (*at, target))
            targets.append(SetTarget(tname, tnode.args[0] if tnode.args else None, _expr(value, (*at, target)),
                                     str(target)))
        return Stmt(head, tuple(targets), {}, {}, path)
    if extra:
        raise StatementError(f"{head} takes no key {extra[0]!r} (its keys: {', '.join(sorted(KEYS[head])) or 'none'})",
                             (*path, extra[0]))
    if head == "emit":
        keys = {k: _expr(v, (*path, k)) for k, v in raw.items() if k != head}
        return Stmt(head, _name(str(arg), at), keys, {}, path)
    if head == "move":
        if "to" not in raw:
            raise StatementError("move needs to: a place", path)
        keys = {"to": _place(raw["to"], (*path, "to"))}
        if "from" in raw:  # without: a card just drawn, in no place yet
            keys["from"] = _place(raw["from"], (*path, "from"))
        return Stmt(head, _expr(arg, at), keys, {}, path)
    if head == "draw":
        if arg not in DECKS:
            raise StatementError(f"draw takes the top card of a deck: {', '.join(DECKS)}", at)
        for k in ("decision", "by"):
            if k not in raw:
                raise StatementError(f"draw needs {k}", path)
        keys = {"decision": str(raw["decision"]), "by": _expr(raw["by"], (*path, "by"))}
        if "to" in raw:
            keys["to"] = _place(raw["to"], (*path, "to"))
        elif "as" not in raw:
            raise StatementError("a draw without to (a place) must name the card (as)", path)
        if "as" in raw:
            keys["as"] = _name(raw["as"], (*path, "as"))
        return Stmt(head, str(arg), keys, {}, path)
    if head == "shuffle":
        if not isinstance(arg, list) or not arg:
            raise StatementError("shuffle takes a list of places", at)
        if raw.get("into") not in DECKS:
            raise StatementError(f"shuffle needs into: a deck ({', '.join(DECKS)})", (*path, "into"))
        return Stmt(head, tuple(_place(p, (*at, i)) for i, p in enumerate(arg)), {"into": str(raw["into"])}, {}, path)
    if head == "deal":
        if "decision" not in raw:
            raise StatementError("deal needs decision: the chance decision of the deal", path)
        keys = {"decision": str(raw["decision"])}
        if "cards_of" in raw:  # the rule that says which cards the game has (a deal of others is refused citing it)
            keys["cards_of"] = str(raw["cards_of"])
        return Stmt(head, _expr(arg, at), keys, {}, path)
    if head == "choose":
        if "by" not in raw or "as" not in raw:
            raise StatementError("choose needs by (who decides) and as (the name of what is chosen)", path)
        if ("options" in raw) == ("each" in raw):
            raise StatementError("choose needs options: EXPR or each: [{NAME: EXPR}, ...], not both", path)
        keys = {"by": _expr(raw["by"], (*path, "by")), "as": _name(raw["as"], (*path, "as"))}
        if "options" in raw:
            keys["options"] = _expr(raw["options"], (*path, "options"))
            if "where" in raw:
                raise StatementError("where goes with each (write the condition into the options)", (*path, "where"))
        else:
            keys["options"] = parse_each(raw, path)
        keep = raw.get("keep") or {}
        for slot in keep:
            if slot not in KEEP:
                raise StatementError(f"a decision keeps only {', '.join(KEEP)}", (*path, "keep", slot))
        keys["keep"] = {slot: _expr(text, (*path, "keep", slot)) for slot, text in keep.items()}
        if "refuse" in raw:
            keys["refuse"] = str(raw["refuse"])
        return Stmt(head, str(arg), keys, {}, path)
    if head == "if":
        blocks = {"then": parse_block(raw.get("then", []), (*path, "then")),
                  "else": parse_block(raw.get("else", []), (*path, "else"))}
        return Stmt(head, _expr(arg, at), {}, blocks, path)
    if head in ("step", "every", "part", "goto", "end_round"):
        name = str(arg)
        if head == "goto" and name not in JUNCTIONS:
            raise StatementError(f"goto names a junction: {', '.join(JUNCTIONS)}", at)
        if head == "end_round":
            keys = {"forced": bool(raw.get("forced", False))}
        return Stmt(head, name, keys, {}, path)
    if head == "turn":
        return Stmt(head, _expr(arg, at), {}, {}, path)
    raise StatementError(f"unknown statement {head!r}", at)  # pragma: no cover - KEYS lists every head


def parse_each(raw: Mapping[str, Any], path: tuple[str | int, ...]) -> Node:
    """The options ``{each: [{NAME: COLLECTION, else: TEXT}, ...], where: CONDITIONS}`` as
    one expression (:func:`palast.lang.syntax.each_node`). ``where`` is a condition or a
    list of ``{holds: CONDITION, else: TEXT}``; ``else`` says why an option is refused when
    the part is not in its collection or the condition does not hold, with ``{EXPR}``
    standing for a value (a player, a card, a role, ...).

    :raises StatementError: when ``each`` or ``where`` is not so written.
    """
    each = raw.get("each")
    if not isinstance(each, list) or not each:
        raise StatementError("each is a list of {NAME: collection}", (*path, "each"))
    parts = []
    part_else: list[str | None] = []
    for i, part in enumerate(each):
        names = [k for k in part if k != "else"] if isinstance(part, Mapping) else []
        if len(names) != 1:
            raise StatementError("each part is one {NAME: collection}, and may say else: TEXT", (*path, "each", i))
        pname = names[0]
        parts.append((_name(pname, (*path, "each", i)), _expr(part[pname], (*path, "each", i, pname))))
        part_else.append(_text(part.get("else"), (*path, "each", i, "else")))
    extra = [k for k in raw if k not in ("each", "where")]
    if extra:
        raise StatementError(f"options built with each take only each and where, not {extra[0]!r}", (*path, extra[0]))
    where = raw.get("where")
    conds: list[tuple[Node, str | None]] = []
    if isinstance(where, list):
        for i, c in enumerate(where):
            if not isinstance(c, Mapping) or "holds" not in c or set(c) - {"holds", "else"}:
                raise StatementError("a condition of where is {holds: CONDITION, else: TEXT}", (*path, "where", i))
            conds.append((_expr(c["holds"], (*path, "where", i, "holds")), _text(c.get("else"),
                                                                               (*path, "where", i, "else"))))
    elif where is not None:
        conds.append((_expr(where, (*path, "where")), None))
    return each_node(parts, conds or None, part_else)


def _text(raw: Any, path: tuple[str | int, ...]) -> str | None:
    """A refusal's text, its ``{EXPR}`` placeholders checked to parse."""
    if raw is None:
        return None
    text = str(raw)
    for expr in placeholders(text):
        _expr(expr, path)
    return text


def placeholders(text: str) -> list[str]:
    """The expressions written ``{EXPR}`` in ``text``, in order."""
    out: list[str] = []
    i = 0
    while True:
        a = text.find("{", i)
        if a < 0:
            return out
        b = text.find("}", a)
        if b < 0:
            return out
        out.append(text[a + 1:b])
        i = b + 1


def waits_for(s: Stmt) -> str | None:
    """The decision statement ``s`` waits for (a ``choose``, a ``draw`` or a ``deal``), or
    ``None`` for a statement that waits for none."""
    if s.head == "choose":
        return str(s.arg)
    if s.head in WAITING_HEADS:
        return str(s.keys["decision"])
    return None


def walk(block: Sequence[Stmt]) -> Iterator[Stmt]:
    """Every statement of ``block``, nested ones included, in order."""
    for s in block:
        yield s
        for inner in s.blocks.values():
            yield from walk(inner)


def expressions(s: Stmt) -> Iterator[tuple[tuple[str | int, ...], Node]]:
    """Every expression of statement ``s`` itself (not of nested statements), with its
    key path."""
    if isinstance(s.arg, Node):
        yield (*s.path, s.head), s.arg
    if s.head == "set":
        for target in s.arg:
            if target.seat is not None:
                yield (*s.path, s.head, target.written), target.seat
            yield (*s.path, s.head, target.written), target.value
    if s.head == "shuffle":
        for i, p in enumerate(s.arg):
            if p.seat is not None:
                yield (*s.path, s.head, i), p.seat
    for key, value in s.keys.items():
        if isinstance(value, Node):
            yield (*s.path, key), value
        elif isinstance(value, Zone) and value.seat is not None:
            yield (*s.path, key), value.seat
        elif key == "keep":
            for slot, node in value.items():
                yield (*s.path, key, slot), node


def heads(block: Iterable[Stmt]) -> set[str]:
    """The heads of every statement of ``block``, nested ones included."""
    return {s.head for s in walk(list(block))}
