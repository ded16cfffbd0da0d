"""The position as ``spec/state.yaml`` declares it: the zones cards lie in, the counters the
rules keep, and what the turn's machinery keeps besides; and the checks that the rule
language names them as declared (:func:`state_problems`).

The engine keeps each part in the fields of its position the declaration names
(:mod:`palast.engine.conformance` checks them); spec/visibility.yaml says who sees each
zone (its zones are these).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: What a zone's cards are to the rule language: role cards or King cards (named by the
#: role they ban).
HOLDS_KIND: Mapping[str, str] = {"cards": "cards", "King cards": "roles"}
#: What one card drawn from a deck of that content is.
DRAWN_KIND: Mapping[str, str] = {"cards": "card", "King cards": "role"}


@dataclass(frozen=True)
class ZoneDecl:
    """A place cards lie in.

    :ivar zone: its id (spec/visibility.yaml names it so).
    :ivar name: its name in expressions and statements (``hand(P)``, ``discard_pile``).
    :ivar title: what a person calls it (``draw deck``), in position lines and the book.
    :ivar under: for a deck, the name of the place under it, or ``""``.
    :ivar per_player: True for a zone each player holds (a hand, a display).
    :ivar holds: ``"cards"`` or ``"King cards"``.
    :ivar order: ``sorted``, ``laid``, ``deck`` or ``one`` (see the file's header).
    :ivar fields: the fields of the engine's position that keep it.
    :ivar clauses: the clauses it rests on.
    :ivar says: what it is, in words.
    :ivar start: what it holds before the first deal: ``empty``, ``full`` or ``unplaced``.
    :ivar deal: what a deal leaves in it: ``dealt``, ``rest``, ``empty`` or ``kept``.
    """

    zone: str
    name: str
    title: str
    under: str
    per_player: bool
    holds: str
    order: str
    fields: tuple[str, ...]
    clauses: tuple[str, ...]
    says: str
    start: str = "empty"
    deal: str = "kept"

    @property
    def kind(self) -> str:
        """Its kind in the rule language: ``cards`` or ``roles``."""
        return HOLDS_KIND[self.holds]

    def deck_fields(self) -> tuple[str, str, str, str | None]:
        """A deck's fields by what they keep: its known top, how many cards lie below it in an
        order nobody knows, the cards those may be, and the known cards under them (``None``
        for a deck with no place under it)."""
        top, hidden, unseen, *under = self.fields
        return top, hidden, unseen, (under[0] if under else None)

    def cards_in(self, position: Any, seat: int = -1) -> tuple[int, ...]:
        """Its cards in ``position`` (a :class:`palast.engine.state.State` or its working
        copy), of ``seat`` for a zone each player holds: a deck's known cards only (its
        known top, then the known cards under its part of unknown order)."""
        f = self.fields[0]
        if self.order == "one":
            v = getattr(position, f)
            return (v,) if v >= 0 else ()
        if self.order == "deck":
            _, _, _, under = self.deck_fields()
            return tuple(getattr(position, f)) + (tuple(getattr(position, under)) if under else ())
        cards: tuple[int, ...] = getattr(position, f)[seat] if self.per_player else getattr(position, f)
        return tuple(cards)

    def count_in(self, position: Any, seat: int = -1) -> int:
        """How many cards it holds in ``position`` (a deck's unknown part counted)."""
        n = len(self.cards_in(position, seat))
        return n + int(getattr(position, self.deck_fields()[1])) if self.order == "deck" else n


@dataclass(frozen=True)
class Counter:
    """A number or name the rules keep.

    :ivar counter: its id.
    :ivar name: its name in expressions (and in ``set``, when :attr:`settable`).
    :ivar per_player: True for one value per player.
    :ivar kind: ``int``, ``card``, ``seat`` or ``colours``.
    :ivar settable: True when a rule's statement sets it by name.
    :ivar fields: the fields of the engine's position that keep it.
    :ivar clauses: the clauses it rests on.
    :ivar says: what it is, in words.
    :ivar start: its value before the first deal: ``zero``, ``none`` or ``first player``.
    :ivar deal: what a deal makes of it: ``zero``, ``none``, ``one more`` or ``kept``.
    """

    counter: str
    name: str
    per_player: bool
    kind: str
    settable: bool
    fields: tuple[str, ...]
    clauses: tuple[str, ...]
    says: str
    start: str = "zero"
    deal: str = "kept"


@dataclass(frozen=True)
class MachinePart:
    """What the machinery keeps of the turn and the game (no statement changes it); ``deal``:
    ``cleared`` (a deal sets it to nothing) or ``kept``."""

    part: str
    fields: tuple[str, ...]
    says: str
    deal: str = "kept"


@dataclass(frozen=True)
class StateDecl:
    """All of ``spec/state.yaml``, each list in file order."""

    zones: tuple[ZoneDecl, ...] = ()
    counters: tuple[Counter, ...] = ()
    machine: tuple[MachinePart, ...] = ()
    #: zone id -> zone
    by_zone: Mapping[str, ZoneDecl] = field(default_factory=dict)

    def fields(self) -> list[tuple[str, str]]:
        """Every field the declaration names, with the id of the part that keeps it, in file order."""
        return ([(f, z.zone) for z in self.zones for f in z.fields]
                + [(f, c.counter) for c in self.counters for f in c.fields]
                + [(f, m.part) for m in self.machine for f in m.fields])


def parse_state(data: Mapping[str, Any]) -> StateDecl:
    """Build :class:`StateDecl` from the loaded (schema-valid) ``state.yaml`` data."""
    zones = tuple(ZoneDecl(z["zone"], z["name"], z["title"], z.get("under", ""), z["per"] == "player", z["holds"],
                           z["order"],
                           tuple(z["fields"]), tuple(z["clauses"]), z["says"], z["start"], z["deal"])
                  for z in data["zones"])
    counters = tuple(Counter(c["counter"], c["name"], c["per"] == "player", c["kind"], bool(c.get("set", False)),
                             tuple(c["fields"]), tuple(c["clauses"]), c["says"], c["start"], c["deal"])
                     for c in data["counters"])
    machine = tuple(MachinePart(m["part"], tuple(m["fields"]), m["says"], m["deal"]) for m in data["machine"])
    return StateDecl(zones, counters, machine, {z.zone: z for z in zones})


def state_problems(spec: Any, at: Callable[[str, list[str | int], str], None]) -> None:
    """Report through ``at(file, key path, message)`` what is wrong with ``spec/state.yaml``:
    an id, a name or a field declared twice; a zone the rule language does not read as
    declared (its primitive, its arguments, its kind, its place in statements); a deck's
    ``under`` on a zone that is no deck; a counter whose primitive or ``set`` target
    differs from the declaration; a zone of spec/visibility.yaml that is not declared
    here, or a zone declared here that spec/visibility.yaml leaves out."""
    from palast.lang.primitives import PRIMITIVES
    from palast.lang.statements import DECKS, PLACES, TARGET_FIELDS, TARGETS

    f = "state.yaml"
    decl: StateDecl = spec.state
    ids: set[str] = set()
    names: set[str] = set()
    seen_fields: set[str] = set()
    parts: list[tuple[str, int, Any, str]] = [("zones", i, z, z.zone) for i, z in enumerate(decl.zones)]
    parts += [("counters", i, c, c.counter) for i, c in enumerate(decl.counters)]
    parts += [("machine", i, m, m.part) for i, m in enumerate(decl.machine)]
    for section, i, part, pid in parts:
        if pid in ids:
            at(f, [section, i], f"{pid!r} is declared twice")
        ids.add(pid)
        for name in (getattr(part, "name", ""), getattr(part, "under", "")):
            if name and name in names:
                at(f, [section, i, "name"], f"the name {name!r} is declared twice")
            names.add(name)
        for j, fld in enumerate(part.fields):
            if fld in seen_fields:
                at(f, [section, i, "fields", j], f"the field {fld!r} is kept by two parts")
            seen_fields.add(fld)
    titles: set[str] = set()
    for i, z in enumerate(decl.zones):
        title = z.title.strip()
        if not title or "\n" in z.title or title != z.title:
            at(f, ["zones", i, "title"], f"a title is one line of words with no space around it, not {z.title!r}")
        elif title.casefold() in titles:
            at(f, ["zones", i, "title"], f"the title {z.title!r} is given to two zones")
        titles.add(title.casefold())
    for i, z in enumerate(decl.zones):
        prim = PRIMITIVES.get(z.name)
        want_args = ("seat",) if z.per_player else ()
        if prim is None or prim.args != want_args or prim.result != z.kind:
            got = "none" if prim is None else f"{prim.name}({', '.join(prim.args)}) of kind {prim.result}"
            at(f, ["zones", i, "name"], f"the rule language reads zone {z.zone} as {got}, not as "
                                        f"{z.name}({'P' if z.per_player else ''}) of kind {z.kind}")
        if PLACES.get(z.name, z.per_player) != z.per_player:
            at(f, ["zones", i, "per"], f"statements name {z.name} {'with' if PLACES[z.name] else 'without'} a player")
        if z.order == "deck" and DECKS.get(z.name) != DRAWN_KIND[z.holds]:
            at(f, ["zones", i, "order"], f"statements do not draw a {DRAWN_KIND[z.holds]} from {z.name} "
                                         f"(their decks: {', '.join(DECKS)})")
        if z.under and z.order != "deck":
            at(f, ["zones", i, "under"], f"only a deck has a place under it ({z.zone} is {z.order})")
        want_fields = (4 if z.under else 3) if z.order == "deck" else 1
        if len(z.fields) != want_fields:
            what = ("a deck's fields are its known top, its hidden count, its unseen cards" +
                    (" and the known cards under them" if z.under else "") if z.order == "deck"
                    else f"a zone that lies {z.order} is kept in one field")
            at(f, ["zones", i, "fields"], f"{what}: {want_fields} fields, not {len(z.fields)}")
    places = {z.name for z in decl.zones} | {z.under for z in decl.zones if z.under}
    for name in PLACES:
        if name not in places:
            at(f, ["zones"], f"statements move cards to or from {name}, which no zone declares (name or under)")
    for name in DECKS:
        if not any(z.name == name and z.order == "deck" for z in decl.zones):
            at(f, ["zones"], f"statements draw from {name}, which no zone declares as a deck")
    for key, want, what in (("deal", "dealt", "a hand dealt"), ("deal", "rest", "the rest of a deal")):
        taking = [z.zone for z in decl.zones if getattr(z, key) == want]
        if len(taking) != 1:
            at(f, ["zones"], f"one zone must take {what} ({key}: {want}), not {len(taking)} "
                             f"({', '.join(taking) or 'none'})")
    for i, z in enumerate(decl.zones):
        if z.start in ("full", "unplaced") and z.order != "deck":
            at(f, ["zones", i, "start"], f"only a deck starts with cards ({z.zone} is {z.order})")
        if z.deal == "dealt" and not (z.per_player and z.holds == "cards"):
            at(f, ["zones", i, "deal"], "the cards dealt go to a zone each player holds, of cards")
        if z.deal == "rest" and not (z.order == "deck" and z.holds == "cards"):
            at(f, ["zones", i, "deal"], "the rest of a deal goes to a deck of cards")
    fits = {"first player": ("seat",), "one more": ("int",), "zero": ("int",), "none": ("card", "seat", "colours")}
    for i, c in enumerate(decl.counters):
        if len(c.fields) != 1:
            at(f, ["counters", i, "fields"], f"a counter is kept in one field, not {len(c.fields)}")
        for key in ("start", "deal"):
            value = getattr(c, key)
            if value in fits and c.kind not in fits[value]:
                at(f, ["counters", i, key], f"a counter of kind {c.kind} cannot be {value}")
    for i, c in enumerate(decl.counters):
        prim = PRIMITIVES.get(c.name)
        want_args = ("seat",) if c.per_player else ()
        if c.settable:
            target = TARGETS.get(c.name)
            if target is None:
                at(f, ["counters", i, "set"], f"statements cannot set {c.name} (what they set: "
                                              f"{', '.join(TARGETS)})")
            elif target != (c.per_player, c.kind):
                per, kind = target
                at(f, ["counters", i, "set"], f"statements set {c.name} as a {kind} "
                                              f"{'per player' if per else 'on the table'}, not as declared")
            elif TARGET_FIELDS.get(c.name) != c.fields[0]:
                at(f, ["counters", i, "fields"], f"statements set {c.name} in the engine's field "
                                                 f"{TARGET_FIELDS.get(c.name)}, not in {c.fields[0]}")
        elif prim is None or prim.args != want_args or prim.result != c.kind:
            got = "none" if prim is None else f"{prim.name}({', '.join(prim.args)}) of kind {prim.result}"
            at(f, ["counters", i, "name"], f"the rule language reads counter {c.counter} as {got}, not as "
                                           f"{c.name}({'P' if c.per_player else ''}) of kind {c.kind}")
    for name in TARGETS:
        if not any(c.name == name and c.settable for c in decl.counters):
            at(f, ["counters"], f"statements set {name}, which no counter declares with set: true")
