"""What a player remembers: the cards they know to lie outside the draw deck without seeing them now.

A player who saw a card once (a hand shown once, the cards of their own exchange, a card
taken back from a display into a hand, their own face-down discard) knows where it went and
follows it while the round lasts: :func:`remembered` works this out from the events **as the
player saw them** (:class:`palast.engine.views.Seen`, hidden fields blanked), never from the
hidden position. Each :class:`Placed` entry says which cards and in which places they may
be: one seat's hand; "seat A's or seat B's hand" after an exchange between A and B whose
cards the player did not see; "the hand or the discard pile" after a face-down discard by
that seat.

How events move cards is not declared in ``spec/`` (the effects of a role are engine code
until the rule language declares them), so :data:`MOVES` states it per event kind, in terms
of the event's fields only; where a move's destination rests on a reading (where a discard
goes), the destination is the ruleset's reading of a variation point of the rule that
emitted the event, when that reading's id is a zone id (:func:`reading_zone`); any other
reading (``under-deck``: back into the draw deck) is a place nothing is remembered in.
Which fields the player saw is the visibility file's (``Seen.hidden``). A card never goes
back into the draw deck within a round except by a move whose destination is the draw deck
(the ``under-deck`` reading; the engine's deck grows nowhere else but at the deal);
everything is forgotten at the next deal (:data:`FORGET_AT`), which gathers every card.

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

from palast.visibility import HAND_ZONE, ZONES

if TYPE_CHECKING:
    from palast.engine.game import Game
    from palast.engine.state import State
    from palast.engine.views import Seen

#: A place a card may lie in: a zone id of ``spec/visibility.yaml`` and the seat holding it
#: (``-1`` for a zone on the table).
Place = tuple[str, int]
#: The zone of the discard pile; with the other players' hands, the only places remembered
#: (displays and the player's own hand are seen now; the draw deck is what is asked about).
DISCARD_ZONE = "discard-pile"
#: The event kind of a deal: every card goes back to the draw deck, so everything
#: remembered is forgotten.
FORGET_AT = "round_dealt"


@dataclass(frozen=True, slots=True)
class Move:
    """Cards an event moves from one place to another, named by the event's fields.

    :ivar field: the event field holding the moved cards (``card`` or ``cards``).
    :ivar part: which of ``cards`` move: ``whole``, ``first`` or ``last`` (``count`` cards).
    :ivar source: ``(zone, seat field)``: where they come from (the seat in ``player`` or ``other``).
    :ivar to: where they go (the zone is a default when ``by_reading``).
    :ivar by_reading: the destination zone is the one named by the ruleset's reading of a
        variation point of the event's rule (:func:`reading_zone`).
    """

    field: str
    part: str
    source: tuple[str, str]
    to: tuple[str, str]
    by_reading: bool = False


#: How each event kind moves cards (see the module docstring for why this is in code). An
#: event kind not listed moves no card between the places a player remembers.
MOVES: Mapping[str, tuple[Move, ...]] = {
    "card_played": (Move("card", "whole", (HAND_ZONE, "player"), ("display", "player")),),
    "card_taken_back": (Move("card", "whole", ("display", "player"), (HAND_ZONE, "player")),),
    "card_discarded": (Move("card", "whole", (HAND_ZONE, "player"), (DISCARD_ZONE, ""), by_reading=True),),
    "card_drawn": (Move("card", "whole", ("draw-deck", ""), (HAND_ZONE, "player")),),
    "cards_exchanged": (Move("cards", "first", (HAND_ZONE, "player"), (HAND_ZONE, "other")),
                        Move("cards", "last", (HAND_ZONE, "other"), (HAND_ZONE, "player"))),
}
#: The events whose ``cards`` are the whole hand of the seat in ``player`` (a showing).
WHOLE_HAND: frozenset[str] = frozenset({"hand_shown"})
#: Where a card goes when no reading names a zone for it: the draw deck, where nothing is
#: remembered (the conservative choice).
UNKNOWN_DESTINATION = "draw-deck"


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


def _place(zone: str, seat_field: str, seen: Seen) -> Place:
    return (zone, getattr(seen.event, seat_field) if seat_field else -1)


def _moved(move: Move, seen: Seen) -> tuple[int, ...]:
    e = seen.event
    if move.field == "card":
        return (e.card,)
    if move.part == "first":
        return e.cards[:e.count]
    if move.part == "last":
        return e.cards[e.count:]
    return e.cards  # whole


class _Memory:
    """The copies a viewer remembers while reading the events."""

    def __init__(self, viewer: int) -> None:
        self.viewer = viewer
        self.copies: list[_Copy] = []

    def tracked(self, place: Place) -> bool:
        return place[0] == DISCARD_ZONE or (place[0] == HAND_ZONE and place[1] != self.viewer)

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
        if e.kind == FORGET_AT:
            self.copies.clear()
            return
        if e.kind in WHOLE_HAND and "cards" not in seen.hidden:
            self.show_hand(e.player, e.cards, seen)
        moves = MOVES.get(e.kind, ())
        resolved = [(m, _place(*m.source, seen),
                     (reading_zone(game, e.rule), -1) if m.by_reading else _place(*m.to, seen)) for m in moves]
        for m, source, dest in resolved:  # first every card leaving, then every card arriving
            if m.field in seen.hidden:
                n = 1 if m.field == "card" else max(e.count, 0)
                if n and self.tracked(source):
                    self.spread(source, dest)
            elif self.tracked(source):
                for card in _moved(m, seen):
                    self.take(card, source)
        for m, _, dest in resolved:
            if m.field not in seen.hidden and self.tracked(dest):
                for card in _moved(m, seen):
                    self.add(card, dest, seen)


def reading_zone(game: Game, rule: str) -> str:
    """The zone the game's ruleset names for where ``rule`` (a rule id of ``spec/``) puts a
    card: its reading of a variation point of the rule whose readings include a zone id of
    ``spec/visibility.yaml`` (:data:`palast.visibility.ZONES`), when it takes a reading that
    is a zone; else :data:`UNKNOWN_DESTINATION` (another reading: a place not remembered)."""
    found = game.spec.rules.get(rule)
    for point in found.variation_points if found is not None else ():
        if any(r.id in ZONES for r in game.spec.variation_points[point].readings):
            reading = game.spec.reading(game.ruleset, point)
            return reading if reading in ZONES else UNKNOWN_DESTINATION
    return UNKNOWN_DESTINATION


def remembered(game: Game, viewer: int, seen: Sequence[Seen], open_seats: Iterable[int] = ()) -> tuple[Placed, ...]:
    """The cards ``viewer`` knows to lie outside the draw deck and does not see now.

    :param seen: the events as the viewer saw them, first to last.
    :param open_seats: seats whose hands are open to the viewer now (seen, so not remembered:
        an entry that may lie in one of them is dropped).
    :returns: the :class:`Placed` entries, copies from one event with the same places grouped.
    """
    memory = _Memory(viewer)
    for s in seen:
        memory.read(game, s)
    open_places = {(HAND_ZONE, s) for s in open_seats}
    groups: dict[tuple[frozenset[Place], int], list[_Copy]] = {}
    for c in memory.copies:
        if not c.places & open_places:
            groups.setdefault((c.places, c.index), []).append(c)
    return tuple(Placed(tuple(sorted(c.card for c in cs)), tuple(sorted(places)), index, cs[0].round, cs[0].event)
                 for (places, index), cs in sorted(groups.items(), key=lambda kv: (kv[0][1], sorted(kv[0][0]))))


def place_cards(state: State, place: Place) -> tuple[int, ...]:
    """The cards of ``state`` in ``place`` (a hand or the discard pile)."""
    return state.hands[place[1]] if place[0] == HAND_ZONE else state.discard


def holds(state: State, placed: Sequence[Placed]) -> bool:
    """True if ``state`` agrees with ``placed``: the entries can be matched to distinct
    copies, each lying in one of its entry's places (Hall's condition, per card)."""
    wanted: dict[int, list[frozenset[Place]]] = {}
    for p in placed:
        for card in p.cards:
            wanted.setdefault(card, []).append(frozenset(p.places))
    for card, entries in wanted.items():
        have: Counter[Place] = Counter()
        for place in frozenset().union(*entries):
            have[place] = place_cards(state, place).count(card)
        for k in range(1, len(entries) + 1):
            for some in combinations(entries, k):
                if sum(have[pl] for pl in frozenset().union(*some)) < k:
                    return False
    return True
