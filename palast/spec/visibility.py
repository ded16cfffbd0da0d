"""Who sees what: the data of ``spec/visibility.yaml`` as values, and its cross-checks.

The file declares, for every zone (hand, display, draw deck, discard pile, King deck, King
card in force, spent King cards), who sees its cards and who may count them; for every event
kind the engine emits, which of the event's fields are hidden and from whom (with the
variation point whose readings widen that audience); and for a pending decision, the fields
hidden from some players (the Wizard's picks while the partner chooses). The players' views
(:mod:`palast.engine.views`) evaluate these declarations; no role is named in code.

An **audience** is a rule-language condition (:mod:`palast.lang`) on ``viewer``, the player
whose view is asked for, and the seats the place names (:data:`SEATS`): ``viewer ==
holder`` (a hand: its holder), ``true`` (everyone), ``false`` (nobody), ``viewer == player
or viewer == other`` (the two players of an exchange). It is true for the players who see.
An audience is decided by the seats alone: a primitive that reads the position or the game
(``hand(p)``, ``players``) is refused, so the same audience holds for an event whenever it
happened.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from palast.lang.compiler import Compiler, check
from palast.lang.kinds import infer
from palast.lang.primitives import PRIMITIVES
from palast.lang.syntax import ExpressionError, Node, parse

if TYPE_CHECKING:
    from palast.spec.load import Spec

#: An audience as declared: a rule-language condition (text), or ``true``/``false``.
Audience = str | bool
#: The name of the player whose view an audience decides.
VIEWER = "viewer"
#: The seats an audience may name besides :data:`VIEWER`, per kind of place: a zone one
#: seat holds (``holder``), a zone on the table (none), an event (``player``: the seat it
#: concerns; ``other``: its second seat, or nobody), a pending decision (``player``: who
#: decides; ``partner``: the other player of the exchange). A seat that is not there is
#: ``nobody`` (-1).
SEATS: Mapping[str, tuple[str, ...]] = {
    "held-zone": ("holder",), "table-zone": (), "effect": ("player", "other"), "decision": ("player", "partner"),
}
#: The zone of a player's own hand (spec/state.yaml).
HAND_ZONE = "hand"
#: An event's fields that ``sees`` may hide (the fields of :class:`palast.engine.events.Event`
#: that carry what happened, not where it is written down).
EVENT_FIELDS: frozenset[str] = frozenset({"player", "other", "card", "role", "count", "cards", "seats", "detail"})
#: A pending decision's fields that ``sees`` may hide (of :class:`palast.engine.state.Decision`).
DECISION_FIELDS: frozenset[str] = frozenset({"partner", "count", "given", "options", "forced", "points"})
#: How long a showing lasts: ``once`` (the cards as they are now) or ``round`` (the hand
#: stays open to the audience until the round ends).
LASTS: tuple[str, ...] = ("once", "round")
#: The most players a game seats (the seats an audience is tried with when one is compared
#: with another: :func:`narrowed`).
_MOST_SEATS = 5
#: A primitive's Python template that reads the position (``D``) or a game constant.
_READS_GAME = re.compile(r"\bD\b|\b[A-Z][A-Z_0-9]*\b")


def audience_node(audience: Audience) -> Node:
    """The parsed expression of ``audience`` (``true``/``false`` for a truth value).

    :raises ExpressionError: for text that is not an expression of the language.
    """
    if isinstance(audience, bool):
        return Node("bool", audience)
    return parse(audience)


@cache
def audience_problem(audience: Audience, place: str) -> str | None:
    """What is wrong with ``audience`` at a place of kind ``place`` (a key of
    :data:`SEATS`), or ``None``: it must parse, name only ``viewer``, the place's seats and
    primitives that read neither the position nor the game, and be a condition.

    :returns: the message (with the column) or ``None``.
    """
    names = (VIEWER, *SEATS[place])
    try:
        node = audience_node(audience)
        check(node, names)
        _seats_only(node, set(names))
        got = infer(node, dict.fromkeys(names, "seat"))
        if got not in ("bool", "any"):
            raise ExpressionError(f"an audience must be a condition on {VIEWER}, not {got}", 1)
    except ExpressionError as exc:
        return f"{exc} (column {exc.column} of {audience!r})"
    return None


def _seats_only(node: Node, names: set[str]) -> None:
    if node.op in ("name", "call", "bind") and str(node.value) not in names:
        prim = PRIMITIVES.get(str(node.value))
        if prim is not None and _READS_GAME.search(prim.python):
            raise ExpressionError(f"{node.value} reads the game: an audience is decided by the seats alone "
                                  f"({', '.join(sorted(names))})", node.column)
    if node.op == "bind":
        names = names | {str(node.args[0].value)}
    for a in node.args:
        _seats_only(a, names)


@cache
def _compiled(audience: Audience, place: str) -> Callable[..., Any]:
    comp = Compiler({}, {})
    slot = comp.add(audience_node(audience), (VIEWER, *SEATS[place]))
    comp.build()
    return slot[0]


def sees(audience: Audience, place: str, viewer: int, seats: Mapping[str, int]) -> bool:
    """True if ``viewer`` is in ``audience`` at a place of kind ``place``.

    :param seats: the place's seats (:data:`SEATS`) -> their seat numbers (-1 for nobody);
        a seat not given is nobody.
    :raises ExpressionError: for an audience :func:`audience_problem` refuses (``palast
        spec check`` reports it first).
    """
    problem = audience_problem(audience, place)
    if problem is not None:
        raise ExpressionError(problem, 1)
    return bool(_compiled(audience, place)(None, viewer, *(seats.get(s, -1) for s in SEATS[place])))


def narrowed(new: Audience, base: Audience, place: str) -> str | None:
    """Where ``new`` shows less than ``base`` (a reading may only widen what every reading
    shows): the first seating, tried over every seat of up to five players, in which a player
    of ``base`` is not in ``new``, in words; ``None`` if there is none.
    """
    names = SEATS[place]
    for viewer in range(_MOST_SEATS):
        for seated in itertools.product(range(-1, _MOST_SEATS), repeat=len(names)):
            at = dict(zip(names, seated, strict=True))
            if sees(base, place, viewer, at) and not sees(new, place, viewer, at):
                where = ", ".join(f"{k} = seat {v}" for k, v in at.items())
                return f"with {VIEWER} = seat {viewer}" + (f", {where}" if where else "")
    return None


@dataclass(frozen=True)
class ZoneRule:
    """Who sees a zone: ``cards`` and ``count`` are audiences (:data:`Audience`);
    ``clauses`` the clause ids; ``readings``: reading id -> the audiences it widens."""

    zone: str
    cards: Audience
    count: Audience
    clauses: tuple[str, ...]
    says: str = ""
    point: str | None = None
    readings: Mapping[str, Mapping[str, Audience]] | None = None

    def under(self, reading: str | None) -> tuple[Audience, Audience]:
        """Who sees the cards and the count under ``reading`` of :attr:`point` (``None``
        or ``"open"``: the base, which every reading grants).

        :returns: ``(cards, count)`` audiences.
        """
        r = (self.readings or {}).get(reading or "", {})
        return r.get("cards", self.cards), r.get("count", self.count)


#: Which of an event's cards a move takes (``take`` of :class:`Move`): ``card``, every one of
#: ``cards``, the first ``count`` of ``cards`` (what the player gave in an exchange) or the
#: ones after them (what the other player gave back).
TAKES: tuple[str, ...] = ("card", "cards", "first-count", "after-count")
#: A place a move names: a zone and the event field holding its seat (``""`` for a zone on
#: the table).
MovePlace = tuple[str, str]


@dataclass(frozen=True)
class Move:
    """Cards an event moves from one place to another, named by the event's fields; a
    player's view follows a card it saw move (:mod:`palast.engine.knowledge`).

    :ivar take: which of the event's cards move (:data:`TAKES`).
    :ivar source: ``(zone, seat field)`` they come from (``player`` or ``other``; ``""``
        for a zone on the table).
    :ivar to: where they go, when no variation point decides it.
    :ivar point: the variation point that decides where they go, or ``None``.
    :ivar readings: reading id -> the place it sends them to.
    """

    take: str
    source: MovePlace
    to: MovePlace
    point: str | None = None
    readings: Mapping[str, MovePlace] | None = None

    def destination(self, reading: str | None) -> MovePlace | None:
        """Where the cards go under ``reading`` of :attr:`point`; ``None`` when the point is
        left open (``"open"``) or unknown: the place is not known."""
        if self.point is None:
            return self.to
        return (self.readings or {}).get(reading or "")


def _move_place(d: Mapping[str, Any]) -> MovePlace:
    return str(d["zone"]), str(d.get("seat", ""))


def parse_move(d: Mapping[str, Any]) -> Move:
    """Build a :class:`Move` from a schema-valid ``moves`` entry."""
    readings = {r: _move_place(v) for r, v in d.get("readings", {}).items()}
    to = _move_place(d["to"]) if "to" in d else ("draw-deck", "")
    return Move(str(d["take"]), _move_place(d["from"]), to, d.get("point"), readings or None)


@dataclass(frozen=True)
class Effect:
    """What an event shows: the audience of each hidden field and how long a showing lasts.

    :ivar event: the event kind.
    :ivar sees: event field -> audience (:data:`Audience`), for the fields not seen by
        everyone.
    :ivar lasts: ``once`` or ``round``.
    :ivar point: the variation point whose readings change the audience, or ``None``.
    :ivar readings: reading id -> (fields it widens, ``lasts`` or ``""`` for the base).
    :ivar rules: the rules that emit the event (the rulebook groups effects per role by them).
    :ivar moves: the cards the event moves, and where (what a player can follow).
    :ivar shows_hand: the event's ``cards`` are the whole hand of its ``player``.
    :ivar forgets: the event gathers every card (a deal): nothing seen before tells where a
        card is now.
    :ivar words: the event in a few words.
    :ivar text: the sentence that tells it, a template (:mod:`palast.spec.event_text`).
    :ivar cases: (condition: field -> value, template) for particular events, in order.
    """

    event: str
    clauses: tuple[str, ...]
    says: str
    sees: Mapping[str, Audience]
    lasts: str
    point: str | None
    readings: Mapping[str, tuple[Mapping[str, Audience], str]]
    rules: tuple[str, ...] = ()
    moves: tuple[Move, ...] = ()
    shows_hand: bool = False
    forgets: bool = False
    words: str = ""
    text: str = ""
    cases: tuple[tuple[Mapping[str, str | int], str], ...] = ()

    def under(self, reading: str | None) -> tuple[Mapping[str, Audience], str]:
        """The audiences and the duration under ``reading`` of :attr:`point` (``None`` or
        ``"open"``: the base, which every reading grants).

        :returns: ``(sees, lasts)``.
        """
        if self.point is None or reading is None or reading not in self.readings:
            return self.sees, self.lasts
        extra, lasts = self.readings[reading]
        return {**self.sees, **extra}, lasts or self.lasts


@dataclass(frozen=True)
class DecisionRule:
    """The fields of a pending decision of kind ``decision`` hidden from some players."""

    decision: str
    clauses: tuple[str, ...]
    says: str
    sees: Mapping[str, Audience]


@dataclass(frozen=True)
class Visibility:
    """All of ``spec/visibility.yaml``: zones in file order, effects and decisions by kind."""

    zones: tuple[ZoneRule, ...]
    effects: Mapping[str, Effect]
    decisions: Mapping[str, DecisionRule]

    def zone(self, zone: str) -> ZoneRule:
        """The rule of ``zone``; :raises KeyError: for a zone the file does not declare."""
        for z in self.zones:
            if z.zone == zone:
                return z
        raise KeyError(zone)

    def points(self) -> tuple[str, ...]:
        """The variation points that change what players see, in file order (zones first)."""
        return tuple(dict.fromkeys([*(z.point for z in self.zones if z.point),
                                    *(e.point for e in self.effects.values() if e.point)]))


def parse_visibility(data: Mapping[str, Any]) -> Visibility:
    """Build :class:`Visibility` from the loaded (schema-valid) ``visibility.yaml`` data."""
    zones = tuple(ZoneRule(z["zone"], z["cards"], z["count"], tuple(z["clauses"]), str(z.get("says", "")),
                           z.get("point"), {r: dict(v) for r, v in z.get("readings", {}).items()})
                  for z in data["zones"])
    effects: dict[str, Effect] = {}
    for e in data["effects"]:
        readings = {r: (dict(v.get("sees", {})), str(v.get("lasts", ""))) for r, v in e.get("readings", {}).items()}
        effects.setdefault(e["event"], Effect(e["event"], tuple(e["clauses"]), str(e.get("says", "")),
                                              dict(e.get("sees", {})), str(e.get("lasts", "once")), e.get("point"),
                                              readings, tuple(e.get("rules", ())),
                                              tuple(parse_move(m) for m in e.get("moves", ())),
                                              e.get("shows") == "hand", e.get("forgets") == "everything",
                                              str(e["words"]), str(e["text"]),
                                              tuple((dict(c["if"]), str(c["text"])) for c in e.get("cases", ()))))
    decisions: dict[str, DecisionRule] = {}
    for d in data["decisions"]:
        decisions.setdefault(d["decision"], DecisionRule(d["decision"], tuple(d["clauses"]), str(d.get("says", "")),
                                                         dict(d.get("sees", {}))))
    return Visibility(zones, effects, decisions)


def visibility_problems(spec: Spec, decision_kinds: frozenset[str],
                        at: Callable[[str, list[str | int], str], None]) -> None:
    """Check ``spec/visibility.yaml`` against the rest of the spec; report each problem
    through ``at(file, path, message)``.

    :param decision_kinds: every decision kind (a decision rule must name one).

    The effects declare the event kinds: each once (a statement emits only a declared one,
    :mod:`palast.lang.block_checks`; the engine's own, a test of the source).

    Checks: every zone of spec/state.yaml declared once, and no other; every audience a condition on
    ``viewer`` and the seats its place names (:func:`audience_problem`; a zone on the table
    has no ``holder``); every event kind and every decision kind declared once and no other; a ``point`` that is a
    variation point whose readings the ``readings`` block covers exactly; a reading that
    only widens the base audience (:func:`narrowed`); every variation point whose readings
    change only knowledge used here.
    """
    f = "visibility.yaml"
    data = spec.documents[f].data
    zones = spec.state.by_zone
    _declared_once(data["zones"], "zones", "zone", list(zones),
                   lambda k: f"{k!r} is no zone of spec/state.yaml (zones: {', '.join(zones)})",
                   lambda k: f"zone {k} is not declared: say who sees its cards and its count", at)
    _declared_once(data["effects"], "effects", "event", [e["event"] for e in data["effects"]], None,
                   lambda k: f"event {k} is not declared", at)
    _declared_once(data["decisions"], "decisions", "decision", sorted(decision_kinds),
                   lambda k: f"unknown decision kind {k!r} (known: {_words(decision_kinds)})",
                   lambda k: f"decision {k} is not declared: say which of its fields are hidden (an entry "
                             "with no sees: everyone sees all of it)", at)
    for i, z in enumerate(data["zones"]):
        name = z["zone"]
        if name not in zones:  # reported above
            continue
        place = "held-zone" if zones[name].per_player else "table-zone"
        for key in ("cards", "count"):
            ok = _audience(z[key], place, name, ["zones", i, key], at)
            where = narrowed(z[key], f"{VIEWER} == holder", place) if ok and place == "held-zone" else None
            if where is not None:
                at(f, ["zones", i, key], f"the player who holds a {name} must see its {key}: say "
                                         f"'viewer == holder' or widen it (not so {where})")
        if z.get("point") is not None:
            _point_problems(spec, z["point"], z.get("readings", {}), ["zones", i], at)
            for r, v in z.get("readings", {}).items():
                for key, who in v.items():
                    _widening(who, z[key], place, name, ["zones", i, "readings", r, key], at)
    for i, e in enumerate(data["effects"]):
        _sees_problems(e.get("sees", {}), EVENT_FIELDS, "effect", ["effects", i, "sees"], at)
        for j, rule in enumerate(e.get("rules", [])):
            if rule not in spec.rules:
                at(f, ["effects", i, "rules", j], f"unknown rule {rule!r}")
        for j, m in enumerate(e.get("moves", [])):
            _move_problems(spec, m, ["effects", i, "moves", j], at)
        point = e.get("point")
        if point is None:
            continue
        _point_problems(spec, point, e.get("readings", {}), ["effects", i], at)
        for r, v in e.get("readings", {}).items():
            path: list[str | int] = ["effects", i, "readings", r, "sees"]
            extra = v.get("sees", {})
            _sees_problems(extra, EVENT_FIELDS, "effect", path, at)
            for fld, who in extra.items():
                if fld in EVENT_FIELDS:
                    _widening(who, e.get("sees", {}).get(fld, True), "effect", fld, [*path, fld], at)
    for i, d in enumerate(data["decisions"]):
        _sees_problems(d.get("sees", {}), DECISION_FIELDS, "decision", ["decisions", i, "sees"], at)
    used = {e.get("point") for e in data["effects"]} | {z.get("point") for z in data["zones"]}
    for i, vp in enumerate(spec.variation_points.values()):
        if vp.changes_outcome == "knowledge" and vp.parameter is None and vp.id not in used:
            at("variation_points.yaml", ["variation_points", i, "changes_outcome"],
               f"{vp.id} changes only what players know, but no effect of visibility.yaml reads it")


def _declared_once(entries: list[Mapping[str, Any]], section: str, key: str, known: list[str],
                   unknown: Callable[[str], str] | None, missing: Callable[[str], str],
                   at: Callable[[str, list[str | int], str], None]) -> None:
    """Each of ``known`` (zones, event kinds, decision kinds) is declared exactly once in
    ``section`` (by its ``key``), and, with ``unknown``, nothing else is."""
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        name = entry[key]
        if name in seen:
            at("visibility.yaml", [section, i, key], f"{key} {name} is declared twice")
        seen.add(name)
        if unknown is not None and name not in known:
            at("visibility.yaml", [section, i, key], unknown(name))
    for name in known:
        if name not in seen:
            at("visibility.yaml", [section], missing(name))


def _move_problems(spec: Spec, m: Mapping[str, Any], path: list[str | int],
                   at: Callable[[str, list[str | int], str], None]) -> None:
    """A move names places that exist (a seat exactly for a zone one seat holds) and, with
    a ``point``, a place for each of its readings instead of ``to``."""
    places: list[tuple[list[str | int], Mapping[str, Any]]] = [([*path, "from"], m["from"])]
    if "to" in m:
        places.append(([*path, "to"], m["to"]))
    places += [([*path, "readings", r], v) for r, v in m.get("readings", {}).items()]
    zones = spec.state.by_zone
    for where, place in places:
        zone = zones.get(place["zone"])
        held = None if zone is None else zone.per_player
        if held is None:
            at("visibility.yaml", [*where, "zone"], f"unknown zone {place['zone']!r} (zones: {_words(set(zones))})")
        elif held != ("seat" in place):
            at("visibility.yaml", where, f"the {place['zone']} " + ("is held by a seat: name it (seat: player or "
                                                                     "other)" if held else "lies on the table: "
                                                                     "name no seat"))
    if "point" in m:
        if "to" in m:
            at("visibility.yaml", [*path, "to"], "a move whose place rests on a variation point names a place per "
                                                 "reading, not one to")
        _point_problems(spec, m["point"], m.get("readings", {}), path, at, "say where the cards go")
    elif "to" not in m:
        at("visibility.yaml", path, "say where the cards go (to), or the variation point that decides it")


def _audience(audience: Audience, place: str, what: str, path: list[str | int],
              at: Callable[[str, list[str | int], str], None]) -> bool:
    """Report what is wrong with ``audience``; True if nothing is."""
    problem = audience_problem(audience, place)
    if problem is None:
        return True
    if place == "table-zone" and audience_problem(audience, "held-zone") is None:
        problem = f"the {what} has no holder (it lies on the table): say true or false ({problem})"
    at("visibility.yaml", path, f"who sees it: {problem}")
    return False


def _widening(new: Audience, base: Audience, place: str, what: str, path: list[str | int],
              at: Callable[[str, list[str | int], str], None]) -> None:
    """Report a reading's audience that is broken or shows less than the base."""
    if not _audience(new, place, what, path, at) or audience_problem(base, place) is not None:
        return
    where = narrowed(new, base, place)
    if where is not None:
        at("visibility.yaml", path, f"a reading may only widen what every reading shows: {what} is seen by "
                                    f"{_said(base)} {where}, but not by {_said(new)}")


def _said(audience: Audience) -> str:
    return str(audience).lower() if isinstance(audience, bool) else repr(audience)


def _point_problems(spec: Spec, point: str, readings: Mapping[str, Any], base: list[str | int],
                    at: Callable[[str, list[str | int], str], None], say: str = "say what it shows") -> None:
    """A ``point`` must be a variation point whose readings ``readings`` covers exactly."""
    f = "visibility.yaml"
    vp = spec.variation_points.get(point)
    if vp is None:
        at(f, [*base, "point"], f"unknown variation point {point!r}")
        return
    want = [r.id for r in vp.readings]
    for r in readings:
        if r not in want:
            at(f, [*base, "readings", r], f"{point} has no reading {r!r} (its readings: {', '.join(want)})")
    for r in want:
        if r not in readings:
            at(f, [*base, "readings"], f"reading {r} of {point} is missing: {say}")


def _words(words: frozenset[str] | set[str]) -> str:
    return ", ".join(sorted(words))


def _sees_problems(sees: Mapping[str, Any], fields: frozenset[str], place: str, path: list[str | int],
                   at: Callable[[str, list[str | int], str], None]) -> None:
    for fld, who in sees.items():
        if fld not in fields:
            at("visibility.yaml", [*path, fld], f"{'an event' if place == 'effect' else 'a decision'} has no field "
                                                f"{fld!r} to hide (fields: {_words(fields)})")
        else:
            _audience(who, place, fld, [*path, fld], at)
