"""What a player remembers: the cards they know to lie outside the draw deck without seeing them now.

A player who saw a card once (a hand shown once, the cards of their own exchange, a card
taken back from a display into a hand, their own face-down discard) knows where it went and
follows it while the round lasts: :func:`remembered` works this out from the events **as the
player saw them** (:class:`palast.engine.views.Seen`, hidden fields blanked), never from the
hidden position. Each :class:`Placed` entry says which cards and in which places they may
be: one seat's hand; "seat A's or seat B's hand" after an exchange between A and B whose
cards the player did not see; "the hand or the discard pile" after a face-down discard by
that seat.

How each event moves cards is declared in ``spec/visibility.yaml`` (``moves`` of its
effect, in terms of the event's fields: ``card`` from the hand of ``player`` to their
display, ...), as are the events that show a whole hand (``shows: hand``) and the events
after which nothing is remembered (``forgets: everything``: a deal gathers every card).
Where a variation point decides a move's destination (where a discard goes), the ruleset's
reading names it; a point left open, or a destination that is the draw deck (``under-deck``),
is a place nothing is remembered in. Which fields the player saw is the visibility file's
(``Seen.hidden``). No card goes back into the draw deck within a round except by such a
move (the engine's deck grows nowhere else but at the deal).

With two copies of a card the player cannot always tell which copy moved; the choice is the
conservative one: a card that leaves a place takes one of the entries that may lie there
and the other such entries widen to every place either could be in, so an entry never
claims a card is placed when it might not be (the entries can be matched to distinct copies
of the true position, each in one of its places).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import TYPE_CHECKING

from palast.spec.state import ZoneDecl
from palast.spec.visibility import HAND_ZONE, Move, MovePlace, sees

if TYPE_CHECKING:
    from palast.engine.game import Game
    from palast.engine.state import State
    from palast.engine.views import Seen

#: A place a card may lie in: a zone id of ``spec/visibility.yaml`` and the seat holding it
#: (``-1`` for a zone on the table).
Place = tuple[str, int]
#: The zone the player asks about (what is on top of it): a card that goes there is lost
#: to memory, since it may be drawn again.
DRAW_ZONE = "draw-deck"


@dataclass(frozen=True, slots=True)
class Placed:
    """Cards the viewer knows to lie outside the draw deck, not seen now.

    :ivar cards: the cards (sorted; a card listed twice is two copies).
    :ivar places: where each of them may lie, sorted: ``("hand", seat)`` or ``("discard-pile", -1)``.
    :ivar index: the event from which the viewer knows them (its place in the history).
    :ivar round: the round of that event.
    :ivar event: that event's kind.
    """

    cards: tuple[int, ...]
    places: tuple[Place, ...]
    index: int
    round: int
    event: str


@dataclass(frozen=True, slots=True)
class _Copy:
    card: int
    places: frozenset[Place]
    index: int
    round: int
    event: str


def _place(place: MovePlace, seen: Seen) -> Place:
    zone, seat_field = place
    return (zone, getattr(seen.event, seat_field) if seat_field else -1)


def _moved(move: Move, seen: Seen) -> tuple[int, ...]:
    e = seen.event
    if move.take == "card":
        return (e.card,)
    if move.take == "first-count":
        return e.cards[:e.count]
    if move.take == "after-count":
        return e.cards[e.count:]
    return e.cards  # every one of cards


def _field(move: Move) -> str:
    return "card" if move.take == "card" else "cards"


#: Where cards go whose destination is not known (a variation point left open): the draw
#: deck, where nothing is remembered (the conservative choice).
_UNKNOWN: MovePlace = ("draw-deck", "")


class _Memory:
    """The copies a viewer remembers while reading the events."""

    def __init__(self, game: Game, viewer: int) -> None:
        self.game = game
        self.viewer = viewer
        self.copies: list[_Copy] = []
        self._tracked: dict[Place, bool] = {}

    def tracked(self, place: Place) -> bool:
        """A place is remembered when the viewer does not see its cards (the visibility
        file's audience of the zone: another player's hand, the discard pile), except the
        draw deck."""
        got = self._tracked.get(place)
        if got is None:
            zone, seat = place
            rule = self.game.spec.visibility.zone(zone)
            cards, _ = rule.under(self.game.spec.reading(self.game.ruleset, rule.point) if rule.point else None)
            held = self.game.spec.state.by_zone[zone].per_player
            got = zone != DRAW_ZONE and not sees(cards, "held-zone" if held else "table-zone",
                                                 self.viewer, {"holder": seat})
            self._tracked[place] = got
        return got

    def take(self, card: int, place: Place) -> None:
        """One copy of ``card`` left ``place``: it is one of the copies that may lie there
        (or another); drop one of those and widen the others to all their places."""
        maybe = [c for c in self.copies if c.card == card and place in c.places]
        if not maybe:
            return
        union: frozenset[Place] = frozenset().union(*(c.places for c in maybe))
        first = maybe[0]
        self.copies = [replace(c, places=union) if c in maybe else c for c in self.copies if c is not first]

    def add(self, card: int, place: Place, seen: Seen) -> None:
        self.copies.append(_Copy(card, frozenset({place}), seen.index, seen.round, seen.event.kind))

    def spread(self, source: Place, dest: Place) -> None:
        """Unseen cards left ``source`` for ``dest``: a copy that may lie at ``source`` may
        now lie at ``dest`` too; if ``dest`` is not remembered (the draw deck), it is lost."""
        keep: list[_Copy] = []
        for c in self.copies:
            if source in c.places:
                if not self.tracked(dest):
                    continue
                c = replace(c, places=c.places | {dest})
            keep.append(c)
        self.copies = keep

    def show_hand(self, seat: int, cards: Iterable[int], seen: Seen) -> None:
        place = (HAND_ZONE, seat)
        if not self.tracked(place):
            return
        self.copies = [c for c in self.copies if place not in c.places]
        for card in cards:
            self.add(card, place, seen)

    def read(self, game: Game, seen: Seen) -> None:
        e = seen.event
        effect = game.spec.visibility.effects.get(e.kind)
        if effect is None:
            return
        if effect.forgets:
            self.copies.clear()
            return
        if effect.shows_hand and "cards" not in seen.hidden:
            self.show_hand(e.player, e.cards, seen)
        resolved = []
        for m in effect.moves:
            to = m.destination(game.spec.reading(game.ruleset, m.point) if m.point else None)
            resolved.append((m, _place(m.source, seen), _place(to or _UNKNOWN, seen)))
        for m, source, dest in resolved:  # first every card leaving, then every card arriving
            if _field(m) in seen.hidden:
                n = 1 if m.take == "card" else max(e.count, 0)
                if n and self.tracked(source):
                    self.spread(source, dest)
            elif self.tracked(source):
                for card in _moved(m, seen):
                    self.take(card, source)
        for m, _, dest in resolved:
            if _field(m) not in seen.hidden and self.tracked(dest):
                for card in _moved(m, seen):
                    self.add(card, dest, seen)


def remembered(game: Game, viewer: int, seen: Sequence[Seen], open_seats: Iterable[int] = ()) -> tuple[Placed, ...]:
    """The cards ``viewer`` knows to lie outside the draw deck and does not see now.

    :param seen: the events as the viewer saw them, first to last.
    :param open_seats: seats whose hands are open to the viewer now (seen, so not remembered:
        an entry that may lie in one of them is dropped).
    :returns: the :class:`Placed` entries, copies from one event with the same places grouped.
    """
    memory = _Memory(game, viewer)
    for s in seen:
        memory.read(game, s)
    open_places = {(HAND_ZONE, s) for s in open_seats}
    groups: dict[tuple[frozenset[Place], int], list[_Copy]] = {}
    for c in memory.copies:
        if not c.places & open_places:
            groups.setdefault((c.places, c.index), []).append(c)
    return tuple(Placed(tuple(sorted(c.card for c in cs)), tuple(sorted(places)), index, cs[0].round, cs[0].event)
                 for (places, index), cs in sorted(groups.items(), key=lambda kv: (kv[0][1], sorted(kv[0][0]))))


def place_cards(state: State, place: Place, zones: Mapping[str, ZoneDecl]) -> tuple[int, ...]:
    """The cards of ``state`` in ``place`` (a zone of ``zones``, spec/state.yaml's by id, and a
    seat or -1)."""
    return zones[place[0]].cards_in(state, place[1])


def holds(state: State, placed: Sequence[Placed], zones: Mapping[str, ZoneDecl]) -> bool:
    """True if ``state`` agrees with ``placed``: the entries can be matched to distinct
    copies, each lying in one of its entry's places (Hall's condition, per card). ``zones``:
    spec/state.yaml's zones by id."""
    wanted: dict[int, list[frozenset[Place]]] = {}
    for p in placed:
        for card in p.cards:
            wanted.setdefault(card, []).append(frozenset(p.places))
    for card, entries in wanted.items():
        have: Counter[Place] = Counter()
        for place in frozenset().union(*entries):
            have[place] = place_cards(state, place, zones).count(card)
        for k in range(1, len(entries) + 1):
            for some in combinations(entries, k):
                if sum(have[pl] for pl in frozenset().union(*some)) < k:
                    return False
    return True
