"""Who sees what: the data of ``spec/visibility.yaml`` as values, and its cross-checks.

The file declares, for every zone (hand, display, draw deck, discard pile, King deck, King
card in force, spent King cards), who sees its cards and who may count them; for every event
kind the engine emits, which of the event's fields are hidden and from whom (with the
variation point whose readings widen that audience); and for a pending decision, the fields
hidden from some players (the Wizard's picks while the partner chooses). The players' views
(:mod:`palast.engine.views`) interpret these values; no role is named in code.

An **audience** is a word of :data:`AUDIENCES`; which words a place may use is in
:data:`ALLOWED`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from palast.spec import Spec

#: Every audience word: who sees a zone's cards, an event's field, a decision's field.
AUDIENCES: tuple[str, ...] = ("everyone", "nobody", "owner", "player", "other", "involved", "partner")
#: The audiences each kind of place may name (an ``owner`` has a meaning only for a zone).
ALLOWED: Mapping[str, frozenset[str]] = {
    "zone": frozenset({"everyone", "nobody", "owner"}),
    "effect": frozenset({"everyone", "nobody", "player", "other", "involved"}),
    "decision": frozenset({"everyone", "nobody", "player", "partner"}),
}
#: The zones the file must declare, and whether each is held by one seat (a hand, a
#: display) or lies once on the table.
ZONES: Mapping[str, bool] = {
    "hand": True, "display": True, "draw-deck": False, "discard-pile": False, "king-deck": False,
    "king-in-force": False, "king-spent": False,
}
#: The zone of a player's own hand.
HAND_ZONE = "hand"
#: The zones that hold King cards (role indices), not role cards.
ROLE_ZONES: frozenset[str] = frozenset({"king-deck", "king-in-force", "king-spent"})
#: For each zone: its cards in a position (a :class:`palast.engine.state.State`), by seat
#: (``-1`` for a table zone), and its size. King zones hold role indices. A draw deck or King
#: deck whose order the position does not fix lists only its known part; its count is exact.
ZONE_READERS: Mapping[str, tuple[Callable[[Any, int], tuple[int, ...]], Callable[[Any, int], int]]] = {
    "hand": (lambda s, p: s.hands[p], lambda s, p: len(s.hands[p])),
    "display": (lambda s, p: s.displays[p], lambda s, p: len(s.displays[p])),
    "draw-deck": (lambda s, p: s.deck + s.deck_bottom, lambda s, p: s.deck_size),
    "discard-pile": (lambda s, p: s.discard, lambda s, p: len(s.discard)),
    "king-deck": (lambda s, p: s.king_deck, lambda s, p: s.king_deck_size),
    "king-in-force": (lambda s, p: (s.king_in_force,) if s.king_in_force >= 0 else (),
                      lambda s, p: 1 if s.king_in_force >= 0 else 0),
    "king-spent": (lambda s, p: s.king_spent, lambda s, p: len(s.king_spent)),
}
#: An event's fields that ``sees`` may hide (the fields of :class:`palast.engine.events.Event`
#: that carry what happened, not where it is written down).
EVENT_FIELDS: frozenset[str] = frozenset({"player", "other", "card", "role", "count", "cards", "seats", "detail"})
#: A pending decision's fields that ``sees`` may hide (of :class:`palast.engine.state.Decision`).
DECISION_FIELDS: frozenset[str] = frozenset({"partner", "count", "given", "options"})
#: How long a showing lasts: ``once`` (the cards as they are now) or ``round`` (the hand
#: stays open to the audience until the round ends).
LASTS: tuple[str, ...] = ("once", "round")


@dataclass(frozen=True)
class ZoneRule:
    """Who sees a zone: ``cards`` and ``count`` are audiences; ``clauses`` the clause ids."""

    zone: str
    cards: str
    count: str
    clauses: tuple[str, ...]
    says: str = ""
    point: str | None = None
    readings: Mapping[str, Mapping[str, str]] | None = None

    def under(self, reading: str | None) -> tuple[str, str]:
        """Who sees the cards and the count under ``reading`` of :attr:`point` (``None``
        or ``"open"``: the base, which every reading grants).

        :returns: ``(cards, count)`` audiences.
        """
        r = (self.readings or {}).get(reading or "", {})
        return r.get("cards", self.cards), r.get("count", self.count)


@dataclass(frozen=True)
class Effect:
    """What an event shows: the audience of each hidden field and how long a showing lasts.

    :ivar event: the event kind.
    :ivar sees: event field -> audience, for the fields not seen by everyone.
    :ivar lasts: ``once`` or ``round``.
    :ivar point: the variation point whose readings change the audience, or ``None``.
    :ivar readings: reading id -> (fields it widens, ``lasts`` or ``""`` for the base).
    :ivar rules: the rules that emit the event (the rulebook groups effects per role by them).
    """

    event: str
    clauses: tuple[str, ...]
    says: str
    sees: Mapping[str, str]
    lasts: str
    point: str | None
    readings: Mapping[str, tuple[Mapping[str, str], str]]
    rules: tuple[str, ...] = ()

    def under(self, reading: str | None) -> tuple[Mapping[str, str], str]:
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
    sees: Mapping[str, str]


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
                                              readings, tuple(e.get("rules", ()))))
    decisions: dict[str, DecisionRule] = {}
    for d in data["decisions"]:
        decisions.setdefault(d["decision"], DecisionRule(d["decision"], tuple(d["clauses"]), str(d.get("says", "")),
                                                         dict(d["sees"])))
    return Visibility(zones, effects, decisions)


def visibility_problems(spec: Spec, event_kinds: frozenset[str], decision_kinds: frozenset[str],
                        at: Callable[[str, list[str | int], str], None]) -> None:
    """Check ``spec/visibility.yaml`` against the rest of the spec; report each problem
    through ``at(file, path, message)``.

    :param event_kinds: every event kind the engine emits (each needs exactly one effect).
    :param decision_kinds: every decision kind (a decision rule must name one).

    Checks: every zone of :data:`ZONES` declared once, with audiences a zone may use (an
    ``owner`` only for a zone one seat holds); every event kind declared once and no other;
    audiences an event or decision may use; a ``point`` that is a variation point whose
    readings the ``readings`` block covers exactly; a reading that only widens the base
    audience; every variation point whose readings change only knowledge used here.
    """
    f = "visibility.yaml"
    data = spec.documents[f].data
    seen: set[str] = set()
    for i, z in enumerate(data["zones"]):
        name = z["zone"]
        if name in seen:
            at(f, ["zones", i, "zone"], f"zone {name} is declared twice")
        seen.add(name)
        for key in ("cards", "count"):
            if z[key] not in ALLOWED["zone"]:
                at(f, ["zones", i, key], f"a zone's {key} may be seen by {_words(ALLOWED['zone'])}, not {z[key]!r}")
            elif z[key] == "owner" and not ZONES.get(name, True):
                at(f, ["zones", i, key], f"the {name} has no owner (it lies on the table): name everyone or nobody")
        if z.get("point") is not None:
            _point_problems(spec, z["point"], z.get("readings", {}), ["zones", i], at)
            for r, v in z.get("readings", {}).items():
                for key, who in v.items():
                    if not _widens(who, z[key]):
                        at(f, ["zones", i, "readings", r, key], f"a reading may only widen what every reading "
                                                               f"shows: the {key} is seen by {z[key]} already")
    for name in ZONES:
        if name not in seen:
            at(f, ["zones"], f"zone {name} is not declared: say who sees its cards and its count")
    seen = set()
    for i, e in enumerate(data["effects"]):
        kind = e["event"]
        if kind in seen:
            at(f, ["effects", i, "event"], f"event {kind} is declared twice")
        seen.add(kind)
        if kind not in event_kinds:
            at(f, ["effects", i, "event"], f"the engine emits no event {kind!r}")
        _sees_problems(e.get("sees", {}), EVENT_FIELDS, "effect", ["effects", i, "sees"], at)
        for j, rule in enumerate(e.get("rules", [])):
            if rule not in spec.rules:
                at(f, ["effects", i, "rules", j], f"unknown rule {rule!r}")
        point = e.get("point")
        if point is None:
            continue
        _point_problems(spec, point, e.get("readings", {}), ["effects", i], at)
        for r, v in e.get("readings", {}).items():
            path: list[str | int] = ["effects", i, "readings", r, "sees"]
            extra = v.get("sees", {})
            _sees_problems(extra, EVENT_FIELDS, "effect", path, at)
            for fld, who in extra.items():
                base = e.get("sees", {}).get(fld, "everyone")
                if who in AUDIENCES and not _widens(who, base):
                    at(f, [*path, fld], f"a reading may only widen what every reading shows: {fld} is seen by "
                                        f"{base} already, so {who!r} narrows it")
    for kind in sorted(event_kinds - seen):
        at(f, ["effects"], f"event {kind} is not declared: say who sees its fields (an entry with no sees: "
                           "everyone sees everything)")
    seen = set()
    for i, d in enumerate(data["decisions"]):
        kind = d["decision"]
        if kind in seen:
            at(f, ["decisions", i, "decision"], f"decision {kind} is declared twice")
        seen.add(kind)
        if kind not in decision_kinds:
            at(f, ["decisions", i, "decision"], f"unknown decision kind {kind!r} (known: {_words(decision_kinds)})")
        _sees_problems(d["sees"], DECISION_FIELDS, "decision", ["decisions", i, "sees"], at)
    used = {e.get("point") for e in data["effects"]} | {z.get("point") for z in data["zones"]}
    for i, vp in enumerate(spec.variation_points.values()):
        if vp.changes_outcome == "knowledge" and vp.parameter is None and vp.id not in used:
            at("variation_points.yaml", ["variation_points", i, "changes_outcome"],
               f"{vp.id} changes only what players know, but no effect of visibility.yaml reads it")


def _point_problems(spec: Spec, point: str, readings: Mapping[str, Any], base: list[str | int],
                    at: Callable[[str, list[str | int], str], None]) -> None:
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
            at(f, [*base, "readings"], f"reading {r} of {point} is missing: say what it shows")


def _widens(new: str, base: str) -> bool:
    if new == base or new == "everyone":
        return True
    if base == "nobody":
        return True
    return new == "involved" and base in ("player", "other")


def _words(words: frozenset[str] | set[str]) -> str:
    return ", ".join(sorted(words))


def _sees_problems(sees: Mapping[str, Any], fields: frozenset[str], place: str, path: list[str | int],
                   at: Callable[[str, list[str | int], str], None]) -> None:
    for fld, who in sees.items():
        if fld not in fields:
            at("visibility.yaml", [*path, fld], f"{'an event' if place == 'effect' else 'a decision'} has no field "
                                                f"{fld!r} to hide (fields: {_words(fields)})")
        elif who not in ALLOWED[place]:
            at("visibility.yaml", [*path, fld], f"{fld} may be seen by {_words(ALLOWED[place])}, not {who!r}")
