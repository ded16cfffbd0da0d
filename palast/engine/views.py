"""A player's view of a position: what one player knows, computed from ``spec/visibility.yaml``.

:func:`observation` applies the visibility declarations (:mod:`palast.spec.visibility`) to a
:class:`~palast.engine.state.State` and to the events of the game so far: each zone's
cards where the viewer may see them (its count otherwise), the events as the viewer saw
them (hidden fields blanked), the cards shown to the viewer and when, the hands that stay
open to them, the cards they remember the place of (:mod:`palast.engine.knowledge`, worked
out from the events as they saw them), and the pending decision without the fields hidden from them. Which reading
of a knowledge variation point applies is the game's ruleset's; a point the ruleset leaves
open shows what every reading shows, and the view names the point.

No role is named here: a role's effect on knowledge is the ``sees`` of its event kind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from palast.engine.actions import Action
from palast.engine.events import Event
from palast.engine.knowledge import Placed, remembered
from palast.engine.state import Decision, GameResult, RoundEnd, State
from palast.errors import InputError
from palast.spec.load import OPEN
from palast.spec.visibility import HAND_ZONE, Effect, Visibility, sees

if TYPE_CHECKING:
    from palast.engine.game import Game

#: The card-carrying fields of an event: a field the visibility file declares an audience
#: for is a showing of cards to that audience (:attr:`Observation.shown`).
CARD_FIELDS: tuple[str, ...] = ("card", "cards")
#: What a hidden event field is blanked to in a view.
BLANK: Mapping[str, object] = {"player": -1, "other": -1, "card": -1, "role": -1, "count": -1, "cards": (),
                               "seats": (), "detail": ""}


@dataclass(frozen=True, slots=True)
class ZoneView:
    """One zone as the viewer knows it.

    :ivar zone: the zone id of ``spec/visibility.yaml``.
    :ivar seat: the seat holding it, or ``-1`` for a zone on the table.
    :ivar count: how many cards it holds, or ``None`` if the viewer may not count them.
    :ivar cards: its cards (role indices for King zones), or ``None`` if hidden from the viewer.
    :ivar kings: True for a zone of King cards (spec/state.yaml, ``holds``).
    """

    zone: str
    seat: int
    count: int | None
    cards: tuple[int, ...] | None
    kings: bool = False


@dataclass(frozen=True, slots=True)
class Seen:
    """One event as the viewer saw it.

    :ivar index: its place in the history given to :func:`observation` (when).
    :ivar round: the round it happened in (0 before the first deal).
    :ivar event: the event, its hidden fields blanked (see :data:`BLANK`).
    :ivar hidden: the names of the fields hidden from the viewer.
    :ivar open_point: a knowledge variation point the ruleset leaves open that would decide
        whether the viewer sees a hidden field, or ``""``.
    """

    index: int
    round: int
    event: Event
    hidden: tuple[str, ...] = ()
    open_point: str = ""


@dataclass(frozen=True, slots=True)
class Shown:
    """Cards shown to the viewer: whose, which, when, by which event, for how long.

    :ivar seat: the seat the event concerns (whose hand was shown, who drew).
    :ivar lasts: ``once``, or ``round`` for a hand that stays open until the round ends.
    """

    index: int
    round: int
    seat: int
    cards: tuple[int, ...]
    event: str
    lasts: str


@dataclass(frozen=True, slots=True)
class DecisionView:
    """The pending decision as the viewer knows it; a field hidden from them is blanked and
    named in :attr:`hidden` (``given``: the Wizard's picks while the partner chooses)."""

    kind: str
    player: int
    partner: int
    count: int
    given: tuple[int, ...]
    options: tuple[int, ...]
    forced: bool
    point: str
    points: tuple[str, ...]
    hidden: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Observation:
    """What one player knows about a position and the play that led to it.

    :ivar player: the viewer's seat.
    :ivar zones: every zone (each seat's hand and display, then the table zones), as the
        viewer knows it.
    :ivar open_hands: ``(seat, cards)`` for other players' hands open to the viewer now.
    :ivar shown: the cards shown to the viewer, in order.
    :ivar placed: the cards the viewer knows to lie outside the draw deck without seeing
        them now (remembered from earlier showings and moves this round; see
        :func:`palast.engine.knowledge.remembered`), each with the places it may be in.
    :ivar history: every event of the history as the viewer saw it.
    :ivar decision: the pending decision.
    :ivar legal_actions: the viewer's legal actions, when the viewer decides (not chance).
    :ivar open_points: knowledge variation points left open by the ruleset that hid
        something from the viewer.
    """

    player: int
    round: int
    actor: int
    scores: tuple[int, ...]
    played: tuple[int, ...]
    tally: tuple[int, ...]
    last_card: int
    zones: tuple[ZoneView, ...]
    open_hands: tuple[tuple[int, tuple[int, ...]], ...]
    shown: tuple[Shown, ...]
    placed: tuple[Placed, ...]
    history: tuple[Seen, ...]
    decision: DecisionView
    legal_actions: tuple[Action, ...]
    open_points: tuple[str, ...]
    round_end: RoundEnd | None
    result: GameResult | None
    #: each seat's mark (a rule module's character card, dealt face up), or ``()``
    marks: tuple[int, ...] = ()

    def zone(self, zone: str, seat: int = -1) -> ZoneView:
        """The view of ``zone`` (held by ``seat``, or on the table).

        :raises KeyError: for a zone the spec does not declare.
        """
        for z in self.zones:
            if z.zone == zone and z.seat == seat:
                return z
        raise KeyError((zone, seat))

    @property
    def hand(self) -> tuple[int, ...]:
        """The viewer's own hand."""
        return self.zone(HAND_ZONE, self.player).cards or ()

    def known_cards(self) -> tuple[int, ...]:
        """Every card whose place the viewer sees now: zones and open hands (sorted;
        King zones excluded)."""
        out: list[int] = []
        for z in self.zones:
            if z.cards is not None and not z.kings:
                out.extend(z.cards)
        for _, cards in self.open_hands:
            out.extend(cards)
        return tuple(sorted(out))


def reading_of(game: Game, point: str | None) -> str | None:
    """The reading the game's ruleset takes for ``point`` (``"open"`` or a reading id), or
    ``None`` for no point."""
    return game.spec.reading(game.ruleset, point) if point else None


def see_event(game: Game, vis: Visibility, e: Event, viewer: int,
              open_seats: frozenset[int] = frozenset()) -> tuple[Event, tuple[str, ...], str, Effect | None]:
    """Event ``e`` as ``viewer`` sees it; ``open_seats`` are the seats whose hands are open
    to the viewer (a card the event moves out of or into such a hand is seen, by the
    effect's ``moves``).

    :returns: the event with hidden fields blanked, the hidden field names, the open
        knowledge point behind a hidden field (or ``""``), and the event's effect.
    :raises InputError: for an event kind ``spec/visibility.yaml`` does not declare.
    """
    eff = vis.effects.get(e.kind)
    if eff is None:
        raise InputError(f"spec/visibility.yaml declares no event {e.kind!r}")
    reading = reading_of(game, eff.point)
    audiences, _ = eff.under(reading)
    who = {"player": e.player, "other": e.other}
    hidden = tuple(f for f, aud in audiences.items() if not sees(aud, "effect", viewer, who))
    if hidden and open_seats:
        seen_moving = {("card" if m.take == "card" else "cards") for m in eff.moves
                       for zone, seat in (m.source, m.to) if zone == HAND_ZONE and seat and
                       getattr(e, seat) in open_seats}
        hidden = tuple(f for f in hidden if f not in seen_moving)
    if not hidden:
        return e, (), "", eff
    blanked = replace(e, **{f: BLANK[f] for f in hidden})  # type: ignore[arg-type]
    return blanked, hidden, (eff.point or "") if reading == OPEN else "", eff


def observation(game: Game, state: State, player: int | str, history: Sequence[Event] = ()) -> Observation:
    """What ``player`` knows in ``state`` after the events ``history`` (the game's events
    so far, first to last; without them only the position itself is known).

    :param player: a seat or a seated colour.
    :returns: the :class:`Observation`.
    :raises InputError: for a colour that is not seated, a seat out of range, or an event
        kind the visibility file does not declare.
    """
    viewer = game.seat_of(player) if isinstance(player, str) else player
    if not 0 <= viewer < game.n:
        raise InputError(f"no seat {viewer} (the game has {game.n} players)")
    vis = game.spec.visibility
    zones: list[ZoneView] = []
    for rule in vis.zones:
        cards_aud, count_aud = rule.under(reading_of(game, rule.point))
        decl = game.spec.state.by_zone[rule.zone]
        place = "held-zone" if decl.per_player else "table-zone"
        for seat in (range(game.n) if decl.per_player else (-1,)):
            who = {"holder": seat}
            zones.append(ZoneView(rule.zone, seat,
                                  decl.count_in(state, seat) if sees(count_aud, place, viewer, who) else None,
                                  decl.cards_in(state, seat) if sees(cards_aud, place, viewer, who) else None,
                                  decl.holds == "King cards"))
    seen: list[Seen] = []
    shown: list[Shown] = []
    open_until_round_end: set[int] = set()
    open_points: list[str] = []
    # the round of the first event: a history from a scenario's position starts inside the
    # round, without its deal (each later deal starts the next round)
    rnd = max(state.round - sum(1 for e in history if e.kind == "round_dealt"), 0)
    for i, e in enumerate(history):
        if e.kind == "round_dealt":
            rnd = e.count
            open_until_round_end.clear()
        elif e.kind == "round_ended":
            open_until_round_end.clear()
        ev, hidden, point, eff = see_event(game, vis, e, viewer, frozenset(open_until_round_end))
        seen.append(Seen(i, rnd, ev, hidden, point))
        if point and point not in open_points:
            open_points.append(point)
        if eff is None:
            continue
        audiences, lasts = eff.under(reading_of(game, eff.point))
        for f in CARD_FIELDS:
            if f in audiences and f not in hidden:
                value = getattr(e, f)
                cards = value if isinstance(value, tuple) else (value,)
                shown.append(Shown(i, rnd, e.player, cards, e.kind, lasts))
                if lasts == "round" and e.player != viewer:
                    open_until_round_end.add(e.player)
    d = state.decision
    rule_d = vis.decisions.get(d.kind)
    dec_hidden: tuple[str, ...] = ()
    if rule_d is not None:
        who = {"player": d.player, "partner": d.partner}
        dec_hidden = tuple(f for f, aud in rule_d.sees.items() if not sees(aud, "decision", viewer, who))
    dv = _decision_view(d, dec_hidden)
    legal: tuple[Action, ...] = ()
    if d.player == viewer and not d.is_chance and not d.is_terminal:
        legal = tuple(game.legal_actions(state))
    return Observation(
        player=viewer, round=state.round, actor=state.actor, scores=state.scores, played=state.played,
        tally=state.tally, last_card=state.last_card, zones=tuple(zones),
        open_hands=tuple((s, state.hands[s]) for s in sorted(open_until_round_end)),
        shown=tuple(shown), placed=remembered(game, viewer, seen, open_until_round_end), history=tuple(seen),
        decision=dv, legal_actions=legal,
        open_points=tuple(open_points), round_end=state.round_end, result=state.result, marks=state.marks)


def _decision_view(d: Decision, hidden: tuple[str, ...]) -> DecisionView:
    return DecisionView(d.kind, d.player, -1 if "partner" in hidden else d.partner,
                        -1 if "count" in hidden else d.count, () if "given" in hidden else d.given,
                        () if "options" in hidden else d.options, False if "forced" in hidden else d.forced,
                        d.point, () if "points" in hidden else d.points, hidden)
